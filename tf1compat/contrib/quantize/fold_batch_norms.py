"""TF 1.15's folding of a batch norm into the conv/fc layer before it (fold_batch_norms.py),
for batch norms in inference mode: a FusedBatchNorm(V3) with is_training=False that
reads a Conv2D / DepthwiseConv2dNative (optionally through BatchToSpaceND and/or an
Identity) or a MatMul (through Reshapes before and after). The layer is cloned as
`<layer>_Fold` over weights * gamma / sqrt(variance + epsilon) (`mul_fold`), and
`add_fold` adds beta - mean * that factor; the batch norm's readers are rerouted to it.

Not implemented (NotImplementedError from `unsupported_batch_norm`): batch norms in
training mode (TF's batch-statistics corrections, moving-average rewiring and
freeze_bn_delay) and unfused batch norms (`.../BatchNorm/batchnorm/...` op groups).
"""

from __future__ import annotations

import re
from typing import List, Optional

from tf1compat.contrib.quantize import graph_matcher as gm
from tf1compat.contrib.quantize.quantize import SKIPPED_PREFIXES
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.nn_conv import conv2d, depthwise_conv2d
from tf1compat.ops.space_batch_ops import batch_to_space_nd

_FUSED_TYPES = "FusedBatchNorm|FusedBatchNormV3"
_UNFUSED_BATCH_NORM = re.compile(r"^(.*)BatchNorm/batchnorm")


class _Match:
    """One batch norm to fold and the tensors of its layer."""

    def __init__(self, layer_op: Operation, bn_op: Operation, output: Tensor,
                 input_tensor: Tensor, weight: Tensor, batch_to_space: Optional[Operation]):
        self.layer_op, self.bn_op, self.output = layer_op, bn_op, output
        self.input_tensor, self.weight, self.batch_to_space = input_tensor, weight, \
            batch_to_space
        self.gamma, self.beta, self.mean, self.variance = bn_op.inputs[1:5]


def _find(graph: Graph) -> List[_Match]:
    p = gm.OpTypePattern
    inputs, weights = p("*"), p("*")
    layer = p("Conv2D|DepthwiseConv2dNative|MatMul", inputs=[inputs, weights])
    to_space = p("BatchToSpaceND", inputs=[layer, p("*"), p("*")])
    layer_output = gm.OneofPattern([p("Identity", inputs=[gm.OneofPattern([to_space, layer])]),
                                    layer, to_space])
    bn = p(_FUSED_TYPES, inputs=[gm.OneofPattern([p("Reshape", inputs=[layer_output, p("*")]),
                                                  layer_output]),
                                 p("*"), p("*"), p("*"), p("*")])
    output_reshape = p("Reshape", inputs=[bn, p("*")])
    matches: List[_Match] = []
    seen = set()
    for m in gm.match_graph(gm.OneofPattern([output_reshape, bn]), graph):
        layer_op, bn_op = m.get_op(layer), m.get_op(bn)
        output = bn_op.outputs[0]
        if layer_op.type == "MatMul":
            reshape = m.get_op(output_reshape)
            if reshape is None:
                continue
            output = reshape.outputs[0]
        if not output.consumers() or layer_op in seen:
            continue
        seen.add(layer_op)
        matches.append(_Match(layer_op, bn_op, output, m.get_tensor(inputs),
                              m.get_tensor(weights), m.get_op(to_space)))
    return matches


def unsupported_batch_norm(graph: Graph, is_training: bool) -> Optional[str]:
    """The name of a batch norm TF would fold in a way tf1compat does not, or None."""
    for match in _find(graph):
        if is_training or match.bn_op.get_attr("is_training"):
            return match.bn_op.name
    for op in graph.get_operations():
        if _UNFUSED_BATCH_NORM.search(op.name) and not op.name.startswith(SKIPPED_PREFIXES):
            return op.name
    return None


def _clone_layer(match: _Match, weights: Tensor) -> Tensor:
    op = match.layer_op
    name = op.name.split("/")[-1] + "_Fold"
    if op.type == "Conv2D":
        return conv2d(match.input_tensor, weights, strides=op.get_attr("strides"),
                      padding=op.get_attr("padding"),
                      use_cudnn_on_gpu=op.get_attr("use_cudnn_on_gpu"),
                      data_format=op.get_attr("data_format").decode(), name=name)
    if op.type == "MatMul":
        return matmul(match.input_tensor, weights, transpose_a=op.get_attr("transpose_a"),
                      transpose_b=op.get_attr("transpose_b"), name=name)
    out = depthwise_conv2d(match.input_tensor, weights, strides=op.get_attr("strides"),
                           padding=op.get_attr("padding"), name=name)
    if match.batch_to_space is not None:
        to_space = op.outputs[0].consumers()[0]
        out = batch_to_space_nd(out, to_space.inputs[1], to_space.inputs[2],
                                name=to_space.name.split("/")[-1] + "_Fold")
    return out


def fold_batch_norms(graph: Graph) -> None:
    """Folds each inference-mode fused batch norm into its layer (in place)."""
    for match in _find(graph):
        scope = match.layer_op.name.rpartition("/")[0]
        prefix = scope + "/" if scope else ""
        with graph.as_default(), graph.name_scope(prefix):
            with graph.name_scope(prefix + "BatchNorm_Fold/"):
                factor = match.gamma * math_ops.rsqrt(
                    match.variance + match.bn_op.get_attr("epsilon"))
                bias = math_ops.subtract(match.beta, match.mean * factor, name="bias")
                if match.layer_op.type == "DepthwiseConv2dNative":
                    factor = array_ops.reshape(factor, match.weight.shape.as_list()[2:4],
                                               name="scale_reshape")
            scaled = math_ops.multiply(match.weight, factor, name="mul_fold")
            folded = math_ops.add(_clone_layer(match, scaled), bias, name="add_fold")
            rerouted = 0
            for op in list(match.output.consumers()):
                for i, t in enumerate(list(op.inputs)):
                    if t is match.output:
                        op._update_input(i, folded)
                        rerouted += 1
            if rerouted == 0:
                raise ValueError("Folding batch norms failed, %s had no outputs."
                                 % match.output.name)
