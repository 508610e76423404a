"""TensorArray gradients of a backward loop (loop_gradient_export.py): the part of a
written element's gradient in the gradient of what reads the array after the loop
(stack(), gather(), read(k), concat()), the rows of a split or concatenated element,
the zeros the gradients of all elements of an array the body reads start from, and
the gradients of the elements an array held when it entered the loop."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.graphdef.cond_lowering import element_dtype
from tf1compat.graphdef.loop_array_plan import is_range, unstacked_source

__all__ = ["ArrayGradients"]

_SCALAR = TensorShape([])


def _branch_path(write: Operation) -> List[Tuple[Tensor, bool]]:
    """(predicate, whether the then branch) of each tf.cond branch around `write`,
    outermost first."""
    path: List[Tuple[Tensor, bool]] = []
    region = write._control_flow_context
    while region is not None:
        path.insert(0, (region.pred, bool(region.branch)))
        region = region.outer_context
    return path


class ArrayGradients:
    """The TensorArray parts of `_LoopGradientWriter` (it supplies `_node`, `_const`,
    `_name` and `pivot`)."""

    _node: Any
    _const: Any
    _name: Any
    pivot: str

    def _element_grad(self, reader: Operation, grad: str, index: str, value: Tensor,
                      base: str, pivot: str, axis: str, constant_enter: Any,
                      outer: Any = None) -> str:
        """The part of the gradient of the element written at `index` (`value`) in the
        gradient `grad` (entered into the backward loop) of `reader`'s output (`axis`:
        a constant 0 in the backward loop; `outer`: the name of a value outside the
        backward loop, of a nested one's reader in the outer backward loop)."""
        dtype = value.dtype.base_dtype
        outer = outer or self._name
        if reader.type == "TensorArrayGatherV3" and is_range(reader.inputs[1]):
            return self._node(base + "written_grad", "GatherV2", [grad, index, axis],
                              {"Tparams": dtype, "Tindices": D.int32, "Taxis": D.int32,
                               "batch_dims": 0}, [value.shape])    # stack(): row i
        if reader.type == "TensorArrayGatherV3":
            # gather(indices): the sum of the rows j with indices[j] == i, a product with
            # their one-hot weights
            indices = constant_enter(outer(reader.inputs[1]), D.int32,
                                     TensorShape([None]), "gather_indices")
            hits = self._node(base + "gather/Equal", "Equal", [indices, index],
                              {"T": D.int32, "incompatible_shape_error": True},
                              [TensorShape([None])])
            weights = self._node(base + "gather/weights", "Cast", [hits],
                                 {"SrcT": D.bool, "DstT": dtype, "Truncate": False},
                                 [TensorShape([None])])
            row = self._const(base + "gather/row", [1, -1], D.int32, [pivot])
            weights = self._node(base + "gather/row_weights", "Reshape", [weights, row],
                                 {"T": dtype, "Tshape": D.int32}, [TensorShape([1, None])])
            count = self._node(base + "gather/count", "Size", [indices],
                               {"T": D.int32, "out_type": D.int32}, [_SCALAR])
            rows_shape = self._node(base + "gather/rows_shape", "Pack", [count, self._const(
                base + "gather/all", -1, D.int32, [pivot])], {"T": D.int32, "N": 2, "axis": 0},
                [TensorShape([2])])
            rows = self._node(base + "gather/rows", "Reshape", [grad, rows_shape],
                              {"T": dtype, "Tshape": D.int32}, [TensorShape([None, None])])
            summed = self._node(base + "gather/sum", "MatMul", [weights, rows],
                                {"T": dtype, "transpose_a": False, "transpose_b": False},
                                [TensorShape([1, None])])
            shape = self._node(base + "gather/shape", "Shape", [grad],
                               {"T": dtype, "out_type": D.int32}, [TensorShape([None])])
            element_shape = self._node(
                base + "gather/element_shape", "Slice",
                [shape, self._const(base + "gather/begin", [1], D.int32, [pivot]),
                 self._const(base + "gather/size", [-1], D.int32, [pivot])],
                {"T": D.int32, "Index": D.int32}, [TensorShape([None])])
            return self._node(base + "written_grad", "Reshape", [summed, element_shape],
                              {"T": dtype, "Tshape": D.int32}, [value.shape])
        if reader.type == "TensorArrayReadV3":       # read(k): all of it at i == k
            read_at = constant_enter(outer(reader.inputs[1]), D.int32, _SCALAR,
                                     "read_after_index")
            hit = self._node(base + "read_after/Equal", "Equal", [index, read_at],
                             {"T": D.int32, "incompatible_shape_error": True}, [_SCALAR])
            zeros = self._node(base + "read_after/zeros", "ZerosLike", [grad], {"T": dtype},
                               [value.shape])
            return self._node(base + "written_grad", "Select", [hit, grad, zeros],
                              {"T": dtype}, [value.shape])
        # concat(): the rows offset_i ... of the concatenation
        lengths = constant_enter(outer(reader.outputs[1]), D.int64,
                                 TensorShape([None]), "concat_lengths")
        offset, length = self._offset_and_length(lengths, index, base, pivot)
        rank = value.shape.ndims
        zero = self._const(base + "concat/zero", 0, D.int32, [pivot])
        everything = self._const(base + "concat/all", -1, D.int32, [pivot])
        begin = self._node(base + "concat/begin", "Pack", [offset] + [zero] * (rank - 1),
                           {"T": D.int32, "N": rank, "axis": 0}, [TensorShape([rank])])
        size = self._node(base + "concat/size", "Pack", [length] + [everything] * (rank - 1),
                          {"T": D.int32, "N": rank, "axis": 0}, [TensorShape([rank])])
        return self._node(base + "written_grad", "Slice", [grad, begin, size],
                          {"T": dtype, "Index": D.int32}, [value.shape])

    def _entering_grads(self, plan: Any, read_grads: Dict[Tensor, str],
                        own_exits: Dict[int, str], base: str) -> List[Tuple[Tensor, str]]:
        """(element, its gradient) for the elements written into `plan`'s arrays just
        before its loop (`plan.entering`): their parts of the gradients `read_grads` of
        what reads each array after the loop, and their rows of the gradients of all
        elements the backward loop summed for the body's reads (`own_exits`: the Exit
        per array loop variable)."""
        found: List[Tuple[Tensor, str]] = []
        # a tf.cond's output -> (the branches around each write: `_branch_path`, the
        # gradient of its element)
        sides: Dict[Tensor, List[Tuple[List[Tuple[Tensor, bool]], str]]] = {}
        for write, (k, readers) in plan.entering.items():
            value = write.inputs[2]
            dtype = value.dtype.base_dtype
            # (of a write in a tf.cond branch: the constant index, which no op outside
            # the branch reads)
            constant = constant_value(write.inputs[1]) if write in plan.entering_conds \
                else None
            index = self._name(write.inputs[1]) if constant is None else \
                self._const(base + "index", int(constant), D.int32, [self.pivot])
            axis = self._const(base + "axis", 0, D.int32, [self.pivot])
            parts = [self._element_grad(r, read_grads[r.outputs[0]], index, value, base,
                                        self.pivot, axis, lambda outer, *_: outer)
                     for r in readers]
            if k in own_exits:
                parts.append(self._node(base + "own_grad", "GatherV2",
                                        [own_exits[k], index, axis],
                                        {"Tparams": dtype, "Tindices": D.int32,
                                         "Taxis": D.int32, "batch_dims": 0}, [value.shape]))
            if not parts:
                continue
            total = parts[0] if len(parts) == 1 else self._node(
                base + "sum", "AddN", parts, {"T": dtype, "N": len(parts)}, [value.shape])
            cond = plan.entering_conds.get(write)
            if cond is None:
                found.append((value, total))
                continue
            if cond not in sides:
                found.append((cond, ""))      # (its gradient below)
            sides.setdefault(cond, []).append((_branch_path(write), total))
        # a tf.cond's: the gradient of the Select of the branches' elements
        # (gradient_export's forward function), at each branch's index where it ran
        return [(t, grad) if t not in sides else (t, self._select(
            sides[t], 0, base, element_dtype(t.op, t.value_index))) for t, grad in found]

    def _select(self, grads: List[Tuple[List[Tuple[Tensor, bool]], str]], depth: int,
                base: str, dtype: Any) -> str:
        """The gradients `grads` of the elements of tf.cond branches (each with its
        `_branch_path`) picked by the predicates from `depth` on: `Select(pred, then's,
        else's)` where both sides write, the one gradient where one does."""
        if len(grads) == 1:
            return grads[0][1]
        pred = grads[0][0][depth][0]
        sides = [[g for g in grads if g[0][depth][1] is taken] for taken in (True, False)]
        if not all(sides):
            return self._select(grads, depth + 1, base, dtype)
        return self._node(base + "select", "Select", [self._name(pred)] + [
            self._select(side, depth + 1, base, dtype) for side in sides], {"T": dtype},
            [TensorShape(None)])

    def _through_reads(self, found: List[Tuple[Tensor, str]], context: Any, base: str
                       ) -> List[Tuple[Tensor, str]]:
        """`found` (tensor, its gradient) with the elements read before the loop from an
        array unstacked there (a stateful read, where forward functions stop: tf.scan's
        first element) replaced by the value unstacked, their gradients at their rows."""
        out: List[Tuple[Tensor, str]] = []
        for t, grad in found:
            unstacked = unstacked_source(t, context)
            if unstacked is None:
                out.append((t, grad))
                continue
            dtype = t.dtype.base_dtype
            read_at = self._node(base + "read_index", "Reshape", [
                self._name(t.op.inputs[1]), self._const(base + "row", [1, 1], D.int32,
                                                        [self.pivot])],
                {"T": D.int32, "Tshape": D.int32}, [TensorShape([1, 1])])
            zeros = self._node(base + "zeros", "ZerosLike", [self._name(unstacked)],
                               {"T": dtype}, [unstacked.shape])
            update = self._node(base + "read_grad", "ExpandDims", [grad, self._const(
                base + "axis", 0, D.int32, [self.pivot])], {"T": dtype, "Tdim": D.int32},
                [TensorShape(None)])
            out.append((unstacked, self._node(
                base + "unstacked_grad", "TensorScatterAdd", [zeros, read_at, update],
                {"T": dtype, "Tindices": D.int32}, [unstacked.shape])))
        return out

    def _offset_and_length(self, lengths: str, index: str, base: str, pivot: str
                           ) -> Tuple[str, str]:
        """(the first row, the number of rows) of element `index` of a TensorArray
        split or concatenated with the int64 element `lengths`."""
        lengths = self._node(base + "lengths", "Cast", [lengths],
                             {"SrcT": D.int64, "DstT": D.int32, "Truncate": False},
                             [TensorShape([None])])
        start = self._const(base + "lengths/begin", [0], D.int32, [pivot])
        shape = self._const(base + "lengths/shape", [1], D.int32, [pivot])
        count = self._node(base + "lengths/count", "Reshape", [index, shape],
                           {"T": D.int32, "Tshape": D.int32}, [TensorShape([1])])
        before = self._node(base + "lengths/before", "Slice", [lengths, start, count],
                            {"T": D.int32, "Index": D.int32}, [TensorShape([None])])
        axis = self._const(base + "axis", 0, D.int32, [pivot])
        offset = self._node(base + "offset", "Sum", [before, axis],
                            {"T": D.int32, "Tidx": D.int32, "keep_dims": False}, [_SCALAR])
        length = self._node(base + "length", "GatherV2", [lengths, index, axis],
                            {"Tparams": D.int32, "Tindices": D.int32, "Taxis": D.int32,
                             "batch_dims": 0}, [_SCALAR])
        return offset, length

    def _own_array_zeros(self, base: str, handle: Tensor, flow: Tensor, element: Tensor
                         ) -> str:
        """Zeros for the gradients of all elements of the array `handle` (its flow
        after the loop `flow`, elements like `element`, of a static shape)."""
        size = self._node(base + "own/size", "TensorArraySizeV3",
                          [self._name(handle), self._name(flow)], {}, [_SCALAR])
        return self._sized_zeros(base, size, element, [self.pivot] if self.pivot else [])

    def _gathered_zeros(self, base: str, handle: Tensor, flow: Tensor, element: Tensor
                        ) -> str:
        """Zeros for the gradients of all elements of the array `handle` (its flow after
        the loop `flow`, elements like `element`, of a shape known at run time): of its
        elements gathered after the loop."""
        pivots = [self.pivot] if self.pivot else []
        handle_name, flow_name = self._name(handle), self._name(flow)
        size = self._node(base + "own/size", "TensorArraySizeV3", [handle_name, flow_name],
                          {}, [_SCALAR])
        indices = self._node(base + "own/range", "Range", [
            self._const(base + "own/start", 0, D.int32, pivots), size,
            self._const(base + "own/delta", 1, D.int32, pivots)], {"Tidx": D.int32},
            [TensorShape([None])])
        dtype = element.dtype.base_dtype
        elements = self._node(base + "own/gather", "TensorArrayGatherV3",
                              [handle_name, indices, flow_name],
                              {"dtype": dtype, "element_shape": TensorShape(None)},
                              [TensorShape(None)])
        return self._node(base + "own/zeros", "ZerosLike", [elements], {"T": dtype},
                          [TensorShape(None)])

    def _sized_zeros(self, base: str, size: str, element: Tensor,
                     pivots: Optional[List[str]] = None) -> str:
        """Zeros [size, element's static shape] of `element`'s type; their constants
        wait for `pivots` (by default `size`, a value of the frame they are made in)."""
        pivots = [size.split(":")[0]] if pivots is None else pivots
        count = self._node(base + "own/count", "Reshape",
                           [size, self._const(base + "own/one", [1], D.int32, pivots)],
                           {"T": D.int32, "Tshape": D.int32}, [TensorShape([1])])
        shape = element.shape.as_list()
        dims = self._node(base + "own/shape", "ConcatV2", [
            count, self._const(base + "own/element_shape", shape, D.int32, pivots),
            self._const(base + "own/axis", 0, D.int32, pivots)],
            {"T": D.int32, "N": 2, "Tidx": D.int32}, [TensorShape([1 + len(shape)])])
        dtype = element.dtype.base_dtype
        return self._node(base + "own/zeros", "Fill",
                          [dims, self._const(base + "own/zero", 0, dtype, pivots)],
                          {"T": dtype, "index_type": D.int32}, [TensorShape([None] + shape)])
