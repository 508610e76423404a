"""Golden cases: `tf.get_static_value` follows TF's table of foldable op types (None for
slices, arithmetic and reshapes, which TF's shape inference still folds into static
shapes)."""

import numpy as np


def case_get_static_value_table(tf):
    z = tf.zeros([3, 4])
    p = tf.placeholder(tf.float32, [None, 4])
    c = tf.constant([[1, 2], [3, 4]])
    values = {
        "shape": tf.shape(z), "shape_slice": tf.shape(z)[0], "size": tf.size(z),
        "shape_times_2": tf.shape(z) * 2, "partial_shape": tf.shape(p),
        "partial_shape_slice": tf.shape(p)[1], "rank": tf.rank(p), "reshape": tf.reshape(c, [-1]),
        "add": tf.constant(3) + 1, "range": tf.range(3), "stack": tf.stack([1, 2]),
        "stack_axis1": tf.stack([[1], [2]], axis=1), "cast": tf.cast(tf.shape(z), tf.float32),
        "concat": tf.concat([tf.shape(z), [5]], 0), "unstack": tf.unstack(c)[1],
        "split": tf.split(c, 2, axis=1)[0], "fill": tf.fill([2, 2], 7),
        "equal": tf.equal(c, 2), "not_equal": tf.not_equal(c, 2),
        "identity": tf.identity(tf.stop_gradient(c)), "transpose": tf.transpose(c),
        "expand_dims": tf.expand_dims(c, 0), "placeholder": p,
    }
    out = {k: tf.get_static_value(v) for k, v in values.items()}
    partial = tf.get_static_value(tf.stack([tf.shape(p)[0], 4]), partial=True)
    out["partial_stack"] = [None if v is None else int(v) for v in partial]
    out["python"] = tf.get_static_value([1, 2])
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in out.items()}
