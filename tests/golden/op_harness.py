"""Op-keyed goldens: rows of (op type, inputs, attrs), run through `tf.raw_ops`.

A row module `tests/golden/op_rows_<family>.py` holds `ROWS`, a list of `row(...)` and
`err(...)` calls keyed by TF op type:

    row("MatMul", a=f32(2, 3), b=f32(3, 4, seed=1), transpose_a=False)
    err("MatMul", a=f32(2, 3), b=f32(2, 3))             # TF raises: the class is recorded

Keyword values are the raw op's arguments. A numpy array becomes an input tensor: a float
array is fed through a placeholder of its full static shape (it is a gradient source), any
other array is a constant; `Dyn(array, shape)` feeds a placeholder of a partly or wholly
unknown shape; `Const(array)` makes a float array a constant; `Var(array)` and
`ResVar(array)` pass a ref variable / a resource variable's handle, `Table(keys, values)`
a hash table's handle (their contents after the run are recorded too). Lists of these
are list inputs. Anything else (Python numbers,
lists, strings, dtype names) is passed as it is.

`run_row(tf, row)` is the one procedure that runs a row, for the recorder (real TF) and
for the tests (tf1compat, through generated code or the checking interpreter): it
records the output structure (Tensor, list, TF's namedtuple, Operation), each output's
name, dtype and static shape, the run-time values, and, for float outputs and float
inputs, the gradient of `sum(output * fixed weights)` with respect to each float input
(TF's `tf.gradients`: None, a value, or its exception class). An exception at graph build
or run time is recorded as its class and stage. `check_row(row, record, result)` compares.

Seeded random ops compare exact values where tf1compat reproduces TF's streams; rows can
instead compare only `check="shape"` (structure, dtypes, shapes), `check="sorted"`
(the sorted values: a permutation), `check="abs"` (absolute values: decompositions whose
vectors' signs are the library's choice), `check="stats"` (mean and standard deviation)
or `check="png"` (the images inside a summary, decompressed: zlib versions differ).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tests.golden.harness import compare, decode, encode

GOLDEN_DIR = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = os.path.join(GOLDEN_DIR, "data")
ROOT = os.path.dirname(os.path.dirname(GOLDEN_DIR))

__all__ = ["Row", "row", "err", "Dyn", "Const", "Var", "ResVar", "Table", "rand", "f16",
           "f32", "f64", "i32", "i64", "pos", "strings", "run_row", "run_row_eager",
           "check_row", "eager_applies", "OPTIONS", "declared_op_types", "row_modules",
           "rows_of", "record_path", "write_records", "ROOT"]

_FLOAT_KINDS = ("float16", "float32", "float64")


# -- input markers and value generators ----------------------------------------------------

@dataclass(frozen=True)
class Dyn:
    """A placeholder input of a partly known `shape` (None: unknown rank), fed `value`."""
    value: np.ndarray
    shape: Optional[Tuple[Optional[int], ...]] = None


@dataclass(frozen=True)
class Const:
    """A float array passed as a constant (not fed, not a gradient source)."""
    value: np.ndarray


@dataclass(frozen=True)
class Var:
    """A ref variable (`tf.Variable(value)`) passed to a Ref input."""
    value: np.ndarray


@dataclass(frozen=True)
class ResVar:
    """A resource variable's handle (`tf.Variable(value, use_resource=True).handle`)."""
    value: np.ndarray


@dataclass(frozen=True)
class Table:
    """A hash table's handle (HashTableV2): initialized with `keys` and `values`
    (InitializeTableV2 runs before the row's op), or left empty with the given dtypes.
    Its contents after the run are recorded, sorted by key (LookupTableExportV2)."""
    keys: Optional[np.ndarray] = None
    values: Optional[np.ndarray] = None
    key_dtype: str = ""
    value_dtype: str = ""


def rand(shape: Sequence[int], dtype: str = "float32", lo: float = -2.0, hi: float = 2.0,
         seed: int = 0) -> np.ndarray:
    """Deterministic test values (numpy's legacy RandomState stream is stable)."""
    rng = np.random.RandomState(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.randint(int(lo), int(hi), size=shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (rng.uniform(lo, hi, size=shape) + 1j * rng.uniform(lo, hi, size=shape)
                ).astype(dtype)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def f16(*shape: int, **kw: Any) -> np.ndarray:
    return rand(shape, "float16", **kw)


def f32(*shape: int, **kw: Any) -> np.ndarray:
    return rand(shape, "float32", **kw)


def f64(*shape: int, **kw: Any) -> np.ndarray:
    return rand(shape, "float64", **kw)


def pos(*shape: int, dtype: str = "float32", seed: int = 0) -> np.ndarray:
    """Positive values in [0.5, 2) (logs, roots, divisors)."""
    return rand(shape, dtype, 0.5, 2.0, seed)


def i32(*shape: int, lo: int = -5, hi: int = 6, seed: int = 0) -> np.ndarray:
    return rand(shape, "int32", lo, hi, seed)


def i64(*shape: int, lo: int = -5, hi: int = 6, seed: int = 0) -> np.ndarray:
    return rand(shape, "int64", lo, hi, seed)


def strings(*values: Any, shape: Optional[Sequence[int]] = None) -> np.ndarray:
    """A string array (numpy object array of bytes)."""
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v.encode() if isinstance(v, str) else v
    return out.reshape(shape if shape is not None else (len(values),))


# -- rows ------------------------------------------------------------------------------------

@dataclass
class Row:
    """One op call: `op` with keyword `args`; how to compare it."""
    op: str
    args: Dict[str, Any]
    error: bool = False             # TF must raise (at build or run time)
    with_grad: bool = True          # record gradients for float inputs and outputs
    check: str = "values"     # "values" | "shape" | "sorted" | "abs" | "stats" | "png"
    rtol: float = 1e-5
    atol: float = 1e-6
    grad_rtol: float = 1e-4
    grad_atol: float = 1e-5
    label: str = ""
    # Indices of the outputs whose values are compared (and differentiated); None: all.
    # For outputs TF leaves uninitialized (Svd's u and v when compute_uv=False).
    checked_outputs: Optional[Tuple[int, ...]] = None
    key: str = field(default="", compare=False)

    def fingerprint(self) -> str:
        """A digest of what the row does: a recording made from another row is stale."""
        text = json.dumps([self.op, _canonical(self.args), self.error, self.with_grad,
                           self.check, self.checked_outputs], sort_keys=True)
        return hashlib.sha1(text.encode()).hexdigest()[:12]


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, np.ndarray):
        return encode(value)
    if isinstance(value, (Dyn, Const, Var, ResVar)):
        return [type(value).__name__, encode(value.value),
                list(value.shape) if getattr(value, "shape", None) is not None else None]
    if isinstance(value, Table):
        return ["Table", _canonical(value.keys), _canonical(value.values), value.key_dtype,
                value.value_dtype]
    if isinstance(value, (np.generic,)):
        return encode(value)
    return value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)


# (No TF raw op has an argument of these names: tests/test_op_goldens.py checks.)
OPTIONS = ("with_grad", "check", "rtol", "atol", "grad_rtol", "grad_atol", "label",
           "checked_outputs")


def row(op: str, **kwargs: Any) -> Row:
    """A row; the keywords named in `OPTIONS` set how it is compared, the rest are the
    op's arguments."""
    options = {k: kwargs.pop(k) for k in OPTIONS if k in kwargs}
    args = kwargs
    return Row(op, args, **options)


def err(op: str, **kwargs: Any) -> Row:
    """A row where TF raises; its exception class (and stage) is the recorded result."""
    r = row(op, **kwargs)
    r.error = True
    return r


def row_modules() -> List[str]:
    return sorted(m.name for m in pkgutil.iter_modules([GOLDEN_DIR])
                  if m.name.startswith("op_rows_"))


def rows_of(module_name: str) -> List[Row]:
    """The module's rows, each keyed "<op>/<label or index among the op's rows>"."""
    rows = importlib.import_module(f"tests.golden.{module_name}").ROWS
    counts: Dict[str, int] = {}
    keys = set()
    for r in rows:
        if r.label:
            r.key = f"{r.op}/{r.label}"
        else:
            r.key = f"{r.op}/{counts.get(r.op, 0)}"
            counts[r.op] = counts.get(r.op, 0) + 1
        if r.key in keys:
            raise ValueError(f"{module_name}: two rows are keyed {r.key}")
        keys.add(r.key)
    return rows


def declared_op_types() -> List[str]:
    """Every op type tf1compat declares (not ops tests declare for themselves). Each
    tf1compat module is imported first: a few declare their ops only when first used
    (tf.data's sparse components, ...)."""
    import tf1compat
    from tf1compat.framework.op_def import get_op_def, registered_op_types
    for info in pkgutil.walk_packages(tf1compat.__path__, "tf1compat."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return [t for t in registered_op_types() if get_op_def(t).source.startswith("tf1compat/")]


def record_path(module_name: str) -> str:
    return os.path.join(DATA_DIR, f"{module_name}.json")


def write_records(path: str, records: Dict[str, Any]) -> None:
    """Writes encoded records one row per line (diffs stay per row); float16/32 values
    in their shortest round-tripping form."""
    lines = [f"{json.dumps(key)}: {json.dumps(_short_floats(records[key]), sort_keys=True)}"
             for key in sorted(records)]
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def _short_floats(value: Any) -> Any:
    if isinstance(value, list):
        return [_short_floats(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__nd__" in value and value.get("dtype") in ("float16", "float32"):
        kind = np.float16 if value["dtype"] == "float16" else np.float32
        return {**value, "__nd__": [float(str(kind(v))) if isinstance(v, float) else v
                                    for v in value["__nd__"]]}
    return {k: _short_floats(v) for k, v in value.items()}


# -- running a row ----------------------------------------------------------------------------

class _Inputs:
    """Turns a row's argument values into graph inputs (placeholders, constants, variables)."""

    def __init__(self, tf: Any):
        self.tf = tf
        self.feeds: Dict[Any, np.ndarray] = {}
        self.sources: List[Tuple[str, Any]] = []      # (argument path, float placeholder)
        self.variables: List[Any] = []
        self.tables: List[Tuple[Any, str, str]] = []     # (handle, key dtype, value dtype)
        self.initializers: List[Any] = []

    def build(self, path: str, value: Any) -> Any:
        tf = self.tf
        if isinstance(value, list) and value and all(
                isinstance(v, (np.ndarray, Dyn, Const, Var, ResVar, Table)) for v in value):
            return [self.build(f"{path}[{i}]", v) for i, v in enumerate(value)]
        name = path.replace("[", "_").replace("]", "")      # a valid TF node name
        if isinstance(value, Var):
            v = tf.Variable(value.value, name=name, use_resource=False)
            self.variables.append(v)
            return v
        if isinstance(value, ResVar):
            v = tf.Variable(value.value, name=name, use_resource=True)
            self.variables.append(v)
            return v.handle
        if isinstance(value, Table):
            return self._table(name, value)
        if isinstance(value, Const):
            return tf.constant(value.value, name=name)
        if isinstance(value, Dyn):
            return self._placeholder(path, name, value.value, value.shape)
        if isinstance(value, np.ndarray):
            if value.dtype.name in _FLOAT_KINDS:
                return self._placeholder(path, name, value, value.shape)
            return tf.constant(value, name=name)
        return value

    def _table(self, name: str, table: Table) -> Any:
        def dtype(given: str, values: Any) -> str:
            if given:
                return given
            return "string" if np.asarray(values).dtype == object else \
                np.asarray(values).dtype.name
        key_dtype, value_dtype = dtype(table.key_dtype, table.keys), \
            dtype(table.value_dtype, table.values)
        handle = self.tf.raw_ops.HashTableV2(key_dtype=key_dtype, value_dtype=value_dtype,
                                             name=name)
        if table.keys is not None:
            self.initializers.append(self.tf.raw_ops.InitializeTableV2(
                table_handle=handle, keys=self.tf.constant(table.keys),
                values=self.tf.constant(table.values)))
        self.tables.append((handle, key_dtype, value_dtype))
        return handle

    def _placeholder(self, path: str, name: str, value: np.ndarray, shape: Any) -> Any:
        ph = self.tf.placeholder(value.dtype.name if value.dtype != object else "string",
                                 shape=shape, name=name)
        self.feeds[ph] = value
        if value.dtype.name in _FLOAT_KINDS:
            self.sources.append((path, ph))
        return ph


def _structure(out: Any) -> Tuple[Any, List[Any]]:
    """What the raw op returned, as a JSON-able description, and its tensors in order."""
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        fields, flat = [], []
        for name, value in zip(out._fields, out):
            kind, tensors = _structure(value)
            fields.append([name, kind])
            flat.extend(tensors)
        return {"namedtuple": type(out).__name__, "fields": fields}, flat
    if isinstance(out, list):
        return {"list": len(out)}, list(out)
    if hasattr(out, "dtype") and hasattr(out, "shape"):
        return "tensor", [out]
    if out is None:
        return "none", []
    return "operation", []


def _static(tf: Any, t: Any) -> Dict[str, Any]:
    shape = t.shape
    dims = None if shape.ndims is None else [None if d is None else int(d)
                                             for d in shape.as_list()]
    return {"name": t.name, "dtype": t.dtype.name, "shape": dims}


def _png_contents(blob: bytes) -> List[Any]:
    """The PNG images inside `blob` (a serialized image summary) as their IHDR and
    decompressed scanlines: what a PNG says, whatever zlib version compressed it."""
    import zlib
    images = []
    start = blob.find(b"\x89PNG\r\n\x1a\n")
    while start >= 0:
        pos, header, data = start + 8, b"", b""
        while True:
            length = int.from_bytes(blob[pos:pos + 4], "big")
            kind, body = blob[pos + 4:pos + 8], blob[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                header = body
            elif kind == b"IDAT":
                data += body
            elif kind == b"IEND":
                break
        images.append([header, zlib.decompress(data)])
        start = blob.find(b"\x89PNG\r\n\x1a\n", pos)
    return images


def _observe(value: Any, check: str) -> Any:
    """What of a run-time value the row compares."""
    if check == "png":
        return _png_contents(np.asarray(value).reshape(())[()])
    arr = np.asarray(value)
    if check == "shape" or (check != "values" and arr.dtype.kind not in "fiu"):
        return {"shape": list(arr.shape), "dtype": str(arr.dtype)}
    if check == "sorted":
        return np.sort(arr.reshape(-1))
    if check == "abs":
        return np.abs(arr)
    if check == "stats":
        return {"shape": list(arr.shape), "dtype": str(arr.dtype),
                "mean": float(arr.astype(np.float64).mean()),
                "std": float(arr.astype(np.float64).std())}
    return value


def _weights(value: np.ndarray) -> np.ndarray:
    """Fixed weights for `sum(output * weights)`: distinct, of either sign."""
    n = int(np.prod(value.shape))
    return np.cos(np.arange(n) * 0.7 + 0.3).reshape(value.shape).astype(value.dtype)


def _error(e: BaseException, stage: str) -> Dict[str, Any]:
    return {"error": type(e).__name__, "stage": stage}


def run_row(tf: Any, r: Row) -> Dict[str, Any]:
    """Runs one row in a fresh graph (see the module docstring); JSON-able-ish result."""
    tf.reset_default_graph()
    inputs = _Inputs(tf)
    result: Dict[str, Any] = {}
    try:
        kwargs = {k: inputs.build(k, v) for k, v in r.args.items()}
        out = getattr(tf.raw_ops, r.op)(**kwargs)
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded behaviour
        return _error(e, "build")
    structure, flat = _structure(out)
    result["structure"] = structure
    result["static"] = [_static(tf, t) for t in flat]
    with tf.Session() as sess:
        try:
            if inputs.variables:
                sess.run(tf.global_variables_initializer())
            if inputs.initializers:
                sess.run(inputs.initializers)
            fetches = flat if flat else out
            values = sess.run(fetches, inputs.feeds)
            values = values if flat else []
        except Exception as e:  # noqa: BLE001
            result.update(_error(e, "run"))
            return result
        if r.checked_outputs is not None:
            flat = [flat[i] for i in r.checked_outputs]
            values = [values[i] for i in r.checked_outputs]
        result["values"] = [_observe(v, r.check) for v in values]
        if inputs.variables:
            result["variables"] = [_observe(v, r.check)
                                   for v in sess.run([v.value() for v in inputs.variables])]
        if inputs.tables:
            result["tables"] = [_table_contents(tf, sess, table) for table in inputs.tables]
        if r.with_grad and not r.error and not inputs.variables:
            grads = _gradients(tf, sess, r, flat, values, inputs)
            if grads is not None:
                result["gradients"] = grads
    return result


def _table_contents(tf: Any, sess: Any, table: Tuple[Any, str, str]) -> Any:
    """A hash table's (keys, values), sorted by key (TF exports them in hash order)."""
    handle, key_dtype, value_dtype = table
    try:
        keys, values = sess.run(tf.raw_ops.LookupTableExportV2(
            table_handle=handle, Tkeys=key_dtype, Tvalues=value_dtype))
    except Exception as e:  # noqa: BLE001 - an uninitialized table is TF's error
        return _error(e, "run")
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    return [keys[order] if len(keys) else keys, values[order] if len(values) else values]


def _gradients(tf: Any, sess: Any, r: Row, flat: List[Any], values: List[Any],
               inputs: _Inputs) -> Any:
    """d sum(output * weights) / d input for the float outputs and float inputs."""
    terms = [(t, v) for t, v in zip(flat, values)
             if t.dtype.base_dtype.name in _FLOAT_KINDS]
    if not terms or not inputs.sources:
        return None
    try:
        loss = tf.add_n([tf.reduce_sum(t * tf.constant(_weights(np.asarray(v))))
                         for t, v in terms])
        grads = tf.gradients(loss, [ph for _, ph in inputs.sources])
    except Exception as e:  # noqa: BLE001
        return _error(e, "build")
    present = [g for g in grads if g is not None]
    try:
        got = sess.run(present, inputs.feeds) if present else []
    except Exception as e:  # noqa: BLE001
        return _error(e, "run")
    got_iter = iter(got)
    out = {}
    for (path, _), g in zip(inputs.sources, grads):
        out[path] = None if g is None else _dense(next(got_iter))
    return out


def _dense(value: Any) -> Any:
    """A gradient value; an IndexedSlices one (gathers' gradients, as TF gives them) as
    its parts."""
    if hasattr(value, "indices") and hasattr(value, "values"):
        return {"values": value.values, "indices": value.indices,
                "dense_shape": value.dense_shape}
    return value


# -- eager mode: the same rows, forward only -------------------------------------------------

def run_row_eager(tf: Any, r: Row) -> Dict[str, Any]:
    """Runs a row under eager execution: inputs are eager tensors, outputs their values.

    Compared with the graph-mode record's structure, dtypes, run-time values (a row whose
    values differ between TF's graph and eager modes must say so with `check`)."""
    def build(value: Any) -> Any:
        if isinstance(value, list) and value and all(
                isinstance(v, (np.ndarray, Dyn, Const)) for v in value):
            return [build(v) for v in value]
        if isinstance(value, (Dyn, Const)):
            value = value.value
        if isinstance(value, np.ndarray):
            return tf.constant(value)
        return value
    try:
        out = getattr(tf.raw_ops, r.op)(**{k: build(v) for k, v in r.args.items()})
        structure, flat = _structure(out)
        if r.checked_outputs is not None:
            flat = [flat[i] for i in r.checked_outputs]
        return {"structure": structure,
                "values": [_observe(t.numpy(), r.check) for t in flat]}
    except Exception as e:  # noqa: BLE001
        return _error(e, "eager")


def eager_applies(r: Row) -> bool:
    """Rows that mean the same under eager execution (no variables, no expected error)."""
    def plain(value: Any) -> bool:
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return not isinstance(value, (Var, ResVar, Table))
    return not r.error and all(plain(v) for v in r.args.values())


# -- comparing ------------------------------------------------------------------------------

def check_row(r: Row, record: Dict[str, Any], result: Dict[str, Any],
              eager: bool = False) -> None:
    """Asserts tf1compat's `result` for row `r` matches TF's `record` (the one checker)."""
    assert record.get("spec") == r.fingerprint(), (
        f"{r.key}: the row changed since it was recorded; run `/tmp/tf/bin/python "
        f"scripts/record_op_goldens.py` to re-record it")
    expected = decode(record["result"])
    actual = decode(json.loads(json.dumps(encode(result))))
    if eager:
        if "error" in expected:
            return
        # Without a graph an op with no outputs returns None, not its Operation.
        structure = "none" if expected["structure"] == "operation" else \
            expected["structure"]
        expected = {"structure": structure, "values": expected["values"]}
    if "error" in expected or "error" in actual:
        assert (actual.get("error"), actual.get("stage")) == \
            (expected.get("error"), expected.get("stage")), \
            f"{r.key}: expected {expected.get('error') or 'success'} " \
            f"({expected.get('stage')}), got {actual.get('error') or 'success'} " \
            f"({actual.get('stage')})"
    if r.check == "stats":
        _compare_stats(r, expected, actual)
        return
    grads_e = expected.pop("gradients", None)
    grads_a = actual.pop("gradients", None)
    compare(expected, actual, r.rtol, r.atol, r.key)
    compare(grads_e, grads_a, r.grad_rtol, r.grad_atol, f"{r.key}.gradients")


def _compare_stats(r: Row, expected: Dict[str, Any], actual: Dict[str, Any]) -> None:
    """Random values compared by distribution: mean and std within `atol` of TF's."""
    exp_values = expected.pop("values", [])
    act_values = actual.pop("values", [])
    expected.pop("gradients", None)
    actual.pop("gradients", None)
    compare(expected, actual, r.rtol, r.atol, r.key)
    assert len(exp_values) == len(act_values), f"{r.key}: output count"
    for i, (e, a) in enumerate(zip(exp_values, act_values)):
        assert (e["shape"], e["dtype"]) == (a["shape"], a["dtype"]), f"{r.key}[{i}]"
        for stat in ("mean", "std"):
            assert abs(e[stat] - a[stat]) <= r.atol, \
                f"{r.key}[{i}].{stat}: {a[stat]} vs TF's {e[stat]} (atol {r.atol})"


# -- the eager child process ---------------------------------------------------------------------

def _eager_main(argv: List[str]) -> int:
    """`python -m tests.golden.op_harness OUT.json MODULE...`: tf1compat's eager results
    (a file, not stdout: rows of printing ops write there)."""
    import tests.conftest  # noqa: F401 - the suite's float32 GPU arithmetic, here too
    import tf1compat as tf
    tf.enable_eager_execution()
    out = {}
    for module in argv[1:]:
        for r in rows_of(module):
            if eager_applies(r):
                out[f"{module}::{r.key}"] = encode(run_row_eager(tf, r))
    with open(argv[0], "w") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    # Through the imported module: rows are built from its classes, not __main__'s.
    from tests.golden import op_harness
    sys.exit(op_harness._eager_main(sys.argv[1:]))
