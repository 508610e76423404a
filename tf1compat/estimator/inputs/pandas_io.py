"""`tf.estimator.inputs.pandas_input_fn`: an input_fn over a pandas DataFrame (pandas is
optional; without it the call raises ImportError). The frame's rows go through TF's queue
(`feeding.enqueue_data`, the index as first component, dropped from the features) as
numpy_input_fn's arrays do; `min_after_dequeue` is `max(queue_capacity / 4, 1)`."""

from __future__ import annotations

import uuid
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.estimator.inputs.feeding import enqueue_data

__all__ = ["pandas_input_fn"]


def _unique_target_key(frame: Any, name: str) -> str:
    return name + "_" + str(uuid.uuid4()) if name in frame else name


def pandas_input_fn(x: Any, y: Any = None, batch_size: int = 128,
                    num_epochs: Optional[int] = 1, shuffle: Optional[bool] = None,
                    queue_capacity: Optional[int] = 1000, num_threads: int = 1,
                    target_column: str = "target") -> Callable[[], Any]:
    """An input_fn returning batches of the DataFrame `x`'s columns (and `y`, a Series or
    DataFrame with the same index)."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError("tf.estimator.inputs.pandas_input_fn needs pandas, which is not "
                          "installed: pip install pandas") from e
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")
    if not isinstance(target_column, str):
        raise TypeError("target_column must be a string type")
    x = x.copy()
    y_columns = None
    if y is not None:
        if target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame "
                             f"already has a column with that name: {x.columns}")
        if not np.array_equal(x.index, y.index):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\n"
                             f"Index for y: {y.index}\n")
        if isinstance(y, pd.DataFrame):
            y_columns = [(column, _unique_target_key(x, column)) for column in list(y)]
            target_column = [v for _, v in y_columns]
        x[target_column] = y
    if queue_capacity is None:
        queue_capacity = 4 * len(x) if shuffle else len(x)
    min_after_dequeue = max(queue_capacity / 4, 1)

    def input_fn() -> Any:
        queue = enqueue_data(x, queue_capacity, shuffle=shuffle,
                             min_after_dequeue=min_after_dequeue, num_threads=num_threads,
                             enqueue_size=batch_size, num_epochs=num_epochs)
        batch = queue.dequeue_many(batch_size) if num_epochs is None else \
            queue.dequeue_up_to(batch_size)
        features = dict(zip(list(x.columns), batch[1:]))     # batch[0]: the index
        if y is None:
            return features
        if isinstance(target_column, list):
            target = {k: features.pop(column)
                      for (k, _), column in zip(y_columns, target_column)}
        else:
            target = features.pop(target_column)
        return features, target
    return input_fn
