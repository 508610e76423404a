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


def test_save_ops_errors_as_tf(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        _restore(tf.raw_ops.Save, filename=str(tmp_path / "missing" / "x"), tensor_names=["a"],
                 data=[tf.constant(1.0)])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Slice in shape_and_slice specification does not match the shape "
                             r"of the tensor to  save: 3 0,2, tensor: \[1\]"):
        _restore(tf.raw_ops.SaveSlices, filename=str(tmp_path / "x"), tensor_names=["a"],
                 shapes_and_slices=["3 0,2"], data=[tf.constant([1.0])])


def test_v1_saver_writes_tfs_checkpoint_and_restores_it(tmp_path):
    """tf1compat's Saver(write_version=V1) of the fixture's variables (a partitioned one
    included) writes the file TF's V1 Saver wrote, byte for byte; it restores from it,
    keeps max_to_keep V1 files and writes sharded V1 saves as TF's pattern."""
    values = np.load(os.path.join(FIXTURE, "expected.npz"))
    w = tf.Variable(values["run_0_0"], name="w")
    step = tf.Variable(np.int64(7), name="step")
    with tf.variable_scope("emb", partitioner=tf.fixed_size_partitioner(2)):
        table = tf.get_variable("table", [5, 2])
    saver = tf.train.Saver(write_version=tf.train.SaverDef.V1, max_to_keep=1)
    parts = np.concatenate([values["run_0_2"], values["run_0_3"]])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([v.assign(p) for v, p in zip(table, (values["run_0_2"], values["run_0_3"]))])
        path = saver.save(sess, str(tmp_path / "ckpt"), write_meta_graph=False)
        with open(path, "rb") as ours, open(os.path.join(FIXTURE, "ckpt"), "rb") as tfs:
            assert ours.read() == tfs.read()
        second = saver.save(sess, str(tmp_path / "ckpt"), global_step=1)
        assert not os.path.exists(path) and os.path.exists(second)    # max_to_keep
        sess.run([w.assign(tf.zeros_like(w)), step.assign(0)])
        saver.restore(sess, second)
        np.testing.assert_array_equal(sess.run(w), values["run_0_0"])
        np.testing.assert_array_equal(sess.run(tf.concat(list(table), 0)), parts)
        assert sess.run(step) == 7
    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            a = tf.Variable([1.0, 2.0], name="a")
        with tf.device("/cpu:1"):
            b = tf.Variable([3], name="b")
        sharded = tf.train.Saver(write_version=tf.train.SaverDef.V1, sharded=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            pattern = sharded.save(sess, str(tmp_path / "sharded"), write_meta_graph=False)
            assert pattern.endswith("sharded-?????-of-00002")
            assert sorted(os.listdir(tmp_path)).count("sharded-00001-of-00002") == 1
            sess.run([a.assign([0.0, 0.0]), b.assign([0])])
            sharded.restore(sess, pattern)
            assert sess.run(a).tolist() == [1.0, 2.0] and sess.run(b).tolist() == [3]


def test_checkpoint_reader_reads_v1_files_as_tf():
    """NewCheckpointReader / list_variables of TF's V1 checkpoint (values as TF's reader
    gave them: TF lists debug_string's lines in its hash map's order)."""
    path = os.path.join(FIXTURE, "ckpt")
    reader = tf.train.NewCheckpointReader(path)
    assert reader.get_variable_to_shape_map() == {"emb/table": [5, 2], "step": [], "w": [2, 3]}
    assert reader.get_variable_to_dtype_map() == {"emb/table": tf.float32, "step": tf.int64,
                                                  "w": tf.float32}
    assert sorted(reader.debug_string().splitlines()) == [
        b"emb/table (DT_FLOAT) [5,2], 2 slices", b"step (DT_INT64) []", b"w (DT_FLOAT) [2,3]"]
    assert reader.get_tensor("step") == 7 and reader.has_tensor("emb/table")
    np.testing.assert_array_equal(reader.get_tensor("w"),
                                  np.load(os.path.join(FIXTURE, "expected.npz"))["run_0_0"])
    with pytest.raises(tf.errors.NotFoundError, match="nope not found in checkpoint file"):
        reader.get_tensor("nope")
    with pytest.raises(tf.errors.UnimplementedError, match="Sliced checkpoints are not "
                                                           "supported"):
        reader.get_tensor("emb/table")
    assert tf.train.list_variables(path) == [("emb/table", [5, 2]), ("step", []),
                                             ("w", [2, 3])]
