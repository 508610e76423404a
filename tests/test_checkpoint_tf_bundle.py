"""Reading checkpoints written by real TensorFlow (tests/fixtures/tf_checkpoints), without TF."""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct

import numpy as np
import pytest
import torch

import tf1compat as tf
from tests import bundle_builder
from tf1compat.framework import dtypes
from tf1compat.serialization import crc32c, object_graph, sstable, tensor_bundle, tensor_slice
from tf1compat.serialization.messages import BundleEntryProto, BundleHeaderProto

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tf_checkpoints")
ALL = ["name_based", "partitioned", "object_graph_v1", "object_tf2", "all_dtypes"]


def _expected(name):
    d = os.path.join(FIXTURES, name)
    with open(os.path.join(d, "expected.json")) as f:
        meta = json.load(f)
    return meta, np.load(os.path.join(d, "expected.npz"), allow_pickle=False)


@pytest.mark.parametrize("name", ALL)
def test_every_tensor_matches_tf(name):
    meta, arrays = _expected(name)
    reader = tf.train.load_checkpoint(os.path.join(FIXTURES, name))
    shapes = reader.get_variable_to_shape_map()
    types = reader.get_variable_to_dtype_map()
    assert sorted(shapes) == sorted(meta)
    checked = 0
    for key, info in meta.items():
        assert shapes[key] == info["shape"], key
        assert isinstance(types[key], tf.DType) and types[key].name == info["dtype"], key
        if "bits:" + key in arrays.files:  # bfloat16: compare the bit patterns
            value = reader.read_torch(key)
            assert value.dtype == torch.bfloat16
            bits = value.view(torch.int16).numpy().view(np.uint16)
            np.testing.assert_array_equal(bits, arrays["bits:" + key])
        elif key in arrays.files:
            value = reader.get_tensor(key)
            want = arrays[key]
            assert np.asarray(value).dtype == want.dtype, key
            assert np.shape(value) == want.shape, key
            np.testing.assert_array_equal(value, want, err_msg=key)
            assert isinstance(value, np.ndarray) == (want.ndim > 0), key  # scalars: np.generic
        else:  # strings
            value = reader.get_tensor(key)
            flat = [value] if info["shape"] == [] else list(np.asarray(value).reshape(-1))
            if "strings" in info:
                assert [base64.b64encode(v).decode() for v in flat] == info["strings"], key
            assert all(isinstance(v, bytes) for v in flat), key
        checked += 1
    assert checked == len(meta)


def test_name_based_net_reproduces_probe_logits():
    d = os.path.join(FIXTURES, "name_based")
    r = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(d))
    x = np.load(os.path.join(d, "probe_input.npy"))
    hidden = np.maximum(x @ r.get_tensor("net/hidden/kernel") + r.get_tensor("net/hidden/bias"), 0)
    logits = hidden @ r.get_tensor("net/logits/kernel") + r.get_tensor("net/logits/bias")
    np.testing.assert_allclose(logits, np.load(os.path.join(d, "probe_logits.npy")),
                               rtol=1e-5, atol=1e-6)
    # Torch tensors for restoring variables carry the same values.
    t = r.read_torch("net/hidden/kernel")
    assert t.dtype == torch.float32 and np.array_equal(t.numpy(), r.get_tensor("net/hidden/kernel"))


def test_partitioned_variable_is_assembled():
    r = tf.train.NewCheckpointReader(os.path.join(FIXTURES, "partitioned", "part.ckpt"))
    assert r.get_variable_to_shape_map() == {"big": [10, 3]}
    full = r.get_tensor("big")
    # The slices as TF stored them (4 + 3 + 3 rows), read through their own keys.
    keys = [line.split(b" (")[0] for line in r.debug_string().splitlines()]
    parts = [r.get_tensor(k) for k in keys]
    assert [p.shape for p in parts] == [(4, 3), (3, 3), (3, 3)]
    np.testing.assert_array_equal(np.concatenate(parts), full)


def test_all_dtypes_two_dimensional_slices_and_shards():
    r = tf.train.load_checkpoint(os.path.join(FIXTURES, "all_dtypes"))
    grid = r.get_tensor("grid")
    want = np.zeros((4, 6), np.float32)
    want[0:2, 0:3] = np.arange(6).reshape(2, 3)
    want[2:4, 3:6] = np.arange(6, 12).reshape(2, 3)
    want[0:2, 3:6] = np.arange(12, 18).reshape(2, 3)
    want[2:4, 0:3] = np.arange(18, 24).reshape(2, 3)
    np.testing.assert_array_equal(grid, want)
    np.testing.assert_array_equal(r.get_tensor("rows"), np.arange(10).reshape(5, 2))
    with open(os.path.join(FIXTURES, "all_dtypes", "debug_string.bin"), "rb") as f:
        assert r.debug_string() == f.read()  # TF's own debug string, slices and all
    bundle = tensor_bundle.BundleReader(os.path.join(FIXTURES, "all_dtypes", "ckpt"))
    assert bundle._num_shards == 2


def test_all_dtypes_index_uses_restart_points():
    # TF's tables use 256 KiB blocks: one data block here, with a restart point every 16
    # keys; multi-block tables are covered by the synthesized bundles below.
    path = os.path.join(FIXTURES, "all_dtypes", "ckpt.index")
    with open(path, "rb") as f:
        data = memoryview(f.read())
    footer = data[len(data) - 48:]
    _, _, pos = sstable._block_handle(footer, 0)
    offset, size, _ = sstable._block_handle(footer, pos)
    index = sstable._read_block(data, offset, size, path)
    (_, handle), = sstable._block_entries(index)
    block_offset, block_size, _ = sstable._block_handle(handle, 0)
    block = sstable._read_block(data, block_offset, block_size, path)
    num_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    assert num_restarts == -(-len(sstable.read_table(path)) // 16) > 10


def test_bfloat16_numpy_needs_ml_dtypes():
    r = tf.train.load_checkpoint(os.path.join(FIXTURES, "all_dtypes"))
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        with pytest.raises(TypeError, match="ml_dtypes"):
            r.get_tensor("bfloat16")
    else:
        assert r.get_tensor("bfloat16").dtype.name == "bfloat16"


@pytest.mark.parametrize("name,root_children", [
    ("object_graph_v1", {"dense": 1, "save_counter": 2}),
    ("object_tf2", {"extra": 1, "model": 2, "optimizer": 3, "save_counter": 4}),
])
def test_object_graph_decodes(name, root_children):
    r = tf.train.load_checkpoint(os.path.join(FIXTURES, name))
    graph = r.object_graph()
    assert graph["nodes"][0]["children"] == root_children
    full = object_graph.checkpoint_key_to_full_name(graph)
    keys = set(r.keys()) - {object_graph.OBJECT_GRAPH_KEY}
    assert set(full) == keys  # every saved tensor is an attribute of some node
    if name == "object_graph_v1":
        assert full["dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"] == "dense/kernel"
        assert graph["nodes"][1]["children"] == {"kernel": 3, "bias": 4}
        assert graph["nodes"][3]["attributes"] == [{
            "name": "VARIABLE_VALUE", "full_name": "dense/kernel",
            "checkpoint_key": "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE",
            "optional_restore": False}]
    else:
        assert full["optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE"] == "Adam/m/d1/kernel"
        assert graph["nodes"][10]["has_checkpoint_values"] is False
    # Our encoder reproduces TF's bytes exactly.
    assert object_graph.serialize_object_graph(graph) == \
        r.get_tensor(object_graph.OBJECT_GRAPH_KEY)


def test_name_based_has_no_object_graph():
    assert tf.train.load_checkpoint(os.path.join(FIXTURES, "name_based")).object_graph() is None


# -- corrupted and unusual files ------------------------------------------------------------

def _copy(tmp_path, name="name_based", prefix="model.ckpt-3"):
    src = os.path.join(FIXTURES, name, prefix)
    dst = str(tmp_path / prefix)
    for f in os.listdir(os.path.join(FIXTURES, name)):
        if f.startswith(prefix + "."):
            shutil.copy(os.path.join(FIXTURES, name, f), str(tmp_path / f))
            os.chmod(str(tmp_path / f), 0o644)
    assert os.path.exists(src + ".index")
    return dst


def _mutate(path, fn):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data = fn(data)
    with open(path, "wb") as f:
        f.write(bytes(data))


def test_flipped_data_byte_is_data_loss(tmp_path):
    prefix = _copy(tmp_path)
    data = prefix + ".data-00000-of-00001"
    _mutate(data, lambda d: d[:100] + bytes([d[100] ^ 0xFF]) + d[101:])
    r = tf.train.NewCheckpointReader(prefix)
    with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
        r.get_tensor("embedding/Adam")
    r.get_tensor("counter")  # other tensors stay readable
    with pytest.raises(tf.errors.DataLossError):
        r.read_all()  # all-or-nothing: the whole read fails


@pytest.mark.parametrize("size,message", [(300, "bad magic"), (20, "too short"),
                                          (0, "too short")])
def test_truncated_index_is_data_loss(tmp_path, size, message):
    prefix = _copy(tmp_path)
    _mutate(prefix + ".index", lambda d: d[:size])
    with pytest.raises(tf.errors.DataLossError, match=message):
        tf.train.NewCheckpointReader(prefix)


def test_truncated_data_file_is_data_loss(tmp_path):
    prefix = _copy(tmp_path)
    _mutate(prefix + ".data-00000-of-00001", lambda d: d[:500])
    r = tf.train.NewCheckpointReader(prefix)
    r.get_tensor("beta1_power")
    with pytest.raises(tf.errors.DataLossError, match="truncated"):
        r.get_tensor("net/logits/kernel")


def test_missing_data_shard_is_not_found(tmp_path):
    prefix = _copy(tmp_path)
    os.remove(prefix + ".data-00000-of-00001")
    r = tf.train.NewCheckpointReader(prefix)
    with pytest.raises(tf.errors.NotFoundError, match="data-00000-of-00001"):
        r.get_tensor("counter")


def test_flipped_index_bytes_never_pass_silently(tmp_path):
    prefix = _copy(tmp_path)
    with open(prefix + ".index", "rb") as f:
        data = memoryview(f.read())
    size = len(data)
    footer = data[size - 48:]
    meta_offset, meta_size, meta_end = sstable._block_handle(footer, 0)
    _, _, handles_end = sstable._block_handle(footer, meta_end)
    # Bytes no reader looks at (TF's neither): the unused metaindex block and its handle,
    # the footer padding.
    unread = set(range(meta_offset, meta_offset + meta_size + 5)) | set(
        range(size - 48, size - 48 + meta_end)) | set(range(size - 48 + handles_end, size - 8))
    for pos in range(0, size, 3):
        _copy(tmp_path)
        _mutate(prefix + ".index", lambda d: d[:pos] + bytes([d[pos] ^ 0x5A]) + d[pos + 1:])
        try:
            r = tf.train.NewCheckpointReader(prefix)
            values = r.read_all(framework="numpy")
        except (tf.errors.OpError, NotImplementedError):
            continue
        assert pos in unread, pos
        assert set(values) == set(tf.train.NewCheckpointReader(
            os.path.join(FIXTURES, "name_based", "model.ckpt-3")).keys())


def test_compressed_table_is_a_clear_error(tmp_path):
    prefix = str(tmp_path / "ck")
    bundle_builder.write_bundle(prefix, {"a": (np.ones(3, np.float32), dtypes.float32)},
                                compression=1)
    with pytest.raises(tf.errors.UnimplementedError, match="snappy"):
        tf.train.NewCheckpointReader(prefix)
    bundle_builder.write_bundle(prefix, {"a": (np.ones(3, np.float32), dtypes.float32)},
                                compression=7)
    with pytest.raises(tf.errors.DataLossError, match="bad block type"):
        tf.train.NewCheckpointReader(prefix)


def test_synthesized_bundles_small_blocks_and_big_endian(tmp_path):
    tensors = {f"v{i:03d}": (np.arange(i, i + 3, dtype=np.float64), dtypes.float64)
               for i in range(60)}
    tensors["s"] = (np.array([b"a", b"", b"\xff" * 200], dtype=object), dtypes.string)
    tensors["h"] = (np.array([1.5, -2], np.float16), dtypes.float16)
    tensors["c"] = (np.array([1 + 2j], np.complex64), dtypes.complex64)
    for big in (False, True):
        prefix = str(tmp_path / f"ck{int(big)}")
        bundle_builder.write_bundle(prefix, tensors, big_endian=big, block_size=128,
                                    restart_interval=3)
        r = tf.train.NewCheckpointReader(prefix)
        assert r.keys() == sorted(tensors)
        for k, (value, dtype) in tensors.items():
            got = r.get_tensor(k)
            assert r.get_variable_to_dtype_map()[k] == dtype
            if dtype == dtypes.string:
                assert list(got) == list(value)
            else:
                assert got.dtype == value.dtype and got.dtype.isnative
                np.testing.assert_array_equal(got, value)


def test_bundle_version_checks(tmp_path):
    prefix = str(tmp_path / "ck")
    t = {"a": (np.ones(1, np.float32), dtypes.float32)}
    bundle_builder.write_bundle(prefix, t, header={
        "num_shards": 1, "endianness": 0,
        "version": {"producer": 2, "min_consumer": 5, "bad_consumers": []}})
    with pytest.raises(tf.errors.InvalidArgumentError, match="min consumer version 5"):
        tf.train.NewCheckpointReader(prefix)
    bundle_builder.write_bundle(prefix, t, header={
        "num_shards": 1, "endianness": 0,
        "version": {"producer": 1, "min_consumer": 0, "bad_consumers": [1]}})
    with pytest.raises(tf.errors.InvalidArgumentError, match="disallows consumer version 1"):
        tf.train.NewCheckpointReader(prefix)


def test_unparsable_entry_and_variant(tmp_path):
    prefix = str(tmp_path / "ck")
    bundle_builder.write_bundle(prefix, {"a": (np.ones(1, np.float32), dtypes.float32)},
                                raw_entries={b"bad": b"\xff\xff\xff"})
    with pytest.raises(tf.errors.DataLossError, match="Entry for key bad not parseable"):
        tf.train.NewCheckpointReader(prefix)
    variant = BundleEntryProto(dtype=21, size=0).SerializeToString()
    bundle_builder.write_bundle(prefix, {"a": (np.ones(1, np.float32), dtypes.float32)},
                                raw_entries={b"v": variant})
    r = tf.train.NewCheckpointReader(prefix)
    assert r.get_variable_to_dtype_map()["v"] == dtypes.variant
    with pytest.raises(NotImplementedError, match="DT_VARIANT"):
        r.get_tensor("v")


def test_missing_slices_are_an_error(tmp_path):
    # A partitioned entry whose second slice is absent cannot be assembled.
    prefix = str(tmp_path / "ck")
    part = np.ones((2, 3), np.float32)
    slice_key = tensor_slice.encode_tensor_name_slice(b"big", [(0, 2), (0, -1)])
    entry, data = bundle_builder._entry(part, dtypes.float32, 0, False)
    full = BundleEntryProto(dtype=1, shape={"dim": [{"size": 4}, {"size": 3}]},
                            slices=[{"extent": [{"start": 0, "length": 2}, {}]},
                                    {"extent": [{"start": 2, "length": 2}, {}]}])
    bundle_builder.write_bundle(prefix, {}, raw_entries={
        b"big": full.SerializeToString(), slice_key: entry.SerializeToString()})
    with open(tensor_bundle.data_filename(prefix, 0, 1), "wb") as f:
        f.write(data)
    r = tf.train.NewCheckpointReader(prefix)
    assert r.get_variable_to_shape_map() == {"big": [4, 3]}
    with pytest.raises(tf.errors.NotFoundError, match="not found in checkpoint"):
        r.get_tensor("big")


def test_ordered_code_slice_keys_match_tf():
    # The keys TF wrote for the 3 slices of `big` (partitioned fixture).
    assert tensor_slice.encode_tensor_name_slice(b"big", [(0, 4), (0, 3)]) == \
        b"\x00big\x00\x01\x01\x02\x80\x84\x80\x83"
    assert tensor_slice.encode_tensor_name_slice(b"big", [(7, 3), (0, 3)]) == \
        b"\x00big\x00\x01\x01\x02\x87\x83\x80\x83"
    # Full extents are (start, -1); names escape 0x00 and 0xff.
    assert tensor_slice._ordered_signed(-1) == b"\x7f"
    assert tensor_slice._ordered_signed(100) == b"\xc0\x64"
    assert tensor_slice._ordered_signed(-100) == b"\x3f\x9c"
    assert tensor_slice._ordered_signed(2 ** 40) == b"\xfd\x00\x00\x00\x00\x00"
    assert tensor_slice._ordered_string(b"a\x00b\xff") == b"a\x00\xffb\xff\x00\x00\x01"
    assert tensor_slice._ordered_num(0) == b"\x00"
    assert tensor_slice._ordered_num(300) == b"\x02\x01\x2c"


def test_string_length_checksum(tmp_path):
    prefix = str(tmp_path / "ck")
    bundle_builder.write_bundle(prefix, {"s": (np.array([b"abc", b"de"], dtype=object),
                                               dtypes.string)})
    data = tensor_bundle.data_filename(prefix, 0, 1)
    _mutate(data, lambda d: bytes([d[0] + 1]) + d[1:])  # first length 3 -> 4
    with pytest.raises(tf.errors.DataLossError, match="length checksum does not match"):
        tf.train.NewCheckpointReader(prefix).get_tensor("s")


def test_crc32c_known_values():
    assert crc32c.value(b"123456789") == 0xE3069283
    assert crc32c.value(b"\x00" * 32) == 0x8A9136AA
    assert crc32c.value(b"\xff" * 32) == 0x62A8AB43
    assert crc32c.value(bytes(range(32))) == 0x46DD794E
    assert crc32c.value(b"") == 0
    rng = np.random.RandomState(0)
    data = rng.bytes(3 * (1 << 20) + 12345)  # several chunks of a non-bytes buffer
    whole = crc32c.value(data)
    assert crc32c.extend(crc32c.value(data[:1000]), data[1000:]) == whole
    assert crc32c.value(np.frombuffer(data, np.uint8)) == whole
    assert crc32c.value(memoryview(data)) == crc32c.value(bytearray(data)) == whole
    for v in (0, 1, 0x12345678, 0xFFFFFFFF):
        assert crc32c.unmask(crc32c.mask(v)) == v
    assert crc32c.mask(0) == 0xA282EAD8


def test_block_handle_and_table_reader_on_fixture():
    path = os.path.join(FIXTURES, "name_based", "model.ckpt-3.index")
    table = sstable.read_table(path)
    keys = [k for k, _ in table]
    assert keys[0] == b"" and keys == sorted(keys)
    header = BundleHeaderProto.FromString(table[0][1])
    assert header.num_shards == 1 and header.endianness == 0
    assert header.version.producer == 1
    entry = BundleEntryProto.FromString(dict(table)[b"counter"])
    assert entry.dtype == 9 and entry.size == 8
    assert struct.calcsize("<q") == entry.size
    # Re-encoding TF's table gives TF's bytes: tf1compat lays tables out as TF does.
    with open(path, "rb") as f:
        assert sstable.encode_table(table) == f.read()
