"""tf.data refuses RaggedTensor elements with a NotImplementedError that names them (TF
2.21 carries them as RaggedTensorSpec components; tf1compat's datasets do not)."""

import pytest

import tf1compat as tf


@pytest.mark.parametrize("build", [
    lambda rt: tf.data.Dataset.from_tensor_slices(rt),
    lambda rt: tf.data.Dataset.from_tensors(rt),
    lambda rt: tf.data.Dataset.from_tensor_slices({"r": rt, "d": [1, 2, 3]}),
    lambda rt: tf.data.Dataset.range(3).map(lambda i: tf.ragged.range(i)),
    lambda rt: tf.data.Dataset.range(2).flat_map(lambda i: tf.data.Dataset.from_tensors(rt)),
    lambda rt: tf.data.Dataset.from_generator(
        lambda: iter([[1]]), output_signature=tf.RaggedTensorSpec([None], tf.int32, 0)),
], ids=["from_tensor_slices", "from_tensors", "dict_component", "map_returns_ragged",
        "flat_map_inner_ragged", "from_generator_ragged_signature"])
def test_ragged_elements_raise_not_implemented(build):
    with tf.Graph().as_default():
        rt = tf.ragged.constant([[1, 2], [], [3]])
        with pytest.raises(NotImplementedError, match="tf.data elements that are "
                                                       "tf.RaggedTensors"):
            build(rt)


def test_dense_to_ragged_batch_names_ragged_elements():
    with pytest.raises(NotImplementedError, match="RaggedTensors"):
        tf.data.experimental.dense_to_ragged_batch(2)
