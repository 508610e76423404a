"""TF's V1 checkpoint format (serialization/v1_checkpoint.py, ops/io_ops_v1.py): the
Save/SaveSlices ops of a TF-written graph write the files TF wrote, byte for byte
(tests/fixtures/tf_graphs/v1_checkpoint_ops/scratch, made by
scripts/make_graph_fixtures.py); Restore/RestoreSlice/RestoreV2 read them with TF's
errors; the V1 checkpoint of a V1 Saver restores through the file's restore op."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tf1compat as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs", "v1_checkpoint_ops")
TF_WRITTEN = os.path.join(FIXTURE, "scratch", "raw.ckpt")


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_save_ops_write_tfs_bytes(tmp_path):
    saver = tf.train.import_meta_graph(os.path.join(FIXTURE, "graph.meta"))
    target = str(tmp_path / "raw.ckpt")
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(FIXTURE, "ckpt"))
        sess.run(["save_raw", "save_slices"], {"scratch_file:0": target,
                                               "x:0": np.array([1.5, -2.0, 0.25], np.float32)})
    for suffix in ("", "_slices"):
        with open(target + suffix, "rb") as ours, open(TF_WRITTEN + suffix, "rb") as tfs:
            assert ours.read() == tfs.read(), suffix


def _restore(op, **kwargs):
    with tf.Session() as sess:
        return sess.run(op(**kwargs))


def test_restore_ops_read_tfs_files_with_tfs_errors():
    raw = tf.raw_ops
    np.testing.assert_array_equal(
        _restore(raw.Restore, file_pattern=TF_WRITTEN, tensor_name="flag", dt=tf.bool),
        [True, False, True])
    part = _restore(raw.RestoreSlice, file_pattern=TF_WRITTEN + "_slices", tensor_name="part",
                    shape_and_slice="4 3 1,1:1,2", dt=tf.float32)
    assert part.shape == (1, 2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expected to restore a tensor of type float, got a tensor of type "
                             "int64 instead: tensor_name = step"):
        _restore(raw.Restore, file_pattern=TF_WRITTEN, tensor_name="step", dt=tf.float32)
    with pytest.raises(tf.errors.NotFoundError,
                       match='Tensor name "nope" not found in checkpoint files'):
        _restore(raw.Restore, file_pattern=TF_WRITTEN, tensor_name="nope", dt=tf.float32)
    with pytest.raises(tf.errors.NotFoundError, match="Unsuccessful TensorSliceReader "
                                                      "constructor: Failed to find any "
                                                      "matching files for"):
        _restore(raw.Restore, file_pattern=TF_WRITTEN + "_missing*", tensor_name="w",
                 dt=tf.float32)
    # A slice never saved (the file holds rows 1-2 of "part"), as TF.
    with pytest.raises(tf.errors.InvalidArgumentError, match="Error copying slice data"):
        _restore(raw.RestoreSlice, file_pattern=TF_WRITTEN + "_slices", tensor_name="part",
                 shape_and_slice="4 3 0,1:-", dt=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape in shape_and_slice spec does not match the shape in the "
                             r"save file: \[5,3\], save file shape: \[4,3\]"):
        _restore(raw.RestoreSlice, file_pattern=TF_WRITTEN + "_slices", tensor_name="part",
                 shape_and_slice="5 3 0,1:-", dt=tf.float32)


def test_restore_v2_falls_back_to_v1_files_as_tf():
    values = _restore(tf.raw_ops.RestoreV2, prefix=TF_WRITTEN, tensor_names=["w", "step"],
                      shape_and_slices=["", ""], dtypes=[tf.float32, tf.int64])
    assert values[0].shape == (2, 3) and values[1] == 7


def test_save_slices_checks_the_slice_against_the_value(tmp_path):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Slice in shape_and_slice specification does not match the shape "
                             r"of the tensor to  save: 3 0,2, tensor: \[1\]"):
        _restore(tf.raw_ops.SaveSlices, filename=str(tmp_path / "x"), tensor_names=["a"],
                 shapes_and_slices=["3 0,2"], data=[tf.constant([1.0])])
