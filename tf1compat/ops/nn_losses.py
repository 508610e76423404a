"""Losses: softmax_cross_entropy_with_logits (v1 and v2), sparse_softmax_cross_entropy,
sigmoid / weighted cross entropy, log_poisson_loss, ctc_loss.

The xent ops are TF's two-output ops (loss, backprop) with torch kernels; the wrappers
mirror TF's reshaping to 2-D and back, so graphs carry TF's names. The sparse op checks
label ranges at run time with TF's InvalidArgumentError message (on CUDA, like TF's GPU
kernel, it yields NaN for out-of-range labels instead of synchronising to check).
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops._kernels import any_true
from tf1compat.ops._shape_rules import broadcast_shapes, node_desc
from tf1compat.ops.creation_ops import ones_like, range as _range, zeros_like
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.nn_ops import relu
from tf1compat.ops.strided_slice import slice as _slice
from tf1compat.ops.transform_ops import transpose
from tf1compat.ops._grad_formulas import xent_formula
from tf1compat.ops._kernel_errors import softmax_xent_error

__all__ = ["softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
           "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits",
           "weighted_cross_entropy_with_logits", "log_poisson_loss"]



# -- ops -----------------------------------------------------------------------------------------

def _xent_shape(ctx: Any) -> List[TensorShape]:
    logits, labels = ctx.shape(0), ctx.shape(1)
    for s in (logits, labels):
        if s.rank is not None and s.rank != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {s.rank} {node_desc(ctx)}")
    both = broadcast_shapes(logits, labels, ctx) if logits.rank == 2 and labels.rank == 2 \
        else (logits if logits.rank == 2 else labels)
    dims = both.as_list() if both.rank == 2 else [None, None]
    return [TensorShape([dims[0]]), TensorShape(dims)]


def _xent_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def xent(logits: torch.Tensor, labels: torch.Tensor) -> tuple:
        log_probs = torch.log_softmax(logits, dim=-1)
        loss = -(labels * log_probs).sum(dim=-1)
        # softmax - labels as TF computes it (bitwise tf.nn.softmax's value).
        backprop = torch.softmax(logits, -1) - labels
        return loss, backprop
    return xent


declare("SoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: T"],
        outputs=["loss: T", "backprop: T"], attrs={"T": Type(D.FLOATING_TYPES)},
        shape=_xent_shape, kernel=_xent_kernel, kernel_error=softmax_xent_error,
        grad_names=names("mul", "mul_1"), grad_formula=xent_formula)


def _sparse_xent_shape(ctx: Any) -> List[TensorShape]:
    logits, labels = ctx.shape(0), ctx.shape(1)
    if logits.rank is not None and logits.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {logits.rank} {node_desc(ctx)}")
    if labels.rank is not None and labels.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {labels.rank} {node_desc(ctx)}")
    dims = logits.as_list() if logits.rank == 2 else [None, None]
    b = labels.as_list()[0] if labels.rank == 1 else None
    if dims[0] is not None and b is not None and dims[0] != b:
        raise ValueError(f"Dimensions must be equal, but are {dims[0]} and {b} "
                         f"{node_desc(ctx)}")
    batch = dims[0] if dims[0] is not None else b
    return [TensorShape([batch]), TensorShape([batch, dims[1]])]


def _sparse_xent_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    check = kctx.device.type == "cpu"

    def sparse_xent(logits: torch.Tensor, labels: torch.Tensor) -> tuple:
        n = logits.shape[1]
        if logits.shape[0] != labels.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"logits and labels must have the same first dimension, got "
                            f"logits shape {list(logits.shape)} and labels shape "
                            f"{list(labels.shape)}")
        bad = (labels < 0) | (labels >= n)
        if check and labels.numel() and any_true(bad):
            first = int(labels[bad][0])
            values = " ".join(str(int(v)) for v in labels.tolist())
            raise errors.InvalidArgumentError(
                None, None, f"Received a label value of {first} which is outside the valid "
                            f"range of [0, {n}).  Label values: {values}")
        # Checked labels are all in range; unchecked (GPU) ones give NaN rows below.
        safe = (labels if check else torch.where(bad, torch.zeros_like(labels), labels)).long()
        log_probs = torch.log_softmax(logits, dim=-1)
        loss = -log_probs.gather(1, safe[:, None])[:, 0]
        # softmax - onehot, with the softmax computed as TF's kernel does (exp(x - max) / sum);
        # adding -1 at each row's label is bit for bit the subtraction of the one-hot rows
        # (x - 0 is x), without building them.
        backprop = torch.softmax(logits, -1)
        index = safe[:, None]
        backprop.scatter_add_(1, index, torch.full(index.shape, -1, dtype=backprop.dtype,
                                                   device=backprop.device))
        if not check:
            nan = torch.full_like(loss, float("nan"))
            loss = torch.where(bad, nan, loss)
            backprop = torch.where(bad[:, None], nan[:, None], backprop)
        return loss, backprop
    return sparse_xent


declare("SparseSoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: Tlabels"],
        outputs=["loss: T", "backprop: T"],
        attrs={"T": Type(D.FLOATING_TYPES), "Tlabels": Type((D.int32, D.int64), default=D.int64)},
        shape=_sparse_xent_shape, kernel=_sparse_xent_kernel,
        grad_names=names("mul", None), grad_formula=xent_formula)


# -- softmax cross entropy wrappers ---------------------------------------------------------------

def _ensure_xent_args(name: str, labels: Any, logits: Any) -> None:
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided for {name}Received: "
                         f"labels={labels} and logits={logits}")


def _flatten_outer_dims(logits: Tensor) -> Tensor:
    rank = array_ops.rank(logits)
    last_dim_size = _slice(array_ops.shape(logits), [math_ops.subtract(rank, 1)], [1])
    output = array_ops.reshape(logits, array_ops.concat([[-1], last_dim_size], 0))
    shape = logits.shape
    if shape.rank is not None:
        dims = shape.as_list()
        product = 1
        valid = True
        for d in dims[:-1]:
            if d is None:
                valid = False
                break
            product *= d
        if valid:
            output.set_shape([product, dims[-1]])
    return output


def softmax_cross_entropy_with_logits_v2(labels: Any, logits: Any, axis: Any = -1,
                                         name: Optional[str] = None, dim: Any = None) -> Tensor:
    """`tf.nn.softmax_cross_entropy_with_logits_v2`: gradients also flow into labels."""
    if dim is not None:
        if axis not in (None, -1):
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        axis = -1
    with name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        to_f32 = logits.dtype in (D.float16, D.bfloat16)
        precise = math_ops.cast(logits, D.float32) if to_f32 else logits
        labels = math_ops.cast(labels, precise.dtype)
        input_rank = array_ops.rank(precise)
        shape = logits.shape
        if axis != -1:
            def move_to_end(t: Tensor, dim_index: int, rank: Any) -> Tensor:
                perm = array_ops.concat([_range(dim_index), _range(dim_index + 1, rank),
                                         [dim_index]], 0)
                return transpose(t, perm)
            precise = move_to_end(precise, axis, input_rank)
            labels = move_to_end(labels, axis, input_rank)
        input_shape = array_ops.shape(precise)
        precise = _flatten_outer_dims(precise)
        labels = _flatten_outer_dims(labels)
        cost = apply_op("SoftmaxCrossEntropyWithLogits", [precise, labels],
                        name=scope)._outputs[0]
        output_shape = _slice(input_shape, [0], [math_ops.subtract(input_rank, 1)])
        cost = array_ops.reshape(cost, output_shape)
        if shape.rank is not None:
            dims = shape.as_list()
            del dims[axis]
            cost.set_shape(dims)
        return math_ops.cast(cost, logits.dtype) if to_f32 else cost


def softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None, dim: Any = -1,
                                      name: Optional[str] = None, axis: Any = None) -> Tensor:
    """`tf.nn.softmax_cross_entropy_with_logits` (TF1): labels get no gradient."""
    if axis is not None:
        # `dim` defaults to -1, so TF rejects any explicit `axis` here as "both given".
        if dim is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        dim = axis
    _ensure_xent_args("softmax_cross_entropy_with_logits", labels, logits)
    with name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as scope:
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim,
                                                name=scope)


def sparse_softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None,
                                             name: Optional[str] = None) -> Tensor:
    """`tf.nn.sparse_softmax_cross_entropy_with_logits`: integer class labels."""
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", labels, logits)
    with name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        precise = math_ops.cast(logits, D.float32) if logits.dtype == D.float16 else logits
        lshape = labels.shape
        labels_shape = array_ops.shape(labels)
        lg = logits.shape
        fully = lshape.is_fully_defined() and lg.rank is not None and \
            TensorShape(lg.as_list()[:-1]).is_fully_defined()
        if lg.rank == 0:
            raise ValueError(f"`logits` cannot be a scalar. Received logits={logits}`")
        if lg.rank is not None and lshape.rank is not None and lshape.rank != lg.rank - 1:
            raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                             f"labels.shape={lshape} of rank {lshape.rank} and "
                             f"logits.shape={lg} of rank {lg.rank}")
        if fully and lshape.as_list() != lg.as_list()[:-1]:
            raise ValueError("`labels.shape` must equal `logits.shape` except for the last "
                             f"dimension. Received: labels.shape={lshape} and "
                             f"logits.shape={lg}")
        if lg.rank == 2:
            cost = apply_op("SparseSoftmaxCrossEntropyWithLogits", [precise, labels],
                            name=name)._outputs[0]
            return math_ops.cast(cost, D.float16) if logits.dtype == D.float16 else cost
        # TF adds an assert_equal of the shapes when they are not fully known; the kernel's
        # own first-dimension check catches a mismatch here.
        num_classes = array_ops.shape(logits)[array_ops.rank(logits) - 1]
        precise = array_ops.reshape(precise, [-1, num_classes])
        labels = array_ops.reshape(labels, [-1])
        cost = apply_op("SparseSoftmaxCrossEntropyWithLogits", [precise, labels],
                        name=name)._outputs[0]
        cost = array_ops.reshape(cost, labels_shape)
        cost.set_shape(lshape)
        return math_ops.cast(cost, D.float16) if logits.dtype == D.float16 else cost


# -- sigmoid / weighted / poisson ----------------------------------------------------------------

def _same_shape(labels: Tensor, logits: Tensor) -> None:
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError("`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")


def sigmoid_cross_entropy_with_logits(labels: Any = None, logits: Any = None,
                                      name: Optional[str] = None) -> Tensor:
    """`tf.nn.sigmoid_cross_entropy_with_logits`: max(x, 0) - x * z + log(1 + exp(-|x|))."""
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", labels, logits)
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        _same_shape(labels, logits)
        zeros = zeros_like(logits, dtype=logits.dtype)
        cond = logits >= zeros
        relu_logits = where(cond, logits, zeros)
        neg_abs_logits = where(cond, -logits, logits)
        return math_ops.add(relu_logits - logits * labels,
                            math_ops.log1p(math_ops.exp(neg_abs_logits)), name=scope)


def weighted_cross_entropy_with_logits(labels: Any = None, logits: Any = None,
                                       pos_weight: Any = None, name: Optional[str] = None,
                                       targets: Any = None) -> Tensor:
    """`tf.nn.weighted_cross_entropy_with_logits`: positives weighted by `pos_weight`."""
    if targets is not None:
        if labels is not None:
            raise ValueError("Cannot specify both 'labels' and 'targets'")
        labels = targets
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        _same_shape(labels, logits)
        log_weight = 1 + (pos_weight - 1) * labels
        return math_ops.add((1 - labels) * logits,
                            log_weight * (math_ops.log1p(math_ops.exp(-math_ops.abs(logits))) +
                                          relu(-logits)), name=scope)


def log_poisson_loss(targets: Any, log_input: Any, compute_full_loss: bool = False,
                     name: Optional[str] = None) -> Tensor:
    """`tf.nn.log_poisson_loss`: exp(c) - z * c (+ Stirling's term when requested)."""
    with name_scope(name, "log_poisson_loss", [log_input, targets]):
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError("`log_input` and `targets` must have the same shape, received "
                             f"({log_input.shape} vs {targets.shape}).")
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = constant(0.5, dtype=targets.dtype)
            two_pi = constant(2 * math.pi, dtype=targets.dtype)
            stirling = targets * math_ops.log(targets) - targets + \
                point_five * math_ops.log(two_pi * targets)
            zeros = zeros_like(targets, dtype=targets.dtype)
            ones = ones_like(targets, dtype=targets.dtype)
            cond = math_ops.logical_and(targets >= zeros, targets <= ones)
            result += where(cond, zeros, stirling)
        return result


# -- CTC ------------------------------------------------------------------------------------------

def _ctc_shape(ctx: Any) -> List[TensorShape]:
    x, seq = ctx.shape(0), ctx.shape(3)
    if x.rank is not None and x.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {x.rank} {node_desc(ctx)}")
    if seq.rank is not None and seq.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {seq.rank} {node_desc(ctx)}")
    batch = seq.as_list()[0] if seq.rank == 1 else None
    if batch is None and x.rank == 3:
        batch = x.as_list()[1]
    return [TensorShape([batch]), x if x.rank is not None else TensorShape(None)]


def _ctc_labels(indices: torch.Tensor, values: torch.Tensor, batch: int, classes: int,
                collapse: bool) -> List[List[int]]:
    labels: List[List[int]] = [[] for _ in range(batch)]
    idx = indices.detach().cpu().tolist()
    for (b, _), v in zip(idx, values.detach().cpu().tolist()):
        if not 0 <= b < batch:
            raise errors.InvalidArgumentError(None, None, f"labels batch index must be in "
                                                          f"[0, {batch}), got {b}")
        if not 0 <= v < classes - 1:
            # TF's CPU kernel does not check this and computes with the value anyway.
            raise errors.InvalidArgumentError(
                None, None, f"ctc_loss label values must be in [0, {classes - 1}) (the blank "
                            f"is num_classes - 1 = {classes - 1}); got {v} in batch {b}")
        labels[b].append(int(v))
    if collapse:
        labels = [[v for i, v in enumerate(seq) if i == 0 or v != seq[i - 1]]
                  for seq in labels]
    return labels


def _ctc_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    if not attrs["ctc_merge_repeated"]:
        raise NotImplementedError("ctc_loss with ctc_merge_repeated=False is not supported by "
                                  "tf1compat: torch's CTC always merges repeated labels")
    collapse = bool(attrs["preprocess_collapse_repeated"])
    ignore_longer = bool(attrs["ignore_longer_outputs_than_inputs"])

    def loss_of(x: torch.Tensor, keep: List[int], targets: torch.Tensor, seq: List[int],
                lens: List[int]) -> torch.Tensor:
        log_probs = torch.log_softmax(x[:, keep, :], dim=-1)
        return torch.nn.functional.ctc_loss(log_probs, targets, seq, lens,
                                            blank=x.shape[2] - 1, reduction="none")

    def ctc(inputs: torch.Tensor, indices: torch.Tensor, values: torch.Tensor,
            seq_len: torch.Tensor) -> tuple:
        max_time, batch, classes = inputs.shape
        seq = [int(s) for s in seq_len.detach().cpu().tolist()]
        if len(seq) != batch:
            raise errors.InvalidArgumentError(
                None, None, f"len(sequence_length) != batch_size.  len(sequence_length):  "
                            f"{len(seq)} batch_size: {batch}")
        for b, s in enumerate(seq):
            if s > max_time:
                raise errors.InvalidArgumentError(None, None,
                                                  f"sequence_length({b}) <= {max_time}")
        labels = _ctc_labels(indices, values, batch, classes, collapse)
        keep = []
        for b, seq_labels in enumerate(labels):
            if not seq_labels:
                raise errors.InvalidArgumentError(None, None,
                                                  f"Labels length is zero in batch {b}")
            if len(seq_labels) > seq[b]:
                if ignore_longer:
                    continue
                raise errors.InvalidArgumentError(
                    None, None, f"Not enough time for target transition sequence (required: "
                                f"{len(seq_labels)}, available: {seq[b]}){b}You can turn "
                                "this error into a warning by using the flag "
                                "ignore_longer_outputs_than_inputs")
            keep.append(b)
        loss_val = torch.zeros(batch, dtype=inputs.dtype, device=inputs.device)
        grad = torch.zeros_like(inputs)
        if keep:
            targets = torch.tensor([v for b in keep for v in labels[b]], dtype=torch.long,
                                   device=inputs.device)
            kept_seq = [seq[b] for b in keep]
            lens = [len(labels[b]) for b in keep]
            kept = torch.tensor(keep, device=inputs.device)
            with torch.enable_grad():
                x = inputs.detach().requires_grad_(True)
                kept_loss = loss_of(x, keep, targets, kept_seq, lens)
                g, = torch.autograd.grad(kept_loss.sum(), x)
            loss_val = loss_val.index_put((kept,), kept_loss.detach())
            # An impossible alignment (inf loss) has TF's gradient softmax(x) up to the
            # sequence length, where torch's is NaN.
            times = torch.arange(max_time, device=inputs.device)[:, None]
            valid = (times < seq_len.to(inputs.device)[None, :].long())[:, :, None]
            softmax = torch.softmax(inputs.detach(), dim=-1) * valid
            bad = torch.isinf(loss_val)[None, :, None]
            kept_mask = torch.zeros(batch, dtype=torch.bool, device=inputs.device)
            kept_mask[kept] = True
            grad = torch.where(bad, softmax, torch.where(kept_mask[None, :, None], g, grad))
        # The loss differentiates like TF's registered gradient: d loss[b] / d inputs is
        # the op's `gradient` output (value unchanged: the added term is exactly zero).
        loss = loss_val + ((inputs - inputs.detach()) * grad).sum(dim=(0, 2))
        return loss, grad
    return ctc


declare("CTCLoss", inputs=["inputs: T", "labels_indices: int64", "labels_values: int32",
                           "sequence_length: int32"], outputs=["loss: T", "gradient: T"],
        attrs={"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
               "ignore_longer_outputs_than_inputs": False,
               "T": Type((D.float32, D.float64), default=D.float32)},
        shape=_ctc_shape, kernel=_ctc_kernel)


def ctc_loss(labels: Any, inputs: Any = None, sequence_length: Any = None,
             preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
             ignore_longer_outputs_than_inputs: bool = False, time_major: bool = True,
             logits: Any = None) -> Tensor:
    """`tf.nn.ctc_loss` (TF1): CTC loss of logits [max_time, batch, num_classes] (time
    major) against SparseTensor int32 labels; the blank is class num_classes - 1."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected argument `labels` to be a SparseTensor. Received "
                        f"labels={labels} of type: {type(labels).__name__}")
    if not ctc_merge_repeated:
        raise NotImplementedError("tf.nn.ctc_loss with ctc_merge_repeated=False is not "
                                  "supported by tf1compat: torch's CTC always merges repeated "
                                  "labels")
    if logits is not None:
        if inputs is not None:
            raise ValueError("Cannot specify both 'logits' and 'inputs'")
        inputs = logits
    inputs = convert_to_tensor(inputs, name="logits")
    if not time_major:
        inputs = transpose(inputs, [1, 0, 2])
    orig = inputs.dtype
    if orig in (D.float16, D.bfloat16):
        inputs = math_ops.cast(inputs, D.float32)
    loss = apply_op("CTCLoss", [inputs, labels.indices, labels.values, sequence_length],
                    {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                     "ctc_merge_repeated": bool(ctc_merge_repeated),
                     "ignore_longer_outputs_than_inputs":
                     bool(ignore_longer_outputs_than_inputs)})._outputs[0]
    if orig in (D.float16, D.bfloat16):
        loss = math_ops.cast(loss, orig)
    return loss
