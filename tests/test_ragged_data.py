"""RaggedTensor elements in tf.data beyond the golden cases (tests/golden/cases_data_ragged.py):
transformations that pass them through, the run-time batching and slicing of ragged
components, file caches, eager iteration, .meta export and import, and the cases
tf1compat refuses with a NotImplementedError that names them."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tests.test_eager import eager  # noqa: F401  (the fixture)
from tf1compat.data.ragged import RaggedValue, batch_ragged, slice_ragged
from tf1compat.framework import dtypes as D


def _elements(dataset):
    nxt = tf.data.make_one_shot_iterator(dataset).get_next()
    out = []
    with tf.Session() as sess:
        while True:
            try:
                value = sess.run(nxt)
            except tf.errors.OutOfRangeError:
                return out
            out.append(value.to_list() if hasattr(value, "to_list") else value.tolist())


ROWS = [[1, 2], [], [3]]


@pytest.mark.parametrize("build,expected", [
    (lambda rt: tf.data.Dataset.range(2).flat_map(lambda i: tf.data.Dataset.from_tensors(rt)),
     [ROWS, ROWS]),
    (lambda rt: tf.data.Dataset.range(2).interleave(
        lambda i: tf.data.Dataset.from_tensor_slices(rt), cycle_length=2),
     [[1, 2], [1, 2], [], [], [3], [3]]),
    (lambda rt: tf.data.Dataset.from_tensors(rt).concatenate(
        tf.data.Dataset.from_tensors(tf.ragged.constant([[5]]))), [ROWS, [[5]]]),
    (lambda rt: tf.data.Dataset.from_tensor_slices(rt).cache().prefetch(1).repeat(2),
     ROWS + ROWS),
    (lambda rt: tf.data.Dataset.range(1, 4).apply(tf.data.experimental.map_and_batch(
        lambda i: tf.ragged.range(i), 2)), [[[[0]], [[0, 1]]], [[[0, 1, 2]]]]),
    (lambda rt: tf.data.Dataset.from_tensor_slices(rt).apply(
        tf.data.experimental.group_by_window(lambda r: tf.size(r, out_type=tf.int64) % 2,
                                             lambda k, d: d.batch(2), 2)), [[[1, 2], []], [[3]]]),
    (lambda rt: tf.data.Dataset.from_tensor_slices(
        tf.ragged.constant([["a", "b"], ["c"]])).batch(2), [[[b"a", b"b"], [b"c"]]]),
], ids=["flat_map", "interleave", "concatenate", "cache_prefetch_repeat", "map_and_batch",
        "group_by_window", "strings"])
def test_ragged_elements_pass_through_transformations(build, expected):
    with tf.Graph().as_default():
        assert _elements(build(tf.ragged.constant(ROWS))) == expected


def test_file_cache_holds_ragged_components(tmp_path):
    prefix = str(tmp_path / "cache")
    for _ in range(2):      # the second pass reads the files the first wrote
        with tf.Graph().as_default():
            rt = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
            dataset = tf.data.Dataset.from_tensor_slices(rt).cache(prefix)
            assert _elements(dataset) == [[[1], [2, 3]], [], [[4, 5, 6]]]
    assert (tmp_path / "cache.index").exists()


def _random_ragged(rng, rows: int) -> RaggedValue:
    lengths = rng.integers(0, 3, size=rows)
    inner = rng.integers(0, 3, size=int(lengths.sum()))
    outer = np.concatenate([[0], np.cumsum(lengths)])
    splits = np.concatenate([[0], np.cumsum(inner)])
    values = torch.arange(int(splits[-1]), dtype=torch.float32)
    return RaggedValue(values, (torch.from_numpy(outer), torch.from_numpy(splits)), D.int64)


def _to_list(value: RaggedValue) -> list:
    out = value.flat_values.tolist()
    for splits in reversed(value.nested_splits):
        s = splits.tolist()
        out = [out[s[i]:s[i + 1]] for i in range(len(s) - 1)]
    return out


def test_batching_and_slicing_ragged_components_are_inverse():
    rng = np.random.default_rng(0)
    for _ in range(20):
        parts = [_random_ragged(rng, int(rng.integers(0, 4))) for _ in range(3)]
        batch = batch_ragged(parts)
        assert len(batch.nested_splits) == 3
        assert _to_list(batch) == [_to_list(p) for p in parts]
        for i, part in enumerate(parts):
            assert _to_list(slice_ragged(batch, i)) == _to_list(part)


def test_eager_iteration_yields_ragged_tensors(eager):  # noqa: F811 - the fixture
    rt = tf.ragged.constant([[1, 2], [], [3]])
    dataset = tf.data.Dataset.from_tensor_slices(rt)
    rows = [x.numpy().tolist() for x in dataset]
    batches = list(dataset.batch(2))
    assert rows == [[1, 2], [], [3]]
    assert [type(b).__name__ for b in batches] == ["RaggedTensor", "RaggedTensor"]
    assert [b.to_list() for b in batches] == [[[1, 2], []], [[3]]]
    # TF 2.21's as_numpy_iterator: RaggedTensor.numpy(), an object array of rows of
    # different lengths, one array for rows of one length
    ragged_rows, uniform = list(dataset.batch(2).as_numpy_iterator())
    assert ragged_rows.dtype == object and ragged_rows.shape == (2,)
    assert [r.tolist() for r in ragged_rows] == [[1, 2], []]
    assert uniform.dtype == np.int32 and uniform.tolist() == [[3]]


def test_meta_graph_with_ragged_pipelines_round_trips(tmp_path):
    path = str(tmp_path / "ragged.meta")
    with tf.Graph().as_default() as graph:
        rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
        dataset = tf.data.Dataset.from_tensor_slices(rt).batch(2).map(lambda r: r * 2)
        nxt = tf.data.make_one_shot_iterator(dataset).get_next()
        tf.identity(nxt.flat_values, name="values")
        tf.identity(nxt.row_splits, name="splits")
        tf.train.export_meta_graph(path)
        types = {op.type for op in graph.get_operations()}
    assert {"RaggedTensorToVariant", "RaggedTensorFromVariant"} <= types
    with tf.Graph().as_default():
        tf.train.import_meta_graph(path)
        with tf.Session() as sess:
            first = sess.run(["values:0", "splits:0"])
            second = sess.run(["values:0", "splits:0"])
    assert [a.tolist() for a in first] == [[2, 4, 6], [0, 2, 3]]
    assert [a.tolist() for a in second] == [[8, 10, 12], [0, 3]]


def test_from_generator_with_a_ragged_signature_is_refused():
    with tf.Graph().as_default(), pytest.raises(NotImplementedError, match="from_generator "
                                                                           "with a tf.Ragged"):
        tf.data.Dataset.from_generator(
            lambda: iter([[1]]), output_signature=tf.RaggedTensorSpec([None], tf.int32, 0))


def test_unbatch_below_ragged_rank_zero_is_refused():
    with tf.Graph().as_default():
        dataset = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]]))
        with pytest.raises(NotImplementedError, match="negative ragged_rank"):
            dataset.unbatch()


def test_eager_decoding_checks_the_splits_dtype_as_the_graph_op(eager):  # noqa: F811
    dataset = tf.data.Dataset.range(1, 4).map(lambda x: tf.reshape(tf.range(x * x), [x, x]))
    batched = dataset.apply(tf.data.experimental.dense_to_ragged_batch(
        3, row_splits_dtype=tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected row_splits Tensor "
                                                             "dtype: int32, found: int64"):
        next(iter(batched))
    ok = dataset.apply(tf.data.experimental.dense_to_ragged_batch(3))
    assert next(iter(ok)).to_list() == [[[0]], [[0, 1], [2, 3]],
                                        [[0, 1, 2], [3, 4, 5], [6, 7, 8]]]
