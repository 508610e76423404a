"""Eager golden cases: string ops executed eagerly and inside tf.data map functions."""

from tests.golden.harness import catch


def case_string_ops_eager(tf):
    s = tf.constant(["1.5,2", "x y", "\u00e9A"])
    out = {
        "join": tf.strings.join([s, "!"], separator="|").numpy(),
        "length": tf.strings.length(s, unit="UTF8_CHAR").numpy(),
        "substr": tf.substr(s, 0, 2).numpy(),
        "upper": tf.strings.upper(s).numpy(),
        "replace": tf.regex_replace(s, r"(\w)", r"<\1>").numpy(),
        "match": tf.strings.regex_full_match(s, "[0-9.,]+").numpy(),
        "hash": tf.string_to_hash_bucket_fast(s, 1000).numpy(),
        "b64": tf.encode_base64(s).numpy(),
        "as_string": tf.as_string(tf.constant([1.25, -3.0]), precision=1).numpy(),
        "number": tf.string_to_number(tf.constant(["2.5", "-1"])).numpy(),
        "scalar": tf.strings.strip(tf.constant("  pad  ")).numpy(),
        "bad": catch(lambda: tf.string_to_number(tf.constant("abc")).numpy()),
    }
    sp = tf.string_split(tf.constant(["a b", "c"]))
    out["split"] = [sp.indices.numpy(), sp.values.numpy(), sp.dense_shape.numpy()]
    ds = tf.data.Dataset.from_tensor_slices(["1,2", "3,4.5"]).map(
        lambda line: tf.string_to_number(tf.string_split([line], ",").values))
    out["dataset"] = [x.numpy() for x in ds]
    return out


def case_string_tensor_as_numpy_array(tf):
    """np.asarray / np.array of string tensors are object arrays of bytes (scalars too)."""
    import numpy as np
    scalar = tf.constant("ab")
    vector = tf.constant(["ab", "c"])
    return {"scalar": [np.asarray(scalar).dtype.str, np.asarray(scalar).shape,
                       np.asarray(scalar)[()]],
            "array": np.array(scalar).dtype.str,
            "vector": [np.asarray(vector).dtype.str, list(np.asarray(vector))],
            "numpy": [type(scalar.numpy()).__name__, scalar.numpy()],
            "float": np.asarray(tf.constant(1.5)).dtype.str}
