"""`tf.estimator.inputs.numpy_input_fn`: an input_fn over numpy arrays.

TF feeds the arrays through a FIFO/RandomShuffle queue filled by Python threads. Here the
rows are a tf.data pipeline (slices of placeholders -> optional shuffle -> repeat ->
batch) whose iterator is initialized with the arrays as feeds by a queue-runner stand-in
in the QUEUE_RUNNERS collection, so the arrays are not copied into the graph (nor into
`graph.pbtxt` / `.meta` files) and `tf.train.start_queue_runners` or a MonitoredSession
starts it as TF's feeding queue. Batches are TF's: rows in order (or shuffled), epochs
run into each other, the last batch is smaller when `num_epochs` is set; with
`num_epochs=None` the batch dimension is static. Shuffled order differs from TF's
RandomShuffleQueue order.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from tf1compat.framework.graph import GraphKeys, get_default_graph

__all__ = ["numpy_input_fn", "FeedingInitializer", "dataset_feeding_input"]

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


class FeedingInitializer:
    """Stands in for TF's feeding QueueRunner: starting it (`create_threads`, as
    `start_queue_runners` and monitored sessions do) runs the input iterator's initializer
    with the arrays fed; no thread is needed. It has no QueueRunnerDef form."""

    def __init__(self, initializer: Any, feed_dict: Dict[Any, np.ndarray]):
        self._initializer = initializer
        self._feed_dict = feed_dict

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> List[Any]:
        sess.run(self._initializer, feed_dict=self._feed_dict)
        return []

    def to_proto(self, export_scope: Optional[str] = None) -> None:
        return None


def _as_feedable(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind in "US":
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                            otypes=[object])(array)
    return array


def dataset_feeding_input(columns: "collections.OrderedDict[str, np.ndarray]",
                          batch_size: int, num_epochs: Optional[int], shuffle: bool,
                          queue_capacity: int) -> Dict[str, Any]:
    """Batched tensors of the named numpy columns, fed through placeholders."""
    from tf1compat.data.dataset_ops import Dataset
    from tf1compat.data.iterator_ops import make_initializable
    from tf1compat.framework import dtypes
    from tf1compat.ops.array_ops import placeholder
    feeds, placeholders = {}, collections.OrderedDict()
    for name, array in columns.items():
        array = _as_feedable(np.asarray(array))
        dtype = dtypes.string if array.dtype == object else dtypes.as_dtype(array.dtype)
        ph = placeholder(dtype, shape=array.shape)
        placeholders[name] = ph
        feeds[ph] = array
    dataset = Dataset.from_tensor_slices(placeholders)
    if shuffle:
        dataset = dataset.shuffle(queue_capacity)
    dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    iterator = make_initializable(dataset, None)
    batch = iterator.get_next()
    get_default_graph().add_to_collection(
        GraphKeys.QUEUE_RUNNERS, FeedingInitializer(iterator.initializer, feeds))
    return batch


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
