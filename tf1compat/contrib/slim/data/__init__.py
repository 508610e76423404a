"""`slim.data`: TF-Slim's queue-based input layer of TF 1.15: `dataset.Dataset` (files,
reader, decoder), `tfexample_decoder` (tf.Example features -> items),
`dataset_data_provider.DatasetDataProvider`, `parallel_reader` and `prefetch_queue`."""

# ruff: noqa: F401
from tf1compat.contrib.slim.data import (data_decoder, data_provider, dataset,
                                         dataset_data_provider, parallel_reader,
                                         prefetch_queue, tfexample_decoder)
