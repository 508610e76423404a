"""TF's random ops on torch's generator, for modules exported with `random_ops="torch"`.

By default an exported module draws random numbers as the Session does: from TF's
Philox streams, one per op, computed in numpy (ops/_random_stream.py), so a fresh module
and a fresh Session give the same dropout masks. Those streams live in Python, which
torch.export cannot capture and which costs a host round trip per op on a GPU. With
`random_ops="torch"` the same op types sample from torch's global generator instead
(seeded by `torch.manual_seed`): the same distributions, other numbers.

| TF op type | torch sampler |
|---|---|
| RandomUniform | `torch.rand` |
| RandomStandardNormal | `torch.randn` |
| TruncatedNormal | `torch.nn.init.trunc_normal_` on [-2, 2] (TF redraws outside two standard deviations) |
| RandomUniformInt | `torch.randint` |
| RandomShuffle | indexing with `torch.randperm` |
| Multinomial | `torch.multinomial` of the softmax, with replacement |
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List

import torch

from tf1compat.ops._kernels import as_int_list, static_ints

__all__ = ["TORCH_SAMPLERS"]


def _dims(node: Any) -> Callable[[Any], List[int]]:
    static = static_ints(node, 0)
    if static is not None:
        return lambda shape: static
    return as_int_list


def _sampler(draw: Callable[..., torch.Tensor]) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        dims = _dims(node)
        dtype = node.attrs["dtype"].torch_dtype
        device = kctx.device
        return lambda shape: draw(dims(shape), dtype=dtype, device=device)
    return factory


def _truncated_normal(dims: List[int], dtype: torch.dtype, device: torch.device) -> Any:
    return torch.nn.init.trunc_normal_(torch.empty(dims, dtype=dtype, device=device),
                                       0.0, 1.0, -2.0, 2.0)


def _uniform_int(node: Any, kctx: Any) -> Callable[..., Any]:
    dims = _dims(node)
    dtype = node.attrs["Tout"].torch_dtype
    device = kctx.device
    return lambda shape, low, high: torch.randint(int(low), int(high), dims(shape),
                                                  dtype=dtype, device=device)


def _shuffle(node: Any, kctx: Any) -> Callable[..., Any]:
    def shuffle(x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 0 or x.shape[0] <= 1:
            return x
        return x[torch.randperm(x.shape[0], device=x.device)]
    return shuffle


def _multinomial(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["output_dtype"].torch_dtype

    def multinomial(logits: torch.Tensor, num: Any) -> torch.Tensor:
        probs = torch.softmax(logits.float(), dim=-1)
        return torch.multinomial(probs, int(num), replacement=True).to(dtype)
    return multinomial


# TF op type -> kernel factory (node, kctx) -> kernel, as the op's own declaration's.
TORCH_SAMPLERS: Dict[str, Callable[[Any, Any], Callable[..., Any]]] = {
    "RandomUniform": _sampler(torch.rand),
    "RandomStandardNormal": _sampler(torch.randn),
    "TruncatedNormal": _sampler(_truncated_normal),
    "RandomUniformInt": _uniform_int,
    "RandomShuffle": _shuffle,
    "Multinomial": _multinomial,
}
