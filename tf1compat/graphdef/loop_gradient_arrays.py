"""TensorArray gradients of a backward loop (loop_gradient_export.py): the part of a
written element's gradient in the gradient of what reads the array after the loop
(stack(), gather(), read(k), concat()), the rows of a split or concatenated element,
and the zeros the gradients of all elements of an array the body reads start from."""

from __future__ import annotations

from typing import Any, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.graphdef.loop_gradient_plan import is_range

__all__ = ["ArrayGradients"]

_SCALAR = TensorShape([])


class ArrayGradients:
    """The TensorArray parts of `_LoopGradientWriter` (it supplies `_node`, `_const`,
    `_name` and `pivot`)."""

    _node: Any
    _const: Any
    _name: Any
    pivot: str

    def _element_grad(self, reader: Operation, grad: str, index: str, value: Tensor,
                      base: str, pivot: str, axis: str, constant_enter: Any) -> str:
        """The part of the gradient of the element written at `index` (`value`) in the
        gradient `grad` (entered into the backward loop) of `reader`'s output (`axis`:
        a constant 0 in the backward loop)."""
        dtype = value.dtype.base_dtype
        if reader.type == "TensorArrayGatherV3" and is_range(reader.inputs[1]):
            return self._node(base + "written_grad", "GatherV2", [grad, index, axis],
                              {"Tparams": dtype, "Tindices": D.int32, "Taxis": D.int32,
                               "batch_dims": 0}, [value.shape])    # stack(): row i
        if reader.type == "TensorArrayGatherV3":
            # gather(indices): the sum of the rows j with indices[j] == i, a product with
            # their one-hot weights
            indices = constant_enter(self._name(reader.inputs[1]), D.int32,
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
            read_at = constant_enter(self._name(reader.inputs[1]), D.int32, _SCALAR,
                                     "read_after_index")
            hit = self._node(base + "read_after/Equal", "Equal", [index, read_at],
                             {"T": D.int32, "incompatible_shape_error": True}, [_SCALAR])
            zeros = self._node(base + "read_after/zeros", "ZerosLike", [grad], {"T": dtype},
                               [value.shape])
            return self._node(base + "written_grad", "Select", [hit, grad, zeros],
                              {"T": dtype}, [value.shape])
        # concat(): the rows offset_i ... of the concatenation
        lengths = constant_enter(self._name(reader.outputs[1]), D.int64,
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
        pivots = [self.pivot] if self.pivot else []
        size = self._node(base + "own/size", "TensorArraySizeV3",
                          [self._name(handle), self._name(flow)], {}, [_SCALAR])
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
