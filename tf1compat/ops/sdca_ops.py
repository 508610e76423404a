"""The SDCA solver ops behind TF's linear SDCA optimizer (TF's gen_sdca_ops): SdcaOptimizer,
SdcaOptimizerV2, SdcaFprint and SdcaShrinkL1 (the proximal L1 step applied in place to a
list of ref variables).

SdcaOptimizer(V2) runs one pass of stochastic dual coordinate ascent over a mini-batch as
TF's kernel (core/kernels/sdca_ops.cc, sdca_internal.cc and the *-loss.h updaters) does:
each visited example gets the dual that maximizes its loss's dual objective given the
current weights (the nominal weights plus the deltas of the examples visited before it,
scaled by `num_loss_partitions`, all through the L1 shrinkage), and adds
`(new_dual - dual) * example_weight / l2` times its features to the weight deltas. The
outputs are the new example state (dual, primal loss, dual loss, example weight) and the
deltas. TF mixes float and double the same way: dense dot products in float32, sparse
ones, the duals and the losses in double.

TF visits the examples in an order drawn from `std::random_device` (a shuffle, or with
`adaptive` importance sampling whose acceptance also uses `std::random_device`), so its
results depend on an order nobody can reproduce; here the order comes from numpy's
unseeded generator through `_shuffled` and `_adaptive_order` (tests replace them). An
order-independent batch (examples with disjoint features, or one example) gives TF's
values exactly. TF's adaptive sampler writes the examples it did not sample into the
wrong array, so the remaining visits all go to example 0; that is kept.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import REQUIRED, Int, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._string_hash import fingerprint128

__all__ = ["sdca_optimizer", "sdca_optimizer_v2", "sdca_fprint", "sdca_shrink_l1", "shrink",
           "LOSSES"]

_F32 = np.float32


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _host(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x.detach().cpu().numpy()


# -- the dual loss updaters (TF's *-loss.h) --------------------------------------------------

def _binary_label(label: float) -> float:
    if label == 0.0:
        return -1.0
    if label == 1.0:
        return 1.0
    raise _invalid("Only labels of 0.0 or 1.0 are supported right now. Found example with "
                   f"label: {_fmt(label)}")


def _fmt(x: float) -> str:
    """A float label as TF's StrCat prints it ("2", "0.5")."""
    text = repr(float(_F32(x)))
    return text[:-2] if text.endswith(".0") else text


def _div(a: float, b: float) -> float:
    """a / b with IEEE results for b == 0 (inf or nan), as the C++ kernel computes."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


class _Logistic:
    smoothness = 4.0
    convert = staticmethod(_binary_label)

    @staticmethod
    def updated_dual(parts: int, label: float, weight: float, dual: float, wx: float,
                     norm: float) -> float:
        x = 0.0
        scale = parts * norm * weight
        for _ in range(10):                  # TF's ten Newton steps from 0
            t = math.tanh(x)
            numerator = -2 * label * x - wx - scale * (0.5 * (1 + t) / label - dual)
            denominator = -2 * label - scale * (1 - t * t) * 0.5 / label
            x = x - numerator / denominator
        return 0.5 * (1 + math.tanh(x)) / label

    @staticmethod
    def dual_loss(dual: float, label: float, weight: float) -> float:
        ay = dual * label
        log_ay = math.log(ay) if ay > 0 else 0.0
        rest = 1 - ay
        log_rest = math.log(rest) if rest > 0 else 0.0
        return (ay * log_ay + rest * log_rest) * weight

    @staticmethod
    def primal_loss(wx: float, label: float, weight: float) -> float:
        y_wx = label * wx
        if y_wx > 0:
            return math.log1p(math.exp(-y_wx)) * weight
        return (math.log1p(math.exp(y_wx)) - y_wx) * weight

    @staticmethod
    def derivative(wx: float, label: float, weight: float) -> float:
        if label * wx > 0:
            inverse = math.exp(-label * wx) / (1 + math.exp(-label * wx))
        else:
            inverse = 1 / (1 + math.exp(label * wx))
        return -inverse * label * weight


class _Squared:
    smoothness = 1.0

    @staticmethod
    def convert(label: float) -> float:
        return label

    @staticmethod
    def updated_dual(parts: int, label: float, weight: float, dual: float, wx: float,
                     norm: float) -> float:
        return dual + (label - dual - wx) / (1 + parts * norm * weight)

    @staticmethod
    def dual_loss(dual: float, label: float, weight: float) -> float:
        return dual * (0.5 * dual - label) * weight

    @staticmethod
    def primal_loss(wx: float, label: float, weight: float) -> float:
        error = wx - label
        return error * error * weight * 0.5

    @staticmethod
    def derivative(wx: float, label: float, weight: float) -> float:
        return (wx - label) * weight


def _clip_dual(label: float, candidate: float) -> float:
    if label * candidate < 0:
        return 0.0
    if label * candidate > 1.0:
        return label
    return candidate


class _Hinge:
    smoothness = 0.0
    convert = staticmethod(_binary_label)

    @staticmethod
    def updated_dual(parts: int, label: float, weight: float, dual: float, wx: float,
                     norm: float) -> float:
        return _clip_dual(label, dual + _div(label - wx, parts * weight * norm))

    @staticmethod
    def dual_loss(dual: float, label: float, weight: float) -> float:
        y_alpha = dual * label
        if y_alpha < 0 or y_alpha > 1.0:
            return float(np.finfo(np.float64).max)
        return -y_alpha * weight

    @staticmethod
    def primal_loss(wx: float, label: float, weight: float) -> float:
        return max(0.0, 1 - label * wx) * weight

    @staticmethod
    def derivative(wx: float, label: float, weight: float) -> float:
        return -label * weight if label * wx < 1 else 0.0


class _SmoothHinge:
    smoothness = 1.0                          # TF's gamma
    convert = staticmethod(_binary_label)

    @staticmethod
    def updated_dual(parts: int, label: float, weight: float, dual: float, wx: float,
                     norm: float) -> float:
        gamma = 1.0
        candidate = dual + (label - wx - gamma * dual) / (parts * weight * norm + gamma)
        return _clip_dual(label, candidate)

    @staticmethod
    def dual_loss(dual: float, label: float, weight: float) -> float:
        y_alpha = dual * label
        if y_alpha < 0 or y_alpha > 1.0:
            return float(np.finfo(np.float64).max)
        return (-y_alpha + 0.5 * dual * dual) * weight

    @staticmethod
    def primal_loss(wx: float, label: float, weight: float) -> float:
        y_wx = label * wx
        if y_wx >= 1:
            return 0.0
        if y_wx <= 0:                         # 1 - gamma
            return (1 - y_wx - 0.5) * weight
        return (1 - y_wx) * (1 - y_wx) * weight * 0.5

    @staticmethod
    def derivative(wx: float, label: float, weight: float) -> float:
        if label * wx >= 1:
            return 0.0
        if label * wx <= 0:
            return -label
        return wx - label


class _Poisson:
    smoothness = 1.0

    @staticmethod
    def convert(label: float) -> float:
        if label < 0.0:
            raise _invalid("Only non-negative labels can be used with the Poisson log loss. "
                           f"Found example with label: {_fmt(label)}")
        return label

    @staticmethod
    def updated_dual(parts: int, label: float, weight: float, dual: float, wx: float,
                     norm: float) -> float:
        y_minus_a = label - dual
        x = math.log(y_minus_a) if y_minus_a > 0 else 0.0
        scale = parts * norm * weight
        for _ in range(10):
            expx = math.exp(x)
            x = x - (x - wx - scale * (label - dual - expx)) / (1 + scale * expx)
        return label - math.exp(x)

    @staticmethod
    def dual_loss(dual: float, label: float, weight: float) -> float:
        y_minus_a = label - dual
        if y_minus_a == 0.0:
            return 0.0
        if y_minus_a < 0.0:
            return float(np.finfo(np.float64).max)
        return y_minus_a * (math.log(y_minus_a) - 1) * weight

    @staticmethod
    def primal_loss(wx: float, label: float, weight: float) -> float:
        return (math.exp(wx) - wx * label) * weight

    @staticmethod
    def derivative(wx: float, label: float, weight: float) -> float:
        return (math.exp(wx) - label) * weight


LOSSES: Dict[str, Any] = {"logistic_loss": _Logistic, "squared_loss": _Squared,
                          "hinge_loss": _Hinge, "smooth_hinge_loss": _SmoothHinge,
                          "poisson_loss": _Poisson}


# -- the example order -----------------------------------------------------------------------

def _shuffled(n: int) -> List[int]:
    """The visiting order without adaptive sampling: a uniform random permutation."""
    return [int(i) for i in np.random.default_rng().permutation(n)]


def _adaptive_order(probabilities: Sequence[float]) -> List[int]:
    """TF's adaptive sampling: draw examples by `probabilities`, keeping a draw of an
    example already drawn k times with probability 0.1 ** k, with at most n rejections;
    the visits not drawn go to example 0 (TF's sampler fills the wrong array)."""
    n = len(probabilities)
    rng = np.random.default_rng()
    p = np.asarray(probabilities, np.float64)
    total = p.sum()
    p = p / total if total > 0 else np.full(n, 1.0 / n)
    counts = [0] * n
    order: List[int] = []
    retries = 0
    while len(order) < n and retries < n:
        picked = int(rng.choice(n, p=p))
        if rng.random() > 0.1 ** counts[picked]:
            retries += 1
            continue
        counts[picked] += 1
        order.append(picked)
    return order + [0] * (n - len(order))


# -- SdcaOptimizer ---------------------------------------------------------------------------

def shrink(weights: np.ndarray, shrinkage: float) -> np.ndarray:
    """TF's proximal L1 step in float32: sign(w) * max(|w| - l1 / l2, 0)."""
    w = np.asarray(weights, _F32)
    return (np.sign(w) * np.maximum(np.abs(w) - _F32(shrinkage), _F32(0))).astype(_F32)


def _shrink1(weight: float, shrinkage: float) -> float:
    shrinked = max(abs(weight) - shrinkage, 0.0)
    return math.copysign(shrinked, weight) if shrinked > 0.0 else 0.0


class _Sparse:
    """One sparse feature group: per example the (weight slot, value) pairs."""

    def __init__(self, rows: List[List[Tuple[int, float]]], nominals: np.ndarray):
        self.rows = rows
        self.nominals = nominals
        self.deltas = np.zeros_like(nominals)


def _sparse_groups(example_indices: List[np.ndarray], feature_indices: List[np.ndarray],
                   feature_values: List[np.ndarray], weight_indices: List[np.ndarray],
                   weights: List[np.ndarray], n: int) -> List[_Sparse]:
    groups = []
    for i, (ex, feat) in enumerate(zip(example_indices, feature_indices)):
        ex, feat = ex.reshape(-1), feat.reshape(-1)
        if ex.size != feat.size:
            raise _invalid("Found mismatched example_indices and feature_indices "
                           f"[{' '.join(map(str, ex))}] vs [{' '.join(map(str, feat))}]")
        slots = {int(k): j for j, k in enumerate(weight_indices[i].reshape(-1))}
        values = feature_values[i].reshape(-1) if i < len(feature_values) else None
        rows: List[List[Tuple[int, float]]] = []
        end = 0
        # As TF: an example's features are the run of entries equal to its id that starts
        # where the previous example's run ended (the indices are expected sorted).
        for example_id in range(n):
            start = end
            while end < ex.size and ex[end] == example_id:
                end += 1
            row = []
            for k in range(start, end):
                slot = slots.get(int(feat[k]))
                if slot is None:
                    raise _invalid(f"Found sparse feature indices out of valid range: "
                                   f"{int(feat[k])}")
                row.append((slot, 1.0 if values is None else float(values[k])))
            rows.append(row)
        groups.append(_Sparse(rows, np.asarray(weights[i], _F32).reshape(-1).copy()))
    return groups


def _squared_norms(groups: List[_Sparse], dense: List[np.ndarray], n: int) -> List[float]:
    norms = []
    for example_id in range(n):
        total = 0.0
        for group in groups:
            seen = set()
            for slot, value in group.rows[example_id]:
                if slot in seen:
                    raise _invalid("Duplicate index in sparse vector.")
                seen.add(slot)
                total += value * value
        for features in dense:
            row = features[example_id]
            total += float(np.sum(row * row, dtype=_F32))
        norms.append(total)
    return norms


def _sdca_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    loss = LOSSES[attrs["loss_type"]]
    adaptive = bool(attrs["adaptive" if "adaptive" in attrs else "adaptative"])
    n_sparse = int(attrs["num_sparse_features"])
    n_values = int(attrs["num_sparse_features_with_values"])
    n_dense = int(attrs["num_dense_features"])
    l2 = float(_F32(attrs["l2"]))
    shrinkage = float(_F32(attrs["l1"]) / _F32(attrs["l2"]))
    parts = int(attrs["num_loss_partitions"])

    def sdca_optimizer(*args: Any) -> Tuple[torch.Tensor, ...]:
        if n_sparse + n_dense == 0:
            raise _invalid("Requires at least one feature to train.")
        host = [_host(a) for a in args]
        at = 0

        def take(count: int) -> List[np.ndarray]:
            nonlocal at
            at += count
            return host[at - count:at]
        example_indices, feature_indices = take(n_sparse), take(n_sparse)
        feature_values, dense_features = take(n_values), take(n_dense)
        (example_weights,), (example_labels,) = take(1), take(1)
        weight_indices, sparse_weights = take(n_sparse), take(n_sparse)
        dense_weights, (state_in,) = take(n_dense), take(1)
        example_weights = example_weights.reshape(-1).astype(_F32)
        n = example_weights.size
        labels = example_labels.reshape(-1).astype(_F32)
        if labels.size != n:
            raise _invalid(f"Expected {n} example labels but got {labels.size}")
        for i, features in enumerate(dense_features):
            if features.ndim != 2:
                raise _invalid(f"Dense features at index {i} must be rank 2 but is rank "
                               f"{features.ndim}")
        groups = _sparse_groups(example_indices, feature_indices, feature_values,
                                weight_indices, sparse_weights, n)
        dense = [np.asarray(f, _F32) for f in dense_features]
        nominals = []
        for features, weights in zip(dense, dense_weights):
            flat = np.asarray(weights, _F32).reshape(-1)
            if features.shape[1] - 1 < 0 or features.shape[1] > flat.size:
                raise _invalid(f"More dense features than we have parameters for: "
                               f"{features.shape[1]}")
            nominals.append(flat[:features.shape[1]])
        norms = _squared_norms(groups, dense, n)
        if state_in.ndim != 2:
            raise _invalid(f"example_state_data must be rank 2 but is rank {state_in.ndim}")
        if state_in.shape != (n, 4):
            raise _invalid(f"Expected shape [{n},4] for example_state_data, got "
                           f"[{','.join(map(str, state_in.shape))}]")
        state = np.array(state_in, _F32)
        dense_deltas = [np.zeros_like(w) for w in nominals]
        shrunk_nominals = [shrink(w, shrinkage) for w in nominals]

        def statistics(i: int) -> Tuple[float, float, float]:
            """(wx, prev_wx, normalized squared norm) of example i."""
            wx = prev_wx = 0.0
            for group in groups:
                for slot, value in group.rows[i]:
                    nominal = float(group.nominals[slot])
                    prev_wx += value * _shrink1(nominal, shrinkage)
                    wx += value * _shrink1(nominal + float(group.deltas[slot]) * parts,
                                           shrinkage)
            for features, nominal, shrunk, delta in zip(dense, nominals, shrunk_nominals,
                                                        dense_deltas):
                row = features[i]
                current = shrink(nominal + delta * _F32(parts), shrinkage)
                prev_wx += float(np.sum(row * shrunk, dtype=_F32))
                wx += float(np.sum(row * current, dtype=_F32))
            return wx, prev_wx, _div(norms[i], l2)

        if adaptive:
            probabilities = []
            for i in range(n):
                label = loss.convert(float(labels[i]))
                wx, _, _ = statistics(i)
                kappa = float(state[i, 0]) + loss.derivative(wx, label, 1.0)
                probabilities.append(float(example_weights[i]) * math.sqrt(
                    norms[i] + l2 * loss.smoothness) * abs(kappa))
            order = _adaptive_order(probabilities)
        else:
            order = _shuffled(n)
        for i in order:
            dual = float(state[i, 0])
            weight = float(example_weights[i])
            label = loss.convert(float(labels[i]))
            wx, prev_wx, norm = statistics(i)
            new_dual = loss.updated_dual(parts, label, weight, dual, wx, norm)
            step = _div((new_dual - dual) * weight, l2)
            for group in groups:
                for slot, value in group.rows[i]:
                    group.deltas[slot] = _F32(float(group.deltas[slot]) + value * step)
            for j, features in enumerate(dense):
                dense_deltas[j] = dense_deltas[j] + features[i] * _F32(step)
            state[i] = (new_dual, loss.primal_loss(prev_wx, label, weight),
                        loss.dual_loss(dual, label, weight), weight)
        outs = [torch.from_numpy(state)]
        outs += [torch.from_numpy(g.deltas.reshape(np.shape(w)))
                 for g, w in zip(groups, sparse_weights)]
        for delta, weights in zip(dense_deltas, dense_weights):
            full = np.zeros(np.shape(weights), _F32).reshape(-1)
            full[:delta.size] = delta
            outs.append(torch.from_numpy(full.reshape(np.shape(weights))))
        return tuple(o.to(kctx.device) for o in outs)
    return sdca_optimizer


def _sdca_shape(ctx: Any) -> List[TensorShape]:
    """TF's ApplySdcaOptimizerShapeFn: the deltas have their weights' shapes, the new state
    is [?, 4]."""
    n_sparse = ctx.attr("num_sparse_features")
    n_values = ctx.attr("num_sparse_features_with_values")
    n_dense = ctx.attr("num_dense_features")
    first_sparse_weight = 2 * n_sparse + n_values + n_dense + 2 + n_sparse
    first_dense_weight = first_sparse_weight + n_sparse
    return ([TensorShape([None, 4])]
            + [ctx.shape(first_sparse_weight + i) for i in range(n_sparse)]
            + [ctx.shape(first_dense_weight + i) for i in range(n_dense)])


_SDCA_INPUTS = ["sparse_example_indices: num_sparse_features * int64",
                "sparse_feature_indices: num_sparse_features * int64",
                "sparse_feature_values: num_sparse_features_with_values * float32",
                "dense_features: num_dense_features * float32",
                "example_weights: float32", "example_labels: float32",
                "sparse_indices: num_sparse_features * int64",
                "sparse_weights: num_sparse_features * float32",
                "dense_weights: num_dense_features * float32",
                "example_state_data: float32"]
_SDCA_OUTPUTS = ["out_example_state_data: float32",
                 "out_delta_sparse_weights: num_sparse_features * float32",
                 "out_delta_dense_weights: num_dense_features * float32"]


def _sdca_attrs(adaptive_name: str, adaptive_default: bool) -> Dict[str, Any]:
    return {"loss_type": REQUIRED, adaptive_name: adaptive_default,
            "num_sparse_features": Int(minimum=0),
            "num_sparse_features_with_values": Int(minimum=0),
            "num_dense_features": Int(minimum=0), "l1": REQUIRED, "l2": REQUIRED,
            "num_loss_partitions": REQUIRED, "num_inner_iterations": REQUIRED}


declare("SdcaOptimizer", inputs=_SDCA_INPUTS, outputs=_SDCA_OUTPUTS,
        attrs=_sdca_attrs("adaptative", True), shape=_sdca_shape, kernel=_sdca_kernel,
        grad="unregistered", cpu_only=True, stateful=True,
        doc="One SDCA pass over a mini-batch (the attr is TF's misspelt `adaptative`).")
declare("SdcaOptimizerV2", inputs=_SDCA_INPUTS, outputs=_SDCA_OUTPUTS,
        attrs=_sdca_attrs("adaptive", True), shape=_sdca_shape, kernel=_sdca_kernel,
        grad="unregistered", cpu_only=True, stateful=True,
        doc="One SDCA pass over a mini-batch.")


def _sdca_call(op_type: str, adaptive_name: str, sparse_example_indices: Sequence[Any],
               sparse_feature_indices: Sequence[Any], sparse_feature_values: Sequence[Any],
               dense_features: Sequence[Any], example_weights: Any, example_labels: Any,
               sparse_indices: Sequence[Any], sparse_weights: Sequence[Any],
               dense_weights: Sequence[Any], example_state_data: Any, loss_type: str,
               l1: float, l2: float, num_loss_partitions: int, num_inner_iterations: int,
               adaptive: bool, name: Optional[str]) -> Tuple[Tensor, List[Tensor],
                                                             List[Tensor]]:
    if loss_type not in LOSSES:
        raise ValueError(f"Value for attr 'loss_type' of \"{loss_type}\" is not in the list "
                         f"of allowed values: {', '.join(repr(k) for k in LOSSES)}")
    for what, value in (("num_loss_partitions", num_loss_partitions),
                        ("num_inner_iterations", num_inner_iterations)):
        if int(value) < 1:
            raise ValueError(f"Attr '{what}' of '{op_type}' Op passed {int(value)} less than "
                             "minimum 1.")
    n_sparse, n_dense = len(sparse_example_indices), len(dense_features)
    op = apply_op(op_type, [list(sparse_example_indices), list(sparse_feature_indices),
                            list(sparse_feature_values), list(dense_features), example_weights,
                            example_labels, list(sparse_indices), list(sparse_weights),
                            list(dense_weights), example_state_data],
                  {"loss_type": loss_type, adaptive_name: bool(adaptive),
                   "l1": float(l1), "l2": float(l2),
                   "num_loss_partitions": int(num_loss_partitions),
                   "num_inner_iterations": int(num_inner_iterations)}, name=name)
    outs = list(op.outputs)
    return outs[0], outs[1:1 + n_sparse], outs[1 + n_sparse:1 + n_sparse + n_dense]


def sdca_optimizer(sparse_example_indices: Sequence[Any], sparse_feature_indices: Sequence[Any],
                   sparse_feature_values: Sequence[Any], dense_features: Sequence[Any],
                   example_weights: Any, example_labels: Any, sparse_indices: Sequence[Any],
                   sparse_weights: Sequence[Any], dense_weights: Sequence[Any],
                   example_state_data: Any, loss_type: str, l1: float, l2: float,
                   num_loss_partitions: int, num_inner_iterations: int,
                   adaptative: bool = True, name: Optional[str] = None
                   ) -> Tuple[Tensor, List[Tensor], List[Tensor]]:
    """`tf.train.sdca_optimizer`: one SDCA pass; (out_example_state_data,
    out_delta_sparse_weights, out_delta_dense_weights)."""
    return _sdca_call("SdcaOptimizer", "adaptative", sparse_example_indices,
                      sparse_feature_indices, sparse_feature_values, dense_features,
                      example_weights, example_labels, sparse_indices, sparse_weights,
                      dense_weights, example_state_data, loss_type, l1, l2,
                      num_loss_partitions, num_inner_iterations, adaptative, name)


def sdca_optimizer_v2(sparse_example_indices: Sequence[Any],
                      sparse_feature_indices: Sequence[Any],
                      sparse_feature_values: Sequence[Any], dense_features: Sequence[Any],
                      example_weights: Any, example_labels: Any, sparse_indices: Sequence[Any],
                      sparse_weights: Sequence[Any], dense_weights: Sequence[Any],
                      example_state_data: Any, loss_type: str, l1: float, l2: float,
                      num_loss_partitions: int, num_inner_iterations: int,
                      adaptive: bool = True, name: Optional[str] = None
                      ) -> Tuple[Tensor, List[Tensor], List[Tensor]]:
    """TF's gen_sdca_ops.sdca_optimizer_v2 (what TF 1.15's SdcaModel calls)."""
    return _sdca_call("SdcaOptimizerV2", "adaptive", sparse_example_indices,
                      sparse_feature_indices, sparse_feature_values, dense_features,
                      example_weights, example_labels, sparse_indices, sparse_weights,
                      dense_weights, example_state_data, loss_type, l1, l2,
                      num_loss_partitions, num_inner_iterations, adaptive, name)


# -- SdcaFprint ------------------------------------------------------------------------------

def _fprint_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def sdca_fprint(values: Any) -> torch.Tensor:
        if values.ndim != 1:
            raise _invalid(f"Input must be a vector, got shape "
                           f"[{','.join(map(str, values.shape))}]")
        out = np.empty((values.shape[0], 2), np.uint64)
        for i, s in enumerate(values):
            low, high = fingerprint128(bytes(s))
            # TF never returns 0 or 1 as the first word (sentinels of dense hash tables).
            out[i] = ((low if low >= 2 else low + 0xFFFFFFFFFFFFFFFE), high)
        return torch.from_numpy(out.view(np.int64)).to(kctx.device)
    return sdca_fprint


def _fprint_shape(ctx: Any) -> List[TensorShape]:
    data = ctx.shape(0)
    if data.rank is not None and data.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {data.rank} {node_desc(ctx)}")
    return [TensorShape([data.as_list()[0] if data.rank else None, 2])]


declare("SdcaFprint", inputs=["input: string"], outputs=["output: int64"],
        shape=_fprint_shape, kernel=_fprint_kernel, grad="unregistered", cpu_only=True)


def sdca_fprint(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.train.sdca_fprint`: [n, 2] int64 FarmHash Fingerprint128 words of each string."""
    return apply_op1("SdcaFprint", [input], name=name)


# -- SdcaShrinkL1 ----------------------------------------------------------------------------

def _shrink_l1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    keys = [kctx.ref_key(t) for t in node.inputs]
    state = kctx.state
    # TF's Regularizations: shrinkage = l1 / l2 computed in float32.
    shrinkage = float(_F32(node.attrs["l1"]) / _F32(node.attrs["l2"]))

    def sdca_shrink_l1() -> None:
        for key in keys:
            with state.lock(key):
                w = state.get(key)
                if w is None:
                    raise errors.FailedPreconditionError(
                        None, None, f"Attempting to use uninitialized value {key}")
                state[key] = torch.sign(w) * torch.clamp(torch.abs(w) - shrinkage, min=0.0)
    return sdca_shrink_l1


declare("SdcaShrinkL1", inputs=["weights: num_features * Ref(float)"],
        attrs={"num_features": Int(minimum=0), "l1": REQUIRED, "l2": REQUIRED},
        shape=lambda ctx: [], kernel=_shrink_l1_kernel, grad="unregistered", cpu_only=True,
        stateful=True,
        doc="sign(w) * max(|w| - l1 / l2, 0) on each weight variable, in place.")


def sdca_shrink_l1(weights: Sequence[Any], l1: float, l2: float,
                   name: Optional[str] = None) -> Any:
    """`tf.train.sdca_shrink_l1`: the SDCA proximal L1 step on ref variables `weights` (the
    op, which has no outputs)."""
    return apply_op("SdcaShrinkL1", [list(weights)], {"l1": float(l1), "l2": float(l2)},
                    name=name)
