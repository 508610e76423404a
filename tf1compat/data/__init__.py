"""`tf.data` (TF1): datasets, iterators and file readers in graph mode.

See dataset_ops.py (the Dataset API), iterator_ops.py (iterators), readers.py (files),
functions.py / func_graph.py (traced functions) and _runtime.py (what runs).
"""

# ruff: noqa: F401
from tf1compat.data import experimental
from tf1compat.data import auto_shard as _auto_shard  # noqa: F401 (declares AutoShardDataset)
from tf1compat.data.dataset_ops import (AUTOTUNE, INFINITE as INFINITE_CARDINALITY,
                                        UNKNOWN as UNKNOWN_CARDINALITY, DatasetV1 as Dataset)
from tf1compat.data.eager_iterator import NumpyIterator
from tf1compat.data.experimental import Options, ThreadingOptions
from tf1compat.data.iterator_ops import Iterator
from tf1compat.data.iterator_ops import make_initializable as make_initializable_iterator
from tf1compat.data.iterator_ops import make_one_shot as make_one_shot_iterator
from tf1compat.data.readers import FixedLengthRecordDatasetV1 as FixedLengthRecordDataset
from tf1compat.data.readers import TextLineDatasetV1 as TextLineDataset
from tf1compat.data.readers import TFRecordDatasetV1 as TFRecordDataset
from tf1compat.data.structure import DatasetSpec


def get_output_types(dataset_or_iterator):
    """The `tf.DType` structure of the elements of a dataset or iterator."""
    from tf1compat.data.structure import legacy_types
    return legacy_types(experimental.get_structure(dataset_or_iterator))


def get_output_shapes(dataset_or_iterator):
    """The `tf.TensorShape` structure of the elements of a dataset or iterator."""
    from tf1compat.data.structure import legacy_shapes
    return legacy_shapes(experimental.get_structure(dataset_or_iterator))


def get_output_classes(dataset_or_iterator):
    """The Python class structure (tf.Tensor, tf.SparseTensor) of the elements."""
    from tf1compat.data.structure import legacy_classes
    return legacy_classes(experimental.get_structure(dataset_or_iterator))


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("data", globals())
