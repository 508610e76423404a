"""Golden cases: `from tensorflow.python import debug as tf_debug` (tfdbg's module):
has_inf_or_nan over dtypes and values, load_tensor_from_event on Event protos holding
initialized, empty and uninitialized tensors. The debugger's wrappers and hooks are not
recorded (tf1compat raises NotImplementedError naming tfdbg: tests/test_tfdbg.py)."""

import numpy as np


def _tfdbg(tf):
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.internal import tfdbg
        return tfdbg
    from tensorflow.python import debug
    return debug


def _event(tf, proto):
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.serialization.messages import Event
    else:
        from tensorflow.core.util.event_pb2 import Event
    event = Event()
    event.summary.value.add(tag="t").tensor.CopyFrom(proto)
    return event


def case_has_inf_or_nan(tf):
    dbg = _tfdbg(tf)
    arrays = {
        "f32_ok": np.array([1.0, 2.0], np.float32),
        "f32_nan": np.array([1.0, np.nan], np.float32),
        "f64_inf": np.array([[-np.inf, 0.0]], np.float64),
        "f16_ok": np.zeros([2, 2], np.float16),
        "c64_nan": np.array([1 + 1j, complex(np.nan, 0)], np.complex64),
        "i32": np.array([1, 2], np.int32),
        "bool": np.array([True]),
        "str": np.array([b"a"], object),
        "scalar_inf": np.float32(np.inf),
        "empty": np.zeros([0], np.float32),
    }
    out = {}
    for key, value in arrays.items():
        result = dbg.has_inf_or_nan(None, value)
        out[key] = {"value": bool(result), "type": type(result).__name__}
    return out


def case_load_tensor_from_event(tf):
    dbg = _tfdbg(tf)
    out = {}
    protos = {
        "floats": tf.make_tensor_proto(np.arange(6, dtype=np.float32).reshape(2, 3)),
        "ints": tf.make_tensor_proto(np.array([3, 4], np.int64)),
        "strings": tf.make_tensor_proto(np.array([b"x", b"yz"], object)),
        "empty": tf.make_tensor_proto(np.zeros([0, 2], np.float32)),
    }
    uninit = tf.make_tensor_proto(np.zeros([2], np.float32))
    uninit.ClearField("tensor_content")
    protos["uninitialized"] = uninit
    for key, proto in protos.items():
        value = dbg.load_tensor_from_event(_event(tf, proto))
        if isinstance(value, np.ndarray):
            out[key] = value
        else:
            out[key] = {"class": type(value).__name__, "initialized": value.initialized,
                        "str_first": str(value).split("\n")[0]}
    return out
