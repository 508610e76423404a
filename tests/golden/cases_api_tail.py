"""Golden cases for the last names of TF's compat.v1 namespace (issue 12): tf.NoGradient,
tf.NameAttrList, tf.make_tensor_proto / tf.make_ndarray."""

from __future__ import annotations

import uuid

import numpy as np

from tests.golden.harness import catch, tolerance


def case_no_gradient_alias(tf):
    x = tf.placeholder(tf.float32, [3])
    # A name of its own per run: registering a name twice is a KeyError (TF's too), and the
    # plain and checked golden tests run this case in one process.
    op_type = f"ApiTailNoGrad{uuid.uuid4().hex}"
    tf.NoGradient(op_type)
    with tf.get_default_graph().gradient_override_map({"Tanh": op_type}):
        y = tf.tanh(x)
    return {"same": tf.NoGradient is tf.NotDifferentiable,
            "grad": tf.gradients(y, x) == [None],
            "not_string": catch(lambda: tf.NoGradient(3), message=True)}


def case_name_attr_list(tf):
    msg = tf.NameAttrList(name="f")
    msg.attr["T"].type = tf.float32.as_datatype_enum
    msg.attr["n"].i = 3
    data = msg.SerializeToString(deterministic=True)
    back = tf.NameAttrList.FromString(data)
    return {"full_name": tf.NameAttrList.DESCRIPTOR.full_name,
            "fields": [[f.name, f.number] for f in tf.NameAttrList.DESCRIPTOR.fields],
            "bytes": np.frombuffer(data, np.uint8),
            "name": back.name, "n": back.attr["n"].i,
            "bad_field": catch(lambda: tf.NameAttrList(nope=1))}


def _proto(tf, *args, **kwargs):
    """A TensorProto as its deterministic bytes, its text form and its make_ndarray value."""
    proto = tf.make_tensor_proto(*args, **kwargs)
    back = tf.make_ndarray(proto)
    return {"type": type(proto).__name__, "text": str(proto),
            "bytes": np.frombuffer(proto.SerializeToString(deterministic=True), np.uint8),
            "value": back, "dtype": str(back.dtype), "shape": list(back.shape)}


def case_make_tensor_proto_inference(tf):
    return {
        "ints": _proto(tf, [1, 2, 3]),
        "big_int": _proto(tf, [1, 2 ** 40]),
        "floats": _proto(tf, [[1.5, 2.0], [3.0, 4.0]]),
        "scalar": _proto(tf, 7),
        "float_scalar": _proto(tf, 2.5),
        "bools": _proto(tf, [True, False, True]),
        "strings": _proto(tf, ["a", b"bc", "d\u00e9"]),
        "np_f64": _proto(tf, np.array([1.0, 2.0])),
        "np_int64": _proto(tf, np.array([1, 2], np.int64)),
        "np_uint8": _proto(tf, np.arange(4, dtype=np.uint8).reshape(2, 2)),
        "np_f16": _proto(tf, np.array([0.5, 1.5], np.float16)),
        "np_scalar": _proto(tf, np.float32(3.25)),
        "complex": _proto(tf, np.array([1 + 2j, 3 - 1j], np.complex64)),
        "empty": _proto(tf, []),
        "dtype_cast": _proto(tf, [1, 2], dtype=tf.float64),
        "np_cast": _proto(tf, np.array([1.7, -2.2]), dtype=tf.int32),
        "dtype_string_name": _proto(tf, [3], dtype="int64"),
    }


def case_make_tensor_proto_shapes(tf):
    return {
        "fill": _proto(tf, 1.5, shape=[2, 3]),
        "pad_last": _proto(tf, [1, 2], shape=[2, 2]),
        "reshape": _proto(tf, [1, 2, 3, 4], shape=[2, 2]),
        "tensor_shape": _proto(tf, [1, 2], shape=tf.TensorShape([2])),
        "zero_size": _proto(tf, 5, shape=[0, 3]),
        "zero_size_junk": _proto(tf, [[1, 2], [3]], shape=[2, 0]),
        "string_fill": _proto(tf, "x", shape=[3]),
        "verify_ok": _proto(tf, [[1, 2]], shape=[1, 2], verify_shape=True),
        "broadcast_one": _proto(tf, [4], shape=[2, 2], allow_broadcast=True),
        "broadcast_same": _proto(tf, [1, 2, 3, 4], shape=[4], allow_broadcast=True),
        "too_many": catch(lambda: tf.make_tensor_proto([1, 2, 3], shape=[2]), message=True),
        "verify_bad": catch(lambda: tf.make_tensor_proto([1, 2], shape=[2, 1],
                                                         verify_shape=True), message=True),
        "broadcast_bad": catch(lambda: tf.make_tensor_proto([1, 2], shape=[2, 2],
                                                            allow_broadcast=True),
                               message=True),
        "both_flags": catch(lambda: tf.make_tensor_proto(1, shape=[1], verify_shape=True,
                                                         allow_broadcast=True), message=True),
    }


def case_make_tensor_proto_errors(tf):
    return {
        "none": catch(lambda: tf.make_tensor_proto(None), message=True),
        "float_to_int": catch(lambda: tf.make_tensor_proto([1.5], dtype=tf.int32)),
        "str_to_float": catch(lambda: tf.make_tensor_proto(["a"], dtype=tf.float32)),
        "ragged": catch(lambda: tf.make_tensor_proto([[1, 2], [3]])),
        "proto_passthrough": tf.make_tensor_proto(tf.make_tensor_proto([1, 2])).dtype,
    }


def case_make_ndarray_roundtrip(tf):
    g = tf.Graph()
    with g.as_default():
        c = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="c")
        z = tf.zeros([2, 3], tf.int64, name="z")
    graph_def = tf.GraphDef.FromString(g.as_graph_def().SerializeToString())
    nodes = {n.name: n for n in graph_def.node}
    from_graph = {name: tf.make_ndarray(nodes[name].attr["value"].tensor)
                  for name in ("c", "z")}
    proto = tf.make_tensor_proto([1, 2], shape=[3])
    with tf.Session() as sess:
        fed = sess.run(tf.constant(tf.make_ndarray(proto)) * 2)
    return {"from_graph": from_graph, "fed": fed,
            "nested": tf.make_ndarray(tf.make_tensor_proto([[5, 6]])),
            "writable": bool(tf.make_ndarray(tf.make_tensor_proto(1, shape=[4])).flags.writeable)}


def _wav_errors(tf, sess, blobs):
    contents = tf.placeholder(tf.string, [])
    decoded = tf.audio.decode_wav(contents)
    return {k: catch(lambda v=v: sess.run(decoded.audio, {contents: v})) for k, v in blobs.items()}


def case_audio_wav_roundtrip(tf):
    audio = np.array([[0.0, 1.0], [-1.0, 0.5], [2.0, -2.0], [1.5e-5, -1.6e-5],
                      [np.nan, np.inf], [-np.inf, 0.3]], np.float32)
    x = tf.placeholder(tf.float32, [None, 2])
    rate = tf.placeholder(tf.int32, [])
    wav = tf.audio.encode_wav(x, rate)
    back = tf.audio.decode_wav(wav)
    padded = tf.audio.decode_wav(wav, desired_channels=3, desired_samples=8, name="padded")
    with tf.Session() as sess:
        data, decoded, out_rate, pad = sess.run([wav, back.audio, back.sample_rate,
                                                 padded.audio], {x: audio, rate: 22050})
        blob = bytes(data)
        errors = _wav_errors(tf, sess, {
            "empty": b"", "not_riff": b"RIFX" + blob[4:], "truncated": blob[:-2],
            "trailing_byte": blob + b"\x01", "no_data": blob[:36],
            "two_data": blob + blob[36:],
            "list_chunk": blob[:36] + b"LIST\x04\x00\x00\x00abcd" + blob[36:],
        })
        bad_rate = catch(lambda: sess.run(wav, {x: audio, rate: -5}))
        no_channels = catch(lambda: sess.run(wav, {x: np.zeros([3, 0], np.float32),
                                                   rate: 8000}))
    return {"bytes": np.frombuffer(blob, np.uint8), "decoded": decoded, "rate": out_rate,
            "padded": pad, "tuple": [type(back).__name__, list(back._fields)],
            "static": [str(back.audio.shape), str(padded.audio.shape), padded.audio.name,
                       back.sample_rate.dtype.name, str(wav.shape)],
            "errors": errors, "bad_rate": bad_rate, "no_channels": no_channels,
            "bad_rank": catch(lambda: tf.audio.encode_wav(np.zeros([3], np.float32), 8000)),
            "bad_desired": catch(lambda: tf.audio.decode_wav(wav, desired_samples=-3))}


def _image(shape, dtype=np.uint8):
    rng = np.random.RandomState(7)
    smooth = np.linspace(0, 255, shape[0] * shape[1]).reshape(shape[0], shape[1], 1)
    noise = rng.randint(0, 40, size=shape)
    return np.clip(smooth + noise, 0, 255).astype(dtype)


def case_adjust_jpeg_quality(tf):
    # INTEGER_ACCURATE decodes with libjpeg's ISLOW IDCT, which Pillow also runs: TF's pixels
    rgb = _image((16, 24, 3))
    gray = _image((9, 13, 1))
    x = tf.placeholder(tf.uint8, [None, None, 3])
    q = tf.placeholder(tf.int32, [])
    accurate = "INTEGER_ACCURATE"
    low = tf.image.adjust_jpeg_quality(x, 10, dct_method=accurate)
    fed = tf.image.adjust_jpeg_quality(x, q, dct_method=accurate, name="fed_quality")
    as_float = tf.image.adjust_jpeg_quality(tf.constant(rgb.astype(np.float32) / 255.0), 75,
                                            dct_method=accurate)
    one_channel = tf.image.adjust_jpeg_quality(tf.constant(gray), 50)
    with tf.Session() as sess:
        out = sess.run({"low": low, "fed": fed, "float": as_float, "gray": one_channel},
                       {x: rgb, q: 90})
        bad_quality = catch(lambda: sess.run(fed, {x: rgb, q: 101}))
    return {"values": out, "names": [low.name, fed.name], "dtypes": [as_float.dtype.name],
            "shapes": [str(low.shape), str(one_channel.shape)], "bad_quality": bad_quality,
            "two_channels": catch(lambda: tf.Session().run(
                tf.image.adjust_jpeg_quality(np.zeros([4, 4, 2], np.uint8), 50)))}


@tolerance(rtol=0.0, atol=3.0)
def case_jpeg_quality_default_idct(tf):
    # TF's default IDCT (IFAST with fancy upsampling) has no Pillow equivalent: colour
    # pixels come out within 3 levels of TF's (docs/data.md)
    rgb = _image((8, 8, 3))
    adjusted = tf.image.adjust_jpeg_quality(tf.constant(rgb), 30)
    out = tf.image.random_jpeg_quality(tf.constant(rgb), 20, 21, seed=3)
    with tf.Session() as sess:
        adjusted_value, value = sess.run([adjusted, out])
    # as floats: the harness compares integer arrays exactly, floats within the tolerance
    return {"adjusted": adjusted_value.astype(np.float32), "value": value.astype(np.float32),
            "dtype": value.dtype.name, "name": out.name,
            "shape": str(out.shape),
            "range": catch(lambda: tf.image.random_jpeg_quality(rgb, -1, 50), message=True),
            "order": catch(lambda: tf.image.random_jpeg_quality(rgb, 50, 50), message=True)}


def case_session_handles(tf):
    a = tf.constant(10.0)
    c = tf.multiply(a, 5.0)
    h = tf.get_session_handle(c)
    out = {"static": [h.name, h.dtype.name, str(h.shape), h.op.type]}
    with tf.Session() as sess:
        first = sess.run(h)
        holder, x = tf.get_session_tensor(first.handle, tf.float32)
        y = x * 2
        h2 = tf.get_session_handle(y)
        second = sess.run(h2, {holder: first.handle})
        f = tf.placeholder(tf.float32)
        out.update({
            "handle": [type(first).__name__, first.handle, str(first), second.handle],
            "eval": first.eval(), "fed_string": sess.run(y, {holder: first.handle}),
            "chained": sess.run(y, {holder: second.handle}),
            "fed_handle_object": sess.run(f + 1, {f: first}),
            "reader": [holder.name, holder.op.type, x.name, x.op.type, str(x.shape),
                       x.device],
            "with_value": [type(v).__name__ for v in sess.run([h, c])]})
        del_holder, deleter = tf.delete_session_tensor(first.handle)
        out["deleter"] = [del_holder.name, deleter.name, deleter.type,
                          sess.run(deleter, {del_holder: first.handle})]
        out["read_deleted"] = catch(lambda: sess.run(y, {holder: first.handle}))
        out["delete_twice"] = catch(lambda: sess.run(deleter, {del_holder: first.handle}))
        with tf.Session() as other:
            out["other_session"] = catch(lambda: other.run(y, {holder: second.handle}))
        second.delete()
        out["eval_deleted"] = catch(second.eval)
    out["not_tensor"] = catch(lambda: tf.get_session_handle(3), message=True)
    return out
