"""`tensorflow.python.feature_column.feature_column`: TF 1.x's feature column module, i.e.
the public `tf.feature_column` functions plus the column interface under its private
names (`_FeatureColumn`, `_DenseColumn`, `_CategoricalColumn`, `_LazyBuilder`), which
libraries subclass to define columns of their own (tensorflow_hub's
`text_embedding_column` is a `_DenseColumn` namedtuple)."""

# ruff: noqa: F401, F403
from tf1compat.feature_column import *
from tf1compat.feature_column import __getattr__
from tf1compat.feature_column.base import CategoricalColumn as _CategoricalColumn
from tf1compat.feature_column.base import DenseColumn as _DenseColumn
from tf1compat.feature_column.base import FeatureColumn as _FeatureColumn
from tf1compat.feature_column.base import LazyBuilder as _LazyBuilder
from tf1compat.feature_column.base import SequenceDenseColumn as _SequenceDenseColumn
