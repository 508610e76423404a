"""A function body of forward ops and their tangents (tangent_lowering.py), the pieces
loop_second_order.py writes its tangent loops and the ops around them of."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import AttrValue, FunctionDef, NameAttrList
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_export import lower_op
from tf1compat.graphdef.graph_io import op_to_node_def
from tf1compat.graphdef.tangent_lowering import TANGENTS, zeros_of

__all__ = ["TangentFunction"]

# A hook writing an op itself: (the function, the op, its inputs' names)
Hook = Callable[["TangentFunction", Operation, List[str]], None]


class TangentFunction:
    """The NodeDefs of one function: forward ops (of the loop, of the ops before or after
    it) with their tangents. `hooks` write the ops of a type themselves (TensorArray
    ops: loop_second_order_arrays.py); an op whose outputs are bound already (to an
    argument) is not written."""

    def __init__(self, prefix: str, hooks: Optional[Dict[str, Hook]] = None):
        self.fdef = FunctionDef()
        self.b = NodeBuilder(prefix)
        self.value: Dict[Tensor, str] = {}
        self.tangent: Dict[Tensor, Optional[str]] = {}
        self.hooks = hooks or {}

    def arg(self, dtype: Any) -> str:
        name = f"arg_{len(self.fdef.signature.input_arg)}"
        self.fdef.signature.input_arg.add(name=name, type=dtype.as_datatype_enum)
        return name

    def bind(self, t: Tensor, dtype: Any = None) -> str:
        self.value[t] = self.arg(dtype or t.dtype.base_dtype)
        return self.value[t]

    def write(self, ops: List[Operation]) -> None:
        """Writes `ops` and the tangents of their floating outputs."""
        for member in ops:
            if member.outputs and member.outputs[0] in self.value:
                continue
            if member.type == "If":
                self._cond(member)
                continue
            if member.type in self.hooks:     # (a TensorArray's handle has no value)
                self.hooks[member.type](self, member, [self.value.get(t, "")
                                                       for t in member.inputs])
                continue
            names = [self.value[t] for t in member.inputs]
            lowered = lower_op(member, names)
            if lowered is not None:
                self.b.nodes.extend(lowered[0])
                outs = lowered[1]
            else:
                node = op_to_node_def(member, clear_devices=True)
                del node.input[:]
                node.input.extend(names)
                self.b.nodes.append(node)
                outs = [f"{member.name}:{output_arg(member, k)}"
                        for k in range(len(member.outputs))]
            self.value.update(zip(member.outputs, outs))
            dx = [self.tangent.get(t) for t in member.inputs]
            if member.type in TANGENTS and any(d is not None for d in dx):
                tangents = TANGENTS[member.type](member, names, dx, outs, self.b)
                self.tangent.update(zip(member.outputs, tangents))

    def _cond(self, cond: Operation) -> None:
        """A tf.cond as both branches (their ops and tangents) and a Select of each
        output and of its tangent on the predicate (TF's function gradient of Select
        passes a branch zeros where it is not taken)."""
        pred = self.value[cond.inputs[0]]
        sides = []
        for key in ("then_branch", "else_branch"):
            branch = cond.attrs[key]
            self.write(list(branch.region.ops))
            sides.append(branch.outputs)
        for t, then_out, else_out in zip(cond.outputs, *sides):
            dtype = t.dtype.base_dtype
            self.value[t] = self.b.add("Select", [pred, self.value[then_out],
                                                  self.value[else_out]], {"T": dtype})
            if self.tangent.get(then_out) is None and self.tangent.get(else_out) is None:
                continue
            self.tangent[t] = self.b.add("Select", [pred, self.tangent_of(then_out),
                                                    self.tangent_of(else_out)], {"T": dtype})

    def tangent_of(self, t: Tensor) -> str:
        found = self.tangent.get(t)
        return found if found is not None else zeros_of(self.value[t], t.dtype.base_dtype,
                                                        self.b)

    def finish(self, functions: Any, name: str, outputs: List[Tuple[str, Any]]
               ) -> AttrValue:
        """Adds the function (results `outputs`: (value, dtype)) to the library."""
        fname = functions._unique(name.replace("/", "_"))
        self.fdef.signature.name = fname
        self.fdef.node_def.extend(self.b.nodes)
        for k, (value, dtype) in enumerate(outputs):
            self.fdef.signature.output_arg.add(name=f"output_{k}",
                                               type=dtype.as_datatype_enum)
            self.fdef.ret[f"output_{k}"] = value
        functions.library.function.append(self.fdef)
        return AttrValue(func=NameAttrList(name=fname))
