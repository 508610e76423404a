"""A pool of past values (TF 1.14's random_tensor_pool_impl.py), e.g. generated images
fed to the discriminator (Shrivastava et al. 2017): a RandomShuffleQueue of up to
`pool_size` entries; once full, each call returns with probability
`pooling_probability` a random earlier value (and puts the new one in its place),
otherwise the new value."""

from __future__ import annotations

from typing import Any, List

from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import identity
from tf1compat.ops.cond import cond
from tf1compat.ops.queue_ops import RandomShuffleQueue
from tf1compat.ops.random_ops import random_uniform
from tf1compat.util import nest

__all__ = ["tensor_pool"]


def _as_list(x: Any) -> List[Any]:
    return [x] if isinstance(x, Tensor) else list(x)


def tensor_pool(input_values: Any, pool_size: int = 50, pooling_probability: Any = 0.5,
                name: str = "tensor_pool") -> Any:
    """The pooled counterpart of `input_values` (a tensor or a nest of them, pooled
    together), same structure and static shapes; `pool_size` 0 returns the input."""
    pool_size = int(pool_size)
    if pool_size < 0:
        raise ValueError("`pool_size` is negative.")
    if pool_size == 0:
        return input_values
    flat = nest.flatten(input_values)
    with name_scope(f"{name}_pool_queue", values=flat + [pooling_probability]):
        queue = RandomShuffleQueue(capacity=pool_size, min_after_dequeue=0,
                                   dtypes=[v.dtype for v in flat], shapes=None)

        def fill_pool() -> List[Any]:
            with control_dependencies([queue.enqueue(flat)]):
                return [identity(v) for v in flat]

        def swap_with_pool() -> Any:
            pooled = _as_list(queue.dequeue())
            with control_dependencies(pooled):
                with control_dependencies([queue.enqueue(flat)]):
                    use_pooled = random_uniform((), dtype=dtypes.float32) < \
                        pooling_probability
                    return cond(use_pooled, lambda: pooled, lambda: flat)
        outputs = _as_list(cond(queue.size() < pool_size, fill_pool, swap_with_pool))
        for value, output in zip(flat, outputs):
            output.set_shape(value.shape)
    return nest.pack_sequence_as(input_values, outputs)
