"""Keras merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot
(and their functional forms `add`, `concatenate`, ...)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.ops import array_ops, math_ops

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate",
           "Dot", "add", "subtract", "multiply", "average", "maximum", "minimum",
           "concatenate", "dot"]


def _as_tuple(shape: Any) -> Optional[tuple]:
    if shape is None:
        return None
    if hasattr(shape, "as_list"):
        return None if shape.rank is None else tuple(shape.as_list())
    return tuple(shape)


class _Merge(Layer):
    """Elementwise merge of a list of tensors (lower-rank inputs get inner axes added)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True

    def _merge_function(self, inputs: List[Any]) -> Any:
        raise NotImplementedError

    def _compute_elemwise_op_output_shape(self, shape1: Any, shape2: Any) -> Any:
        if None in [shape1, shape2]:
            return None
        if len(shape1) < len(shape2):
            return self._compute_elemwise_op_output_shape(shape2, shape1)
        if not shape2:
            return shape1
        output_shape = list(shape1[:-len(shape2)])
        for i, j in zip(shape1[-len(shape2):], shape2):
            if i is None or j is None:
                output_shape.append(None)
            elif i == 1:
                output_shape.append(j)
            elif j == 1:
                output_shape.append(i)
            else:
                if i != j:
                    raise ValueError("Inputs have incompatible shapes. Received shapes "
                                     f"{shape1} and {shape2}")
                output_shape.append(i)
        return tuple(output_shape)

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or \
                not isinstance(_as_tuple(input_shape[0]), tuple):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={_as_tuple(input_shape)} (not a list of shapes)")
        shapes = [_as_tuple(s) for s in input_shape]
        if len(shapes) < 1:
            raise ValueError("A merge layer should be called on a list of at least 1 input. "
                             f"Got {len(shapes)} inputs. Full input_shape received: {shapes}")
        batch_sizes = {s[0] for s in shapes if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Cannot merge tensors with different batch sizes. Got tensors with "
                             f"shapes {shapes}")
        output_shape = None if shapes[0] is None else shapes[0][1:]
        for shape in shapes[1:]:
            output_shape = self._compute_elemwise_op_output_shape(
                output_shape, None if shape is None else shape[1:])
        self._reshape_required = not (None not in shapes and len(set(map(len, shapes))) == 1)
        self.built = True

    def call(self, inputs: Any) -> Any:
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"inputs={inputs} (not a list of tensors)")
        if self._reshape_required:
            ranks = [backend.ndim(x) for x in inputs]
            if None in ranks:
                raise NotImplementedError("Merging inputs of unknown rank is not supported by "
                                          "tf1compat")
            max_ndim = max(ranks)
            reshaped = []
            for x in inputs:
                for _ in range(max_ndim - backend.ndim(x)):
                    x = array_ops.expand_dims(x, axis=1)
                reshaped.append(x)
            return self._merge_function(reshaped)
        return self._merge_function(list(inputs))

    def compute_output_shape(self, input_shape: Any) -> Any:
        shapes = [_as_tuple(s) for s in input_shape]
        output_shape = None if shapes[0] is None else shapes[0][1:]
        for shape in shapes[1:]:
            output_shape = self._compute_elemwise_op_output_shape(
                output_shape, None if shape is None else shape[1:])
        batch_sizes = {s[0] for s in shapes if s is not None} - {None}
        batch = list(batch_sizes)[0] if len(batch_sizes) == 1 else None
        return (batch,) + tuple(output_shape)


class Add(_Merge):
    def _merge_function(self, inputs: List[Any]) -> Any:
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output


class Subtract(_Merge):
    def build(self, input_shape: Any) -> None:
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={input_shape}")

    def _merge_function(self, inputs: List[Any]) -> Any:
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    def _merge_function(self, inputs: List[Any]) -> Any:
        output = inputs[0]
        for x in inputs[1:]:
            output = output * x
        return output


class Average(_Merge):
    def _merge_function(self, inputs: List[Any]) -> Any:
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output / len(inputs)


class Maximum(_Merge):
    def _merge_function(self, inputs: List[Any]) -> Any:
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.maximum(output, x)
        return output


class Minimum(_Merge):
    def _merge_function(self, inputs: List[Any]) -> Any:
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.minimum(output, x)
        return output


class Concatenate(_Merge):
    """Concatenates along `axis` (all other dimensions must match)."""

    def __init__(self, axis: int = -1, **kwargs: Any):
        super().__init__(**kwargs)
        self.axis = axis
        self._reshape_required = False

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) < 1 or \
                not isinstance(_as_tuple(input_shape[0]), tuple):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 "
                             f"input. Received: input_shape={input_shape}")
        shapes = [_as_tuple(s) for s in input_shape]
        if all(s is None for s in shapes):
            self.built = True
            return
        reduced = [list(s) for s in shapes]
        shape_set = set()
        for s in reduced:
            del s[self.axis]
            shape_set.add(tuple(s))
        if len(shape_set) != 1:
            msg = ("A `Concatenate` layer requires inputs with matching shapes except for the "
                   f"concatenation axis. Received: input_shape={shapes}")
            ranks = {len(s) for s in shape_set}
            if len(ranks) != 1:
                raise ValueError(msg)
            (rank,) = ranks
            for axis in range(rank):
                dims = {s[axis] for s in shape_set if s[axis] is not None}
                if len(dims) > 1:
                    raise ValueError(msg)
        self.built = True

    def _merge_function(self, inputs: List[Any]) -> Any:
        return backend.concatenate(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        shapes = [_as_tuple(s) for s in input_shape]
        output_shape = list(shapes[0])
        for shape in shapes[1:]:
            if output_shape[self.axis] is None or shape[self.axis] is None:
                output_shape[self.axis] = None
                break
            output_shape[self.axis] += shape[self.axis]
        return tuple(output_shape)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"axis": self.axis})
        return config


class Dot(_Merge):
    """Per-sample dot product of two tensors along `axes` (an int for both, or one axis of
    each; negative axes count from the end), as `K.batch_dot`: `(batch, n, d)` and
    `(batch, m, d)` along `(2, 2)` give `(batch, n, m)`; two 2-D inputs give `(batch, 1)`.
    `normalize=True` L2-normalizes both along their axes first (cosine proximity)."""

    def __init__(self, axes: Any, normalize: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)) or len(axes) != 2 or \
                    not all(isinstance(a, int) for a in axes):
                raise ValueError("Invalid format for argument `axes`: expected an int or a "
                                 f"list/tuple of 2 ints. Received: axes={axes}")
        self.axes = axes
        self.normalize = normalize
        self._reshape_required = False

    def _axes_for(self, ranks: Sequence[int]) -> List[int]:
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        return [a % rank if a < 0 else a for a, rank in zip(axes, ranks)]

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        shape1, shape2 = _as_tuple(input_shape[0]), _as_tuple(input_shape[1])
        if shape1 is None or shape2 is None:
            return
        axes = self._axes_for((len(shape1), len(shape2)))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError("Incompatible input shapes: axis values "
                             f"{shape1[axes[0]]} (at axis {axes[0]}) != "
                             f"{shape2[axes[1]]} (at axis {axes[1]}). "
                             f"Full input shapes: {shape1}, {shape2}")
        self.built = True

    def _merge_function(self, inputs: List[Any]) -> Any:
        if len(inputs) != 2:
            raise ValueError("A `Dot` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        x1, x2 = inputs
        axes = self._axes_for((x1.shape.rank, x2.shape.rank))
        if self.normalize:
            x1 = backend.l2_normalize(x1, axis=axes[0])
            x2 = backend.l2_normalize(x2, axis=axes[1])
        return backend.batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        shape1, shape2 = list(_as_tuple(input_shape[0])), list(_as_tuple(input_shape[1]))
        axes = self._axes_for((len(shape1), len(shape2)))
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        shape2.pop(0)
        output_shape = shape1 + shape2
        return tuple(output_shape + [1] if len(output_shape) == 1 else output_shape)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def add(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Add(**kwargs)(inputs)


def subtract(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Subtract(**kwargs)(inputs)


def multiply(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Multiply(**kwargs)(inputs)


def average(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Average(**kwargs)(inputs)


def maximum(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Maximum(**kwargs)(inputs)


def minimum(inputs: Sequence[Any], **kwargs: Any) -> Any:
    return Minimum(**kwargs)(inputs)


def concatenate(inputs: Sequence[Any], axis: int = -1, **kwargs: Any) -> Any:
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs: Sequence[Any], axes: Any, normalize: bool = False, **kwargs: Any) -> Any:
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
