"""Multi-worker input sharding (tf1compat/data/auto_shard.py: TF's AutoShardDataset as a
multi-worker strategy applies it, then the rebatching to the worker's replicas).

Which files each worker reads and the errors are TF 2.21's (recorded by running
tensorflow.python.distribute.input_ops.auto_shard_dataset on the same files: worker 0 of
2 reads files 0, 2, 4, worker 1 files 1, 3; FILE on a range dataset: NotFoundError; one
file for two workers: InvalidArgumentError on worker 0, nothing on worker 1)."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.data.auto_shard import auto_shard_dataset

POLICY = tf.data.experimental.AutoShardPolicy


@pytest.fixture
def text_files(tmp_path):
    names = []
    for i in range(5):
        path = tmp_path / f"f{i}.txt"
        path.write_text("".join(f"{i}{j}\n" for j in range(3)))
        names.append(str(path))
    return names


def _elements(dataset, limit=20):
    out = []
    with tf.Graph().as_default() if False else _nullcontext():
        it = tf.data.make_one_shot_iterator(dataset)
        nxt = it.get_next()
        with tf.Session() as sess:
            try:
                for _ in range(limit):
                    value = sess.run(nxt)
                    out.append([v.decode() if isinstance(v, bytes) else int(v)
                                for v in np.asarray(value).reshape(-1)])
            except tf.errors.OutOfRangeError:
                pass
    return out


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _with_policy(dataset, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy
    return dataset.with_options(options)


def _pipelines(names, pattern):
    return {
        "readers": lambda: tf.data.TextLineDataset(names).batch(4),
        "list_files_interleave": lambda: tf.data.Dataset.list_files(
            pattern, shuffle=False).interleave(tf.data.TextLineDataset, cycle_length=1
                                               ).batch(4),
        "slices_flat_map": lambda: tf.data.Dataset.from_tensor_slices(names).flat_map(
            tf.data.TextLineDataset).batch(4),
    }


@pytest.mark.parametrize("policy", [POLICY.AUTO, POLICY.FILE])
@pytest.mark.parametrize("pipeline", ["readers", "list_files_interleave", "slices_flat_map"])
def test_file_sharding_reads_every_second_file_and_rebatches(text_files, policy, pipeline):
    pattern = str(text_files[0]).replace("f0.txt", "*.txt")
    expected = {0: [["00", "01"], ["02", "20"], ["21", "22"], ["40", "41"], ["42"]],
                1: [["10", "11"], ["12", "30"], ["31"], ["32"]]}
    for index in (0, 1):
        tf.reset_default_graph()
        dataset = _with_policy(_pipelines(text_files, pattern)[pipeline](), policy)
        assert _elements(auto_shard_dataset(dataset, 2, index, 2)) == expected[index]


def test_data_sharding_keeps_this_workers_part_of_each_global_batch(text_files):
    for policy in (POLICY.AUTO, POLICY.DATA):
        parts = []
        for index in (0, 1):
            tf.reset_default_graph()
            dataset = _with_policy(tf.data.Dataset.range(10).batch(5), policy)
            parts.append(_elements(auto_shard_dataset(dataset, 2, index, 2)))
        assert parts == [[[0, 1, 2], [5, 6, 7]], [[3, 4], [8, 9]]]
    tf.reset_default_graph()
    dataset = _with_policy(tf.data.TextLineDataset(text_files[:2]).batch(4), POLICY.DATA)
    assert _elements(auto_shard_dataset(dataset, 2, 1, 2)) == [["02", "10"], ["12"]]


def test_off_keeps_every_batch_whole():
    dataset = _with_policy(tf.data.Dataset.range(6).batch(4), POLICY.OFF)
    assert _elements(auto_shard_dataset(dataset, 2, 1, 2)) == [[0, 1, 2, 3], [4, 5]]


def test_file_policy_without_files_is_tfs_not_found_error():
    dataset = _with_policy(tf.data.Dataset.range(10).batch(4), POLICY.FILE)
    with pytest.raises(tf.errors.NotFoundError, match="unshardable source dataset"):
        _elements(auto_shard_dataset(dataset, 2, 0, 2))


def test_fewer_files_than_workers(text_files):
    for policy in (POLICY.AUTO, POLICY.FILE):
        tf.reset_default_graph()
        dataset = _with_policy(tf.data.TextLineDataset(text_files[:1]).batch(2), policy)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Could not apply FILE based sharding: the dataset only has "
                                 "1 file"):
            _elements(auto_shard_dataset(dataset, 2, 0, 2))
        tf.reset_default_graph()
        dataset = _with_policy(tf.data.TextLineDataset(text_files[:1]).batch(2), policy)
        assert _elements(auto_shard_dataset(dataset, 2, 1, 2)) == []


def test_options_along_the_pipeline():
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = POLICY.DATA
    dataset = tf.data.Dataset.range(4).with_options(options).map(lambda x: x * 2).batch(2)
    assert dataset.options().experimental_distribute.auto_shard_policy == POLICY.DATA
    assert tf.data.Dataset.range(4).options().experimental_distribute.auto_shard_policy \
        == POLICY.AUTO
