"""tf.cond / tf.while_loop written as TF 1.x writes them: Switch, Merge, Enter, Exit, ...

tf1compat builds a conditional or loop as regions run by one construct op (`If`, `While`;
ops/cond.py, ops/while_loop.py). A GraphDef gets TF1's dataflow form instead, which is
what TF 1.x (and TF 2.x under `disable_v2_behavior()`) writes, imports, runs and
differentiates, and what tf1compat's importer runs on its dataflow executor:

* `tf.cond` (scope `cond/`): `cond/Switch(pred, pred)`, `cond/switch_t`, `cond/switch_f`,
  `cond/pred_id`; every tensor a branch takes from outside enters through
  `Switch(value, pred_id)` (output 1 for the true branch, 0 for the false one), named after
  the op that uses it (`cond/add/Switch`); ops without data inputs run under the branch's
  pivot (`^cond/switch_t`); the outputs are `Merge(false value, true value)` under the names
  tf1compat already gives them (`cond/Merge`, `cond/Merge_1`, ...); an outside tensor a
  branch returns is merged from its Identity in the branch (in a Defun body from a Switch
  of its own, `cond/Switch_1`, as TF's: `switch_passthrough`).
* `tf.while_loop` (scope `while/`, frame `while/while_context`): per loop variable
  `Enter -> Merge <- NextIteration`, `Switch(Merge, LoopCond)`, `Identity(Switch:1)` (the
  body's view, already named `while/Identity`), `Exit(Switch:0)` (already `while/Exit`);
  outside tensors enter once per loop through constant `Enter`s; ops without inputs from
  the loop run under the pivot (`^while/Merge` in the condition, `^while/Identity` in the
  body), as TF's WhileContext arranges.
* `Variable.initialized_value()` (tf1compat's one op) becomes TF's cond over
  `IsVariableInitialized`.

The `cond_context` and `while_context` collections get TF's CondContextDef and
WhileContextDef for each construct, so TF restores the contexts on import (its
gradients of imported loops and conds need them).

`tf.switch_case` is written as TF writes it: a functional `Case` node whose branches are
functions of the library (function_export.py).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._regions import CondRegion, LoopRegion
from tf1compat.ops.cond import Branch
from tf1compat.serialization.messages import (AttrValue, CondContextDef, NodeDef, ValuesDef,
                                              WhileContextDef)
from tf1compat.serialization.tensor_proto import attr_to_proto, shape_to_proto, tensor_to_proto
from tf1compat.graphdef.cond_stand_ins import shape_source
from tf1compat.graphdef.gradient_export import symbolic_gradient_node
from tf1compat.graphdef.graph_io import UnserializableGraphError, op_to_node_def
from tf1compat.graphdef.loop_gradient_export import (differentiated_as_construct,
                                                     write_loop_gradient)

__all__ = ["ControlFlowExport"]

_INITIALIZED_VALUE_OPS = ("_VariableInitializedValue", "_ResourceInitializedValue")


class _Cond:
    """One conditional being written: its scope, predicate nodes and branch contexts."""

    def __init__(self, scope: str, context: Any, pred: Tensor):
        self.scope = scope
        self.context = context            # where the construct itself lives
        self.pred = pred
        self.switch = self.pivots = self.pred_id = None


class _Loop:
    """One while loop being written: its frame and the names of its primitive nodes."""

    def __init__(self, op: Operation):
        loop = op.attrs["loop"]
        self.op = op
        self.loop = loop
        self.scope = loop.body_region.name
        self.frame = self.scope + "while_context"
        self.context = op._control_flow_context
        self.enters: List[str] = []
        self.switches: List[str] = []
        self.next_iterations: List[str] = []
        self.loop_cond = ""
        self.external: Dict[str, str] = {}    # outside tensor name -> its Enter output


class ControlFlowExport:
    """Writes the ops of a graph as NodeDefs, control-flow constructs in TF1's form."""

    def __init__(self, graph: Any, ops: List[Operation], clear_devices: bool,
                 strip_scope: Optional[str], add_shapes: bool, functions: Any):
        self.graph = graph
        self.functions = functions        # function_export.FunctionExport
        self.clear_devices = clear_devices
        self.strip_scope = strip_scope
        self.add_shapes = add_shapes
        self.used = {op.name.lower() for op in graph.get_operations()}
        self.nodes: List[NodeDef] = []
        self.conds: Dict[Any, _Cond] = {}         # construct op or region -> _Cond
        self.loops: Dict[Any, _Loop] = {}         # While op or loop region -> _Loop
        self.passthrough: Dict[Tuple[Any, Tensor, bool], str] = {}
        self.output_names: Dict[Tensor, str] = {}  # construct output -> Merge/Exit name
        self.cond_protos: List[CondContextDef] = []
        self.while_protos: List[WhileContextDef] = []
        # context name -> the name of the context around it (nested conds and loops: TF
        # writes them in their parent's `nested_contexts`, graph_export.py)
        self.context_parents: Dict[str, str] = {}
        # branch region -> {outside tensor name: the Switch output the branch reads}
        self.externals: Dict[Any, Dict[str, str]] = {}
        # regions written as functions (tf.switch_case's branches): their ops are no nodes
        self.functional: set = set()
        # Whether branches are written exactly as TF builds them in a Defun body, whose
        # hash covers them (defun_dataflow.py): an outside tensor a branch returns merged
        # from a Switch, not from the Identity tf1compat's branch has (graphs: the form
        # tests/fixtures/tf1compat_graphs hold), function calls gated on the pivot.
        self.switch_passthrough = False
        for op in ops:
            self._plan_construct(op)

    # -- names ---------------------------------------------------------------------------------
    def unique(self, base: str) -> str:
        """`base` made unique among the graph's and the written nodes' names (TF's rule)."""
        name, i = base, 0
        while name.lower() in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name.lower())
        return name

    def _strip(self, name: str) -> str:
        scope = self.strip_scope
        if scope and name.lstrip("^").startswith(scope):
            prefix = "^" if name.startswith("^") else ""
            return prefix + name.lstrip("^")[len(scope):]
        return name

    # -- the constructs ---------------------------------------------------------------------------
    def _plan_construct(self, op: Operation) -> None:
        if op.type == "Case" and isinstance((op.attrs.get("branches") or [None])[0], Branch):
            # tf.switch_case: TF writes a functional Case (function_export.py).
            for branch in op.attrs["branches"]:
                self.functional.add(branch.region)
            return
        if op.type == "If" and isinstance(op.attrs.get("then_branch"), Branch):
            scope = op.name[:op.name.rfind("/") + 1]
            cond = _Cond(scope, op._control_flow_context, op.inputs[0])
            self.conds[op] = cond
            for branch in (op.attrs["then_branch"], op.attrs["else_branch"]):
                self.conds[branch.region] = cond
            for out in op.outputs:
                for consumer in out._consumers:
                    if consumer.type == "Identity":
                        self.output_names.setdefault(out, consumer.name)
        elif op.type == "While" and op.attrs.get("loop") is not None:
            loop = _Loop(op)
            self.loops[op] = loop
            self.loops[loop.loop.cond_region] = loop
            self.loops[loop.loop.body_region] = loop
            for out in op.outputs:
                for consumer in out._consumers:
                    if consumer.type == "Identity":
                        self.output_names.setdefault(out, consumer.name)
        elif op.type in _INITIALIZED_VALUE_OPS:
            scope = op.name[:op.name.rfind("/") + 1]
            self.conds[op] = _Cond(scope, op._control_flow_context, op.inputs[0])

    def _cond_header(self, cond: _Cond) -> None:
        """cond/Switch, switch_t, switch_f, pred_id (once per conditional)."""
        if cond.pred_id is not None:
            return
        pred = self.resolve(cond.pred, cond.context, cond.scope + "Switch")
        switch = self.unique(cond.scope + "Switch")
        self._add(switch, "Switch", [pred, pred], {"T": D.bool},
                  [TensorShape([]), TensorShape([])])
        switch_t = self.unique(cond.scope + "switch_t")
        self._add(switch_t, "Identity", [f"{switch}:1"], {"T": D.bool}, [TensorShape([])])
        switch_f = self.unique(cond.scope + "switch_f")
        self._add(switch_f, "Identity", [switch], {"T": D.bool}, [TensorShape([])])
        pred_id = self.unique(cond.scope + "pred_id")
        self._add(pred_id, "Identity", [pred], {"T": D.bool}, [TensorShape([])])
        cond.switch, cond.pivots, cond.pred_id = switch, (switch_f, switch_t), pred_id

    def _loop_header(self, loop: _Loop) -> None:
        """Enter/Merge/LoopCond/Switch/NextIteration for every loop variable (once)."""
        if loop.enters:
            return
        op, info = loop.op, loop.loop
        n = len(info.body_args)
        controls = ["^" + self._strip(name) for c in op.control_inputs
                    for name in self._control_names(c, loop.context)]
        attrs = {"frame_name": loop.frame, "is_constant": False,
                 "parallel_iterations": int(op.attrs["parallel_iterations"])}
        for k in range(n):
            var = op.inputs[k]
            enter = self.unique(loop.scope + "Enter")
            shape = info.cond_args[k].shape
            self._add(enter, "Enter", [self.resolve(var, loop.context, enter)] + controls,
                      dict(attrs, T=var.dtype.base_dtype), [shape])
            loop.enters.append(enter)
        for k in range(n):
            loop.next_iterations.append(self.unique(loop.scope + "NextIteration"))
        for k, arg in enumerate(info.cond_args):
            self._add(arg.op.name, "Merge", [loop.enters[k], loop.next_iterations[k]],
                      {"T": arg.dtype.base_dtype, "N": 2}, [arg.shape, TensorShape([])],
                      device=arg.op.device)
        loop.loop_cond = self.unique(loop.scope + "LoopCond")
        self._add(loop.loop_cond, "LoopCond", [self._name(info.pred)], {},
                  [TensorShape([])])
        for k, arg in enumerate(info.cond_args):
            switch = self.unique(loop.scope + "Switch")
            self._add(switch, "Switch", [arg.op.name, loop.loop_cond],
                      {"T": arg.dtype.base_dtype}, [arg.shape, arg.shape])
            loop.switches.append(switch)
        for k, arg in enumerate(info.body_args):
            self._add(arg.op.name, "Identity", [f"{loop.switches[k]}:1"],
                      {"T": arg.dtype.base_dtype}, [arg.shape], device=arg.op.device)
        for k, out in enumerate(info.body_outputs):
            self._add(loop.next_iterations[k], "NextIteration", [self._name(out)],
                      {"T": out.dtype.base_dtype}, [out.shape])

    # -- values crossing into a region ------------------------------------------------------------
    def resolve(self, t: Tensor, context: Any, consumer: str) -> str:
        """The NodeDef input naming `t` as seen from ops of `context` (a region or None):
        outside tensors pass through a Switch (cond branch) or Enter (loop) per level."""
        producer = t.op._control_flow_context
        if producer is context:
            return self._name(t)
        if context is None:
            raise UnserializableGraphError(
                f"Cannot serialize: {t.name} is used outside the control-flow construct "
                "that computes it")
        outer = self.resolve(t, context.outer_context, consumer)
        ref = t.dtype._is_ref_dtype
        key = (self._frame_key(context), t, ref)
        found = self.passthrough.get(key)
        if found is not None:
            return found
        base = consumer
        if isinstance(context, CondRegion):
            cond = self.conds[context]
            self._cond_header(cond)
            name = self.unique(base + "/Switch")
            self._add(name, "RefSwitch" if ref else "Switch", [outer, cond.pred_id],
                      {"T": t.dtype.base_dtype}, [t.shape, t.shape])
            found = f"{name}:{context.branch}"
            self.externals.setdefault(context, {})[self._strip(t.name)] = found
        elif isinstance(context, LoopRegion):
            loop = self.loops[context]
            self._loop_header(loop)
            name = self.unique(base + "/Enter")
            self._add(name, "RefEnter" if ref else "Enter", [outer],
                      {"T": t.dtype.base_dtype, "frame_name": loop.frame,
                       "is_constant": True,
                       "parallel_iterations": int(loop.op.attrs["parallel_iterations"])},
                      [t.shape])
            found = name
            loop.external[self._strip(t.name)] = name + ":0"
        else:  # pragma: no cover - regions are cond branches or loop parts
            raise UnserializableGraphError(f"Cannot serialize the region {context!r}")
        self.passthrough[key] = found
        return found

    def gradient_input(self, t: Tensor, context: Any, consumer: str) -> str:
        """An input of a gradient op in TF's form: as `resolve`, except for a value
        computed in a branch of a top-level tf.cond (random numbers or a variable's value
        the forward function reads, cond_lowering.py). That exists only when its branch
        runs, so it passes through `Merge(value, Switch(other, pred))`: on the other side
        zeros of its shape where static, else a scalar zero (a variable: its value read
        here), which the function computes with and Select then drops."""
        region = t.op._control_flow_context
        if context is not None or not isinstance(region, CondRegion) or \
                region.outer_context is not None:
            return self.resolve(t, context, consumer)
        key = (consumer, t)
        if key in self.passthrough:
            return self.passthrough[key]
        cond = self.conds[region]
        self._cond_header(cond)
        dtype = t.dtype.base_dtype
        scope = f"{consumer}/{t.op.name.replace('/', '_')}"
        if t.op.type == "ReadVariableOp":     # a variable's value: read it outside too
            other = self.unique(scope + "/read")
            self._add(other, "ReadVariableOp",
                      [self.resolve(t.op.inputs[0], None, other)], {"dtype": dtype},
                      [t.shape])
            shape = t.shape
        else:
            other = self.unique(scope + "/zero")
            node = self._add(other, "Const", [], {"dtype": dtype}, [TensorShape([])])
            node.attr["value"].tensor.CopyFrom(
                tensor_to_proto(np.zeros((), dtype.as_numpy_dtype), dtype))
            shape = TensorShape([])
            dims, index_type = self._stand_in_shape(t, scope)
            if dims is not None:             # zeros of the value's shape: any op takes them
                shape, zero, other = t.shape, other, self.unique(scope + "/zeros")
                self._add(other, "Fill", [dims, zero], {"T": dtype, "index_type": index_type},
                          [shape])
        switch = self.unique(scope + "/Switch")
        self._add(switch, "Switch", [other, cond.pred_id], {"T": dtype}, [shape, shape])
        merge = self.unique(scope + "/Merge")
        self._add(merge, "Merge", [self._name(t), f"{switch}:{1 - region.branch}"],
                  {"T": dtype, "N": 2}, [TensorShape(None), TensorShape([])])
        self.passthrough[key] = merge
        return merge

    def _stand_in_shape(self, t: Tensor, scope: str) -> Tuple[Optional[str], Any]:
        """(the node of the shape of branch value `t`, its dtype) for its stand-in
        outside the branch: a constant where static, else computed from a tensor outside
        the branch (cond_lowering.shape_source); (None, None) where neither."""
        if t.shape.is_fully_defined():
            dims = self.unique(scope + "/shape")
            node = self._add(dims, "Const", [], {"dtype": D.int32},
                             [TensorShape([t.shape.ndims])])
            node.attr["value"].tensor.CopyFrom(
                tensor_to_proto(np.asarray(t.shape.as_list(), np.int32), D.int32))
            return dims, D.int32
        source = shape_source(t)
        if source is None:
            return None, None
        outside = self.resolve(source[0], None, scope)
        if source[1]:                        # a random op's shape input
            return outside, source[0].dtype.base_dtype
        dims = self.unique(scope + "/shape")
        self._add(dims, "Shape", [outside], {"T": source[0].dtype.base_dtype,
                                             "out_type": D.int32}, [TensorShape([None])])
        return dims, D.int32

    def _frame_key(self, context: Any) -> Any:
        """Cond branches pass values per branch; a loop's condition and body share one
        frame, so they share its Enters."""
        if isinstance(context, LoopRegion):
            return self.loops[context]
        return context

    def _name(self, t: Tensor) -> str:
        """A tensor's NodeDef input name (construct outputs name their Merge/Exit node)."""
        mapped = self.output_names.get(t)
        if mapped is not None:
            return self._strip(mapped)
        return self._strip(t._as_node_def_input())

    def _control_names(self, op: Operation, context: Any) -> List[str]:
        """The nodes standing for control input `op` (a construct: its output nodes)."""
        if op in self.conds or op in self.loops:
            return [self.output_names[t] for t in op.outputs if t in self.output_names]
        return [op.name]

    # -- writing ops ------------------------------------------------------------------------------
    def _add(self, name: str, op_type: str, inputs: List[str], attrs: Dict[str, Any],
             shapes: List[TensorShape], device: str = "") -> NodeDef:
        node = NodeDef(name=self._strip(name), op=op_type, input=list(inputs))
        if device and not self.clear_devices:
            node.device = device
        for key in sorted(attrs):
            node.attr[key].CopyFrom(attr_to_proto(attrs[key]))
        if self.add_shapes:
            _set_output_shapes(node, shapes)
        self.nodes.append(node)
        return node

    def write(self, op: Operation) -> None:
        """Writes `op` (an ordinary op, a region op or a construct's part) as NodeDefs."""
        context = op._control_flow_context
        if self._inside_function(context):
            return                      # written as part of a function (function_export)
        if self._orphaned(context):
            return      # traced for a tf.cond/tf.while_loop that raised: it never runs
        if self.switch_passthrough and isinstance(context, CondRegion) and \
                op in context.passthrough:
            # An outside tensor a branch returns: TF merges it from a Switch of its own
            # (`cond/Switch_1`), or from the one through which the branch already reads it.
            scope = self.conds[context].scope
            switched = self.resolve(op.inputs[0], context, scope.rstrip("/"))
            self.output_names[op.outputs[0]] = switched[:-2] if switched.endswith(":0") \
                else switched
            return
        if op in self.conds and op.type in _INITIALIZED_VALUE_OPS:
            self._write_initialized_value(op)
            return
        if op in self.conds or op in self.loops:
            construct = self.conds.get(op) or self.loops.get(op)
            if isinstance(construct, _Loop):
                self._loop_header(construct)
                self._finish_loop(construct)
            else:
                self._cond_header(construct)
                self._finish_cond(op, construct)
            return
        if op.type == "Case" and op.inputs and self._inside_function(
                getattr(op.attrs.get("branches", [None])[0], "region", None)):
            node = self.functions.construct_node(
                op, [self.resolve(t, context, op.name) for t in op.inputs])
            node.name = self._strip(node.name)
            if op.device and not self.clear_devices:
                node.device = op.device
            node.input.extend("^" + self._strip(c) for c in self._controls(op, context))
            if self.add_shapes:
                _set_output_shapes(node, [t.shape for t in op.outputs])
            self.nodes.append(node)
            return
        if op.type == "_Arg":
            self._loop_header(self.loops[context])
            return
        if op.type == "Identity" and op.inputs and op.inputs[0] in self.output_names and \
                self.output_names[op.inputs[0]] == op.name:
            self._write_construct_output(op)
            return
        loop_form = write_loop_gradient(self, op) \
            if op.type == "SymbolicGradient" and context is None else None
        if loop_form:                # backward loops (loop_gradient_export.py)
            return
        written = symbolic_gradient_node(
            op, self.functions, lambda t: self.gradient_input(t, context, op.name),
            differentiated_as_construct(op)) \
            if op.type == "SymbolicGradient" and loop_form is None else None
        if written is not None:      # TF's form (gradient_export.py)
            node, shapes = written
            node.name = self._strip(node.name)
            if op.device and not self.clear_devices:
                node.device = op.device
        else:
            node = op_to_node_def(op, self.clear_devices, self.strip_scope,
                                  self.functions.attr_overrides(op))
            del node.input[:]
            # TF creates a function call without a name scope of its own: the Switch
            # of a value it takes into a branch is named in the branch's (`cond/Switch_1`).
            call = self.switch_passthrough and op._op_def.function is not None
            consumer = op.name.rpartition("/")[0] if call else op.name
            for t in op.inputs:
                node.input.append(self.resolve(t, context, consumer))
            shapes = [t.shape for t in op.outputs]
        if isinstance(context, CondRegion):
            self._cond_header(self.conds[context])
        elif isinstance(context, LoopRegion):
            self._loop_header(self.loops[context])
        controls = self._controls(op, context)
        if self.switch_passthrough and op._op_def.function is not None and \
                isinstance(context, CondRegion):
            # TF's CondContext gates a function call in a branch on the pivot too.
            pivot = self.conds[context].pivots[context.branch]
            controls = controls + [pivot] if pivot not in controls else controls
        node.input.extend("^" + self._strip(c) for c in controls)
        if self.add_shapes:
            _set_output_shapes(node, shapes)
        self.nodes.append(node)

    def _controls(self, op: Operation, context: Any) -> List[str]:
        """Control inputs as TF's contexts arrange them: in a loop, only those of the same
        frame (the loop's op has the others); a pivot where nothing else gates the op."""
        loop = self._enclosing_loop(context)
        names: List[str] = []
        for c in op.control_inputs:
            if loop is not None and self._enclosing_loop(c._control_flow_context) is not loop:
                continue
            names.extend(self._control_names(c, context))
        if context is None:
            return names
        in_region = [t for t in op.inputs if t.op._control_flow_context is context]
        if isinstance(context, CondRegion):
            own = [c for c in op.control_inputs if c._control_flow_context is context]
            if not op.inputs and not own:
                names.append(self.conds[context].pivots[context.branch])
        elif not names and (not op.inputs or not in_region):
            loop = self.loops[context]
            info = loop.loop
            args = info.cond_args if context is info.cond_region else info.body_args
            names.append(args[0].op.name)
        return names

    def _orphaned(self, context: Any) -> bool:
        """Whether `context` (or a context around it) belongs to no construct: its
        tf.cond/tf.while_loop raised after tracing, so its ops cannot run."""
        while context is not None:
            if context not in self.conds and context not in self.loops and \
                    context not in self.functional:
                return True
            context = context.outer_context
        return False

    def _inside_function(self, context: Any) -> bool:
        """Whether `context` is (inside) a region written as a function."""
        while context is not None:
            if context in self.functional:
                return True
            context = context.outer_context
        return False

    def _enclosing_loop(self, context: Any) -> Optional[_Loop]:
        while context is not None:
            if isinstance(context, LoopRegion):
                return self.loops[context]
            context = context.outer_context
        return None

    def _write_construct_output(self, op: Operation) -> None:
        source = op.inputs[0]
        construct = self.conds.get(source.op) or self.loops.get(source.op)
        k = source.value_index
        if isinstance(construct, _Loop):
            self._loop_header(construct)
            self._add(op.name, "Exit", [construct.switches[k]],
                      {"T": op.outputs[0].dtype.base_dtype}, [op.outputs[0].shape],
                      device=op.device)
            return
        self._cond_header(construct)
        then_b, else_b = source.op.attrs["then_branch"], source.op.attrs["else_branch"]
        self._add(op.name, "Merge", [self._name(else_b.outputs[k]),
                                     self._name(then_b.outputs[k])],
                  {"T": op.outputs[0].dtype.base_dtype, "N": 2},
                  [op.outputs[0].shape, TensorShape([])], device=op.device)

    def _context_name(self, context: Any) -> Optional[str]:
        """The name of the context proto of region `context` (a loop's frame, a
        branch's cond_text), None at the top level."""
        if context in self.loops:
            return self._strip(self.loops[context].frame)
        if context in self.conds:
            return self._strip(context.name)
        return None

    def _nest(self, name: str, op: Operation) -> None:
        parent = self._context_name(op._control_flow_context)
        if parent is not None:
            self.context_parents[name] = parent

    def _finish_cond(self, op: Operation, cond: _Cond) -> None:
        """The CondContextDefs of both branches (written when the If op is reached)."""
        for branch in (op.attrs["then_branch"], op.attrs["else_branch"]):
            region = branch.region
            self._nest(self._strip(region.name), op)
            values = self._written(region.ops)
            values.add(cond.pivots[region.branch] + ":0")
            values.add(cond.pred_id + ":0")
            externals = dict(self.externals.get(region, {}))
            externals[cond.pred_id + ":0"] = cond.pred_id + ":0"
            values.update(externals)
            values.update(v for v in externals.values())
            self.cond_protos.append(CondContextDef(
                context_name=self._strip(region.name), pred_name=cond.pred_id + ":0",
                pivot_name=cond.pivots[region.branch] + ":0", branch=region.branch,
                values_def=ValuesDef(values=sorted(values), external_values=externals)))

    def _finish_loop(self, loop: _Loop) -> None:
        op, info = loop.op, loop.loop
        self._nest(self._strip(loop.frame), op)
        values = self._written(info.cond_region.ops + info.body_region.ops)
        values.update(f"{name}:0" for name in loop.enters + loop.next_iterations)
        values.update(f"{s}:{i}" for s in loop.switches for i in (0, 1))
        values.update(f"{a.op.name}:1" for a in info.cond_args)
        values.add(loop.loop_cond + ":0")
        exits = [self.output_names[t] + ":0" for t in op.outputs if t in self.output_names]
        values.update(exits)
        values.update(loop.external)
        values.update(loop.external.values())
        proto = WhileContextDef(
            context_name=self._strip(loop.frame),
            parallel_iterations=int(op.attrs["parallel_iterations"]),
            back_prop=bool(op.attrs["back_prop"]), swap_memory=bool(op.attrs["swap_memory"]),
            pivot_name=self._strip(loop.loop_cond) + ":0",
            pivot_for_pred_name=self._strip(info.cond_args[0].op.name) + ":0",
            pivot_for_body_name=self._strip(info.body_args[0].op.name) + ":0",
            loop_exit_names=[self._strip(e) for e in exits],
            loop_enter_names=[self._strip(e) + ":0" for e in loop.enters],
            values_def=ValuesDef(values=sorted(values), external_values=loop.external))
        maximum = info.body_region.maximum_iterations
        if isinstance(maximum, Tensor):
            proto.maximum_iterations_name = self._strip(maximum.name)
        self.while_protos.append(proto)

    def _written(self, ops: List[Operation]) -> set:
        """Names of the tensors of `ops` that are nodes of the GraphDef (not the construct
        ops of nested conds and loops, whose Merge/Exit nodes stand for them; a nested
        cond's Switch and pred_id, which are in the enclosing context as TF writes them:
        TF's gradient of a cond in a loop accumulates pred_id in the loop's frame)."""
        out = set()
        for op in ops:
            if op in self.conds or op in self.loops:
                out.update(self._strip(self.output_names[t]) + ":0" for t in op.outputs
                           if t in self.output_names)
                cond = self.conds.get(op)
                if cond is not None and cond.pred_id is not None:
                    out.update(self._strip(n) for n in (
                        cond.switch + ":0", cond.switch + ":1", cond.pred_id + ":0"))
                continue
            if not self.switch_passthrough or \
                    op not in getattr(op._control_flow_context, "passthrough", ()):
                out.update(self._strip(t.name) for t in op.outputs)
        return out

    def _write_initialized_value(self, op: Operation) -> None:
        """`Variable.initialized_value()`: TF's cond(IsVariableInitialized, read, initial)."""
        cond = self.conds[op]
        self._cond_header(cond)
        context = cond.context
        is_init, variable, initial = op.inputs
        dtype = op.outputs[0].dtype.base_dtype
        shape = op.outputs[0].shape
        scope = cond.scope
        var_in = self.resolve(variable, context, scope + "read")
        if op.type == "_VariableInitializedValue":
            switch = self.unique(scope + "read/Switch")
            self._add(switch, "RefSwitch", [var_in, cond.pred_id], {"T": dtype},
                      [variable.shape, variable.shape])
            read = self.unique(scope + "read")
            self._add(read, "Identity", [f"{switch}:1"], {"T": dtype}, [shape])
        else:
            switch = self.unique(scope + "Read/ReadVariableOp/Switch")
            self._add(switch, "Switch", [var_in, cond.pred_id], {"T": D.resource},
                      [TensorShape([]), TensorShape([])])
            value = self.unique(scope + "Read/ReadVariableOp")
            self._add(value, "ReadVariableOp", [f"{switch}:1"], {"dtype": dtype}, [shape])
            read = self.unique(scope + "Identity")
            self._add(read, "Identity", [value], {"T": dtype}, [shape])
        initial_switch = self.unique(scope + "Switch")
        self._add(initial_switch, "Switch",
                  [self.resolve(initial, context, scope + "Switch"), cond.pred_id],
                  {"T": dtype}, [initial.shape, initial.shape])
        self._add(op.name, "Merge", [initial_switch, read], {"T": dtype, "N": 2},
                  [shape, TensorShape([])], device=op.device)
        for branch, pivot in ((1, cond.pivots[1]), (0, cond.pivots[0])):
            self.cond_protos.append(CondContextDef(
                context_name=self._strip(scope + ("cond_text" if branch else "cond_text_1")),
                pred_name=cond.pred_id + ":0", pivot_name=pivot + ":0", branch=branch,
                values_def=ValuesDef(values=sorted({pivot + ":0", cond.pred_id + ":0"}))))


def _set_output_shapes(node: NodeDef, shapes: List[TensorShape]) -> None:
    # An op without outputs gets an empty AttrValue (no list), as TF writes it.
    value = AttrValue()
    for shape in shapes:
        value.list.shape.append(shape_to_proto(shape))
    node.attr["_output_shapes"].CopyFrom(value)
