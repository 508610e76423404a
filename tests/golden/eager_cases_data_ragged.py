"""Eager golden cases: iterating tf.data datasets with RaggedTensor elements under eager
execution (RaggedTensors for ragged_rank >= 1, dense tensors for rows of ragged_rank 0,
`as_numpy_iterator`'s RaggedTensor.numpy() arrays)."""


def _value(x):
    if hasattr(x, "to_list"):
        return {"class": type(x).__name__, "list": x.to_list(),
                "splits_dtype": x.row_splits.dtype.name, "dtype": x.dtype.name}
    if isinstance(x, dict):
        return {k: _value(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return [_value(v) for v in x]
    return {"class": "Tensor", "value": x.numpy()}


def case_slices_and_batches(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [], [3]]))
    return {"rows": [_value(x) for x in ds], "batches": [_value(x) for x in ds.batch(2)]}


def case_map_and_ragged_batch(tf):
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x))
    mapped = tf.data.Dataset.from_tensors(tf.ragged.constant([[1.5], [2.5, 3.5]])).map(
        lambda r: (r * 2.0, r.row_lengths()))
    return {"ragged_batch": [_value(x) for x in ds.ragged_batch(3)],
            "mapped": [_value(x) for x in mapped]}


def case_as_numpy_iterator(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [], [3]])).batch(2)
    out = []
    for x in ds.as_numpy_iterator():
        out.append({"dtype": str(x.dtype), "shape": list(x.shape),
                    "rows": [r.tolist() for r in x]})
    return out
