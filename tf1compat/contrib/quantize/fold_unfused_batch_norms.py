"""TF 1.15's folding of UNFUSED batch norms into the conv/fc layer before them
(fold_batch_norms.py's second pass, after the fused batch norms).

An unfused batch norm is the op group `<context>BatchNorm/batchnorm_1/...` that
`contrib.layers.batch_norm(fused=False)` builds (tf.nn.batch_normalization:
`Rsqrt`, `mul` (times gamma when it scales), `mul_1` (the layer's output times that),
`add_1` (plus beta - mean * scale)). TF finds its parts by name, not by structure: the
batch mean and variance (`BatchNorm/moments/Squeeze(_1)`), the moving statistics
(`BatchNorm/moving_mean/read`, or `.../Read/ReadVariableOp` under a resource variable
scope), epsilon (`BatchNorm/batchnorm_1/add/y`) and the moving averages' decays
(`BatchNorm/AssignMovingAvg(_1)/decay`), each the op whose name ends so and shares the most
path components with the context. The layer is cloned as `<layer>_Fold` over the weights
times the batch norm's own scale (`<context>mul_fold`, a copy of its `mul_1`), and
`<context>add_fold` (a copy of `add_1`) takes the clone's output; the activation after the
batch norm (`<context>Relu6|Relu|Identity`), else the bypass `AddV2` of the enclosing scope,
reads it. In training mode the fold is corrected towards the moving statistics as for
fused batch norms (`fold_batch_norms.batch_norm_corrections`, in
`<context>batch_norm_correction`).
"""

from __future__ import annotations

import collections
import re
from typing import Dict, List, Optional, Set

from tf1compat.contrib.quantize.fold_batch_norms import batch_norm_corrections, reroute
from tf1compat.contrib.quantize.quantize import SKIPPED_PREFIXES
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.nn_conv import conv2d, depthwise_conv2d
from tf1compat.ops.space_batch_ops import batch_to_space_nd
from tf1compat.variables.variable_scope import get_variable_scope

_BATCH_NORM = re.compile(r"^(.*)BatchNorm/batchnorm")
_ACTIVATION_SUFFIXES = ("Relu6", "Relu", "Identity")


class _Statistics:
    """What the training-mode corrections read, found by name."""

    def __init__(self, graph: Graph, context: str, has_scaling: bool):
        if get_variable_scope().use_resource:
            gamma, moving = "BatchNorm/gamma/Read/ReadVariableOp", "/Read/ReadVariableOp"
        else:
            gamma, moving = "BatchNorm/gamma", "/read"
        find = lambda suffix: _find_tensor(graph, suffix, context)  # noqa: E731
        self.mean = find("BatchNorm/moments/Squeeze")
        self.variance = find("BatchNorm/moments/Squeeze_1")
        self.moving_mean = find("BatchNorm/moving_mean" + moving)
        self.moving_variance = find("BatchNorm/moving_variance" + moving)
        self.epsilon = find("BatchNorm/batchnorm_1/add/y")
        self.decay_mean = find("BatchNorm/AssignMovingAvg/decay")
        self.decay_variance = find("BatchNorm/AssignMovingAvg_1/decay")
        self.gamma = find(gamma) if has_scaling else ones(self.moving_mean.shape)


def _find_tensor(graph: Graph, suffix: str, context: str) -> Optional[Tensor]:
    """The first output of the op whose name ends with `suffix` and shares the most
    `/`-separated parts with `context` (any such op when the context is empty)."""
    parts = set(context.split("/"))
    best: Optional[Operation] = None
    best_score = -1
    for op in graph.get_operations():
        if op.name.endswith(suffix):
            score = len(set(op.name.split("/")) & parts)
            if (score > 0 or not context) and score > best_score:
                best, best_score = op, score
    return None if best is None else best.outputs[0]


def _batch_norm_contexts(graph: Graph) -> List[str]:
    """The prefixes before `BatchNorm/batchnorm` of the graph's op names, in order."""
    found: Dict[str, None] = {}
    for op in graph.get_operations():
        m = _BATCH_NORM.search(op.name)
        if m and not m.group(1).startswith(SKIPPED_PREFIXES):
            found[m.group(1)] = None
    return list(found)


def _has_scaling(graph: Graph, consumers: Dict[Tensor, Set[Operation]], context: str) -> bool:
    """A scaled batch norm's Rsqrt feeds one Mul (by gamma), an unscaled one's two (the
    layer's output and the mean)."""
    rsqrt = graph.get_operation_by_name(context + "BatchNorm/batchnorm_1/Rsqrt")
    readers: Set[Operation] = set()
    for t in rsqrt.outputs:
        readers.update(consumers.get(t, ()))
    return sum(1 for op in readers if op.type == "Mul") == 1


def _clone_layer(op: Operation, inputs: List[Tensor]) -> Tensor:
    """`op` (Conv2D, DepthwiseConv2dNative or MatMul) again over `inputs`, as
    `<op name>_Fold`."""
    name = op.name + "_Fold"
    if op.type in ("Conv2D", "DepthwiseConv2dNative"):
        in_shape, w_shape = inputs[0].shape, inputs[1].shape
        if in_shape.ndims != 4 or w_shape.ndims != 4 or in_shape[3] != w_shape[2]:
            raise ValueError("Incompatible shapes for op %s inputs: %s and %s"
                             % (op.name, in_shape, w_shape))
        if op.type == "DepthwiseConv2dNative":
            return depthwise_conv2d(inputs[0], inputs[1], strides=op.get_attr("strides"),
                                    padding=op.get_attr("padding"), name=name)
        return conv2d(inputs[0], inputs[1], strides=op.get_attr("strides"),
                      padding=op.get_attr("padding"),
                      use_cudnn_on_gpu=op.get_attr("use_cudnn_on_gpu"),
                      data_format=op.get_attr("data_format").decode(), name=name)
    a_shape, b_shape = inputs[0].shape, inputs[1].shape
    if a_shape.ndims != 2 or b_shape.ndims != 2 or a_shape[1] != b_shape[0]:
        raise ValueError("Incompatible shapes for op %s inputs: %s and %s"
                         % (op.name, a_shape, b_shape))
    return matmul(inputs[0], inputs[1], transpose_a=op.get_attr("transpose_a"),
                  transpose_b=op.get_attr("transpose_b"), name=name)


def _check_shapes(name: str, before: Tensor, after: Tensor) -> None:
    if not before.shape.is_compatible_with(after.shape):
        raise ValueError("%s should not change tensor shape: input %s, output %s"
                         % (name, before.shape, after.shape))


def _fold(graph: Graph, context: str, has_scaling: bool, is_training: bool,
          freeze_bn_delay: Optional[int]) -> Operation:
    """Builds the folded layer of the batch norm at `context`; returns its `add_fold`."""
    group = context + "BatchNorm/batchnorm_1/"
    mul_scale = graph.get_operation_by_name(group + ("mul_1" if has_scaling else "mul"))
    layer = mul_scale.inputs[0].op
    to_space = None
    if layer.type == "BatchToSpaceND":
        to_space, layer = layer, layer.inputs[0].op
    if layer.type not in ("Conv2D", "DepthwiseConv2dNative", "MatMul"):
        raise ValueError("Cannot handle operation of type: %s" % layer.type)
    weights = layer.inputs[1]
    stats = _Statistics(graph, context, has_scaling)
    scale = recip = offset = None
    if is_training:
        scale, recip, offset = batch_norm_corrections(stats, freeze_bn_delay,
                                                      context + "batch_norm_correction")
    factor = mul_scale.inputs[1]
    if layer.type == "DepthwiseConv2dNative":
        shape = weights.shape.as_list()[2:4]
        bn_scale = graph.get_operation_by_name(group + ("mul" if has_scaling else "Rsqrt"))
        factor = array_ops.reshape(bn_scale.outputs[0], shape, context + "scale_reshape")
        if scale is not None:
            scale = array_ops.reshape(scale, shape, context + "correction_reshape")
    if scale is not None:
        weights = math_ops.multiply(scale, weights, context + "correction_mult")
    mul_fold = math_ops.multiply(weights, factor, name=context + "mul_fold")
    _check_shapes("mul_fold", weights, mul_fold)
    output = _clone_layer(layer, [layer.inputs[0], mul_fold])
    if to_space is not None:
        output = batch_to_space_nd(output, to_space.inputs[1], to_space.inputs[2],
                                   name=to_space.name + "_Fold")
    if offset is not None:
        output = math_ops.multiply(recip, output, context + "post_conv_mul")
        output = math_ops.add(output, offset, context + "correction_add")
    add_shift = graph.get_operation_by_name(group + "add_1")
    add_fold = math_ops.add(output, add_shift.inputs[1], name=context + "add_fold")
    _check_shapes("add_fold", output, add_fold)
    return add_fold.op


def fold_unfused_batch_norms(graph: Graph, is_training: bool,
                             freeze_bn_delay: Optional[int] = None) -> None:
    """Folds each unfused batch norm whose output is read into its conv/fc layer (in
    place) and reroutes its activation (or the bypass add) to the fold."""
    consumers: Dict[Tensor, Set[Operation]] = collections.defaultdict(set)
    for op in graph.get_operations():
        if not op.name.startswith(SKIPPED_PREFIXES):
            for t in op.inputs:
                consumers[t].add(op)
    for context in _batch_norm_contexts(graph):
        has_scaling = _has_scaling(graph, consumers, context)
        original = graph.get_operation_by_name(context + "BatchNorm/batchnorm_1/add_1")
        if not original.outputs[0].consumers():
            continue
        folded = _fold(graph, context, has_scaling, is_training, freeze_bn_delay)
        reader = _activation(graph, context)
        if reader is None:
            # A bypass (residual) add reads the batch norm: the `AddV2` one scope up.
            parent = context[:-1].rpartition("/")[0] if context else ""
            reader = graph.get_operation_by_name((parent + "/" if parent else "") + "AddV2")
        if reroute(folded.outputs[0], original.outputs[0], can_modify=[reader]) != 1:
            raise ValueError("Unexpected inputs to op: %s" % reader.name)


def _activation(graph: Graph, context: str) -> Optional[Operation]:
    for suffix in _ACTIVATION_SUFFIXES:
        try:
            return graph.get_operation_by_name(context + suffix)
        except KeyError:
            continue
    return None
