"""`slim.data.dataset`: `Dataset`, the description of a data set slim's providers read:
its files, reader class, decoder, sample count and any other keyword (e.g.
`items_to_descriptions`, `num_classes`, `labels_to_names`) as attributes."""

from __future__ import annotations

from typing import Any

__all__ = ["Dataset"]


class Dataset:
    """`data_sources` (file pattern(s)), `reader` (a reader class such as
    tf.TFRecordReader), `decoder` (a DataDecoder), `num_samples` and the extra keywords,
    all as attributes of the same names."""

    def __init__(self, data_sources: Any, reader: Any, decoder: Any, num_samples: int,
                 items_to_descriptions: Any, **kwargs: Any):
        kwargs["data_sources"] = data_sources
        kwargs["reader"] = reader
        kwargs["decoder"] = decoder
        kwargs["num_samples"] = num_samples
        kwargs["items_to_descriptions"] = items_to_descriptions
        self.__dict__.update(kwargs)
