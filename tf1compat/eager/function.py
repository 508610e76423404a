"""`tf.function` / `tf.contrib.eager.defun`: trace a Python function to a graph, run its plan.

Under eager execution the first call with a new input signature (dtypes and shapes of
tensor arguments, values of other arguments) traces the function: it runs once with
placeholders for its tensor arguments inside a `FuncGraph` (graph mode), and the graph is
compiled to a plan by the session machinery (runtime/plan.py, codegen.py) over a private
runtime whose variable store is the eager store. Later calls with that signature run the
cached plan. Eager values the function uses from outside are captured: tensors as
placeholders fed with their values at each call, variables (their handles) as
`VarHandleOp`s naming their store key, so reads and assignments inside the plan act on
the live variables. Stateful ops the function creates (assignments, random ops, prints)
run even when no output depends on them, in creation order, as TF's automatic control
dependencies order them.

Variables created while tracing (a Keras layer's first call) are lifted out of the
function and created eagerly, as TF's `init_scope` does. Called in graph mode, the
function is simply called (its ops join the current graph).

TF's AutoGraph (Python `if`/`for` on tensors) is not implemented: a function whose
tracing needs a tensor as a Python bool runs eagerly op by op instead (same values,
no plan).
"""

from __future__ import annotations

import functools
import logging
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.errors import OperatorNotAllowedInGraphError
from tf1compat.framework.func_graph import FuncGraph
from tf1compat.framework.hooks import TAPE
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.runtime import denormals
from tf1compat.runtime import eager_executor as _ex
from tf1compat.autodiff import tape as _tape
from tf1compat.runtime.eager_runtime import _MULTI_DEVICE
from tf1compat.data.structure import TensorSpec
from tf1compat.runtime.eager_tensor import EagerResourceHandle, EagerTensor

__all__ = ["function", "defun", "Function", "ConcreteFunction", "FuncGraph", "TensorSpec"]

_log = logging.getLogger("tf1compat")
# tf.config.run_functions_eagerly(True): functions run their Python code op by op.
RUN_EAGERLY = [False]
# Stateful ops without side effects: they run only when an output needs them.
_READS = frozenset({"VarHandleOp", "ReadVariableOp", "VarIsInitializedOp", "Placeholder",
                    "ResourceGather", "ResourceGatherNd"})


# -- signatures --------------------------------------------------------------------------------

def _flatten(structure: Any) -> list:
    from tf1compat.util import nest
    return nest.flatten(structure)


def _pack(structure: Any, flat: list) -> Any:
    from tf1compat.util import nest
    return nest.pack_sequence_as(structure, flat)


def _is_variable(x: Any) -> bool:
    return getattr(x, "_is_resource_variable", False) and hasattr(x, "_handle")


def _leaf_key(x: Any) -> Any:
    if isinstance(x, EagerTensor):
        return ("T", x._dtype, x._shape_tuple())
    if isinstance(x, np.ndarray):
        return ("T", D.as_dtype(x.dtype) if x.dtype != object else D.string, x.shape)
    if _is_variable(x):
        return ("V", id(x))
    try:
        hash(x)
        return ("P", type(x), x)
    except TypeError:
        return ("O", id(x))


class ConcreteFunction:
    """One trace of a function: its graph, its plan, and how to feed and unpack them."""

    def __init__(self, graph: FuncGraph, arg_tensors: List[Tensor], arg_positions: List[int],
                 structured_outputs: Any, fetches: List[Any], output_positions: List[int]):
        from tf1compat.runtime.session import SessionRuntime
        self.graph = graph
        self._arg_tensors = arg_tensors
        self._arg_positions = arg_positions
        self.structured_outputs = structured_outputs
        self._fetches = fetches
        self._output_positions = output_positions
        runtime = SessionRuntime(graph)
        runtime.state = _ex.RUNTIME.state
        self._runtime = runtime
        feeds = list(arg_tensors) + graph.capture_placeholders
        self._feed_tensors = feeds
        self._plan = self._build(for_function=False)
        # A function that takes gradients itself (a tape or tf.gradients inside), called
        # while an eager tape records: a plan whose every op keeps its autograd graph,
        # so the outer tape differentiates through the inner gradients too (built on
        # the first such call; the plain plan frees what its own gradients do not use).
        self._outer_plan: Any = None
        self._handles = [op._attrs["shared_name"] for op in graph.get_operations()
                         if op.type == "VarHandleOp"]

    @property
    def inputs(self) -> List[Tensor]:
        """The function graph's placeholders: arguments, then captured values."""
        return list(self._feed_tensors)

    @property
    def outputs(self) -> List[Tensor]:
        """The function graph's output tensors."""
        return [t for t in self._fetches[:len(self._output_positions)]
                if isinstance(t, Tensor)]

    def _build(self, for_function: bool) -> Any:
        plan = self._runtime.builder.build(self._fetches, self._feed_tensors,
                                           for_function=for_function)
        if plan.error is not None:
            raise plan.error
        from tf1compat.runtime.codegen import compile_plan
        compile_plan(plan, name="function", outer_gradients=True)
        return plan

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs this trace on arguments of its signature (`get_concrete_function()`'s
        result, called as TF's ConcreteFunction is)."""
        return self._call_flat(_flatten((list(args), dict(kwargs))))

    def _call_flat(self, flat_args: list) -> Any:
        from tf1compat.runtime import session as _session
        values = []
        for pos in self._arg_positions:
            x = flat_args[pos]
            if not isinstance(x, EagerTensor):
                from tf1compat.framework.tensor_conversion import convert_to_tensor
                x = convert_to_tensor(x)
            values.append(x._value)
        for value in self.graph.captured_tensors:
            values.append(value._value)
        if _MULTI_DEVICE:
            # The plan expects each fed value on its placeholder's device.
            placer = self._runtime.placer
            values = [v.to(placer.device_for(t._op)) if isinstance(v, torch.Tensor) and
                      v.device != placer.device_for(t._op) else v
                      for v, t in zip(values, self._feed_tensors)]
        recording = TAPE["recording"]
        if recording:
            for key in self._handles:
                _tape.variable_accessed(key)
        outer = recording and bool(_tape._TAPES)
        plan = self._plan
        if outer and plan.needs_grad:
            if self._outer_plan is None:
                self._outer_plan = self._build(for_function=True)
            plan = self._outer_plan
        # A tape outside records through the function; a gradient inside needs autograd.
        grad = outer or plan.needs_grad
        previous = torch.is_grad_enabled()
        _ex._set_grad_enabled(grad)
        flushing = denormals.enter()
        try:
            raw = plan.fn(values, self._runtime.state)
        except errors.OpError as e:
            raise _session._with_op(e, _session._failing_op(e)) from None
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
            raise _session._map_exception(e) from e
        finally:
            if flushing:
                denormals.leave()
            _ex._set_grad_enabled(previous)
        flat_out = _flatten(self.structured_outputs)
        for i, value in zip(self._output_positions, raw):
            fetch = flat_out[i]
            flat_out[i] = EagerTensor(value, fetch.dtype.base_dtype) \
                if isinstance(fetch, Tensor) else None
        return _pack(self.structured_outputs, flat_out)


class Function:
    """A Python function traced per input signature and run as a compiled plan."""

    def __init__(self, python_function: Callable[..., Any], name: Optional[str] = None,
                 input_signature: Optional[Sequence[Any]] = None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = None if input_signature is None else list(input_signature)
        self._concrete: Dict[Any, Any] = {}
        self._bound: "weakref.WeakKeyDictionary[Any, Function]" = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self) -> Callable[..., Any]:
        return self._python_function

    @property
    def input_signature(self) -> Any:
        return self._input_signature

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = Function(functools.partial(self._python_function, instance), self._name,
                             self._input_signature)
            self._bound[instance] = bound
        return bound

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not _context._state["eager"] or RUN_EAGERLY[0]:
            # Graph mode: ops join the graph; run_functions_eagerly: op by op.
            return self._python_function(*args, **kwargs)
        args = self._apply_signature(args)
        structure = (list(args), dict(kwargs))
        flat = _flatten(structure)
        try:
            n_sig = 0 if self._input_signature is None else len(self._input_signature)
            # Arguments an input signature covers trace once, whatever their shapes.
            key = tuple(("S",) if i < n_sig else _leaf_key(x) for i, x in enumerate(flat))
            hash(key)
        except TypeError:
            key = None
        concrete = self._concrete.get(key) if key is not None else None
        if concrete is None:
            concrete = self._trace(structure, flat)
            if key is not None:
                self._concrete[key] = concrete
        if concrete == "eager":
            return self._python_function(*args, **kwargs)
        return concrete._call_flat(flat)

    def _apply_signature(self, args: tuple) -> tuple:
        if self._input_signature is None:
            return args
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        if len(args) > len(self._input_signature):
            raise TypeError(f"{self._name}: got {len(args)} positional arguments for an "
                            f"input signature of {len(self._input_signature)}")
        out = []
        for x, spec in zip(args, self._input_signature):
            if isinstance(x, Tensor) and x.dtype.base_dtype != spec.dtype:
                raise TypeError(f"Python inputs incompatible with input_signature:\n  "
                                f"inputs: ({x!r})\n  input_signature: ({spec!r}).")
            t = convert_to_tensor(x, dtype=spec.dtype)
            if not spec.shape.is_compatible_with(t.shape):
                raise TypeError(f"Python inputs incompatible with input_signature:\n  "
                                 f"inputs: ({t!r})\n  input_signature: ({spec!r}).")
            out.append(t)
        return tuple(out)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The trace for these arguments: tensors, or `tf.TensorSpec`s standing for
        them; with an input signature and no arguments, the signature's."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        elif not any(isinstance(x, TensorSpec) for x in _flatten(list(args))):
            args = self._apply_signature(args)
        structure = (list(args), dict(kwargs))
        return self._trace(structure, _flatten(structure))

    def _trace(self, structure: Any, flat: list) -> Any:
        from tf1compat.ops.array_ops import placeholder
        graph = FuncGraph(self._name, lift_variables=True)
        from tf1compat.framework import random_seed
        graph.seed = random_seed._eager_state["seed"]    # random ops see the eager seed
        arg_tensors: List[Tensor] = []
        arg_positions: List[int] = []
        traced_flat = list(flat)
        signature = self._input_signature
        with graph.as_default():
            for i, x in enumerate(flat):
                if isinstance(x, (EagerTensor, np.ndarray, TensorSpec)) and not \
                        isinstance(x, EagerResourceHandle):
                    dtype = D.as_dtype(x.dtype) if isinstance(x, np.ndarray) else x.dtype
                    shape = TensorShape(x.shape) if isinstance(x, np.ndarray) else x.shape
                    if signature is not None and i < len(signature):
                        shape = signature[i].shape
                    p = placeholder(dtype, shape, name=f"arg{i}")
                    traced_flat[i] = p
                    arg_tensors.append(p)
                    arg_positions.append(i)
            args, kwargs = _pack(structure, traced_flat)
            try:
                outputs = self._python_function(*args, **kwargs)
            except OperatorNotAllowedInGraphError as e:
                _log.warning("tf.function %s: tracing needs Python control flow on tensors "
                             "(AutoGraph is not implemented); running it eagerly (%s)",
                             self._name, str(e)[:80])
                return "eager"
        flat_out = _flatten(outputs)
        # As TF, returned Python values (numbers, arrays) become tensors of the function.
        with graph.as_default():
            from tf1compat.framework.tensor_conversion import convert_to_tensor
            converted = False
            for i, o in enumerate(flat_out):
                if o is not None and not isinstance(o, (Tensor, Operation)) and \
                        not hasattr(o, "_as_graph_element"):
                    flat_out[i] = convert_to_tensor(o)
                    converted = True
            if converted:
                outputs = _pack(outputs, flat_out)
        fetches: List[Any] = []
        positions: List[int] = []
        for i, o in enumerate(flat_out):
            if isinstance(o, Tensor) and not o._is_eager_tensor:
                fetches.append(o)
                positions.append(i)
            elif isinstance(o, Operation):
                fetches.append(o)
                positions.append(i)
            elif _is_variable(o) or (hasattr(o, "_as_graph_element") and o is not None):
                raise NotImplementedError(f"tf.function {self._name}: returning "
                                          f"{type(o).__name__} objects is not supported; "
                                          "return tensors")
        # Stateful ops run even when no output needs them (TF's automatic control deps).
        fetched_ops = {f if isinstance(f, Operation) else f.op for f in fetches}
        for op in graph.get_operations():
            if op._op_def.stateful and op.type not in _READS and op not in fetched_ops and \
                    op._control_flow_context is None:
                fetches.append(op)
        concrete = ConcreteFunction(graph, arg_tensors, arg_positions, outputs, fetches,
                                    positions)
        return concrete


def function(func: Optional[Callable[..., Any]] = None, input_signature: Any = None,
             autograph: bool = True, experimental_autograph_options: Any = None,
             experimental_relax_shapes: bool = False, experimental_compile: Any = None,
             **unused: Any) -> Any:
    """`tf.function`: compiles `func` to a graph per input signature (eager execution)."""
    def decorate(f: Callable[..., Any]) -> Function:
        return Function(f, input_signature=input_signature)
    if func is None:
        return decorate
    return decorate(func)


def defun(func: Optional[Callable[..., Any]] = None, input_signature: Any = None,
          autograph: bool = True, experimental_autograph_options: Any = None,
          experimental_relax_shapes: bool = False) -> Any:
    """`tf.contrib.eager.defun`: the TF 1.x name of tf.function."""
    return function(func, input_signature=input_signature)
