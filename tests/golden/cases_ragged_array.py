"""Golden cases: tf.ragged.boolean_mask (ragged or dense mask and data, row masks), tf.where
(coordinates of a ragged condition, elementwise and row choices; where_v2), tf.tile,
tf.expand_dims, tf.size and tf.rank given RaggedTensors (TF's ragged_array_ops and
ragged_where_op through ragged dispatch)."""

from tests.golden.harness import catch
from tests.golden.ragged_fetch import fetch, run_error


def case_boolean_mask(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [], [[5., 6.]]], ragged_rank=1)
    mask = tf.ragged.constant([[True, False], [], [False, True, True]])
    out = {"ragged": tf.ragged.boolean_mask(rt, mask),
           "dense_2d": tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]],
                                              [[True, False, True], [False, False, True]]),
           "rows": tf.ragged.boolean_mask(rt, [True, False, True]),
           "dense_1d": tf.ragged.boolean_mask([1, 2, 3], [True, False, True]),
           "nested_rows": tf.ragged.boolean_mask(n, tf.ragged.constant([[True, False],
                                                                         [True]])),
           "nested_values": tf.ragged.boolean_mask(n, tf.ragged.constant(
               [[[True, False], [True]], [[False, False, True]]])),
           "inner_uniform": tf.ragged.boolean_mask(m, tf.ragged.constant(
               [[True, False], [], [True]])),
           "dense_3d_data": tf.ragged.boolean_mask(tf.constant([[[1, 2], [3, 4]]]),
                                                   [[True, False]]),
           "dense_mask_ragged_data": tf.ragged.boolean_mask(
               tf.ragged.constant([[1, 2], [3, 4]]), [[False, True], [True, True]]),
           "kwargs": tf.ragged.boolean_mask(data=rt, mask=mask, name="m")}
    return fetch(tf, out)


def case_boolean_mask_errors(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    return {"splits": run_error(tf, lambda: tf.ragged.boolean_mask(
                rt, tf.ragged.constant([[True, False], [], [False]]))),
            "scalar": catch(lambda: tf.ragged.boolean_mask(rt, True)),
            "tf_boolean_mask": catch(lambda: tf.boolean_mask(
                rt, tf.ragged.constant([[True, False], [], [False, True, True]])))}


def case_where(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    c = tf.ragged.constant([[True, False], [], [False, True, True]])
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [], [[5., 6.]]], ragged_rank=1)
    out = {"coords": tf.where(c), "coords_nested": tf.where(tf.ragged.constant(
               [[[True], []], [[False, True]]])),
           "coords_inner": tf.where(tf.greater(m, 3.)),
           "select": tf.where(c, rt, rt * 10), "select_v2": tf.where_v2(c, rt, -rt),
           "select_scalar": tf.where_v2(c, rt, 0.),
           "rows": tf.where(tf.constant([True, False, True]), rt, rt * 10),
           "kwargs": tf.where(condition=c, x=rt, y=rt + 1.)}
    return fetch(tf, out)


def case_tile_expand_size(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [], [[5., 6.]]], ragged_rank=1)
    out = {"tile": tf.tile(rt, [2, 3]), "tile_nested": tf.tile(n, [1, 2, 2]),
           "tile_inner": tf.tile(m, [2, 1, 2]), "tile_tensor": tf.tile(
               rt, tf.constant([1, 2], tf.int64)),
           "expand_0": tf.expand_dims(rt, 0), "expand_1": tf.expand_dims(rt, 1),
           "expand_2": tf.expand_dims(rt, 2), "expand_neg": tf.expand_dims(rt, -1),
           "expand_dim": tf.expand_dims(rt, dim=1), "expand_nested": tf.expand_dims(n, 2),
           "size": tf.size(rt), "size_64": tf.size(m, out_type=tf.int64),
           "rank": tf.rank(n), "rank_inner": tf.rank(m)}
    return fetch(tf, out)


def case_tile_expand_errors(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    return {"tile_length": catch(lambda: tf.tile(rt, [2, 3, 4])),
            "expand_range": catch(lambda: tf.expand_dims(rt, 3)),
            "dense_tile": catch(lambda: tf.tile([[1, 2]], [2, 1]).shape.as_list())}
