"""The eager executor: runs each declared op immediately on torch.

`apply_op` hands an op to `execute` (or `execute1` for single-output ops) when eager
execution is on. The op runs with the same declaration as in graph mode:

1. inputs are bound to the signature and converted like graph mode (`_bind`), with TF
   eager's error classes (a dtype mismatch is InvalidArgumentError, not TypeError);
2. attrs are completed with defaults and the output dtypes derived from them;
3. on the first call for a (op, attrs, input dtypes and shapes, device) key, the static
   shape rule runs (its ValueError becomes TF eager's InvalidArgumentError) and the
   kernel factory builds the kernel with a lightweight node (`EagerNode`) and kernel
   context (`EagerKernelContext`) over the eager runtime (variable store, resources);
4. the kernel runs on the input values and its outputs become EagerTensors.

Kernels are cached per key, so repeated ops skip steps 1-3 (the fast path in `_execute`
handles calls whose inputs are already EagerTensors). A factory may bake in small integer
inputs it reads with `constant_value` (shapes, axes): such reads are recorded while it
builds, and the cached kernel is then also keyed by those inputs' values.

Outside a GradientTape kernels run without autograd; while a tape records, tape.py's
recorder runs them (with TF's gradient conventions, see autodiff/grad_mode.py).
Stateful kernels (random ops) keep their state per (op, attrs, device), as TF's eager
kernel cache does: repeated `tf.random_normal([2], seed=1)` calls continue one stream,
and `tf.set_random_seed` drops it (`context.clear_caches`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.hooks import EAGER_EXECUTOR, TAPE
from tf1compat.framework.op_binding import complete_attrs
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.runtime import denormals
from tf1compat.runtime import eager_tensor as _et
from tf1compat.runtime.eager_binding import _bind, eager_error, tf_type_name
from tf1compat.runtime.eager_runtime import (_CPU, _MULTI_DEVICE, RUNTIME, EagerKernelContext,
                                             EagerNode, EagerOperation, _Spec, current_device)
from tf1compat.runtime.eager_tensor import EagerResourceHandle, EagerTensor

__all__ = ["execute", "execute1", "EagerOperation", "EagerNode", "EagerKernelContext",
           "RUNTIME", "RECORD", "current_device", "clear_cache", "tf_type_name",
           "eager_error"]

_is_grad_enabled = torch.is_grad_enabled
_set_grad_enabled = getattr(torch._C, "_set_grad_enabled", torch.set_grad_enabled)

# While a GradientTape records, TAPE["record"](entry, kernel, inputs, values, name) runs
# each op (framework/hooks.py); TAPE["recording"] is checked on every op.
RECORD = TAPE


# -- the kernel cache --------------------------------------------------------------------------

class _Entry:
    """A cached kernel (and what running it needs) for one op signature."""

    __slots__ = ("op_def", "attrs", "dtypes", "dtype0", "n_out", "device", "kernel", "deps",
                 "variants", "node", "kctx", "grad_kernel", "groups", "name")

    def __init__(self, op_def: _op_def.OpDef, attrs: dict, dtypes: list,
                 device: torch.device):
        self.op_def = op_def
        self.attrs = attrs
        self.dtypes = dtypes
        self.dtype0 = dtypes[0] if dtypes else None
        self.n_out = len(dtypes)
        self.device = device
        self.kernel: Optional[Callable[..., Any]] = None
        self.deps: Tuple[int, ...] = ()
        self.variants: Dict[Any, Callable[..., Any]] = {}
        self.node: Optional[EagerNode] = None
        self.kctx: Optional[EagerKernelContext] = None
        self.grad_kernel: Any = None
        self.groups: list = []
        self.name = ""


_CACHE: Dict[Any, _Entry] = {}
_CACHE_LIMIT = 50000
# Ops whose signature is all single, non-ref tensors: eligible for the fast path.
_FAST: Dict[_op_def.OpDef, int] = {}
_SCALAR_CONSTS: Dict[Any, Any] = {}
_CONST = -2
_state = _context._state
_SCALARS: Dict[Any, Any] = {}
# Per op: for each input, the earlier input sharing its type attr (None if none).
_PARTNERS: Dict[_op_def.OpDef, List[Optional[int]]] = {}


def clear_cache() -> None:
    """Drops cached kernels and their resources (`tf.set_random_seed` under eager)."""
    _CACHE.clear()
    RUNTIME.resources.clear()


_context.on_clear_caches(clear_cache)


def clear_kernels(drop_state: Callable[[Any], bool]) -> None:
    """Drops cached kernels and the kernel state `drop_state` picks, keeping the rest
    (TF's `clear_kernel_cache`: random streams start over, tables and iterators, which
    their handles own, stay)."""
    _CACHE.clear()
    for key in [k for k, v in RUNTIME.resources.items() if drop_state(v)]:
        del RUNTIME.resources[key]


def _fast_arity(op_def: _op_def.OpDef) -> int:
    n = _FAST.get(op_def)
    if n is None:
        n = -1 if any(a.is_list or a.is_ref for a in op_def.inputs) else len(op_def.inputs)
        if op_def.type == "Const":
            n = _CONST
        partners: List[Optional[int]] = []
        for i, a in enumerate(op_def.inputs):
            first = next((j for j, b in enumerate(op_def.inputs[:i])
                          if a.type_attr is not None and b.type_attr == a.type_attr), None)
            partners.append(first)
        _PARTNERS[op_def] = partners
        _FAST[op_def] = n
    return n


def _scalar(value: Any, dtype: D.DType) -> Any:
    """A Python int/float as a torch scalar of `dtype` (cached), None if TF would refuse."""
    key = (dtype, type(value), value)
    if value == 0 or value != value:
        key = None          # 0.0 == -0.0 and nan != nan: do not cache those
    else:
        cached = _SCALARS.get(key)
        if cached is not None:
            return cached
    if not (dtype.is_floating or dtype.is_complex or
            (dtype.is_integer and type(value) is int)):
        return None
    from tf1compat.framework.tensor_conversion import to_numpy_value
    try:
        arr = to_numpy_value(value, dtype)
    except (TypeError, ValueError):
        return None
    from tf1compat.framework.constant_op import value_to_torch
    out = value_to_torch(arr, dtype, current_device())
    if key is not None and len(_SCALARS) < 4096:
        _SCALARS[key] = out
    return out


# -- entry points ------------------------------------------------------------------------------

def execute(op_def: _op_def.OpDef, inputs: Sequence[Any], attrs: Optional[dict],
            name: Optional[str]) -> EagerOperation:
    """`apply_op` under eager execution: runs the op, returns an op-like result."""
    out = _execute(op_def, inputs, attrs, name)
    if type(out) is EagerOperation:
        return out
    return EagerOperation([out], op_def.type)


def execute1(op_type: str, inputs: Sequence[Any], attrs: Optional[dict],
             name: Optional[str]) -> Any:
    """`apply_op1` under eager execution: runs a single-output op, returns its tensor."""
    op_def = _OP_DEFS.get(op_type)
    if op_def is None:
        op_def = _OP_DEFS[op_type] = _op_def.get_op_def(op_type)
    out = _execute(op_def, inputs, attrs, name)
    if type(out) is EagerOperation:
        return out._outputs[0]
    return out


def _execute(op_def: _op_def.OpDef, inputs: Sequence[Any], attrs: Optional[dict],
             name: Optional[str]) -> Any:
    """Runs one op; returns its output EagerTensor (one output) or an EagerOperation.

    The key of the kernel cache is (op, device, given attrs, then shape and dtype enum of
    each input). Its hot path is written out for speed: most eager programs are many
    small ops whose inputs are EagerTensors.
    """
    n = _FAST.get(op_def)
    if n is None:
        n = _fast_arity(op_def)
    if n == 2 and len(inputs) == 2:
        x, y = inputs
        if type(x) is EagerTensor:
            ty = type(y)
            if ty is EagerTensor or ((ty is float or ty is int) and
                                     _PARTNERS[op_def][1] == 0):
                if ty is not EagerTensor:
                    v = _scalar(y, x._dtype)      # `x * 2.0`: the scalar takes x's dtype
                    if v is None:
                        return _slow_execute(op_def, inputs, attrs, name, None)
                    y = EagerTensor(v, x._dtype)
                    inputs = (x, y)
                vx = x._value
                vy = y._value
                try:
                    key = (op_def, _state["device"], tuple(attrs.items()) if attrs else None,
                           vx.shape, x._dtype._type_enum, vy.shape, y._dtype._type_enum)
                    entry = _CACHE.get(key)
                except (AttributeError, TypeError):   # bytes values, unhashable attrs
                    return _slow_execute(op_def, inputs, attrs, name, None)
                if entry is None:
                    return _slow_execute(op_def, inputs, attrs, name, key)
                kernel = entry.kernel
                if kernel is None or RECORD["recording"] or _MULTI_DEVICE:
                    return _run(entry, inputs, [vx, vy], name)
                try:
                    if _is_grad_enabled():
                        _set_grad_enabled(False)
                        try:
                            out = kernel(vx, vy)
                        finally:
                            _set_grad_enabled(True)
                    else:
                        out = kernel(vx, vy)
                except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
                    raise eager_error(e, op_def.type, name) from None
                if entry.n_out == 1:
                    return EagerTensor(out, entry.dtype0)
                return wrap_outputs(entry, out)
    elif n == 1 and len(inputs) == 1:
        x = inputs[0]
        if type(x) is EagerTensor:
            vx = x._value
            try:
                key = (op_def, _state["device"], tuple(attrs.items()) if attrs else None,
                       vx.shape, x._dtype._type_enum)
                entry = _CACHE.get(key)
            except (AttributeError, TypeError):
                return _slow_execute(op_def, inputs, attrs, name, None)
            if entry is None:
                return _slow_execute(op_def, inputs, attrs, name, key)
            kernel = entry.kernel
            if kernel is None or RECORD["recording"] or _MULTI_DEVICE:
                return _run(entry, inputs, [vx], name)
            try:
                if _is_grad_enabled():
                    _set_grad_enabled(False)
                    try:
                        out = kernel(vx)
                    finally:
                        _set_grad_enabled(True)
                else:
                    out = kernel(vx)
            except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
                raise eager_error(e, op_def.type, name) from None
            if entry.n_out == 1:
                return EagerTensor(out, entry.dtype0)
            return wrap_outputs(entry, out)
    elif n < 0:
        if n == _CONST:
            return _const(attrs)
        return _slow_execute(op_def, inputs, attrs, name, None)
    if n != len(inputs):
        return _slow_execute(op_def, inputs, attrs, name, None)
    # The general fast path: any number of EagerTensors, handles and Python scalars.
    key: list = [op_def, _state["device"], tuple(attrs.items()) if attrs else None]
    values = []
    converted = None
    for x in inputs:
        t = type(x)
        if t is EagerTensor:
            v = x._value
            try:
                key.append(v.shape)
            except AttributeError:
                break
            key.append(x._dtype._type_enum)
        elif t is EagerResourceHandle:
            v = x._value
            key.append(("R", x._handle_dtype._type_enum, tuple(x._handle_shape.as_list()
                                                                if x._handle_shape.rank
                                                                is not None else ())))
            key.append(None)
        elif (t is float or t is int) and values:
            partner = _PARTNERS[op_def][len(values)]
            if partner is None or type(inputs[partner]) is not EagerTensor:
                break
            dtype = inputs[partner]._dtype
            v = _scalar(x, dtype)
            if v is None:
                break
            key.append(v.shape)
            key.append(dtype._type_enum)
            if converted is None:
                converted = list(inputs)
            converted[len(values)] = EagerTensor(v, dtype)
        else:
            break
        values.append(v)
    else:
        if converted is not None:
            inputs = converted
        try:
            key_t = tuple(key)
            entry = _CACHE.get(key_t)
        except TypeError:        # an unhashable attr value
            key_t = entry = None
        if entry is not None:
            return _run(entry, inputs, values, name)
        return _slow_execute(op_def, inputs, attrs, name, key_t)
    return _slow_execute(op_def, inputs, attrs, name, None)


def _run(entry: _Entry, inputs: Sequence[Any], values: list, name: Optional[str]) -> Any:
    kernel = entry.kernel
    if kernel is None:
        kernel = _variant(entry, inputs)
    if _MULTI_DEVICE:
        # Inputs on another device than the op's move to it (graph plans insert the same
        # transfers); CPU-only ops (strings, py_func) get CPU values.
        device = entry.device
        values = [v.to(device) if isinstance(v, torch.Tensor) and v.device != device
                  else v for v in values]
    if RECORD["recording"]:
        out = RECORD["record"](entry, kernel, inputs, values, name)
    else:
        flushing = denormals.enter()
        try:
            if _is_grad_enabled():
                _set_grad_enabled(False)
                try:
                    out = kernel(*values)
                finally:
                    _set_grad_enabled(True)
            else:
                out = kernel(*values)
        except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
            raise eager_error(e, entry.op_def.type, name) from None
        finally:
            if flushing:
                denormals.leave()
    return wrap_outputs(entry, out)


def wrap_outputs(entry: _Entry, out: Any) -> Any:
    n = entry.n_out
    if n == 1:
        return EagerTensor(out, entry.dtypes[0])
    if n == 0:
        return EagerOperation([], entry.op_def.type)
    return EagerOperation([EagerTensor(v, d) for v, d in zip(out, entry.dtypes)],
                          entry.op_def.type)


def _const(attrs: dict) -> EagerTensor:
    value = attrs["value"]
    dtype = attrs["dtype"]
    device = _context._state["device"]
    key = None
    if value.size <= 16 and dtype != D.string:
        # Small constants (Python scalars in expressions, axes) are reused: eager values
        # are immutable. The bytes keep -0.0 apart from 0.0.
        key = (dtype, value.shape, value.tobytes(), device)
        cached = _SCALAR_CONSTS.get(key)
        if cached is not None:
            t = EagerTensor(cached, dtype)
            if dtype.is_integer:
                t._np = value
            return t
    from tf1compat.framework.constant_op import value_to_torch
    out = value_to_torch(value, dtype, current_device())
    if key is not None and len(_SCALAR_CONSTS) < 4096:
        _SCALAR_CONSTS[key] = out
    t = EagerTensor(out, dtype)
    if key is not None and dtype.is_integer:
        t._np = value          # the host value, for kernels that bake it in
    return t


# -- the general path: bind, infer, build --------------------------------------------------

def _slow_execute(op_def: _op_def.OpDef, inputs: Sequence[Any], attrs: Optional[dict],
                  name: Optional[str], fast_key: Any) -> Any:
    if len(inputs) != len(op_def.inputs):
        raise TypeError(f"{op_def.type} takes {len(op_def.inputs)} inputs "
                        f"({', '.join(a.name for a in op_def.inputs)}), got {len(inputs)}")
    given = dict(attrs) if attrs else {}
    full = dict(given)
    flat, groups = _bind(op_def, inputs, full, name)
    complete_attrs(op_def, full)
    device_str = _context._state["device"]
    key = _full_key(op_def, full, flat, device_str)
    entry = _CACHE.get(key) if key is not None else None
    if entry is None:
        entry = _build_entry(op_def, full, flat, groups, name, device_str)
        if key is not None:
            if len(_CACHE) > _CACHE_LIMIT:
                _CACHE.clear()
            _CACHE[key] = entry
    if fast_key is not None:
        _CACHE[fast_key] = entry
    values = [x._value for x in flat]
    return _run(entry, flat, values, name)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, np.ndarray):
        raise TypeError("array attr")
    hash(value)
    return value


def _full_key(op_def: _op_def.OpDef, attrs: dict, flat: list, device: Optional[str]) -> Any:
    try:
        parts: list = [op_def, device, tuple((k, _hashable(v)) for k, v in attrs.items())]
    except TypeError:
        return None
    for x in flat:
        if isinstance(x, EagerResourceHandle):
            parts.append(("handle", x._handle_dtype, x._handle_shape))
        else:
            parts.append((x._dtype, x._shape_tuple()))
    return tuple(parts)


def _build_entry(op_def: _op_def.OpDef, attrs: dict, flat: list, groups: list,
                 name: Optional[str], device_str: Optional[str]) -> _Entry:
    if op_def.kernel is None and not op_def.outputs:
        entry = _Entry(op_def, attrs, [], _CPU)       # NoOp: nothing to run
        entry.kernel = _nothing
        return entry
    if op_def.kernel is None:
        raise errors.UnimplementedError(
            None, None, f"No kernel for op type {op_def.type!r} under eager execution "
                        f"[Op:{op_def.type}]")
    dtypes = op_def.output_dtypes(attrs)
    device = _CPU if op_def.cpu_only else current_device()
    entry = _Entry(op_def, attrs, dtypes, device)
    entry.groups = groups
    entry.name = name or op_def.type
    try:
        resource_key = (op_def.type, device_str,
                        tuple((k, _hashable(v)) for k, v in attrs.items()))
    except TypeError:
        resource_key = (op_def.type, device_str, id(entry))
    kernel, reads = _build_kernel(entry, flat, resource_key)
    deps = tuple(i for i, t in enumerate(flat) if any(t is r for r in reads))
    if deps:
        entry.deps = deps
        entry.variants[_const_key(flat, deps)] = kernel
    else:
        entry.kernel = kernel
    return entry


def _build_kernel(entry: _Entry, flat: list, resource_key: Any) -> Tuple[Any, list]:
    """Runs the shape rule and the kernel factory for these inputs; records const reads."""
    op_def = entry.op_def
    attrs = entry.attrs
    name = entry.name
    reads: list = []
    previous = _et.const_reads[0]
    _et.const_reads[0] = reads
    try:
        ctx = _op_def.InferCtx(op_def.type, name, flat, attrs, entry.groups)
        try:
            shapes = op_def.shape(ctx)
        except ValueError as e:
            message = _kernel_refusal(entry, flat) or str(e)
            raise errors.InvalidArgumentError(None, None,
                                              f"{message} [Op:{op_def.type}]") from None
        outputs = [_Spec(d, s if isinstance(s, TensorShape) else as_shape(s))
                   for d, s in zip(entry.dtypes, shapes)]
        node = EagerNode(op_def, name, attrs, list(flat), outputs, _context._state["device"]
                         or "")
        kctx = EagerKernelContext(entry.device, node, resource_key)
        try:
            if op_def.constant:
                value = op_def.kernel(node, kctx)
                kernel = (lambda v: lambda *args: v)(value)
            else:
                kernel = op_def.kernel(node, kctx)
                if len(outputs) == 1 and op_def.has_list_outputs:
                    kernel = _op_def.single_output(kernel)
        except errors.OpError:
            raise
        except (ValueError, TypeError, NotImplementedError) as e:
            cls = errors.UnimplementedError if isinstance(e, NotImplementedError) \
                else errors.InvalidArgumentError
            raise cls(None, None, f"{e} [Op:{op_def.type}]") from None
    finally:
        _et.const_reads[0] = previous
    # Keep no reference to this call's values: later calls reuse the kernel.
    node.inputs = [_Spec(t._dtype, t.shape) for t in flat]
    entry.node = node
    entry.kctx = kctx
    return kernel, reads


def _kernel_refusal(entry: _Entry, flat: list) -> Optional[str]:
    """The message TF eager gives for inputs the shape rule refused. TF runs no shape
    rule eagerly: its kernel refuses them, in its own words. Those are the op's
    `kernel_error` rule's, or those of the kernel itself run on the values (pure ops
    only; None if it raises nothing TF-like, and the shape rule's message stays)."""
    op_def = entry.op_def
    values = [getattr(t, "_value", t) for t in flat]
    node = EagerNode(op_def, entry.name, entry.attrs, list(flat),
                     [_Spec(d, TensorShape(None)) for d in entry.dtypes],
                     _context._state["device"] or "")
    message = errors.kernel_error_message(op_def, node, values)
    if message is not None or op_def.stateful or op_def.kernel is None or op_def.constant:
        return message
    try:
        op_def.kernel(node, EagerKernelContext(entry.device, node, None))(*values)
    except errors.OpError as e:
        return e.message
    except Exception:  # noqa: BLE001 - torch's own words: the shape rule's are clearer
        return None
    return None


def _nothing(*args: Any) -> None:
    return None


def _const_key(inputs: Sequence[Any], deps: Tuple[int, ...]) -> tuple:
    out = []
    for i in deps:
        x = inputs[i]
        try:
            host = x._np
        except AttributeError:
            host = x._static_value()
            if host is None:        # (not a small integer tensor: key by identity)
                out.append(("id", id(x._value)))
                continue
        out.append(tuple(host.reshape(-1).tolist()))
    return tuple(out)


def _variant(entry: _Entry, inputs: Sequence[Any]) -> Callable[..., Any]:
    """The kernel built for the values of the inputs the factory baked in."""
    key = _const_key(inputs, entry.deps)
    kernel = entry.variants.get(key)
    if kernel is None:
        kernel, reads = _build_kernel(entry, list(inputs), entry.kctx._resource_key)
        deps = tuple(i for i, t in enumerate(inputs) if any(t is r for r in reads))
        if not set(deps) <= set(entry.deps):
            entry.deps = tuple(sorted(set(deps) | set(entry.deps)))
            entry.variants.clear()
            key = _const_key(inputs, entry.deps)
        if len(entry.variants) > 1024:
            entry.variants.clear()
        entry.variants[key] = kernel
    return kernel


_OP_DEFS: Dict[str, _op_def.OpDef] = {}
EAGER_EXECUTOR["execute"] = execute
EAGER_EXECUTOR["execute1"] = execute1
