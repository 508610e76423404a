"""`tf.GradientTape` on torch autograd.

Recording: while a tape records, the executor hands every op to `_run_recorded`, which
runs its kernel under grad mode (wrapped with TF's gradient conventions, as graph-mode
gradient plans do: autodiff/grad_mode.py), so torch builds the autograd graph. Outside
any tape kernels run without autograd, so ops computed there are not connected (as TF
records only what runs inside the tape).

Sources:
* `tape.watch(x)` makes the EagerTensor's torch value a requires-grad leaf (a new tensor
  object sharing storage, so other tensors holding the same value are unaffected);
* a variable read while a tape records (`watch_accessed_variables`, trainable variables,
  or variables watched explicitly) turns the variable's stored value into a leaf for the
  rest of the recording; every leaf a variable had on the tape (a new one after each
  assignment) is a source for that variable, whose gradient is their sum, as TF sums
  the gradients of all its reads. Leaves are detached again when no tape records.

`gradient` calls `torch.autograd.grad` (with `create_graph` while any tape records, so
gradients of gradients work with nested tapes). A source that only feeds gathers
(`tf.gather`, `embedding_lookup`, `ResourceGather`) gets an `IndexedSlices` gradient,
as in TF.

A tape entered while a graph is built (TF 1.x graph mode, a tf.function's trace)
records the ops created there instead and returns symbolic gradients
(autodiff/graph_tape.py).

Limitations: tapes share torch's single autograd graph, so `stop_recording` of one tape
while another records, and tensors watched before `reset()` still connect.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import torch

from tf1compat.autodiff.graph_tape import GraphRecording
from tf1compat.framework import context as _fw_context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.hooks import TAPE
from tf1compat.runtime import eager_executor as _ex
from tf1compat.runtime.eager_tensor import EagerResourceHandle, EagerTensor

__all__ = ["GradientTape", "stop_recording", "implicit_gradients", "implicit_grad",
           "implicit_value_and_gradients", "gradients_function", "value_and_gradients_function",
           "variable_accessed", "register_variable", "VariableWatcher", "lift_to_eager"]

_set_grad_enabled = _ex._set_grad_enabled

# Recording tapes (innermost last) and variable watchers (custom_gradient).
_TAPES: List["GradientTape"] = []
_WATCHERS: List["VariableWatcher"] = []
# Eager variables by store key (weak: a variable dies with its last reference).
import weakref  # noqa: E402
_VARIABLES: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()
# Store keys whose value was made a leaf by a recording tape.
_LEAFED: Dict[str, Any] = {}


def _update_flag() -> None:
    TAPE["recording"] = bool(_TAPES or _WATCHERS)
    if not _TAPES and _LEAFED:
        state = _ex.RUNTIME.state
        for key, leaf in _LEAFED.items():
            if state.get(key) is leaf:
                state[key] = leaf.detach()
        _LEAFED.clear()


def register_variable(var: Any) -> None:
    """Called by eager variables at creation: tapes look them up by store key."""
    _VARIABLES[var._handle._value] = var


def _is_float(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and (value.is_floating_point() or
                                                value.is_complex())


def variable_accessed(key: str) -> None:
    """A variable's value is being read while a tape records or a watcher listens."""
    var = _VARIABLES.get(key)
    for watcher in _WATCHERS:
        if var is not None:
            watcher._add(var)
    if not _TAPES:
        return
    for tape in _TAPES:
        if key in tape._watched_keys or (
                tape._watch_accessed_variables and var is not None and var.trainable):
            tape._watch_key(key, var)


class VariableWatcher:
    """Lists the variables read in its block (what tf.custom_gradient needs)."""

    def __init__(self) -> None:
        self._vars: List[Any] = []

    def _add(self, var: Any) -> None:
        if all(v is not var for v in self._vars):
            self._vars.append(var)

    def __enter__(self) -> "VariableWatcher":
        _WATCHERS.append(self)
        _update_flag()
        return self

    def __exit__(self, *exc: Any) -> None:
        _WATCHERS.remove(self)
        _update_flag()

    def watched_variables(self) -> tuple:
        return tuple(self._vars)


# -- running ops while recording -------------------------------------------------------------

_GRAD_KERNELS: Dict[Any, Callable[..., Any]] = {}


def _grad_kernel(entry: Any, kernel: Callable[..., Any], inputs: Sequence[Any]
                 ) -> Callable[..., Any]:
    """The kernel with TF's gradient semantics (as grad_mode.GradModeRewriter.wrap)."""
    wrapped = _GRAD_KERNELS.get(kernel)
    if wrapped is not None:
        return wrapped
    from tf1compat.autodiff import grad_mode
    from tf1compat.autodiff.registry import gradient_function, none_input_indices
    node = entry.node
    saved = node.inputs
    node.inputs = list(inputs)       # conventions may read constant inputs (Cumprod axis)
    try:
        wrapped = kernel
        try:
            kind, value = gradient_function(node)
        except LookupError:
            kind, value = "builtin", node.type
        if kind == "none":
            if grad_mode._float_in_and_out(node):
                wrapped = lambda *args: kernel(*[grad_mode._detached(a) for a in args])  # noqa
        elif kind != "python" and value == node.type:
            nones = none_input_indices(node.type)
            if nones:
                wrapped = grad_mode._detach_inputs(kernel, nones)
            formula = entry.op_def.grad_formula
            conv = None if formula is None else formula(node, wrapped, None)
            if conv is not None:
                wrapped = conv
    finally:
        node.inputs = saved
    if len(_GRAD_KERNELS) > 20000:
        _GRAD_KERNELS.clear()
    _GRAD_KERNELS[kernel] = wrapped
    return wrapped


def _run_recorded(entry: Any, kernel: Callable[..., Any], inputs: Sequence[Any],
                  values: list, name: Optional[str]) -> Any:
    op_def = entry.op_def
    differentiable = op_def.grad != "none"
    if differentiable:
        for x, v in zip(inputs, values):
            if type(x) is EagerResourceHandle:
                variable_accessed(v)
    needs_grad = False
    if _TAPES and differentiable:
        state = _ex.RUNTIME.state
        for x, v in zip(inputs, values):
            if type(x) is EagerResourceHandle:
                v = state.get(v)
            # Tensors, and TensorArray handles holding tensors with autograd history.
            if getattr(v, "requires_grad", False) is True:
                needs_grad = True
                break
    try:
        if needs_grad:
            run = _grad_kernel(entry, kernel, inputs)
            previous = torch.is_grad_enabled()
            _set_grad_enabled(True)
            try:
                out = run(*values)
            finally:
                _set_grad_enabled(previous)
        elif torch.is_grad_enabled():
            _set_grad_enabled(False)
            try:
                out = kernel(*values)
            finally:
                _set_grad_enabled(True)
        else:
            out = kernel(*values)
    except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
        raise _ex.eager_error(e, op_def.type, name) from None
    if needs_grad and op_def.grad_indexed_slices:
        _record_sparse(entry, inputs, values, out)
    return out


def _record_sparse(entry: Any, inputs: Sequence[Any], values: list, out: Any) -> None:
    """Notes a gather from a leaf, so its gradient can be IndexedSlices (TF's form)."""
    attrs = entry.attrs
    if attrs.get("batch_dims", 0):
        return
    # The declared signature says where the gathered rows come from: a resource input holds
    # the variable's store key; an `axis` input must gather along axis 0.
    arg_names = [arg.name for arg in entry.op_def.inputs]
    if "axis" in arg_names:
        axis = values[arg_names.index("axis")]
        if not isinstance(axis, torch.Tensor) or axis.numel() != 1 or int(axis) != 0:
            return
    params = values[0]
    if entry.op_def.inputs[0].fixed_dtype == D.resource:
        params = _ex.RUNTIME.state.get(params)
    if not isinstance(params, torch.Tensor) or not (params.requires_grad and params.is_leaf):
        return
    record = (params, values[1], out)
    for tape in _TAPES:
        tape._sparse.setdefault(id(params), []).append(record)


TAPE["record"] = _run_recorded


# -- the tape ------------------------------------------------------------------------------

def _flatten(structure: Any) -> list:
    from tf1compat.util import nest
    return nest.flatten(structure)


def _pack(structure: Any, flat: list) -> Any:
    from tf1compat.util import nest
    return nest.pack_sequence_as(structure, flat)


def _is_variable(x: Any) -> bool:
    return getattr(x, "_is_resource_variable", False) and hasattr(x, "_handle")


class GradientTape:
    """`tf.GradientTape(persistent=False, watch_accessed_variables=True)`."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recording = False
        self._tape_active = False         # has recorded data (TF's `self._tape`)
        self._watched_keys: Dict[str, Any] = {}      # store key -> variable (ordered)
        self._leaves: Dict[str, List[torch.Tensor]] = {}
        self._sparse: Dict[int, list] = {}
        self._watched_after_use: tuple = ()
        # Entered while a graph is built (graph mode, a tf.function's trace): what it
        # records there (autodiff/graph_tape.py); None for an eager tape.
        self._graph_recording: Optional[GraphRecording] = None

    # -- recording --------------------------------------------------------------------------
    def __enter__(self) -> "GradientTape":
        self._push_tape()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._recording:
            self._pop_tape()

    def _push_tape(self) -> None:
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to "
                             "re-enter an already-active tape.")
        if not self._tape_active:
            self._tape_active = True
            self._watched_keys = {}
            self._leaves = {}
            self._sparse = {}
            self._graph_recording = None if _fw_context.executing_eagerly() else \
                GraphRecording(get_default_graph(), self._watch_accessed_variables)
        self._recording = True
        if self._graph_recording is not None:
            self._graph_recording.start()
            return
        _TAPES.append(self)
        _update_flag()

    def _pop_tape(self) -> None:
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._recording = False
        if self._graph_recording is not None:
            self._graph_recording.stop()
            return
        _TAPES.remove(self)
        _update_flag()

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Ops in the block are not recorded by this tape."""
        if not self._tape_active:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        try:
            yield
        finally:
            self._push_tape()

    def reset(self) -> None:
        """Forgets everything recorded so far (the tape keeps recording)."""
        self._pop_tape()
        self._tape_active = False
        self._push_tape()

    def watch(self, tensor: Any) -> None:
        """Makes tensors (or variables) sources this tape differentiates with respect to."""
        for t in _flatten(tensor):
            if self._graph_recording is not None:
                self._graph_recording.watch(t)
                continue
            if _is_variable(t):
                self._watch_key(t._handle._value, t)
                continue
            if not isinstance(t, EagerTensor):
                raise ValueError(f"Passed in object of type {type(t)}, not tf.Tensor or "
                                 "tf.Variable or ExtensionType.")
            value = t._value
            if _is_float(value) and not value.requires_grad:
                t._value = value.detach().requires_grad_()

    def _watch_key(self, key: str, var: Any) -> None:
        if key not in self._watched_keys:
            self._watched_keys[key] = var
        state = _ex.RUNTIME.state
        value = state.get(key)
        if not _is_float(value):
            return
        if not (value.requires_grad and value.is_leaf):
            value = value.detach().requires_grad_()
            state[key] = value
            _LEAFED[key] = value
        leaves = self._leaves.setdefault(key, [])
        if not leaves or leaves[-1] is not value:
            leaves.append(value)

    def watched_variables(self) -> tuple:
        """The variables this tape watched, in the order they were first watched."""
        if not self._tape_active:
            return self._watched_after_use
        if self._graph_recording is not None:
            return tuple(self._graph_recording.variables())
        return tuple(v for v in self._watched_keys.values() if v is not None)

    # -- gradients ----------------------------------------------------------------------------
    def _begin_gradient(self) -> None:
        if not self._tape_active:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute "
                               "one set of gradients (or jacobians)")
        if self._recording and not self._persistent:
            self._pop_tape()

    def _end_gradient(self) -> None:
        if not self._persistent:
            self._watched_after_use = self.watched_variables()
            self._tape_active = False

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: Any = "none") -> Any:
        """d(sum of targets)/d(sources), with the structure of `sources`."""
        self._begin_gradient()
        unconnected = _unconnected_mode(unconnected_gradients)
        if self._graph_recording is not None:
            try:
                return self._graph_recording.gradient(target, sources, output_gradients,
                                                      unconnected)
            finally:
                self._end_gradient()
        flat_targets = [_target_value(t) for t in _flatten(target)]
        flat_sources = _flatten(sources)
        grads_out = None
        if output_gradients is not None:
            grads_out = [None if g is None else _value_of(g) for g in
                         _flatten(output_gradients)]
        try:
            flat_grads = self._compute(flat_targets, flat_sources, grads_out, unconnected)
        finally:
            self._end_gradient()
        return _pack(sources, flat_grads)

    def _compute(self, targets: list, sources: list, grads_out: Optional[list],
                 unconnected: str) -> list:
        outs, out_grads = [], []
        for i, t in enumerate(targets):
            if isinstance(t, torch.Tensor) and t.requires_grad:
                g = grads_out[i] if grads_out is not None and i < len(grads_out) else None
                outs.append(t)
                out_grads.append(torch.ones_like(t) if g is None else
                                 g.to(dtype=t.dtype, device=t.device))
        # Each source maps to the autograd inputs whose gradients make up its gradient.
        inputs: List[torch.Tensor] = []
        plans = []
        for s in sources:
            plans.append(self._source_plan(s, inputs))
        create = bool(_TAPES)
        grads: Sequence[Any] = [None] * len(inputs)
        if outs and inputs:
            previous = torch.is_grad_enabled()
            _set_grad_enabled(create)
            try:
                grads = torch.autograd.grad(outs, inputs, out_grads, retain_graph=True,
                                            create_graph=create, allow_unused=True)
            except RuntimeError as e:
                raise errors.InvalidArgumentError(None, None, f"gradient: {e}") from None
            finally:
                _set_grad_enabled(previous)
        return [self._assemble(s, plan, grads, unconnected) for s, plan in zip(sources, plans)]

    def _source_plan(self, source: Any, inputs: List[torch.Tensor]) -> Any:
        """Adds the autograd inputs of `source` to `inputs`; returns how to combine them."""
        def add(t: torch.Tensor) -> int:
            inputs.append(t)
            return len(inputs) - 1
        if _is_variable(source):
            leaves = self._leaves.get(source._handle._value, [])
            dense = [add(leaf) for leaf in leaves]
            sparse = [[(add(out), idx) for _, idx, out in self._sparse.get(id(leaf), [])]
                      for leaf in leaves]
            return ("var", dense, sparse, leaves)
        if isinstance(source, EagerTensor):
            value = source._value
            if not (isinstance(value, torch.Tensor) and value.requires_grad):
                return ("none",)
            i = add(value)
            sparse = [(add(out), idx) for _, idx, out in self._sparse.get(id(value), [])]
            return ("tensor", [i], [sparse], [value])
        raise ValueError(f"Passed in object of type {type(source)}, not tf.Tensor or "
                         "tf.Variable or ExtensionType.")

    def _assemble(self, source: Any, plan: Any, grads: Sequence[Any], unconnected: str
                  ) -> Any:
        dtype = source.dtype.base_dtype
        if plan[0] != "none":
            _, dense_idx, sparse_idx, leaves = plan
            total = None
            slices: list = []
            all_sparse = True
            for i, sparse, leaf in zip(dense_idx, sparse_idx, leaves):
                g = grads[i]
                if g is None:
                    continue
                parts = [(grads[j], idx) for j, idx in sparse if grads[j] is not None]
                if parts and _matches_sparse(g, parts, leaf):
                    slices.extend(parts)
                else:
                    all_sparse = False
                total = g if total is None else total + g
            if total is not None:
                if all_sparse and slices:
                    return _indexed_slices(slices, leaves[0], dtype)
                return EagerTensor(total, dtype)
        if unconnected == "zero":
            if _is_variable(source):
                return EagerTensor(torch.zeros_like(_ex.RUNTIME.state[source._handle._value]
                                                    .detach()), dtype)
            return EagerTensor(torch.zeros_like(source._value.detach()), dtype)
        return None

    def jacobian(self, target: Any, sources: Any, unconnected_gradients: Any = "none",
                 parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """d target[i...] / d source[j...] for each source: shape target + source shape."""
        self._begin_gradient()
        unconnected = _unconnected_mode(unconnected_gradients)
        if self._graph_recording is not None:
            try:
                return self._graph_recording.jacobian(target, sources, unconnected)
            finally:
                self._end_gradient()
        flat_sources = _flatten(sources)
        t = _target_value(target)
        try:
            results = [self._jacobian_one(t, s, unconnected, batch=False)
                       for s in flat_sources]
        finally:
            self._end_gradient()
        return _pack(sources, results)

    def batch_jacobian(self, target: Any, source: Any, unconnected_gradients: Any = "none",
                       parallel_iterations: Any = None,
                       experimental_use_pfor: bool = True) -> Any:
        """Per-example jacobians: [batch] + target.shape[1:] + source.shape[1:]."""
        self._begin_gradient()
        unconnected = _unconnected_mode(unconnected_gradients)
        if self._graph_recording is not None:
            try:
                return self._graph_recording.batch_jacobian(target, source, unconnected)
            finally:
                self._end_gradient()
        t = _target_value(target)
        try:
            if t.dim() < 1 or _source_value(source) is None or \
                    t.shape[0] != _source_shape(source)[0]:
                raise ValueError("Need first dimension of target shape "
                                 f"({tuple(t.shape)}) and source shape "
                                 f"({tuple(_source_shape(source))}) to match.")
            return self._jacobian_one(t, source, unconnected, batch=True)
        finally:
            self._end_gradient()

    def _jacobian_one(self, t: torch.Tensor, source: Any, unconnected: str,
                      batch: bool) -> Any:
        with torch.enable_grad():      # the row slices must stay connected to the graph
            return self._jacobian_rows(t, source, unconnected, batch)

    def _jacobian_rows(self, t: torch.Tensor, source: Any, unconnected: str,
                       batch: bool) -> Any:
        shape = _source_shape(source)
        dtype = source.dtype.base_dtype
        if batch:
            rows = t.reshape(t.shape[0], -1)
            n = rows.shape[1]
            pieces = []
            for j in range(n):
                g = self._compute([rows[:, j]], [source], None, "zero")[0]
                pieces.append(_dense(g, shape).reshape(shape[0], -1))
            out_shape = tuple(t.shape) + tuple(shape[1:])
            if not pieces:
                return EagerTensor(torch.zeros(out_shape, dtype=t.dtype), dtype)
            stacked = torch.stack(pieces, dim=1)      # [b, n, prod(source rest)]
            return EagerTensor(stacked.reshape(out_shape), dtype)
        flat = t.reshape(-1)
        pieces = []
        connected = False
        for j in range(flat.shape[0]):
            g = self._compute([flat[j]], [source], None, unconnected)[0]
            if g is not None:
                connected = True
            pieces.append(None if g is None else _dense(g, shape))
        if not connected and unconnected == "none":
            return None
        out_shape = tuple(t.shape) + tuple(shape)
        if not pieces:
            return EagerTensor(torch.zeros(out_shape, dtype=_torch_dtype(dtype)), dtype)
        stacked = torch.stack([p if p is not None else torch.zeros(tuple(shape),
                                                                   dtype=_torch_dtype(dtype))
                               for p in pieces])
        return EagerTensor(stacked.reshape(out_shape), dtype)


def _torch_dtype(dtype: D.DType) -> torch.dtype:
    return dtype.torch_dtype


def _dense(g: Any, shape: tuple) -> torch.Tensor:
    """A gradient (EagerTensor or IndexedSlices) as a dense torch tensor."""
    if isinstance(g, EagerTensor):
        return g._value
    values = _value_of(g.values)
    indices = _value_of(g.indices).long().reshape(-1)
    out = torch.zeros(tuple(shape), dtype=values.dtype, device=values.device)
    return out.index_add(0, indices, values.reshape((indices.shape[0],) + tuple(shape[1:])))


def _matches_sparse(dense: torch.Tensor, parts: list, leaf: torch.Tensor) -> bool:
    """Whether the gathers account for the whole gradient (no other use of the source)."""
    if dense.dim() == 0:
        return False
    acc = torch.zeros_like(dense)
    for g, idx in parts:
        flat_idx = idx.reshape(-1).long().to(dense.device)
        acc = acc.index_add(0, flat_idx, g.reshape((flat_idx.shape[0],) +
                                                   tuple(dense.shape[1:])).to(dense.dtype))
    return bool(torch.allclose(acc, dense, rtol=1e-5, atol=1e-7))


def _indexed_slices(parts: list, leaf: torch.Tensor, dtype: D.DType) -> Any:
    from tf1compat.framework.indexed_slices import IndexedSlices
    idx_dtype = D.as_dtype(parts[0][1].dtype) if isinstance(parts[0][1], torch.Tensor) \
        else D.int32
    values = torch.cat([g.reshape((-1,) + tuple(leaf.shape[1:])) for g, _ in parts])
    indices = torch.cat([idx.reshape(-1) for _, idx in parts])
    shape = torch.tensor(tuple(leaf.shape), dtype=torch.int32)
    return IndexedSlices(EagerTensor(values, dtype), EagerTensor(indices, idx_dtype),
                         EagerTensor(shape, D.int32))


def _unconnected_mode(value: Any) -> str:
    mode = getattr(value, "value", value)
    if mode not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}")
    return mode


def _value_of(x: Any) -> torch.Tensor:
    if _is_variable(x):
        x = x.value()
    if not isinstance(x, EagerTensor):
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        x = convert_to_tensor(x)
    return x._value


def _target_value(t: Any) -> Any:
    if _is_variable(t):
        t = t.value()
    if isinstance(t, EagerTensor):
        return t._value
    if t is None:
        return None
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    return convert_to_tensor(t)._value


def _source_value(s: Any) -> Any:
    if _is_variable(s):
        return _ex.RUNTIME.state.get(s._handle._value)
    return getattr(s, "_value", None)


def _source_shape(s: Any) -> tuple:
    value = _source_value(s)
    return tuple(value.shape)


# -- stop_recording (module level), implicit gradients ------------------------------------

@contextlib.contextmanager
def stop_recording() -> Iterator[None]:
    """Ops in the block are recorded by no tape (`tfe` / `tape.stop_recording`)."""
    tapes = list(_TAPES)
    for t in tapes:
        t._pop_tape()
    try:
        yield
    finally:
        for t in tapes:
            t._push_tape()


@contextlib.contextmanager
def lift_to_eager() -> Iterator[None]:
    """TF's `init_scope` inside a traced function: the block runs eagerly (variables a
    function creates on its first call live outside it), under the graph's name scope,
    with no tape recording."""
    state = _fw_context._state
    if state["eager"]:
        yield
        return
    from tf1compat.framework.graph import get_default_graph
    scope = get_default_graph().get_name_scope()
    old_eager, old_scope = state["eager"], state["scope"]
    state["eager"] = True
    state["scope"] = scope + "/" if scope else ""
    try:
        with stop_recording():
            yield
    finally:
        state["eager"] = old_eager
        state["scope"] = old_scope


def implicit_value_and_gradients(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tfe.implicit_value_and_gradients(f)`: (f(*args), [(grad, variable), ...]) for the
    trainable variables f reads."""
    @functools.wraps(f)
    def grad_fn(*args: Any, **kwds: Any) -> Any:
        with GradientTape() as tape:
            end_node = f(*args, **kwds)
        if end_node is None:
            raise ValueError(f"Cannot differentiate a function that returns None; did you "
                             f"forget to return a value from {f.__name__}?")
        variables = tape.watched_variables()
        if not variables:
            raise ValueError("No trainable variables were accessed while the function was "
                             "being computed.")
        grads = tape.gradient(end_node, list(variables))
        return end_node, list(zip(grads, variables))
    return grad_fn


def implicit_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """TF's backprop.implicit_grad: the name tfe.implicit_gradients has in backprop."""
    return implicit_gradients(f)


def implicit_gradients(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tfe.implicit_gradients(f)`: [(grad, variable), ...] for the variables f reads."""
    value_and_grads = implicit_value_and_gradients(f)

    @functools.wraps(f)
    def grad_fn(*args: Any, **kwds: Any) -> Any:
        return value_and_grads(*args, **kwds)[1]
    return grad_fn


def value_and_gradients_function(f: Callable[..., Any], params: Any = None
                                 ) -> Callable[..., Any]:
    """`tfe.value_and_gradients_function(f, params)`: (f(*args), gradients of f with
    respect to its positional arguments (or those named/indexed by `params`))."""
    spec = inspect.getfullargspec(f)
    if params is None:
        params = spec.args
        if inspect.ismethod(f):
            params = params[1:]
    indices = []
    for p in params:
        if isinstance(p, int):
            indices.append(p)
        elif p in spec.args:
            indices.append(spec.args.index(p))
        else:
            raise ValueError(f"Function {f.__name__} has no parameter {p!r}")

    @functools.wraps(f)
    def decorated(*args: Any, **kwds: Any) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        args = list(args)
        wrt = indices if indices else list(range(len(args)))
        with GradientTape() as tape:
            for i in wrt:
                args[i] = convert_to_tensor(args[i])
                tape.watch(args[i])
            value = f(*args, **kwds)
        if value is None:
            raise ValueError(f"Cannot differentiate a function that returns None; did you "
                             f"forget to return a value from {f.__name__}?")
        grads = tape.gradient(value, [args[i] for i in wrt])
        return value, grads
    return decorated


def gradients_function(f: Callable[..., Any], params: Any = None) -> Callable[..., Any]:
    """`tfe.gradients_function(f, params)`: the gradients of f w.r.t. its arguments."""
    value_and_grads = value_and_gradients_function(f, params)

    @functools.wraps(f)
    def decorated(*args: Any, **kwds: Any) -> Any:
        return value_and_grads(*args, **kwds)[1]
    return decorated
