"""The forward loops' side of a backward loop (loop_gradient_export.py): the iteration
counter (`f_count`) and one stack per value the backward loop pops, written into the
forward loop's frame; for a loop nested in another's body, its counter started after the
outer one's and its stacks entered into the enclosing frames first (in a tf.cond branch
of the outer body, or a tf.cond in one: through the conds' Switches, its trip count 0
where a branch did not run); a tf.cond branch's value passed through a Merge with a
stand-in (one per cond it is in)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._regions import CondRegion
from tf1compat.graphdef.cond_stand_ins import ones_shape, shape_source
from tf1compat.graphdef.loop_gradient_plan import LoopPlan

__all__ = ["ForwardStacks", "HANDLE"]

_SCALAR = TensorShape([])
HANDLE = TensorShape([2])    # a stack's handle (TF's shape for StackV2's output)


class ForwardStacks:
    """The forward-loop parts of `_LoopGradientWriter` (it supplies `writer`, `op`,
    `pivot`, `inner_stacks`, `_node` and `_const`)."""

    writer: Any
    op: Any
    pivot: str
    inner_stacks: Dict[LoopPlan, List[str]]
    _node: Any
    _const: Any

    def _forward_stacks(self, plan: LoopPlan, around: Optional[Tuple[str, Any]] = None,
                        outside: Tuple[Any, ...] = ()) -> Tuple[str, List[str]]:
        """(the forward iteration count, one stack per value `plan.pushed`, then one per
        loop `plan.inner`: its iteration count) written into the forward loop's frame;
        the nested loops' own in theirs (`self.inner_stacks`). `around`, for a loop
        nested in another's body: (the outer loop's count of this iteration, the outer
        loop): its count starts from 0 there each outer iteration, after the previous
        outer iteration's pushes (so the shared stacks get all pushes in order), and
        its stacks (made once, outside) are entered into the outer frame first. In a
        tf.cond branch of the outer body, the count starts only where the branch runs,
        the stacks pass its Switch, and the count returned is 0 where it does not.
        `outside`: the forward loops around the outer one (outermost first), whose
        frames the stacks enter before it (loops nested three deep and more)."""
        loop = self.writer.loops[plan.op]
        base = f"{self.op.name}/{loop.scope}"
        frame = self.writer._strip(loop.frame)
        iterations = int(plan.op.attrs["parallel_iterations"])
        enter = {"frame_name": frame, "parallel_iterations": iterations}
        new_values: List[str] = []
        external: Dict[str, str] = {}
        # In a tf.cond branch, the counter and stacks wait for its pivot: dead (not run)
        # where the branch is not taken, as the loop is.
        pivots = [around[0]] if around else [self.pivot] if self.pivot else []
        # the tf.cond branches of the outer body the loop is in, innermost first (the
        # innermost's pivot runs only where all of them do)
        branches: List[Any] = []
        context = plan.op._control_flow_context
        while around and isinstance(context, CondRegion):
            branches.append(context)
            context = context.outer_context
        for branch in branches:
            self.writer._cond_header(self.writer.conds[branch])
        if branches:
            pivots.append(self.writer._strip(
                self.writer.conds[branches[0]].pivots[branches[0].branch]))
        zero = self._const(base + "f_count", 0, D.int32, pivots)
        count_enter = self._node(base + "f_count/Enter", "Enter", [zero],
                                 dict(enter, T=D.int32, is_constant=False), [_SCALAR])
        external[zero + ":0"] = count_enter + ":0"
        next_name = self.writer.unique(base + "f_count/NextIteration")
        merge = self._node(base + "f_count/Merge", "Merge", [count_enter, next_name],
                           {"T": D.int32, "N": 2}, [_SCALAR, _SCALAR])
        switch = self._node(base + "f_count/Switch", "Switch",
                            [merge, self.writer._strip(loop.loop_cond)], {"T": D.int32},
                            [_SCALAR, _SCALAR])
        pivot = self._node(base + "f_count/Identity", "Identity", [switch + ":1"],
                           {"T": D.int32}, [_SCALAR])
        inner_counts = [self._forward_stacks(
            inner, (pivot, loop), outside + ((around[1],) if around else ()))[0]
            for inner in plan.inner]
        max_size = self._const(base + "stack/max_size", -1, D.int32,
                               [] if around else pivots)
        stacks, pushes = [], []
        for value in plan.pushed + inner_counts:
            dtype, shape = (D.int32, _SCALAR) if isinstance(value, str) else \
                (value.dtype.base_dtype, value.shape)
            stack = self._node(base + "stack", "StackV2", [max_size],
                               {"elem_type": dtype, "stack_name": ""}, [HANDLE])
            self.writer.nodes[-1].attr["stack_name"].s = stack.encode()
            handle = stack
            # entered into the outer loops' frames first (outermost first)
            for outer in outside + ((around[1],) if around else ()):
                entered = self._node(base + "stack/outer/Enter", "Enter", [handle], {
                    "frame_name": self.writer._strip(outer.frame), "T": D.resource,
                    "is_constant": True,
                    "parallel_iterations": int(outer.op.attrs["parallel_iterations"])},
                    [HANDLE])
                key = handle if ":" in handle else handle + ":0"
                self._add_to_frame(outer, [entered + ":0"], {key: entered + ":0"})
                handle = entered
            if around:
                for branch in reversed(branches):   # the outer cond's Switch first
                    handle = self._switch(handle, D.resource, HANDLE,
                                          self.writer.conds[branch], branch.branch,
                                          base + "stack/branch", around[1])
            stack_enter = self._node(base + "stack/Enter", "Enter", [handle],
                                     dict(enter, T=D.resource, is_constant=True), [HANDLE])
            external[handle if ":" in handle else handle + ":0"] = stack_enter + ":0"
            push = self._node(base + "stack/push", "StackPushV2",
                              [stack_enter, value if isinstance(value, str) else
                               self._pushed_value(value, base, new_values), "^" + pivot],
                              {"T": dtype, "swap_memory": bool(plan.op.attrs["swap_memory"])},
                              [shape])
            stacks.append(stack)
            pushes.append(push)
            new_values += [stack_enter + ":0", push + ":0"]
        if around:
            self.inner_stacks[plan] = stacks
            self._add_to_frame(around[1], [zero + ":0"], {})
        one = self._const(base + "f_count/add/y", 1, D.int32, [pivot])
        add = self._node(base + "f_count/add", "AddV2",
                         [pivot, one] + ["^" + p for p in pushes], {"T": D.int32}, [_SCALAR])
        self.writer._add(next_name, "NextIteration", [add], {"T": D.int32}, [_SCALAR])
        count = self._node(base + "f_count/Exit", "Exit", [switch], {"T": D.int32}, [_SCALAR])
        new_values += [count_enter + ":0", merge + ":0", merge + ":1", switch + ":0",
                       switch + ":1", pivot + ":0", one + ":0", add + ":0",
                       self.writer._strip(next_name) + ":0", count + ":0"]
        # (Enters of the loop written since its context: a branch stand-in's shape)
        external.update(loop.external)
        self._add_to_frame(loop, new_values, external)
        for branch in branches:     # 0 iterations where a branch does not run
            cond = self.writer.conds[branch]
            pred = self.writer._strip(cond.pred_id)
            flag = self._node(base + "f_count/other", "Cast", [pred],
                              {"SrcT": D.bool, "DstT": D.int32, "Truncate": False}, [_SCALAR])
            none = self._node(base + "f_count/other/zeros", "ZerosLike", [flag],
                              {"T": D.int32}, [_SCALAR])
            other = self._switch(none, D.int32, _SCALAR, cond, 1 - branch.branch,
                                 base + "f_count/other", around[1])
            count = self._node(base + "f_count/branch_count", "Merge", [count, other],
                               {"T": D.int32, "N": 2}, [_SCALAR, _SCALAR])
            self._add_to_frame(around[1], [flag + ":0", none + ":0", count + ":0",
                                           count + ":1"], {})
        return count, stacks

    def _switch(self, value: str, dtype: Any, shape: TensorShape, cond: Any, side: int,
                base: str, loop: Any) -> str:
        """`value` through a Switch on `cond`'s predicate: its output `side` (in the
        frame of forward loop `loop`)."""
        switch = self._node(base + "/Switch", "Switch",
                            [value, self.writer._strip(cond.pred_id)], {"T": dtype},
                            [shape, shape])
        self._add_to_frame(loop, [switch + ":0", switch + ":1"], {})
        return f"{switch}:{side}"

    def _add_to_frame(self, loop: Any, values: List[str], external: Dict[str, str]) -> None:
        """Adds `values` and the `external` values (outside name -> its Enter) to the
        WhileContextDef of forward loop `loop`."""
        frame = self.writer._strip(loop.frame)
        for proto in self.writer.while_protos:
            if proto.context_name == frame:
                names = set(proto.values_def.values) | set(values) | set(external) \
                    | set(external.values())
                del proto.values_def.values[:]
                proto.values_def.values.extend(sorted(names))
                for key, value in external.items():
                    proto.values_def.external_values[key] = value

    def _pushed_value(self, value: Tensor, base: str, new_values: List[str]) -> str:
        """The name the forward loop pushes for `value`. A value computed in a tf.cond
        branch of the body (random numbers, a gradient stop) exists only when its branch
        runs: it passes through `Merge(value, Switch(other, pred))`, the other side
        zeros of its shape where static (a loop's output of a run-time shape: of 1 in
        each unknown dim), else a scalar, which the body function computes with and its
        Select then drops."""
        name = self.writer._name(value)
        region = value.op._control_flow_context
        while isinstance(region, CondRegion):   # (a cond in a branch: each Merge in turn)
            name = self._merged(value, name, region, base, new_values)
            region = region.outer_context
        return name

    def _merged(self, value: Tensor, name: str, region: Any, base: str,
                new_values: List[str]) -> str:
        """`name` (`value`, or its Merge of a cond inside `region`) through `Merge(name,
        Switch(other, pred))` of `region`'s cond (`_pushed_value`)."""
        cond = self.writer.conds[region]
        self.writer._cond_header(cond)
        pred = self.writer._strip(cond.pred_id)
        dtype = value.dtype.base_dtype
        other = self._node(base + "branch_other", "Cast", [pred],
                           {"SrcT": D.bool, "DstT": dtype, "Truncate": False}, [_SCALAR])
        new_values.append(other + ":0")
        shape = _SCALAR
        source = None if value.shape.is_fully_defined() else shape_source(value)
        ones = ones_shape(value)
        if value.shape.is_fully_defined() or ones is not None:
            # of the value's shape (any op takes it), or of its rank with 1 for each dim
            # known only at run time (a loop's output: what the branch does with it,
            # cond_lowering._ones_dims)
            shape = value.shape
            dims = self._const(base + "branch_shape", ones or shape.as_list(), D.int32,
                               [pred])
            index_type = D.int32
            new_values.append(dims + ":0")
        elif source is not None:             # of its run-time shape, computed outside
            shape = value.shape
            outside = self.writer.resolve(source[0], region.outer_context, base + "branch")
            dims, index_type = outside, source[0].dtype.base_dtype
            if not source[1]:
                dims = self._node(base + "branch_shape", "Shape", [outside],
                                  {"T": source[0].dtype.base_dtype, "out_type": D.int32},
                                  [TensorShape([shape.ndims])])
                index_type = D.int32
                new_values.append(dims + ":0")
        if shape is not _SCALAR:
            other = self._node(base + "branch_full", "Fill", [dims, other],
                               {"T": dtype, "index_type": index_type}, [shape])
            new_values.append(other + ":0")
        switch = self._node(base + "branch_switch", "Switch", [other, pred], {"T": dtype},
                            [shape, shape])
        merge = self._node(base + "branch_value", "Merge",
                           [name, f"{switch}:{1 - region.branch}"],
                           {"T": dtype, "N": 2}, [TensorShape(None), _SCALAR])
        new_values += [switch + ":0", switch + ":1", merge + ":0", merge + ":1"]
        return merge + ":0"
