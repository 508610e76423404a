"""The serialization layer: schemas against TensorFlow's, generated code, the tables,
TFRecord framing, tensor protos (lazy constants), crc32c, atomic files."""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization import (atomic_files, crc32c, messages, sstable, tensor_proto,
                                     tfrecord)
from tf1compat.serialization.protos import _pool
from tf1compat.graphdef.graph_io import op_to_node_def

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTO_DIR = os.path.join(ROOT, "tf1compat", "serialization", "protos")


# -- the schemas -----------------------------------------------------------------------------

def _our_descriptors():
    """Every message and enum of tf1compat's pool, by full name."""
    out = {}

    def walk(message):
        out[message.full_name] = message
        for enum in message.enum_types:
            out[enum.full_name] = enum
        for nested in message.nested_types:
            walk(nested)
    for name in sorted(os.listdir(PROTO_DIR)):
        if name.endswith(".proto"):
            file = _pool.POOL.FindFileByName(f"tf1compat/serialization/protos/{name}")
            for enum in file.enum_types_by_name.values():
                out[enum.full_name] = enum
            for message in file.message_types_by_name.values():
                walk(message)
    return out


def _is_repeated(field) -> bool:
    # (`is_repeated` is protobuf >= 6's; older runtimes have only `label`)
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == field.LABEL_REPEATED


def test_schemas_have_tf_names_numbers_and_types():
    """Each message tf1compat defines is TF's (recorded from TF 2.21 by
    scripts/record_tf_proto_fields.py): same full name, and every field has TF's number,
    type, label and oneof. (tf1compat defines only the fields it reads or writes.)"""
    with open(os.path.join(ROOT, "tests", "fixtures", "protos", "tf_proto_fields.json")) as f:
        tf_facts = json.load(f)
    # TensorBoard's projector config is not part of TensorFlow's own modules; older TF
    # releases wrote SerializedTensor.optional_restore (kept for reading them).
    not_in_tf = {"tensorflow.ProjectorConfig", "tensorflow.EmbeddingInfo",
                 "tensorflow.SpriteMetadata"}
    extra_fields = {("tensorflow.TrackableObjectGraph.TrackableObject.SerializedTensor",
                     "optional_restore")}
    checked = 0
    for full_name, ours in _our_descriptors().items():
        if full_name in not_in_tf:
            continue
        assert full_name in tf_facts, f"{full_name} is not one of TF's messages"
        theirs = tf_facts[full_name]
        if hasattr(ours, "values_by_name"):
            for value in ours.values:
                assert theirs["values"][value.name] == value.number, (full_name, value.name)
            continue
        if ours.GetOptions().map_entry:
            value = ours.fields_by_name["value"]
            assert theirs["map_entry"][:2] == [ours.fields_by_name["key"].type, value.type]
            continue
        for field in ours.fields:
            if (full_name, field.name) in extra_fields:
                continue
            fact = theirs["fields"].get(field.name)
            assert fact is not None, f"{full_name}.{field.name} is not a field of TF's"
            type_name = (field.message_type or field.enum_type)
            assert (field.number, field.type, _is_repeated(field),
                    type_name.full_name if type_name else "",
                    field.containing_oneof.name if field.containing_oneof else "") == \
                (fact["number"], fact["type"], fact["repeated"], fact["type_name"],
                 fact["oneof"]), f"{full_name}.{field.name}"
            checked += 1
    assert checked > 200


def test_generated_modules_match_their_schemas():
    """Each *_pb2.py records the SHA-256 of the .proto it was generated from (regenerate
    with scripts/generate_protos.py after editing a schema)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import generate_protos
    finally:
        sys.path.pop(0)
    protos = sorted(p for p in os.listdir(PROTO_DIR) if p.endswith(".proto"))
    modules = sorted(p for p in os.listdir(PROTO_DIR) if p.endswith("_pb2.py"))
    assert modules == [p[:-len(".proto")] + "_pb2.py" for p in protos]
    for name in protos:
        with open(os.path.join(PROTO_DIR, name[:-len(".proto")] + "_pb2.py")) as f:
            head = f.read(400)
        digest = generate_protos.proto_digest(os.path.join(PROTO_DIR, name))
        assert f"# source sha256: {digest}" in head, f"{name} changed: regenerate"


def test_messages_live_in_a_private_pool():
    from google.protobuf import descriptor_pool
    from google.protobuf.internal import api_implementation
    assert messages.GraphDef.DESCRIPTOR.full_name == "tensorflow.GraphDef"
    assert messages.GraphDef.DESCRIPTOR.file.pool is _pool.POOL
    if api_implementation.Type() != "python":   # (protobuf 3.x's pure-Python runtime
        with pytest.raises(KeyError):            # also lists generated types in its default)
            descriptor_pool.Default().FindMessageTypeByName("tensorflow.GraphDef")


def test_messages_are_protobufs_with_tf_printing():
    node = messages.NodeDef(name="c", op="Const")
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    node.attr["value"].tensor.CopyFrom(tensor_proto.tensor_to_proto(np.float32(1.5)))
    assert "type: DT_FLOAT" in str(node) and "float_val: 1.5" in str(node)
    text = messages.to_text(node)
    assert messages.parse_text(text, messages.NodeDef) == node
    assert messages.NodeDef.FromString(node.SerializeToString()) == node
    assert tf.GraphDef is messages.GraphDef and tf.Summary is messages.Summary
    assert tf.train.Example is messages.Example and tf.train.BytesList is \
        messages.ExampleBytesList


def test_tensor_shape_as_proto():
    assert tf.TensorShape([None, 3]).as_proto() == messages.TensorShapeProto(
        dim=[messages.Dim(size=-1), messages.Dim(size=3)])
    assert tf.TensorShape(None).as_proto().unknown_rank
    assert tf.TensorShape(tf.TensorShape([2, None]).as_proto()).as_list() == [2, None]


# -- tensor protos ---------------------------------------------------------------------------

def test_tensor_proto_round_trips():
    values = [np.arange(6, dtype=np.float32).reshape(2, 3), np.array(3, np.int64),
              np.array([True, False]), np.array([1 + 2j], np.complex64),
              np.array([b"a", b"bc"], dtype=object), np.float16(0.5)]
    for value in values:
        proto = tensor_proto.tensor_to_proto(value)
        dtype, back = tensor_proto.proto_to_ndarray(proto)
        assert back.tolist() == np.asarray(value).tolist()
    # TF's make_tensor_proto forms: several numbers as raw content, a scalar in *_val.
    assert tensor_proto.tensor_to_proto(np.ones(3, np.float32)).tensor_content
    assert list(tensor_proto.tensor_to_proto(np.int32(7)).int_val) == [7]


def test_one_value_for_a_huge_shape_is_not_expanded_at_import():
    """A Const whose TensorProto gives one float_val for 20000x20000 (as TF writes
    `tf.constant(1.0, shape=[20000, 20000])`) imports without allocating the 1.6 GB;
    the value is expanded when the graph runs, as in TF."""
    graph_def = messages.GraphDef()
    node = graph_def.node.add(name="big", op="Const")
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    value = node.attr["value"].tensor
    value.dtype = tf.float32.as_datatype_enum
    value.tensor_shape.dim.add(size=20000)
    value.tensor_shape.dim.add(size=20000)
    value.float_val.append(1.0)
    small = graph_def.node.add(name="small", op="Const")
    small.CopyFrom(node)
    small.name = "small"
    del small.attr["value"].tensor.tensor_shape.dim[:]
    small.attr["value"].tensor.tensor_shape.dim.add(size=2)
    small.attr["value"].tensor.tensor_shape.dim.add(size=3)
    with tf.Graph().as_default() as g:
        tracemalloc.start()
        big, few = tf.import_graph_def(graph_def, return_elements=["big:0", "small:0"],
                                       name="")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 50 << 20
        assert big.shape.as_list() == [20000, 20000]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(few), np.ones((2, 3), np.float32))
        # Written back compactly, as TF would.
        proto = op_to_node_def(g.get_operation_by_name("big"))
        assert list(proto.attr["value"].tensor.float_val) == [1.0]
        assert not proto.attr["value"].tensor.tensor_content


# -- TFRecords -------------------------------------------------------------------------------

def _record_claiming(length: int) -> bytes:
    header = struct.pack("<Q", length)
    return header + struct.pack("<I", crc32c.masked_value(header)) + b"abc"


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_huge_length_field_is_data_loss_not_memory_error(tmp_path, compression):
    path = str(tmp_path / "big.tfrecord")
    data = _record_claiming(1 << 40)
    if compression == "GZIP":
        data = gzip.compress(data)
    elif compression == "ZLIB":
        import zlib
        data = zlib.compress(data)
    with open(path, "wb") as f:
        f.write(data)
    why = "Read less bytes than requested" if compression == "" else "EOF reached"
    with pytest.raises(tf.errors.DataLossError, match=f"truncated record at 0' failed "
                                                      f"with {why}"):
        list(tf.python_io.tf_record_iterator(path, tf.io.TFRecordOptions(compression)))
    ds = tf.data.TFRecordDataset([path], compression_type=compression)
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
            sess.run(nxt)


def test_one_framing_for_records_and_events(tmp_path):
    """TFRecordWriter and FileWriter frame records with the same code (tfrecord.py)."""
    path = str(tmp_path / "r.tfrecord")
    with tf.python_io.TFRecordWriter(path) as w:
        w.write(b"payload")
    with open(path, "rb") as f:
        assert f.read() == tfrecord.encode_record(b"payload")
    reader = tfrecord.RecordReader(path)
    assert reader.read() == b"payload" and reader.read() is None
    reader.close()
    with open(path, "ab") as f:
        f.write(b"\x01\x02")      # a partial header at the end reads as the end, as in TF
    assert list(tf.python_io.tf_record_iterator(path)) == [b"payload"]
    # file:// URLs are local files for the writer, the iterator and the datasets
    assert list(tf.python_io.tf_record_iterator("file://" + path)) == [b"payload"]
    with tf.Graph().as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(["file://" + path])
                                             ).get_next()
        with tf.Session() as sess:
            assert sess.run(nxt) == b"payload"


def test_events_read_back_with_protobuf_defaults(tmp_path):
    """summary_iterator gives protobuf's messages: unset bytes fields are b"", unset
    strings "" (issue 12)."""
    with tf.Graph().as_default():
        tf.summary.scalar("s", tf.constant(2.0))
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            writer = tf.summary.FileWriter(str(tmp_path))
            writer.add_summary(sess.run(merged), 3)
            writer.close()
    path = [p for p in os.listdir(tmp_path) if p.startswith("events")][0]
    events = list(tf.train.summary_iterator(str(tmp_path / path)))
    assert events[0].file_version == "brain.Event:2" and events[0].graph_def == b""
    summary = events[1]
    assert summary.step == 3 and summary.graph_def == b"" and summary.file_version == ""
    assert summary.meta_graph_def == b"" and summary.WhichOneof("what") == "summary"
    value = summary.summary.value[0]
    assert value.simple_value == 2.0 and value.image.encoded_image_string == b""
    assert value.WhichOneof("value") == "simple_value"


# -- tables, CRC-32C, atomic files -----------------------------------------------------------

def test_table_layout_multi_block_and_separators():
    items = [(b"k%05d" % i, bytes(300)) for i in range(2000)]   # > one 256 KiB block
    data = sstable.encode_table(items)
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".index", delete=False) as f:
        f.write(data)
    try:
        assert sstable.read_table(f.name) == items
    finally:
        os.remove(f.name)
    assert sstable._shortest_separator(b"abcx", b"abz") == b"abd"
    assert sstable._shortest_separator(b"ab", b"abc") == b"ab"
    assert sstable._short_successor(b"\xff\xffa") == b"\xff\xffb"
    with pytest.raises(ValueError, match="strictly increase"):
        sstable.encode_table([(b"b", b""), (b"a", b"")])


def test_crc32c_buffers():
    data = os.urandom(3 << 20)
    assert crc32c.value(data) == crc32c.value(memoryview(data)) == \
        crc32c.value(np.frombuffer(data, np.uint8)) == crc32c.value(bytearray(data))
    assert crc32c.extend(crc32c.value(data[:5]), data[5:]) == crc32c.value(data)
    assert crc32c.value(b"123456789") == 0xE3069283
    assert crc32c.unmask(crc32c.masked_value(b"x")) == crc32c.value(b"x")


def test_stale_temp_files_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    mine = os.path.basename(atomic_files.temp_path(str(tmp_path / "a.index")))
    theirs = mine.replace(f"tmp-{os.getpid()}-", f"tmp-{dead}-")
    old = mine.replace(f"tmp-{os.getpid()}-", "tmp-1-").replace(atomic_files._HOST, "00000000")
    for name in (mine, theirs, old, "model.ckpt-1.index", ".hidden"):
        (tmp_path / name).write_bytes(b"x")
    os.utime(tmp_path / old, (time.time() - 2 * 86400,) * 2)
    removed = atomic_files.remove_stale_temp_files(str(tmp_path))
    assert sorted(os.path.basename(p) for p in removed) == sorted([theirs, old])
    assert sorted(os.listdir(tmp_path)) == sorted([mine, "model.ckpt-1.index", ".hidden"])
