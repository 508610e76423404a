"""Golden cases: tf.one_hot of ragged indices, tf.squeeze of a RaggedTensor's size-1
dimensions, and tf.strings.bytes_split of strings of rank >= 1 or ragged strings."""

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
