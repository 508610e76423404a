"""`tf.contrib.util` (TF 1.15): `constant_value`, the graph-build-time value of a tensor
(TF's `tensor_util.constant_value`, the same function as `tf.get_static_value`), and
`make_tensor_proto` / `make_ndarray` (the same functions as `tf.make_tensor_proto` /
`tf.make_ndarray`).

TF 1.15's `ops_used_by_graph_def` and `stripped_op_list_for_graph` are not provided:
accessing them raises an error naming them.
"""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.framework.misc import get_static_value as constant_value
from tf1compat.serialization.tensor_util import make_ndarray, make_tensor_proto

__getattr__ = _missing("tf.contrib.util")
