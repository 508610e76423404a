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
