"""`tf.estimator.inputs.numpy_input_fn`: an input_fn over numpy arrays.

TF feeds the arrays through a FIFO/RandomShuffle queue filled by Python threads: a feeder
pushes chunks of `batch_size` consecutive rows (from a random start row when shuffling;
epochs counted from that row) and `dequeue_many` / `dequeue_up_to` takes batches out, in
order or - from a RandomShuffleQueue holding at least `queue_capacity / 4` rows - at random.
Here the same feeder and queue run as one Python generator over row indices, batches are
gathered from the arrays with numpy indexing, and a `Dataset.from_generator` pipeline with a
one-shot iterator hands them to the graph, so the arrays are not copied into the graph (nor
into `graph.pbtxt` / `.meta` files). Batches are TF's: epochs run into each other, the last
batch is smaller when `num_epochs` is set; with `num_epochs=None` the batch dimension is
static. A shuffled input consumes one op seed of the graph, as TF's queue does; the shuffled
order is deterministic under a graph seed (TF's depends on Python's `random` and is not) and
differs from TF's. `num_threads` feeders are one here.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Iterator, Optional

import numpy as np

__all__ = ["numpy_input_fn", "dataset_feeding_input"]

_TARGET_KEY = "__target_key__"


def _unique_target_key(features: Dict[str, Any]) -> str:
    key = _TARGET_KEY
    while key in features:
        key += "_n"
    return key


def _features_as_ordered_dict(x: Any) -> "collections.OrderedDict[str, np.ndarray]":
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted(x.items(), key=lambda t: t[0]))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({"__direct_np_input__": x})
    raise TypeError(f"x must be a dict or array; got {type(x).__name__}")


def _as_feedable(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind in "US":
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                            otypes=[object])(array)
    return array


def _row_batches(n: int, batch_size: int, num_epochs: Optional[int], shuffle: bool,
                 queue_capacity: int, rng: np.random.RandomState) -> Iterator[np.ndarray]:
    """Row indices of each batch, as TF's feeder thread and (shuffle) queue produce them."""
    while batch_size == 0:  # TF's feeder enqueues nothing and dequeue_many(0) returns empty
        yield np.empty(0, np.int64)
    remaining = None if num_epochs is None else num_epochs * n
    trav = int(rng.randint(n)) if shuffle else 0
    min_after_dequeue = max(queue_capacity // 4, 1) if shuffle else 0
    queue = np.empty(0, np.int64)
    while True:
        while (remaining is None or remaining > 0) and \
                len(queue) < min_after_dequeue + batch_size:
            take = batch_size if remaining is None else min(batch_size, remaining)
            chunk = (trav + np.arange(take, dtype=np.int64)) % n
            trav = (trav + take) % n
            if remaining is not None:
                remaining -= take
            queue = np.concatenate([queue, chunk])
        if not len(queue):
            return
        take = min(batch_size, len(queue))
        if shuffle:
            picked = rng.choice(len(queue), size=take, replace=False)
            batch = queue[picked]
            queue = np.delete(queue, picked)
        else:
            batch, queue = queue[:take], queue[take:]
        yield batch


def dataset_feeding_input(columns: "collections.OrderedDict[str, np.ndarray]",
                          batch_size: int, num_epochs: Optional[int], shuffle: bool,
                          queue_capacity: int) -> Dict[str, Any]:
    """Batched tensors of the named numpy columns (all of one length)."""
    from tf1compat.data.dataset_ops import Dataset
    from tf1compat.data.iterator_ops import make_one_shot
    from tf1compat.framework import dtypes
    from tf1compat.framework.random_seed import get_seed
    from tf1compat.framework.tensor_shape import TensorShape
    if batch_size < 0:
        raise ValueError(f"batch_size must be non-negative; got {batch_size}")
    arrays = collections.OrderedDict(
        (name, _as_feedable(np.asarray(array))) for name, array in columns.items())
    n = len(next(iter(arrays.values())))
    types = collections.OrderedDict(
        (name, dtypes.string if a.dtype == object else dtypes.as_dtype(a.dtype))
        for name, a in arrays.items())
    rows = batch_size if num_epochs is None else None
    shapes = collections.OrderedDict(
        (name, TensorShape([rows] + list(a.shape[1:]))) for name, a in arrays.items())
    seeds = get_seed(None) if shuffle else (None, None)
    seed = None if seeds[0] is None else [seeds[0] % 2 ** 32, seeds[1] % 2 ** 32]

    def generator() -> Iterator[Dict[str, np.ndarray]]:
        rng = np.random.RandomState(seed)
        for index in _row_batches(n, batch_size, num_epochs, shuffle, queue_capacity, rng):
            yield {name: a[index] for name, a in arrays.items()}

    dataset = Dataset.from_generator(generator, types, shapes)
    return make_one_shot(dataset).get_next()


def numpy_input_fn(x: Any, y: Any = None, batch_size: int = 128,
                   num_epochs: Optional[int] = 1, shuffle: Optional[bool] = None,
                   queue_capacity: int = 1000, num_threads: int = 1) -> Callable[[], Any]:
    """An input_fn returning batches of `x` (a dict of arrays, or one array) and `y` (an
    array or a dict of arrays); `shuffle` must be given explicitly, as in TF."""
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")

    def input_fn() -> Any:
        data = _features_as_ordered_dict(x)
        feature_keys = list(data.keys())
        if y is None:
            target_keys: Any = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            ordered_y = collections.OrderedDict(sorted(y.items(), key=lambda t: t[0]))
            target_keys = list(ordered_y.keys())
            duplicates = set(feature_keys) & set(target_keys)
            if duplicates:
                raise ValueError(f"{len(duplicates)} duplicate keys are found in both x and y: "
                                 f"{duplicates}")
            data.update(ordered_y)
        else:
            target_keys = _unique_target_key(data)
            data[target_keys] = y
        if len({np.shape(v)[0] for v in data.values()}) != 1:
            x_shapes = {k: np.shape(data[k]) for k in feature_keys}
            if target_keys is None:
                y_shape = None
            elif isinstance(target_keys, str):
                y_shape = np.shape(y)
            else:
                y_shape = {k: np.shape(data[k]) for k in target_keys}
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x "
                             "and y must have the same length.\nShapes in x: {}\nShapes in "
                             "y: {}\n".format(x_shapes, y_shape))
        batch = dataset_feeding_input(data, batch_size, num_epochs, shuffle, queue_capacity)
        features = batch["__direct_np_input__"] if isinstance(x, np.ndarray) else \
            {k: batch[k] for k in feature_keys}
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[target_keys]
        return features, {k: batch[k] for k in target_keys}
    return input_fn
