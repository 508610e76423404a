"""`tf.train.SyncReplicasOptimizer` between processes: workers' gradients averaged per step.

In a process running a `tf.train.Server` of a cluster with ps and worker jobs, each step's
gradients go to ps task 0, which waits until `replicas_to_aggregate` workers have sent the
gradients of that global step and returns their average to all of them; every worker then
applies the same averaged update, and its session sends the updated values to the ps
tasks as values (server.py's `SYNC_REPLICAS_COLLECTION`). The result equals one process
training on the workers' combined batch.

Backup workers (`total_num_replicas > replicas_to_aggregate`): as TF's accumulators, a step
takes the first `replicas_to_aggregate` gradients computed at that global step; gradients
that arrive once their step is complete are stale and dropped. The late worker's run then
changes nothing on the ps (its session does not push that run, `server.discard_run`) and
its next run starts from the current values, as a TF worker continues with the token of
the new global step. Fewer workers than gradients per step (`total_num_replicas <
replicas_to_aggregate`): as TF's token queue, which the chief fills with
`replicas_to_aggregate - total_num_replicas` spare tokens and each completed step refills
with `replicas_to_aggregate`, a run whose gradient does not complete its step returns at
once while a spare token is left (changing nothing: its worker computes another gradient at
the same step), else waits for the step; the update is the mean of the step's
`replicas_to_aggregate` gradients, all computed at that step's weights. The exchange runs
in a `PyFunc` op (`tf.py_func`) fed by the gradients and the global step. Without such a
cluster it is the one-process pass-through of training/optimizers/sync_replicas.py.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import torch.distributed.rpc as rpc

from tf1compat.distribute import local_cluster as _local_cluster
from tf1compat.distribute import server as _server
from tf1compat.framework import errors
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.script_ops import py_func
from tf1compat.training.optimizers import sync_replicas as _single_process

__all__ = ["SyncReplicasOptimizer"]


class _Aggregation:
    """On ps task 0: the gradients received per global step, until all replicas took
    their average."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.steps: Dict[Any, Dict[str, Any]] = {}
        # The last global step completed, per optimizer: older gradients are stale.
        self.completed: Dict[str, int] = {}
        # TF's token queue, per optimizer, where fewer workers than gradients per step
        # run (total_num_replicas < replicas_to_aggregate).
        self.tokens: Dict[str, int] = {}


_AGGREGATION = _Aggregation()


def _aggregate(key: Any, grads: List[np.ndarray], replicas: int, timeout: float,
               workers: Optional[int] = None) -> Optional[List[np.ndarray]]:
    """Runs on ps task 0 (over rpc): blocks until `replicas` gradients of step `key` came;
    None for a gradient whose run must change nothing: a stale one (its step is complete:
    dropped), or, with fewer `workers` than `replicas`, one that took a spare token of
    TF's token queue (the chief's init tokens hold replicas - workers of them, each
    completed step adds `replicas`): that worker runs again at the same step."""
    optimizer = key[0]
    spare = replicas - (workers or replicas)
    with _AGGREGATION.condition:
        if key[1] <= _AGGREGATION.completed.get(optimizer, -1):
            return None
        if spare > 0:
            _AGGREGATION.tokens.setdefault(optimizer, spare)
        entry = _AGGREGATION.steps.setdefault(key, {"sum": None, "count": 0, "result": None,
                                                    "readers": 0})
        if entry["sum"] is None:
            entry["sum"] = [np.array(g, copy=True) for g in grads]
        else:
            for total, g in zip(entry["sum"], grads):
                total += g
        entry["count"] += 1
        if entry["count"] == replicas:
            entry["result"] = [(total / replicas).astype(total.dtype) for total in entry["sum"]]
            _AGGREGATION.completed[optimizer] = max(key[1], _AGGREGATION.completed.get(
                optimizer, -1))
            if spare > 0:
                _AGGREGATION.tokens[optimizer] += replicas
            _AGGREGATION.condition.notify_all()
        elif spare > 0 and _AGGREGATION.tokens[optimizer] > 0:
            _AGGREGATION.tokens[optimizer] -= 1
            return None
        else:
            entry["readers"] += 1
            done = _AGGREGATION.condition.wait_for(lambda: entry["result"] is not None,
                                                   timeout)
            entry["readers"] -= 1
            if not done:
                # The step failed: a later call (a retry) must not complete it with stale
                # sums.
                if _AGGREGATION.steps.get(key) is entry:
                    del _AGGREGATION.steps[key]
                raise TimeoutError(f"SyncReplicasOptimizer: {entry['count']} of {replicas} "
                                   f"replicas sent their gradients for global step {key[1]} "
                                   f"within {timeout:g} s")
        if spare > 0:
            _AGGREGATION.tokens[optimizer] -= 1
        if entry["readers"] == 0 and _AGGREGATION.steps.get(key) is entry:
            del _AGGREGATION.steps[key]
        return entry["result"]


def _on_ps_job(grads_and_vars: Sequence[Any]) -> bool:
    """Whether a variable being updated is placed on a ps task (replica_device_setter)."""
    return any("/job:ps" in (getattr(v, "device", "") or "") for _, v in grads_and_vars)


class SyncReplicasOptimizer(_single_process.SyncReplicasOptimizer):
    """`tf.train.SyncReplicasOptimizer` (see the module docstring)."""

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        grads_and_vars = list(grads_and_vars)
        server = _server.active_server()
        local = _local_cluster.current_cluster() if server is None else None
        if local is not None and not _on_ps_job(grads_and_vars):
            local = None        # a graph of its own, not placed on the local cluster's ps
        cluster = server.cluster if server is not None else local.spec if local else None
        if cluster is None or "ps" not in cluster.jobs:
            return super().apply_gradients(grads_and_vars, global_step, name)
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("Must supply at least one variable")
        grads = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g, _ in pairs]
        # Steps are told apart per cluster (a local cluster's aggregation is in-process).
        key_prefix = self._name if local is None else f"{self._name}@{id(local)}"
        averaged = self._averaged(grads, global_step, key_prefix, in_process=local is not None)
        # The marker is the exchange op, which a .meta can write (a node name), not a bool.
        get_default_graph().add_to_collection(_server.SYNC_REPLICAS_COLLECTION, averaged[0].op)
        # The pass-through applies the averaged gradients with the wrapped optimizer; the
        # counts come back after, so a later graph (Estimator.train again) aggregates too.
        counts = self._replicas_to_aggregate, self._total_num_replicas
        self._replicas_to_aggregate = self._total_num_replicas = 1
        try:
            return super().apply_gradients([(a, v) for a, (_, v) in zip(averaged, pairs)],
                                           global_step, name)
        finally:
            self._replicas_to_aggregate, self._total_num_replicas = counts

    def _averaged(self, grads: Sequence[Any], global_step: Any, key_prefix: str,
                  in_process: bool) -> List[Any]:
        """The gradients averaged on ps task 0 (over rpc; in this process for a local
        cluster, whose sessions run as threads of it)."""
        replicas, workers = self._replicas_to_aggregate, self._total_num_replicas

        def exchange(step: Any, *values: np.ndarray) -> List[np.ndarray]:
            timeout = _server.rpc_timeout()
            arguments = ((key_prefix, int(step)), list(values), replicas, timeout, workers)
            try:
                averaged = _aggregate(*arguments) if in_process else rpc.rpc_sync(
                    _server.task_name("ps", 0), _aggregate, args=arguments,
                    timeout=2 * timeout + 5)
                if averaged is None:
                    # Stale, or a spare token's run: this run's updates are dropped (not
                    # pushed to the ps).
                    _server.discard_run()
                    return list(values)
                return averaged
            except TimeoutError as e:
                raise errors.DeadlineExceededError(None, None, str(e)) from e
            except RuntimeError as e:
                if "timeout" in str(e).lower():
                    # A remote TimeoutError arrives as a RuntimeError with the ps traceback:
                    # keep its message line.
                    lines = [ln for ln in str(e).splitlines() if ln.startswith("TimeoutError:")]
                    cause = lines[-1] if lines else str(e).strip().splitlines()[0]
                    raise errors.DeadlineExceededError(
                        None, None, f"SyncReplicasOptimizer: no average of the replicas' "
                                    f"gradients for global step {int(step)}: {cause}") from e
                raise errors.UnavailableError(None, None, "SyncReplicasOptimizer: the "
                                              f"parameter server cannot be reached: {e}") from e

        out = py_func(exchange, [global_step] + list(grads), [g.dtype for g in grads],
                      stateful=True, name="sync_replicas_average")
        out = out if isinstance(out, (list, tuple)) else [out]
        for a, g in zip(out, grads):
            a.set_shape(g.shape)
        return list(out)
