"""`tf.estimator.inputs.numpy_input_fn`: an input_fn over numpy arrays.

As TF's: the columns (features sorted by key, then the labels) go into a queue under
`enqueue_input` filled by feeder threads (`feeding.enqueue_data`: FIFOQueue, or with
`shuffle` a RandomShuffleQueue keeping `queue_capacity / 4` rows, `num_threads` feeders
each starting at a random row when shuffling); `dequeue_many(batch_size)` (a static batch
dimension) with `num_epochs=None`, else `dequeue_up_to(batch_size)` (a smaller last batch,
then OutOfRangeError). The arrays stay in Python, fed chunk by chunk, so graphs stay small
and serializable (`graph.pbtxt`, `.meta`).
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional

import numpy as np

from tf1compat.estimator.inputs.feeding import enqueue_data

__all__ = ["numpy_input_fn"]

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
        if batch_size < 0:
            raise ValueError(f"batch_size must be non-negative; got {batch_size}")
        queue = enqueue_data(data, queue_capacity, shuffle=shuffle, num_threads=num_threads,
                             enqueue_size=batch_size, num_epochs=num_epochs)
        batch = queue.dequeue_many(batch_size) if num_epochs is None else \
            queue.dequeue_up_to(batch_size)
        columns = list(batch[1:])       # batch[0]: the row numbers
        if isinstance(x, np.ndarray):
            features = columns[0]
        else:
            features = dict(zip(feature_keys, columns[:len(feature_keys)]))
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, columns[-1]
        return features, dict(zip(target_keys, columns[-len(target_keys):]))
    return input_fn
