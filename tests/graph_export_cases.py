"""Graphs tf1compat writes for real TensorFlow to read (scripts/check_tf_reads_graphs.py).

Each `case_<name>(tf)` builds a graph with the `tf` it is given (tf1compat) and returns
its spec: the runs to make after importing the `.meta` (feeds, fetches, targets), the op
that initializes the variables, and optionally a `minimize` check: a loss that the
reader trains with GradientDescent after import (the reader's own gradients of the
imported conds and loops), fetching `variables` after `steps` steps.

The script records what TF computes from the files; tests/test_graph_export.py checks
that tf1compat still writes the same graphs and computes TF's values from them.
"""

from __future__ import annotations

import os

import numpy as np

LEARNING_RATE = 0.1

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
SEQ = np.linspace(0, 1, 24, dtype=np.float32).reshape(2, 4, 3)


def case_cond_while_nested(tf):
    """tf.cond, tf.while_loop, a loop and a cond in a loop body, initialized_value."""
    x = tf.placeholder(tf.float32, [], name="x")
    v = tf.Variable(2.0, name="v")
    r = tf.cond(x > 0, lambda: x * v + 1.0, lambda: tf.constant(-1.0))
    _, s = tf.while_loop(lambda i, s: i < 5,
                         lambda i, s: (i + 1, s + x * tf.cast(i, tf.float32)), [0, 0.0])

    def outer_body(j, acc):
        inner = tf.while_loop(lambda k, a: k < j, lambda k, a: (k + 1, a + k), [0, 0])[1]
        return j + 1, acc + tf.cond(tf.equal(j % 2, 0), lambda: inner * 10, lambda: inner)
    _, total = tf.while_loop(lambda j, acc: j < 4, outer_body, [0, 0])
    tf.Variable(v.initialized_value() * 3.0, name="w")
    tf.identity(r, name="r")
    tf.identity(s, name="s")
    tf.identity(total, name="total")
    tf.identity(r + s, name="loss")
    tf.global_variables_initializer()
    fetches = ["r:0", "s:0", "total:0", "w:0"]
    return {"init": "init",
            "runs": [{"feeds": {"x:0": np.float32(1.5)}, "fetches": fetches},
                     {"feeds": {"x:0": np.float32(-2.0)}, "fetches": fetches}],
            "minimize": {"loss": "loss:0", "feeds": {"x:0": np.float32(1.5)}, "steps": 2,
                         "variables": ["v:0"]}}


def case_deep_loops(tf):
    """A tf.while_loop in a tf.cond in a loop body; nested loops whose trip counts are
    fed (the inner one's also grows with the outer counter); a TensorArray element read
    back after its write in the same iteration, the array stacked after the loop."""
    x = tf.placeholder(tf.float32, [], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    m = tf.placeholder(tf.int32, [], name="m")
    v = tf.Variable(0.7, name="v")

    def body(i, acc):
        def inner():
            return tf.while_loop(lambda k, a: k < i, lambda k, a: (
                k + 1, a * v + x * tf.cast(k, tf.float32)), [0, acc])[1]
        return i + 1, tf.cond(i % 2 > 0, inner, lambda: acc - x * v)
    _, a = tf.while_loop(lambda i, acc: i < n, body, [0, tf.constant(1.0)])

    def outer(j, acc):
        return j + 1, tf.while_loop(lambda k, s: k < m + j,
                                    lambda k, s: (k + 1, s * v + x), [0, acc])[1]
    _, b = tf.while_loop(lambda j, acc: j < n, outer, [0, tf.constant(0.0)])

    def written(i, ta, s):
        ta = ta.write(i, x * v * tf.cast(i, tf.float32) + s * v)
        return i + 1, ta, s + ta.read(i)
    ta = tf.TensorArray(tf.float32, size=n, clear_after_read=False)
    _, ta, c = tf.while_loop(lambda i, *_: i < n, written, [0, ta, tf.constant(0.0)])
    tf.identity(a, name="a")
    tf.identity(b, name="b")
    tf.identity(c, name="c")
    tf.identity(ta.stack(), name="stacked")
    tf.identity(a * a + b + c * 0.1, name="loss")
    tf.global_variables_initializer()
    fetches = ["a:0", "b:0", "c:0", "stacked:0"]
    return {"init": "init",
            "runs": [{"feeds": {"x:0": np.float32(1.5), "n:0": np.int32(5),
                                "m:0": np.int32(2)}, "fetches": fetches},
                     {"feeds": {"x:0": np.float32(-0.5), "n:0": np.int32(3),
                                "m:0": np.int32(0)}, "fetches": fetches},
                     {"feeds": {"x:0": np.float32(2.0), "n:0": np.int32(0),
                                "m:0": np.int32(4)}, "fetches": fetches}],
            "minimize": {"loss": "loss:0", "feeds": {"x:0": np.float32(0.5), "n:0": np.int32(4),
                                                     "m:0": np.int32(1)},
                         "steps": 2, "variables": ["v:0"]}}


def case_dropout_batch_norm(tf):
    """Dropout and batch normalization with a tensor `training` flag (tf.cond inside)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    training = tf.placeholder_with_default(False, [], name="training")
    h = tf.layers.dense(x, 5, kernel_initializer=tf.constant_initializer(0.1), name="d")
    h = tf.layers.batch_normalization(h, training=training, name="bn")
    h = tf.layers.dropout(h, 0.5, training=training)
    tf.identity(h, name="h")
    tf.identity(tf.reduce_sum(h * h), name="loss")
    for op in tf.get_collection(tf.GraphKeys.UPDATE_OPS):
        tf.add_to_collection("bn_updates", op)
    tf.group(*tf.get_collection(tf.GraphKeys.UPDATE_OPS), name="update_bn")
    tf.global_variables_initializer()
    return {"init": "init",
            "runs": [{"feeds": {"x:0": X, "training:0": True}, "fetches": [],
                      "targets": ["update_bn"]},
                     {"feeds": {"x:0": X}, "fetches": ["h:0", "bn/moving_mean:0",
                                                       "bn/moving_variance:0"]}],
            "minimize": {"loss": "loss:0", "feeds": {"x:0": X}, "steps": 2,
                         "variables": ["d/kernel:0", "bn/gamma:0"]}}


def case_dynamic_rnn(tf):
    """dynamic_rnn (GRU, sequence lengths): a while loop over TensorArrays."""
    seq = tf.placeholder(tf.float32, [2, 4, 3], name="seq")
    cell = tf.nn.rnn_cell.GRUCell(3, kernel_initializer=tf.constant_initializer(0.2))
    out, state = tf.nn.dynamic_rnn(cell, seq, sequence_length=tf.constant([4, 2]),
                                   dtype=tf.float32)
    tf.identity(out, name="outputs")
    tf.identity(state, name="state")
    tf.identity(tf.reduce_sum(out * out), name="loss")
    tf.global_variables_initializer()
    return {"init": "init",
            "runs": [{"feeds": {"seq:0": SEQ}, "fetches": ["outputs:0", "state:0"]}],
            "minimize": {"loss": "loss:0", "feeds": {"seq:0": SEQ}, "steps": 2,
                         "variables": ["rnn/gru_cell/gates/kernel:0",
                                       "rnn/gru_cell/candidate/bias:0"]}}


def case_tensor_arrays(tf):
    """map_fn, scan and foldl (TensorArrays in while loops)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    tf.identity(tf.map_fn(lambda e: e * 2.0 + 1.0, x), name="mapped")
    tf.identity(tf.scan(lambda a, e: a * 0.5 + e, x), name="scanned")
    tf.identity(tf.foldl(lambda a, e: a + tf.reduce_sum(e), x, initializer=0.0),
                name="folded")
    return {"init": None,
            "runs": [{"feeds": {"x:0": X}, "fetches": ["mapped:0", "scanned:0",
                                                       "folded:0"]}]}


def case_tensor_array_in_cond(tf):
    """A TensorArray written inside a tf.cond inside a loop body (TensorArrayWriteV3 in
    the Switch/Merge branches, the flow through Merge); TF trains the imported loss with
    its own gradients (tf1compat's gradient op of such a loop keeps its own form)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.Variable(np.array([0.5, -0.3, 0.8], np.float32), name="w")

    def body(i, ta):
        v = x[i] * w
        ta = tf.cond(i % 2 < 1, lambda: ta.write(i, tf.sin(v)),
                     lambda: ta.write(i, v * v))
        return i + 1, ta
    _, ta = tf.while_loop(lambda i, ta: i < 4, body,
                          [tf.constant(0), tf.TensorArray(tf.float32, size=4)])
    stacked = tf.identity(ta.stack(), name="stacked")
    tf.reduce_sum(stacked * 2.0, name="loss")
    tf.global_variables_initializer()
    feeds = {"x:0": np.arange(12, dtype=np.float32).reshape(4, 3) / 10}
    return {"init": "init", "runs": [{"feeds": feeds, "fetches": ["stacked:0", "loss:0"]}],
            "minimize": {"loss": "loss:0", "feeds": feeds, "steps": 2,
                         "variables": ["w:0"]}}


def case_datasets(tf):
    """tf.data: slices -> map -> filter -> batch (one-shot iterator), range -> map with a
    captured placeholder (initializable iterator)."""
    data = np.arange(12, dtype=np.float32).reshape(6, 2)
    ds = tf.data.Dataset.from_tensor_slices(data).map(lambda e: e * 2.0 + 1.0) \
        .filter(lambda e: e[0] > 2).batch(2)
    tf.identity(tf.data.make_one_shot_iterator(ds).get_next(), name="one_shot_next")
    scale = tf.placeholder(tf.float32, [], name="scale")
    ds2 = tf.data.Dataset.range(5).map(lambda e: tf.cast(e, tf.float32) * scale)
    it2 = tf.data.make_initializable_iterator(ds2)
    tf.identity(it2.get_next(), name="init_next")
    tf.group(it2.initializer, name="iterator_init")
    return {"init": None,
            "runs": [{"feeds": {}, "fetches": ["one_shot_next:0"]},
                     {"feeds": {}, "fetches": ["one_shot_next:0"]},
                     {"feeds": {"scale:0": np.float32(3.0)}, "fetches": [],
                      "targets": ["iterator_init"]},
                     {"feeds": {}, "fetches": ["init_next:0"]},
                     {"feeds": {}, "fetches": ["init_next:0"]}]}


def case_dataset_transformations(tf):
    """tf.data transformations with and without functions: seeded shuffle, repeat/skip/
    take, zip, concatenate, padded_batch, interleave, flat_map, cache/prefetch, unbatch,
    map_and_batch, filter, window."""
    a = tf.data.Dataset.range(10)
    b = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.float32))
    pipelines = {
        "shuffle": a.shuffle(5, seed=3).batch(10),
        "repeat_take_skip": a.repeat(2).skip(3).take(12).batch(12),
        "zip": tf.data.Dataset.zip((a, b)).map(
            lambda x, y: tf.cast(x, tf.float32) + y).batch(10),
        "concat": a.concatenate(a).batch(20),
        "padded": a.map(lambda x: tf.fill([x], x)).padded_batch(4, padded_shapes=[None]),
        "interleave": a.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(2),
                                   cycle_length=2).batch(20),
        "flat_map": a.flat_map(lambda x: tf.data.Dataset.range(x)).batch(50),
        "prefetch_cache": a.map(lambda x: x * 2).cache().prefetch(2).batch(10),
        "unbatch": a.batch(3).apply(tf.data.experimental.unbatch()).batch(10),
        "map_and_batch": a.apply(tf.data.experimental.map_and_batch(lambda x: x + 1, 5)),
        "filter": a.filter(lambda x: x > 4).batch(10),
        "window": a.window(3, shift=3, drop_remainder=True).flat_map(
            lambda w: w.batch(3)).batch(5),
    }
    for name, ds in pipelines.items():
        tf.identity(tf.data.make_one_shot_iterator(ds).get_next(), name=name)
    return {"init": None,
            "runs": [{"feeds": {}, "fetches": [f"{name}:0" for name in pipelines]}]}


def ragged_pipeline_fetches(tf):
    """tf.data with RaggedTensor elements: sliced, batched, mapped (the function takes and
    returns the variant), `ragged_batch` of variable-length elements, unbatch; the names
    to fetch (a ragged element's flat values and row splits). Also TF's fixture
    (scripts/make_graph_fixtures.py, tf_data_ragged) builds it."""
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
    pipelines = {
        "sliced_batched_mapped": tf.data.Dataset.from_tensor_slices(rt).batch(2).map(
            lambda r: r * 2),
        "ragged_batch": tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).ragged_batch(3),
        "unbatch": tf.data.Dataset.from_tensors(rt).unbatch().map(tf.reduce_sum),
    }
    fetches = []
    for name, ds in pipelines.items():
        nxt = tf.data.make_one_shot_iterator(ds).get_next()
        if hasattr(nxt, "flat_values"):
            tf.identity(nxt.flat_values, name=f"{name}_values")
            tf.identity(nxt.row_splits, name=f"{name}_splits")
            fetches += [f"{name}_values:0", f"{name}_splits:0"]
        else:
            tf.identity(nxt, name=name)
            fetches.append(f"{name}:0")
    return fetches


def case_ragged_datasets(tf):
    """RaggedTensor elements in tf.data (ragged_pipeline_fetches)."""
    return {"init": None, "runs": [{"feeds": {}, "fetches": ragged_pipeline_fetches(tf)}] * 2}


def case_functional_forms(tf):
    """What TF writes as functions: tf.switch_case (a Case with branch functions, one of
    them holding a tf.cond) and tf.cond / tf.while_loop inside tf.data functions."""
    i = tf.placeholder(tf.int32, [], name="i")
    x = tf.placeholder(tf.float32, [], name="x")
    v = tf.Variable(3.0, name="v")
    tf.identity(tf.switch_case(i, [lambda: x * 2.0, lambda: x + v,
                                   lambda: tf.cond(x > 0, lambda: x, lambda: -x)]),
                name="picked")
    ds = tf.data.Dataset.range(6).map(
        lambda e: tf.cond(tf.equal(e % 2, 0), lambda: tf.cast(e, tf.float32),
                          lambda: -1.0)).map(
        lambda e: tf.while_loop(lambda k, a: k < 3, lambda k, a: (k + 1, a + e), [0, 0.0])[1])
    tf.identity(tf.data.make_one_shot_iterator(ds).get_next(), name="element")
    tf.global_variables_initializer()
    runs = [{"feeds": {"i:0": np.int32(k), "x:0": np.float32(-1.5)}, "fetches": ["picked:0"]}
            for k in range(4)]
    runs += [{"feeds": {}, "fetches": ["element:0"]} for _ in range(3)]
    return {"init": "init", "runs": runs}


def run_case(tf, d: str, spec: dict, arrays: dict) -> dict:
    """Imports d/graph.meta into a new graph and makes the case's runs; returns
    {"values": [[array per fetch] per run], "minimize": [arrays]}."""
    out: dict = {"values": [], "minimize": []}
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(os.path.join(d, "graph.meta"))
        with tf.Session() as sess:
            if spec.get("checkpoint"):      # training cases: the Saver from the file
                saver.restore(sess, os.path.join(d, spec["checkpoint"]))
            elif spec["init"]:
                sess.run(spec["init"])
            for run in spec["runs"]:
                feeds = {name: arrays[key] for name, key in run["feeds"].items()}
                got = sess.run(run["fetches"] + run.get("targets", []), feeds)
                out["values"].append([np.asarray(v) for v in got[:len(run["fetches"])]])
    minimize = spec.get("minimize")
    if minimize:
        with tf.Graph().as_default() as graph:
            tf.train.import_meta_graph(os.path.join(d, "graph.meta"))
            loss = graph.get_tensor_by_name(minimize["loss"])
            train = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss)
            feeds = {name: arrays[key] for name, key in minimize["feeds"].items()}
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(minimize["steps"]):
                    sess.run(train, feeds)
                out["minimize"] = [np.asarray(v)
                                   for v in sess.run(minimize["variables"], feeds)]
    return out


from tests.graph_training_cases import TRAINING_CASES  # noqa: E402
from tests.graph_loop_training_cases import LOOP_TRAINING_CASES  # noqa: E402
from tests.graph_loop_more_cases import LOOP_MORE_CASES  # noqa: E402
from tests.graph_loop_nested_cases import LOOP_NESTED_CASES  # noqa: E402
from tests.graph_loop_array_cases import LOOP_ARRAY_CASES  # noqa: E402
from tests.graph_loop_sparse_cases import LOOP_SPARSE_CASES  # noqa: E402
from tests.graph_loop_run_time_cases import LOOP_RUN_TIME_CASES  # noqa: E402
from tests.graph_training_nn_cases import NN_TRAINING_CASES  # noqa: E402
from tests.graph_training_math_cases import MATH_TRAINING_CASES  # noqa: E402
from tests.graph_second_order_cases import SECOND_ORDER_CASES  # noqa: E402
from tests.graph_second_order_plain_cases import SECOND_ORDER_PLAIN_CASES  # noqa: E402

def case_defun_functions(tf):
    """TF 1.x `function.Defun` graph functions: call ops whose type is the function's name,
    a `grad_func` (the library's GradientDef), a nested call, a tensor captured by value,
    an overloaded function; TF's SymbolicGradient of a function calling them (tf.gradients);
    TF trains the loss through the calls after import (its gradients of the functions)."""
    import importlib
    from tf1compat.shim import INTERNAL_PATHS
    function = importlib.import_module(
        INTERNAL_PATHS["tensorflow.python.framework.function"])

    @function.Defun(tf.float32, tf.float32, func_name="ScaleGrad")
    def scale_grad(x, dy):
        return dy * 0.5

    @function.Defun(tf.float32, grad_func=scale_grad, func_name="Scale")
    def scale(x):
        return x * 3.0

    offset = tf.constant(0.25, name="offset")

    @function.Defun(tf.float32, tf.float32, func_name="Layer", capture_by_value=True)
    def layer(x, w):
        return tf.tanh(tf.matmul(x, w) + offset)

    @function.Defun(tf.float32, tf.float32, tf.float32, func_name="Head")
    def head(x, w, y):
        return tf.reduce_mean(tf.square(layer(x, w) - y))

    @function.Defun(func_name="Twice")
    def twice(a):
        return a + a

    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 4], name="y")
    w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    h = layer(scale(x), w)
    tf.identity(h, name="h")
    tf.identity(head(x, w, y), name="loss")
    tf.identity(twice(tf.constant([1, 2])), name="twice")
    tf.identity(tf.gradients(tf.reduce_sum(h, [0, 1]), w)[0], name="grad_w")
    tf.global_variables_initializer()
    feeds = {"x:0": X[:2], "y:0": np.linspace(0, 1, 8, dtype=np.float32).reshape(2, 4)}
    return {"init": "init",
            "runs": [{"feeds": feeds, "fetches": ["h:0", "loss:0", "twice:0", "grad_w:0"]}],
            "minimize": {"loss": "loss:0", "feeds": feeds, "steps": 2,
                         "variables": ["w:0"]}}


def case_defun_cond(tf):
    """`function.Defun` bodies holding tf.cond (named by TF's hash of the body, so written
    as TF writes them: Switch/Merge nodes in the FunctionDef), one returning an outside
    tensor from a branch and capturing a tensor; forward values (TF's own gradient of such
    a body fails: "Retval[0] does not have value")."""
    import importlib
    from tf1compat.shim import INTERNAL_PATHS
    function = importlib.import_module(
        INTERNAL_PATHS["tensorflow.python.framework.function"])
    from tests.golden.cases_defun import cond_bodies
    Branchy, TwoConds, Nested = cond_bodies(tf, function)
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.placeholder(tf.float32, [2], name="y")
    tf.identity(Branchy(x), name="branchy")
    c, b = TwoConds(x, y)
    tf.identity(c, name="c")
    tf.identity(b, name="b")
    tf.identity(Nested(x), name="nested")
    fetches = ["branchy:0", "c:0", "b:0", "nested:0"]
    runs = [{"feeds": {"x:0": np.array(xv, np.float32), "y:0": np.array([0.5, -1.0],
                                                                        np.float32)},
             "fetches": fetches} for xv in ([1.0, 2.0], [-1.0, 0.25], [0.75, -2.0])]
    return {"init": None, "runs": runs}


def defun_gradient_graph(tf, function):
    """The graph of `case_defun_gradients` (also built by real TF for its own file:
    scripts/make_graph_fixtures_more.py): the loss through `function.Defun` calls with a
    `grad_func` and `python_grad_func`s (one reading the call's output, one returning None
    for an input), its gradients `grad_x`/`grad_w` and a GradientDescent train op."""
    half_grad = function.Defun(tf.float32, tf.float32, func_name="HalfGrad")(
        lambda x, dy: dy * 0.5)
    triple = function.Defun(tf.float32, grad_func=half_grad, func_name="Triple")(
        lambda x: x * 3.0)

    @function.Defun(tf.float32, python_grad_func=lambda op, dy: dy * 2.0 + op.outputs[0],
                    func_name="Boost")
    def boost(x):
        return tf.identity(x)

    @function.Defun(tf.float32, tf.float32, func_name="Gated",
                    python_grad_func=lambda op, dy: [dy * tf.sigmoid(op.inputs[1]), None])
    def gated(x, g):
        return x * tf.sigmoid(g)

    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    y = gated(tf.matmul(boost(triple(x)), w), tf.matmul(x, w))
    loss = tf.reduce_mean(tf.square(y), [0, 1], name="loss")
    tf.identity(tf.gradients(loss, x)[0], name="grad_x")
    tf.identity(tf.gradients(loss, w)[0], name="grad_w")
    return tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def case_defun_gradients(tf):
    """tf.gradients and a train op through `function.Defun` calls with a `grad_func` and
    `python_grad_func`s (defun_gradient_graph): written as the functions' GradientDefs,
    which TF's SymbolicGradient of the forward function uses; TF's own gradients of the
    imported calls train the loss with them too (`minimize`)."""
    import importlib
    from tf1compat.shim import INTERNAL_PATHS
    train = defun_gradient_graph(tf, importlib.import_module(
        INTERNAL_PATHS["tensorflow.python.framework.function"]))
    tf.global_variables_initializer()
    feeds = {"x:0": X}
    return {"init": "init",
            # The train op runs alone: gradients fetched beside it would race its update.
            "runs": [{"feeds": feeds, "fetches": ["loss:0", "grad_x:0", "grad_w:0"]},
                     {"feeds": feeds, "fetches": [], "targets": [train.name]},
                     {"feeds": feeds, "fetches": ["loss:0", "w:0"]}],
            "minimize": {"loss": "loss:0", "feeds": feeds, "steps": 2,
                         "variables": ["w:0"]}}

def case_gradient_in_cond_branch(tf):
    """tf.gradients inside a tf.cond branch (of a loss the branch computes from a fed
    value, a ref variable and a resource variable, both read outside too): TF's
    SymbolicGradient inside the branch, its inputs through the branch's Switches."""
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    w = tf.Variable([1.0, 2.0, 3.0], name="w")
    v = tf.get_variable("v", initializer=[0.5, -0.25, 2.0], use_resource=True)

    def taken():
        loss = tf.reduce_sum(tf.sin(x * w) * v + tf.square(v))
        g_w, g_v = tf.gradients(loss, [w, v])
        return g_w + g_v
    out = tf.cond(p, taken, lambda: w * 2.0 + v)
    tf.identity(out, name="out")
    tf.global_variables_initializer()
    feeds = {"x:0": np.array([1.0, 2.0, 3.0], np.float32)}
    return {"init": "init", "runs": [
        {"feeds": dict(feeds, **{"p:0": np.array(flag)}), "fetches": ["out:0"]}
        for flag in (True, False)]}


CASES = [case_cond_while_nested, case_deep_loops, case_dropout_batch_norm, case_dynamic_rnn,
         case_tensor_arrays, case_tensor_array_in_cond, case_datasets,
         case_dataset_transformations, case_ragged_datasets,
         case_functional_forms, case_defun_functions, case_defun_cond,
         case_defun_gradients, case_gradient_in_cond_branch] + TRAINING_CASES + \
    LOOP_TRAINING_CASES + LOOP_MORE_CASES + LOOP_NESTED_CASES + LOOP_ARRAY_CASES + \
    LOOP_SPARSE_CASES + LOOP_RUN_TIME_CASES + NN_TRAINING_CASES + MATH_TRAINING_CASES + \
    SECOND_ORDER_CASES + SECOND_ORDER_PLAIN_CASES
