"""Eager golden cases: tf.RaggedTensor under eager execution (to_list, conversions,
indexing, operators, validation errors)."""

from tests.golden.harness import catch


def case_ragged_eager(tf):
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    return {"list": rt.to_list(), "dense": rt.to_tensor(default_value=-1).numpy(),
            "lengths": rt.row_lengths().numpy(), "row": rt[2].numpy(),
            "cols": rt[:, 1:].to_list(), "ops": (rt * 2 + 1).to_list(),
            "from_tensor": tf.RaggedTensor.from_tensor([[1, 0], [2, 3]], padding=0).to_list(),
            "split": tf.strings.split(["a b", "c"], result_type="RaggedTensor").to_list(),
            "bad": catch(lambda: tf.RaggedTensor.from_row_splits([1, 2], [0, 3]))}


def case_ragged_ops_eager(tf):
    rt = tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    mask = tf.ragged.constant([[True, False], [], [False, True, True]])
    words = tf.constant([u"h\u00e9".encode("utf-8"), b"ab"])
    return {"column": (rt * tf.constant([[1.], [2.], [3.]])).to_list(),
            "nested_column": (n + tf.constant([[[10]], [[20]]])).to_list(),
            "bad_rows": catch(lambda: (rt + tf.constant([[1.], [2.]])).to_list()),
            "sum_0": tf.reduce_sum(n, 0).to_list(), "max_1": tf.reduce_max(n, 1).to_list(),
            "segment_sum": tf.math.unsorted_segment_sum(rt, [1, 0, 1], 2).to_list(),
            "mask": tf.ragged.boolean_mask(rt, mask).to_list(),
            "where": tf.where(mask).numpy(), "select": tf.where(mask, rt, -rt).to_list(),
            "tile": tf.tile(rt, [1, 2]).to_list(), "expand": tf.expand_dims(rt, 1).to_list(),
            "size": tf.size(rt).numpy(), "rank": tf.rank(n).numpy(),
            "length": tf.strings.length(tf.ragged.constant([["ab"], ["cde", ""]])).to_list(),
            "unicode_split": tf.strings.unicode_split(words, "UTF-8").to_list(),
            "spec": repr(tf.RaggedTensorSpec.from_value(rt))}
