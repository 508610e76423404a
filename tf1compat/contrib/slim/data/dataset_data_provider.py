"""`slim.data.dataset_data_provider`: `DatasetDataProvider`, the provider of a slim
`Dataset`'s decoded items read in parallel.

    provider = slim.dataset_data_provider.DatasetDataProvider(
        dataset, num_readers=4, common_queue_capacity=20 * batch_size,
        common_queue_min=10 * batch_size)
    image, label = provider.get(["image", "label"])

Besides the decoder's items it provides the record's key under `record_key`.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.contrib.slim.data import parallel_reader
from tf1compat.contrib.slim.data.data_provider import DataProvider

__all__ = ["DatasetDataProvider"]


class DatasetDataProvider(DataProvider):
    """Reads `dataset.data_sources` with `num_readers` readers (parallel_read) and
    decodes every item of `dataset.decoder`."""

    def __init__(self, dataset: Any, num_readers: int = 1,
                 reader_kwargs: Optional[Dict[str, Any]] = None, shuffle: bool = True,
                 num_epochs: Optional[int] = None, common_queue_capacity: int = 256,
                 common_queue_min: int = 128, record_key: str = "record_key",
                 seed: Optional[int] = None, scope: Optional[str] = None):
        key, data = parallel_reader.parallel_read(
            dataset.data_sources, reader_class=dataset.reader, num_epochs=num_epochs,
            num_readers=num_readers, reader_kwargs=reader_kwargs, shuffle=shuffle,
            capacity=common_queue_capacity, min_after_dequeue=common_queue_min, seed=seed,
            scope=scope)
        items = dataset.decoder.list_items()
        items_to_tensors = dict(zip(items, dataset.decoder.decode(data, items)))
        if record_key in items_to_tensors:
            raise ValueError("The item name used for `record_key` cannot also be used for "
                             "a dataset item: %s" % record_key)
        items_to_tensors[record_key] = key
        super().__init__(items_to_tensors=items_to_tensors,
                         num_samples=dataset.num_samples)
