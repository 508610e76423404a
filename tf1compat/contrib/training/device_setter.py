"""`tf.contrib.training`'s parameter-server placement strategies (TF 1.15
contrib/training/python/training/device_setter.py), the `ps_strategy` of
`tf.train.replica_device_setter`:

    setter = tf.train.replica_device_setter(
        ps_tasks=3, ps_strategy=tf.contrib.training.GreedyLoadBalancingStrategy(
            3, tf.contrib.training.byte_size_load_fn))
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

import numpy as np

from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["RandomStrategy", "GreedyLoadBalancingStrategy", "byte_size_load_fn"]


class RandomStrategy:
    """Places each op on the ps task its name's MD5 hash (with `seed`) picks."""

    def __init__(self, num_ps_tasks: int, seed: int = 0):
        self._num_tasks = num_ps_tasks
        self._seed = seed

    def __call__(self, op: Any) -> int:
        key = f"{op.name}_{self._seed}".encode("utf-8")
        return int(int(hashlib.md5(key).hexdigest(), 16) % self._num_tasks)


class GreedyLoadBalancingStrategy:
    """Places each op on the least loaded ps task so far (the first on ties), adding
    `load_fn(op)` to that task's load."""

    def __init__(self, num_tasks: int, load_fn: Callable[[Any], float]):
        self._num_tasks = num_tasks
        self._load_fn = load_fn
        self._ps_loads = np.zeros(num_tasks)

    def __call__(self, op: Any) -> int:
        task = np.argmin(self._ps_loads)
        self._ps_loads[task] += self._load_fn(op)
        return task


def byte_size_load_fn(op: Any) -> int:
    """The byte size of `op`'s one output (a variable's shape attr where the output's
    shape is not fully known)."""
    if len(op.outputs) != 1:
        raise ValueError("Op %s must have a single output" % op)
    output = op.outputs[0]
    shape = output.get_shape()
    if not shape.is_fully_defined():
        shape = TensorShape(op.get_attr("shape"))
    shape.assert_is_fully_defined()
    return shape.num_elements() * output.dtype.size
