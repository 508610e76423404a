"""Ranks the op types real TF puts into TF1 training graphs that tf1compat does not declare.

Run with the TensorFlow venv (never in CI):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/survey_graph_op_types.py [--markdown]

Builds a set of small TF1 training graphs (common layers, each with an optimizer's
`minimize`, so the graph holds TF's own gradient ops), counts the op types of each graph
and compares them with the op types tf1compat declares (read from the generated
`docs/ops.md`, which lists the registry). Prints the missing op types ranked by how many
surveyed graphs hold them, then TF's op types with a registered gradient function that
tf1compat lacks (gradient-registry coverage, not seen in the survey).
"""

from __future__ import annotations

import collections
import os
import re
import sys
from typing import Callable, Dict, List

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
tf.get_logger().setLevel("ERROR")


def _declared_op_types() -> set:
    """tf1compat's declared op types, as docs/ops.md (generated from the registry) lists them."""
    with open(os.path.join(ROOT, "docs", "ops.md")) as f:
        return set(re.findall(r"^\| `([A-Za-z0-9_]+)` \|", f.read(), re.M))


def _image(ch: int = 3, size: int = 8) -> tf.Tensor:
    return tf.placeholder(tf.float32, [2, size, size, ch], name="x")


def _train(loss: tf.Tensor, optimizer: str = "adam") -> None:
    opt = {"adam": tf.train.AdamOptimizer(0.01),
           "momentum": tf.train.MomentumOptimizer(0.01, 0.9),
           "sgd": tf.train.GradientDescentOptimizer(0.01),
           "rmsprop": tf.train.RMSPropOptimizer(0.01),
           "adagrad": tf.train.AdagradOptimizer(0.01)}[optimizer]
    opt.minimize(loss)


def _dense_relu() -> None:
    x = tf.placeholder(tf.float32, [4, 5])
    y = tf.placeholder(tf.int64, [4])
    h = tf.layers.dense(x, 8, activation=tf.nn.relu)
    logits = tf.layers.dense(tf.layers.dropout(h, 0.5, training=True), 3)
    _train(tf.losses.sparse_softmax_cross_entropy(y, logits), "sgd")


def _activations() -> None:
    x = tf.placeholder(tf.float32, [4, 5])
    h = tf.layers.dense(x, 8)
    acts = [tf.nn.elu, tf.nn.selu, tf.nn.softplus, tf.nn.softsign, tf.nn.relu6,
            tf.nn.leaky_relu, tf.nn.tanh, tf.nn.sigmoid, tf.nn.crelu, tf.nn.swish]
    total = tf.add_n([tf.reduce_sum(a(h)) for a in acts])
    total += tf.reduce_sum(tf.math.rsqrt(tf.abs(h) + 1.0)) + tf.reduce_sum(tf.sqrt(tf.abs(h) + 1.0))
    total += tf.reduce_sum(tf.math.reciprocal(tf.abs(h) + 1.0))
    _train(total, "momentum")


def _cnn() -> None:
    x = _image()
    h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.batch_normalization(h, training=True)
    h = tf.nn.lrn(h)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.average_pooling2d(h, 2, 1)
    _train(tf.reduce_mean(tf.square(tf.layers.dense(tf.layers.flatten(h), 2))))


def _depthwise_separable() -> None:
    x = _image()
    w = tf.get_variable("dw", [3, 3, 3, 2])
    h = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME")
    h = tf.layers.separable_conv2d(h, 4, 3, padding="same")
    h = tf.layers.conv2d_transpose(h, 2, 3, strides=2)
    _train(tf.reduce_mean(h))


def _conv3d() -> None:
    x = tf.placeholder(tf.float32, [2, 4, 6, 6, 2])
    h = tf.layers.conv3d(x, 3, 3, padding="same")
    h = tf.layers.max_pooling3d(h, 2, 2)
    h = tf.layers.average_pooling3d(h, 1, 1)
    h = tf.layers.conv3d_transpose(h, 2, 2, strides=2)
    _train(tf.reduce_mean(h))


def _fractional_pool() -> None:
    x = _image()
    w = tf.get_variable("w", [3, 3, 3, 3])
    h = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
    a, _, _ = tf.nn.fractional_max_pool(h, [1, 1.5, 1.5, 1], pseudo_random=True, seed=1)
    b, _, _ = tf.nn.fractional_avg_pool(h, [1, 1.5, 1.5, 1], pseudo_random=True, seed=1)
    _train(tf.reduce_sum(a) + tf.reduce_sum(b))


def _resize() -> None:
    x = _image()
    w = tf.get_variable("w", [1, 1, 3, 3])
    h = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
    total = sum(tf.reduce_sum(tf.image.resize_images(h, [12, 12], method=m)) for m in range(3))
    total += tf.reduce_sum(tf.image.resize_bicubic(h, [12, 12]))
    total += tf.reduce_sum(tf.image.crop_and_resize(h, [[0., 0., 1., 1.]], [0], [4, 4]))
    _train(total)


def _rnn(cell_fn: Callable[[], object]) -> Callable[[], None]:
    def build() -> None:
        x = tf.placeholder(tf.float32, [2, 5, 3])
        out, _ = tf.nn.dynamic_rnn(cell_fn(), x, dtype=tf.float32)
        _train(tf.reduce_mean(out), "rmsprop")
    return build


def _bidirectional() -> None:
    x = tf.placeholder(tf.float32, [2, 5, 3])
    lens = tf.constant([5, 3])
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.LSTMCell(4), tf.nn.rnn_cell.GRUCell(4), x, sequence_length=lens,
        dtype=tf.float32)
    _train(tf.reduce_mean(fw) + tf.reduce_mean(bw), "adagrad")


def _embedding_segments() -> None:
    ids = tf.placeholder(tf.int64, [6])
    seg = tf.constant([0, 0, 1, 2, 2, 3])
    emb = tf.get_variable("emb", [10, 4])
    looked = tf.nn.embedding_lookup(emb, ids)
    total = tf.reduce_sum(tf.math.unsorted_segment_sum(looked, seg, 4))
    total += tf.reduce_sum(tf.math.unsorted_segment_max(looked, seg, 4))
    total += tf.reduce_sum(tf.math.segment_mean(looked, seg))
    sp = tf.SparseTensor([[0, 0], [1, 1]], tf.constant([1, 2], tf.int64), [2, 3])
    total += tf.reduce_sum(tf.nn.embedding_lookup_sparse(emb, sp, None, combiner="mean"))
    upd = tf.tensor_scatter_nd_add(looked, [[0], [2]], tf.ones([2, 4]))
    total += tf.reduce_sum(tf.gather_nd(upd, [[1], [3]]))
    _train(total)


def _norms_and_losses() -> None:
    x = tf.placeholder(tf.float32, [4, 6])
    h = tf.layers.dense(x, 6)
    h = tf.contrib.layers.layer_norm(h) if hasattr(tf, "contrib") else tf.keras.layers.LayerNormalization()(h)
    total = tf.losses.softmax_cross_entropy(tf.ones([4, 6]) / 6, h)
    total += tf.losses.sigmoid_cross_entropy(tf.ones([4, 6]), h)
    total += tf.losses.huber_loss(tf.ones([4, 6]), h)
    total += tf.reduce_sum(tf.nn.l2_normalize(h, 1)) + tf.nn.l2_loss(h)
    total += tf.reduce_sum(tf.nn.log_softmax(h)) + tf.reduce_sum(tf.nn.top_k(h, 2).values)
    total += tf.reduce_sum(tf.cumsum(h, 1)) + tf.reduce_sum(tf.reduce_prod(h, 1))
    total += tf.reduce_sum(tf.transpose(tf.reshape(h, [4, 2, 3]), [2, 0, 1]))
    _train(total)


def _keras_model() -> None:
    x = tf.placeholder(tf.float32, [2, 8, 8, 3])
    m = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="elu"),
        tf.keras.layers.SeparableConv2D(4, 3, activation="selu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(2, activation="softplus")])
    _train(tf.reduce_mean(m(x)))


SURVEY: Dict[str, Callable[[], None]] = {
    "dense_relu_dropout": _dense_relu,
    "activations": _activations,
    "cnn_bn_lrn_pool": _cnn,
    "depthwise_separable_transpose": _depthwise_separable,
    "conv3d_pool3d": _conv3d,
    "fractional_pool": _fractional_pool,
    "resize_crop": _resize,
    "lstm": _rnn(lambda: tf.nn.rnn_cell.LSTMCell(4)),
    "gru": _rnn(lambda: tf.nn.rnn_cell.GRUCell(4)),
    "basic_rnn_multi": _rnn(lambda: tf.nn.rnn_cell.MultiRNNCell(
        [tf.nn.rnn_cell.BasicRNNCell(4), tf.nn.rnn_cell.BasicLSTMCell(4)])),
    "bidirectional_rnn": _bidirectional,
    "embedding_segments_scatter": _embedding_segments,
    "norms_losses_misc": _norms_and_losses,
    "keras_sequential": _keras_model,
}


def survey() -> Dict[str, collections.Counter]:
    """Builds each survey graph and counts its op types."""
    counts = {}
    for name, build in SURVEY.items():
        graph = tf.Graph()
        with graph.as_default():
            tf.set_random_seed(1)
            build()
        counts[name] = collections.Counter(op.type for op in graph.get_operations())
    return counts


def main(argv: List[str]) -> None:
    declared = _declared_op_types()
    counts = survey()
    seen: Dict[str, List[str]] = collections.defaultdict(list)
    for name, counter in counts.items():
        for op_type in counter:
            seen[op_type].append(name)
    missing = sorted((t for t in seen if t not in declared), key=lambda t: (-len(seen[t]), t))
    print(f"{len(counts)} graphs, {len(seen)} op types, {len(missing)} not declared")
    print("| op type | graphs holding it | graphs |")
    print("|---|---|---|")
    for op_type in missing:
        print(f"| `{op_type}` | {len(seen[op_type])} | {', '.join(seen[op_type])} |")
    from tensorflow.python.framework import ops as tf_ops
    with_grad = sorted(set(tf_ops._gradient_registry.list()) - declared - set(seen))
    print(f"\nop types with a TF gradient function, not declared ({len(with_grad)}):")
    print(", ".join(f"`{t}`" for t in with_grad))


if __name__ == "__main__":
    main(sys.argv[1:])
