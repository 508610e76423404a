"""Golden cases: DType objects and TensorShape/Dimension behaviour."""

import numpy as np

from tests.golden.harness import catch

NAMES = ["float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128",
         "qint8", "quint8", "qint32", "resource", "variant"]


def case_dtype_properties(tf):
    out = {}
    for name in NAMES:
        d = getattr(tf, name)
        out[name] = {
            "repr": repr(d), "str": str(d), "enum": d.as_datatype_enum, "size": d.size,
            "floating": d.is_floating, "integer": d.is_integer, "complex": d.is_complex,
            "quantized": d.is_quantized, "unsigned": d.is_unsigned, "bool": d.is_bool,
            "numeric": d.is_numeric, "ref": d._as_ref.name, "base": d._as_ref.base_dtype.name,
            "real": d.real_dtype.name,
            "min": catch(lambda: float(d.min) if d.is_floating else int(d.min)),
            "max": catch(lambda: float(d.max) if d.is_floating else int(d.max)),
        }
        if name not in ("bfloat16", "resource", "variant") and not d.is_quantized:
            out[name]["numpy"] = np.dtype(d.as_numpy_dtype).name
    return out


def case_as_dtype(tf):
    inputs = ["float", "half", "double", "float32", "int64", "string", "float32_ref", 1, 9,
              np.float32, np.int64, np.bool_, np.dtype("int8"), float, bool, np.str_, np.bytes_,
              object]
    out = [tf.as_dtype(v).name for v in inputs]
    out.append(catch(lambda: tf.as_dtype("int")))
    out.append(catch(lambda: tf.as_dtype(int)))
    out.append(catch(lambda: tf.as_dtype(1000)))
    return out


def case_dtype_equality(tf):
    f = tf.float32
    return [f == "float32", f == np.float32, f == tf.float32._as_ref, f != tf.float64,
            f == None, f.is_compatible_with(f._as_ref), f._as_ref.is_compatible_with(f),  # noqa: E711
            hash(f) == hash(tf.as_dtype("float32")), tf.int32.limits,
            tf.float32.is_compatible_with(tf.float64)]


def case_tensor_shape_basics(tf):
    s = tf.TensorShape([None, 3])
    u = tf.TensorShape(None)
    return {
        "repr": repr(s), "str": str(s), "dims": [repr(d) for d in s.dims], "ndims": s.ndims,
        "rank": s.rank, "as_list": s.as_list(), "len": len(s), "getitem": repr(s[1]),
        "slice": repr(s[1:]), "value": s[1].value, "unk_value": s[0].value,
        "iter": [str(d) for d in s], "fully": s.is_fully_defined(),
        "num": s.num_elements(), "num_full": tf.TensorShape([2, 3]).num_elements(),
        "u_repr": repr(u), "u_str": str(u), "u_rank": u.ndims, "u_dims": u.dims,
        "scalar": str(tf.TensorShape([])), "vec": str(tf.TensorShape([5])),
        "u_as_list": catch(lambda: u.as_list(), message=True),
        "u_len": catch(lambda: len(u), message=True), "u_slice": repr(u[1:3]),
        "eq": [s == tf.TensorShape([None, 3]), s == [None, 3], s != [None, 3],
               u == tf.TensorShape(None)],
    }


def case_tensor_shape_ops(tf):
    s = tf.TensorShape([None, 3])
    return {
        "merge": repr(s.merge_with([2, None])),
        "merge_bad": catch(lambda: s.merge_with([2, 4]), message=True),
        "merge_rank": catch(lambda: s.merge_with([2])),
        "compat": [s.is_compatible_with([5, 3]), s.is_compatible_with([5, 4]),
                   s.is_compatible_with(None), s.is_compatible_with([1, 2, 3])],
        "assert_compat": catch(lambda: s.assert_is_compatible_with([1, 2]), message=True),
        "concat": repr(s.concatenate([4])), "concat_unknown": repr(s.concatenate(None)),
        "with_rank": repr(s.with_rank(2)), "with_rank_bad": catch(lambda: s.with_rank(3),
                                                                   message=True),
        "at_least": catch(lambda: s.with_rank_at_least(3), message=True),
        "at_most": repr(s.with_rank_at_most(3)),
        "msc": repr(s.most_specific_compatible_shape([2, 3])),
        "unknown_shape": repr(tf.TensorShape(None).merge_with([1, 2])),
        "dim_errors": [catch(lambda: tf.Dimension(-1), message=True),
                       catch(lambda: tf.TensorShape([1.5]))],
        "dimension_value": [tf.dimension_value(s[0]), tf.dimension_value(s[1]),
                            tf.dimension_value(3)],
        "dimension_at_index": str(tf.dimension_at_index(s, 1)),
    }


def case_dimension_arithmetic(tf):
    D = tf.Dimension
    return {
        "add": repr(D(3) + D(4)), "add_unknown": repr(D(3) + D(None)), "mul": repr(D(3) * 2),
        "radd": repr(2 + D(3)), "floordiv": repr(D(7) // 2), "mod": repr(D(7) % 4),
        "sub": repr(D(7) - 2), "eq": [D(3) == 3, D(None) == D(None), D(3) != 4,
                                      D(None) != 3],
        "lt": [D(3) < 4, D(None) < 4, D(3) >= 3], "str": [str(D(None)), str(D(4))],
        "int": int(D(5)), "merge": repr(D(None).merge_with(4)),
        "merge_bad": catch(lambda: D(3).merge_with(4), message=True),
        "compat": [D(3).is_compatible_with(D(None)), D(3).is_compatible_with(4)],
    }


def case_static_vs_dynamic_shape(tf):
    x = tf.placeholder(tf.float32, [None, 3])
    with tf.Session() as sess:
        dyn = sess.run(tf.shape(x), {x: np.zeros((4, 3))})
    y = tf.placeholder(tf.float32)
    y.set_shape([None, 2])
    z = tf.placeholder(tf.float32, [None, 2])
    z.set_shape([5, None])
    return {"static": x.shape.as_list(), "get_shape": x.get_shape().as_list(),
            "dynamic": dyn, "set_shape": y.shape.as_list(), "merged": z.shape.as_list(),
            "bad_set": catch(lambda: z.set_shape([4, 2]), message=True),
            "dim0": repr(x.shape[0]), "dim1_value": x.get_shape()[1].value}


def case_conversion_errors(tf):
    """Values an op input or tf.constant cannot take: TF's error classes and messages."""
    x = tf.constant([1.0, 2.0])
    probes = {
        "none_to_typed_input": lambda: tf.raw_ops.ReverseV2(tensor=x, axis=None),
        "none_to_add": lambda: tf.add(None, 1.0),
        "float_shape": lambda: tf.reshape(x, [2.5]),
        "string_to_float": lambda: tf.add(x, "a"),
        "int_tensor_to_float": lambda: tf.add(x, tf.constant(1)),
        "int_too_big": lambda: tf.constant(2 ** 70),
        "int_list_too_big": lambda: tf.constant([1, 2 ** 64]),
        "int_too_small": lambda: tf.constant(-2 ** 63 - 1),
        "uint64_fits": lambda: tf.constant(2 ** 63).dtype.name,
        "fill_too_big": lambda: tf.fill([2], 2 ** 64),
    }
    return {k: catch(f, message=True) for k, f in probes.items()}
