"""Golden cases: tf.one_hot of ragged indices, tf.squeeze of a RaggedTensor's size-1
dimensions, tf.strings.bytes_split of strings of rank >= 1 or ragged strings, and
tf.ragged.stack_dynamic_partitions."""

from tests.golden.harness import catch
from tests.golden.ragged_fetch import fetch, run_error


def case_one_hot_squeeze(tf):
    idx = tf.ragged.constant([[0, 2], [], [1]])
    col = tf.ragged.constant([[[1], [2]], [[3]]], ragged_rank=1)
    out = {"one_hot": tf.one_hot(idx, 3), "one_hot_args": tf.one_hot(
               indices=idx, depth=4, on_value=5, off_value=-1, axis=-1),
           "squeeze_inner": tf.squeeze(col, [2]), "squeeze_neg": tf.squeeze(col, axis=-1),
           "squeeze_nested": tf.squeeze(tf.ragged.constant([[[[1], [2]], [[3]]]],
                                                           ragged_rank=2), [3]),
           "squeeze_ragged_dim": tf.squeeze(tf.ragged.constant([[[1, 2]], [[3]]]), [1]),
           "squeeze_both": tf.squeeze(tf.ragged.constant([[[[1], [2]]], [[[3]]]],
                                                         ragged_rank=2), [1, 3])}
    return fetch(tf, out)


def case_one_hot_squeeze_errors(tf):
    idx = tf.ragged.constant([[0, 2], [], [1]])
    col = tf.ragged.constant([[[1], [2]], [[3]]], ragged_rank=1)
    return {"one_hot_axis": catch(lambda: tf.one_hot(idx, 3, axis=0)),
            "squeeze_ragged_dim": run_error(tf, lambda: tf.squeeze(col, [1])),
            "squeeze_no_axis": catch(lambda: tf.squeeze(col))}


def case_bytes_split(tf):
    out = {"vector": tf.strings.bytes_split(["ab", "", "xyz"]),
           "matrix": tf.strings.bytes_split([["ab", "c"], ["", "de"]]),
           "ragged": tf.strings.bytes_split(tf.ragged.constant([["ab"], [], ["c", ""]])),
           "scalar": tf.strings.bytes_split("hey")}
    return fetch(tf, out)


def case_stack_dynamic_partitions(tf):
    data = tf.constant(["a", "b", "c", "d", "e"])
    out = {"strings": tf.ragged.stack_dynamic_partitions(data, [3, 0, 2, 2, 3], 5),
           "matrix": tf.ragged.stack_dynamic_partitions(
               tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([1, 0, 1]), 2),
           "ragged_data": tf.ragged.stack_dynamic_partitions(
               tf.ragged.constant([[1, 2], [], [3]]), [1, 1, 0], 3),
           "empty_partitions": tf.ragged.stack_dynamic_partitions([1., 2.], [0, 0], 3)}
    return fetch(tf, out)


def case_stack_dynamic_partitions_errors(tf):
    return {"out_of_range": run_error(tf, lambda: tf.ragged.stack_dynamic_partitions(
                [1, 2], [0, 4], 3)),
            "negative": run_error(tf, lambda: tf.ragged.stack_dynamic_partitions(
                [1, 2], [0, -1], 3))}
