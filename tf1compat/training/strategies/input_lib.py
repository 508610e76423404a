"""Input for the replicas of a strategy (TF1 API).

* `strategy.make_dataset_iterator(dataset)` / `experimental_distribute_dataset(dataset)`:
  the dataset's elements are global batches; each is split along its first dimension
  into `num_replicas_in_sync` per-replica batches (TF's rebatching: sizes as even as
  possible, the first replicas get the extra rows).
* `strategy.make_input_fn_iterator(input_fn)`: `input_fn(InputContext)` returns a dataset
  (or a callable giving the element); each replica takes its own next element, replica 0
  first — per-replica batches, what Estimator's `train_distribute` feeds.

Both return values as `PerReplica` (the plain value with one replica).
"""

from __future__ import annotations

from typing import Any, Callable, List

from tf1compat.training.strategies.distribute_lib import InputContext, Strategy
from tf1compat.training.strategies.values import regroup

__all__ = ["DatasetIterator", "InputFunctionIterator", "DistributedDataset",
           "DistributedDatasetFromFunction"]


def _is_dataset(value: Any) -> bool:
    from tf1compat.data.dataset_ops import DatasetV2
    return isinstance(value, DatasetV2)


def split_global_batch(value: Any, num_replicas: int) -> List[Any]:
    """A global batch -> per-replica batches along axis 0."""
    from tf1compat.ops import array_ops, math_ops
    from tf1compat.util import nest
    flat = nest.flatten(value)
    parts: List[List[Any]] = [[] for _ in range(num_replicas)]
    for tensor in flat:
        rows = array_ops.shape(tensor)[0]
        sizes = [math_ops.floordiv(rows + (num_replicas - 1 - k), num_replicas)
                 for k in range(num_replicas)]
        pieces = array_ops.split(tensor, array_ops.stack(sizes), axis=0, num=num_replicas)
        for k, piece in enumerate(pieces):
            parts[k].append(piece)
    return [nest.pack_sequence_as(value, p) for p in parts]


class DatasetIterator:
    """`make_dataset_iterator`'s iterator: each global batch split over the replicas."""

    def __init__(self, dataset: Any, strategy: Strategy, one_shot: bool = False):
        if not _is_dataset(dataset):
            raise ValueError(f"Expected a tf.data.Dataset, got {dataset!r}")
        self._strategy = strategy
        extended = strategy.extended
        self._workers = getattr(extended, "_num_input_pipelines", 1)
        if self._workers > 1:
            # Between-graph (one process per worker): TF's auto-sharding gives this
            # worker its files (FILE) or its part of each global batch (DATA).
            from tf1compat.data.auto_shard import auto_shard_dataset
            dataset = auto_shard_dataset(dataset, self._workers, extended._input_pipeline_id,
                                         strategy.num_replicas_in_sync)
        self._iterator = dataset.make_one_shot_iterator() if one_shot else \
            dataset.make_initializable_iterator()
        self._one_shot = one_shot

    def get_next(self, name: Any = None) -> Any:
        element = self._iterator.get_next()
        n = self._strategy.num_replicas_in_sync
        if n == 1:
            return element
        if self._workers > 1:       # this worker's part: its replicas' parts
            return regroup(split_global_batch(element,
                                              len(self._strategy.extended.worker_devices)))
        return regroup(split_global_batch(element, n))

    def __iter__(self) -> "DatasetIterator":
        return self

    def __next__(self) -> Any:
        """`next(iterator)`: the same as `get_next()` (TF's distributed iterators are Python
        iterators, in graph mode too)."""
        return self.get_next()

    def initialize(self) -> List[Any]:
        """The initializer ops (run them before `get_next`)."""
        return [] if self._one_shot else [self._iterator.initializer]

    @property
    def initializer(self) -> Any:
        from tf1compat.ops.control_flow_ops import group
        return group(*self.initialize())

    @property
    def output_shapes(self) -> Any:
        return self._iterator.output_shapes

    @property
    def output_types(self) -> Any:
        return self._iterator.output_types

    @property
    def element_spec(self) -> Any:
        return self._iterator.element_spec


class InputFunctionIterator:
    """`make_input_fn_iterator`'s iterator: one element per replica per step."""

    def __init__(self, input_fn: Callable[..., Any], strategy: Strategy):
        self._strategy = strategy
        extended = strategy.extended
        context = InputContext(num_input_pipelines=extended._num_input_pipelines,
                               input_pipeline_id=extended._input_pipeline_id,
                               num_replicas_in_sync=strategy.num_replicas_in_sync)
        result = input_fn(context)
        self._iterator = None
        self._callable = None
        if _is_dataset(result):
            self._iterator = result.make_initializable_iterator()
        elif callable(result):
            self._callable = result
        else:
            raise ValueError("input_fn must return a tf.data.Dataset or a callable.")

    def get_next(self, name: Any = None) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.util import nest
        elements: List[Any] = []
        for _ in range(len(self._strategy.extended.worker_devices)):   # this worker's
            # Replica k's element is the k-th of the step: order the reads.
            previous = [t for t in nest.flatten(elements[-1]) if hasattr(t, "op")] \
                if elements else []
            with control_dependencies([t.op for t in previous]):
                elements.append(self._iterator.get_next() if self._iterator is not None
                                else self._callable())
        return regroup(elements)

    def initialize(self) -> List[Any]:
        return [self._iterator.initializer] if self._iterator is not None else []

    @property
    def initializer(self) -> Any:
        from tf1compat.ops.control_flow_ops import group
        return group(*self.initialize())


class DistributedDataset:
    """`experimental_distribute_dataset`'s result (TF1: make an iterator of it)."""

    def __init__(self, dataset: Any, strategy: Strategy):
        if not _is_dataset(dataset):
            raise ValueError(f"Expected a tf.data.Dataset, got {dataset!r}")
        self._dataset = dataset
        self._strategy = strategy

    def make_initializable_iterator(self) -> DatasetIterator:
        return DatasetIterator(self._dataset, self._strategy)

    def make_one_shot_iterator(self) -> DatasetIterator:
        return DatasetIterator(self._dataset, self._strategy, one_shot=True)

    def __iter__(self) -> Any:
        raise RuntimeError("__iter__() is only supported inside of tf.function or when "
                           "eager execution is enabled.")


class DistributedDatasetFromFunction:
    """`distribute_datasets_from_function`'s result: per-replica elements of
    `dataset_fn(InputContext)`."""

    def __init__(self, dataset_fn: Callable[..., Any], strategy: Strategy):
        self._dataset_fn = dataset_fn
        self._strategy = strategy

    def make_initializable_iterator(self) -> InputFunctionIterator:
        return InputFunctionIterator(self._dataset_fn, self._strategy)
