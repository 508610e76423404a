"""tf.train.NewCheckpointReader / load_checkpoint over both layouts; the two-way converter;
table varints and object-graph parsing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework import dtypes
from tf1compat.serialization import object_graph as og
from tf1compat.serialization import safetensors_checkpoint as cf
from tf1compat.serialization import sstable
from tf1compat.serialization.messages import TrackableObjectGraph
from tf1compat.training.saving.checkpoint_convert import convert_checkpoint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "tf_checkpoints")


@pytest.fixture(params=["tf_written", "tf1compat_written", "safetensors"])
def name_based(request, tmp_path):
    """The name_based fixture as TF wrote it, rewritten by tf1compat in TF's layout, or
    converted to the earlier single-file safetensors format."""
    src = os.path.join(FIXTURES, "name_based", "model.ckpt-3")
    if request.param == "tf_written":
        return src
    prefix = str(tmp_path / "model.ckpt-3")
    convert_checkpoint(src, prefix, to="tf" if request.param == "tf1compat_written"
                       else "safetensors")
    return prefix


def test_reader_api_is_the_same_for_both_formats(name_based):
    r = tf.train.NewCheckpointReader(name_based)
    tf_reader = tf.train.NewCheckpointReader(os.path.join(FIXTURES, "name_based", "model.ckpt-3"))
    assert r.get_variable_to_shape_map() == tf_reader.get_variable_to_shape_map()
    assert r.get_variable_to_dtype_map() == tf_reader.get_variable_to_dtype_map()
    assert r.debug_string() == tf_reader.debug_string()
    for key in tf_reader.keys():
        a, b = r.get_tensor(key), tf_reader.get_tensor(key)
        assert type(a) is type(b) and np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)
    assert isinstance(r.get_tensor("counter"), np.int64) and r.get_tensor("counter") == 7
    assert r.get_tensor("flag").flags.writeable
    assert r.has_tensor("counter") and r.has_tensor(b"half") and not r.has_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="^Key nope not found in checkpoint$"):
        r.get_tensor("nope")
    with pytest.raises(TypeError):
        r.get_tensor(3)
    assert tf.train.list_variables(name_based)[0] == ("beta1_power", [])
    np.testing.assert_array_equal(tf.train.load_variable(name_based, "embedding:0"),
                                  np.arange(10.0).reshape(5, 2))
    values = r.read_all(["half", "flag"])
    assert values["half"].dtype == torch.float16 and values["flag"].dtype == torch.bool
    assert r.read_all(["half"], framework="numpy")["half"].dtype == np.float16


def test_reader_errors_as_tf(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for "
                                                      "/nonexistent/x"):
        tf.train.NewCheckpointReader("/nonexistent/x")
    with pytest.raises(tf.errors.NotFoundError):
        tf.train.load_variable("/nonexistent/x", "a")
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints"):
        tf.train.load_checkpoint(str(tmp_path))
    with pytest.raises(tf.errors.DataLossError, match="Is a directory"):
        tf.train.NewCheckpointReader(str(tmp_path))
    (tmp_path / "junk").write_bytes(b"x" * 100)
    with pytest.raises(tf.errors.DataLossError, match="bad magic number"):
        tf.train.NewCheckpointReader(str(tmp_path / "junk"))
    # A table under the prefix itself is read as a V1 checkpoint, as TF does: a V2 index
    # there holds no V1 meta, so nothing shows (TF's V1 files: tests/test_v1_checkpoint.py).
    shutil.copy(os.path.join(FIXTURES, "name_based", "model.ckpt-3.index"), tmp_path / "v1")
    assert tf.train.NewCheckpointReader(str(tmp_path / "v1")).get_variable_to_shape_map() == {}


def test_index_file_path_is_accepted():
    # TF opens `x.index` as a V1 table and shows nothing; we read the checkpoint it belongs to.
    r = tf.train.NewCheckpointReader(os.path.join(FIXTURES, "name_based", "model.ckpt-3.index"))
    assert r.get_tensor("counter") == 7
    assert r.path.endswith("model.ckpt-3.index") and r.format == "tf_bundle"


def test_header_key_behaves_as_in_tf():
    r = tf.train.NewCheckpointReader(os.path.join(FIXTURES, "name_based", "model.ckpt-3"))
    assert r.has_tensor("")
    with pytest.raises(tf.errors.OpError, match="Invalid size in bundle entry: key ;"):
        r.get_tensor("")


def test_object_based_conversion_keeps_graph_and_to_names(tmp_path):
    src = os.path.join(FIXTURES, "object_tf2")
    tf_reader = tf.train.load_checkpoint(src)
    for to in ("tf", "safetensors"):
        summary = convert_checkpoint(src, str(tmp_path / f"obj_{to}"), to=to)
        assert summary["object_based"] and not summary["renamed"]
        assert summary["format"] == to
        r = tf.train.NewCheckpointReader(str(tmp_path / f"obj_{to}"))
        assert r.format == {"tf": "tf_bundle", "safetensors": "safetensors"}[to]
        assert r.keys() == tf_reader.keys()
        assert r.object_graph() == tf_reader.object_graph()
        assert r.get_tensor(og.OBJECT_GRAPH_KEY) == tf_reader.get_tensor(og.OBJECT_GRAPH_KEY)
    summary = convert_checkpoint(src, str(tmp_path / "names.safetensors"), to_names=True)
    assert summary["path"] == str(tmp_path / "names.safetensors")
    assert summary["format"] == "safetensors"
    names = tf.train.NewCheckpointReader(str(tmp_path / "names"))
    assert names.object_graph() is None
    assert names.keys() == sorted(["Adam/m/d1/bias", "Adam/m/d1/kernel", "Adam/m/d2/bias",
                                   "Adam/m/d2/kernel", "Adam/v/d1/bias", "Adam/v/d1/kernel",
                                   "Adam/v/d2/bias", "Adam/v/d2/kernel", "d1/bias", "d1/kernel",
                                   "d2/bias", "d2/kernel", "extra", "iteration",
                                   "learning_rate", "save_counter"])
    np.testing.assert_array_equal(
        names.get_tensor("d1/kernel"),
        tf_reader.get_tensor("model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE"))
    np.testing.assert_array_equal(
        names.get_tensor("Adam/v/d2/bias"),
        tf_reader.get_tensor("optimizer/_variables/8/.ATTRIBUTES/VARIABLE_VALUE"))
    assert cf.SafetensorsReader(str(tmp_path / "names.safetensors")).user_metadata[
        "renamed"]["d1/kernel"] == "model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE"


def test_to_names_keeps_unnamed_keys_unless_strict(tmp_path):
    graph = {"nodes": [{"children": {"a": 1, "b": 2, "c": 3}},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                        "checkpoint_key": "a/.ATTRIBUTES/VARIABLE_VALUE"}]},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                        "checkpoint_key": "b/.ATTRIBUTES/VARIABLE_VALUE"}]},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "",
                                        "checkpoint_key": "c/.ATTRIBUTES/VARIABLE_VALUE"}]}]}
    keys = ["a/.ATTRIBUTES/VARIABLE_VALUE", "b/.ATTRIBUTES/VARIABLE_VALUE",
            "c/.ATTRIBUTES/VARIABLE_VALUE"]
    cf.save_tensors(str(tmp_path / "src"), {k: np.ones(1) for k in keys}, object_graph=graph)
    summary = convert_checkpoint(str(tmp_path / "src"), str(tmp_path / "out"), to_names=True)
    assert summary["renamed"] == {}  # "v" is ambiguous and c has no name: all keys kept
    assert tf.train.NewCheckpointReader(str(tmp_path / "out")).keys() == keys
    with pytest.raises(ValueError, match="claimed by several keys"):
        convert_checkpoint(str(tmp_path / "src"), str(tmp_path / "out2"), to_names=True,
                           strict=True)
    assert os.listdir(tmp_path) and not any(p.startswith("out2") for p in os.listdir(tmp_path))


@pytest.mark.parametrize("to", ["tf", "safetensors"])
def test_converter_all_dtypes_and_partitioned(tmp_path, to):
    for name in ("all_dtypes", "partitioned"):
        src = os.path.join(FIXTURES, name)
        convert_checkpoint(src, str(tmp_path / name), to=to)
        a = tf.train.load_checkpoint(src)
        b = tf.train.NewCheckpointReader(str(tmp_path / name))
        assert b.get_variable_to_dtype_map() == a.get_variable_to_dtype_map()
        assert b.get_variable_to_shape_map() == a.get_variable_to_shape_map()
        for key in a.keys():
            x, y = a.read_torch(key), b.read_torch(key)
            if isinstance(x, torch.Tensor):
                assert x.dtype == y.dtype and torch.equal(x, y), key
            else:
                assert x.tolist() == y.tolist(), key


def test_convert_script(tmp_path):
    out = str(tmp_path / "v1names")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert_checkpoint.py"),
                           os.path.join(FIXTURES, "object_graph_v1"), out, "--to-names"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "(tf): 3 tensors from an object-based checkpoint, 3 renamed" in proc.stdout
    assert "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE -> dense/kernel" in proc.stdout
    r = tf.train.NewCheckpointReader(out)
    assert r.format == "tf_bundle" and os.path.exists(out + ".data-00000-of-00001")
    assert r.keys() == ["dense/bias", "dense/kernel", "save_counter"]
    np.testing.assert_array_equal(r.get_tensor("dense/kernel"), [[1.0, 2.0]])
    assert r.get_variable_to_dtype_map()["save_counter"] == dtypes.int64
    # ... and back: the TF-layout result to one safetensors file
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert_checkpoint.py"),
                           out, out + "_back", "--to", "safetensors"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    back = tf.train.NewCheckpointReader(out + "_back")
    assert back.format == "safetensors" and back.keys() == r.keys()
    np.testing.assert_array_equal(back.get_tensor("dense/kernel"), [[1.0, 2.0]])


# -- table varints ------------------------------------------------------------------------------

def test_varints():
    for v in (0, 1, 127, 128, 300, 2 ** 32, 2 ** 63, 2 ** 64 - 1):
        data = sstable.encode_varint(v)
        assert sstable.read_varint(data, 0) == (v, len(data))
    assert sstable.encode_varint(300) == b"\xac\x02"
    with pytest.raises(ValueError, match="bad varint"):
        sstable.read_varint(b"\x80\x80", 0)
    with pytest.raises(ValueError, match="bad varint"):
        sstable.read_varint(b"\x80" * 11 + b"\x01", 0)


def test_object_graph_parse_errors():
    with pytest.raises(og.ObjectGraphError, match="cannot parse"):
        og.parse_object_graph(b"\x0a\x05ab")
    bad_child = TrackableObjectGraph(
        nodes=[{"children": [{"node_id": 4, "local_name": "x"}]}]).SerializeToString()
    with pytest.raises(og.ObjectGraphError, match="node id 4"):
        og.parse_object_graph(bad_child)
    with pytest.raises(og.ObjectGraphError, match="appears on nodes 0 and 1"):
        og.validate_object_graph({"nodes": [
            {"attributes": [{"checkpoint_key": "k"}]}, {"attributes": [{"checkpoint_key": "k"}]}]})
    with pytest.raises(og.ObjectGraphError, match="expected a dict"):
        og.validate_object_graph([])
    with pytest.raises(og.ObjectGraphError, match="must be str"):
        og.validate_object_graph({"nodes": [{"attributes": [{"full_name": 3}]}]})
