"""Op rows: string ops, regular expressions, hashing, base64, CSV and raw decoding, and
tf.train.Example parsing."""

import struct

import numpy as np

from tests.golden.op_harness import err, f32, i32, row, strings

_WORDS = strings("Hello", "wOrld", "", "tf1 compat", shape=(2, 2))
_NUMBERS = strings("1.5", "-2", "3e2", "0x10")

ROWS = [
    row("StringJoin", inputs=[_WORDS, strings("!", "?", "", ".", shape=(2, 2))]),
    row("StringJoin", inputs=[strings("a", "b"), strings("x")[0]], separator="-"),
    err("StringJoin", inputs=[strings("a", "b"), strings("x", "y", "z")]),
    row("StringLength", input=_WORDS),
    row("StringLength", input=strings("é", "日本", "a"), unit="UTF8_CHAR"),
    row("StringLower", input=_WORDS),
    row("StringUpper", input=_WORDS),
    row("StringStrip", input=strings("  a b ", "\tc\n", "")),
    row("Substr", input=strings("hello", "world"), pos=np.array([1, 0], np.int32),
        len=np.array([3, 10], np.int32)),
    row("Substr", input=strings("hello", "world"), pos=np.int64(-3), len=np.int64(2)),
    row("Substr", input=strings("héllo"), pos=np.int32(1), len=np.int32(2), unit="UTF8_CHAR"),
    err("Substr", input=strings("hello"), pos=np.int32(9), len=np.int32(1)),
    row("ReduceJoin", inputs=_WORDS, reduction_indices=np.int32(1), separator="|"),
    row("ReduceJoin", inputs=_WORDS, reduction_indices=np.array([0, 1], np.int32),
        keep_dims=True),
    row("ReduceJoin", inputs=_WORDS, reduction_indices=np.array([], np.int32)),
    row("StringSplit", input=strings("a b  c", "", "d"), delimiter=strings(" ")[0]),
    row("StringSplit", input=strings("a,b,,c"), delimiter=strings(",")[0], skip_empty=False),
    row("StringSplitV2", input=strings("a b  c", " x"), sep=strings("")[0]),
    row("StringSplitV2", input=strings("a<>b<>c"), sep=strings("<>")[0], maxsplit=1),
    row("StringToNumber", string_tensor=strings("1.5", "-2", "3e2")),
    row("StringToNumber", string_tensor=strings("12", "-7"), out_type="int64"),
    row("StringToNumber", string_tensor=strings("1.25"), out_type="float64"),
    err("StringToNumber", string_tensor=_NUMBERS, out_type="int32"),
    row("AsString", input=f32(4)),
    row("AsString", input=f32(3), precision=2, scientific=True),
    row("AsString", input=f32(3), shortest=True),
    row("AsString", input=i32(3), width=5, fill="0"),
    row("AsString", input=np.array([True, False])),
    row("AsString", input=np.array([1.5, -2.0], np.float64), precision=1, width=8),
    row("StringFormat", inputs=[i32(3), strings("x")[0]], template="v={} s={}",
        placeholder="{}"),
    row("StringFormat", inputs=[f32(10)], template="%s", summarize=2),
    row("StringFormat", inputs=[strings("a", "b")]),
    row("StringToHashBucketFast", input=_WORDS, num_buckets=10),
    row("StringToHashBucket", string_tensor=_WORDS, num_buckets=7),
    row("StringToHashBucketStrong", input=_WORDS, num_buckets=5, key=[1, 2]),
    err("StringToHashBucketStrong", input=_WORDS, num_buckets=5, key=[1]),
    row("RegexFullMatch", input=_WORDS, pattern=strings("[a-zA-Z]+")[0]),
    row("StaticRegexFullMatch", input=_WORDS, pattern="h.*o"),
    row("RegexReplace", input=_WORDS, pattern=strings("o")[0], rewrite=strings("0")[0]),
    row("RegexReplace", input=_WORDS, pattern=strings("([a-z])")[0],
        rewrite=strings("<\\1>")[0], replace_global=False),
    row("StaticRegexReplace", input=strings("aaa bbb", "ab"), pattern="a+", rewrite="X"),
    err("RegexFullMatch", input=_WORDS, pattern=strings("(")[0]),
    row("EncodeBase64", input=strings("hi", "tf1compat!", "")),
    row("EncodeBase64", input=strings("hi", "tf1compat!"), pad=True),
    row("DecodeBase64", input=strings("aGk", "dGYxY29tcGF0IQ", "aGk=")),
    err("DecodeBase64", input=strings("a")),
    row("DecodeRaw", bytes=strings(b"\x01\x02\x03\x04", b"\xff\x00\x10\x20"),
        out_type="uint8"),
    row("DecodeRaw", bytes=strings(struct.pack("<2f", 1.5, -2.0)), out_type="float32"),
    row("DecodeRaw", bytes=strings(struct.pack(">2h", 1, -2)), out_type="int16",
        little_endian=False),
    err("DecodeRaw", bytes=strings(b"\x01\x02\x03", b"\x01"), out_type="int16"),
    row("DecodeCSV", records=strings("1,2.5,x", "3,,y"),
        record_defaults=[np.array([0], np.int32), np.array([9.0], np.float32),
                         strings("z")]),
    row("DecodeCSV", records=strings('"a,b";7', 'c;8'),
        record_defaults=[strings(""), np.array([0], np.int64)], field_delim=";"),
    row("DecodeCSV", records=strings("1,2,3"),
        record_defaults=[np.array([0], np.int32), np.array([0], np.int32)],
        select_cols=[0, 2]),
    row("DecodeCSV", records=strings("NA,2"), record_defaults=[np.array([5], np.int32),
                                                               np.array([0], np.int32)],
        na_value="NA"),
    row("DecodeCSV", records=strings("1"), record_defaults=[np.zeros((0,), np.int32)]),
    err("DecodeCSV", records=strings("1", ""), record_defaults=[np.zeros((0,), np.int32)]),
    err("DecodeCSV", records=strings("1,2"), record_defaults=[np.array([0], np.int32)]),
    row("ShardedFilename", basename=strings("ckpt")[0], shard=np.int32(2),
        num_shards=np.int32(5)),
    row("ShardedFilespec", basename=strings("/tmp/model")[0], num_shards=np.int32(3)),
    row("DenseToDenseSetOperation", set1=np.array([[1, 2, 3], [4, 5, 5]], np.int32),
        set2=np.array([[3, 4, 1], [5, 6, 7]], np.int32), set_operation="intersection"),
    row("DenseToDenseSetOperation", set1=np.array([[1, 2], [3, 4]], np.int64),
        set2=np.array([[2, 9], [8, 3]], np.int64), set_operation="union"),
    row("DenseToDenseSetOperation", set1=strings("a", "b", "c", shape=(1, 3)),
        set2=strings("b", "d", shape=(1, 2)), set_operation="a-b"),
    row("DenseToDenseSetOperation", set1=np.array([[1, 2], [3, 4]], np.int32),
        set2=np.array([[2, 1], [5, 3]], np.int32), set_operation="b-a"),
]


# -- tf.train.Example and SequenceExample protos, encoded here (protobuf wire format) -------

def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _feature(values: list) -> bytes:
    """A Feature: a bytes, float or int64 list by the Python type of the values."""
    if values and isinstance(values[0], bytes):
        return _field(1, b"".join(_field(1, v) for v in values))
    if values and isinstance(values[0], float):
        return _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)))
    return _field(3, _field(1, b"".join(_varint(v) for v in values)))


def _features(features: dict) -> bytes:
    return b"".join(_field(1, _field(1, k.encode()) + _field(2, _feature(v)))
                    for k, v in features.items())


def example(**features: list) -> bytes:
    return _field(1, _features(features))


def sequence_example(context: dict, lists: dict) -> bytes:
    feature_lists = b"".join(
        _field(1, _field(1, k.encode()) + _field(2, b"".join(_field(1, _feature(f))
                                                             for f in steps)))
        for k, steps in lists.items())
    return _field(1, _features(context)) + _field(2, feature_lists)


_EXAMPLES = strings(example(age=[29], score=[0.5, 1.5], tags=[b"a", b"b"]),
                    example(age=[41], tags=[b"c"]), example(score=[2.0, -1.0]))

ROWS += [
    row("ParseExampleV2", serialized=_EXAMPLES, names=[], sparse_keys=strings("tags"),
        dense_keys=strings("age", "score"), ragged_keys=[],
        dense_defaults=[np.array([-1], np.int64), np.array([0.0, 0.0], np.float32)],
        num_sparse=1, sparse_types=["string"], ragged_value_types=[], ragged_split_types=[],
        dense_shapes=[[1], [2]]),
    row("ParseExampleV2", serialized=_EXAMPLES[:1], names=[],
        sparse_keys=strings("score", "age"), dense_keys=[], ragged_keys=[], dense_defaults=[],
        num_sparse=2, sparse_types=["float32", "int64"], ragged_value_types=[],
        ragged_split_types=[], dense_shapes=[]),
    err("ParseExampleV2", serialized=_EXAMPLES, names=[], sparse_keys=[],
        dense_keys=strings("age"), ragged_keys=[], dense_defaults=[np.zeros((0,), np.int64)],
        num_sparse=0, sparse_types=[], ragged_value_types=[], ragged_split_types=[],
        dense_shapes=[[1]]),
    err("ParseExampleV2", serialized=strings(b"\x0a\x10\x0a"), names=[], sparse_keys=[],
        dense_keys=strings("age"), ragged_keys=[], dense_defaults=[np.array([0], np.int64)],
        num_sparse=0, sparse_types=[], ragged_value_types=[], ragged_split_types=[],
        dense_shapes=[[1]]),
]

_SEQUENCE = strings(sequence_example({"id": [7]}, {"tokens": [[1, 2], [3, 4]],
                                                   "words": [[b"x"], [b"y", b"z"]]}))
_SEQUENCE_ARGS = dict(
    context_sparse_keys=[], context_dense_keys=strings("id"), context_ragged_keys=[],
    feature_list_sparse_keys=strings("words"), feature_list_dense_keys=strings("tokens"),
    feature_list_ragged_keys=[], feature_list_dense_missing_assumed_empty=np.array([False]),
    context_dense_defaults=[np.array([0], np.int64)], context_dense_shapes=[[1]],
    Nfeature_list_sparse=1, feature_list_sparse_types=["string"], Nfeature_list_dense=1,
    feature_list_dense_types=["int64"], feature_list_dense_shapes=[[2]])
ROWS += [
    row("ParseSequenceExampleV2", serialized=_SEQUENCE[0], debug_name=strings("")[0],
        **_SEQUENCE_ARGS),
]
