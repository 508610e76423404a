"""Checkpoints in TF's layout next to the earlier `.safetensors` files: sweeps, restores and
state functions over both; how partitioned variables are stored; merging shards."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization import bundle_writer, object_graph as og
from tf1compat.serialization import safetensors_checkpoint as legacy
from tf1compat.serialization import tensor_bundle
from tf1compat.serialization.tensor_slice import parse_slice_spec


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_saver_sweeps_earlier_safetensors_checkpoints(tmp_path):
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1.0, 2.0]))
    old = str(tmp_path / "m-1")
    legacy.save_tensors(old, {"v": np.array([5.0, 6.0], np.float32)})
    saver = tf.train.Saver(max_to_keep=1)
    saver.recover_last_checkpoints([old])
    with tf.Session() as sess:
        saver.restore(sess, old)                       # an earlier file restores
        assert sess.run(v).tolist() == [5.0, 6.0]
        new = saver.save(sess, str(tmp_path / "m"), global_step=2)
    # max_to_keep=1: the earlier checkpoint (its one .safetensors file) is deleted.
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-2.data-00000-of-00001",
                                           "m-2.index", "m-2.meta"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == new


def test_manager_sweeps_both_layouts(tmp_path):
    v = tf.get_variable("v", [1])
    ckpt = tf.train.Checkpoint(v=v)
    graph = {"nodes": [{"children": {"v": 1}},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                        "checkpoint_key": "v/.ATTRIBUTES/VARIABLE_VALUE"}]}]}
    legacy.save_tensors(str(tmp_path / "ckpt-1"),
                        {"v/.ATTRIBUTES/VARIABLE_VALUE": np.array([3.0], np.float32)},
                        object_graph=graph)
    # The state file as a CheckpointManager writes it (with timestamps: without them TF's
    # manager never deletes a recovered checkpoint).
    now = time.time()
    tf.train.update_checkpoint_state(str(tmp_path), str(tmp_path / "ckpt-1"),
                                     all_model_checkpoint_timestamps=[now - 10],
                                     last_preserved_timestamp=now - 100)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1)
    assert manager.latest_checkpoint == str(tmp_path / "ckpt-1")
    with tf.Session() as sess:
        ckpt.restore(manager.latest_checkpoint).run_restore_ops(sess)
        assert sess.run(v).tolist() == [3.0]           # an earlier object-based file
        sess.run(ckpt.save_counter.initializer)        # (that file has no save_counter)
        with sess.as_default():
            manager.save(checkpoint_number=2)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-2.data-00000-of-00001",
                                           "ckpt-2.index"]


def test_saving_over_an_earlier_file_replaces_it(tmp_path):
    prefix = str(tmp_path / "m")
    legacy.save_tensors(prefix, {"v": np.zeros(2, np.float32)})
    v = tf.get_variable("v", [2], initializer=tf.ones_initializer())
    with tf.Session() as sess:
        sess.run(v.initializer)
        tf.train.Saver().save(sess, prefix, write_meta_graph=False, write_state=False)
    assert sorted(os.listdir(tmp_path)) == ["m.data-00000-of-00001", "m.index"]
    assert tf.train.load_variable(prefix, "v").tolist() == [1.0, 1.0]


def test_partitioned_variable_layouts(tmp_path):
    """All slices in one save: one whole tensor (TF reads partitions from it). Dtypes TF
    only reads as stored slices (half) and a shard holding some slices: TF's slices."""
    from tf1compat.ops import io_ops
    full = np.arange(12, dtype=np.float32).reshape(4, 3)
    specs = ["4 3 0,2:0,3", "4 3 2,2:0,3"]
    io_ops.write_tensors(str(tmp_path / "f32"), ["p", "p"], specs, [full[:2], full[2:]],
                         [tf.float32, tf.float32])
    io_ops.write_tensors(str(tmp_path / "f16"), ["p", "p"], specs,
                         [full[:2].astype(np.float16), full[2:].astype(np.float16)],
                         [tf.float16, tf.float16])
    whole = tensor_bundle.BundleReader(str(tmp_path / "f32"))
    sliced = tensor_bundle.BundleReader(str(tmp_path / "f16"))
    assert [k for k, _ in whole.entries()] == [b"p"]
    assert len(sliced.entries()) == 3 and len(dict(sliced.entries())[b"p"].slices) == 2
    for name, dtype in (("f32", tf.float32), ("f16", tf.float16)):
        got = io_ops.read_checkpoint_tensors(str(tmp_path / name), ["p", "p"],
                                             ["4 3 1,2:0,3", ""], [dtype, dtype])
        np.testing.assert_array_equal(got[0].float().numpy(), full[1:3])
        np.testing.assert_array_equal(got[1].float().numpy(), full)
    from safetensors.torch import load_file
    assert sorted(load_file(str(tmp_path / "f16") + ".data-00000-of-00001")) == \
        ["p[0,2:0,3]", "p[2,2:0,3]"]
    with pytest.raises(NotImplementedError, match="slices of string tensor"):
        io_ops.write_tensors(str(tmp_path / "s"), ["s"], ["2 0,1"],
                             [np.array([b"a"], dtype=object)], [tf.string])


def test_slice_spec_keeps_whole_dimensions_apart():
    """TF keys "0,4" and "-" apart (different stored-slice keys)."""
    explicit, whole = parse_slice_spec("10 4 0,5:0,4"), parse_slice_spec("10 4 0,5:-")
    assert explicit.extents() == [(0, 5), (0, 4)] and whole.extents() == [(0, 5), (0, -1)]
    assert explicit.index == whole.index and whole.spec_text() == "10 4 0,5:-"


def test_writer_refuses_bad_input_and_writes_nothing(tmp_path):
    writer = bundle_writer.BundleWriter(str(tmp_path / "ck"))
    writer.add("a", np.ones(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="duplicate key: a"):
        writer.add("a", np.ones(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="both whole and as slices"):
        writer.add_slice("a", parse_slice_spec("4 0,2"), np.ones(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="value has shape"):
        writer.add_slice("b", parse_slice_spec("4 0,2"), np.ones(3))
    assert os.listdir(tmp_path) == []
    with pytest.raises(TypeError, match="neither bytes nor str"):
        writer.add(og.OBJECT_GRAPH_KEY, object(), tf.string)
    assert os.listdir(tmp_path) == []


def test_merge_refuses_duplicate_tensors(tmp_path):
    for name in ("a", "b"):
        writer = bundle_writer.BundleWriter(str(tmp_path / name))
        writer.add("same", np.ones(1))
        writer.finish()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tensor keyed by same"):
        bundle_writer.merge_bundles([str(tmp_path / "a"), str(tmp_path / "b")],
                                    str(tmp_path / "merged"))
    with pytest.raises(tf.errors.NotFoundError):
        bundle_writer.merge_bundles([str(tmp_path / "missing")], str(tmp_path / "m2"))
    bundle_writer.merge_bundles([str(tmp_path / "missing")], str(tmp_path / "m3"),
                                allow_missing_files=True)
    assert not os.path.exists(tmp_path / "m3.index")
