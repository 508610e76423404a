"""Golden cases: tf.fingerprint, tf.strings unicode_* (scalar inputs), bytes_split, ngrams,
unsorted_segment_join, with TF's errors."""

from tests.golden.harness import catch, describe

# Results TF builds through RaggedTensor ops (tf1compat has none): their internal op names
# and, for unicode_split, the static length TF's shape inference computes by running the
# decode at graph build, are not compared.
_RAGGED_BUILT = ("bytes", "bytes_empty", "split", "rank1")


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def case_fingerprint(tf):
    out = {
        "int": tf.fingerprint(tf.constant([[1, 2], [3, 4]], tf.int32)),
        "float": tf.fingerprint(tf.constant([1.5, 2.5])),
        "strings": tf.fingerprint(tf.constant(["a", "bc", ""])),
        "string_rows": tf.fingerprint(tf.constant([["a", "bc"], ["x", "yz"]])),
        "bool": tf.fingerprint(tf.constant([[True, False]])),
        "empty_rows": tf.fingerprint(tf.zeros([0, 3])),
        "empty_cols": tf.fingerprint(tf.zeros([2, 0])),
        "long": tf.fingerprint(tf.constant(["x" * 100, "abcdefghijklmnopqrstuvwxyz" * 3])),
    }
    return {"vals": _run(tf, out),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "unknown": describe(tf.fingerprint(tf.placeholder(tf.float32, [None, 3, 4]))),
            "scalar": catch(lambda: tf.fingerprint(tf.constant(3)), message=True),
            "method": catch(lambda: tf.fingerprint([1, 2], method="md5"), message=True)}


def case_unicode(tf):
    out = {
        "to16": tf.strings.unicode_transcode(["Hello", "Jos\xe9"], "UTF-8", "UTF-16-BE"),
        "to32": tf.strings.unicode_transcode([["\u20ac", "\U0001F600"]], "UTF-8", "UTF-32-BE"),
        "control": tf.strings.unicode_transcode(["\x7f\x1f\t\n\x80", b"a\xffb"], "UTF-8",
                                                "UTF-8", replace_control_characters=True),
        "ignore": tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8", errors="ignore"),
        "replacement": tf.strings.unicode_transcode(
            tf.constant([[b"a\xff", b"b"]]), "UTF-8", "UTF-16-BE", replacement_char=65),
        "bom": tf.strings.unicode_transcode([b"\xef\xbb\xbfab", b"\xfe\xff\x00a"],
                                            "UTF-8", "UTF-16-BE"),
        "from16": tf.strings.unicode_transcode([b"\x00a\xd8\x00", b"\x00a\x00"],
                                               "UTF-16-BE", "UTF-8"),
        "latin1": tf.strings.unicode_decode(b"a\xe9", "ISO-8859-1"),
        "utf16_no_bom": tf.strings.unicode_decode(b"\x00a\x00b", "UTF-16"),
        "encode": tf.strings.unicode_encode([[72, 105], [104, 111]], "UTF-8"),
        "encode3": tf.strings.unicode_encode(tf.constant([[[72, 105], [104, 111]]]),
                                             "UTF-32-BE"),
        "encode_bad": tf.strings.unicode_encode([72, 105, 0x110000], "UTF-8"),
        "encode_ignore": tf.strings.unicode_encode([72, 105, -1], "UTF-8", errors="ignore"),
        "encode_char": tf.strings.unicode_encode([72, 105, -1], "UTF-16-BE",
                                                 replacement_char=63),
        "encode_empty": tf.strings.unicode_encode(tf.zeros([2, 0], tf.int32), "UTF-8"),
        "decode": tf.strings.unicode_decode("h\xe9llo", "UTF-8"),
        "decode_off": tf.strings.unicode_decode_with_offsets("h\xe9llo", "UTF-8"),
        "decode_bad": tf.strings.unicode_decode_with_offsets(
            b"a\xe2\x82b\xf0\x9f\x98\x80", "UTF-8"),
        "decode_ignore": tf.strings.unicode_decode_with_offsets(
            b"a\xe2\x82b\xf0\x9f\x98\x80", "UTF-8", errors="ignore"),
        "decode16": tf.strings.unicode_decode_with_offsets(b"\x00a\xd8\x00\x00b", "UTF-16-BE"),
        "decode32": tf.strings.unicode_decode_with_offsets(
            b"\x00\x00\x00a\x00\x11\x00\x00\x00\x00\x00b", "UTF-32-BE"),
        "surrogate": tf.strings.unicode_decode(b"\xed\xa0\x80z\xc0\x80z", "UTF-8"),
        "decode_control": tf.strings.unicode_decode(b"a\xffb\x01", "UTF-8",
                                                    replace_control_characters=True),
        "split": tf.strings.unicode_split("h\xe9llo", "UTF-8"),
        "split_off": tf.strings.unicode_split_with_offsets("h\xe9llo", "UTF-8"),
        "empty": tf.strings.unicode_decode(b"", "UTF-8"),
        "bytes": tf.strings.bytes_split("h\xe9y"),
        "bytes_empty": tf.strings.bytes_split(b""),
    }
    vals = _run(tf, out)
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    errors = {
        "encode_strict": catch(run(tf.strings.unicode_encode([72, -1], "UTF-8",
                                                             errors="strict"))),
        "transcode_strict": catch(run(tf.strings.unicode_transcode(
            [b"a\xffb"], "UTF-8", "UTF-8", errors="strict"))),
        "bad_input_encoding": catch(run(tf.strings.unicode_decode(b"ab", "bogus-enc"))),
        "replacement_range": catch(run(tf.strings.unicode_transcode(
            [b"ab"], "UTF-8", "UTF-8", replacement_char=-5))),
        "output_encoding": catch(lambda: tf.strings.unicode_transcode(
            [b"ab"], "UTF-8", "latin1"), message=True),
        "encode_encoding": catch(lambda: tf.strings.unicode_encode([1], "latin1"),
                                 message=True),
        "errors_attr": catch(lambda: tf.strings.unicode_decode(b"ab", "UTF-8",
                                                               errors="bogus"), message=True),
        "encode_scalar": catch(lambda: tf.strings.unicode_encode(tf.constant(72), "UTF-8"),
                               message=True),
    }
    return {"vals": vals, "errors": errors,
            "shapes": {k: describe(v) for k, v in sorted(out.items())
                       if k not in ("decode_off", "decode_bad", "decode_ignore", "decode16",
                                    "decode32", "split_off") + _RAGGED_BUILT},
            "ragged_built": {k: [out[k].dtype.name, out[k].shape.rank]
                             for k in _RAGGED_BUILT if k in out}}


def case_ngrams(tf):
    d = tf.constant([["a", "b", "c", "d", "e"], ["f", "g", "h", "i", "j"]])
    out = {
        "pad": tf.strings.ngrams(d, 3, pad_values="#"),
        "pad_width": tf.strings.ngrams(d, (2, 4), pad_values=("<", ">"), padding_width=2),
        "too_long": tf.strings.ngrams(d, 6),
        "preserve": tf.strings.ngrams(d, 6, preserve_short_sequences=True),
        "preserve_pad": tf.strings.ngrams(d, 7, pad_values="#", padding_width=1,
                                          preserve_short_sequences=True),
        "mixed": tf.strings.ngrams(d, [1, 9], preserve_short_sequences=True),
        "order": tf.strings.ngrams(d, (3, 1), separator=""),
        "rank1": tf.strings.ngrams(tf.constant(["a", "b", "c"]), [1, 3], separator="-",
                                   pad_values="#"),
        "rank3": tf.strings.ngrams(tf.constant([[["a", "b"], ["c", "d"]]]), 2),
        "empty": tf.strings.ngrams(tf.zeros([2, 0], tf.string), 2),
    }
    return {"vals": _run(tf, out),
            "shapes": {k: describe(v) for k, v in sorted(out.items()) if k != "rank1"},
            "rank1": [out["rank1"].dtype.name, out["rank1"].shape.as_list()],
            "unknown": describe(tf.strings.ngrams(tf.placeholder(tf.string, [None, 4]), 2)),
            "zero": catch(lambda: tf.strings.ngrams(d, 0), message=True),
            "padding_width": catch(lambda: tf.strings.ngrams(d, 2, padding_width=0,
                                                             pad_values="x"), message=True),
            "no_pad": catch(lambda: tf.strings.ngrams(d, 2, padding_width=1), message=True),
            "pad_type": catch(lambda: tf.strings.ngrams(d, 2, pad_values=3), message=True),
            "scalar": catch(lambda: tf.strings.ngrams(tf.constant("a"), 2), message=True)}


def case_unsorted_segment_join(tf):
    out = {
        "sep": tf.strings.unsorted_segment_join(["a", "b", "c", "d"], [0, 1, 0, 3], 5,
                                                separator=":"),
        "rows": tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [1, 0], 2),
        "ids2": tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [[0, 1], [1, 1]], 3,
                                                 separator="+"),
    }
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, out),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "unknown_num": describe(tf.strings.unsorted_segment_join(
                [["a", "b"]], [0], tf.placeholder(tf.int32, []))),
            "too_big": catch(run(tf.strings.unsorted_segment_join(["a", "b"], [0, 5], 2))),
            "negative": catch(run(tf.strings.unsorted_segment_join(["a", "b"], [0, -1], 2))),
            "prefix": catch(lambda: tf.strings.unsorted_segment_join(["a", "b"], [0, 1, 1], 2),
                            message=True)}


def case_decode_compressed(tf):
    import gzip
    import zlib
    big = zlib.compress(b"hello world" * 1000)
    inputs = {
        "zlib": (tf.constant([zlib.compress(b"hello"), zlib.compress(b"")]), "ZLIB"),
        "gzip": (tf.constant(gzip.compress(b"abc" * 10)), "GZIP"),
        "none": (tf.constant([[b"raw", b"x"]]), ""),
        "zlib_twice": (tf.constant(zlib.compress(b"a") + zlib.compress(b"b")), "ZLIB"),
        "zlib_trailing": (tf.constant(zlib.compress(b"a") + b"trailing"), "ZLIB"),
        "gzip_members": (tf.constant(gzip.compress(b"a") + gzip.compress(b"b")), "GZIP"),
        "truncated": (tf.constant([big[:20], big[:-4], zlib.compress(b"hello")[:-2]]),
                      "ZLIB"),
        "gzip_header_only": (tf.constant(gzip.compress(b"a")[:5]), "GZIP"),
        "empty": (tf.constant([b"", b""]), "GZIP"),
    }
    out = {k: tf.io.decode_compressed(v, c) for k, v, c in
           ((k, v, c) for k, (v, c) in sorted(inputs.items()))}
    bad = {
        "junk": (tf.constant(b"junk"), "ZLIB"),
        "gzip_as_zlib": (tf.constant(gzip.compress(b"x")), "ZLIB"),
        "zlib_as_gzip": (tf.constant(zlib.compress(b"q")), "GZIP"),
        "gzip_garbage": (tf.constant(gzip.compress(b"a") + b"garbage"), "GZIP"),
        "type": (tf.constant(b"x"), "BZ2"),
    }
    errors = {k: catch(lambda v=v, c=c: _run(tf, tf.decode_compressed(v, compression_type=c)))
              for k, (v, c) in sorted(bad.items())}
    fed = tf.placeholder(tf.string, [None, 3])
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "fed": describe(tf.decode_compressed(fed)), "errors": errors,
            "int": catch(lambda: tf.io.decode_compressed(tf.constant(1)), message=True)}


_JSON_EXAMPLES = [
    '{"features": {"feature": {"z": {"int64List": {"value": ["1", 2]}}, "a": {"floatList": '
    '{"value": [1.5, 2]}}, "m": {"bytesList": {"value": ["aGk="]}}}}}',
    '{}', '{"features": {}}', '{"features": {"feature": {}}}', '{"features": null}',
    '{"features": {"feature": {"b": {"float_list": {"value": [1e30, "NaN", 0.1]}}}}}',
    '{"features": {"feature": {"a": {}}}}', '{"features": {"feature": {"a": null}}}',
    '{"features": {"feature": {"a": {"int64List": {"value": null}}}}}',
    '{"features": {"feature": {"a": {"int64List": {"value": []}}}}}',
    '{"features": {"feature": {"a": {"int64List": {"value": 1}}}}}',
    '{"features": {"feature": {"a": {"int64List": {"value": ["-5", -9223372036854775808, '
    '300, "0x10"]}}}}}',
    '{"features": {"feature": {"a": {"floatList": {"value": ["1.5", "Infinity", '
    '"-Infinity", -0.0, 1, 3.4028235e38, 1e-50]}}}}}',
    '{"features": {"feature": {"a": {"bytesList": {"value": ["", "-_8", "+/8=", "aGk"]}}}}}',
    ' {"features" : {"feature": {"\u00e9": {"int64_list": {"value": [1.0, 1e2]}}}}} ',
    '{"features": {"feature": {"1": {}}}, "features": {}}',
]
_BAD_JSON_EXAMPLES = {
    "not_json": "not json", "empty": "", "array": "[]", "two": "{} {}",
    "features_int": '{"features": 1}', "unknown": '{"unknown": 1}',
    "fraction": '{"features": {"feature": {"a": {"int64List": {"value": [1.5]}}}}}',
    "float_range": '{"features": {"feature": {"b": {"floatList": {"value": [1e40]}}}}}',
    "int_range": '{"features": {"feature": {"a": {"int64List": {"value": '
                 '[9223372036854775808]}}}}}',
    "bool": '{"features": {"feature": {"a": {"int64List": {"value": [true]}}}}}',
    "base64": '{"features": {"feature": {"a": {"bytesList": {"value": ["***"]}}}}}',
    "dup_key": '{"features": {"feature": {"a": {"int64List": {"value": [1]}}, "a": '
               '{"int64List": {"value": [2]}}}}}',
    "oneof": '{"features": {"feature": {"a": {"int64List": {"value": [1]}}, '
             '"floatList": {"value": [2]}}}}}',
}


def case_decode_json_example(tf):
    out = tf.io.decode_json_example(_JSON_EXAMPLES)
    fed = tf.placeholder(tf.string, [2, None])
    vals = _run(tf, out)
    errors = {k: catch(lambda v=v: _run(tf, tf.decode_json_example(v)))
              for k, v in sorted(_BAD_JSON_EXAMPLES.items())}
    return {"hex": [bytes(v).hex() for v in vals], "shape": describe(out),
            "fed": describe(tf.io.decode_json_example(fed, name="js")), "errors": errors,
            "int": catch(lambda: tf.io.decode_json_example(tf.constant(1)), message=True)}
