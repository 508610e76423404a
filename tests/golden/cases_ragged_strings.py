"""Golden cases: tf.strings.* given RaggedTensors (TF's ragged dispatch of the elementwise
string ops: substr, length, regex_replace, strip, to_number, to_hash_bucket_fast, upper,
join), tf.strings.reduce_join over ragged axes, and tf.strings.unicode_decode /
unicode_split (with offsets) returning RaggedTensors for inputs of rank 1 and more or
ragged inputs."""

from tests.golden.harness import catch
from tests.golden.ragged_fetch import fetch


def case_elementwise_strings(tf):
    s = tf.ragged.constant([["hello", " world "], [], ["a1", "b22", "c333"]])
    out = {"substr": tf.strings.substr(s, 0, 2), "substr_v1": tf.substr(s, 1, 3),
           "length": tf.strings.length(s), "length_char": tf.strings.length(
               s, unit="UTF8_CHAR"),
           "regex_replace": tf.strings.regex_replace(s, "[0-9]", "#"),
           "regex_full_match": tf.strings.regex_full_match(s, "[a-c][0-9]+"),
           "strip": tf.strings.strip(s), "upper": tf.strings.upper(s),
           "hash_fast": tf.strings.to_hash_bucket_fast(s, 10),
           "join": tf.strings.join([s, s], separator="-"),
           "join_dense": tf.strings.join([s, "!"]),
           "as_string": tf.as_string(tf.ragged.constant([[1, 2], [3]]))}
    return fetch(tf, out)


def case_string_errors(tf):
    nums = tf.ragged.constant([["1.5", "2"], ["-3"]])
    # TF 2.21's compat.v1 to_number (string_to_number v1) is not dispatched for ragged.
    return {"to_number": catch(lambda: tf.strings.to_number(nums)),
            "dense_unchanged": catch(lambda: tf.strings.length(["ab"]).shape.as_list())}


def case_reduce_join(tf):
    s = tf.ragged.constant([["a", "b"], [], ["c", "d", "e"]])
    n = tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]])
    out = {"axis_1": tf.strings.reduce_join(s, axis=1),
           "axis_1_sep": tf.strings.reduce_join(s, 1, separator="+"),
           "axis_0": tf.strings.reduce_join(s, axis=0, separator=","),
           "all": tf.strings.reduce_join(s, separator="."),
           "nested_2": tf.strings.reduce_join(n, axis=2),
           "nested_1": tf.strings.reduce_join(n, axis=1, separator="|"),
           "tf1_reduce_join": tf.reduce_join(s, 1, separator=" ")}
    return fetch(tf, out)


def case_unicode(tf):
    words = tf.constant([u"héllo".encode("utf-8"), b"", u"ab\u20ac".encode("utf-8")])
    grid = tf.constant([[b"ab", b"c"], [b"", u"\u00e9".encode("utf-8")]])
    rt = tf.ragged.constant([[b"xy"], [], [b"z", u"\u00fc".encode("utf-8")]])
    decoded, offsets = tf.strings.unicode_decode_with_offsets(words, "UTF-8")
    chars, starts = tf.strings.unicode_split_with_offsets(words, "UTF-8")
    out = {"decode": tf.strings.unicode_decode(words, "UTF-8"),
           "decode_2d": tf.strings.unicode_decode(grid, "UTF-8"),
           "decode_ragged": tf.strings.unicode_decode(rt, "UTF-8"),
           "decode_scalar": tf.strings.unicode_decode(u"h\u00e9".encode("utf-8"), "UTF-8"),
           "decode_offsets": decoded, "offsets": offsets,
           "split": tf.strings.unicode_split(words, "UTF-8"),
           "split_2d": tf.strings.unicode_split(grid, "UTF-8"),
           "split_ragged": tf.strings.unicode_split(rt, "UTF-8"),
           "split_chars": chars, "split_starts": starts,
           "decode_replace": tf.strings.unicode_decode(
               tf.constant([b"a\xffb"]), "UTF-8", errors="replace", replacement_char=63)}
    return fetch(tf, out)
