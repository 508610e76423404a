"""IndexedSlices gradients of a backward loop (loop_gradient_export.py): a loop body's
gather of rows of what comes from outside all loops (a ref variable's tensor, a resource
variable: ResourceGather, or a gather of its read; `LoopPlan.sparse_reads`) gets TF's
gradient of a gather, IndexedSlices, summed over the backward iterations as TF 1.x sums
them (control_flow_ops.py `AddBackpropIndexedSlicesAccumulator`): two backward-loop
variables `b_acc` holding the indices and the values, starting from index 0 with a row
of zeros, each iteration concatenating the gather's indices (popped) and its output's
gradient (from the body's function, whose input the gathered rows are) reshaped to
rows. After the loop, the accumulated slices are summed into rows (UnsortedSegmentSum,
TF's conversion of IndexedSlices to a tensor) for the dense gradient, and the Exits
themselves are the IndexedSlices tf.gradients returns (`slice_outputs`)."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.graphdef.loop_gradient_plan import LoopPlan

__all__ = ["SliceAccumulators"]

_SCALAR = TensorShape([])


class SliceAccumulators:
    """The IndexedSlices parts of `_LoopGradientWriter` (it supplies `prefix`, `_node`,
    `_const`, `_value` and `_scope`)."""

    prefix: str
    slice_exits: Dict[Operation, Tuple[str, str]]
    _node: Any
    _const: Any
    _value: Any
    _scope: Any

    def _slice_inits(self, plan: LoopPlan, base: str
                     ) -> Tuple[List[str], List[Any], List[TensorShape]]:
        """The initial values, types and shapes of the backward-loop variables of
        `plan.sparse_reads`: per gather, its indices (`[0]`) and values (a row of
        zeros), TF's `b_acc`."""
        inits: List[str] = []
        types: List[Any] = []
        shapes: List[TensorShape] = []
        for gather, params in plan.sparse_reads.items():
            index_type = gather.inputs[1].dtype.base_dtype
            dtype = gather.outputs[0].dtype.base_dtype
            row = _row_shape(gather, params)
            value = self._value(params, base + "b_acc")
            first = self._node(base + "b_acc/first_row", "StridedSlice", [
                value, self._const(base + "b_acc/begin", [0], D.int32),
                self._const(base + "b_acc/end", [1], D.int32),
                self._const(base + "b_acc/strides", [1], D.int32)],
                {"T": dtype, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
                 "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
                [TensorShape([1]).concatenate(row)])
            inits += [self._const(base + "b_acc", [0], index_type),
                      self._node(base + "b_acc", "ZerosLike", [first], {"T": dtype},
                                 [TensorShape([1]).concatenate(row)])]
            types += [index_type, dtype]
            shapes += [TensorShape([None]), TensorShape([None]).concatenate(row)]
        return inits, types, shapes

    def _slice_nexts(self, plan: LoopPlan, views: List[str], value_of: Callable[[Tensor], str],
                     grad_of: Callable[[Tensor], str], base: str) -> List[str]:
        """The next values of the `b_acc` loop variables (`views`: their values this
        backward iteration, two per gather; `value_of`: a body value's, popped, or an
        outside one's, entered)."""
        nexts: List[str] = []
        if not plan.sparse_reads:
            return nexts
        pivot = views[0]
        axis = self._const(base + "b_acc/axis", 0, D.int32, [pivot])
        flat = self._const(base + "b_acc/flat", [-1], D.int32, [pivot])
        for j, gather in enumerate(plan.sparse_reads):
            indices, values = views[2 * j], views[2 * j + 1]
            index_type = gather.inputs[1].dtype.base_dtype
            dtype = gather.outputs[0].dtype.base_dtype
            row_shape = _row_shape(gather, plan.sparse_reads[gather])
            # rows of the gradient of the gather's output: shaped [-1] + the params' rows
            rows_shape = self._node(base + "b_acc/rows_shape", "ConcatV2", [
                flat, self._node(base + "b_acc/row_shape", "StridedSlice", [
                    self._node(base + "b_acc/values_shape", "Shape", [values],
                               {"T": dtype, "out_type": D.int32}, [TensorShape([None])]),
                    self._const(base + "b_acc/row_begin", [1], D.int32, [pivot]),
                    self._const(base + "b_acc/row_end", [0], D.int32, [pivot]),
                    self._const(base + "b_acc/row_strides", [1], D.int32, [pivot])],
                    {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 1,
                     "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
                    [TensorShape([None])]), axis],
                {"T": D.int32, "N": 2, "Tidx": D.int32}, [TensorShape([None])])
            rows = self._node(base + "b_acc/rows", "Reshape",
                              [grad_of(gather.outputs[0]), rows_shape],
                              {"T": dtype, "Tshape": D.int32},
                              [TensorShape([None]).concatenate(row_shape)])
            index = self._node(base + "b_acc/indices", "Reshape",
                               [value_of(gather.inputs[1]), flat],
                               {"T": index_type, "Tshape": D.int32}, [TensorShape([None])])
            nexts += [self._node(base + "b_acc/concat", "ConcatV2", [indices, index, axis],
                                 {"T": index_type, "N": 2, "Tidx": D.int32},
                                 [TensorShape([None])]),
                      self._node(base + "b_acc/concat", "ConcatV2", [values, rows, axis],
                                 {"T": dtype, "N": 2, "Tidx": D.int32},
                                 [TensorShape([None]).concatenate(row_shape)])]
        return nexts

    def _slice_grads(self, plan: LoopPlan, exits: List[str]) -> List[Tuple[Tensor, str]]:
        """(gathered tensor, its gradient as a tensor) from the `b_acc` Exits `exits`
        (two per gather): the slices summed into the rows they index."""
        found: List[Tuple[Tensor, str]] = []
        scope = f"{self.prefix}/{self._scope(plan)}sparse_grad/"
        for j, (gather, params) in enumerate(plan.sparse_reads.items()):
            dtype = gather.outputs[0].dtype.base_dtype
            index_type = gather.inputs[1].dtype.base_dtype
            value = self._value(params, scope + "value")
            shape = self._node(scope + "Shape", "Shape", [value],
                               {"T": dtype, "out_type": D.int32}, [TensorShape([None])])
            count = self._node(scope + "rows", "StridedSlice", [
                shape, self._const(scope + "begin", [0], D.int32),
                self._const(scope + "end", [1], D.int32),
                self._const(scope + "strides", [1], D.int32)],
                {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
                 "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1}, [_SCALAR])
            found.append((params, self._node(
                scope + "UnsortedSegmentSum", "UnsortedSegmentSum",
                [exits[2 * j + 1], exits[2 * j], count],
                {"T": dtype, "Tindices": index_type, "Tnumsegments": D.int32},
                [TensorShape([None]).concatenate(_row_shape(gather, params))])))
        return found


    def slice_outputs(self, spec: Any, totals: List[str]) -> List[str]:
        """The indices and values of an accumulated IndexedSlices the gradient op
        returns (autodiff/loop_slices.py `SliceSpec`): the Exits of the gather's
        accumulators where the slices are one gather of an outermost loop's body (TF's
        form); else the dense gradient of the source as slices of every row (the same
        sum, while optimizers' sparse updates then touch every row)."""
        if len(spec.sites) == 1 and spec.sites[0][1] is None:
            gather = spec.while_op.attrs["loop"].slice_sites[spec.sites[0][0]]
            if gather in self.slice_exits:
                return list(self.slice_exits[gather])
        index_type, dtype = spec.dtypes
        total = totals[spec.source]
        base = f"{self.prefix}/slices/"
        shape = self._node(base + "Shape", "Shape", [total],
                           {"T": dtype, "out_type": index_type}, [TensorShape([None])])
        rows = self._node(base + "rows", "StridedSlice", [
            shape, self._const(base + "begin", [0], D.int32),
            self._const(base + "end", [1], D.int32),
            self._const(base + "strides", [1], D.int32)],
            {"T": index_type, "Index": D.int32, "begin_mask": 0, "end_mask": 0,
             "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1}, [_SCALAR])
        indices = self._node(base + "Range", "Range", [
            self._const(base + "start", 0, index_type), rows,
            self._const(base + "delta", 1, index_type)], {"Tidx": index_type},
            [TensorShape([None])])
        return [indices, total]

def _row_shape(gather: Operation, params: Tensor) -> TensorShape:
    """The shape of a row of what `gather` takes rows of (`params`: a tensor, or a
    resource variable's handle)."""
    if params.dtype.base_dtype != D.resource:
        return params.shape[1:]
    output, indices = gather.outputs[0].shape, gather.inputs[1].shape
    if output.rank is None or indices.rank is None:
        return TensorShape(None)
    return TensorShape(output.dims[indices.rank:])
