"""`ExportedModule`: a TF1 graph computation as a plain `torch.nn.Module`.

The module owns the graph's variables (trainable ones as `nn.Parameter`s, the others
as buffers, at module paths derived from TF's names) and a `Program` (program.py): the
generated straight-line code of the computation, reading those parameters where TF
would read the variables. `forward` takes the feeds positionally or by name and returns
the fetches in their structure.

It behaves as torch modules do: `.to(device)` moves the variables and rebuilds the
program for the new device (kernels and constants live on one device), `state_dict()` /
`load_state_dict()` hold the variables, any `torch.optim` optimizer trains the
parameters, `copy.deepcopy` gives an independent module, `torch.compile` compiles it and
`torch.export.export` captures it (non-strict tracing; `problems()` lists what would
stop it). It cannot be pickled whole (its kernels are closures): save the state dict,
or the ExportedProgram torch.export makes.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
from torch import nn

from tf1compat.export.problems import ExportError, explain_trace_failure, graph_problems
from tf1compat.export.program import KnownValues, ModuleState, Program, is_traced, untraced
from tf1compat.export.spec import ExportSpec, reachable_ops
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.ops._kernels import dynamo_tracing
# The Session's mapping of kernel failures to TF's error classes and messages.
from tf1compat.runtime.session import _failing_op, _map_exception, _with_op

__all__ = ["ExportedModule", "VariableScope", "module_class"]


class VariableScope(nn.Module):
    """A TF name scope of an exported module: it holds the variables created under it."""

    def extra_repr(self) -> str:
        return ", ".join(f"{name}={list(value.shape)}" for name, value in
                         list(self._parameters.items()) + list(self._buffers.items())
                         if value is not None)


class _Feed:
    """How one forward argument becomes a feed value: dtype, static shape, name."""

    __slots__ = ("name", "tensor_name", "dtype", "np_dtype", "dims", "shape_text", "strings")

    def __init__(self, name: str, tensor: Any):
        self.name = name
        self.tensor_name = tensor.name
        base = tensor.dtype.base_dtype
        self.strings = base == D.string
        self.dtype = base.torch_dtype
        self.np_dtype = None if self.strings else base.as_numpy_dtype
        self.dims = tensor.shape._dims
        self.shape_text = str(tensor.shape)

    def convert(self, value: Any, device: torch.device, check: bool) -> Any:
        if self.strings:
            return np.asarray(value, dtype=object)
        if not isinstance(value, torch.Tensor):
            value = torch.as_tensor(np.asarray(value, dtype=self.np_dtype))
        if value.dtype != self.dtype:
            value = value.to(self.dtype)
        if check:
            if self.dims is not None and (len(self.dims) != value.dim() or any(
                    d is not None and d != n for d, n in zip(self.dims, value.shape))):
                raise ValueError(f"Cannot feed value of shape {tuple(value.shape)} for "
                                 f"Tensor {self.tensor_name}, which has shape "
                                 f"{self.shape_text}")
            if value.device != device:
                value = value.to(device)
        return value


class ExportedModule(nn.Module):
    """A TF1 computation as a torch module (made by `tf1compat.export.to_module`)."""

    def __init__(self, spec: ExportSpec, values: Dict[str, Any], device: torch.device):
        super().__init__()
        self._export_spec = spec
        self._feeds = [_Feed(n, t) for n, t in zip(spec.arg_names, spec.feeds)]
        for var in spec.variables:
            value = values[var.key]
            if not isinstance(value, torch.Tensor):
                raise TypeError(f"tf1compat.export: variable {var.key!r} holds "
                                f"{type(value).__name__} values; only tensors can be "
                                "module state")
            value = value.detach().to(device).clone()
            parent, name = self._container(var.path)
            if var.trainable and (value.is_floating_point() or value.is_complex()):
                parent.register_parameter(name, nn.Parameter(value))
            else:
                parent.register_buffer(name, value, persistent=not var.frozen)
        self._device = torch.device(device)
        self._build()

    # -- structure ---------------------------------------------------------------------
    def _container(self, path: str) -> Tuple[nn.Module, str]:
        *scopes, name = path.split(".")
        module: nn.Module = self
        for scope in scopes:
            child = module._modules.get(scope)
            if child is None:
                child = VariableScope()
                module.add_module(scope, child)
            module = child
        return module, name

    def _state(self) -> ModuleState:
        slots = {}
        for var in self._export_spec.variables:
            parent, name = self._container(var.path)
            slots[var.key] = (parent, name, var.trainable and name in parent._parameters)
        return ModuleState(slots)

    def _build(self) -> None:
        state = self._state()
        self._program = Program(self._export_spec, state, self._device)

    def _tracing_program(self) -> Program:
        # Kept on the program (rebuilt with it by `.to()`), not in a module attribute:
        # torch 2.4's export refuses a module whose attributes change while it traces.
        program = self._program.tracing_twin
        if program is None:
            with untraced():
                program = Program(self._export_spec, self._program.state, self._device,
                                  tracing=True)
            self._program.tracing_twin = program
        return program

    def tf_variables(self) -> Dict[str, torch.Tensor]:
        """TF variable name (`hidden1/weights`) -> its parameter or buffer."""
        out = {}
        for var in self._export_spec.variables:
            if not var.frozen:
                parent, name = self._container(var.path)
                out[var.key] = getattr(parent, name)
        return out

    @property
    def variable_names(self) -> Dict[str, str]:
        """Module path (`state_dict` key) -> TF variable name (`hidden1/weights`)."""
        return {v.path: v.key for v in self._export_spec.variables if not v.frozen}

    @property
    def code(self) -> str:
        """The generated Python code `forward` runs (one line per TF op)."""
        return self._program.source

    def problems(self) -> List[str]:
        """Why torch.export cannot capture this module, one line per op (empty: it can,
        unless a kernel needs input values to decide shapes, found while tracing)."""
        spec = self._export_spec
        return graph_problems(reachable_ops(spec.elements, spec.feeds), spec.torch_random)

    # -- running ------------------------------------------------------------------------
    def _run(self, args: Sequence[Any]) -> Any:
        if dynamo_tracing():
            program = self._program
            feeds = [f.convert(v, program.device, False) for f, v in zip(self._feeds, args)]
            return self._export_spec.pack(program(feeds))
        if any(is_traced(v) for v in args) if args else self._traced_state():
            return self._trace(args)
        program = self._program
        feeds = [f.convert(v, program.device, True) for f, v in zip(self._feeds, args)]
        try:
            values = program(feeds)
        except errors.OpError as e:
            raise _with_op(e, _failing_op(e)) from None
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - TF's error classes, naming the op, as a
            raise _map_exception(e) from e            # Session raises them
        return self._export_spec.pack(values)

    def _traced_state(self) -> bool:
        for value in self.parameters():
            return is_traced(value)
        for value in self.buffers():
            return is_traced(value)
        return False

    def _trace(self, args: Sequence[Any]) -> Any:
        program = self._tracing_program()
        try:
            with KnownValues():
                feeds = [f.convert(v, program.device, False) for f, v in zip(self._feeds, args)]
                values = program(feeds)
        except ExportError:
            raise
        except Exception as e:  # noqa: BLE001 - say which TF op could not be traced
            explained = explain_trace_failure(e)
            if explained is None:
                raise
            raise explained from e
        return self._export_spec.pack(values)

    # -- torch module protocol ---------------------------------------------------------------
    @classmethod
    def reserved_names(cls) -> frozenset:
        """Attribute names a variable scope cannot take (the module's own, nn.Module's)."""
        return frozenset(dir(cls)) | frozenset(vars(nn.Module()))

    def _apply(self, fn: Any, recurse: bool = True) -> "ExportedModule":
        result = super()._apply(fn, recurse)
        device = self._current_device()
        if device is not None and device != self._device:
            self._device = device
            self._build()
        return result

    def _current_device(self) -> Optional[torch.device]:
        for value in self.parameters():
            return value.device
        for value in self.buffers():
            return value.device
        return None

    def __deepcopy__(self, memo: Dict[int, Any]) -> "ExportedModule":
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key == "_program":
                continue
            # The spec (graph, fetches) is shared: it is read, never changed.
            new.__dict__[key] = value if key == "_export_spec" else copy.deepcopy(value, memo)
        new._build()
        return new

    def __getstate__(self) -> Any:
        raise TypeError("an exported module cannot be pickled (its kernels are closures); "
                        "save module.state_dict(), or torch.export's program")

    def extra_repr(self) -> str:
        spec = self._export_spec
        fetched = ", ".join(getattr(e, "name", str(e)) for e in spec.elements[:4])
        more = ", ..." if len(spec.elements) > 4 else ""
        return f"feeds=({', '.join(spec.arg_names)}), fetches=({fetched}{more})"


_CLASSES: Dict[Tuple[str, ...], type] = {}


def module_class(arg_names: Sequence[str]) -> type:
    """The ExportedModule subclass whose `forward` takes exactly `arg_names` (a real
    signature, so torch.export's `dynamic_shapes` and keyword calls see the names)."""
    key = tuple(arg_names)
    cls = _CLASSES.get(key)
    if cls is None:
        params = ", ".join(key)
        packed = f"({params},)" if key else "()"
        source = (f"def forward(self{', ' if key else ''}{params}):\n"
                  f"    return self._run({packed})\n")
        namespace: Dict[str, Any] = {}
        exec(compile(source, f"<tf1compat-export-forward-{len(_CLASSES)}>", "exec"),
             namespace)  # noqa: S102 - our own generated code
        forward = namespace["forward"]
        forward.__doc__ = ("Runs the exported computation: the feeds (" + (params or "none")
                           + ") in, the fetches out.")
        cls = type("ExportedModule", (ExportedModule,),
                   {"forward": forward, "__module__": __name__,
                    "__qualname__": "ExportedModule"})
        _CLASSES[key] = cls
    return cls
