"""Golden cases: a dense operand broadcast over a RaggedTensor's rows and ragged dimensions
(TF's ragged_tensor_shape.broadcast_to: [N, 1] columns, size-1 and uniform-row-length
dimensions, placeholders of unknown row count, run-time errors on a mismatch), reductions
over the ragged axes of ragged_rank-2 tensors (keepdims too), tf.math.unsorted_segment_*
of ragged data or segment ids, and the segment ops on a RaggedTensor's values by its row
ids (tf.ragged.row_splits_to_segment_ids)."""

from tests.golden.harness import catch
from tests.golden.ragged_fetch import fetch, run_error


def case_dense_broadcast(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [], [[5., 6.]]], ragged_rank=1)
    uniform = tf.ragged.constant([[1., 2.], [3., 4.]])
    column = tf.placeholder_with_default([[1.], [2.], [3.]], [None, 1])
    out = {"column": rt + tf.constant([[1.], [2.], [3.]]),
           "column_tf_add": tf.add(rt, [[1.], [2.], [3.]]),
           "rcolumn": tf.constant([[10.], [20.], [30.]]) - rt,
           "one_by_one": rt * tf.constant([[10.]]), "vector_1": rt * tf.constant([10.]),
           "placeholder_rows": rt * column, "int_column": tf.multiply(
               tf.ragged.constant([[1, 2], [3]]), tf.constant([[2], [3]])),
           "uniform_rows": uniform + tf.constant([[1., 2.], [2., 3.]]),
           "nested_column": n + tf.constant([[[1]], [[2]]]),
           "nested_maximum": tf.maximum(n, tf.constant([[[3]], [[5]]])),
           "inner_pairs": m + tf.constant([[[1., 2.]], [[3., 4.]], [[5., 6.]]]),
           "inner_column": m + tf.constant([[[1.]], [[3.]], [[5.]]]),
           "compare": tf.less(rt, tf.constant([[2.], [0.], [4.]])),
           "int32_splits": tf.ragged.constant([[1., 2.], [], [3.]], row_splits_dtype=tf.int32)
           + tf.constant([[1.], [2.], [3.]]),
           # sizes known only at run time: 1 repeats, the row length gathers
           "unknown_sizes": uniform * tf.placeholder_with_default([[1., 2.], [3., 4.]],
                                                                  [None, None]),
           "unknown_column": rt * tf.placeholder_with_default([[1.], [2.], [3.]],
                                                              [None, None]),
           "unknown_nested": n + tf.placeholder_with_default([[[1]], [[2]]],
                                                             [None, None, None])}
    return fetch(tf, out)


def case_dense_broadcast_errors(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    return {"rows": run_error(tf, lambda: rt + tf.constant([[1.], [2.]])),
            "ragged_dim": run_error(tf, lambda: rt + tf.constant([[1., 2.]] * 3)),
            "placeholder_rows": run_error(
                tf, lambda: rt + tf.placeholder_with_default([[1.], [2.]], [None, 1])),
            "nested_rows": run_error(tf, lambda: n + tf.constant([[1], [2]])),
            "unknown_sizes": run_error(tf, lambda: rt * tf.placeholder_with_default(
                [[1., 2.], [3., 4.], [5., 6.]], [None, None]))}


def case_reduce_ragged_rank_2(tf):
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    p = tf.ragged.constant([[[1., 2.], [3.]], [[4., 5., 6.]], [], [[], [7.]]])
    out = {"sum_1": tf.reduce_sum(n, 1), "sum_0": tf.reduce_sum(n, 0),
           "max_0": tf.reduce_max(p, 0), "max_1": tf.reduce_max(p, axis=1),
           "min_1": tf.reduce_min(p, 1), "prod_0": tf.reduce_prod(p, 0),
           "mean_1": tf.reduce_mean(p, 1), "mean_0": tf.reduce_mean(p, 0),
           "any_1": tf.reduce_any(tf.greater(p, 4.), 1),
           "sum_01": tf.reduce_sum(n, [0, 1]), "sum_12": tf.reduce_sum(n, [1, 2]),
           "sum_2": tf.reduce_sum(p, 2),
           "keepdims_1": tf.reduce_sum(n, 1, keepdims=True),
           "keepdims_rr1": tf.reduce_max(tf.ragged.constant([[1, 5], [], [2]]), 1,
                                         keepdims=True)}
    return fetch(tf, out)


def case_ragged_segments(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    ids = tf.ragged.constant([[0, 2], [], [1, 1, 0]])
    out = {"sum_nested": tf.math.unsorted_segment_sum(n, [0, 0], 1),
           "max": tf.math.unsorted_segment_max(rt, [1, 0, 1], 3),
           "min": tf.unsorted_segment_min(rt, [1, 0, 1], 2),
           "prod": tf.math.unsorted_segment_prod(rt, [0, 0, 0], 1),
           "mean": tf.math.unsorted_segment_mean(rt, [1, 0, 1], 3),
           "sqrt_n": tf.math.unsorted_segment_sqrt_n(rt, [1, 0, 1], 3),
           "kwargs": tf.math.unsorted_segment_sum(data=rt, segment_ids=[1, 1, 0],
                                                  num_segments=2),
           "ragged_ids": tf.math.unsorted_segment_sum(rt, ids, 3)}
    return fetch(tf, out)


def case_ragged_segment_errors(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    return {"sorted_segment_sum": catch(lambda: tf.math.segment_sum(rt, [0, 0, 1])),
            "ids_not_prefix": run_error(tf, lambda: tf.math.unsorted_segment_sum(
                rt, tf.ragged.constant([[0], [], [1, 1, 0]]), 2)),
            "dense_unchanged": catch(lambda: tf.math.unsorted_segment_sum(
                [1., 2.], [0, 0], 1).shape.as_list())}


def case_segments_by_row_ids(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    ids = tf.ragged.row_splits_to_segment_ids(rt.row_splits)
    ids32 = tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5], out_type=tf.int32)
    out = {"ids": ids, "ids32": ids32,
           "segment_sum": tf.math.segment_sum(rt.values, ids),
           "segment_mean": tf.math.segment_mean(rt.values, ids32),
           "unsorted_max": tf.math.unsorted_segment_max(rt.values, ids, rt.nrows()),
           "splits_back": tf.ragged.segment_ids_to_row_splits(ids, num_segments=3),
           "row_sums_equal": tf.reduce_all(tf.equal(
               tf.math.unsorted_segment_sum(rt.values, ids, 3), tf.reduce_sum(rt, 1)))}
    return fetch(tf, out)
