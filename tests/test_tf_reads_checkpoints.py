"""tf1compat's checkpoints are read by real TensorFlow: replaying the recorded round trip.

scripts/check_tf_reads_checkpoints.py saved tests/fixtures/tf1compat_written/ with
tf1compat and recorded what TensorFlow 2.21 read from it (`tf_read.json`: every tensor
through `tf.train.load_checkpoint`, the variables after `Saver.restore` and
`tf.train.Checkpoint.restore`, a SavedModel signature run) plus TF's own re-save of the
restored variables (`tf_resaved/`). Without TensorFlow, these tests check that

* what TF read is what tf1compat wrote (and still writes: the same program run now
  gives the same checkpoint entries);
* tf1compat stores each tensor's bytes exactly as TF does (the index entries of TF's
  re-save have the same dtypes, shapes, byte sizes and CRC-32Cs);
* the layout: index entries point into the data shards, which are complete safetensors
  files naming the tensors by their checkpoint keys.
"""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.serialization import tensor_bundle
from tests.script_loader import load_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WRITTEN = os.path.join(ROOT, "tests", "fixtures", "tf1compat_written")
NAME_BASED = os.path.join(WRITTEN, "name_based", "model.ckpt-1")
SHARDED = os.path.join(WRITTEN, "sharded", "model.ckpt")
OBJECT_BASED = os.path.join(WRITTEN, "object_based", "ckpt-1")
SAVED_MODEL_VARIABLES = os.path.join(WRITTEN, "saved_model", "variables", "variables")
KERAS_WEIGHTS = os.path.join(WRITTEN, "keras", "weights")
PREFIXES = [NAME_BASED, SHARDED, OBJECT_BASED, SAVED_MODEL_VARIABLES, KERAS_WEIGHTS]


def _script():
    return load_script("check_tf_reads_checkpoints")


@pytest.fixture(scope="module")
def tf_read():
    with open(os.path.join(WRITTEN, "tf_read.json")) as f:
        return json.load(f)


def _as_recorded(value) -> dict:
    """A value tf1compat reads in the JSON form the recording script gives TF's."""
    return json.loads(json.dumps(_script()._json_value(value)))


def _read(reader, key: str) -> dict:
    """`reader.get_tensor(key)` in the recorded form (bfloat16 through torch: CI has no
    ml_dtypes, which numpy needs to hold bfloat16)."""
    if reader.get_variable_to_dtype_map()[key] == tf.bfloat16:
        value = reader.read_torch(key)
        return dict(_as_recorded(value.float().numpy()), dtype="bfloat16")
    return _as_recorded(reader.get_tensor(key))


def _entries(prefix: str) -> dict:
    reader = tensor_bundle.BundleReader(prefix)
    return {key: entry for key, entry in reader.entries()}


def test_tf_read_every_tensor_as_written(tf_read):
    for label, prefix in (("name_based", NAME_BASED), ("sharded", SHARDED),
                          ("object_based", OBJECT_BASED)):
        recorded = tf_read[f"{label}.reader"]
        reader = tf.train.NewCheckpointReader(prefix)
        assert sorted(reader.get_variable_to_shape_map()) == sorted(recorded), label
        dtypes = reader.get_variable_to_dtype_map()
        shapes = reader.get_variable_to_shape_map()
        for key, seen in recorded.items():
            assert dtypes[key].name == seen["tf_dtype"], key
            assert shapes[key] == seen["tf_shape"], key
            ours = _read(reader, key)
            assert ours == {k: seen[k] for k in ("dtype", "shape", "values")}, key


def test_tf_restored_the_variables(tf_read):
    reader = tf.train.NewCheckpointReader(NAME_BASED)
    restored = tf_read["name_based.saver_restore"]
    # Every variable TF's Saver restored (partitions under their part names) has the value
    # tf1compat wrote.
    for name, seen in restored.items():
        if name.startswith("emb/part_"):
            continue
        assert _read(reader, name) == seen, name
    parts = sorted(k for k in restored if k.startswith("emb/part_") and "/Adam" not in k)
    assert parts == ["emb/part_0", "emb/part_1", "emb/part_2"]
    emb = np.asarray(tf_read["name_based.emb_full"]["values"], np.float32).reshape(10, 4)
    np.testing.assert_array_equal(emb, reader.get_tensor("emb"))
    sharded = tf_read["sharded.saver_restore"]
    np.testing.assert_array_equal(np.asarray(sharded["table"]["values"]).reshape(6, 2),
                                  np.arange(12).reshape(6, 2))
    # Object-based: TF's Checkpoint.restore matched every object (assert_consumed passed)
    # and restored the slots.
    objects = tf_read["object_based.restore"]
    obj_reader = tf.train.NewCheckpointReader(OBJECT_BASED)
    key = "model/w/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE"
    assert _read(obj_reader, key) == objects["m/model_w"]
    assert objects["save_counter"]["values"] == [1] and objects["step"]["values"] == [1]
    np.testing.assert_allclose(np.asarray(tf_read["saved_model.y"]["values"]).reshape(2, 3),
                               [[0.5, 2.5, 2.5], [3.5, 3.5, 5.5]])
    # TF2 eager Checkpoint.restore matched the same objects.
    eager = tf_read["object_based.eager_restore"]
    assert _read(obj_reader, "model/w/.ATTRIBUTES/VARIABLE_VALUE") == eager["w"]
    assert eager["step"]["values"] == [1]


def test_tf_keras_loads_the_weights(tf_read):
    """tf-keras `load_weights` of tf1compat's `save_weights` predicts what tf1compat does."""
    script = _script()
    w1, b1, w2, b2 = script.KERAS_WEIGHTS
    expected = (script.KERAS_INPUT @ w1 + b1) @ w2 + b2
    seen = np.asarray(tf_read["keras.predict"]["values"], np.float32).reshape(2, 1)
    np.testing.assert_allclose(seen, expected, rtol=1e-6)
    with tf.Graph().as_default():
        model = script.build_keras(tf)
        model.load_weights(KERAS_WEIGHTS)
        np.testing.assert_allclose(model.predict(script.KERAS_INPUT), seen, rtol=1e-6)


def test_tensor_bytes_are_tf_bytes():
    resaved = os.path.join(WRITTEN, "tf_resaved", "model.ckpt-1")
    ours, theirs = _entries(NAME_BASED), _entries(resaved)
    # TF writes its partitioned variables as stored slices; tf1compat stores a variable
    # whose slices one save holds whole (TF reads slices of it): compared by value below.
    partitioned = {k for k, e in theirs.items() if e.slices}
    plain = {k for k in theirs if k not in partitioned and not k.startswith(b"\x00")}
    assert plain == set(ours) - partitioned and partitioned == {b"emb", b"emb/Adam",
                                                                b"emb/Adam_1"}
    for key in plain:
        mine, entry = ours[key], theirs[key]
        assert (mine.dtype, mine.shape, mine.size, mine.crc32c) == \
            (entry.dtype, entry.shape, entry.size, entry.crc32c), key
    a, b = tf.train.NewCheckpointReader(NAME_BASED), tf.train.NewCheckpointReader(resaved)
    for key in partitioned:
        np.testing.assert_array_equal(a.get_tensor(key.decode()), b.get_tensor(key.decode()))


def test_index_entries_point_into_complete_safetensors_shards():
    from safetensors import safe_open
    from safetensors.torch import load_file
    for prefix in PREFIXES:
        reader = tensor_bundle.BundleReader(prefix)
        headers = {}
        for shard in range(reader.num_shards):
            path = tensor_bundle.data_filename(prefix, shard, reader.num_shards)
            with open(path, "rb") as f:
                data = f.read()
            (size,) = struct.unpack("<Q", data[:8])
            header = json.loads(data[8:8 + size])
            body = 8 + size
            ends = [info["data_offsets"][1] for k, info in header.items() if k != "__metadata__"]
            assert body + max(ends, default=0) == len(data), path   # nothing after the tensors
            headers[shard] = (body, header)
            load_file(path)          # a valid safetensors file
            with safe_open(path, "pt") as f:
                meta = json.loads(f.metadata()["tf1compat"])
            assert meta["format"] == "tf1compat.tensor_bundle_shard"
        for key, entry in reader.entries():
            if entry.slices:
                continue
            body, header = headers[entry.shard_id]
            named = [n for n, info in header.items() if n != "__metadata__" and
                     body + info["data_offsets"][0] == entry.offset]
            assert len(named) == 1, key
            start, end = header[named[0]]["data_offsets"]
            assert end - start == entry.size, key


def test_safetensors_load_file_gives_tf_names_and_values(tf_read):
    from safetensors.torch import load_file
    values = load_file(NAME_BASED + ".data-00000-of-00001")
    recorded = tf_read["name_based.reader"]
    assert sorted(values) == sorted(recorded)
    for key, seen in recorded.items():
        tensor = values[key]
        if seen["dtype"] == "bytes":
            assert tensor.dtype == torch.uint8      # TF's string layout, as documented
            continue
        if seen["dtype"].startswith("complex"):
            got = torch.view_as_complex(tensor.contiguous()).numpy()
            expected = np.array([complex(*p) for p in seen["values"]]).reshape(seen["shape"])
        else:
            got = tensor.float().numpy() if tensor.dtype == torch.bfloat16 else tensor.numpy()
            expected = np.asarray(seen["values"]).reshape(seen["shape"])
        np.testing.assert_array_equal(got, expected.astype(got.dtype), err_msg=key)
    # A sharded save's stored slices are named `<key>[<extents>]`.
    shard = load_file(SHARDED + ".data-00000-of-00002")
    assert sorted(shard) == ["a", "table[0,3:0,2]"]


def test_writing_again_gives_the_recorded_checkpoints(tmp_path):
    """The recording program run now writes the same entries (re-record with TF if not)."""
    _script().write_checkpoints(str(tmp_path))
    for prefix in PREFIXES:
        fresh = os.path.join(tmp_path, os.path.relpath(prefix, WRITTEN))
        ours, recorded = _entries(fresh), _entries(prefix)
        assert sorted(ours) == sorted(recorded), prefix
        for key, entry in recorded.items():
            mine = ours[key]
            assert (mine.dtype, mine.shape, mine.size, mine.slices) == \
                (entry.dtype, entry.shape, entry.size, entry.slices), key
        a, b = tf.train.NewCheckpointReader(fresh), tf.train.NewCheckpointReader(prefix)
        for key in b.keys():
            x, y = a.read_torch(key), b.read_torch(key)
            if isinstance(y, torch.Tensor):
                wide = torch.complex128 if y.is_complex() else torch.float64
                assert x.dtype == y.dtype and torch.allclose(x.to(wide), y.to(wide),
                                                             rtol=1e-6), key
            else:
                assert key == "_CHECKPOINTABLE_OBJECT_GRAPH" or x.tolist() == y.tolist(), key
