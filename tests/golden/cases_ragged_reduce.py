"""Golden cases: tf.reduce_* given RaggedTensors (TF 1.15's ragged_math_ops reductions,
through ragged dispatch): over all axes, the ragged axis, the outer axis (columns of rows
of different lengths), inner uniform axes, several axes; keepdims is refused."""

from tests.golden.harness import catch
from tests.golden.ragged_fetch import fetch


def case_reduce(tf):
    a = tf.ragged.constant([[1., 4.], [], [9., 2., 5.]])
    i = tf.ragged.constant([[3, 1], [7], [2, 8, 6]])
    b = tf.ragged.constant([[True, False], [], [True]])
    out = {"sum_all": tf.reduce_sum(a), "sum_1": tf.reduce_sum(a, axis=1),
           "sum_0": tf.reduce_sum(a, 0), "sum_neg": tf.reduce_sum(a, axis=-1),
           "sum_both": tf.reduce_sum(a, [0, 1]), "mean_1": tf.reduce_mean(a, axis=1),
           "mean_0": tf.reduce_mean(a, axis=0), "max_1": tf.reduce_max(a, 1),
           "min_0": tf.reduce_min(i, 0), "prod_1": tf.reduce_prod(i, 1),
           "max_int_1": tf.reduce_max(i, 1), "all_1": tf.reduce_all(b, 1),
           "any_1": tf.reduce_any(b, axis=1), "any_0": tf.reduce_any(b, 0),
           "sum_ri": tf.reduce_sum(a, reduction_indices=1),
           "sum_kw": tf.reduce_sum(input_tensor=i, axis=1),
           "mean_all": tf.reduce_mean(a)}
    return fetch(tf, out)


def case_reduce_inner(tf):
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [], [[5., 6.]]], ragged_rank=1)
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    out = {"m_2": tf.reduce_sum(m, 2), "m_1": tf.reduce_sum(m, 1),
           "m_0": tf.reduce_max(m, 0), "m_12": tf.reduce_sum(m, [1, 2]),
           "n_2": tf.reduce_sum(n, 2), "n_neg": tf.reduce_max(n, -1),
           "n_mean": tf.reduce_mean(n, 2)}
    return fetch(tf, out)


def case_reduce_errors(tf):
    a = tf.ragged.constant([[1., 4.], [], [9.]])
    return {"keepdims": catch(lambda: tf.reduce_sum(a, 1, keepdims=True)),
            "axis_range": catch(lambda: tf.reduce_sum(a, 2)),
            "dense_unchanged": catch(lambda: tf.reduce_sum([1., 2.], 0).shape.as_list())}
