"""TF's gradient formulas for ops whose torch gradient differs (ties, zeros, nans).

An op names one of these in its declaration (`declare(..., grad_formula=...)`). In a plan
that computes gradients, and under a recording GradientTape, the formula wraps the op's
kernel (autodiff/grad_mode.py): the forward value is the kernel's, the backward is TF's
gradient function written with differentiable torch ops (so gradients of gradients work).
Plans without gradients keep the plain kernels.

* Maximum / Minimum: at ties TF sends the whole gradient to x (`x >= y` / `x <= y`);
  torch splits it in half.
* Pow: TF's dL/dy uses log(x) only where x > 0 (0 elsewhere), and dL/dx is
  `g * y * x**(y-1)` even at x = 0, y = 0 (nan); torch special-cases both.
* MulNoNan, Xdivy, Xlogy: TF's partial derivatives are themselves "no-nan" ops; torch's
  backward through `where` produces nan where the masked branch divides by zero.
* Relu / Relu6: TF's ReluGrad and Relu6Grad multiply the gradient by the mask of active
  units, so a NaN or inf arriving at an inactive unit stays NaN (a WGAN-GP penalty whose
  slope is 0 for a sample); torch's backward selects 0 there.
* Cumprod: TF divides by x (with div_no_nan), so zeros in x give 0, not the true value.
* (Sparse)SoftmaxCrossEntropyWithLogits: TF multiplies by the op's own `backprop` output
  (traced by Dynamo as plain ops, `_xent_traced`, so AOTAutograd can cache the graph).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import torch

from tf1compat.ops._eigen_reduce import expand_with_tf_grad, tf_reduce_to
from tf1compat.ops._eigen_pow import tf_pow
from tf1compat.ops._kernels import dynamo_tracing
from tf1compat.ops.grappler_rewrites import divides_by_constant

__all__ = ["sum_to", "broadcast_formula", "tf_broadcast_binary",
           "maximum_formula", "minimum_formula", "pow_formula", "real_div_formula",
           "mul_no_nan_formula", "xdivy_formula", "xlogy_formula", "atan2_formula",
           "xlog1py_formula", "zeta_formula", "polygamma_formula", "cumprod_formula",
           "xent_formula", "relu_formula", "relu6_formula"]

Formula = Callable[[Any, Callable[..., Any], Any], Optional[Callable[..., Any]]]


def sum_to(g: torch.Tensor, shape: torch.Size) -> torch.Tensor:
    """Reduces a broadcast gradient back to `shape` (TF's BroadcastGradientArgs + Sum, in
    TF's order where ops/_eigen_reduce.py emulates it)."""
    return tf_reduce_to(g, shape)


def _where0(cond: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
    return torch.where(cond, torch.zeros_like(value), value)


def _max_min_grad(select_x: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable:
    def grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
        mask = select_x(x, y)
        gx = torch.where(mask, g, torch.zeros_like(g))
        gy = torch.where(mask, torch.zeros_like(g), g)
        return sum_to(gx, x.shape), sum_to(gy, y.shape)
    return grad


def _pow_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
    gx = g * y * tf_pow(x, y - 1)      # TF's gradient calls its Pow kernel
    if x.is_complex():
        mask = x != 0
    else:
        mask = x > 0
    safe_x = torch.where(mask, x, torch.ones_like(x))
    log_x = torch.where(mask, torch.log(safe_x), torch.zeros_like(x))
    gy = g * z * log_x
    return sum_to(gx, x.shape), sum_to(gy, y.shape)


def _real_div_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor
                   ) -> tuple:
    # TF: grad / y and grad * ((-x / y) / y) (conjugated for complex); torch rounds
    # -grad * x / (y * y).
    if x.is_complex():
        y_conj = torch.conj(y)
        return sum_to(g / y_conj, x.shape), sum_to(g * torch.conj((-x / y) / y), y.shape)
    return sum_to(g / y, x.shape), sum_to(g * ((-x / y) / y), y.shape)


def _reciprocal_mul_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor
                         ) -> tuple:
    # The same gradient ops, each division by the constant y a product with 1 / y as
    # Grappler rewrites them (ops/grappler_rewrites.py).
    r = torch.reciprocal(y)
    return sum_to(g * r, x.shape), sum_to(g * ((-x * r) * r), y.shape)


def _mul_no_nan(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _where0(b == 0, a * b)


def _xdivy(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    safe_b = torch.where(a == 0, torch.ones_like(b), b)
    return _where0(a == 0, a / safe_b)


def _xlogy(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    safe_b = torch.where(a == 0, torch.ones_like(b), b)
    return _where0(a == 0, a * torch.log(safe_b))


def _mul_no_nan_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor
                     ) -> tuple:
    return sum_to(_mul_no_nan(g, y), x.shape), sum_to(_mul_no_nan(x, g), y.shape)


def _xdivy_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
    not_zero_x = (x != 0).to(x.dtype)
    partial_x = _xdivy(not_zero_x, y)
    partial_y = _xdivy(-x, y * y)
    return sum_to(partial_x * g, x.shape), sum_to(partial_y * g, y.shape)


def _xlogy_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
    not_zero_x = (x != 0).to(x.dtype)
    partial_x = _xlogy(not_zero_x, y)
    partial_y = _xdivy(x, y)
    return sum_to(partial_x * g, x.shape), sum_to(partial_y * g, y.shape)


def _xlog1py(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    safe_b = torch.where(a == 0, torch.zeros_like(b), b)
    return _where0(a == 0, a * torch.log1p(safe_b))


def _xlog1py_grad(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, g: torch.Tensor
                  ) -> tuple:
    # TF: xlog1py(x != 0, y) and xdivy(x, y + 1): both 0 where x == 0 (also at y = -1).
    not_zero_x = (x != 0).to(x.dtype)
    partial_x = _xlog1py(not_zero_x, y)
    partial_y = _xdivy(x, y + 1)
    return sum_to(partial_x * g, x.shape), sum_to(partial_y * g, y.shape)


def _zeta_grad(x: torch.Tensor, q: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
    # TF differentiates zeta(x, q) with respect to q only (x gets None).
    partial_q = -x * torch.special.zeta(x + 1, q)
    return None, sum_to(partial_q * g, q.shape)


def _polygamma_grad(a: torch.Tensor, x: torch.Tensor, z: torch.Tensor, g: torch.Tensor
                    ) -> tuple:
    # TF differentiates polygamma(a, x) with respect to x only (a gets None).
    from tf1compat.ops._special_kernels import polygamma
    partial_x = polygamma(a + 1, x)
    return None, sum_to(partial_x * g, x.shape)


def _atan2_grad(y: torch.Tensor, x: torch.Tensor, z: torch.Tensor, g: torch.Tensor) -> tuple:
    # TF: g / (y^2 + x^2), times x for y and -y for x: nan at (0, 0) where torch gives 0.
    grad_inv = g / (torch.square(y) + torch.square(x))
    return sum_to(x * grad_inv, y.shape), sum_to(-y * grad_inv, x.shape)


class _BinaryWithTFGrad(torch.autograd.Function):
    """forward: the op's kernel; backward: TF's formula (differentiable torch ops)."""

    @staticmethod
    def forward(ctx: Any, kernel: Callable, grad_fn: Callable, x: Any, y: Any) -> Any:
        z = kernel(x, y)
        ctx.grad_fn = grad_fn
        ctx.save_for_backward(x, y, z)
        return z

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        x, y, z = ctx.saved_tensors
        gx, gy = ctx.grad_fn(x, y, z, g)
        return None, None, gx, gy


def _cumsum(t: torch.Tensor, axis: int, exclusive: bool, reverse: bool) -> torch.Tensor:
    if reverse:
        t = torch.flip(t, (axis,))
    out = torch.cumsum(t, axis)
    if exclusive:
        out = out - t
    if reverse:
        out = torch.flip(out, (axis,))
    return out


def _binary_formula(grad_fn: Callable[..., tuple]) -> Formula:
    """A two-input op's formula: `grad_fn(x, y, output, grad) -> (dx, dy)`."""
    def formula(node: Any, kernel: Callable[..., Any], kctx: Any
                ) -> Optional[Callable[..., Any]]:
        dtype = node.outputs[0].dtype
        if not dtype.is_floating and not dtype.is_complex:
            return None

        def run(x: Any, y: Any) -> Any:
            if (isinstance(x, torch.Tensor) and x.requires_grad) or \
                    (isinstance(y, torch.Tensor) and y.requires_grad):
                return _BinaryWithTFGrad.apply(kernel, grad_fn, x, y)
            return kernel(x, y)
        return run
    return formula


maximum_formula = _binary_formula(_max_min_grad(torch.ge))
minimum_formula = _binary_formula(_max_min_grad(torch.le))
pow_formula = _binary_formula(_pow_grad)
_real_div_formula = _binary_formula(_real_div_grad)
_reciprocal_mul_formula = _binary_formula(_reciprocal_mul_grad)


def real_div_formula(node: Any, kernel: Callable[..., Any], kctx: Any
                     ) -> Optional[Callable[..., Any]]:
    """RealDiv and Div: TF's gradient, by the reciprocal where Grappler rewrites the op."""
    formula = _reciprocal_mul_formula if divides_by_constant(node, kctx) \
        else _real_div_formula
    return formula(node, kernel, kctx)


mul_no_nan_formula = _binary_formula(_mul_no_nan_grad)
xdivy_formula = _binary_formula(_xdivy_grad)
xlogy_formula = _binary_formula(_xlogy_grad)
atan2_formula = _binary_formula(_atan2_grad)
xlog1py_formula = _binary_formula(_xlog1py_grad)
zeta_formula = _binary_formula(_zeta_grad)
polygamma_formula = _binary_formula(_polygamma_grad)


def xent_formula(node: Any, kernel: Callable[..., Any], kctx: Any) -> Callable[..., Any]:
    """(Sparse)SoftmaxCrossEntropyWithLogits: see `_XentApply`."""
    sparse = node.type == "SparseSoftmaxCrossEntropyWithLogits"

    def run(logits: Any, labels: Any) -> Any:
        if logits.requires_grad or (not sparse and labels.requires_grad):
            if dynamo_tracing():
                return _xent_traced(kernel, sparse, logits, labels)
            return _XentApply.apply(kernel, sparse, logits, labels)
        return kernel(logits, labels)
    return run


def _zero_with_unit_grad(x: torch.Tensor) -> torch.Tensor:
    """+0 everywhere (also where x is inf), with gradient 1 where x is finite."""
    return torch.where(torch.isfinite(x), x - x.detach(), torch.zeros_like(x))


def _xent_traced(kernel: Callable, sparse: bool, logits: torch.Tensor,
                 labels: torch.Tensor) -> tuple:
    """`_XentApply`'s values and first-order gradients from plain torch ops, for a
    compiled plan: an autograd.Function in Dynamo's graph makes AOTAutograd bypass its
    cache (so every process traced the joint graph again), and a compiled graph has no
    double backward anyway. The kernel's outputs are returned minus terms that are +0 in
    value (`t - t.detach()`; `v - +0` is v bit for bit, -0 included) and whose autograd
    gradients are `_XentApply.backward`'s products, the same roundings: d logits =
    (-g) * (-backprop) = g * backprop, plus (-gb + sum(gb * softmax)) * (-softmax) =
    (gb - sum(gb * softmax)) * softmax for a gradient gb into `backprop`; d labels =
    (-g) * log_softmax. Infinite logits get gradient 0 where TF's is softmax's nan or 0.
    """
    loss, backprop = kernel(logits.detach(), labels.detach())
    d = _zero_with_unit_grad(logits)
    t = (d * -backprop).sum(-1)
    loss = loss - (t - t.detach())
    if not sparse and labels.requires_grad:
        log_softmax = torch.log_softmax(logits.detach(), -1)
        t = (_zero_with_unit_grad(labels) * log_softmax).sum(-1)
        loss = loss - (t - t.detach())
    softmax = torch.softmax(logits.detach(), -1)
    u = d * -softmax
    y = u - softmax * u.sum(-1, keepdim=True)
    return loss, backprop - (y - y.detach())


def cumprod_formula(node: Any, kernel: Callable[..., Any], kctx: Any
                    ) -> Optional[Callable[..., Any]]:
    """Cumprod over a constant axis: see `_CumprodApply`."""
    if not node.outputs[0].dtype.is_floating:
        return None
    exclusive = bool(node.attrs.get("exclusive", False))
    reverse = bool(node.attrs.get("reverse", False))
    from tf1compat.framework.constant_value import constant_value
    axis_value = constant_value(node.inputs[1])
    if axis_value is None:
        return None
    rank = node.inputs[0].shape.rank
    axis = int(axis_value)
    if axis < 0 and rank is not None:
        axis += rank

    def run(x: Any, a: Any) -> Any:
        if isinstance(x, torch.Tensor) and x.requires_grad:
            return _CumprodApply.apply(kernel, x, a, axis % x.dim(), exclusive, reverse)
        return kernel(x, a)
    return run


class _MaskedGradApply(torch.autograd.Function):
    """`kernel(x)` whose gradient is TF's `g * mask` (a product: NaN and inf times an
    inactive unit's 0 give NaN); the backward is differentiable in `g`, as TF's gradient
    of ReluGrad (ReluGrad of the incoming gradient, nothing for the features). The mask
    is made in the backward from the saved input or output (`mask_of(x, out)`)."""

    @staticmethod
    def forward(ctx: Any, kernel: Callable, x: torch.Tensor,
                mask_of: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> torch.Tensor:
        out = kernel(x)
        ctx.mask_of = mask_of
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        x, out = ctx.saved_tensors
        return None, g * ctx.mask_of(x, out), None


def _masked_formula(mask_of: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
                    ) -> Formula:
    def formula(node: Any, kernel: Callable[..., Any], kctx: Any
                ) -> Optional[Callable[..., Any]]:
        if not node.outputs[0].dtype.is_floating:
            return None

        def run(x: Any) -> Any:
            if isinstance(x, torch.Tensor) and x.requires_grad:
                return _MaskedGradApply.apply(kernel, x, mask_of)
            return kernel(x)
        return run
    return formula


# TF's _ReluGrad masks with the output, _Relu6Grad with the input (a bool mask: the
# product with it is one kernel).
relu_formula = _masked_formula(lambda x, out: out > 0)
relu6_formula = _masked_formula(lambda x, out: (x > 0) & (x < 6))


class _CumprodApply(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, kernel: Callable, x: torch.Tensor, a: Any, axis: int,
                exclusive: bool, reverse: bool) -> torch.Tensor:
        out = kernel(x, a)
        ctx.dim, ctx.flags = axis, (exclusive, reverse)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        x, out = ctx.saved_tensors
        exclusive, reverse = ctx.flags
        summed = _cumsum(out * g, ctx.dim, exclusive, not reverse)
        safe_x = torch.where(x == 0, torch.ones_like(x), x)
        return None, _where0(x == 0, summed / safe_x), None, None, None, None


class _XentApply(torch.autograd.Function):
    """TF's gradient of (Sparse)SoftmaxCrossEntropyWithLogits: d logits = grad_loss *
    backprop, the op's own `backprop` output (softmax(logits) - labels), plus TF's term
    for a gradient flowing into `backprop`; d labels = grad_loss * -log_softmax(logits).

    Autograd through log_softmax gives exp(log_softmax) * sum(labels) - labels instead,
    which differs in rounding: with labels = tf.nn.softmax(logits) TF's gradient is the
    kernel's softmax - labels, zero up to the kernels' rounding, while autograd's is not
    (the 'Effective TensorFlow' maximum-entropy example then drifts under Adam). The
    backward multiplies the saved `backprop` output (whose own gradient is this
    function's, so second derivatives are right) and recomputes the softmax only for a
    gradient flowing into `backprop`.
    """

    @staticmethod
    def forward(ctx: Any, kernel: Callable, sparse: bool, logits: torch.Tensor,
                labels: torch.Tensor) -> Any:
        ctx.set_materialize_grads(False)
        ctx.sparse = sparse
        loss, backprop = kernel(logits, labels)
        ctx.save_for_backward(logits, labels, backprop)
        return loss, backprop

    @staticmethod
    def backward(ctx: Any, g_loss: Any, g_backprop: Any) -> tuple:
        logits, labels, backprop = ctx.saved_tensors
        grad = grad_labels = None
        if g_loss is not None:
            grad = g_loss[:, None] * backprop
            if not ctx.sparse and ctx.needs_input_grad[3]:
                grad_labels = g_loss[:, None] * -torch.log_softmax(logits, -1)
        if g_backprop is not None:
            softmax = torch.softmax(logits, -1)
            extra = (g_backprop - (g_backprop * softmax).sum(-1, keepdim=True)) * softmax
            grad = extra if grad is None else grad + extra
        return None, None, grad, grad_labels


def _float_cpu_dtype(node: Any) -> bool:
    return node.outputs[0].dtype.name in ("float32", "float64")


def broadcast_formula(node: Any, kernel: Callable[..., Any], kctx: Any
                      ) -> Optional[Callable[..., Any]]:
    """Add, AddV2, Sub, Mul, SquaredDifference of float inputs of other
    shapes: TF sums the gradient of a broadcast input with `Sum` over the broadcast axes,
    whose order (ops/_eigen_reduce.py) differs from torch's; the input enters the kernel
    already broadcast, through a node whose backward sums as TF does. (The elementwise
    factors of these gradients round as TF's.) Static shapes equal in a plan (`kctx`
    given; the eager tape keeps one wrapper for every shape): the plain kernel."""
    if not _float_cpu_dtype(node):
        return None
    x_shape, y_shape = (t.shape for t in node.inputs)
    if kctx is not None and x_shape.is_fully_defined() and y_shape.is_fully_defined() \
            and x_shape.as_list() == y_shape.as_list():
        return None

    def run(x: Any, y: Any) -> Any:
        return tf_broadcast_binary(kernel, x, y)
    return run


def tf_broadcast_binary(fn: Callable[..., Any], x: Any, y: Any) -> Any:
    """`fn(x, y)` for a broadcasting elementwise op, each input that needs a gradient and
    a broadcast entering broadcast already, through a node whose backward sums the
    gradient as TF's does (ops/_eigen_reduce.py)."""
    if x.shape != y.shape and torch.is_grad_enabled() and not x.is_cuda:
        shape = torch.broadcast_shapes(x.shape, y.shape)
        if x.requires_grad and x.shape != shape:
            x = expand_with_tf_grad(x, shape)
        if y.requires_grad and y.shape != shape:
            y = expand_with_tf_grad(y, shape)
    return fn(x, y)
