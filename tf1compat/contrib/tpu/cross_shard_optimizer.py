"""`tf.contrib.tpu.CrossShardOptimizer` outside a TPU: one shard, so the cross-shard sum
of gradients is the gradients themselves and it behaves as the wrapped optimizer (TF logs
the same warning when the number of shards is unset). TF itself builds CrossReplicaSum ops,
which have no CPU/GPU kernel, so there the optimizer only runs on a TPU; here it runs."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.training.optimizers import Optimizer
from tf1compat.util import tf_logging

__all__ = ["CrossShardOptimizer"]


class CrossShardOptimizer(Optimizer):
    """Averages (`reduction=MEAN`) or sums gradients across TPU shards; on CPU/GPU there
    is one shard."""

    def __init__(self, opt: Optimizer, reduction: str = "weighted_mean",
                 name: str = "CrossShardOptimizer", group_assignment: Any = None):
        # tf.losses.Reduction.SUM / MEAN
        if reduction not in ("weighted_sum", "weighted_mean"):
            raise ValueError(f"Unsupported reduction: {reduction}.")
        if group_assignment is not None:
            raise NotImplementedError("CrossShardOptimizer(group_assignment=...): TPU replica "
                                      "groups are not supported by tf1compat.")
        super().__init__(use_locking=False, name=name)
        self._opt = opt
        self._reduction = reduction

    def compute_gradients(self, loss: Any, var_list: Optional[List[Any]] = None,
                          **kwargs: Any) -> List[Any]:
        tf_logging.warning("CrossShardOptimizer should be used within a tpu_shard_context, but "
                           "got unset number_of_shards. Assuming 1.")
        return self._opt.compute_gradients(loss, var_list=var_list, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        return self._opt.apply_gradients(grads_and_vars, global_step, name)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> List[str]:
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self) -> List[Any]:
        return self._opt.variables()
