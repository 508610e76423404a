"""Eager golden cases: the call arguments tf-keras's TFOpLambda / SlicingOpLambda layers
record in a model's config for the common TF functions on Keras inputs (tf.reshape,
tf.concat, tf.nn.softmax, tf.reduce_*, tf.transpose, tf.cast, tf.expand_dims, slicing,
tf.split, tf.math.* with name=, ...): the arguments as the call passed them, positional
ones by their parameter names, nothing a function's body derived from them."""

import json

import numpy as np

from tests.golden.harness import tolerance

_VALUES = (np.arange(48, dtype=np.float32).reshape(2, 4, 6) - 20) / 7


def _calls(tf, x):
    """name -> the call on the Keras input x (4 x 6 per sample)."""
    return {
        "reshape": lambda: tf.reshape(x, [-1, 24]),
        "reshape_name": lambda: tf.reshape(x, (-1, 6, 4), name="r"),
        "concat": lambda: tf.concat([x, x], axis=-1),
        "concat_positional": lambda: tf.concat([x, x], 1),
        "softmax": lambda: tf.nn.softmax(x),
        "softmax_axis": lambda: tf.nn.softmax(x, axis=1),
        "softmax_dim": lambda: tf.nn.softmax(x, dim=1),
        "log_softmax_axis": lambda: tf.nn.log_softmax(x, axis=1),
        "reduce_sum": lambda: tf.reduce_sum(x, 1),
        "reduce_mean_keepdims": lambda: tf.reduce_mean(x, axis=-1, keepdims=True),
        "reduce_max": lambda: tf.reduce_max(x),
        "reduce_min_axes": lambda: tf.reduce_min(x, axis=[1, 2]),
        "reduce_prod": lambda: tf.reduce_prod(x, 2),
        "reduce_any": lambda: tf.reduce_any(x > 0.0, 1),
        "math_reduce_sum_name": lambda: tf.math.reduce_sum(x, axis=1, name="s"),
        "reduce_logsumexp": lambda: tf.reduce_logsumexp(x, 2),
        "transpose": lambda: tf.transpose(x),
        "transpose_perm": lambda: tf.transpose(x, [0, 2, 1]),
        "transpose_perm_name": lambda: tf.transpose(x, perm=[0, 2, 1], name="t"),
        "cast": lambda: tf.cast(x, tf.int32),
        "cast_string_dtype_name": lambda: tf.cast(x, "float64", name="c"),
        "expand_dims": lambda: tf.expand_dims(x, -1),
        "expand_dims_axis": lambda: tf.expand_dims(x, axis=1),
        "squeeze": lambda: tf.squeeze(x[:, :1], 1),
        "squeeze_axis": lambda: tf.squeeze(x[:, :1], axis=[1]),
        "slice": lambda: x[:, 1:3],
        "slice_ellipsis": lambda: x[..., 0],
        "slice_step": lambda: x[:, ::2, 1],
        "split": lambda: tf.split(x, 2, axis=1)[0],
        "split_sizes": lambda: tf.split(x, [2, 4], 2)[1],
        "unstack": lambda: tf.unstack(x, axis=1)[0],
        "stack": lambda: tf.stack([x, x], axis=1),
        "tile": lambda: tf.tile(x, [1, 2, 1]),
        "gather": lambda: tf.gather(x, [0, 2], axis=1),
        "pad": lambda: tf.pad(x, [[0, 0], [1, 1], [0, 0]]),
        "matmul": lambda: tf.matmul(x, x, transpose_b=True),
        "argmax": lambda: tf.argmax(x, axis=-1),
        "clip_by_value": lambda: tf.clip_by_value(x, 0.0, 1.0),
        "math_exp_name": lambda: tf.math.exp(x, name="e"),
        "math_log1p": lambda: tf.math.log1p(x),
        "math_square_name": lambda: tf.math.square(x, name="sq"),
        "math_maximum": lambda: tf.math.maximum(x, 0.5),
        "math_l2_normalize": lambda: tf.math.l2_normalize(x, axis=-1),
        "nn_l2_normalize_name": lambda: tf.nn.l2_normalize(x, 2, name="n"),
        "math_cumsum": lambda: tf.math.cumsum(x, axis=1),
        "math_top_k": lambda: tf.math.top_k(x, k=2)[0],
        "where": lambda: tf.where(x > 0.0, x, tf.zeros_like(x)),
    }


def _inbound(model):
    """Each op layer's class, function and inbound nodes as the model's JSON has them."""
    config = json.loads(model.to_json())["config"]
    return [[layer["class_name"], layer["config"].get("function"), layer["inbound_nodes"]]
            for layer in config["layers"][1:]]


def record(tf, key):
    """One call's recorded arguments, and the model rebuilt from its JSON predicting as
    the original (the arguments replay the call)."""
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4, 6))
    model = tf.keras.Model(x, _calls(tf, x)[key]())
    rebuilt = tf.keras.models.model_from_json(model.to_json())
    return {"inbound": _inbound(model), "predict": np.asarray(model(_VALUES)),
            "rebuilt": np.asarray(rebuilt(_VALUES))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_recorded_arguments(tf):
    return {key: record(tf, key) for key in _calls(tf, None)}
