"""tf1compat's earlier `<prefix>.safetensors` checkpoints (read, and written by the converter):
layout, dtypes, atomic writes, corruption."""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
from safetensors import safe_open

import tf1compat as tf
from tf1compat.framework import dtypes
from tf1compat.serialization import safetensors_checkpoint as cf
from tf1compat.serialization import object_graph as og

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _values():
    rng = np.random.RandomState(0)
    return {
        "dense/kernel": torch.from_numpy(rng.randn(3, 4).astype(np.float32)),
        "dense/bias": np.arange(4, dtype=np.float64),
        "half": np.array([0.5, -1.0], np.float16),
        "bf16": torch.tensor([1.5, -2.0, 3e38], dtype=torch.bfloat16),
        "i8": np.array([-128, 127], np.int8), "i16": np.array([-5], np.int16),
        "i32": np.array([[1, 2]], np.int32), "step": np.int64(7),
        "u8": np.array([255], np.uint8), "u16": np.array([65535], np.uint16),
        "u32": np.array([2 ** 32 - 1], np.uint32), "u64": np.array([2 ** 64 - 1], np.uint64),
        "flag": np.array([True, False]), "scalar_flag": np.array(True),
        "c64": np.array([[1 + 2j, -3j]], np.complex64), "c128": np.array(2 - 1j, np.complex128),
        "strings": np.array([[b"", b"abc"], ["\u00e9".encode(), b"\x00\xff"]], dtype=object),
        "string_scalar": np.array(b"hello", dtype=object),
        "empty": np.zeros((0, 5), np.float32),
        "qint8": np.array([-3, 4], np.int8),
    }


def test_round_trip_every_dtype(tmp_path):
    values = _values()
    path = cf.save_tensors(str(tmp_path / "model.ckpt-1"), values,
                           dtype_overrides={"qint8": "qint8"})
    assert path == str(tmp_path / "model.ckpt-1.safetensors")
    assert os.listdir(tmp_path) == ["model.ckpt-1.safetensors"]
    r = tf.train.NewCheckpointReader(str(tmp_path / "model.ckpt-1"))
    assert r.format == "safetensors"
    types = r.get_variable_to_dtype_map()
    assert types["bf16"] == dtypes.bfloat16 and types["qint8"] == dtypes.qint8
    assert types["strings"] == dtypes.string and types["c64"] == dtypes.complex64
    assert r.get_variable_to_shape_map()["scalar_flag"] == []
    assert r.get_variable_to_shape_map()["c64"] == [1, 2]
    for key, want in values.items():
        if key == "bf16":
            got = r.read_torch(key)
            assert got.dtype == torch.bfloat16 and torch.equal(got, want)
            continue
        got = r.get_tensor(key)
        want = want.numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
        if want.dtype == object:
            assert np.asarray(got, dtype=object).tolist() == want.tolist()
            continue
        assert np.asarray(got).dtype == want.dtype, key
        assert np.shape(got) == want.shape, key
        np.testing.assert_array_equal(got, want)
        assert isinstance(got, np.ndarray) == (want.ndim > 0), key
    assert r.get_tensor("string_scalar") == b"hello"
    torch_values = cf.load_tensors(str(tmp_path / "model.ckpt-1"))
    assert torch_values["qint8"].dtype == torch.int8
    assert torch_values["c64"].dtype == torch.complex64
    assert torch_values["u64"].dtype == torch.uint64


def test_file_layout_is_plain_safetensors(tmp_path):
    values = _values()
    graph = {"nodes": [{"children": {"dense": 1}}, {"children": {"kernel": 2}},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "dense/kernel",
                                        "checkpoint_key": "dense/kernel"}]}]}
    path = cf.save_tensors(str(tmp_path / "ck"), values, object_graph=graph,
                           user_metadata={"step": 3})
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    assert (8 + n) % 8 == 0
    assert header["dense/kernel"]["dtype"] == "F32"
    assert header["bf16"]["dtype"] == "BF16"
    assert header["c64"] == {"dtype": "F32", "shape": [1, 2, 2],
                             "data_offsets": header["c64"]["data_offsets"]}
    assert header["strings"]["dtype"] == "U8"
    assert header["u64"]["dtype"] == "U64" and header["flag"]["dtype"] == "BOOL"
    meta = json.loads(header["__metadata__"]["tf1compat"])
    assert meta["format"] == "tf1compat.checkpoint" and meta["version"] == 1
    c64 = meta["tensors"]["c64"]
    assert c64 == {"dtype": "complex64", "shape": [1, 2], "encoding": "complex",
                   "crc32": c64["crc32"]}
    assert meta["tensors"]["strings"]["encoding"] == "string"
    assert meta["object_graph"]["nodes"][1]["children"] == {"kernel": 2}
    assert meta["user"] == {"step": 3}
    # Any safetensors reader (torch and numpy) opens it.
    with safe_open(path, framework="pt") as f:
        assert torch.equal(f.get_tensor("dense/kernel"), values["dense/kernel"])
        blob = f.get_tensor("strings").numpy().tobytes()
    lengths = np.frombuffer(blob[:32], "<u8")
    assert lengths.tolist() == [0, 3, 2, 2]
    assert blob[32:] == b"abc" + "\u00e9".encode() + b"\x00\xff"
    with safe_open(path, framework="numpy") as f:
        np.testing.assert_array_equal(f.get_tensor("dense/bias"), values["dense/bias"])


def test_object_graph_is_validated_and_exposed(tmp_path):
    graph = {"nodes": [{"children": {"v": 1}},
                       {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                        "checkpoint_key": "v/.ATTRIBUTES/VARIABLE_VALUE"}]}]}
    cf.save_tensors(str(tmp_path / "ck"), {"v/.ATTRIBUTES/VARIABLE_VALUE": np.ones(2)},
                    object_graph=graph)
    r = tf.train.NewCheckpointReader(str(tmp_path / "ck"))
    assert r.object_graph()["nodes"][0]["children"] == {"v": 1}
    # TF keeps the graph as a serialized proto under _CHECKPOINTABLE_OBJECT_GRAPH: so do we.
    assert r.keys() == [og.OBJECT_GRAPH_KEY, "v/.ATTRIBUTES/VARIABLE_VALUE"]
    blob = r.get_tensor(og.OBJECT_GRAPH_KEY)
    assert isinstance(blob, bytes)
    assert og.parse_object_graph(blob) == r.object_graph()
    with pytest.raises(ValueError, match="no tensor"):
        cf.save_tensors(str(tmp_path / "ck2"), {"x": np.ones(1)}, object_graph=graph)
    with pytest.raises(og.ObjectGraphError, match="node id 5"):
        cf.save_tensors(str(tmp_path / "ck2"), {"x": np.ones(1)},
                        object_graph={"nodes": [{"children": {"a": 5}}]})


def _rewrite_metadata(path, edit):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    meta = json.loads(header["__metadata__"]["tf1compat"])
    edit(meta, header)
    header["__metadata__"]["tf1compat"] = json.dumps(meta)
    head = json.dumps(header).encode()
    head += b" " * (-(8 + len(head)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(head)) + head + data)


def _saved(tmp_path, graph=True):
    values = {"v/.ATTRIBUTES/VARIABLE_VALUE": np.arange(6, dtype=np.float32),
              "w": np.arange(4, dtype=np.int64)}
    g = {"nodes": [{"children": {"v": 1}},
                   {"attributes": [{"name": "VARIABLE_VALUE", "full_name": "v",
                                    "checkpoint_key": "v/.ATTRIBUTES/VARIABLE_VALUE"}]}]}
    return cf.save_tensors(str(tmp_path / "ck"), values, object_graph=g if graph else None)


def test_malformed_object_graph_restores_nothing(tmp_path):
    path = _saved(tmp_path)

    def dangle(meta, header):
        meta["object_graph"]["nodes"][0]["children"]["v"] = 9
    _rewrite_metadata(path, dangle)
    with pytest.raises(tf.errors.DataLossError, match="node id 9"):
        cf.load_tensors(str(tmp_path / "ck"))
    with pytest.raises(tf.errors.DataLossError):
        tf.train.NewCheckpointReader(str(tmp_path / "ck"))

    path = _saved(tmp_path)

    def unknown_key(meta, header):
        meta["object_graph"]["nodes"][1]["attributes"][0]["checkpoint_key"] = "nope"
    _rewrite_metadata(path, unknown_key)
    with pytest.raises(tf.errors.DataLossError, match="'nope'"):
        cf.load_tensors(str(tmp_path / "ck"))


@pytest.mark.parametrize("edit,message", [
    (lambda m, h: m["tensors"]["w"].update(dtype="float32"), "does not encode"),
    (lambda m, h: m["tensors"]["w"].update(shape=[5]), "does not encode"),
    (lambda m, h: m["tensors"].pop("w"), "disagree on keys"),
    (lambda m, h: m.update(format="other"), "not a tf1compat checkpoint"),
])
def test_inconsistent_metadata_is_data_loss(tmp_path, edit, message):
    path = _saved(tmp_path, graph=False)
    _rewrite_metadata(path, edit)
    with pytest.raises(tf.errors.DataLossError, match=message):
        tf.train.NewCheckpointReader(str(tmp_path / "ck"))


def test_newer_format_version_is_rejected(tmp_path):
    path = _saved(tmp_path, graph=False)
    _rewrite_metadata(path, lambda m, h: m.update(version=2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="format version 2"):
        tf.train.NewCheckpointReader(str(tmp_path / "ck"))


def test_truncated_file_is_data_loss(tmp_path):
    path = _saved(tmp_path)
    with open(path, "rb") as f:
        data = f.read()
    for size in (len(data) - 1, len(data) - 30, 100, 9, 3, 0):
        with open(path, "wb") as f:
            f.write(data[:size])
        with pytest.raises(tf.errors.DataLossError, match="truncated or corrupted"):
            cf.load_tensors(str(tmp_path / "ck"))


def test_flipped_data_byte_fails_checksum_and_restores_nothing(tmp_path):
    path = _saved(tmp_path)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[-3] ^= 0x10  # inside the last tensor's bytes
    with open(path, "wb") as f:
        f.write(bytes(data))
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
        cf.load_tensors(str(tmp_path / "ck"))
    r = tf.train.NewCheckpointReader(str(tmp_path / "ck"))
    with pytest.raises(tf.errors.DataLossError):
        r.read_all()
    # verify=False skips the check (for callers that trust the file and want speed).
    assert set(cf.load_tensors(str(tmp_path / "ck"), verify=False)) == {
        "v/.ATTRIBUTES/VARIABLE_VALUE", "w", og.OBJECT_GRAPH_KEY}


def test_reading_never_unpickles(tmp_path, monkeypatch):
    _saved(tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("a checkpoint read tried to unpickle")
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    monkeypatch.setattr(torch, "load", refuse)
    values = cf.load_tensors(str(tmp_path / "ck"))
    assert values["w"].tolist() == [0, 1, 2, 3]
    assert tf.train.load_variable(str(tmp_path / "ck"), "w").tolist() == [0, 1, 2, 3]


def test_foreign_safetensors_file_is_readable(tmp_path):
    from safetensors.torch import save_file
    save_file({"a": torch.ones(2, 2), "b": torch.zeros(3, dtype=torch.bfloat16)},
              str(tmp_path / "weights.safetensors"))
    r = tf.train.NewCheckpointReader(str(tmp_path / "weights.safetensors"))
    assert r.get_variable_to_dtype_map() == {"a": dtypes.float32, "b": dtypes.bfloat16}
    np.testing.assert_array_equal(r.get_tensor("a"), np.ones((2, 2), np.float32))
    assert tf.train.NewCheckpointReader(str(tmp_path / "weights")).keys() == ["a", "b"]


def test_crash_mid_save_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    prefix = str(tmp_path / "model")
    old = {"w": np.arange(1000, dtype=np.float32), "b": np.ones(3)}
    cf.save_tensors(prefix, old)
    calls = []

    def crash(f, array):
        calls.append(array.nbytes)
        if len(calls) == 2:
            f.write(b"\x00" * 10)  # half a tensor reaches the disk, then the "crash"
            f.flush()
            raise KeyboardInterrupt("simulated crash")
        cf.__dict__["_real_write"](f, array)
    monkeypatch.setitem(cf.__dict__, "_real_write", cf._write_tensor_data)
    monkeypatch.setattr(cf, "_write_tensor_data", crash)
    with pytest.raises(KeyboardInterrupt):
        cf.save_tensors(prefix, {"w": np.zeros(1000, np.float32), "b": np.zeros(3)})
    assert len(calls) == 2
    assert os.listdir(tmp_path) == ["model.safetensors"]  # no temp file left behind
    got = cf.load_tensors(prefix, framework="numpy")
    np.testing.assert_array_equal(got["w"], old["w"])
    np.testing.assert_array_equal(got["b"], old["b"])


def test_hard_crash_mid_save_leaves_old_file_and_hidden_temp(tmp_path):
    prefix = str(tmp_path / "model.ckpt-1")
    cf.save_tensors(prefix, {"w": np.arange(10, dtype=np.float32)})
    tf.train.update_checkpoint_state(str(tmp_path), prefix)
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {ROOT!r})
        import numpy as np
        from tf1compat.serialization import safetensors_checkpoint as cf
        real = cf._write_tensor_data
        def die(f, array):
            real(f, array[: array.size // 2])
            f.flush()
            os._exit(3)   # the process dies: no cleanup, no exception handling
        cf._write_tensor_data = die
        cf.save_tensors({prefix!r}, {{"w": np.zeros(10, np.float32)}})
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert proc.returncode == 3, proc.stderr.decode()
    names = sorted(os.listdir(tmp_path))
    stray = [n for n in names if n.startswith(".model.ckpt-1.safetensors.tmp-")]
    assert len(stray) == 1 and set(names) == {"checkpoint", "model.ckpt-1.safetensors", stray[0]}
    # The stray temp file is never taken for a checkpoint: it matches no checkpoint name.
    assert tf.train.latest_checkpoint(str(tmp_path)) == prefix
    assert not stray[0].endswith((".safetensors", ".index")) and ".data-" not in stray[0]
    np.testing.assert_array_equal(tf.train.load_variable(str(tmp_path), "w"),
                                  np.arange(10, dtype=np.float32))


def test_save_creates_only_the_last_directory_level(tmp_path):
    cf.save_tensors(str(tmp_path / "new_dir" / "ck"), {"a": np.ones(1)})
    assert os.path.exists(str(tmp_path / "new_dir" / "ck.safetensors"))
    with pytest.raises(tf.errors.NotFoundError):
        cf.save_tensors(str(tmp_path / "x" / "y" / "ck"), {"a": np.ones(1)})


def test_save_overwrites_and_keeps_permissions(tmp_path):
    prefix = str(tmp_path / "ck")
    cf.save_tensors(prefix, {"a": np.ones(1)})
    cf.save_tensors(prefix, {"a": np.zeros(2)})
    assert cf.load_tensors(prefix, framework="numpy")["a"].tolist() == [0.0, 0.0]
    mode = os.stat(prefix + ".safetensors").st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_shared_and_strided_inputs(tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    values = {"a": base, "a_again": base, "t": base.t(), "row": base[1]}
    cf.save_tensors(str(tmp_path / "ck"), values)
    got = cf.load_tensors(str(tmp_path / "ck"))
    for k, v in values.items():
        assert torch.equal(got[k], v), k


def test_invalid_keys_and_values(tmp_path):
    with pytest.raises(ValueError, match="invalid checkpoint key"):
        cf.save_tensors(str(tmp_path / "ck"), {"": np.ones(1)})
    with pytest.raises(ValueError, match="invalid checkpoint key"):
        cf.save_tensors(str(tmp_path / "ck"), {"__metadata__": np.ones(1)})
    with pytest.raises(TypeError, match="element sizes differ"):
        cf.save_tensors(str(tmp_path / "ck"), {"a": np.ones(1, np.float32)},
                        dtype_overrides={"a": "float64"})
    with pytest.raises(NotImplementedError, match="resource"):
        cf.save_tensors(str(tmp_path / "ck"), {"a": np.ones(1, np.int32)},
                        dtype_overrides={"a": dtypes.resource})
    assert not os.listdir(tmp_path)


def test_python_values_get_tf_dtypes(tmp_path):
    from tf1compat.serialization import tensor_codec
    cases = [(5, None, "int32"), (2 ** 40, None, "int64"), (1.5, None, "float32"),
             ([[1, 2]], None, "int32"), (True, None, "bool"), (["a", b"b"], None, "string"),
             ([1, 2], "int64", "int64"), (3, "float64", "float64"), ([1, -2], "qint8", "qint8"),
             ([1.5], "bfloat16", "bfloat16")]
    for value, override, want in cases:
        dtype, storage = tensor_codec.from_value(value, override)
        assert dtype.name == want, (value, override)
        assert storage.shape == np.shape(value)
    cf.save_tensors(str(tmp_path / "ck"), {"step": 5, "lr": 0.1, "name": "run-1"})
    r = tf.train.NewCheckpointReader(str(tmp_path / "ck"))
    assert r.get_tensor("step") == 5 and isinstance(r.get_tensor("step"), np.int32)
    assert r.get_tensor("lr") == np.float32(0.1) and r.get_tensor("name") == b"run-1"
