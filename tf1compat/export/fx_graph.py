"""`to_fx`: an exported module's program as a readable `torch.fx.GraphModule`.

The fx graph has the program's steps, one node per TF op:

    def forward(self, x):
        hidden1_weights = self.hidden1.weights
        mat_mul = tf_MatMul(x, hidden1_weights);  x = hidden1_weights = None
        add = tf_AddV2(mat_mul, self.const_0);  mat_mul = None
        relu = tf_Relu(add);  add = None
        ...

Placeholders are the feeds, `get_attr` nodes the variables (the very parameters and
buffers of the ExportedModule: training one trains the other) and the constants; each
call is the op's kernel (TF's semantics, gradient formulas included), named `tf_<type>`.
A multi-output op is one call and `getitem` nodes. A resource variable's read
(ReadVariableOp of a known handle) is the `get_attr` itself.

`.to(device)` moves the module it came from as well and rebuilds the graph for the new
device (kernels are built per device); a deep copy copies that module too.
"""

from __future__ import annotations

import copy
import operator
from typing import Any, Callable, Dict, List, Optional

import torch
import torch.fx as fx

from tf1compat.export.module import ExportedModule
from tf1compat.runtime.codegen import value_name
from tf1compat.runtime.plan import CONST, SLOT, STATE, Source

__all__ = ["graph_module", "TFGraphModule"]

# Kinds of constants fx can write into generated code as literals.
_LITERALS = (str, int, float, bool, type(None), torch.dtype)


def _named_kernel(op_type: str, kernel: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return kernel(*args)
    call.__name__ = call.__qualname__ = op_type.strip("_") or "kernel"
    call.__module__ = "tf"         # fx names the global `tf_<OpType>`
    return call


class _GraphBuilder:
    def __init__(self, module: ExportedModule):
        self.module = module
        self.spec = module._export_spec
        self.plan = module._program.plan
        self.graph = fx.Graph()
        self.root: Dict[str, Any] = {}
        self.paths = {v.key: v.path for v in self.spec.variables}
        self.tensors = {v.path: module._container(v.path) for v in self.spec.variables}
        self.slots: Dict[int, fx.Node] = {}
        self.consts: Dict[int, fx.Node] = {}
        self.const_names: set = set()
        self.attrs: Dict[str, fx.Node] = {}

    def variable(self, key: str) -> fx.Node:
        path = self.paths[key]
        node = self.attrs.get(path)
        if node is None:
            parent, name = self.tensors[path]
            self.root[path] = getattr(parent, name)
            node = self.attrs[path] = self.graph.get_attr(path)
        return node

    def constant(self, value: Any, device: Optional[torch.device]) -> Any:
        if isinstance(value, _LITERALS):
            return value
        if isinstance(value, torch.Tensor) and device is not None:
            value = value.to(device)
        node = self.consts.get(id(value))
        if node is None:
            name = f"const_{len(self.consts)}"
            self.root[name] = value
            self.const_names.add(name)
            node = self.consts[id(value)] = self.graph.get_attr(name)
        return node

    def argument(self, src: Source) -> Any:
        if src.kind == SLOT:
            node = self.slots[src.ref]
        elif src.kind == STATE:
            node = self.variable(src.ref)
        elif src.kind == CONST:
            return self.constant(src.ref, src.to_device)
        else:  # pragma: no cover - feeds are slots
            raise AssertionError(src.kind)
        if src.to_device is not None:
            node = self.graph.call_method("to", (node, src.to_device))
        return node

    def _call(self, target: Any, args: tuple, name: str) -> Any:
        # create_node takes a name on every torch >= 2.4 (call_function does not on 2.4).
        return self.graph.create_node("call_function", target, args, {}, name=name)

    def build(self) -> fx.Graph:
        plan = self.plan
        for slot, name in zip(plan.feed_slots, self.spec.arg_names):
            self.slots[slot] = self.graph.placeholder(name)
        for step in plan.steps:
            if step.kernel is None:
                continue
            if self._is_variable_read(step):
                self.slots[step.outs[0]] = self.variable(step.args[0].ref)
                continue
            args = tuple(self.argument(a) for a in step.args)
            used = [s for s in step.outs if s is not None]
            name = value_name(plan.slot_tensors[used[0]]) if len(step.outs) == 1 and used \
                else value_name(step.op.name)
            call = self._call(_named_kernel(step.op.type, step.kernel), args, name)
            if len(step.outs) == 1:
                if step.outs[0] is not None:
                    self.slots[step.outs[0]] = call
                continue
            for i, slot in enumerate(step.outs):
                if slot is not None:
                    self.slots[slot] = self._call(operator.getitem, (call, i),
                                                  value_name(plan.slot_tensors[slot]))
        fetched: List[Any] = [None if (f.kind == CONST and f.ref is None) else self.argument(f)
                              for f in plan.fetches]
        self.graph.output(self.spec.pack(fetched))
        self.graph.lint()
        return self.graph

    def _is_variable_read(self, step: Any) -> bool:
        # A ReadVariableOp of a handle the plan knows (a constant store key) reads that
        # variable: in fx, the parameter itself.
        return step.op.type == "ReadVariableOp" and step.args and \
            step.args[0].kind == CONST and step.args[0].ref in self.paths and \
            step.outs[0] is not None


class TFGraphModule(fx.GraphModule):
    """The GraphModule `to_fx` returns (see the module docstring)."""

    def _apply(self, fn: Any, recurse: bool = True) -> "TFGraphModule":
        result = super()._apply(fn, recurse)
        source = self.__dict__.get("_export_module")
        if source is not None:
            device = next(iter(list(self.parameters()) + list(self.buffers())), None)
            if device is not None and device.device != source._device:
                source.to(device.device)
                fresh = graph_module(source)
                for name in list(self._buffers):
                    if name.startswith("const_"):
                        del self._buffers[name]
                for name, value in fresh._buffers.items():
                    self.register_buffer(name, value, persistent=False)
                self.graph = fresh.graph
        return result

    def __deepcopy__(self, memo: Dict[int, Any]) -> "TFGraphModule":
        return graph_module(copy.deepcopy(self.__dict__["_export_module"], memo))


def graph_module(module: ExportedModule) -> TFGraphModule:
    """The fx GraphModule of an ExportedModule's program."""
    builder = _GraphBuilder(module)
    graph = builder.build()
    # Variables that only control-flow regions or kernels read (through the module's
    # store) are attributes too, so the GraphModule's parameters are all of them.
    for var in builder.spec.variables:
        if not var.frozen and var.path not in builder.root:
            parent, name = builder.tensors[var.path]
            builder.root[var.path] = getattr(parent, name)
    gm = TFGraphModule(builder.root, graph, class_name="TFGraph")
    for path, value in builder.root.items():
        if path in builder.attrs or path in builder.const_names:
            continue
        *scopes, name = path.split(".")
        owner: torch.nn.Module = gm
        for scope in scopes:
            if scope not in owner._modules:
                owner.add_module(scope, torch.nn.Module())
            owner = owner._modules[scope]
        if isinstance(value, torch.nn.Parameter):
            owner.register_parameter(name, value)
        else:
            owner.register_buffer(name, value)
    for name in list(gm._buffers):
        if name.startswith("const_"):
            gm._non_persistent_buffers_set.add(name)
    gm.__dict__["_export_module"] = module
    return gm
