"""Golden cases: the last TF 1.x names of issue 12 — tf.io/tf.image.decode_webp (WebP
files made with Pillow: scripts/record_image_fixtures.py), tf.dtypes.experimental casts,
tf.keras.backend.ctc_decode, tf.CriticalSection, tf.lookup.experimental's mutable tables,
tf.io.decode_proto/encode_proto."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, describe

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "images")


def _read(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def _run_each(tf, ops):
    """Each op run on its own: its value, or the error class and message."""
    out = {}
    with tf.Session() as sess:
        for key, op in ops.items():
            out[key] = catch(lambda: sess.run(op), message=False)
            if "error" in out[key]:
                try:
                    sess.run(op)
                except Exception as e:  # noqa: BLE001 - the message is the record
                    out[key]["message"] = getattr(e, "message", str(e)).split("\n")[-2:]
                    out[key]["message"] = [m for m in out[key]["message"]
                                           if not m.strip().startswith("[[")]
    return out


# -- WebP ---------------------------------------------------------------------------------------

def case_decode_webp_graph(tf):
    p = tf.placeholder(tf.string, [])
    ops = [tf.io.decode_webp(p), tf.image.decode_webp(p, channels=3),
           tf.io.decode_webp(p, channels=4, name="rgba")]
    return {"ops": [describe(t) for t in ops], "types": [t.op.type for t in ops],
            "attrs": [ops[1].op.get_attr("channels"), ops[0].op.get_attr("dtype").name],
            "rank": catch(lambda: tf.io.decode_webp([p])),
            "dtype": catch(lambda: tf.io.decode_webp(p, dtype=tf.float32))}


def case_decode_webp_values(tf):
    ops = {}
    for name in ("pil_rgb_lossless.webp", "pil_rgb_lossy.webp", "pil_rgba_lossless.webp",
                 "pil_anim_rgba.webp"):
        data = tf.constant(_read(name))
        for channels in (0, 3, 4):
            ops[f"{name}/{channels}"] = tf.io.decode_webp(data, channels=channels)
        ops[f"{name}/png"] = tf.image.decode_png(data)
        ops[f"{name}/image"] = tf.image.decode_image(data)
        ops[f"{name}/image_first"] = tf.image.decode_image(data, expand_animations=False)
    return _run_each(tf, ops)


def case_decode_webp_errors(tf):
    still = tf.constant(_read("pil_rgb_lossless.webp"))
    ops = {"channels_1": tf.io.decode_webp(still, channels=1),
           "channels_2": tf.io.decode_webp(still, channels=2),
           "image_float": tf.image.decode_image(still, dtype=tf.float32),
           "image_rgba": tf.image.decode_image(still, channels=4),
           "truncated": tf.io.decode_webp(_read("pil_rgb_lossless.webp")[:40]),
           "empty": tf.io.decode_webp(b""),
           "not_webp": tf.io.decode_webp(b"hello world"),
           "anim_rgb_3": tf.io.decode_webp(_read("pil_anim_rgb.webp"), channels=3),
           "png_data": tf.io.decode_webp(tf.image.encode_png(tf.zeros([2, 3, 3],
                                                                      tf.uint8)))}
    return _run_each(tf, ops)


# -- tf.keras.backend.ctc_decode -----------------------------------------------------------------

def _ctc_inputs():
    rng = np.random.RandomState(3)
    logits = rng.randn(3, 6, 5).astype(np.float32)
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    return probs, np.array([6, 4, 1], np.int32)


def case_keras_ctc_decode(tf):
    K = tf.keras.backend
    probs, lengths = _ctc_inputs()
    y_pred = tf.placeholder(tf.float32, [None, None, 5])
    length = tf.placeholder(tf.int32, [None])
    greedy, greedy_scores = K.ctc_decode(y_pred, length)
    beam, beam_scores = K.ctc_decode(y_pred, length, greedy=False, beam_width=4, top_paths=3)
    with tf.Session() as sess:
        values = sess.run({"greedy": greedy, "greedy_scores": greedy_scores, "beam": beam,
                           "beam_scores": beam_scores}, {y_pred: probs, length: lengths})
    return {"values": values, "greedy": [describe(t) for t in greedy + [greedy_scores]],
            "beam": [describe(t) for t in beam + [beam_scores]]}


# -- tf.dtypes.experimental ---------------------------------------------------------------------

_WIDE = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
         "int32", "uint32", "int64", "uint64", "bool")
_NARROW = ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
           "float8_e4m3b11fnuz", "float4_e2m1fn", "int4", "uint4", "int2", "uint2")


def case_experimental_dtypes(tf):
    out = {}
    for name in _NARROW:
        d = getattr(tf.dtypes.experimental, name)
        out[name] = {"name": d.name, "enum": d.as_datatype_enum, "size": d.size,
                     "floating": d.is_floating, "integer": d.is_integer,
                     "unsigned": d.is_unsigned, "min": float(d.min), "max": float(d.max),
                     "repr": repr(d), "str": str(d), "as_dtype": tf.as_dtype(name).name,
                     "ref": d._as_ref.name, "placeholder": describe(tf.placeholder(d, [2]))}
    return out


def case_experimental_dtype_cast_support(tf):
    """Which casts TF's Cast kernel runs (values from a float or int source)."""
    out = {}
    with tf.Session() as sess:
        for narrow in _NARROW:
            d = getattr(tf.dtypes.experimental, narrow)
            for wide in _WIDE + _NARROW:
                w = getattr(tf.dtypes.experimental, wide, None) or tf.as_dtype(wide)
                source = tf.constant([1.0, 2.0]) if (narrow.startswith("float") or
                                                     w.is_floating) else tf.constant([1, 2])
                if w.is_floating and not source.dtype.is_floating:
                    source = tf.cast(source, tf.float32)
                for key, fn in ((f"{wide}->{narrow}", lambda: tf.cast(tf.cast(source, w), d)),
                                (f"{narrow}->{wide}", lambda: tf.cast(tf.cast(source, d), w))):
                    try:
                        sess.run(fn().op)       # (float8 values need ml_dtypes in numpy)
                        out[key] = "ok"
                    except Exception as e:  # noqa: BLE001 - the class is the record
                        out[key] = type(e).__name__
    return out


def case_experimental_dtype_cast_values(tf):
    E = tf.dtypes.experimental
    floats = tf.constant([0.3, -0.7, 1.0, 300.0, 460.0, 464.0, 470.0, 1e6, -1e6, 1e-9,
                          0.0009765625, 0.00146484375, 57344.0, 61440.0, 65536.0,
                          float("inf"), float("-inf"), float("nan")])
    ints = tf.constant([0, 1, -3, 7, 8, -8, -9, 15, 16, 17, 200, -200], tf.int32)
    out = {}
    with tf.Session() as sess:
        for name in ("float8_e4m3fn", "float8_e5m2"):
            d = getattr(E, name)
            narrow = tf.cast(floats, d)
            out[name] = sess.run({"f32": tf.cast(narrow, tf.float32),
                                  "f64": tf.cast(tf.cast(tf.cast(floats, tf.float64), d),
                                                 tf.float64),
                                  "f16": tf.cast(tf.cast(tf.cast(floats, tf.float16), d),
                                                 tf.float16)})
            out[name + "_op"] = [narrow.op.type, narrow.op.get_attr("DstT").name,
                                 describe(narrow)]
        for name in ("int4", "uint4"):
            d = getattr(E, name)
            out[name] = sess.run({"i32": tf.cast(tf.cast(ints, d), tf.int32),
                                  "i64": tf.cast(tf.cast(tf.cast(ints, tf.int64), d),
                                                 tf.int64),
                                  "u8": tf.cast(tf.cast(tf.cast(ints, tf.uint8), d),
                                                tf.uint8),
                                  "other": tf.cast(tf.cast(tf.cast(ints, d),
                                                           E.uint4 if name == "int4"
                                                           else E.int4), tf.int32)})
    return out


# -- tf.layers.experimental ---------------------------------------------------------------------

def case_layers_keras_style_scope(tf):
    x = tf.placeholder(tf.float32, [None, 3])
    out = {}
    with tf.layers.experimental.keras_style_scope():
        d1 = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer())
        d2 = tf.layers.Dense(2, name="named")
        with tf.variable_scope("outer"):
            y1 = d1(x)
            y1b = d1(x)
            y2 = d2(x)
        with tf.variable_scope("outer", reuse=True):
            d3 = tf.layers.Dense(2)
            y3 = d3(x)
        out["scope_arg"] = catch(lambda: tf.layers.Dense(2, _scope="s"), message=True)
        out["reuse_arg"] = catch(lambda: tf.layers.Dense(2, _reuse=True), message=True)
        out["keras_style"] = d1._keras_style
        out["layer_names"] = [d1.name, d2.name, d3.name]
    outside = tf.layers.Dense(2)
    outside(x)
    out["outside"] = [outside._keras_style, outside.name]
    out["variables"] = [v.name for v in tf.global_variables()]
    out["trainable"] = [v.name for v in d1.trainable_weights]
    out["outputs"] = [describe(t) for t in (y1, y1b, y2, y3)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["value"] = sess.run(y1, {x: np.ones((1, 3), np.float32)})
    return out


def case_layers_set_keras_style(tf):
    # The module-level switch of TF (_KERAS_STYLE_SCOPE) or tf1compat (_KERAS_STYLE),
    # reset afterwards so later cases get TF1-style layers.
    switch = tf.layers.experimental.set_keras_style.__globals__
    key = "_KERAS_STYLE_SCOPE" if "_KERAS_STYLE_SCOPE" in switch else "_KERAS_STYLE"
    x = tf.placeholder(tf.float32, [None, 3])
    try:
        tf.layers.experimental.set_keras_style()
        d = tf.layers.Dense(2)
        y = d(x)
        return {"style": d._keras_style, "vars": [v.name for v in tf.global_variables()],
                "out": describe(y)}
    finally:
        switch[key] = False


# -- tf.lookup.experimental ---------------------------------------------------------------------

def case_mutable_hash_table(tf):
    L = tf.lookup.experimental
    table = L.MutableHashTable(tf.string, tf.int64, -1)
    vec = L.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0], name="vec")
    insert = table.insert(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
    find = table.lookup(tf.constant([["a", "z"], ["c", "b"]]))
    remove = table.remove(tf.constant(["b"]))
    size = table.size()
    keys, values = table.export()
    vec_insert = vec.insert(tf.constant([1, 2], tf.int64), [[1.0, 2.0], [3.0, 4.0]])
    vec_find = vec.lookup(tf.constant([2, 5], tf.int64))
    bad = table.insert(tf.constant(["x", "y"]), tf.constant([1], tf.int64))
    out = {"graph": {"types": [table.resource_handle.op.type, vec.resource_handle.op.type,
                               insert.type, remove.type],
                     "names": [table.name, vec.name, insert.name, remove.name],
                     "tensors": [describe(t) for t in (find, size, keys, values, vec_find)]},
           "key_type": catch(lambda: table.lookup(tf.constant([1, 2], tf.int64)))}
    saver = tf.train.Saver()
    prefix = os.path.join(tempfile.mkdtemp(), "tables.ckpt")
    with tf.Session() as sess:
        out["empty_size"] = sess.run(size)
        sess.run([insert, vec_insert])
        out["find"] = sess.run(find)
        sess.run(remove)
        out["after_remove"] = sess.run([size, find, vec_find])
        k, v = sess.run([keys, values])
        out["export"] = sorted(zip(k.tolist(), v.tolist()))
        out["bad"] = catch(lambda: sess.run(bad))
        saver.save(sess, prefix)
    out["checkpoint"] = tf.train.list_variables(prefix)
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        out["restored"] = sess.run([size, find, vec_find])
    return out


def case_dense_hash_table(tf):
    L = tf.lookup.experimental
    table = L.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0,
                             deleted_key=-1, initial_num_buckets=8)
    insert = table.insert(tf.constant([5, 6, 7], tf.int64), tf.constant([50, 60, 70], tf.int64))
    find = table.lookup(tf.constant([5, 8, 7], tf.int64))
    remove = table.erase(tf.constant([6], tf.int64))
    keys, values = table.export()
    out = {"types": [table.resource_handle.op.type, insert.type, remove.type],
           "inputs": [t.name for t in table.resource_handle.op.inputs],
           "names": [table.name, describe(find), describe(keys)]}
    with tf.Session() as sess:
        sess.run(insert)
        out["find"] = sess.run([find, table.size()])
        sess.run(remove)
        out["after"] = sess.run([table.lookup(tf.constant([6, 5], tf.int64)), table.size()])
        k, v = sess.run([keys, values])
        out["export_shape"] = [list(k.shape), list(v.shape)]
        out["export"] = sorted((a, b) for a, b in zip(k.reshape(-1).tolist(),
                                                      v.reshape(-1).tolist()) if a != 0)
        out["empty_key"] = catch(lambda: sess.run(table.insert(tf.constant([0], tf.int64),
                                                               tf.constant([1], tf.int64))))
        out["deleted_key"] = catch(lambda: sess.run(table.lookup(tf.constant([-1],
                                                                             tf.int64))))
    return out


# -- tf.CriticalSection -------------------------------------------------------------------------

def case_critical_section(tf):
    cs = tf.CriticalSection(name="cs")
    v = tf.Variable(0, name="v", use_resource=True)
    out = cs.execute(lambda: v.assign_add(1))
    other = cs.execute(lambda: tf.constant(3) + 1, name="ex")
    nested = cs.execute(lambda: [tf.constant(1), (tf.constant(2.0), v.read_value())])
    graph = tf.get_default_graph()
    record = {
        "name": cs.name, "shared": tf.CriticalSection(shared_name="shared").name,
        "out": [out.op.type, out.dtype.name], "other": describe(other),
        "nested": [describe(t) for t in tf.nest.flatten(nested)] if hasattr(tf, "nest")
        else None,
        # (The ops of an execution returning plain tensors: TF reads a returned variable
        # once more inside its tuple, which tf1compat's tf.tuple reads outside.)
        "ops": [(op.name, op.type) for op in graph.get_operations()
                if op.name.startswith("ex/")],
        "executions": len(tf.get_collection("critical_section_executions")),
        "self_nested": catch(lambda: cs.execute(lambda: cs.execute(lambda: tf.constant(1)))),
        "none": catch(lambda: cs.execute(lambda: None))}
    cs2 = tf.CriticalSection(name="cs2")
    record["two_sections"] = catch(lambda: cs2.execute(lambda: v.assign_add(2)))
    record["two_sections_shared"] = catch(lambda: cs2.execute(
        lambda: v.read_value(), exclusive_resource_access=False))
    w = tf.Variable(1.0, name="w", use_resource=True)
    cs3 = tf.CriticalSection(name="cs3")
    a = cs3.execute(lambda: w.read_value() * 2, exclusive_resource_access=False)
    b = cs2.execute(lambda: w.read_value() + 1, exclusive_resource_access=False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        record["values"] = sess.run([out, other, a, b])
        record["again"] = sess.run(out)
        record["nested_values"] = sess.run(nested)   # (alone: it reads what out writes)
    return record


def case_critical_section_threads(tf):
    """Eight threads each run a read-modify-write of one variable under the section."""
    import threading
    cs = tf.CriticalSection()
    v = tf.Variable(0, use_resource=True)

    def increment():
        value = v.read_value()
        with tf.control_dependencies([value]):
            return v.assign(value + 1)
    step = cs.execute(increment)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        threads = [threading.Thread(target=lambda: [sess.run(step) for _ in range(25)])
                   for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return sess.run(v)


# -- tf.flags.tf_decorator ----------------------------------------------------------------------

def case_tf_decorator(tf):
    import inspect
    td = tf.flags.tf_decorator

    def add_one(target):
        def wrapper(*args, **kwargs):
            return wrapper.__wrapped__(*args, **kwargs) + 1
        return td.make_decorator(target, wrapper)

    def scaled(x, y=2, *rest, z=3, **more):
        """Scales."""
        return x * y * z

    wrapped = add_one(add_one(scaled))
    records, target = td.unwrap(wrapped)
    out = {"call": wrapped(1), "name": wrapped.__name__, "doc": wrapped.__doc__,
           "signature": str(inspect.signature(wrapped)),
           "records": [(r.decorator_name, r.decorator_doc, r.__name__) for r in records],
           "target": target is scaled, "plain": td.unwrap(len)[0] == []}
    td.rewrap(wrapped, scaled, lambda x, y=2, *rest, z=3, **more: x + y + z)
    out["rewrapped"] = wrapped(1)
    out["rewrap_self"] = td.rewrap(scaled, scaled, len) is len
    out["spec"] = str(td.fullargspec_to_signature(inspect.getfullargspec(scaled)))
    custom = td.make_decorator(scaled, lambda *a: 0, "custom", "custom doc",
                               inspect.getfullargspec(lambda a, b=1: 0))
    out["custom"] = [str(inspect.signature(custom)), custom.__doc__,
                     custom._tf_decorator.decorator_name]
    record = td.TFDecorator("named", scaled)
    out["record"] = [record(2), record.__name__, record.__doc__, str(record.__signature__)]
    return out


# -- tf.io.decode_proto / encode_proto ----------------------------------------------------------

def _feature_bytes():
    """tensorflow.Feature / Int64List / Example messages, serialized by hand (wire format)
    so TF and tf1compat decode the same bytes."""
    int64_list = b"\x0a\x03\x01\x02\x03"              # Int64List{value: [1, 2, 3]} packed
    bytes_list = b"\x0a\x01a\x0a\x02bc"               # BytesList{value: ["a", "bc"]}
    float_list = b"\x0a\x08" + np.array([1.5, 2.5], "<f4").tobytes()
    features = {
        "int64": b"\x1a" + bytes([len(int64_list)]) + int64_list,    # Feature.int64_list
        "bytes": b"\x0a" + bytes([len(bytes_list)]) + bytes_list,    # Feature.bytes_list
        "float": b"\x12" + bytes([len(float_list)]) + float_list}    # Feature.float_list
    entry = b"\x0a\x01a\x12" + bytes([len(features["int64"])]) + features["int64"]
    feature_map = b"\x0a" + bytes([len(entry)]) + entry              # Features.feature["a"]
    example = b"\x0a" + bytes([len(feature_map)]) + feature_map      # Example.features
    return int64_list, bytes_list, float_list, features, example


def _descriptor_set(tf):
    """A FileDescriptorSet of one message type neither TF nor tf1compat links."""
    from google.protobuf import descriptor_pb2
    files = descriptor_pb2.FileDescriptorSet()
    f = files.file.add(name="golden_point.proto", package="golden", syntax="proto3")
    m = f.message_type.add(name="Point")
    for number, (field, kind, label) in enumerate(
            [("x", 2, 1), ("y", 2, 1), ("tags", 9, 3), ("ids", 3, 3), ("ok", 8, 1)], 1):
        m.field.add(name=field, number=number, type=kind, label=label)
    return files.SerializeToString()


def case_decode_proto(tf):
    int64_list, bytes_list, float_list, features, example = _feature_bytes()
    out = {}
    sizes, values = tf.io.decode_proto([int64_list, b""], "tensorflow.Int64List", ["value"],
                                       [tf.int64])
    feature_sizes, feature_values = tf.io.decode_proto(
        [[features["int64"]], [features["bytes"]]], "tensorflow.Feature",
        ["int64_list", "bytes_list", "float_list"], [tf.string] * 3)
    out["graph"] = [describe(t) for t in [sizes] + values + [feature_sizes] + feature_values]
    ops = {"int64": [sizes, values],
           "feature": [feature_sizes, feature_values],
           "bytes": tf.io.decode_proto([bytes_list], "tensorflow.BytesList", ["value"],
                                       [tf.string]),
           "float": tf.io.decode_proto([float_list], "tensorflow.FloatList", ["value"],
                                       [tf.float32]),
           "float_as_double": tf.io.decode_proto([float_list], "tensorflow.FloatList",
                                                 ["value"], [tf.float64]),
           "example": tf.io.decode_proto([example], "tensorflow.Example", ["features"],
                                         [tf.string]),
           "encode": tf.io.encode_proto(feature_sizes, feature_values,
                                        ["int64_list", "bytes_list", "float_list"],
                                        "tensorflow.Feature"),
           "encode_int64": tf.io.encode_proto(tf.constant([[2]]),
                                              [tf.constant([[7, 8]], tf.int64)], ["value"],
                                              "tensorflow.Int64List")}
    with tf.Session() as sess:
        out["values"] = sess.run(ops)
    return out


def case_decode_proto_descriptor_set(tf):
    files = _descriptor_set(tf)
    path = os.path.join(tempfile.mkdtemp(), "point.desc")
    with open(path, "wb") as f:
        f.write(files)
    point = (b"\x0d" + np.float32(1.5).tobytes() + b"\x1a\x03abc\x1a\x01d"
             + b"\x22\x02\x05\x06" + b"\x28\x01")
    fields = ["x", "y", "tags", "ids", "ok"]
    types = [tf.float32, tf.float32, tf.string, tf.int64, tf.bool]
    with tf.Session() as sess:
        from_file = sess.run(tf.io.decode_proto([point, b""], "golden.Point", fields, types,
                                                descriptor_source=path))
        from_bytes = sess.run(tf.io.decode_proto([point], "golden.Point", fields, types,
                                                 descriptor_source=b"bytes://" + files))
        sizes = tf.constant([[1, 0, 2, 1, 1]])
        encoded = sess.run(tf.io.encode_proto(
            sizes, [tf.constant([[2.0]]), tf.constant([[0.0]]), tf.constant([["p", "q"]]),
                    tf.constant([[9]], tf.int64), tf.constant([[True]])], fields, "golden.Point",
            descriptor_source=path))
    return {"file": from_file, "bytes": from_bytes, "encoded": encoded}


def case_decode_proto_errors(tf):
    _, _, float_list, _, _ = _feature_bytes()
    ops = {"unknown_type": tf.io.decode_proto([float_list], "tensorflow.Nope", ["value"],
                                              [tf.float32]),
           "unknown_field": tf.io.decode_proto([float_list], "tensorflow.FloatList",
                                               ["nope"], [tf.float32]),
           "wrong_type": tf.io.decode_proto([float_list], "tensorflow.FloatList", ["value"],
                                            [tf.int32]),
           "lengths": tf.io.decode_proto([float_list], "tensorflow.FloatList", ["value"],
                                         [tf.float32, tf.float32]),
           "encode_sizes": tf.io.encode_proto(tf.constant([[2]]),
                                              [tf.constant([[[7, 8]]], tf.int64)],
                                              ["value"], "tensorflow.Int64List")}
    out = _run_each(tf, ops)
    # (TF's text for undecodable bytes names its parser's internals: only the class.)
    bad = tf.io.decode_proto([b"\xff\xff"], "tensorflow.FloatList", ["value"], [tf.float32])
    with tf.Session() as sess:
        out["bad_bytes"] = catch(lambda: sess.run(bad))
    return out


def case_experimental_dtype_constants(tf):
    E = tf.dtypes.experimental
    out = {}
    with tf.Session() as sess:
        for values, name in (([3, -9, 20], "int4"), ([3, 17, -1], "uint4"),
                             ([1.5, 500.0, 470.0, 464.0, 1e-9, -0.3], "float8_e4m3fn"),
                             ([1.5, 70000.0, -0.3], "float8_e5m2")):
            d = getattr(E, name)
            c = tf.constant(values, dtype=d)
            out[name] = [describe(c), sess.run(tf.cast(c, tf.float32 if d.is_floating
                                                       else tf.int32))]
        # (float4_e2m1fn: TF builds the constant; torch has no float4, tf1compat raises
        # NotImplementedError: tests/test_api_names.py.)
        for name in ("float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz"):
            out[name] = catch(lambda: tf.constant([1.0], dtype=getattr(E, name)), message=True)
    return out
