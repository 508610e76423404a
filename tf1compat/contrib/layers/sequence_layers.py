"""`tf.contrib.layers` reshaping layers of TF 1.15's layers.py: `unit_norm`, `maxout`,
`images_to_sequence`, `sequence_to_images`, built with TF's ops, scopes and names (the
graph TF 1.15 builds: UnitNorm/..., MaxOut/..., ImagesToSequence/...), and
`scale_gradient` (TF's Defun: an identity call op with a Python gradient)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.framework.arg_scope import add_arg_scope
from tf1compat.contrib.layers import utils
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.graphdef.defun import Defun
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.reduction_ops import reduce_max, reduce_sum
from tf1compat.ops.strided_slice import strided_slice
from tf1compat.ops.transform_ops import tile, transpose
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["unit_norm", "maxout", "images_to_sequence", "sequence_to_images", "scale_gradient"]


def unit_norm(inputs: Any, dim: int, epsilon: float = 1e-7, scope: Optional[str] = None) -> Any:
    """`inputs` divided by its L2 length along `dim` (rank must be known), as TF 1.15."""
    with variable_scope(scope, "UnitNorm", [inputs]):
        if not inputs.get_shape():
            raise ValueError("The input rank must be known.")
        input_rank = len(inputs.get_shape().as_list())
        if dim < 0 or dim >= input_rank:
            raise ValueError("dim must be positive but smaller than the input rank.")
        lengths = math_ops.sqrt(epsilon + reduce_sum(math_ops.square(inputs), dim, True))
        multiples = []
        if dim > 0:
            multiples.append(ones([dim], D.int32))
        multiples.append(strided_slice(array_ops.shape(inputs), [dim], [dim + 1]))
        if dim < input_rank - 1:
            multiples.append(ones([input_rank - 1 - dim], D.int32))
        return math_ops.div(inputs, tile(lengths, array_ops.concat(multiples, 0)))


@add_arg_scope
def maxout(inputs: Any, num_units: int, axis: int = -1, scope: Optional[str] = None) -> Any:
    """Maxout (Goodfellow et al.): the max over groups of `axis`'s features, leaving
    `num_units` of them, as TF 1.15."""
    with variable_scope(scope, "MaxOut", [inputs]):
        inputs = convert_to_tensor(inputs)
        shape = inputs.get_shape().as_list()
        num_channels = shape[axis]
        if num_channels % num_units:
            raise ValueError("number of features({}) is not a multiple of num_units({})"
                             .format(num_channels, num_units))
        shape[axis] = num_units
        shape += [num_channels // num_units]
        for i in range(len(shape)):       # batches of any size
            if shape[i] is None:
                shape[i] = array_ops.shape(inputs)[i]
        return reduce_max(array_ops.reshape(inputs, shape), -1, keepdims=False)


@add_arg_scope
def images_to_sequence(inputs: Any, data_format: str = "NHWC", outputs_collections: Any = None,
                       scope: Optional[str] = None) -> Any:
    """A (num_images, height, width, depth) batch as a (width, num_images*height, depth)
    sequence, as TF 1.15."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with name_scope(scope, "ImagesToSequence", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        if data_format.startswith("NC"):
            inputs = transpose(inputs, [0, 2, 3, 1])
        _, _, width, depth = inputs.get_shape().as_list()
        s = array_ops.shape(inputs)
        batch_size, height = s[0], s[1]
        transposed = transpose(inputs, [2, 0, 1, 3])
        outputs = array_ops.reshape(transposed, [width, batch_size * height, depth])
        return utils.collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def sequence_to_images(inputs: Any, height: int, output_data_format: str = "channels_last",
                       outputs_collections: Any = None, scope: Optional[str] = None) -> Any:
    """A (width, num_images*height, depth) sequence back as a batch of images, as TF 1.15."""
    with name_scope(scope, "SequenceToImages", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        width, num_batches, depth = inputs.get_shape().as_list()
        num_batches = -1 if num_batches is None else num_batches // height
        reshaped = array_ops.reshape(inputs, [width, num_batches, height, depth])
        perm = [1, 3, 2, 0] if output_data_format == "channels_first" else [1, 2, 0, 3]
        return utils.collect_named_outputs(outputs_collections, sc,
                                           transpose(reshaped, perm))


def _scale_gradient_shape(op: Any) -> list:
    return [op.inputs[0].shape]


def _scale_gradient_grad(op: Any, grad: Any) -> list:
    return [grad * op.inputs[1], None]


@Defun(python_grad_func=_scale_gradient_grad, shape_func=_scale_gradient_shape)
def scale_gradient(inputs: Any, gradient_multiplier: Any) -> Any:
    """Identity whose gradient is multiplied by `gradient_multiplier` (it receives no
    gradient): TF 1.15's overloaded Defun, one call op `scale_gradient_<hash>` per call."""
    return inputs
