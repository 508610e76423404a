"""`GatherTree`, the op of `tf.contrib.seq2seq.gather_tree` (TF's contrib beam-search op):
follows each final beam's parent pointers back through time to give the full id sequence
of every beam.

Inputs `step_ids` and `parent_ids` are [max_time, batch, beam]; for each (batch, beam) the
sequence is read backwards from step `min(max_time, max_sequence_lengths[batch]) - 1`,
steps past that length hold `end_token`, and every id after the first `end_token` is
`end_token` too. The kernel walks time on the host side and gathers all batch x beam
entries at once on the device.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["gather_tree"]


def _gather_tree_shape(ctx: Any) -> List[TensorShape]:
    ranks = ((0, 3), (1, 3), (2, 1), (3, 0))
    for i, rank in ranks:
        shape = ctx.shape(i)
        if shape.rank is not None and shape.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {shape.rank} "
                             f"{node_desc(ctx)}")
    step, parent = ctx.shape(0), ctx.shape(1)
    try:
        ids = step.merge_with(parent) if step.rank is not None or parent.rank is not None \
            else unknown_shape()
    except ValueError:
        raise ValueError(f"Dimensions must be equal, but are {step} and {parent} "
                         f"{node_desc(ctx)}") from None
    lengths = ctx.shape(2)
    if ids.rank == 3 and lengths.rank == 1:
        batch, length_batch = ids.as_list()[1], lengths.as_list()[0]
        if batch is not None and length_batch is not None and batch != length_batch:
            raise ValueError(f"Dimensions must be equal, but are {batch} and {length_batch} "
                             f"{node_desc(ctx)}")
        if batch is None and length_batch is not None:
            ids = TensorShape([ids.as_list()[0], length_batch, ids.as_list()[2]])
    return [ids]


def _gather_tree_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def gather_tree_op(step_ids: torch.Tensor, parent_ids: torch.Tensor,
                       max_sequence_lengths: torch.Tensor, end_token: torch.Tensor
                       ) -> torch.Tensor:
        if step_ids.shape != parent_ids.shape:
            raise errors.InvalidArgumentError(
                None, None, "step_ids.shape must match parent_ids.shape.  but shapes are: "
                f"{list(step_ids.shape)} and {list(parent_ids.shape)}")
        max_time, batch, beam = (int(d) for d in step_ids.shape)
        if max_sequence_lengths.shape != (batch,):
            raise errors.InvalidArgumentError(
                None, None, "batch size dimensions step_ids.shape[1] and "
                "max_sequence_lengths.shape[0] must match.  but shapes are: "
                f"{list(step_ids.shape)} and {list(max_sequence_lengths.shape)}")
        end = int(end_token)
        beams = torch.full_like(step_ids, end)
        lengths = max_sequence_lengths.clamp(max=max_time).tolist()
        rows = torch.arange(batch, device=step_ids.device).unsqueeze(1).expand(batch, beam)
        for b_len in sorted(set(lengths)):
            if b_len <= 0:
                continue
            which = [b for b, n in enumerate(lengths) if n == b_len]
            sel = torch.tensor(which, device=step_ids.device)
            parent = torch.arange(beam, device=step_ids.device).expand(len(which), beam)
            batch_rows = rows[sel]
            beams[b_len - 1, sel] = step_ids[b_len - 1, sel]
            parent = parent_ids[b_len - 1, sel].long()
            for level in range(b_len - 2, -1, -1):
                bad = (parent < 0) | (parent >= beam)
                if bool(bad.any()):
                    i, j = (int(v) for v in bad.nonzero()[0])
                    raise errors.InvalidArgumentError(
                        None, None, f"Saw invalid parent id {int(parent[i, j])} at "
                        f"(batch, time, beam) == ({which[i]}, {level}, {j})")
                beams[level, sel] = step_ids[level][batch_rows, parent]
                parent = parent_ids[level][batch_rows, parent].long()
        # Ids after a beam's first end_token are end_token (guards user-fed trajectories).
        seen_end = torch.cumsum((beams == end).int(), dim=0)
        after_end = torch.cat([torch.zeros_like(seen_end[:1]), seen_end[:-1]], 0) > 0
        return torch.where(after_end, torch.full_like(beams, end), beams)
    return gather_tree_op


declare("GatherTree",
        inputs=["step_ids: T", "parent_ids: T", "max_sequence_lengths: int32",
                "end_token: T"],
        outputs=["beams: T"], attrs={"T": Type((D.int32,))},
        shape=_gather_tree_shape, kernel=_gather_tree_kernel, grad="none")


def gather_tree(step_ids: Any, parent_ids: Any, max_sequence_lengths: Any, end_token: Any,
                name: Any = None) -> Tensor:
    """`tf.contrib.seq2seq.gather_tree`: full beams from per-step ids and parent pointers."""
    return apply_op("GatherTree", [step_ids, parent_ids, max_sequence_lengths, end_token],
                    name=name).outputs[0]
