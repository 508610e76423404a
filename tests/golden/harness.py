"""Helpers shared by golden cases; imported by both the recorder (real TF) and the tests.

A case is a function `case_<name>(tf)` in a `tests/golden/cases_*.py` module. It builds
and runs a small TF1 program with the `tf` it is given (real `tensorflow.compat.v1`
when recording, `tf1compat` when testing) and returns a JSON-able structure of results:
numpy arrays and scalars, Python numbers, strings/bytes, lists, dicts, and `catch(...)`
records of exceptions. `scripts/record_goldens.py` stores real TF's results in
`tests/golden/data/<module>.json`; `tests/test_goldens.py` compares tf1compat's to them.
"""

from __future__ import annotations

import base64
import math
from typing import Any, Callable, Dict

import numpy as np

__all__ = ["catch", "tolerance", "encode", "decode", "compare", "case_tolerance",
           "describe", "skip_recording", "requires"]


def catch(fn: Callable[[], Any], message: bool = False) -> Dict[str, Any]:
    """Runs `fn`; returns {"value": ...} or {"error": class name[, "message": text]}.

    With `message=True` the recorded message must match tf1compat's (first line).
    """
    try:
        return {"value": fn()}
    except Exception as e:  # noqa: BLE001 - recording what TF raises is the point
        from tests.golden.runner import print_traceback_when_asked
        print_traceback_when_asked()
        out = {"error": type(e).__name__}
        if message:
            out["message"] = str(e).split("\n")[0]
        return out


def tolerance(rtol: float = 1e-5, atol: float = 1e-6) -> Callable:
    """Decorator: the float tolerance a case is compared with."""
    def wrap(fn: Callable) -> Callable:
        fn.rtol, fn.atol = rtol, atol
        return fn
    return wrap


def skip_recording(reason: str) -> Callable:
    """Decorator for cases TF cannot record (kept for documentation; the test skips them)."""
    def wrap(fn: Callable) -> Callable:
        fn.skip_reason = reason
        return fn
    return wrap


def requires(*names: str) -> Callable:
    """Decorator: the case needs these `tf.*` names (dotted paths allowed, e.g.
    "keras.layers.Dense"); replay skips it while tf1compat lacks one (features other
    issues are still building). Recording is unaffected."""
    def wrap(fn: Callable) -> Callable:
        fn.requires = names
        return fn
    return wrap


def case_tolerance(fn: Callable) -> tuple:
    return getattr(fn, "rtol", 1e-5), getattr(fn, "atol", 1e-6)


def describe(t: Any) -> Dict[str, Any]:
    """Static facts of a graph tensor: name, dtype, shape (None for unknown rank)."""
    shape = t.shape
    dims = None if shape.ndims is None else [d if d is None else int(d) for d in
                                              (shape.as_list())]
    return {"name": t.name, "dtype": t.dtype.name, "shape": dims}


def encode(value: Any) -> Any:
    """A result as JSON (arrays keep dtype and shape; floats keep nan/inf)."""
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, bytes):
        return {"__bytes__": base64.b64encode(value).decode()}
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.dtype == object:
            return {"__nd__": [encode(v) for v in arr.reshape(-1).tolist()], "dtype": "object",
                    "shape": list(arr.shape), "scalar": isinstance(value, np.generic)}
        if arr.dtype.kind == "c":
            data = [[encode_float(float(v.real)), encode_float(float(v.imag))]
                    for v in arr.reshape(-1)]
        elif arr.dtype.kind == "f":
            data = [encode_float(v) for v in arr.astype(np.float64).reshape(-1).tolist()]
        else:
            data = arr.reshape(-1).tolist()
        return {"__nd__": data, "dtype": str(arr.dtype), "shape": list(arr.shape),
                "scalar": isinstance(value, np.generic)}
    if isinstance(value, float):
        return {"__float__": encode_float(value)}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "name") and hasattr(value, "dtype") and hasattr(value, "shape"):
        return {"__describe__": describe(value)}
    return {"__repr__": repr(value)}


def encode_float(v: float) -> Any:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _decode_float(v: Any) -> float:
    return float(v) if isinstance(v, str) else v


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "__bytes__" in value:
            return base64.b64decode(value["__bytes__"])
        if "__float__" in value:
            return _decode_float(value["__float__"])
        if "__nd__" in value:
            dtype = value["dtype"]
            if dtype == "object":
                arr = np.empty(len(value["__nd__"]), dtype=object)
                for i, v in enumerate(value["__nd__"]):
                    arr[i] = decode(v)
            elif np.dtype(dtype).kind == "c":
                arr = np.array([complex(_decode_float(a), _decode_float(b))
                                for a, b in value["__nd__"]], dtype=dtype)
            elif np.dtype(dtype).kind == "f":
                arr = np.array([_decode_float(v) for v in value["__nd__"]], dtype=dtype)
            else:
                arr = np.array(value["__nd__"], dtype=dtype)
            arr = arr.reshape(value["shape"])
            return arr[()] if value.get("scalar") else arr
        return {k: decode(v) for k, v in value.items()}
    return value


def compare(expected: Any, actual: Any, rtol: float, atol: float, path: str = "result") -> None:
    """Asserts `actual` (tf1compat) matches `expected` (decoded TF record)."""
    if isinstance(expected, dict) and "__describe__" in expected:
        assert encode(actual) == expected, f"{path}: {encode(actual)} != {expected}"
        return
    if isinstance(expected, dict) and "__repr__" in expected:
        return  # opaque object: only its presence is checked
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected dict, got {type(actual).__name__}"
        if "error" in expected or "error" in actual:
            assert actual.get("error") == expected.get("error"), \
                f"{path}: expected {expected.get('error') or 'success'}, got " \
                f"{actual.get('error') or 'success'} ({actual.get('value', '')!r:.200})"
            if "message" in expected:
                assert actual.get("message") == expected["message"], \
                    f"{path}: message {actual.get('message')!r} != {expected['message']!r}"
            if "value" in expected:
                compare(expected["value"], actual["value"], rtol, atol, path + ".value")
            return
        assert sorted(actual) == sorted(expected), f"{path}: keys {sorted(actual)} != " \
                                                   f"{sorted(expected)}"
        for k in expected:
            compare(expected[k], actual[k], rtol, atol, f"{path}.{k}")
        return
    if isinstance(expected, list):
        assert isinstance(actual, (list, tuple)), f"{path}: expected list, got {type(actual)}"
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare(e, a, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(expected, (np.ndarray, np.generic)):
        assert isinstance(actual, (np.ndarray, np.generic)), \
            f"{path}: expected numpy {type(expected).__name__}, got {type(actual).__name__}"
        exp, act = np.asarray(expected), np.asarray(actual)
        assert isinstance(actual, np.ndarray) == isinstance(expected, np.ndarray), \
            f"{path}: scalar/array mismatch ({type(actual).__name__} vs {type(expected).__name__})"
        assert act.dtype == exp.dtype, f"{path}: dtype {act.dtype} != {exp.dtype}"
        assert act.shape == exp.shape, f"{path}: shape {act.shape} != {exp.shape}"
        if exp.dtype.kind in "fc":
            np.testing.assert_allclose(act, exp, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=path)
        elif exp.dtype == object:
            assert act.tolist() == exp.tolist(), f"{path}: {act.tolist()} != {exp.tolist()}"
        else:
            np.testing.assert_array_equal(act, exp, err_msg=path)
        return
    if isinstance(expected, float) and isinstance(actual, float):
        if math.isnan(expected):
            assert math.isnan(actual), f"{path}: {actual} != nan"
        else:
            assert math.isclose(actual, expected, rel_tol=rtol, abs_tol=atol), \
                f"{path}: {actual} != {expected}"
        return
    assert type(actual) is type(expected) or (isinstance(actual, (int, float)) and
                                              isinstance(expected, (int, float)) and
                                              not isinstance(actual, bool)), \
        f"{path}: type {type(actual).__name__} != {type(expected).__name__} ({actual!r})"
    assert actual == expected, f"{path}: {actual!r} != {expected!r}"
