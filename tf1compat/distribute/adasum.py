"""Horovod's Adasum reduction on torch.distributed.

Adasum combines two gradients a and b as

    Adasum(a, b) = (1 - a.b / (2 |a|^2)) a + (1 - a.b / (2 |b|^2)) b

(a coefficient stays 1 where the squared norm is below sqrt(DBL_MIN)): parallel components
are averaged, orthogonal ones added. Horovod applies it level by level, rank r with rank
r ^ level for level = 1, 2, 4, ... (its vector-halving, distance-doubling allreduce), each
tensor of a fused buffer with its own dot product and norms, dot products and norms in
double precision and the scaled sum in double rounded to the tensor's dtype. Here every
process gathers the set's buffers (one allgather) and evaluates the same tree locally, so
all get the identical result. The number of processes must be a power of 2, as Horovod
requires on CPU.
"""

from __future__ import annotations

import math
import sys
from typing import List, Sequence

import torch
import torch.distributed as dist

from tf1compat.distribute import process_group as pg
from tf1compat.distribute.process_sets import Members

__all__ = ["pairwise", "tree", "allreduce", "is_power_of_2", "SUPPORTED_DTYPES"]

SUPPORTED_DTYPES = (torch.float16, torch.float32, torch.float64)
_SQRT_DBL_MIN = math.sqrt(sys.float_info.min)


def is_power_of_2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def pairwise(a: torch.Tensor, b: torch.Tensor, counts: Sequence[int]) -> torch.Tensor:
    """Adasum of two flat buffers, tensor by tensor (`counts`: elements per tensor)."""
    out, offset = [], 0
    for n in counts:
        x = a[offset:offset + n].double()
        y = b[offset:offset + n].double()
        dot = float(torch.dot(x, y))
        a_norm_sq = float(torch.dot(x, x))
        b_norm_sq = float(torch.dot(y, y))
        a_coeff = 1.0 - dot / a_norm_sq * 0.5 if a_norm_sq >= _SQRT_DBL_MIN else 1.0
        b_coeff = 1.0 - dot / b_norm_sq * 0.5 if b_norm_sq >= _SQRT_DBL_MIN else 1.0
        out.append((a_coeff * x + b_coeff * y).to(a.dtype))
        offset += n
    return torch.cat(out) if len(out) > 1 else out[0]


def tree(buffers: List[torch.Tensor], counts: Sequence[int]) -> torch.Tensor:
    """Horovod's order: pairs (r, r ^ 1), then (r, r ^ 2) of the results, and so on."""
    level_values = list(buffers)
    while len(level_values) > 1:
        level_values = [pairwise(level_values[i], level_values[i + 1], counts)
                        for i in range(0, len(level_values), 2)]
    return level_values[0]


def allreduce(flat: torch.Tensor, counts: Sequence[int], members: Members,
              name: str) -> torch.Tensor:
    """The Adasum of every process's `flat` (same shape on all) over the set."""
    if members.size == 1:
        return flat
    pieces = [torch.empty_like(flat) for _ in range(members.size)]
    pg.collective(name, lambda: dist.all_gather(pieces, flat, group=members.group))
    return tree(pieces, counts)
