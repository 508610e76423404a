"""Writes TF-produced graph files with the values TF computes, for tf1compat's import tests.

Run with the TensorFlow venv (never in CI):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/make_graph_fixtures.py [case ...]

Each case writes `tests/fixtures/tf_graphs/<case>/`: the graph (`graph.meta`, a
MetaGraphDef from `tf.train.export_meta_graph`/`Saver.save`, or `graph.pb`, a frozen
GraphDef), a checkpoint where the graph has variables, and `expected.npz` + `case.json`:

    {"graph": "graph.meta", "checkpoint": "ckpt" | null, "init": "init" | null,
     "runs": [{"feeds": {"x:0": "feed_0_x"}, "fetches": ["y:0", ...],
               "values": ["run_0_0", ...], "targets": ["train_op"]}, ...],
     "ops": [op types in the graph and its functions]}

Feeds and fetched values are arrays in expected.npz under the names given. Runs happen in
order in one session (a run with targets changes variables for the later runs), so a
training run followed by fetches of the variables checks the train op.
"""

from __future__ import annotations

import json
import os
import shutil
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "tf_graphs")

import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
tf.get_logger().setLevel("ERROR")


class Recorder:
    """Collects one case's runs, arrays and files."""

    def __init__(self, name: str):
        self.name = name
        self.dir = os.path.join(OUT, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.arrays: dict = {}
        self.spec: dict = {"graph": None, "checkpoint": None, "init": None, "runs": []}

    def array(self, key: str, value) -> str:
        value = np.asarray(value)
        if value.dtype == object:
            raise TypeError(f"{self.name}/{key}: string arrays are not recorded")
        self.arrays[key] = value
        return key

    def run(self, sess, fetches, feeds=None, targets=()) -> list:
        feeds = feeds or {}
        k = len(self.spec["runs"])
        names = [f if isinstance(f, str) else f.name for f in fetches]
        tnames = [t if isinstance(t, str) else t.name for t in targets]
        values = sess.run(names + tnames, {key: v for key, v in feeds.items()})[:len(names)]
        self.spec["runs"].append({
            "feeds": {key: self.array(f"feed_{k}_{i}", v)
                      for i, (key, v) in enumerate(feeds.items())},
            "fetches": names,
            "values": [self.array(f"run_{k}_{i}", v) for i, v in enumerate(values)],
            "targets": tnames})
        return values

    def save_meta(self, sess=None, saver=None, with_saver_def: bool = False) -> None:
        """Writes graph.meta (with the saver's SaverDef if `with_saver_def`, as
        `Saver.save` writes it) and the saver's checkpoint."""
        path = os.path.join(self.dir, "graph.meta")
        if saver is not None:
            prefix = os.path.join(self.dir, "ckpt")
            saver.save(sess, prefix, write_meta_graph=False)
            self.spec["checkpoint"] = "ckpt"
        tf.train.export_meta_graph(path, saver_def=saver.saver_def if with_saver_def else None)
        self.spec["graph"] = "graph.meta"

    def minimize(self, loss: str, feeds: dict, variables: list, steps: int = 2,
                 learning_rate: float = 0.1) -> None:
        """TF imports the saved graph, restores the checkpoint and trains `loss` with
        GradientDescent (its gradients of the imported control flow); records the
        variables after `steps` steps."""
        with tf.Graph().as_default() as graph:
            saver = tf.train.import_meta_graph(os.path.join(self.dir, "graph.meta"))
            train = tf.train.GradientDescentOptimizer(learning_rate).minimize(
                graph.get_tensor_by_name(loss))
            with tf.Session() as sess:
                saver.restore(sess, os.path.join(self.dir, self.spec["checkpoint"]))
                for _ in range(steps):
                    sess.run(train, feeds)
                values = sess.run(variables, feeds)
        self.spec["minimize"] = {
            "loss": loss, "learning_rate": learning_rate, "steps": steps,
            "feeds": {k: self.array(f"minimize_feed_{i}", v)
                      for i, (k, v) in enumerate(feeds.items())},
            "variables": variables,
            "values": [self.array(f"minimize_{i}", v) for i, v in enumerate(values)]}

    def train_from_file(self, loss, optimizer, sources: list, feed: dict, variables: list
                        ) -> None:
        """Saves the graph with `optimizer`'s train op on `loss` (or `optimizer` itself: a
        train op already built) in the "train_op" collection and `grad_<i>` = TF's
        gradients of `loss` wrt `sources`; records the loss and gradients, two training
        steps from the file's train op, then `variables` and the loss."""
        train = optimizer if isinstance(optimizer, tf.Operation) else optimizer.minimize(loss)
        tf.add_to_collection("train_op", train)
        for i, g in enumerate(tf.gradients(loss, sources)):
            tf.identity(g, name=f"grad_{i}")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            self.save_meta(sess, saver)
            self.run(sess, [loss.name] + [f"grad_{i}:0" for i in range(len(sources))], feed)
            self.run(sess, [], feed, targets=[train.name])
            self.run(sess, [], feed, targets=[train.name])
            self.run(sess, variables + [loss.name], feed)

    def save_pb(self, graph_def) -> None:
        with open(os.path.join(self.dir, "graph.pb"), "wb") as f:
            f.write(graph_def.SerializeToString())
        self.spec["graph"] = "graph.pb"

    def finish(self, graph_def) -> None:
        types = {n.op for n in graph_def.node}
        for fdef in graph_def.library.function:
            types.update(n.op for n in fdef.node_def)
        self.spec["ops"] = sorted(types)
        np.savez(os.path.join(self.dir, "expected.npz"), **self.arrays)
        with open(os.path.join(self.dir, "case.json"), "w") as f:
            json.dump(self.spec, f, indent=1, sort_keys=True)


# -- cases ------------------------------------------------------------------------------------

def case_cond_while_gradients(rec: Recorder) -> None:
    """tf.cond and tf.while_loop (Switch/Merge/Enter/...) and TF's gradients of both (Stack
    ops, ControlTrigger, gradient loops)."""
    x = tf.placeholder(tf.float32, [], name="x")
    v = tf.Variable(2.0, name="v")
    r = tf.cond(x > 0, lambda: x * v + 1.0, lambda: tf.constant(-1.0))
    i, s = tf.while_loop(lambda i, s: i < 5,
                         lambda i, s: (i + 1, s + x * tf.cast(i, tf.float32)), [0, 0.0])
    loss = tf.identity(r + s * s, name="loss")
    gx, gv = tf.gradients(loss, [x, v])
    tf.identity(gx, name="gx")
    tf.identity(gv, name="gv")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for value in (1.5, -2.0):
            rec.run(sess, [r, s, i, "gx:0", "gv:0"], {"x:0": np.float32(value)})
        rec.save_meta(sess, saver)
    rec.minimize("loss:0", {"x:0": np.float32(0.5)}, ["v:0"])


def case_nested_control_flow(rec: Recorder) -> None:
    """A loop in a loop, a cond in a loop, a loop in an untaken cond branch, tf.case."""
    n = tf.placeholder(tf.int32, [], name="n")

    def outer_body(i, acc):
        inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + j), [0, 0])[1]
        acc = acc + tf.cond(tf.equal(i % 2, 0), lambda: inner * 10, lambda: inner)
        return i + 1, acc
    _, total = tf.while_loop(lambda i, acc: i < n, outer_body, [0, 0])
    dead_loop = tf.cond(n > 100,
                        lambda: tf.while_loop(lambda k: k < n, lambda k: k + 1, [0]),
                        lambda: tf.constant(-7))
    picked = tf.case([(tf.equal(n, 1), lambda: tf.constant(11)),
                      (tf.equal(n, 4), lambda: tf.constant(44))],
                     default=lambda: tf.constant(0))
    tf.identity(total, name="total")
    tf.identity(dead_loop, name="dead_loop")
    tf.identity(picked, name="picked")
    with tf.Session() as sess:
        for value in (4, 1, 0):
            rec.run(sess, ["total:0", "dead_loop:0", "picked:0"], {"n:0": np.int32(value)})
    rec.save_meta()


def case_tensor_array(rec: Recorder) -> None:
    """TensorArrayV3 written and read in a while loop (scatter/gather/stack/concat/split)
    and its gradient (TensorArrayGradV3)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.Variable(np.arange(3, dtype=np.float32) / 4.0, name="w")
    ta = tf.TensorArray(tf.float32, size=4).unstack(x)
    out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, acc, out):
        e = ta.read(i) * w + acc
        return i + 1, e, out.write(i, tf.tanh(e))
    _, last, out = tf.while_loop(lambda i, a, o: i < 4, body,
                                 [0, tf.zeros([3]), out])
    stacked = tf.identity(out.stack(), name="stacked")
    split = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(tf.reshape(x, [-1]),
                                                     tf.constant([5, 7], tf.int64))
    concat = tf.identity(split.concat(), name="concat")
    loss = tf.reduce_sum(stacked * stacked) + tf.reduce_sum(last)
    gx, gw = tf.gradients(loss, [x, w])
    tf.identity(gx, name="gx")
    tf.identity(gw, name="gw")
    saver = tf.train.Saver()
    feed = {"x:0": np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.run(sess, ["stacked:0", "concat:0", "gx:0", "gw:0"], feed)
        rec.save_meta(sess, saver)


def case_dynamic_rnn_training(rec: Recorder) -> None:
    """dynamic_rnn (LSTM) with sequence lengths, trained with Adam: the train op from the
    file runs two steps after the checkpoint is restored."""
    tf.set_random_seed(3)
    x = tf.placeholder(tf.float32, [2, 5, 3], name="x")
    lengths = tf.placeholder(tf.int32, [2], name="lengths")
    y = tf.placeholder(tf.float32, [2, 4], name="y")
    cell = tf.nn.rnn_cell.LSTMCell(4)
    outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
    loss = tf.reduce_mean(tf.square(state.h - y), name="loss")
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
    tf.add_to_collection("train_op", train)
    tf.identity(outputs, name="outputs")
    saver = tf.train.Saver()
    rng = np.random.RandomState(1)
    feed = {"x:0": rng.randn(2, 5, 3).astype(np.float32),
            "lengths:0": np.array([5, 3], np.int32),
            "y:0": rng.randn(2, 4).astype(np.float32)}
    kernel = "rnn/lstm_cell/kernel:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["outputs:0", "loss:0"], feed)
        rec.run(sess, [], feed, targets=[train.name])
        rec.run(sess, [], feed, targets=[train.name])
        rec.run(sess, [kernel, "rnn/lstm_cell/bias:0", "loss:0", "global_step:0"], feed)
    rec.minimize("loss:0", feed, [kernel, "rnn/lstm_cell/bias:0"], learning_rate=0.5)


def case_cnn_training(rec: Recorder) -> None:
    """A small CNN (conv, max/avg pooling, fused batch norm under a tensor training flag,
    depthwise conv, dropout, LRN, embedding, dense) trained by the train op from the file:
    TF's gradient ops (Conv2DBackprop*, MaxPoolGrad, AvgPoolGrad, FusedBatchNormGradV3,
    LRNGrad, ...) and Momentum."""
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [4, 12, 12, 1], name="x")
    y = tf.placeholder(tf.int64, [4], name="y")
    training = tf.placeholder_with_default(False, [], name="training")
    h = tf.layers.conv2d(x, 4, 3, activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.batch_normalization(h, training=training, fused=True)
    h = tf.layers.conv2d(h, 4, 3, padding="same", activation=tf.nn.elu)
    h = tf.nn.avg_pool(h, 2, 2, "VALID")
    h = tf.nn.depthwise_conv2d(h, tf.Variable(tf.ones([3, 3, 4, 1]) * 0.1), [1, 1, 1, 1],
                               "SAME")
    h = tf.nn.lrn(h, depth_radius=2)
    h = tf.layers.dropout(tf.layers.flatten(h), 0.0, training=training)
    emb = tf.nn.embedding_lookup(tf.Variable(tf.ones([10, 3]) * 0.5, name="emb"), y)
    logits = tf.layers.dense(tf.concat([tf.layers.dense(h, 6, tf.nn.tanh), emb], 1), 10)
    loss = tf.identity(tf.losses.sparse_softmax_cross_entropy(y, logits), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    tf.add_to_collection("train_op", train)
    saver = tf.train.Saver()
    rng = np.random.RandomState(3)
    feed = {"x:0": rng.rand(4, 12, 12, 1).astype(np.float32),
            "y:0": np.array([1, 3, 5, 7], np.int64), "training:0": True}
    names = [v.name for v in tf.trainable_variables()] + \
        ["batch_normalization/moving_mean:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["loss:0"], feed)
        rec.run(sess, [], feed, targets=[train.name])
        rec.run(sess, [], feed, targets=[train.name])
        rec.run(sess, names + ["loss:0"], feed)


def case_tf_data(rec: Recorder) -> None:
    """tf.data pipelines in a graph: TensorSliceDataset -> MapDataset (a function of the
    library) -> ShuffleDataset(seeded) -> BatchDatasetV2, one-shot and initializable
    iterators."""
    data = np.arange(12, dtype=np.float32).reshape(6, 2)
    ds = tf.data.Dataset.from_tensor_slices(data).map(lambda e: e * 2.0 + 1.0).batch(4)
    it = tf.data.make_one_shot_iterator(ds)
    nxt = tf.identity(it.get_next(), name="one_shot_next")
    scale = tf.placeholder(tf.float32, [], name="scale")
    ds2 = tf.data.Dataset.range(5).map(lambda e: tf.cast(e, tf.float32) * scale)
    it2 = tf.data.make_initializable_iterator(ds2)
    tf.identity(it2.get_next(), name="init_next")
    tf.add_to_collection("iterator_init", it2.initializer)
    with tf.Session() as sess:
        rec.run(sess, ["one_shot_next:0"])
        rec.run(sess, ["one_shot_next:0"])
        sess.run(it2.initializer, {scale: 3.0})
        rec.spec["runs"].append({"feeds": {"scale:0": rec.array("feed_init", np.float32(3))},
                                 "fetches": [], "values": [],
                                 "targets": [it2.initializer.name]})
        rec.run(sess, ["init_next:0"])
        rec.run(sess, ["init_next:0"])
    rec.save_meta()


def case_tf_data_ragged(rec: Recorder) -> None:
    """tf.data with RaggedTensor elements (tests/graph_export_cases.py's pipelines, which
    tf1compat writes too): RaggedTensorToVariant sources, a MapDataset function decoding
    and encoding variants, ragged_batch, unbatch (batched variants) and
    RaggedTensorFromVariant after IteratorGetNext."""
    sys.path.insert(0, ROOT)
    from tests.graph_export_cases import ragged_pipeline_fetches
    fetches = ragged_pipeline_fetches(tf)
    with tf.Session() as sess:
        rec.run(sess, fetches)
        rec.run(sess, fetches)
    rec.save_meta()


def case_functional_control_flow(rec: Recorder) -> None:
    """Control flow v2 in a TF1 graph: If/While (and their Stateless forms) with a
    function library, and their gradients."""
    from tensorflow.python.ops import control_flow_v2_toggles
    control_flow_v2_toggles.enable_control_flow_v2()
    try:
        x = tf.placeholder(tf.float32, [], name="x")
        v = tf.Variable(3.0, name="v", use_resource=True)
        r = tf.cond(x > 0, lambda: x * v, lambda: x - v)
        _, s = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s * x + 1.0), [0, 1.0])
        loss = tf.identity(r + s, name="loss")
        g = tf.gradients(loss, [x])[0]
        tf.identity(r, name="r")
        tf.identity(s, name="s")
        tf.identity(g, name="g")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for value in (0.5, -1.5):
                rec.run(sess, ["r:0", "s:0", "g:0"], {"x:0": np.float32(value)})
            rec.save_meta(sess, saver)
        rec.minimize("loss:0", {"x:0": np.float32(0.5)}, ["v/Read/ReadVariableOp:0"])
    finally:
        control_flow_v2_toggles.disable_control_flow_v2()


def case_partitioned_call(rec: Recorder) -> None:
    """A tf.function called in a TF1 graph: StatefulPartitionedCall with its function."""
    import tensorflow as tf2

    @tf2.function
    def affine(a, b):
        return tf.matmul(a, b) + 1.0, tf.reduce_sum(a)
    a = tf.placeholder(tf.float32, [2, 3], name="a")
    b = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    y, total = affine(a, b)
    tf.identity(y, name="y")
    tf.identity(total, name="total")
    with tf.Session() as sess:
        rec.run(sess, ["y:0", "total:0"], {"a:0": np.ones((2, 3), np.float32)})
    rec.save_meta()


def case_frozen_keras_mobilenet(rec: Recorder) -> None:
    """A small Keras application (MobileNet, alpha 0.25, 32x32, random weights) frozen with
    convert_variables_to_constants; inference through import_graph_def."""
    keras = tf.keras
    keras.backend.set_learning_phase(0)
    tf.set_random_seed(5)
    model = keras.applications.MobileNet(input_shape=(32, 32, 3), alpha=0.25, weights=None,
                                         classes=5)
    sess = keras.backend.get_session()
    out_name = model.output.op.name
    frozen = tf.graph_util.convert_variables_to_constants(
        sess, sess.graph.as_graph_def(), [out_name])
    rng = np.random.RandomState(2)
    x = rng.rand(2, 32, 32, 3).astype(np.float32)
    with tf.Graph().as_default() as g:
        tf.import_graph_def(frozen, name="")
        with tf.Session(graph=g) as s:
            rec.run(s, [out_name + ":0"], {model.input.name: x})
    rec.save_pb(frozen)


def case_gradient_ops(rec: Recorder) -> None:
    """TF's own gradient ops for slices, resizes, mirror pads, 3-D pooling and convolution,
    crops, max pooling's second derivative and argmax pooling, fetched by name from the
    file (StridedSliceGrad, ResizeBilinearGrad, MirrorPadGrad, MaxPoolGradGrad, ...)."""
    rng = np.random.RandomState(5)
    x = tf.placeholder(tf.float32, [2, 6, 6, 3], name="x")
    v = tf.placeholder(tf.float32, [2, 4, 4, 4, 2], name="v")
    seq = tf.placeholder(tf.float32, [2, 5, 3], name="seq")
    boxes = tf.constant([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 0.5, 0.6]])
    parts = {
        "slice": seq[:, -1] * 2.0 + tf.reduce_sum(seq[:, 1:4:2, ::-1] ** 2, [1]),
        "bilinear": tf.image.resize_bilinear(x, [9, 4]),
        "bilinear_corners": tf.image.resize_bilinear(x, [4, 9], align_corners=True),
        "nearest": tf.image.resize_nearest_neighbor(x, [12, 5]),
        "bicubic": tf.image.resize_bicubic(x, [8, 8]),
        "reflect": tf.pad(x, [[0, 0], [2, 1], [1, 2], [0, 0]], "REFLECT"),
        "symmetric": tf.pad(x, [[0, 0], [1, 1], [3, 0], [0, 0]], "SYMMETRIC"),
        "max3d": tf.nn.max_pool3d(v, [1, 2, 2, 2, 1], [1, 2, 1, 2, 1], "SAME"),
        "avg3d": tf.nn.avg_pool3d(v, [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], "VALID"),
        "conv3d": tf.nn.conv3d(v, tf.constant(rng.randn(2, 2, 2, 2, 3).astype(np.float32)),
                               [1, 1, 2, 1, 1], "SAME"),
        "crops": tf.image.crop_and_resize(x, boxes, [0, 1], [3, 4]),
    }
    pooled, argmax = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    parts["argmax_pool"] = pooled
    weights = {k: tf.constant(rng.randn(*t.shape.as_list()).astype(np.float32))
               for k, t in parts.items()}
    loss = tf.add_n([tf.reduce_sum(t * weights[k]) for k, t in sorted(parts.items())],
                    name="loss")
    gx, gv, gseq = tf.gradients(loss, [x, v, seq])
    tf.identity(gx, name="gx")
    tf.identity(gv, name="gv")
    tf.identity(gseq, name="gseq")
    g_boxes = tf.gradients(tf.reduce_sum(parts["crops"] * weights["crops"]), boxes)[0]
    tf.identity(g_boxes, name="g_boxes")
    # MaxPoolGradGrad: the gradient of max pooling's gradient.
    pool = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    first = tf.gradients(tf.reduce_sum(pool * pool), x)[0]
    tf.identity(tf.gradients(tf.reduce_sum(first * x), x)[0], name="g_max_pool_twice")
    feed = {"x:0": rng.randn(2, 6, 6, 3).astype(np.float32),
            "v:0": rng.randn(2, 4, 4, 4, 2).astype(np.float32),
            "seq:0": rng.randn(2, 5, 3).astype(np.float32)}
    with tf.Session() as sess:
        rec.run(sess, ["loss:0", "gx:0", "gv:0", "gseq:0", "g_boxes:0",
                       "g_max_pool_twice:0"], feed)
    rec.save_meta()


def case_tf1_era_ops(rec: Recorder) -> None:
    """Ops of graphs written by TF <= 1.13 and their gradients: FusedBatchNorm (V1, V2),
    MaxPoolV2; trained from the file with Momentum. (TF 2.21
    refuses to build BatchNormWithGlobalNormalization, which only older graphs hold.)"""
    rng = np.random.RandomState(6)
    raw = tf.raw_ops
    x = tf.placeholder(tf.float32, [4, 5, 5, 3], name="x")
    scale = tf.Variable(rng.rand(3).astype(np.float32) + 0.5, name="scale")
    offset = tf.Variable(rng.randn(3).astype(np.float32), name="offset")
    mean = tf.constant(rng.randn(3).astype(np.float32))
    var = tf.constant(rng.rand(3).astype(np.float32) + 0.1)
    v1 = raw.FusedBatchNorm(x=x, scale=scale, offset=offset, mean=tf.constant([], tf.float32),
                            variance=tf.constant([], tf.float32), epsilon=0.001)
    v2 = raw.FusedBatchNormV2(x=x * 2.0, scale=scale, offset=offset, mean=mean,
                              variance=var, is_training=False)
    pooled = raw.MaxPoolV2(input=v1.y + v2.y, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                           padding="SAME")
    loss = tf.identity(tf.reduce_sum(tf.square(pooled)) + tf.reduce_sum(v1.batch_mean),
                       name="loss")
    feed = {"x:0": rng.randn(4, 5, 5, 3).astype(np.float32)}
    rec.train_from_file(loss, tf.train.MomentumOptimizer(0.01, 0.9), [x, scale, offset], feed,
                        ["scale:0", "offset:0"])


def case_sparse_segment_gradients(rec: Recorder) -> None:
    """embedding_lookup_sparse with every combiner trained from the file (TF 2.21 writes
    SparseSegment*GradV2), and TF 1.x's SparseSegment*Grad ops fetched by name."""
    emb = tf.Variable(np.arange(24, dtype=np.float32).reshape(6, 4) / 10.0, name="emb")
    ids = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [2, 0], [3, 1]],
                          tf.constant([1, 3, 1, 5, 0], tf.int64), [4, 3])
    weights = tf.SparseTensor(ids.indices, tf.constant([0.5, 2.0, 1.0, 3.0, 1.5]), [4, 3])
    outs = [tf.nn.embedding_lookup_sparse(emb, ids, None, combiner=c)
            for c in ("sum", "mean", "sqrtn")]
    outs.append(tf.nn.safe_embedding_lookup_sparse(emb, ids, weights, combiner="mean"))
    loss = tf.identity(tf.add_n([tf.reduce_sum(tf.square(o)) for o in outs]), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    tf.add_to_collection("train_op", train)
    grad = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    indices = tf.constant([4, 0, 4, 2, 1])
    segments = tf.constant([0, 0, 1, 2, 2])
    for kind in ("Sum", "Mean", "SqrtN"):
        op = getattr(tf.raw_ops, f"SparseSegment{kind}Grad")
        tf.identity(op(grad=grad, indices=indices, segment_ids=segments, output_dim0=6),
                    name=f"v1_{kind}")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["loss:0", "v1_Sum:0", "v1_Mean:0", "v1_SqrtN:0"])
        rec.run(sess, [], targets=[train.name])
        rec.run(sess, ["emb:0", "loss:0"])


def case_rnn_batch_norm_training(rec: Recorder) -> None:
    """dynamic_rnn, then batch norm and dropout under a tensor training flag, trained with
    Adam under control_dependencies(UPDATE_OPS): TF's gradient code enters the update ops'
    Merges into the forward loop's frame, so that loop's frame gets Enters that depend on
    its own results (they arrive after it ran)."""
    tf.set_random_seed(11)
    x = tf.placeholder(tf.float32, [None, 5, 3], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    training = tf.placeholder_with_default(False, [], name="training")
    outputs, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(6), x, dtype=tf.float32)
    h = tf.layers.batch_normalization(outputs[:, -1], training=training)
    h = tf.layers.dropout(h, 0.0, training=training)
    logits = tf.layers.dense(h, 2, name="logits")
    loss = tf.identity(tf.losses.sparse_softmax_cross_entropy(y, logits), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.AdamOptimizer(0.01).minimize(loss, name="train")
    tf.add_to_collection("train_op", train)
    saver = tf.train.Saver()
    rng = np.random.RandomState(12)
    feed = {"x:0": rng.rand(8, 5, 3).astype(np.float32),
            "y:0": rng.randint(0, 2, 8).astype(np.int64), "training:0": True}
    names = [v.name for v in tf.global_variables()]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["loss:0"], feed)
        rec.run(sess, [], feed, targets=["train"])
        rec.run(sess, [], feed, targets=["train"])
        rec.run(sess, names + ["loss:0"], feed)


def case_cond_of_assigns(rec: Recorder) -> None:
    """tf.cond whose branches return assign_add's outputs (reference tensors: RefMerge),
    run repeatedly from the file."""
    v = tf.Variable(0, name="v")
    p = tf.placeholder(tf.bool, [], name="p")
    r = tf.cond(p, lambda: tf.assign_add(v, 1), lambda: tf.assign_add(v, 100))
    tf.identity(r, name="r")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        for value in (True, True, False):
            rec.run(sess, ["r:0"], {"p:0": value})
        rec.run(sess, ["v:0"])


def case_fractional_pool_training(rec: Recorder) -> None:
    """A CNN with fractional max and average pooling trained with Adam from the file: TF's
    FractionalMaxPoolGrad / FractionalAvgPoolGrad in the gradient graph."""
    rng = np.random.RandomState(7)
    x = tf.placeholder(tf.float32, [2, 9, 9, 2], name="x")
    w1 = tf.Variable(rng.randn(3, 3, 2, 4).astype(np.float32) * 0.3, name="w1")
    w2 = tf.Variable(rng.randn(3, 3, 4, 3).astype(np.float32) * 0.3, name="w2")
    h = tf.nn.elu(tf.nn.conv2d(x, w1, [1, 1, 1, 1], "SAME"))
    h, _, _ = tf.nn.fractional_max_pool(h, [1, 1.44, 1.6, 1], pseudo_random=True,
                                        overlapping=True, deterministic=True, seed=3, seed2=4)
    h = tf.nn.selu(tf.nn.conv2d(h, w2, [1, 1, 1, 1], "SAME"))
    h, _, _ = tf.nn.fractional_avg_pool(h, [1, 1.5, 1.3, 1], deterministic=True, seed=5,
                                        seed2=6)
    loss = tf.identity(tf.reduce_mean(tf.square(tf.nn.softplus(h) - 0.5)), name="loss")
    feed = {"x:0": rng.randn(2, 9, 9, 2).astype(np.float32)}
    rec.train_from_file(loss, tf.train.AdamOptimizer(0.05), [x, w1, w2], feed, ["w1:0", "w2:0"])


def case_v1_queue_ops(rec: Recorder) -> None:
    """The queue ops of TF 0.x / early 1.x graphs (FIFOQueue, QueueEnqueue(Many),
    QueueDequeue(Many/UpTo), QueueSize, QueueClose, ... of Ref(string) handles) feeding a
    variable's training step."""
    raw = tf.raw_ops
    q = raw.FIFOQueue(component_types=[tf.float32, tf.int32], shapes=[[2], []], capacity=10,
                      name="fifo")
    pq = raw.PaddingFIFOQueue(component_types=[tf.float32], shapes=[[None]], capacity=5,
                              name="padding_fifo")
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.int32, [None], name="y")
    raw.QueueEnqueueMany(handle=q, components=[x, y], name="enqueue_many")
    raw.QueueEnqueue(handle=q, components=[x[0] * 10.0, y[0] + 100], name="enqueue_one")
    raw.QueueEnqueue(handle=pq, components=[x[:, 0]], name="enqueue_padded")
    raw.QueueEnqueue(handle=pq, components=[x[0]], name="enqueue_padded_2")
    size = tf.identity(raw.QueueSize(handle=q), name="size")
    batch = raw.QueueDequeueMany(handle=q, n=2, component_types=[tf.float32, tf.int32],
                                 name="dequeue_many")
    one = raw.QueueDequeue(handle=q, component_types=[tf.float32, tf.int32], name="dequeue")
    padded = raw.QueueDequeueMany(handle=pq, n=2, component_types=[tf.float32],
                                  name="dequeue_padded")
    rest = raw.QueueDequeueUpTo(handle=q, n=5, component_types=[tf.float32, tf.int32],
                                name="dequeue_up_to")
    raw.QueueClose(handle=q, name="close")
    closed = tf.identity(raw.QueueIsClosed(handle=q), name="is_closed")
    w = tf.Variable(np.array([[0.5], [-1.0]], np.float32), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(batch[0], w) - 1.0), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    feed = {"x:0": np.arange(8, dtype=np.float32).reshape(4, 2), "y:0": np.arange(4) * 3}
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        # One enqueue per run: TF orders unrelated targets of one run freely.
        rec.run(sess, [], feed, targets=["enqueue_many"])
        rec.run(sess, [], feed, targets=["enqueue_one"])
        rec.run(sess, [size, closed])
        rec.run(sess, [batch[0], batch[1], one[0], one[1], size])
        rec.run(sess, [], feed, targets=["enqueue_many"])
        rec.run(sess, [], feed, targets=["enqueue_padded"])
        rec.run(sess, [], feed, targets=["enqueue_padded_2"])
        rec.run(sess, [padded[0], w, size])
        rec.run(sess, [loss, closed], targets=[train.name])
        rec.run(sess, [w, size], targets=["close"])
        rec.run(sess, [rest[0], rest[1], closed])


def case_v1_stack_ops(rec: Recorder) -> None:
    """The stack ops of TF <= 1.2 graphs (Stack, StackPush, StackPop, StackClose of a
    Ref(string) handle), pushed and popped in an order fixed by control dependencies."""
    raw = tf.raw_ops
    x = tf.placeholder(tf.float32, [3], name="x")
    stack = raw.Stack(elem_type=tf.float32, stack_name="saved", name="stack")
    first = raw.StackPush(handle=stack, elem=x, name="push_1")
    with tf.control_dependencies([first]):
        second = raw.StackPush(handle=stack, elem=x * 2.0, name="push_2")
    with tf.control_dependencies([second]):
        top = raw.StackPop(handle=stack, elem_type=tf.float32, name="pop_1")
    with tf.control_dependencies([top]):
        below = raw.StackPop(handle=stack, elem_type=tf.float32, name="pop_2")
    with tf.control_dependencies([below]):
        raw.StackClose(handle=stack, name="close")
    total = tf.identity(top + 10.0 * below, name="total")
    with tf.Session() as sess:
        rec.save_meta()
        for value in ([1., 2., 3.], [-1., 0., 4.]):
            rec.run(sess, [second, top, below, total],
                    {"x:0": np.array(value, np.float32)}, targets=["close"])


def _legacy_graph_version(producer: int) -> None:
    """Makes the default graph a GraphDef version `producer` graph (importing an empty one
    lowers the graph's version), so TF builds and runs the ops it removed after it."""
    from tensorflow.core.framework import graph_pb2
    old = graph_pb2.GraphDef()
    old.versions.producer = producer
    tf.import_graph_def(old, name="")


def case_v1_tensor_array_ops(rec: Recorder) -> None:
    """The TensorArray ops of TF 1.0-era graphs (GraphDef version 15): the V1 family of a
    Ref(string) handle with TensorArrayPack/Unpack, and the V2 family of a string handle
    in a tf.while_loop (the handle entered into the frame, the flow a loop variable, as
    TF 1.0's dynamic_rnn), both with gradient arrays written twice (they add up)."""
    _legacy_graph_version(15)
    raw = tf.raw_ops
    x = tf.placeholder(tf.float32, [3, 2], name="x")
    flow = tf.constant(0.0, name="flow")
    ta = raw.TensorArray(size=3, dtype=tf.float32, clear_after_read=False, name="ta_v1")
    f = raw.TensorArrayUnpack(handle=ta, value=x, flow_in=flow)
    written = raw.TensorArray(size=2, dtype=tf.float32, name="written_v1")
    wf = raw.TensorArrayWrite(handle=written, index=1, value=x[2] * 5.0, flow_in=flow)
    wf = raw.TensorArrayWrite(handle=written, index=0, value=x[0], flow_in=wf)
    tf.identity(raw.TensorArrayPack(handle=written, flow_in=wf, dtype=tf.float32,
                                    element_shape=[2]), name="v1_written")
    tf.identity(raw.TensorArrayRead(handle=ta, index=1, flow_in=f, dtype=tf.float32),
                name="v1_read")
    tf.identity(raw.TensorArrayPack(handle=ta, flow_in=f, dtype=tf.float32), name="v1_pack")
    tf.identity(raw.TensorArrayGather(handle=ta, indices=[2, 0], flow_in=f,
                                      dtype=tf.float32), name="v1_gather")
    tf.identity(raw.TensorArraySize(handle=ta, flow_in=f), name="v1_size")
    value, lengths = raw.TensorArrayConcat(handle=ta, flow_in=f, dtype=tf.float32)
    tf.identity(value, name="v1_concat")
    tf.identity(lengths, name="v1_lengths")
    grad = raw.TensorArrayGrad(handle=ta, flow_in=f, source="gradients")
    gf = raw.TensorArrayWrite(handle=grad, index=1, value=x[0], flow_in=flow)
    gf = raw.TensorArrayWrite(handle=grad, index=1, value=x[1], flow_in=gf)
    tf.identity(raw.TensorArrayRead(handle=grad, index=1, flow_in=gf, dtype=tf.float32),
                name="v1_grad_read")
    split = raw.TensorArray(size=2, dtype=tf.float32, name="split_v1")
    sf = raw.TensorArraySplit(handle=split, value=x, lengths=tf.constant([1, 2], tf.int64),
                              flow_in=flow)
    sf = raw.TensorArrayScatter(handle=split, indices=[], value=tf.zeros([0, 1, 2]),
                                flow_in=sf)
    split_read = tf.identity(raw.TensorArrayRead(handle=split, index=1, flow_in=sf,
                                                 dtype=tf.float32), name="v1_split_read")
    with tf.control_dependencies([split_read]):
        raw.TensorArrayClose(handle=split, name="v1_close")

    w = tf.constant([[0.5, -1.0], [2.0, 0.25]], name="w")
    inputs = raw.TensorArrayV2(size=3, dtype=tf.float32, name="inputs_v2")
    in_flow = raw.TensorArrayScatterV2(handle=inputs, indices=tf.range(3), value=x,
                                       flow_in=flow)
    outputs = raw.TensorArrayV2(size=0, dtype=tf.float32, dynamic_size=True,
                                clear_after_read=False, element_shape=[2], name="outputs_v2")

    def body(i, h, out_flow):
        x_t = raw.TensorArrayReadV2(handle=inputs, index=i, flow_in=in_flow,
                                    dtype=tf.float32)
        h = tf.tanh(tf.matmul(tf.reshape(x_t, [1, 2]), w)[0] + h)
        return i + 1, h, raw.TensorArrayWriteV2(handle=outputs, index=i, value=h,
                                                flow_in=out_flow)

    _, h, out_flow = tf.while_loop(lambda i, h, f: i < 3, body,
                                   [tf.constant(0), tf.zeros([2]), flow])
    tf.identity(h, name="v2_last")
    tf.identity(raw.TensorArrayGatherV2(handle=outputs, indices=tf.range(3),
                                        flow_in=out_flow, dtype=tf.float32,
                                        element_shape=[2]), name="v2_stack")
    tf.identity(raw.TensorArraySizeV2(handle=outputs, flow_in=out_flow), name="v2_size")
    value, lengths = raw.TensorArrayConcatV2(handle=outputs, flow_in=out_flow,
                                             dtype=tf.float32)
    tf.identity(value, name="v2_concat")
    grad = raw.TensorArrayGradV2(handle=outputs, flow_in=out_flow, source="gradients")
    gf = raw.TensorArrayWriteV2(handle=grad, index=2, value=h, flow_in=flow)
    gf = raw.TensorArrayWriteV2(handle=grad, index=2, value=h * 3.0, flow_in=gf)
    tf.identity(raw.TensorArrayReadV2(handle=grad, index=2, flow_in=gf, dtype=tf.float32),
                name="v2_grad_read")
    pieces = raw.TensorArrayV2(size=2, dtype=tf.float32, name="pieces_v2")
    pf = raw.TensorArraySplitV2(handle=pieces, value=x, lengths=tf.constant([2, 1], tf.int64),
                                flow_in=flow)
    split_read = tf.identity(raw.TensorArrayReadV2(handle=pieces, index=0, flow_in=pf,
                                                   dtype=tf.float32), name="v2_split_read")
    with tf.control_dependencies([split_read]):
        raw.TensorArrayCloseV2(handle=pieces, name="v2_close")
    fetches = ["v1_read:0", "v1_pack:0", "v1_written:0", "v1_gather:0", "v1_size:0", "v1_concat:0",
               "v1_lengths:0", "v1_grad_read:0", "v1_split_read:0", "v2_last:0",
               "v2_stack:0", "v2_size:0", "v2_concat:0", "v2_grad_read:0", "v2_split_read:0"]
    with tf.Session() as sess:
        rec.save_meta()
        for seed in (1, 2):
            feed = {"x:0": np.random.RandomState(seed).randn(3, 2).astype(np.float32)}
            rec.run(sess, fetches, feed)
        rec.run(sess, ["v1_split_read:0", "v2_split_read:0"], feed,
                targets=["v1_close", "v2_close"])


def case_v1_tables_and_readers(rec: Recorder) -> None:
    """The lookup tables and readers of TF 0.x graphs (GraphDef version 21), all of a
    Ref(string) handle: HashTable from constants and from a text file, MutableHashTable
    (OfTensors) with inserts, an import, finds, sizes and an export; TextLineReader,
    TFRecordReader, WholeFileReader and IdentityReader reading from V1 queues, with the
    reader state ops
    (TF 2.21 fails to run a V1 FixedLengthRecordReader: its kernel asks for the V2 op's
    `encoding` attr). The file names fed are relative to the fixture's directory
    (listed under "paths": the test joins them with it)."""
    _legacy_graph_version(21)
    raw = tf.raw_ops
    with open(os.path.join(rec.dir, "vocab.txt"), "w") as f:
        f.write("apple\nbanana\ncherry\n")
    with open(os.path.join(rec.dir, "lines.txt"), "w") as f:
        f.write("header\n3.5\n-2\n")
    with tf.io.TFRecordWriter(os.path.join(rec.dir, "records.tfrecord")) as w:
        for value in (b"10", b"20", b"30"):
            w.write(value)
    with open(os.path.join(rec.dir, "fixed.bin"), "wb") as f:
        f.write(bytes([9]) + bytes(range(1, 9)))

    table = raw.HashTable(key_dtype=tf.string, value_dtype=tf.int64, name="table")
    raw.InitializeTable(table_handle=table, keys=tf.constant(["a", "b", "c"]),
                        values=tf.constant([3, 1, 4], tf.int64), name="init_table")
    vocab = raw.HashTable(key_dtype=tf.string, value_dtype=tf.int64, name="vocab")
    vocab_file = tf.placeholder(tf.string, [], name="vocab_file")
    raw.InitializeTableFromTextFile(table_handle=vocab, filename=vocab_file, key_index=-2,
                                    value_index=-1, name="init_vocab")
    words = tf.constant(["banana", "kiwi", "apple", "c"])
    minus_one = tf.constant(-1, tf.int64)
    tf.identity(raw.LookupTableFind(table_handle=table, keys=words, default_value=minus_one),
                name="find")
    tf.identity(raw.LookupTableFind(table_handle=vocab, keys=words, default_value=minus_one),
                name="vocab_find")
    tf.identity(raw.LookupTableSize(table_handle=vocab), name="vocab_size")
    mutable = raw.MutableHashTable(key_dtype=tf.int64, value_dtype=tf.float32, name="mutable")
    ids = tf.placeholder(tf.int64, [None], name="ids")
    values = tf.placeholder(tf.float32, [None], name="values")
    raw.LookupTableInsert(table_handle=mutable, keys=ids, values=values, name="insert")
    tf.identity(raw.LookupTableFind(table_handle=mutable, keys=tf.constant([1, 2, 3, 4], tf.int64),
                                    default_value=tf.constant(0.5)), name="mutable_find")
    tf.identity(raw.LookupTableSize(table_handle=mutable), name="mutable_size")
    keys, exported = raw.LookupTableExport(table_handle=mutable, Tkeys=tf.int64,
                                           Tvalues=tf.float32)
    order = tf.nn.top_k(-keys, tf.size(keys)).indices        # export order is the table's
    tf.identity(tf.gather(keys, order), name="export_keys")
    tf.identity(tf.gather(exported, order), name="export_values")
    imported = raw.MutableHashTable(key_dtype=tf.int64, value_dtype=tf.float32,
                                    name="imported")
    raw.LookupTableImport(table_handle=imported, keys=tf.constant([5, 6], tf.int64),
                          values=tf.constant([2.5, -1.0]), name="import")
    tf.identity(raw.LookupTableFind(table_handle=imported, keys=tf.constant([6, 1], tf.int64),
                                    default_value=tf.constant(0.0)), name="imported_find")
    tensors = raw.MutableHashTableOfTensors(key_dtype=tf.string, value_dtype=tf.float32,
                                            value_shape=[2], name="tensors")
    raw.LookupTableInsert(table_handle=tensors, keys=tf.constant(["x", "y"]),
                          values=tf.constant([[1.0, 2.0], [3.0, 4.0]]), name="insert_tensors")
    tf.identity(raw.LookupTableFind(table_handle=tensors, keys=tf.constant(["y", "z"]),
                                    default_value=tf.constant([-1.0, -2.0])),
                name="tensors_find")

    def queue(name: str, files):
        q = raw.FIFOQueue(component_types=[tf.string], capacity=10, name=f"{name}_queue")
        raw.QueueEnqueueMany(handle=q, components=[files], name=f"enqueue_{name}")
        return q

    def number(value, name: str) -> None:
        tf.identity(tf.strings.to_number(value), name=name)

    text = raw.TextLineReader(skip_header_lines=1, name="text_reader")
    files = {n: tf.placeholder(tf.string, [None], name=f"{n}_files")
             for n in ("text", "record", "whole")}
    number(raw.ReaderRead(reader_handle=text, queue_handle=queue("text", files["text"])).value,
           "text_value")
    records = raw.TFRecordReader(name="record_reader")
    number(raw.ReaderReadUpTo(reader_handle=records,
                              queue_handle=queue("record", files["record"]),
                              num_records=tf.constant(2, tf.int64)).values, "record_values")
    whole = raw.WholeFileReader(name="whole_reader")
    tf.identity(tf.strings.length(raw.ReaderRead(
        reader_handle=whole, queue_handle=queue("whole", files["whole"])).value),
        name="whole_length")
    identity = raw.IdentityReader(name="identity_reader")
    units = queue("units", tf.constant(["5", "6", "7", "8"]))
    number(raw.ReaderRead(reader_handle=identity, queue_handle=units).value, "unit")
    tf.identity(raw.ReaderNumRecordsProduced(reader_handle=identity), name="produced")
    tf.identity(raw.ReaderNumWorkUnitsCompleted(reader_handle=identity), name="completed")
    state = raw.ReaderSerializeState(reader_handle=identity, name="state")
    tf.identity(tf.strings.length(state), name="state_length")
    raw.ReaderReset(reader_handle=identity, name="reset")
    raw.ReaderRestoreState(reader_handle=identity, state=state, name="restore")

    feed = {"vocab_file:0": np.array(b"vocab.txt"), "ids:0": np.array([3, 1], np.int64),
            "values:0": np.array([0.25, -4.0], np.float32),
            "text_files:0": np.array([b"lines.txt"]),
            "record_files:0": np.array([b"records.tfrecord"]),
            "whole_files:0": np.array([b"fixed.bin"])}
    rec.spec["paths"] = ["vocab_file:0", "text_files:0", "record_files:0", "whole_files:0"]
    here = os.getcwd()
    os.chdir(rec.dir)
    try:
        with tf.Session() as sess:
            rec.save_meta()
            rec.run(sess, [], feed, targets=[
                "init_table", "init_vocab", "insert", "import", "insert_tensors",
                "enqueue_text", "enqueue_record", "enqueue_whole", "enqueue_units"])
            rec.run(sess, ["find:0", "vocab_find:0", "vocab_size:0", "mutable_find:0",
                           "mutable_size:0", "export_keys:0", "export_values:0",
                           "tensors_find:0", "imported_find:0"])
            rec.run(sess, ["text_value:0", "record_values:0", "whole_length:0", "unit:0"])
            rec.run(sess, ["unit:0"])
            rec.run(sess, ["produced:0", "completed:0", "state_length:0"])
            rec.run(sess, [], targets=["reset"])
            rec.run(sess, ["produced:0", "completed:0"])
            rec.run(sess, ["unit:0"])
            rec.run(sess, ["produced:0"], targets=["restore"])
    finally:
        os.chdir(here)


def case_v1_checkpoint_ops(rec: Recorder) -> None:
    """TF's V1 checkpoint format: a V1 Saver (SaveSlices / RestoreSlice; a partitioned
    variable saved as slices) whose checkpoint the test restores through the file's
    restore op, and raw Save / SaveSlices writing files (named relative to a scratch
    directory: the feeds listed under "scratch", which the test joins with a temporary
    directory) that Restore / RestoreSlice read back in later runs. The files TF wrote
    stay in `scratch/` (tests/test_v1_checkpoint.py compares tf1compat's with them)."""
    raw = tf.raw_ops
    rng = np.random.RandomState(21)
    w = tf.Variable(rng.randn(2, 3).astype(np.float32), name="w")
    step = tf.Variable(np.int64(7), name="step")
    with tf.variable_scope("emb", partitioner=tf.fixed_size_partitioner(2)):
        tf.get_variable("table", [5, 2], initializer=tf.random_normal_initializer(seed=3))
    saver = tf.train.Saver(write_version=tf.train.SaverDef.V1)
    scratch = tf.placeholder(tf.string, [], name="scratch_file")
    x = tf.placeholder(tf.float32, [3], name="x")
    raw.Save(filename=scratch, tensor_names=["w", "x2", "step", "flag"],
             data=[w, x * 2.0, step, x > 0], name="save_raw")
    raw.SaveSlices(filename=tf.strings.join([scratch, "_slices"]), tensor_names=["part", "x"],
                   shapes_and_slices=["4 3 1,2:-", ""], data=[w * 3.0, x], name="save_slices")
    for name, dt in (("w", tf.float32), ("x2", tf.float32), ("step", tf.int64),
                     ("flag", tf.bool)):
        tf.identity(raw.Restore(file_pattern=scratch, tensor_name=name, dt=dt),
                    name=f"restored_{name}")
    tf.identity(raw.RestoreSlice(file_pattern=tf.strings.join([scratch, "_slices"]),
                                 tensor_name="part", shape_and_slice="4 3 2,1:0,2",
                                 dt=tf.float32), name="restored_part")
    tf.identity(raw.Restore(file_pattern=tf.strings.join([scratch, "_sl*"]),
                            tensor_name="x", dt=tf.float32), name="restored_x")
    variables = ["w:0", "step:0", "emb/table/part_0:0", "emb/table/part_1:0"]
    feed = {"scratch_file:0": np.array(b"raw.ckpt"),
            "x:0": np.array([1.5, -2.0, 0.25], np.float32)}
    rec.spec["scratch"] = ["scratch_file:0"]
    here = os.getcwd()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, variables)      # the test's session has them from the checkpoint
        scratch_dir = os.path.join(rec.dir, "scratch")
        os.makedirs(scratch_dir)
        os.chdir(scratch_dir)
        try:
            rec.run(sess, [], feed, targets=["save_raw", "save_slices"])
            rec.run(sess, ["restored_w:0", "restored_x2:0", "restored_step:0",
                           "restored_flag:0", "restored_part:0", "restored_x:0"], feed)
        finally:
            os.chdir(here)


CASES = [case_cond_while_gradients, case_nested_control_flow, case_tensor_array,
         case_dynamic_rnn_training, case_cnn_training, case_tf_data, case_tf_data_ragged,
         case_functional_control_flow, case_partitioned_call, case_frozen_keras_mobilenet,
         case_gradient_ops, case_tf1_era_ops, case_sparse_segment_gradients,
         case_rnn_batch_norm_training, case_cond_of_assigns,
         case_fractional_pool_training, case_v1_queue_ops,
         case_v1_stack_ops, case_v1_tensor_array_ops, case_v1_tables_and_readers,
         case_v1_checkpoint_ops]


def main(argv: list, cases: list = CASES) -> int:
    wanted = set(argv)
    for fn in cases:
        name = fn.__name__[len("case_"):]
        if wanted and name not in wanted:
            continue
        rec = Recorder(name)
        graph = tf.Graph()
        with graph.as_default():
            fn(rec)
        graph_def = graph.as_graph_def()
        if rec.spec["graph"] == "graph.meta":      # the file's graph (a case may edit it)
            from tensorflow.core.protobuf import meta_graph_pb2
            meta = meta_graph_pb2.MetaGraphDef()
            with open(os.path.join(rec.dir, "graph.meta"), "rb") as f:
                meta.ParseFromString(f.read())
            graph_def = meta.graph_def
        elif rec.spec["graph"] == "graph.pb":
            from tensorflow.core.framework import graph_pb2
            graph_def = graph_pb2.GraphDef()
            with open(os.path.join(rec.dir, "graph.pb"), "rb") as f:
                graph_def.ParseFromString(f.read())
        rec.finish(graph_def)
        print(f"{name}: {len(rec.spec['runs'])} runs, {len(rec.spec['ops'])} op types")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
