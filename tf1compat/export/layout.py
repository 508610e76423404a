"""Layout conversion: an exported module's TF variables as the state dict of torch layers.

TF and torch store the same layers differently. `torch_state_dict(module, mapping)`
converts, per layer, from TF's variables to the parameters of the equivalent torch
layer, so the weights load into a hand-written PyTorch model with `load_state_dict`.

| layout | TF variables (under the scope) | torch layer and parameters | conversion |
|---|---|---|---|
| `dense` | `kernel` [in, out], `bias` [out] | `nn.Linear`: `weight` [out, in], `bias` | transpose; option `flatten_from=(H, W, C)`: the input was an NHWC feature map flattened by TF, the torch model flattens NCHW: rows reordered (h, w, c) -> (c, h, w) |
| `conv1d` | `kernel` [w, in, out], `bias` | `nn.Conv1d`: `weight` [out, in, w] | permute (2, 1, 0) |
| `conv2d` | `kernel` [h, w, in, out] (HWIO), `bias` | `nn.Conv2d`: `weight` [out, in, h, w] (OIHW) | permute (3, 2, 0, 1) |
| `conv3d` | `kernel` [d, h, w, in, out], `bias` | `nn.Conv3d`: `weight` [out, in, d, h, w] | permute (4, 3, 0, 1, 2) |
| `conv2d_transpose` | `kernel` [h, w, out, in], `bias` | `nn.ConvTranspose2d`: `weight` [in, out, h, w] | permute (3, 2, 0, 1) |
| `depthwise_conv2d` | `depthwise_kernel` [h, w, in, k] | `nn.Conv2d(groups=in)`: `weight` [in*k, 1, h, w] | permute (2, 3, 0, 1), reshape |
| `batch_norm` | `gamma`, `beta`, `moving_mean`, `moving_variance` | `nn.BatchNorm*d`: `weight`, `bias`, `running_mean`, `running_var` | renamed (set torch's `eps` to TF's epsilon, 1e-3 for tf.layers, and `momentum` to 1 - TF's momentum) |
| `embedding` | `embeddings` [vocab, dim] | `nn.Embedding`: `weight` | renamed |
| `lstm` | `kernel` [in + hidden, 4 hidden], `bias` [4 hidden] (tf.nn.rnn_cell.LSTMCell / BasicLSTMCell, gates i, c, f, o) | `nn.LSTM`: `weight_ih_l{k}` [4 hidden, in], `weight_hh_l{k}` [4 hidden, hidden], `bias_ih_l{k}`, `bias_hh_l{k}` (gates i, f, g, o) | split input/recurrent rows, transpose, gate blocks reordered; TF's `forget_bias` (option, default 1.0, added by the cell at run time) folded into the forget gate of `bias_ih`, `bias_hh` zero; options `layer=k`, `reverse=True` (`_reverse` suffix of a bidirectional LSTM) |

A mapping entry is `torch_prefix: (layout, tf_scope)` or `(layout, tf_scope, options)`,
or a list of those when several TF layers fill one torch module (the layers of a
multi-layer or bidirectional `nn.LSTM`: `"lstm": [("lstm", "rnn/.../cell_0/lstm_cell"),
("lstm", "rnn/.../cell_1/lstm_cell", {"layer": 1})]`);
`tf_scope` is the name scope of the layer's variables (`conv1`, `rnn/lstm_cell`), whose
conventional leaf names are tried (`kernel` or `weights` or `w`, `bias` or `biases`
or `b`, ...), or a dict {role: TF variable name} naming them outright
(`{"kernel": "hidden1/weights", "bias": "hidden1/biases"}`).

Layouts that cannot be converted exactly are not offered: TF1's `GRUCell` applies the
reset gate before its candidate matmul (torch's `nn.GRU` after it), so no weights make
the two compute the same function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple

import torch

__all__ = ["LAYOUTS", "Layout", "convert_state_dict"]

Tensors = Dict[str, torch.Tensor]


@dataclass(frozen=True)
class Layout:
    """One layer kind: the TF variables it reads (role -> leaf names to try; optional
    roles may be absent) and the conversion to torch parameter names."""
    roles: Dict[str, Tuple[str, ...]]
    optional: Tuple[str, ...]
    convert: Callable[[Tensors, Dict[str, Any]], Tensors]
    options: Tuple[str, ...] = ()


def _linear(v: Tensors, options: Dict[str, Any]) -> Tensors:
    kernel = v["kernel"]
    shape = options.get("flatten_from")
    if shape is not None:
        h, w, c = shape
        if h * w * c != kernel.shape[0]:
            raise ValueError(f"flatten_from={tuple(shape)} has {h * w * c} features, the "
                             f"kernel has {kernel.shape[0]} rows")
        kernel = kernel.reshape(h, w, c, -1).permute(2, 0, 1, 3).reshape(h * w * c, -1)
    out = {"weight": kernel.t()}
    if "bias" in v:
        out["bias"] = v["bias"]
    return out


def _permuted(order: Sequence[int]) -> Callable[[Tensors, Dict[str, Any]], Tensors]:
    def convert(v: Tensors, options: Dict[str, Any]) -> Tensors:
        kernel = v["kernel"]
        if kernel.dim() != len(order):
            raise ValueError(f"expected a kernel of rank {len(order)}, got shape "
                             f"{list(kernel.shape)}")
        out = {"weight": kernel.permute(*order)}
        if "bias" in v:
            out["bias"] = v["bias"]
        return out
    return convert


def _depthwise(v: Tensors, options: Dict[str, Any]) -> Tensors:
    kernel = v["kernel"]
    h, w, channels, multiplier = kernel.shape
    out = {"weight": kernel.permute(2, 3, 0, 1).reshape(channels * multiplier, 1, h, w)}
    if "bias" in v:
        out["bias"] = v["bias"]
    return out


def _batch_norm(v: Tensors, options: Dict[str, Any]) -> Tensors:
    out = {"running_mean": v["moving_mean"], "running_var": v["moving_variance"]}
    if "gamma" in v:
        out["weight"] = v["gamma"]
    if "beta" in v:
        out["bias"] = v["beta"]
    return out


def _embedding(v: Tensors, options: Dict[str, Any]) -> Tensors:
    return {"weight": v["embeddings"]}


def _lstm(v: Tensors, options: Dict[str, Any]) -> Tensors:
    kernel, bias = v["kernel"], v["bias"]
    hidden = kernel.shape[1] // 4
    if kernel.shape[1] != 4 * hidden or bias.shape[0] != 4 * hidden:
        raise ValueError(f"an LSTM kernel has 4 * hidden columns, got {list(kernel.shape)}")
    inputs = kernel.shape[0] - hidden

    def torch_gates(t: torch.Tensor) -> torch.Tensor:
        i, c, f, o = t.split(hidden, dim=0)        # TF: i, j (the cell input), f, o
        return torch.cat([i, f, c, o], dim=0)      # torch: i, f, g, o

    weight = kernel.t()                             # [4 hidden, in + hidden]
    bias_ih = torch_gates(bias).clone()
    bias_ih[hidden:2 * hidden] += float(options.get("forget_bias", 1.0))
    suffix = f"_l{int(options.get('layer', 0))}" + ("_reverse" if options.get("reverse")
                                                     else "")
    return {f"weight_ih{suffix}": torch_gates(weight[:, :inputs]),
            f"weight_hh{suffix}": torch_gates(weight[:, inputs:]),
            f"bias_ih{suffix}": bias_ih,
            f"bias_hh{suffix}": torch.zeros_like(bias_ih)}


_KERNEL = ("kernel", "weights", "w", "W")
_BIAS = ("bias", "biases", "b")

LAYOUTS: Dict[str, Layout] = {
    "dense": Layout({"kernel": _KERNEL, "bias": _BIAS}, ("bias",), _linear, ("flatten_from",)),
    "conv1d": Layout({"kernel": _KERNEL, "bias": _BIAS}, ("bias",), _permuted((2, 1, 0))),
    "conv2d": Layout({"kernel": _KERNEL, "bias": _BIAS}, ("bias",), _permuted((3, 2, 0, 1))),
    "conv3d": Layout({"kernel": _KERNEL, "bias": _BIAS}, ("bias",),
                     _permuted((4, 3, 0, 1, 2))),
    "conv2d_transpose": Layout({"kernel": _KERNEL, "bias": _BIAS}, ("bias",),
                               _permuted((3, 2, 0, 1))),
    "depthwise_conv2d": Layout({"kernel": ("depthwise_kernel",) + _KERNEL, "bias": _BIAS},
                               ("bias",), _depthwise),
    "batch_norm": Layout({"gamma": ("gamma",), "beta": ("beta",),
                          "moving_mean": ("moving_mean",),
                          "moving_variance": ("moving_variance",)},
                         ("gamma", "beta"), _batch_norm),
    "embedding": Layout({"embeddings": ("embeddings", "embedding", "weights", "W")}, (),
                        _embedding),
    "lstm": Layout({"kernel": _KERNEL, "bias": _BIAS}, (), _lstm,
                   ("forget_bias", "layer", "reverse")),
}


def _entry(prefix: str, value: Any) -> Tuple[Layout, Any, Dict[str, Any]]:
    if not isinstance(value, (tuple, list)) or len(value) not in (2, 3):
        raise TypeError(f"mapping[{prefix!r}] must be (layout, tf_scope) or (layout, "
                        f"tf_scope, options), got {value!r}")
    name, scope = value[0], value[1]
    options = dict(value[2]) if len(value) == 3 else {}
    layout = LAYOUTS.get(name)
    if layout is None:
        raise ValueError(f"mapping[{prefix!r}]: unknown layout {name!r}; the layouts are "
                         f"{', '.join(sorted(LAYOUTS))}")
    unknown = sorted(set(options) - set(layout.options))
    if unknown:
        raise ValueError(f"mapping[{prefix!r}]: layout {name!r} takes no option "
                         f"{unknown[0]!r} (its options: {', '.join(layout.options) or 'none'})")
    return layout, scope, options


def _gather(prefix: str, layout: Layout, scope: Any, values: Tensors) -> Tuple[Tensors,
                                                                            List[str]]:
    picked: Tensors = {}
    used: List[str] = []
    for role, leaves in layout.roles.items():
        if isinstance(scope, Mapping):
            key = scope.get(role)
            found = key if key in values else None
            if key is not None and found is None:
                raise KeyError(f"mapping[{prefix!r}]: the module has no variable {key!r}")
        else:
            base = scope.rstrip("/")
            found = next((f"{base}/{leaf}" for leaf in leaves
                          if f"{base}/{leaf}" in values), None)
        if found is None:
            if role in layout.optional:
                continue
            where = f"variables {sorted(scope.values())}" if isinstance(scope, Mapping) \
                else f"scope {scope!r} (tried {', '.join(leaves)})"
            raise KeyError(f"mapping[{prefix!r}]: no {role!r} variable in {where}")
        picked[role] = values[found]
        used.append(found)
    return picked, used


def convert_state_dict(module: Any, mapping: Mapping[str, Any],
                       strict: bool = True) -> Tensors:
    """See tf1compat.export.torch_state_dict."""
    values = module.tf_variables()
    out: Tensors = {}
    consumed: set = set()
    for prefix, value in mapping.items():
        for entry in (value if isinstance(value, list) else [value]):
            layout, scope, options = _entry(prefix, entry)
            picked, used = _gather(prefix, layout, scope, values)
            consumed.update(used)
            with torch.no_grad():
                converted = layout.convert({k: v.detach() for k, v in picked.items()},
                                           options)
            for name, tensor in converted.items():
                key = f"{prefix}.{name}" if prefix else name
                if key in out:
                    raise ValueError(f"torch_state_dict: two TF layers map to {key!r}")
                out[key] = tensor.contiguous().clone()
    if strict:
        left = sorted(set(values) - consumed)
        if left:
            raise ValueError(f"torch_state_dict: the mapping leaves out variables {left}; "
                             "map them or pass strict=False")
    return out
