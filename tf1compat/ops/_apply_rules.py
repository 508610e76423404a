"""The update rules of TF's training ops (ApplyAdam, ApplyMomentum, ...), in place on torch.

Each rule is TF's CPU functor (tensorflow/core/kernels/training_ops.cc) written with torch
operations in the same order, so float32 results agree with TF's to rounding: scalars
are 0-d tensors of the variable's dtype (TF computes `1 - beta1`, `lr * l1`, ... in T),
and element-wise expressions keep TF's association. A rule receives the state tensors
(variable first, then its slots, in the op's input order), the gradient, and the scalar
inputs in the op's order (without grad and indices); it updates the state in place. The
caller runs it under `torch.no_grad()` on tensors the session store owns exclusively
(training_ops.py).

Sparse ops apply the same rule to the gathered rows (training_ops.py), which is what
TF's sparse functors compute row by row.

`FOREACH` holds the multi-tensor forms that update every variable of an optimizer step
in one call (ops/training_ops.py batches the step's Apply* ops): torch's fused kernel for
Adam (`torch._fused_adam_`: one pass over memory instead of one per operation; TF's
epsilon-hat Adam is torch's Adam with its bias corrections switched off and TF's `alpha`
as the learning rate, differing from the unfused rule in float rounding only),
hand-written `torch._foreach_*` sequences of the per-variable rule's own operations for
GradientDescent, momentum, RMSProp, Adagrad and Keras's momentum, FTRL's rule run once on
its small variables packed end to end (exact operations only, so the same bits), and for
every other family (and case the hand-written ones decline) the per-variable rule itself
run on lists of tensors (_apply_many.py): the same bits.
`FAST` is the hand-written kernels on one variable, for an Apply* op that runs alone.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.ops._apply_many import many_form

__all__ = ["RULES", "GRAPH_RULES", "FAST", "FOREACH", "FLOAT_DTYPES"]

Tensor = torch.Tensor
Rule = Callable[[List[Tensor], Tensor, Sequence[Tensor], Dict[str, Any]], None]

FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_FUSED_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _gradient_descent(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                      attrs: Dict[str, Any]) -> None:
    var, = state
    alpha, = s
    var.sub_(grad * alpha)


def _proximal_step(var: Tensor, prox: Tensor, rate: Tensor, l1: Tensor, l2: Tensor,
                   ) -> None:
    """var = sign(prox) * max(|prox| - rate * l1, 0) / (1 + l2 * rate).

    TF takes this branch when l1 > 0 and `prox / (1 + l2 * rate)` otherwise; with l1
    clamped at 0 the first form equals the second exactly (sign(p) * |p| == p), so no
    branch (and no device synchronisation) is needed.
    """
    l1 = torch.clamp(l1, min=0)
    shrunk = torch.clamp(prox.abs() - rate * l1, min=0)
    var.copy_(prox.sign() * shrunk / (1 + l2 * rate))


def _proximal_gradient_descent(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                               attrs: Dict[str, Any]) -> None:
    var, = state
    alpha, l1, l2 = s
    _proximal_step(var, var - grad * alpha, alpha, l1, l2)


def _momentum(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
              attrs: Dict[str, Any]) -> None:
    var, accum = state
    lr, momentum = s
    accum.mul_(momentum).add_(grad)
    if attrs.get("use_nesterov"):
        var.sub_(grad * lr + accum * momentum * lr)
    else:
        var.sub_(accum * lr)


# The last Adam step size computed, with what it was computed from: every ApplyAdam of
# one training step shares beta1_power, beta2_power and lr (the same tensors), so the
# scalar arithmetic runs once per step instead of once per variable. Entries are
# compared by identity and version counter, and hold their tensors (ids stay unique).
_LAST_ALPHA: tuple = (None, -1, None, -1, None, -1, None)


def adam_alpha(beta1_power: Tensor, beta2_power: Tensor, lr: Tensor) -> Tensor:
    """TF's alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power), in the input dtype."""
    global _LAST_ALPHA
    last = _LAST_ALPHA
    if last[0] is beta1_power and last[2] is beta2_power and last[4] is lr and \
            last[1] == beta1_power._version and last[3] == beta2_power._version and \
            last[5] == lr._version:
        return last[6]
    alpha = lr * torch.sqrt(1 - beta2_power) / (1 - beta1_power)
    _LAST_ALPHA = (beta1_power, beta1_power._version, beta2_power, beta2_power._version, lr,
                   lr._version, alpha)
    return alpha


# numpy's scalar types of the dtypes whose alpha `_fused_adam_rate` computes on the host.
_HOST_SCALARS = {torch.float32: np.float32, torch.float64: np.float64}


def _fused_adam_rate(beta1_power: Tensor, beta2_power: Tensor, lr: Tensor) -> Any:
    """`adam_alpha` as torch's fused Adam takes it. On the CPU, for float32 and float64,
    a Python float computed with numpy scalars of the dtype: the same correctly rounded
    operations in the same order, so the same bits as the 0-d tensor ops, for ~2 us
    instead of four tensor ops (~12-70 us a step, measured); the fused kernel reads a
    tensor rate as a double anyway. Elsewhere (reduced precision, devices that would
    sync on reading the scalars) the tensor."""
    host = _HOST_SCALARS.get(lr.dtype)
    if host is None or lr.device.type != "cpu" or beta1_power.dtype != lr.dtype or \
            beta2_power.dtype != lr.dtype or beta1_power.device.type != "cpu" or \
            beta2_power.device.type != "cpu":
        return adam_alpha(beta1_power, beta2_power, lr)
    one = host(1)
    return float(host(lr.item()) * np.sqrt(one - host(beta2_power.item())) /
                 (one - host(beta1_power.item())))


def _adam(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
          attrs: Dict[str, Any]) -> None:
    _adam_step(state, grad, s, attrs, adam_alpha(s[0], s[1], s[2]))


def _adam_in_graph(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                   attrs: Dict[str, Any]) -> None:
    """`_adam` without `adam_alpha`'s cache (module state torch.compile would guard on)."""
    _adam_step(state, grad, s, attrs, s[2] * torch.sqrt(1 - s[1]) / (1 - s[0]))


def _adam_step(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
               attrs: Dict[str, Any], alpha: Tensor) -> None:
    var, m, v = state
    beta1_power, beta2_power, lr, beta1, beta2, epsilon = s
    m.add_((grad - m) * (1 - beta1))
    v.add_((grad.square() - v) * (1 - beta2))
    if attrs.get("use_nesterov"):
        step = (grad * (1 - beta1) + beta1 * m) * alpha
    else:
        step = m * alpha
    var.sub_(step / (v.sqrt() + epsilon))


def _keras_momentum(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                    attrs: Dict[str, Any]) -> None:
    var, accum = state
    lr, momentum = s
    accum.copy_(accum * momentum - grad * lr)
    if attrs.get("use_nesterov"):
        var.add_(accum * momentum - grad * lr)
    else:
        var.add_(accum)


def _adam_with_amsgrad(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                       attrs: Dict[str, Any]) -> None:
    var, m, v, vhat = state
    beta1_power, beta2_power, lr, beta1, beta2, epsilon = s
    alpha = adam_alpha(beta1_power, beta2_power, lr)
    m.add_((grad - m) * (1 - beta1))
    v.add_((grad.square() - v) * (1 - beta2))
    torch.maximum(vhat, v, out=vhat)
    var.sub_((m * alpha) / (vhat.sqrt() + epsilon))


def _ada_max(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
             attrs: Dict[str, Any]) -> None:
    var, m, v = state
    beta1_power, lr, beta1, beta2, epsilon = s
    m.add_((grad - m) * (1 - beta1))
    torch.maximum(beta2 * v, grad.abs(), out=v)
    var.sub_(lr / (1 - beta1_power) * (m / (v + epsilon)))


def _add_sign(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
              attrs: Dict[str, Any]) -> None:
    var, m = state
    lr, alpha, sign_decay, beta = s
    m.mul_(beta).add_(grad * (1 - beta))
    var.sub_(lr * (alpha + sign_decay * (grad.sign() * m.sign())) * grad)


def _power_sign(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                attrs: Dict[str, Any]) -> None:
    var, m = state
    lr, logbase, sign_decay, beta = s
    m.mul_(beta).add_(grad * (1 - beta))
    var.sub_(lr * torch.exp(logbase * sign_decay * (grad.sign() * m.sign())) * grad)


def _adagrad_v2(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                attrs: Dict[str, Any]) -> None:
    var, accum = state
    lr, epsilon = s
    if attrs.get("update_slots", True):
        accum.add_(grad.square())
    var.sub_(grad * lr / (accum.sqrt() + epsilon))


def _adagrad(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
             attrs: Dict[str, Any]) -> None:
    var, accum = state
    lr, = s
    if attrs.get("update_slots", True):
        accum.add_(grad.square())
    var.sub_(grad * lr * accum.rsqrt())


def _proximal_adagrad(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                      attrs: Dict[str, Any]) -> None:
    var, accum = state
    lr, l1, l2 = s
    accum.add_(grad.square())
    rate = lr * accum.rsqrt()
    _proximal_step(var, var - grad * rate, rate, l1, l2)


def _adagrad_da(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                attrs: Dict[str, Any]) -> None:
    var, g_acc, gg_acc = state
    lr, l1, l2, global_step = s
    step = global_step.to(var.dtype)
    g_acc.add_(grad)
    gg_acc.add_(grad.square())
    denominator = l2 * (step * lr) + gg_acc.sqrt()
    l1 = torch.clamp(l1, min=0)
    shrunk = torch.clamp(g_acc.abs() - step * l1, min=0)
    var.copy_(lr * -1.0 * g_acc.sign() * shrunk / denominator)


def _rms_prop(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
              attrs: Dict[str, Any]) -> None:
    var, ms, mom = state
    lr, rho, momentum, epsilon = s
    ms.add_((grad.square() - ms) * (1 - rho))
    mom.mul_(momentum).add_(grad * lr / (ms + epsilon).sqrt())
    var.sub_(mom)


def _centered_rms_prop(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                       attrs: Dict[str, Any]) -> None:
    var, mg, ms, mom = state
    lr, rho, momentum, epsilon = s
    one_minus_rho = 1 - rho
    ms.add_((grad.square() - ms) * one_minus_rho)
    mg.add_((grad - mg) * one_minus_rho)
    denominator = (ms - mg.square()) + epsilon
    mom.mul_(momentum).add_(grad * lr / denominator.sqrt())
    var.sub_(mom)


def _adadelta(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
              attrs: Dict[str, Any]) -> None:
    var, accum, accum_update = state
    lr, rho, epsilon = s
    accum.copy_(accum * rho + grad.square() * (1 - rho))
    update = (accum_update + epsilon).sqrt() * (accum + epsilon).rsqrt() * grad
    var.sub_(update * lr)
    accum_update.copy_(accum_update * rho + update.square() * (1 - rho))


def _accum_power(accum: Tensor, lr_power: Tensor, square_root: bool) -> Tensor:
    return accum.sqrt() if square_root else accum.pow(-lr_power)


def _ftrl_update(state: List[Tensor], grad: Tensor, lr: Tensor, l1: Tensor, l2: Tensor,
                 l2_shrinkage: Optional[Tensor], lr_power: Tensor,
                 attrs: Dict[str, Any]) -> None:
    var, accum, linear = state
    # TF special-cases lr_power == -0.5 with sqrt; the value decides at run time.
    square_root = bool(lr_power == -0.5)
    grad_sq = grad.square()
    new_accum = accum + grad_sq
    shrunk_grad = grad if l2_shrinkage is None else grad + 2 * l2_shrinkage * var
    power_new = _accum_power(new_accum, lr_power, square_root)
    power_old = _accum_power(accum, lr_power, square_root)
    if attrs.get("multiply_linear_by_lr"):
        linear.add_(shrunk_grad * lr - (power_new - power_old) * var)
        bound = l1 * lr
        x = torch.minimum(torch.maximum(linear, -bound), bound) - linear
        y = power_new + 2 * l2 * lr
    else:
        linear.add_(shrunk_grad - (power_new - power_old) / lr * var)
        x = torch.minimum(torch.maximum(linear, -l1), l1) - linear
        y = power_new / lr + 2 * l2
    var.copy_(x / y)
    accum.add_(grad_sq)


def _ftrl(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
          attrs: Dict[str, Any]) -> None:
    lr, l1, l2, lr_power = s
    _ftrl_update(state, grad, lr, l1, l2, None, lr_power, attrs)


def _ftrl_v2(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
             attrs: Dict[str, Any]) -> None:
    lr, l1, l2, l2_shrinkage, lr_power = s
    _ftrl_update(state, grad, lr, l1, l2, l2_shrinkage, lr_power, attrs)


RULES: Dict[str, Rule] = {
    "GradientDescent": _gradient_descent,
    "ProximalGradientDescent": _proximal_gradient_descent,
    "Momentum": _momentum,
    "Adam": _adam,
    "Adagrad": _adagrad,
    "ProximalAdagrad": _proximal_adagrad,
    "AdagradDA": _adagrad_da,
    "RMSProp": _rms_prop,
    "CenteredRMSProp": _centered_rms_prop,
    "Adadelta": _adadelta,
    "Ftrl": _ftrl,
    "FtrlV2": _ftrl_v2,
    "KerasMomentum": _keras_momentum,
    "AdagradV2": _adagrad_v2,
    "AdaMax": _ada_max,
    "AdamWithAmsgrad": _adam_with_amsgrad,
    "AddSign": _add_sign,
    "PowerSign": _power_sign,
}

# The rules a compiled training step traces (runtime/compiled_steps.py `_joined`): free of
# module state, so torch.compile need not guard on it.
GRAPH_RULES: Dict[str, Rule] = {**RULES, "Adam": _adam_in_graph}


# -- fused fast paths ------------------------------------------------------------------------
# A factory gets the op's attrs and the scalar inputs known at graph build (Python floats,
# None where dynamic) and returns a fused update with the rule's signature, or None when
# the fused kernel cannot express this case.

FastFactory = Callable[[Dict[str, Any], Sequence[Optional[float]]], Optional[Rule]]

# torch's fused Adam applies its bias corrections 1 - beta**step; an infinite step
# switches them off (beta**inf == 0), leaving TF's form with alpha as the learning rate.
_NO_BIAS_CORRECTION = {}


def _no_bias_correction_step(device: torch.device) -> Tensor:
    step = _NO_BIAS_CORRECTION.get(device)
    if step is None:
        step = _NO_BIAS_CORRECTION[device] = torch.tensor(float("inf"), device=device)
    return step


def _flat(*tensors: Tensor) -> bool:
    """Whether fused kernels may walk these tensors as flat arrays: torch's fused optimizer
    kernels ignore strides, so a transposed tensor would be updated at the wrong
    elements."""
    return all(t.is_contiguous() for t in tensors)


def _dense_grads(grads: List[Tensor]) -> List[Tensor]:
    """The gradients as contiguous tensors (the same values): a convolution's filter
    gradient is a permuted view of torch's [out, in, k...] result, and declining it
    would run every variable of the step one by one."""
    return [g if g.is_contiguous() else g.contiguous() for g in grads]


# -- multi-tensor (foreach) rules ----------------------------------------------------------
# One call updates every variable of an optimizer step (the Apply* ops of one type that a
# plan runs back to back: runtime/codegen.py batches them, training_ops.py checks their
# inputs). A rule gets `states[j]` = the j-th state tensor (variable, then slots) of every
# variable, the gradients in the same order, and the scalars the ops share, and returns
# False, before changing anything, when it cannot take these tensors; the ops then run one
# by one. Each rule is the per-variable rule above (or its FAST form) with torch's
# `_foreach_*` / fused multi-tensor kernels: the same operations in the same order, so
# every element gets the same bits as from the op-by-op update.

ForeachRule = Callable[[List[List[Tensor]], List[Tensor], Sequence[Tensor], Dict[str, Any]],
                       bool]
ForeachFactory = Callable[[Dict[str, Any], Sequence[Optional[float]]], Optional[ForeachRule]]


def _same_dtype(variables: List[Tensor], grads: List[Tensor], dtypes: tuple) -> bool:
    dtype = variables[0].dtype
    return dtype in dtypes and all(g.dtype == dtype for g in grads)


def _fusable(variables: List[Tensor], grads: List[Tensor], lr: Tensor) -> bool:
    """Whether torch's fused Adam/SGD kernels take these tensors. On the CPU they take
    every float dtype with a learning rate of the same dtype; the CUDA kernels read a
    tensor learning rate as float32, so there only float32 variables (and rate) qualify
    (others take the per-variable rule, with the same bits)."""
    if not _same_dtype(variables, grads, _FUSED_DTYPES):
        return False
    if variables[0].device.type == "cpu":
        return True
    return variables[0].dtype == torch.float32 and \
        (not isinstance(lr, Tensor) or lr.dtype == torch.float32)


def _foreach_adam(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                  ) -> Optional[ForeachRule]:
    beta1, beta2, epsilon = static[3], static[4], static[5]
    if attrs.get("use_nesterov") or epsilon is None:
        return None

    def adam(states: List[List[Tensor]], grads: List[Tensor], s: Sequence[Tensor],
             attrs: Dict[str, Any]) -> bool:
        variables, m, v = states
        first = variables[0]
        grads = _dense_grads(grads)
        if not _fusable(variables, grads, s[2]) or \
                not _flat(*variables, *m, *v) or \
                ((beta1 is None or beta2 is None) and first.device.type != "cpu"):
            return False
        step = _no_bias_correction_step(first.device)
        torch._fused_adam_(variables, grads, m, v, [], [step] * len(variables),
                           lr=_fused_adam_rate(s[0], s[1], s[2]),
                           beta1=float(s[3]) if beta1 is None else beta1,
                           beta2=float(s[4]) if beta2 is None else beta2, weight_decay=0.0,
                           eps=epsilon, amsgrad=False, maximize=False)
        return True
    return adam


def _foreach_momentum(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                      ) -> Optional[ForeachRule]:
    """TF's momentum functor on lists, one multi-tensor kernel per operation in TF's order
    (accum = accum * momentum + grad; var -= accum * lr, or for Nesterov var -= grad * lr
    + accum * momentum * lr): the same bits as TF. torch's `_fused_sgd_` is one pass but
    rounds `var - lr * accum` once where TF rounds the product and the difference."""
    nesterov = bool(attrs.get("use_nesterov"))

    def momentum_update(states: List[List[Tensor]], grads: List[Tensor],
                        s: Sequence[Tensor], attrs: Dict[str, Any]) -> bool:
        variables, accum = states
        grads = _dense_grads(grads)
        if not _fusable(variables, grads, s[0]):
            return False
        lr, momentum = s
        torch._foreach_mul_(accum, momentum)
        torch._foreach_add_(accum, grads)
        if nesterov:
            step = torch._foreach_mul(grads, lr)
            ahead = torch._foreach_mul(accum, momentum)
            torch._foreach_mul_(ahead, lr)
            torch._foreach_add_(step, ahead)
        else:
            step = torch._foreach_mul(accum, lr)
        torch._foreach_sub_(variables, step)
        return True
    return momentum_update


def _foreach_gradient_descent(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                              ) -> Optional[ForeachRule]:
    """var -= grad * alpha, the product rounded before the difference as in TF's functor
    (`_foreach_add_(alpha=)` would fuse them into one rounding: other last bits)."""
    def gradient_descent(states: List[List[Tensor]], grads: List[Tensor],
                         s: Sequence[Tensor], attrs: Dict[str, Any]) -> bool:
        variables, = states
        if not _same_dtype(variables, grads, FLOAT_DTYPES):
            return False
        torch._foreach_sub_(variables, torch._foreach_mul(grads, s[0]))
        return True
    return gradient_descent


def _foreach_keras_momentum(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                            ) -> Optional[ForeachRule]:
    nesterov = bool(attrs.get("use_nesterov"))

    def keras_momentum(states: List[List[Tensor]], grads: List[Tensor],
                       s: Sequence[Tensor], attrs: Dict[str, Any]) -> bool:
        variables, accum = states
        lr, momentum = s
        scaled = torch._foreach_mul(grads, lr)
        new_accum = torch._foreach_mul(accum, momentum)
        torch._foreach_sub_(new_accum, scaled)
        torch._foreach_copy_(accum, new_accum)
        if nesterov:
            step = torch._foreach_mul(accum, momentum)
            torch._foreach_sub_(step, scaled)
            torch._foreach_add_(variables, step)
        else:
            torch._foreach_add_(variables, accum)
        return True
    return keras_momentum


def _foreach_rms_prop(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                      ) -> Optional[ForeachRule]:
    def rms_prop(states: List[List[Tensor]], grads: List[Tensor], s: Sequence[Tensor],
                 attrs: Dict[str, Any]) -> bool:
        variables, ms, mom = states
        lr, rho, momentum, epsilon = s
        delta = torch._foreach_mul(grads, grads)
        torch._foreach_sub_(delta, ms)
        torch._foreach_mul_(delta, 1 - rho)
        torch._foreach_add_(ms, delta)
        denominator = torch._foreach_add(ms, epsilon)
        torch._foreach_sqrt_(denominator)
        torch._foreach_mul_(mom, momentum)
        if variables[0].device.type == "cpu" and variables[0].dtype in _ADDCDIV_DTYPES:
            # mom += grad * lr / denominator in one pass: addcdiv's CPU kernel computes
            # mom + (lr * grad) / denominator in T, the same roundings as the three
            # passes below (reduced-precision types would round differently).
            torch._foreach_addcdiv_(mom, grads, denominator, value=float(lr))
        else:
            step = torch._foreach_mul(grads, lr)
            torch._foreach_div_(step, denominator)
            torch._foreach_add_(mom, step)
        torch._foreach_sub_(variables, mom)
        return True
    return rms_prop


_ADDCDIV_DTYPES = (torch.float32, torch.float64)


def _foreach_adagrad(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                     ) -> Optional[ForeachRule]:
    update_slots = attrs.get("update_slots", True)

    def adagrad(states: List[List[Tensor]], grads: List[Tensor], s: Sequence[Tensor],
                attrs: Dict[str, Any]) -> bool:
        variables, accum = states
        lr, = s
        if update_slots:
            torch._foreach_add_(accum, torch._foreach_mul(grads, grads))
        step = torch._foreach_mul(grads, lr)
        torch._foreach_mul_(step, torch._foreach_rsqrt(accum))
        torch._foreach_sub_(variables, step)
        return True
    return adagrad


# Many small variables (a linear model's one weight per feature column) cost a foreach
# kernel per tensor and operation; below this many elements in all, a rule made only of
# correctly rounded operations (+ - * /, sqrt, minimum, maximum: each element's result
# does not depend on how the elements are laid out or vectorised) runs once on the
# variables packed end to end, then the packed results are copied back.
_PACKED_ELEMENTS = 1 << 16


def _packed(rule: Rule, states: List[List[Tensor]], grads: List[Tensor],
            s: Sequence[Tensor], attrs: Dict[str, Any]) -> bool:
    """`rule` (per variable, exact operations only) on every variable at once, packed;
    False, having changed nothing, where they are many elements. (The caller,
    training_ops.py `_batch_inputs`, has checked that every state tensor and gradient
    has one dtype and device.)"""
    sizes = [t.numel() for t in states[0]]
    if sum(sizes) > _PACKED_ELEMENTS:
        return False
    # (ravel and view_as: the cheapest calls of their kind, a microsecond a tensor)
    packed = [torch.cat([t.ravel() for t in column]) for column in states]
    rule(packed, torch.cat([g.ravel() for g in grads]), s, attrs)
    for column, whole in zip(states, packed):
        torch._foreach_copy_(column, [part.view_as(t)
                                      for part, t in zip(whole.split(sizes), column)])
    return True


def _packed_ftrl(rule: Rule) -> ForeachFactory:
    """FTRL (V1, V2) packed where lr_power is -0.5: then its powers are square roots
    (`_ftrl_update`); other powers, and what `_packed` declines, take the list form."""
    many = many_form(rule)

    def factory(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                ) -> Optional[ForeachRule]:
        if static[-1] not in (None, -0.5):
            return None

        def ftrl(states: List[List[Tensor]], grads: List[Tensor], s: Sequence[Tensor],
                 attrs: Dict[str, Any]) -> bool:
            if bool(s[-1] == -0.5) and _packed(rule, states, grads, s, attrs):
                return True
            return many(states, grads, s, attrs)
        return ftrl
    return factory


_HAND_WRITTEN: Dict[str, ForeachFactory] = {
    "Adam": _foreach_adam,
    "Momentum": _foreach_momentum,
    "GradientDescent": _foreach_gradient_descent,
    "KerasMomentum": _foreach_keras_momentum,
    "RMSProp": _foreach_rms_prop,
    "Adagrad": _foreach_adagrad,
    "Ftrl": _packed_ftrl(_ftrl),
    "FtrlV2": _packed_ftrl(_ftrl_v2),
}


def _hand_written_or_many(name: str) -> ForeachFactory:
    """A family's multi-tensor factory: its hand-written (fused) rule where that takes
    the op's attrs and static scalars, else the per-variable rule run on lists
    (_apply_many.py), which the op-by-op path matches bit for bit: it runs the same
    per-variable rule whenever FAST has no form (nesterov Adam, a dynamic momentum)."""
    hand_written = _HAND_WRITTEN.get(name)
    many = many_form(RULES[name])

    def factory(attrs: Dict[str, Any], static: Sequence[Optional[float]]
                ) -> Optional[ForeachRule]:
        fused = hand_written(attrs, static) if hand_written is not None else None
        return fused or many
    return factory


FOREACH: Dict[str, ForeachFactory] = {name: _hand_written_or_many(name) for name in RULES}


def _one_variable(name: str) -> FastFactory:
    """The FAST form of a family: its multi-tensor rule on one variable, the per-variable
    rule where that declines."""
    def factory(attrs: Dict[str, Any], static: Sequence[Optional[float]]) -> Optional[Rule]:
        multi = _HAND_WRITTEN[name](attrs, static)
        if multi is None:
            return None
        dense = RULES[name]

        def rule(state: List[Tensor], grad: Tensor, s: Sequence[Tensor],
                 attrs: Dict[str, Any]) -> None:
            if not multi([[t] for t in state], [grad], s, attrs):
                dense(state, grad, s, attrs)
        return rule
    return factory


FAST: Dict[str, FastFactory] = {name: _one_variable(name)
                                for name in ("Adam", "Momentum", "GradientDescent")}
