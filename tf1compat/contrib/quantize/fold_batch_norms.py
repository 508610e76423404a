"""TF 1.15's folding of a batch norm into the conv/fc layer before it (fold_batch_norms.py)
for fused batch norms: a FusedBatchNorm(V3) that reads a Conv2D / DepthwiseConv2dNative
(optionally through BatchToSpaceND and/or an Identity) or a MatMul (through Reshapes
before and after). The layer is cloned as `<layer>_Fold` over weights * gamma /
sqrt(variance + epsilon) (`mul_fold`), and `add_fold` adds beta - mean * that factor; the
batch norm's readers are rerouted to it.

A batch norm in training mode folds its batch statistics: the batch mean and the batch
variance with TF's Bessel correction undone (`Undo_Bessel_Correction`); its gradient
becomes `FoldFusedBatchNormGrad`, which carries the gradients of those statistics back to
the layer's output. In a training graph the fold is then corrected towards the moving
statistics (found through their `(moving - batch) * decay` updates): the weights are scaled
by sigma_batch / sigma_moving (`correction_mult`) and the layer's output by its reciprocal
(`post_conv_mul`), plus an offset (`correction_add`). With `freeze_bn_delay`, once the
quantization step reaches it the moving averages stop updating (their decay becomes 0)
and the fold uses the moving statistics.

Unfused batch norms (`.../BatchNorm/batchnorm_1/...` op groups) are folded by
fold_unfused_batch_norms.py, after the fused ones, as TF does.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple

from tf1compat.autodiff.registry import RegisterGradient
from tf1compat.contrib.quantize import graph_matcher as gm
from tf1compat.contrib.quantize.quantize import quantization_step
from tf1compat.framework import dtypes
from tf1compat.framework.graph import Graph, get_default_graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.cond import smart_cond
from tf1compat.ops.creation_ops import ones, zeros
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.nn_conv import conv2d, depthwise_conv2d
from tf1compat.ops.space_batch_ops import batch_to_space_nd

_FUSED_TYPES = "FusedBatchNorm|FusedBatchNormV3"


class _Match:
    """One batch norm to fold: its layer, the tensors the fold reads and, in training
    mode, the moving statistics and the decays of their updates."""

    def __init__(self, layer_op: Operation, bn_op: Operation, output: Tensor,
                 input_tensor: Tensor, weight: Tensor, batch_to_space: Optional[Operation],
                 mean: Tensor, variance: Tensor, moving: List[Optional[Tensor]]):
        self.layer_op, self.bn_op, self.output = layer_op, bn_op, output
        self.input_tensor, self.weight, self.batch_to_space = input_tensor, weight, \
            batch_to_space
        self.gamma, self.beta = bn_op.inputs[1:3]
        self.mean, self.variance = mean, variance
        self.moving_mean, self.moving_variance, self.decay_mean, self.decay_variance = moving
        self.epsilon = bn_op.get_attr("epsilon")


class _Patterns:
    def __init__(self) -> None:
        p = gm.OpTypePattern
        self.input, self.weight = p("*"), p("*")
        self.layer = p("Conv2D|DepthwiseConv2dNative|MatMul", inputs=[self.input, self.weight])
        self.to_space = p("BatchToSpaceND", inputs=[self.layer, p("*"), p("*")])
        layer_output = gm.OneofPattern([
            p("Identity", inputs=[gm.OneofPattern([self.to_space, self.layer])]),
            self.layer, self.to_space])
        self.bn = p(_FUSED_TYPES, inputs=[
            gm.OneofPattern([p("Reshape", inputs=[layer_output, p("*")]), layer_output]),
            p("*"), p("*"), p("*"), p("*")])
        self.output_reshape = p("Reshape", inputs=[self.bn, p("*")])
        # a moving average's update: (moving - batch statistic) * decay
        self.decay = p("*")
        self.moving_sub = p("Sub", inputs=[p("*"), self.bn])
        self.moving_mul = p("Mul", inputs=[self.moving_sub, self.decay])


def _moving_statistics(graph: Graph, pats: _Patterns,
                       bn_op: Operation) -> List[Optional[Tensor]]:
    """[moving mean, moving variance, decay of the mean's update, of the variance's]."""
    found: List[Optional[Tensor]] = [None] * 4
    for m in gm.match_graph(pats.moving_mul, graph):
        sub = m.get_op(pats.moving_sub)
        for i in (0, 1):
            if sub.inputs[1].name == bn_op.outputs[1 + i].name:
                found[i], found[2 + i] = sub.inputs[0], m.get_tensor(pats.decay)
    return found


def _batch_statistics(graph: Graph, bn_op: Operation, layer_tensor: Tensor
                      ) -> Tuple[Tensor, Tensor]:
    """A training-mode batch norm's batch mean and its batch variance without the
    n / (n - 1) factor the op applies; its gradient becomes FoldFusedBatchNormGrad."""
    bn_op._set_attr("_gradient_op_type", b"FoldFusedBatchNormGrad")
    mean = bn_op.outputs[1]
    scope, sep, _ = bn_op.name.rpartition("/")
    with graph.as_default(), graph.name_scope(scope + sep):
        n = math_ops.cast(array_ops.size(layer_tensor) / array_ops.size(mean),
                          dtypes.float32)
        variance = math_ops.multiply(bn_op.outputs[2], (n - 1) / n,
                                     name="Undo_Bessel_Correction")
    return mean, variance


def _find(graph: Graph) -> List[_Match]:
    """The batch norms to fold, in TF's order: each match is examined (creating the
    batch-statistics ops of a training-mode batch norm) before repeats of a layer are
    dropped, as TF does."""
    pats = _Patterns()
    matches: List[_Match] = []
    seen = set()
    for m in gm.match_graph(gm.OneofPattern([pats.output_reshape, pats.bn]), graph):
        layer_op, bn_op = m.get_op(pats.layer), m.get_op(pats.bn)
        output = bn_op.outputs[0]
        if layer_op.type == "MatMul":
            reshape = m.get_op(pats.output_reshape)
            if reshape is None:
                continue
            output = reshape.outputs[0]
        if not output.consumers():
            continue
        if bn_op.get_attr("is_training"):
            mean, variance = _batch_statistics(graph, bn_op, m.get_tensor(pats.layer))
            moving = _moving_statistics(graph, pats, bn_op)
        else:
            mean, variance = bn_op.inputs[3], bn_op.inputs[4]
            moving = [None] * 4
        if layer_op in seen:
            continue
        seen.add(layer_op)
        matches.append(_Match(layer_op, bn_op, output, m.get_tensor(pats.input),
                              m.get_tensor(pats.weight), m.get_op(pats.to_space), mean,
                              variance, moving))
    return matches


def reroute(new: Tensor, old: Tensor, can_modify: Optional[Iterable[Operation]] = None
             ) -> int:
    """TF's RerouteTensor: the readers of `old` (those in `can_modify`) read `new`."""
    consumers = [c for c in old.consumers() if can_modify is None or c in can_modify]
    count = 0
    for op in consumers:
        for i, t in enumerate(list(op.inputs)):
            if t is old:
                if new is not old:
                    op._update_input(i, new)
                count += 1
    return count


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


def batch_norm_corrections(match: Any, freeze_bn_delay: Optional[int],
                           scope: str = "batch_norm_correction") -> Tuple[Any, Any, Any]:
    """(scale, reciprocal, offset) that move the batch-statistics fold to the moving
    statistics' scale; with freeze_bn_delay the moving averages' decays become 0 (they
    freeze) and the fold switches to the moving statistics once the quantization step
    reaches it. `match` holds the batch norm's gamma, (batch) mean and variance,
    moving_mean, moving_variance, the decays of their updates and epsilon (a float or a
    tensor); the ops go to name scope `scope`."""
    graph = get_default_graph()
    with graph.name_scope(scope):
        recip_sigma_moving = math_ops.rsqrt(match.moving_variance + match.epsilon)
        recip_sigma = math_ops.rsqrt(match.variance + match.epsilon)
        scale = math_ops.divide(recip_sigma_moving, recip_sigma, name="scale_compute")
        scale = array_ops.identity(scale, name="correction_scale")
        recip = math_ops.reciprocal(scale, name="reciprocal_compute")
        offset = math_ops.multiply(
            match.gamma, match.mean * recip_sigma - match.moving_mean * recip_sigma_moving,
            name="offset_compute")
        use_moving = False if freeze_bn_delay is None else math_ops.greater_equal(
            quantization_step(), freeze_bn_delay, name="use_moving_average")
        for decay, name in ((match.decay_mean, "freeze_moving_mean"),
                            (match.decay_variance, "freeze_moving_var")):
            readers = list(decay.consumers())
            frozen = smart_cond(use_moving, lambda: 0.0, lambda decay=decay: decay, name=name)
            reroute(frozen, decay, can_modify=readers)
        recip = smart_cond(use_moving, lambda: ones(scale.shape), lambda: recip,
                           name="correction_recip")
        offset_value = offset
        offset = smart_cond(use_moving, lambda: offset_value,
                            lambda: zeros(offset_value.shape), name="correction_offset")
    return scale, recip, offset


def fold_batch_norms(graph: Graph, is_training: bool,
                     freeze_bn_delay: Optional[int] = None) -> None:
    """Folds each fused batch norm into its layer (in place); in a training graph with
    the corrections towards the moving statistics."""
    for match in _find(graph):
        scope = match.layer_op.name.rpartition("/")[0]
        prefix = scope + "/" if scope else ""
        with graph.as_default(), graph.name_scope(prefix):
            with graph.name_scope(prefix + "BatchNorm_Fold/"):
                factor = match.gamma * math_ops.rsqrt(match.variance + match.epsilon)
                bias = math_ops.subtract(match.beta, match.mean * factor, name="bias")
                scale = recip = offset = None
                if is_training:
                    scale, recip, offset = batch_norm_corrections(match, freeze_bn_delay)
                if match.layer_op.type == "DepthwiseConv2dNative":
                    shape = match.weight.shape.as_list()[2:4]
                    factor = array_ops.reshape(factor, shape, name="scale_reshape")
                    if scale is not None:
                        scale = array_ops.reshape(scale, shape, name="correction_reshape")
            weights = match.weight
            if scale is not None:
                weights = math_ops.multiply(scale, weights, name="correction_mult")
            scaled = math_ops.multiply(weights, factor, name="mul_fold")
            folded = _clone_layer(match, scaled)
            if recip is not None:
                folded = math_ops.multiply(recip, folded, name="post_conv_mul")
                folded = math_ops.add(folded, offset, "correction_add")
            folded = math_ops.add(folded, bias, name="add_fold")
            if reroute(folded, match.output) == 0:
                raise ValueError("Folding batch norms failed, %s had no outputs."
                                 % match.output.name)


@RegisterGradient("FoldFusedBatchNormGrad")
def _fold_fused_batch_norm_grad(op: Operation, unused_grad_y: Any, grad_mean: Tensor,
                                grad_var: Tensor, *unused: Any) -> tuple:
    """The gradient of a folded training-mode batch norm: through its batch mean and
    (Bessel-corrected) batch variance to its input; its output y is no longer read."""
    x = op.inputs[0]
    n = math_ops.cast(array_ops.size(x) / array_ops.size(grad_mean), dtypes.float32)
    dmean_dx = grad_mean / n
    dvar_dx = 2 * grad_var * (x - op.outputs[1]) / (n - 1)
    return (dmean_dx + dvar_dx), None, None, None, None
