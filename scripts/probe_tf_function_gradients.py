"""Which op types real TF's `SymbolicGradient` differentiates inside a function.

    .venv/bin/python scripts/probe_tf_function_gradients.py [--tf /tmp/tf/bin/python]

For each probe (a small forward computation of one op family) this builds
`tf.gradients(reduce_sum(f(x)), x)` with tf1compat, writes it in TF's form (every op type
allowed), and runs it under the TensorFlow venv. It prints the op types of the probes TF
differentiated to tf1compat's values and those TF has no gradient for (ops of
gradient_lowering.LOWERINGS appear as the ops they are written as), and records them in
tests/fixtures/tf_function_gradients.json: the source of
`graphdef/gradient_export.TF_DIFFERENTIABLE_OP_TYPES`, checked against it by the tests.
It also records, for TF's own ops in a function TF writes (`tf_own_ops`), which TF's
function gradients lack (If, StatelessIf, Switch/Merge, Prod, the stitches, ...): the
reason for graphdef/gradient_lowering.py and cond_lowering.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
RECORD = os.path.join(ROOT, "tests", "fixtures", "tf_function_gradients.json")

X = (np.cos(np.arange(2 * 4 * 4 * 2, dtype=np.float32)) * 1.3).reshape(2, 4, 4, 2)

PROBES = {
    "relu": lambda tf, x: tf.nn.relu(x), "relu6": lambda tf, x: tf.nn.relu6(x),
    "elu": lambda tf, x: tf.nn.elu(x), "selu": lambda tf, x: tf.nn.selu(x),
    "softplus": lambda tf, x: tf.nn.softplus(x),
    "leaky_relu": lambda tf, x: tf.nn.leaky_relu(x),
    "sigmoid": lambda tf, x: tf.sigmoid(x), "tanh": lambda tf, x: tf.tanh(x),
    "softmax": lambda tf, x: tf.nn.softmax(x),
    "log_softmax": lambda tf, x: tf.nn.log_softmax(x),
    "exp_log": lambda tf, x: tf.log(tf.exp(x) + 1.0), "log1p": lambda tf, x: tf.log1p(x * x),
    "sqrt_rsqrt": lambda tf, x: tf.sqrt(x * x + 1.0) + tf.rsqrt(x * x + 1.0),
    "square_abs_neg": lambda tf, x: tf.square(x) + tf.abs(x) - x,
    "reciprocal": lambda tf, x: tf.reciprocal(x * x + 1.0),
    "sin_cos": lambda tf, x: tf.sin(x) * tf.cos(x),
    "pow": lambda tf, x: tf.pow(x * x + 1.0, 1.5),
    "max_min": lambda tf, x: tf.maximum(x, 0.1) + tf.minimum(x, 0.2),
    "squared_difference": lambda tf, x: tf.squared_difference(x, 0.5),
    "arith": lambda tf, x: (x + 1.0) * (x - 2.0) / 3.0,
    "add_n": lambda tf, x: tf.add_n([x, x * 2.0, x * 3.0]),
    "div_no_nan": lambda tf, x: tf.div_no_nan(x, x * x + 1.0),
    "matmul_bias": lambda tf, x: tf.nn.bias_add(
        tf.matmul(tf.reshape(x, [8, 8]), tf.ones([8, 3])), tf.ones([3])),
    "batch_matmul": lambda tf, x: tf.matmul(tf.reshape(x, [2, 4, 8]), tf.ones([2, 8, 3])),
    "conv2d": lambda tf, x: tf.nn.conv2d(x, tf.ones([3, 3, 2, 3]) * 0.1, [1, 1, 1, 1],
                                         "SAME"),
    "depthwise": lambda tf, x: tf.nn.depthwise_conv2d(x, tf.ones([3, 3, 2, 1]) * 0.1,
                                                      [1, 1, 1, 1], "SAME"),
    "depthwise_multiplier": lambda tf, x: tf.nn.depthwise_conv2d(
        x, tf.reshape(tf.range(36, dtype=tf.float32) * 0.01, [3, 3, 2, 2]), [1, 2, 2, 1],
        "VALID") * tf.range(4, dtype=tf.float32),
    "max_pool": lambda tf, x: tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    "avg_pool": lambda tf, x: tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    "fused_batch_norm": lambda tf, x: tf.nn.fused_batch_norm(
        x, tf.ones([2]), tf.zeros([2]), is_training=True)[0],
    "moments": lambda tf, x: tf.nn.batch_normalization(
        x, *tf.nn.moments(x, [0, 1, 2]), offset=None, scale=None, variance_epsilon=1e-3),
    "reductions": lambda tf, x: tf.reduce_sum(x, 1) + tf.reduce_mean(x, 1),
    "reduce_max": lambda tf, x: tf.reduce_max(x, 1),
    "reduce_prod": lambda tf, x: tf.reduce_prod(x, 1),
    "reshape_transpose": lambda tf, x: tf.transpose(tf.reshape(x, [8, 8])) * 2.0,
    "concat_stack": lambda tf, x: tf.concat([x, x * 2.0], 3) + 0.0 * tf.reduce_sum(
        tf.stack([x, x])),
    "unstack_split": lambda tf, x: tf.unstack(x)[1] * tf.split(x, 2, axis=3)[0][0],
    "slice": lambda tf, x: x[:, 1:3, ::2] * 2.0 +
    tf.slice(x, [0, 0, 0, 0], [2, 2, 2, 2])[0, 0, 0, 0],
    "gather": lambda tf, x: tf.gather(tf.reshape(x, [16, 4]), [1, 3, 3]),
    "tile_pad": lambda tf, x: tf.pad(tf.tile(x, [1, 2, 1, 1]),
                                     [[0, 0], [1, 1], [0, 0], [0, 0]]),
    "expand_squeeze": lambda tf, x: tf.squeeze(tf.expand_dims(x, 0), 0) * 3.0,
    "cast": lambda tf, x: tf.cast(tf.cast(x, tf.float64) * 2.0, tf.float32),
    "where": lambda tf, x: tf.where(x > 0, x, x * 0.1),
    "less_logical": lambda tf, x: tf.where(x < 0.3, x, x * 0.1) + tf.where(
        tf.logical_and(x <= 0.1, x >= -1.0), x * 2.0, x),
    "reverse": lambda tf, x: tf.reverse(x, [1]) * tf.range(4, dtype=tf.float32)[:, None, None],
    "softmax_ce": lambda tf, x: tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.nn.softmax(tf.ones([8, 8])), logits=tf.reshape(x, [8, 8])),
    "sparse_softmax_ce": lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant([0, 1, 2, 3, 4, 5, 6, 7]), logits=tf.reshape(x, [8, 8])),
    "sigmoid_ce": lambda tf, x: tf.nn.sigmoid_cross_entropy_with_logits(
        labels=tf.ones_like(x) * 0.3, logits=x),
    "l2_loss": lambda tf, x: tf.nn.l2_loss(x),
    "l2_normalize": lambda tf, x: tf.nn.l2_normalize(x, 3),
    "clip": lambda tf, x: tf.clip_by_value(x, -0.5, 0.5),
    "dropout": lambda tf, x: tf.nn.dropout(x, rate=0.5, seed=3),
    "dropout_tensor_rate": lambda tf, x: tf.nn.dropout(
        x, rate=tf.placeholder_with_default(0.5, None), seed=4),
    "broadcast_to": lambda tf, x: tf.broadcast_to(tf.reduce_sum(x, 0), [3, 4, 4, 2]),
    "pad": lambda tf, x: tf.pad(x, [[0, 0], [1, 2], [0, 0], [2, 0]]) *
    tf.range(4, dtype=tf.float32),
    "tile": lambda tf, x: tf.tile(x, [1, 2, 1, 3]) * tf.range(6, dtype=tf.float32),
    "fill": lambda tf, x: x * tf.fill(tf.shape(x), tf.reduce_sum(x * x)),
    "ones_zeros_like": lambda tf, x: x * tf.ones_like(x) + tf.zeros_like(x) * x,
    "losses_weighted": lambda tf, x: tf.losses.sparse_softmax_cross_entropy(
        tf.constant([0, 1, 2, 3, 4, 5, 6, 7]), tf.reshape(x, [8, 8]),
        weights=tf.constant([1., 0., 2., 1., 1., 1., 1., 1.])),
    "flatten": lambda tf, x: tf.layers.flatten(x) * 2.0,
    "stop_gradient": lambda tf, x: x * tf.stop_gradient(x),
    "identity": lambda tf, x: tf.identity(x) * 2.0,
    "reduce_prod_keepdims": lambda tf, x: tf.reduce_prod(x, [1, 3], keepdims=True) *
    tf.range(4, dtype=tf.float32),
    "reduce_prod_all": lambda tf, x: tf.reduce_prod(x[0, :2]),
    "fused_batch_norm_nchw": lambda tf, x: tf.nn.fused_batch_norm(
        x, tf.constant([1., 2., 3., 4.]), tf.constant([.1, .2, .3, .4]), data_format="NCHW",
        is_training=True)[0] * tf.reshape(tf.range(4, dtype=tf.float32), [1, 4, 1, 1]),
    "fused_batch_norm_nchw_inference": lambda tf, x: tf.nn.fused_batch_norm(
        x, tf.constant([1., 2., 3., 4.]), tf.constant([.1, .2, .3, .4]),
        mean=tf.constant([.1, 0., 0., .2]), variance=tf.constant([1., 2., 3., 4.]),
        data_format="NCHW", is_training=False)[0] *
    tf.reshape(tf.range(4, dtype=tf.float32), [1, 4, 1, 1]),
    "fused_batch_norm_half": lambda tf, x: tf.cast(tf.nn.fused_batch_norm(
        tf.cast(x, tf.float16), tf.constant([1., 2.]), tf.constant([.1, .2]),
        is_training=True)[0], tf.float32) * tf.range(2, dtype=tf.float32),
    "fused_batch_norm_bfloat16": lambda tf, x: tf.cast(tf.nn.fused_batch_norm(
        tf.cast(x, tf.bfloat16), tf.constant([1., 2.]), tf.constant([.1, .2]),
        is_training=True)[0], tf.float32) * tf.range(2, dtype=tf.float32),
    "partitioned_embedding": lambda tf, x: tf.nn.embedding_lookup(
        _shards(tf, x), tf.constant([[1, 3], [7, 12], [3, 3]])) * tf.range(4, dtype=tf.float32),
    "partitioned_embedding_div": lambda tf, x: tf.nn.embedding_lookup(
        _shards(tf, x), tf.constant([[1, 3], [7, 12], [3, 3]]), partition_strategy="div") *
    tf.range(4, dtype=tf.float32),
    "cond_taken": lambda tf, x: _cond(tf, x, True),
    "cond_not_taken": lambda tf, x: _cond(tf, x, False),
    "cond_dropout_training": lambda tf, x: tf.layers.dropout(
        x, 0.5, training=tf.placeholder_with_default(True, []), seed=3),
    "cond_dropout_inference": lambda tf, x: tf.layers.dropout(
        x, 0.5, training=tf.placeholder_with_default(False, []), seed=3) * 2.0,
    "cond_fused_batch_norm_training": lambda tf, x: _cond_batch_norm(tf, x, True),
    "cond_fused_batch_norm_inference": lambda tf, x: _cond_batch_norm(tf, x, False),
    "cumsum": lambda tf, x: tf.cumsum(x, 1) * tf.range(2, dtype=tf.float32),
    "cumsum_exclusive_reverse": lambda tf, x: tf.cumsum(
        x, -2, exclusive=True, reverse=True) * tf.range(2, dtype=tf.float32),
    "cumprod": lambda tf, x: tf.cumprod(x, 2) * tf.range(2, dtype=tf.float32),
    "cumprod_zeros_exclusive_reverse": lambda tf, x: tf.cumprod(
        tf.nn.relu(x), 1, exclusive=True, reverse=True) * tf.range(2, dtype=tf.float32),
    # One op each: which elementwise and layer ops of training graphs TF differentiates.
    "sign": lambda tf, x: tf.sign(x) * 2.0, "atan": lambda tf, x: tf.atan(x),
    "tan": lambda tf, x: tf.tan(x * 0.5), "asin": lambda tf, x: tf.asin(x * 0.5),
    "acos": lambda tf, x: tf.acos(x * 0.5), "sinh": lambda tf, x: tf.sinh(x),
    "cosh": lambda tf, x: tf.cosh(x), "asinh": lambda tf, x: tf.asinh(x),
    "acosh": lambda tf, x: tf.acosh(x * x + 1.5), "atanh": lambda tf, x: tf.atanh(x * 0.5),
    "expm1": lambda tf, x: tf.expm1(x), "erf": lambda tf, x: tf.erf(x),
    "erfc": lambda tf, x: tf.erfc(x), "lgamma": lambda tf, x: tf.lgamma(x * x + 0.5),
    "digamma": lambda tf, x: tf.digamma(x * x + 0.5),
    "softsign": lambda tf, x: tf.nn.softsign(x),
    "floor_ceil_round": lambda tf, x: x * (tf.floor(x) + tf.ceil(x) + tf.round(x)),
    "reduce_min": lambda tf, x: tf.reduce_min(x, 2),
    "xlogy_xdivy": lambda tf, x: tf.math.xlogy(x, x * x + 1.0) + tf.math.xdivy(
        x, x * x + 1.0),
    "atan2": lambda tf, x: tf.atan2(x, x * x + 1.0),
    "floor_mod": lambda tf, x: tf.floormod(x, 0.7) * x,
    "zeros_like_of_value": lambda tf, x: x * 2.0 + tf.zeros_like(tf.sin(x)),
    "mirror_pad": lambda tf, x: tf.pad(x, [[0, 0], [1, 1], [2, 1], [0, 0]], "REFLECT") *
    tf.range(2, dtype=tf.float32),
    "resize_bilinear": lambda tf, x: tf.image.resize_bilinear(x, [7, 6]),
    "resize_nearest": lambda tf, x: tf.image.resize_nearest_neighbor(x, [8, 8]),
    "resize_bilinear_half_pixel": lambda tf, x: tf.image.resize_bilinear(
        x, [7, 3], half_pixel_centers=True) * tf.range(2, dtype=tf.float32),
    "resize_bilinear_align_corners": lambda tf, x: tf.image.resize_bilinear(
        x, [3, 6], align_corners=True) * tf.range(2, dtype=tf.float32),
    "resize_nearest_align_corners": lambda tf, x: tf.image.resize_nearest_neighbor(
        x, [7, 5], align_corners=True) * tf.range(2, dtype=tf.float32),
    "resize_nearest_half_pixel": lambda tf, x: tf.image.resize_nearest_neighbor(
        x, [6, 9], half_pixel_centers=True) * tf.range(2, dtype=tf.float32),
    "mirror_pad_symmetric": lambda tf, x: tf.pad(x, [[1, 0], [0, 2], [3, 1], [0, 0]],
                                                 "SYMMETRIC") * tf.range(2, dtype=tf.float32),
    "segment_sum": lambda tf, x: tf.segment_sum(tf.reshape(x, [8, 8]), [0, 0, 1, 1, 1, 2,
                                                                       3, 3]),
    "unsorted_segment_sum": lambda tf, x: tf.unsorted_segment_sum(
        tf.reshape(x, [8, 8]), [2, 0, 1, 1, 0, 2, 3, 3], 4),
    "sparse_segment_mean_sqrtn": lambda tf, x: tf.sparse_segment_mean(
        tf.reshape(x, [8, 8]), [3, 1, 3, 7], [0, 0, 1, 3]) + tf.sparse_segment_sqrt_n(
        tf.reshape(x, [8, 8]), [2, 2, 5], [0, 3, 3]) + tf.sparse_segment_sum(
        tf.reshape(x, [8, 8]), [0, 6, 6, 1], [0, 1, 1, 3]),
    "pad_v2": lambda tf, x: tf.pad(x, [[0, 0], [1, 0], [0, 2], [0, 0]], constant_values=0.5) *
    tf.range(2, dtype=tf.float32),
    "conv2d_transpose": lambda tf, x: tf.nn.conv2d_transpose(
        x, tf.reshape(tf.range(54, dtype=tf.float32) * 0.01, [3, 3, 3, 2]), [2, 8, 7, 3],
        [1, 2, 2, 1], "SAME") * tf.range(3, dtype=tf.float32),
    "tile_run_time_multiples": lambda tf, x: tf.tile(x, tf.stack([
        1, tf.placeholder_with_default(2, []), 1, 1])) * tf.range(2, dtype=tf.float32),
    "split_v": lambda tf, x: tf.split(x, [1, 3], axis=1)[1] * 2.0,
    "gather_nd": lambda tf, x: tf.gather_nd(x, [[0, 1], [1, 3]]),
    "one_hot_argmax": lambda tf, x: x * tf.one_hot(tf.argmax(x, -1), 2),
    "matrix_band_part": lambda tf, x: tf.matrix_band_part(tf.reshape(x, [8, 8]), 0, -1),
    "space_to_batch": lambda tf, x: tf.nn.atrous_conv2d(x, tf.ones([2, 2, 2, 3]) * 0.1, 2,
                                                        "SAME"),
    "logical_masks": lambda tf, x: tf.where(tf.logical_or(x > 0.5, tf.logical_not(
        x > -0.2)), x, x * 0.3),
    "conv3d_pool3d": lambda tf, x: tf.nn.max_pool3d(tf.nn.conv3d(
        tf.expand_dims(x, -1), tf.ones([2, 2, 2, 1, 2]) * 0.1, [1, 1, 1, 1, 1], "SAME"),
        [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
    "avg_pool3d": lambda tf, x: tf.nn.avg_pool3d(tf.expand_dims(x, -1), [1, 2, 2, 2, 1],
                                                 [1, 2, 2, 2, 1], "VALID"),
    "top_k": lambda tf, x: tf.nn.top_k(tf.reshape(x, [8, 8]), 3)[0],
    "mul_no_nan": lambda tf, x: tf.math.multiply_no_nan(x, tf.nn.relu(x - 0.2)) * x,
    "gelu_erf": lambda tf, x: 0.5 * x * (1.0 + tf.erf(x / np.sqrt(2.0))) * x,
    "placeholder_with_default_value": lambda tf, x: tf.placeholder_with_default(
        x * 2.0, x.shape) * x,
    "atan2_both": lambda tf, x: tf.atan2(x * x - 0.3, x + 0.1),
    "floor_mod_divisor": lambda tf, x: tf.floormod(x + 2.0, x * x + 0.6),
    "matrix_band_part_causal": lambda tf, x: tf.matrix_band_part(
        tf.reshape(x, [2, 4, 8]), -1, 0) * tf.range(8, dtype=tf.float32),
    "matrix_band_part_run_time": lambda tf, x: tf.matrix_band_part(
        tf.reshape(x, [4, 4, 4]), tf.placeholder_with_default(tf.constant(1, tf.int64), []),
        tf.placeholder_with_default(tf.constant(2, tf.int64), [])) * x[0, :, :, 0],
    "space_to_batch_padded": lambda tf, x: tf.space_to_batch_nd(
        x, [2, 2], [[1, 1], [0, 2]]) * tf.range(2, dtype=tf.float32),
    "batch_to_space_crops": lambda tf, x: tf.batch_to_space_nd(
        x, [1, 2], [[1, 0], [0, 1]]) * tf.range(2, dtype=tf.float32),
    "segment_mean": lambda tf, x: tf.segment_mean(tf.reshape(x, [8, 8]) * x[0, 0, 0, 0], [
        0, 0, 1, 1, 1, 3, 3, 3]) * tf.range(8, dtype=tf.float32),
    "top_k_indices": lambda tf, x: tf.nn.top_k(tf.reshape(x, [8, 8]) * 2.0, 3)[0] * tf.gather(
        tf.range(8, dtype=tf.float32), tf.nn.top_k(tf.reshape(x, [8, 8]) * 2.0, 3)[1]),
    "segment_max_ties": lambda tf, x: tf.segment_max(tf.round(tf.reshape(x, [8, 8]) * 2.0) * x[
        0, 0, 0, 0], [0, 0, 1, 1, 1, 3, 3, 3]) * tf.range(8, dtype=tf.float32),
    "unsorted_segment_min_empty": lambda tf, x: tf.square(tf.unsorted_segment_min(
        tf.reshape(x, [8, 8]), [2, 0, 1, 1, 0, 2, 4, 4], 5)),
    "atrous_conv_valid": lambda tf, x: tf.nn.atrous_conv2d(
        x, tf.reshape(tf.range(12, dtype=tf.float32) * 0.1, [2, 1, 2, 3]), 2, "VALID"),
}


def _shards(tf, x):
    table = tf.reshape(x, [16, 4])
    return [table[:6], table[6:11], table[11:]]


def _cond(tf, x, taken):
    return tf.cond(tf.placeholder_with_default(taken, []), lambda: x * 2.0 + 1.0,
                   lambda: tf.square(x) * tf.range(2, dtype=tf.float32))


def _cond_batch_norm(tf, x, training):
    scale, offset = tf.constant([1., 2.]), tf.constant([.1, .2])
    return tf.cond(
        tf.placeholder_with_default(training, []),
        lambda: tf.nn.fused_batch_norm(x, scale, offset, is_training=True)[0],
        lambda: tf.nn.fused_batch_norm(x, scale, offset, mean=tf.constant([.1, .2]),
                                       variance=tf.constant([1., 2.]), is_training=False)[0]
    ) * tf.range(2, dtype=tf.float32)


def build() -> dict:
    import tf1compat as tf
    from tf1compat.graphdef import gradient_export
    from tf1compat.graphdef import graph_export

    class Everything(frozenset):
        def __contains__(self, item):
            return True
    gradient_export.TF_DIFFERENTIABLE_OP_TYPES = Everything()
    out = {}
    for name, fn in PROBES.items():
        with tf.Graph().as_default():
            x = tf.placeholder(tf.float32, X.shape, name="x")
            g, = tf.gradients(tf.reduce_sum(fn(tf, x)), x)
            with tf.Session() as sess:
                value = sess.run(g, {x: X})
            gd = graph_export.graph_to_graph_def()
            types = sorted({n.op for f in gd.library.function for n in f.node_def})
            out[name] = {"graph": gd.SerializeToString().hex(), "grad": g.name,
                         "types": types, "value": value.tolist()}
    return out


def read(path: str) -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    with open(path) as f:
        probes = json.load(f)
    for probe in probes.values():
        with tf.Graph().as_default():
            gd = tf.GraphDef()
            gd.ParseFromString(bytes.fromhex(probe["graph"]))
            try:
                tf.import_graph_def(gd, name="")
                with tf.Session() as sess:
                    got = sess.run(probe["grad"], {"x:0": X})
                probe["tf"] = float(np.max(np.abs(got - np.array(probe["value"]))))
            except Exception as e:  # noqa: BLE001 - recorded: what TF says
                probe["tf"] = str(e).split("\n")[2 if "\n\n" in str(e) else 0][:200]
    with open(path, "w") as f:
        json.dump(probes, f)
    with open(path + ".raw", "w") as f:
        json.dump(_raw_ops(tf), f)


def _raw_ops(tf) -> dict:
    """TF's own ops in a function TF writes (Defun), differentiated by SymbolicGradient:
    what TF's function gradients lack, whatever tf1compat writes ("ok" or TF's error)."""
    from tensorflow.python.framework import function
    value = X.reshape(8, 8)

    branch_a = function.Defun(tf.float32)(lambda a: a * 2.0)
    branch_b = function.Defun(tf.float32)(lambda a: a * 3.0)
    loop_cond = function.Defun(tf.int32, tf.float32)(lambda i, a: i < 2)
    loop_body = function.Defun(tf.int32, tf.float32)(lambda i, a: (i + 1, a * 2.0))
    raw = {
        "If": lambda x: tf.raw_ops.If(cond=x[0, 0] > 0, input=[x], Tout=[tf.float32],
                                      then_branch=branch_a, else_branch=branch_b)[0],
        "StatelessIf": lambda x: tf.raw_ops.StatelessIf(
            cond=x[0, 0] > 0, input=[x], Tout=[tf.float32], then_branch=branch_a,
            else_branch=branch_b)[0],
        "Switch/Merge": lambda x: tf.raw_ops.Merge(inputs=[
            tf.raw_ops.Switch(data=x, pred=x[0, 0] > 0)[1] * 2.0,
            tf.raw_ops.Switch(data=x, pred=x[0, 0] > 0)[0]])[0],
        "While": lambda x: tf.raw_ops.While(input=[tf.constant(0), x], cond=loop_cond,
                                            body=loop_body)[1],
        "StatelessWhile": lambda x: tf.raw_ops.StatelessWhile(
            input=[tf.constant(0), x], cond=loop_cond, body=loop_body)[1],
        "Prod": lambda x: tf.reduce_prod(x, 1),
        "GatherV2": lambda x: tf.gather(x, [1, 3, 3]),
        "DynamicPartition": lambda x: tf.dynamic_partition(x, [0, 1] * 4, 2)[1],
        "DynamicStitch": lambda x: tf.dynamic_stitch([[0, 2], [1, 3]], [x[:2], x[2:4]]),
        "ParallelDynamicStitch": lambda x: tf.raw_ops.ParallelDynamicStitch(
            indices=[[0, 2], [1, 3]], data=[x[:2], x[2:4]]),
        "AddN": lambda x: tf.add_n([x, x * 2.0]),
    }
    out = {}
    def summed(fn):
        return function.Defun(tf.float32)(lambda x: tf.reduce_sum(fn(tf.reshape(x, [8, 8]))))
    for name, fn in raw.items():
        with tf.Graph().as_default():
            forward = summed(fn)
            grad = tf.raw_ops.SymbolicGradient(
                input=[tf.constant(value), tf.constant(1.0)], Tout=[tf.float32], f=forward)
            try:
                with tf.Session() as sess:
                    sess.run(grad)
                out[name] = "ok"
            except Exception as e:  # noqa: BLE001 - recorded: what TF says
                lines = [line.strip() for line in str(e).split("\n") if line.strip()]
                at = [k + 1 for k, line in enumerate(lines[:-1]) if line.startswith("Node:")]
                out[name] = lines[at[0] if at else min(1, len(lines) - 1)][:200]
    return out


def main(argv: list) -> int:
    if argv[:1] == ["--read"]:
        read(argv[1])
        return 0
    tf_python = argv[1] if argv[:1] == ["--tf"] else "/tmp/tf/bin/python"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probes.json")
        with open(path, "w") as f:
            json.dump(build(), f)
        subprocess.run([tf_python, os.path.abspath(__file__), "--read", path], check=True,
                       env=dict(os.environ, CUDA_VISIBLE_DEVICES=""), cwd=tmp)
        with open(path) as f:
            probes = json.load(f)
        with open(path + ".raw") as f:
            raw = json.load(f)
    good, bad = set(), set()
    record = {}
    for name, probe in probes.items():
        ok = isinstance(probe["tf"], float) and probe["tf"] < 1e-4
        print(f"{name:20s} {'ok' if ok else probe['tf']}  {' '.join(probe['types'])}")
        (good if ok else bad).update(probe["types"])
        record[name] = {"ok": ok, "types": probe["types"],
                        "tf": probe["tf"] if not ok else "ok"}
    print("differentiated by TF:", " ".join(sorted(good)))
    print("only in failing probes:", " ".join(sorted(bad - good)))
    for name, said in raw.items():
        print(f"TF's own {name:22s} {said}")
    with open(RECORD, "w") as f:     # tests/test_gradient_export.py checks the table
        json.dump({"differentiated": sorted(good), "probes": record, "tf_own_ops": raw}, f,
                  indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
