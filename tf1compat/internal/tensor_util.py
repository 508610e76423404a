"""`tensorflow.python.framework.tensor_util`: the internal names legacy code imports
(`constant_value` for graph-build-time values, tensor protos, `is_tensor`)."""

# ruff: noqa: F401
from tf1compat.framework.constant_value import constant_value_as_shape
from tf1compat.framework.misc import get_static_value as constant_value
from tf1compat.framework.misc import is_tensor
from tf1compat.serialization.tensor_util import make_ndarray as MakeNdarray
from tf1compat.serialization.tensor_util import make_tensor_proto
