"""Op rows: unicode decoding/encoding/transcoding, string n-grams, unsorted segment
joins, Fingerprint, DecodeCompressed and DecodeJSONExample."""

import gzip
import zlib

import numpy as np

from tests.golden.op_harness import err, row, strings

_TEXT = strings("héllo", "ab", "", "€x")

ROWS = [
    row("UnicodeDecode", input=_TEXT, input_encoding="UTF-8"),
    row("UnicodeDecode", input=strings(b"a\xffb", "ok"), input_encoding="UTF-8",
        errors="replace", replacement_char=63),
    err("UnicodeDecode", input=strings(b"a\xffb"), input_encoding="UTF-8", errors="strict"),
    row("UnicodeDecodeWithOffsets", input=_TEXT, input_encoding="UTF-8"),
    row("UnicodeEncode", input_values=np.array([104, 233, 108, 8364, 120], np.int32),
        input_splits=np.array([0, 3, 5], np.int64), output_encoding="UTF-8"),
    row("UnicodeEncode", input_values=np.array([104, 233, 0x1F600], np.int32),
        input_splits=np.array([0, 1, 3], np.int64), output_encoding="UTF-16-BE"),
    row("UnicodeTranscode", input=_TEXT, input_encoding="UTF-8",
        output_encoding="UTF-16-BE"),
    row("UnicodeTranscode", input=strings(b"a\xffb"), input_encoding="UTF-8",
        output_encoding="UTF-8", replacement_char=42),
    row("StringNGrams", data=strings("a", "b", "c", "d", "e"),
        data_splits=np.array([0, 3, 5], np.int64), separator=" ", ngram_widths=[2, 3],
        left_pad="<", right_pad=">", pad_width=1, preserve_short_sequences=False),
    row("StringNGrams", data=strings("a", "b", "c"), data_splits=np.array([0, 1, 3], np.int32),
        separator="|", ngram_widths=[3], left_pad="", right_pad="", pad_width=0,
        preserve_short_sequences=True),
    row("UnsortedSegmentJoin", inputs=strings("a", "b", "c", "d"),
        segment_ids=np.array([1, 0, 1, 3], np.int32), num_segments=np.int32(4),
        separator=","),
    err("UnsortedSegmentJoin", inputs=strings("a", "b"),
        segment_ids=np.array([0, 5], np.int32), num_segments=np.int32(2)),
    row("Fingerprint", data=strings("a", "bc", "def"),
        method=strings("farmhash64", shape=[])),
    row("Fingerprint", data=np.arange(6, dtype=np.int32).reshape(2, 3),
        method=strings("farmhash64", shape=[])),
    err("Fingerprint", data=strings("a"), method=strings("md5", shape=[])),
    row("DecodeCompressed", bytes=strings(zlib.compress(b"hello hello"), zlib.compress(b"")),
        compression_type="ZLIB"),
    row("DecodeCompressed", bytes=strings(gzip.compress(b"abc", mtime=0)),
        compression_type="GZIP"),
    row("DecodeCompressed", bytes=strings("plain"), compression_type=""),
    err("DecodeCompressed", bytes=strings("not zlib"), compression_type="ZLIB"),
    row("DecodeJSONExample", json_examples=strings(
        '{"features": {"feature": {"a": {"int64List": {"value": ["1", "2"]}}, '
        '"b": {"floatList": {"value": [0.5]}}}}}')),
    err("DecodeJSONExample", json_examples=strings("{not json")),
]
