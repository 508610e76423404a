"""Checkpoints of mutable lookup tables both ways between tf1compat and real TensorFlow:
what scripts/check_tf_reads_tables.py recorded in tests/fixtures/tf1compat_written/tables
(TF's checkpoint and values; what TF found in the checkpoints tf1compat wrote), replayed
without TensorFlow. A DenseHashTable's checkpoint is its buckets, which the restore
adopts as they are: tf1compat's dense tables hold TF's bucket layout.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tests.script_loader import load_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES = os.path.join(ROOT, "tests", "fixtures", "tf1compat_written", "tables")


def _script():
    return load_script("check_tf_reads_tables")


@pytest.fixture(scope="module")
def record():
    with open(os.path.join(TABLES, "tables.json")) as f:
        return json.load(f)


def _tensors(prefix: str) -> dict:
    reader = tf.train.load_checkpoint(prefix)
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def _assert_same_tensors(prefix: str, recorded: str) -> None:
    got, want = _tensors(prefix), _tensors(recorded)
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name].shape == want[name].shape, name
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def test_tables_filled_in_tf1compat_hold_tfs_buckets(record):
    """The same inserts and removes (the dense table grown 4 -> 16 buckets): the finds,
    sizes and each bucket's key and value as TF's."""
    tf.reset_default_graph()
    assert _script().run_program(tf) == record["tf"]


def test_tfs_table_checkpoint_restores_into_tf1compat(record):
    tf.reset_default_graph()
    got = _script().run_program(tf, restore=os.path.join(TABLES, "tf_written", "ckpt"))
    assert got == record["tf"]


def test_tf_reads_the_table_checkpoint_tf1compat_writes(record, tmp_path):
    """TF found every key of tf1compat's checkpoint (recorded), which tf1compat still
    writes tensor for tensor."""
    assert record["tf_read"] == record["tf"]
    tf.reset_default_graph()
    _script().run_program(tf, save=str(tmp_path / "ckpt"))
    _assert_same_tensors(str(tmp_path / "ckpt"), os.path.join(TABLES, "tf1compat_written",
                                                               "ckpt"))


def test_a_v1_dense_table_restored_from_tf_and_saved_by_tf1compat_reads_back_in_tf(
        record, monkeypatch, tmp_path):
    """The V1 MutableDenseHashTable of a TF <= 1.2 graph (same `<name>-keys`/`-values`
    saveable as V2): restored from TF's checkpoint, grown by an insert and saved with
    the file's Saver, TF's V2 table restores it and finds what tf1compat finds."""
    script = _script()
    monkeypatch.setattr(script, "OUT", str(tmp_path))
    script.write_tf1compat()
    _assert_same_tensors(str(tmp_path / "v1_saved" / "ckpt"),
                         os.path.join(TABLES, "v1_saved", "ckpt"))
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(os.path.join(script.V1_GRAPH, "graph.meta"))
    with tf.Session() as sess:
        saver.restore(sess, str(tmp_path / "v1_saved" / "ckpt"))
        find, size = sess.run(["find:0", "size:0"])     # the graph's finds of 2, 4, 6, 8, 100
    read = record["tf_read_v1"]
    assert size == read["size"] == 7
    ids = [2, 4, 6, 8, 10, 12, 14, 100]
    np.testing.assert_array_equal(find, [read["find"][ids.index(k)] for k in (2, 4, 6, 8, 100)])


@pytest.mark.parametrize("buckets", [2, 6])
def test_a_dense_table_needs_a_power_of_two_buckets_as_tf(buckets):
    tf.reset_default_graph()
    table = tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1,
        initial_num_buckets=buckets)
    with tf.Session() as sess, pytest.raises(
            tf.errors.InvalidArgumentError,
            match=f"Number of buckets must be at least 4 and a power of 2, got: {buckets}"):
        sess.run(table.size())
