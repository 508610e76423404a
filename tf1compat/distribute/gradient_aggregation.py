"""Horovod's `backward_passes_per_step` (graph mode): gradients are accumulated locally
for N backward passes, then allreduced and applied once (Horovod 0.28's
LocalGradientAggregationHelper, as `hvd.DistributedOptimizer` and horovod.keras use it).

Per training step (one run of the train op), in the graph:

* when the counter is 0, the accumulators are cleared; the step's gradients are added to
  them and the counter is incremented;
* when the counter reaches N, the accumulated gradients are allreduced, the counter goes
  back to 0 and the result (divided by N with `average_aggregated_gradients=True`) is
  applied by the wrapped optimizer; on the other steps the local gradients pass through
  unapplied, a Keras optimizer's `iterations` and the `global_step` passed to
  `apply_gradients` are incremented instead (so the global step counts every pass).

The accumulators are local variables (`LOCAL_VARIABLES` and "aggregating_collection") in
the variable scope `aggregation_variables_<name><rank>`: `aggregation_counter` (int32)
and one per gradient named by its index. IndexedSlices gradients need
`sparse_as_dense=True` (Horovod's ValueError otherwise).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, control_dependencies
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.math_ops import divide, equal
from tf1compat.ops.state_ops import assign, assign_add
from tf1compat.variables.collections import variables_initializer
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope
from tf1compat.variables.variable_store import AUTO_REUSE

__all__ = ["EagerGradientAggregation", "LocalGradientAggregation"]


class _Aggregation:
    """What graph and eager aggregation share: Horovod's settings and its rule for
    IndexedSlices (summed as dense tensors, only with `sparse_as_dense`)."""

    def __init__(self, backward_passes_per_step: int,
                 allreduce_grads: Callable[[List[Any], List[Any]], List[Any]],
                 sparse_as_dense: bool, average_aggregated_gradients: bool):
        if backward_passes_per_step <= 0:
            raise ValueError("backward_passes_per_step must be > 0")
        self.backward_passes_per_step = backward_passes_per_step
        self._allreduce_grads = allreduce_grads
        self._sparse_as_dense = sparse_as_dense
        self._average = average_aggregated_gradients

    def _dense(self, grad: Any) -> Any:
        if isinstance(grad, IndexedSlices):
            if not self._sparse_as_dense:
                raise ValueError("IndexedSlices are not supported when "
                                 "`backward_passes_per_step` > 1 and `sparse_as_dense` is "
                                 "False.")
            return convert_to_tensor(grad)
        return grad


class LocalGradientAggregation(_Aggregation):
    """Accumulates gradients for `backward_passes_per_step` passes before
    `allreduce_grads(grads, variables)` exchanges them."""

    def __init__(self, backward_passes_per_step: int,
                 allreduce_grads: Callable[[List[Any], List[Any]], List[Any]],
                 sparse_as_dense: bool, average_aggregated_gradients: bool, rank: int,
                 name: str = "", keras_session: bool = False):
        super().__init__(backward_passes_per_step, allreduce_grads, sparse_as_dense,
                         average_aggregated_gradients)
        self._scope_name = f"aggregation_variables_{name}{rank}"
        self._keras_session = keras_session
        self.counter: Any = None
        self._accumulators: List[Any] = []

    def _create_variables(self, grads: List[Any]) -> None:
        with variable_scope(self._scope_name, reuse=AUTO_REUSE):
            self.counter = get_variable("aggregation_counter", shape=(), dtype=dtypes.int32,
                                        trainable=False, initializer=zeros_initializer(),
                                        collections=[GraphKeys.LOCAL_VARIABLES])
            self._accumulators = []
            for index, grad in enumerate(grads):
                if grad is None:
                    continue
                grad = self._dense(grad)
                self._accumulators.append(get_variable(
                    str(index), trainable=False,
                    initializer=zeros(grad.shape.as_list(), dtype=grad.dtype),
                    collections=[GraphKeys.LOCAL_VARIABLES, "aggregating_collection"]))
        if self._keras_session:
            # (Keras' session initializes only the model's variables: these now.)
            from tf1compat.keras import backend
            backend.get_session().run(variables_initializer(
                [self.counter] + self._accumulators))

    def compute_gradients(self, grads: List[Any], variables: List[Any]) -> List[Any]:
        """This step's gradients added to the accumulators; every N-th step the
        accumulated gradients allreduced, else the local gradients (to be ignored)."""
        self._create_variables(grads)
        clear = cond(equal(self.counter, 0),
                     lambda: group(*[assign(a, a.initial_value) for a in self._accumulators]),
                     no_op)
        with control_dependencies([clear]):
            added = [assign_add(a, self._dense(g))
                     for a, g in zip(self._accumulators, [g for g in grads if g is not None])]
        with control_dependencies([group(*added)]):
            bumped = assign_add(self.counter, 1)
        present = [i for i, g in enumerate(grads) if g is not None]
        with control_dependencies([bumped]):
            reduced = cond(equal(self.counter, self.backward_passes_per_step),
                           lambda: self._allreduce([variables[i] for i in present]),
                           lambda: [self._dense(grads[i]) for i in present])
        if not isinstance(reduced, (list, tuple)):
            reduced = [reduced]
        out: List[Any] = [None] * len(grads)
        for i, r in zip(present, reduced):
            out[i] = r
        return out

    def _allreduce(self, variables: List[Any]) -> List[Any]:
        values = [a.read_value() for a in self._accumulators]
        with control_dependencies([group(*values)]):
            reduced = self._allreduce_grads(values, variables)
            with control_dependencies([r.op for r in reduced if r is not None]):
                reset = assign(self.counter, 0, use_locking=True)
            with control_dependencies([reset]):
                divisor = self.backward_passes_per_step if self._average else 1
                return [divide(r, divisor) if r is not None else None for r in reduced]

    def apply_gradients(self, apply: Callable[[], Any], grads: List[Any],
                        iterations: Optional[Any] = None, global_step: Optional[Any] = None
                        ) -> Any:
        """`apply()` on the steps that allreduced; on the others `iterations` (a Keras
        optimizer's) and `global_step` are incremented instead."""

        def skip() -> Any:
            return assign_add(iterations, 1).op if iterations is not None else no_op()

        def count_step() -> Any:
            if global_step is None:
                return no_op()
            return assign_add(global_step, convert_to_tensor(1, dtype=global_step.dtype),
                              use_locking=True).op
        with control_dependencies([group(*[g for g in grads if g is not None])]):
            applied = cond(equal(self.counter, 0), apply, skip)
        with control_dependencies([applied]):
            return cond(equal(self.counter, 0), no_op, count_step)


class EagerGradientAggregation(_Aggregation):
    """`backward_passes_per_step` under eager execution (Horovod 0.28's eager helper):
    each call adds the gradients to local sums and counts the pass; the N-th pass
    allreduces the sums (divided by N with `average_aggregated_gradients=True`), clears
    them and lets `apply_gradients` apply; the other passes return the sums so far and
    only increment the optimizer's `iterations`."""

    def __init__(self, backward_passes_per_step: int,
                 allreduce_grads: Callable[[List[Any], List[Any]], List[Any]],
                 sparse_as_dense: bool, average_aggregated_gradients: bool):
        super().__init__(backward_passes_per_step, allreduce_grads, sparse_as_dense,
                         average_aggregated_gradients)
        self.counter = 0
        self._sums: Dict[int, Any] = {}

    def compute_gradients(self, grads: List[Any], variables: List[Any]) -> List[Any]:
        """The sums after this pass; on the N-th pass their allreduced values."""
        out: List[Any] = []
        for index, grad in enumerate(grads):
            grad = self._dense(grad)
            if grad is None:
                out.append(None)
                continue
            total = self._sums.get(index)
            self._sums[index] = grad if total is None else total + grad
            out.append(self._sums[index])
        self.counter += 1
        if self.counter != self.backward_passes_per_step:
            return out
        reduced = self._allreduce_grads(out, variables)
        if self._average:
            reduced = [divide(r, self.backward_passes_per_step) if r is not None else None
                       for r in reduced]
        self.counter = 0
        self._sums = {}
        return list(reduced)

    def apply_gradients(self, apply: Callable[[], Any], grads: List[Any],
                        iterations: Optional[Any] = None, global_step: Optional[Any] = None
                        ) -> Any:
        """`apply()` after an allreducing pass; else `iterations` (and `global_step`)
        incremented."""
        if self.counter == 0:
            return apply()
        if global_step is not None:
            global_step.assign_add(1)
        return iterations.assign_add(1) if iterations is not None else None
