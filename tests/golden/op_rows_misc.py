"""Op rows: assertions and logging, summaries (serialized Summary protos compared byte for
byte), files and checkpoints (their error paths), timestamps, no-ops."""

import numpy as np

from tests.golden.op_harness import err, f32, i32, row, strings

_NAN = np.array([1.0, np.nan, 2.0], np.float32)
_INF = np.array([1.0, np.inf], np.float32)
_SERIALIZED_F32 = np.array(bytes.fromhex("080112041202080222080000c03f000000c0"), object)
_SERIALIZED_STR = np.array(bytes.fromhex("08071200420178"), object)

ROWS = [
    row("NoOp"),
    row("Assert", condition=np.array(True), data=[f32(3), strings("x")]),
    err("Assert", condition=np.array(False), data=[f32(7), strings("a", "b")], summarize=2),
    err("Assert", condition=np.array([True, False]), data=[f32(1)]),
    row("Print", input=f32(2, 2), data=[i32(3)], message="row: ", summarize=2),
    row("Print", input=i32(4), data=[], first_n=1),
    row("PrintV2", input=strings("op row")[0]),
    row("PrintV2", input=strings("to stdout")[0], output_stream="stdout", end=";\n"),
    err("PrintV2", input=strings("nowhere")[0], output_stream="file://"),
    err("PrintV2", input=strings("a", "b")),
    row("CheckNumerics", tensor=f32(2, 3), message="fine"),
    err("CheckNumerics", tensor=_NAN, message="has nan"),
    err("CheckNumerics", tensor=_INF, message="has inf"),
    row("Timestamp", check="shape"),
    err("ReadFile", filename=strings("/nonexistent/tf1compat/op/row")[0]),
    row("MatchingFiles", pattern=strings("/nonexistent/tf1compat/*.row")[0]),
    err("RestoreV2", prefix=strings("/nonexistent/tf1compat/ckpt")[0],
        tensor_names=strings("v"), shape_and_slices=strings(""), dtypes=["float32"]),
    err("MergeV2Checkpoints", checkpoint_prefixes=strings("/nonexistent/tf1compat/a"),
        destination_prefix=strings("/nonexistent/tf1compat/b")[0]),
]

# -- summaries: the serialized Summary protos -----------------------------------------------

ROWS += [
    row("ScalarSummary", tags=strings("loss")[0], values=np.float32(0.25)),
    row("ScalarSummary", tags=strings("a", "b"), values=np.array([1.5, -2.0], np.float32)),
    row("ScalarSummary", tags=strings("n")[0], values=np.int64(7)),
    err("ScalarSummary", tags=strings("a", "b"), values=np.array([1.0], np.float32)),
    row("HistogramSummary", tag=strings("h")[0], values=f32(20)),
    row("HistogramSummary", tag=strings("h")[0], values=np.array([1, 1, 2, 100], np.int32)),
    row("HistogramSummary", tag=strings("e")[0], values=np.zeros((0,), np.float32)),
    err("HistogramSummary", tag=strings("h")[0], values=_NAN),
    row("TensorSummaryV2", tag=strings("t")[0], tensor=f32(2, 2),
        serialized_summary_metadata=strings(b"")[0]),
    row("TensorSummaryV2", tag=strings("s")[0], tensor=strings("text"),
        serialized_summary_metadata=strings(b"\x12\x06\x0a\x04text")[0]),
    row("MergeSummary", inputs=[strings(b"\x0a\x0b\x0a\x04loss\x15\x00\x00\x80\x3e"),
                                strings(b"\x0a\x08\x0a\x01n\x15\x00\x00\xe0\x40")]),
    err("MergeSummary", inputs=[strings(b"\x0a\x0b\x0a\x04loss\x15\x00\x00\x80\x3e"),
                                strings(b"\x0a\x0b\x0a\x04loss\x15\x00\x00\x80\x3f")]),
    row("ImageSummary", tag=strings("img")[0],
        tensor=np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3), max_images=1),
    row("ImageSummary", tag=strings("f")[0], tensor=f32(1, 2, 2, 1, lo=0.0, hi=1.0)),
    row("ImageSummary", tag=strings("signed")[0], tensor=f32(2, 40, 50, 3), max_images=2),
    # A large image: TF's zlib (not Python's) decides the compressed bytes, so compare
    # what the PNG holds (the small ones above match byte for byte).
    row("ImageSummary", tag=strings("big")[0], check="png",
        tensor=(np.arange(100 * 90 * 4).reshape(1, 100, 90, 4) % 251 +
                np.random.RandomState(5).randint(0, 24, (1, 100, 90, 4))).astype(np.uint8)),
    row("AudioSummaryV2", tag=strings("snd")[0], tensor=f32(2, 8, lo=-1.0, hi=1.0),
        sample_rate=np.float32(8000.0), max_outputs=2),
    row("AudioSummaryV2", tag=strings("mono")[0], tensor=f32(1, 6, 1, lo=-1.0, hi=1.0),
        sample_rate=np.float32(4000.0)),
    # Tensors as serialized TensorProtos (bytes compared exactly); ParseTensor reads bytes
    # TF wrote (float32 [1.5, -2] and the string scalar b"x").
    row("SerializeTensor", tensor=f32(2, 3)),
    row("SerializeTensor", tensor=np.int64(-7)),
    row("SerializeTensor", tensor=strings("a", "", "bc", shape=[3, 1])),
    row("SerializeTensor", tensor=np.array([True, False])),
    row("ParseTensor", serialized=_SERIALIZED_F32, out_type="float32"),
    row("ParseTensor", serialized=_SERIALIZED_STR, out_type="string"),
    err("ParseTensor", serialized=_SERIALIZED_F32, out_type="int32"),
    err("ParseTensor", serialized=np.array(b"\xff\xff", object), out_type="int32"),
    err("ParseTensor", serialized=strings("a", "b"), out_type="int32"),
    # Protocol messages (tensorflow.Int64List / Feature, wire format written by hand).
    row("DecodeProtoV2", bytes=strings(b"\x0a\x03\x01\x02\x03", b""),
        message_type="tensorflow.Int64List", field_names=["value"], output_types=["int64"]),
    row("DecodeProtoV2", bytes=strings(b"\x1a\x05\x0a\x03\x01\x02\x03"),
        message_type="tensorflow.Feature", field_names=["int64_list", "float_list"],
        output_types=["string", "string"]),
    err("DecodeProtoV2", bytes=strings(b"\x0a\x03\x01\x02\x03"),
        message_type="tensorflow.Int64List", field_names=["value"], output_types=["float32"]),
    row("EncodeProto", sizes=np.array([[2], [0]], np.int32),
        values=[np.array([[7, 8], [0, 0]], np.int64)], field_names=["value"],
        message_type="tensorflow.Int64List"),
]

# -- k-means (tf.contrib.factorization's clustering ops; TF's seeded Philox sampling) --------

_POINTS = f32(8, 3, seed=5)
ROWS += [
    row("KmeansPlusPlusInitialization", points=_POINTS, num_to_sample=np.int64(3),
        seed=np.int64(42), num_retries_per_sample=np.int64(2)),
    row("KmeansPlusPlusInitialization", points=_POINTS, num_to_sample=np.int64(2),
        seed=np.int64(7), num_retries_per_sample=np.int64(-1)),
    err("KmeansPlusPlusInitialization", points=_POINTS, num_to_sample=np.int64(9),
        seed=np.int64(1), num_retries_per_sample=np.int64(0)),
    row("KMC2ChainInitialization", distances=np.abs(f32(6, seed=3)), seed=np.int64(11)),
    row("NearestNeighbors", points=_POINTS, centers=f32(4, 3, seed=6), k=np.int64(2)),
    row("NearestNeighbors", points=_POINTS, centers=f32(2, 3, seed=6), k=np.int64(5)),
]
