"""`SkipGramGenerateCandidates`, the op of TF 1.15's `tf.contrib.text.skip_gram_sample`:
all (token, label) pairs of a rank-1 tensor's elements whose distance is within a window
drawn per token.

As TF's kernel: over elements [start, end) (end = the size for limit < 0, else
min(start + limit, size)), each token i draws its window `min_skips + Uniform(max_skips
- min_skips + 1)` from the op's Philox stream (seed, seed2; one uint32 per draw, exact
by rejection as TF's SimplePhilox::Uniform, and end - start + 1 samples reserved per
run) and emits the labels i - skips ... i + skips that lie in [start, end), itself only
with emit_self_as_target.
"""

from __future__ import annotations

from typing import Any, Callable, List

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _philox as philox
from tf1compat.ops._random_stream import RandomStream
from tf1compat.ops._shape_rules import node_desc

__all__ = ["skip_gram_generate_candidates"]


class _Draws:
    """TF's SimplePhilox from a reserved counter: uint32 words one at a time (rejections
    read on past the reserved stretch, as TF's generator copy does)."""

    def __init__(self, key: int, counter: int, count: int) -> None:
        self._key, self._counter = key, counter
        self._words: List[int] = []
        self._next = 0
        self._fill(-(-count // 4))

    def _fill(self, blocks: int) -> None:
        self._words += philox.blocks(self._key, self._counter, blocks).reshape(-1).tolist()
        self._counter = (self._counter + blocks) & philox.MASK128

    def uniform(self, n: int) -> int:
        """An integer in [0, n), n >= 1 (TF's ExactUniformInt<uint32>)."""
        if n & (n - 1) == 0:
            return self._rand32() & (n - 1)
        reject_below = 0xFFFFFFFF % n + 1
        while True:
            value = self._rand32()
            if value >= reject_below:
                return value % n

    def _rand32(self) -> int:
        if self._next == len(self._words):
            self._fill(1)
        value = self._words[self._next]
        self._next += 1
        return value


def _shape(ctx: Any) -> List[TensorShape]:
    for i, rank in enumerate((1, 0, 0, 0, 0, 0)):
        shape = ctx.shape(i)
        if shape.rank is not None and shape.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {shape.rank} "
                             f"{node_desc(ctx)}")
    return [TensorShape([None]), TensorShape([None])]


def _kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    seed, seed2 = node.attrs["seed"], node.attrs["seed2"]
    stream = kctx.op_resource(lambda: RandomStream(seed, seed2))

    def skip_gram_op(tokens: Any, min_skips: Any, max_skips: Any, start: Any, limit: Any,
                     emit_self: Any) -> tuple:
        low, high = int(min_skips), int(max_skips)
        if low < 0 or high < 0:
            raise errors.InvalidArgumentError(
                None, None, "Both min_skips and max_skips must be >= 0.")
        if low > high:
            raise errors.InvalidArgumentError(None, None, "min_skips must be <= max_skips.")
        size = int(tokens.shape[0])
        first, count = int(start), int(limit)
        end = size if count < 0 else min(first + count, size)
        emit_self = bool(emit_self)
        samples = end - first + 1
        draws = _Draws(stream.key, stream.reserve(-(-samples // 4)), max(samples, 0))
        token_at: List[int] = []
        label_at: List[int] = []
        for i in range(first, end):
            skips = low + draws.uniform(high - low + 1)
            for j in range(max(first, i - skips), min(end, i + skips + 1)):
                if j != i or emit_self:
                    token_at.append(i)
                    label_at.append(j)
        if isinstance(tokens, np.ndarray):
            return (tokens[np.array(token_at, dtype=np.int64)],
                    tokens[np.array(label_at, dtype=np.int64)])
        index = torch.tensor(token_at, dtype=torch.int64, device=tokens.device)
        label_index = torch.tensor(label_at, dtype=torch.int64, device=tokens.device)
        return tokens[index], tokens[label_index]
    return skip_gram_op


declare("SkipGramGenerateCandidates",
        inputs=["input_tensor: T", "min_skips: int32", "max_skips: int32", "start: int32",
                "limit: int32", "emit_self_as_target: bool"],
        outputs=["tokens: T", "labels: T"], attrs={"T": Type(), "seed": 0, "seed2": 0},
        shape=_shape, kernel=_kernel, grad="none", stateful=True)


def skip_gram_generate_candidates(input_tensor: Any, min_skips: Any, max_skips: Any,
                                  start: Any, limit: Any, emit_self_as_target: Any,
                                  seed: int = 0, seed2: int = 0, name: Any = None) -> tuple:
    """The raw op: (tokens, labels)."""
    op = apply_op("SkipGramGenerateCandidates",
                  [input_tensor, min_skips, max_skips, start, limit, emit_self_as_target],
                  {"seed": seed, "seed2": seed2}, name=name)
    return op.outputs[0], op.outputs[1]
