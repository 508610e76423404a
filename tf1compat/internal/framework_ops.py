"""`tensorflow.python.framework.ops`."""

# ruff: noqa: F401
import abc as _abc
import itertools as _itertools
from typing import Any as _Any

from tf1compat.framework.graph import (Graph, GraphKeys, add_to_collection, add_to_collections,
                                       colocate_with, container, control_dependencies, device,
                                       get_collection, get_collection_ref, get_default_graph,
                                       get_name_scope, has_default_graph, name_scope,
                                       name_from_scope_name, reset_default_graph)
from tf1compat.framework.misc import op_scope
from tf1compat.framework.proto_functions import (get_collection_proto_type,
                                                 get_from_proto_function,
                                                 get_to_proto_function, register_proto_function)
from tf1compat.framework.operation import Operation
from tf1compat.framework.raw_operation import set_shapes_for_outputs
from tf1compat.framework.tensor import Tensor, get_default_session
from tf1compat.framework.tensor_conversion import (convert_n_to_tensor, convert_to_tensor,
                                                   convert_to_tensor_or_indexed_slices,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_conversion import convert_to_tensor as internal_convert_to_tensor
from tf1compat.framework.context import executing_eagerly as executing_eagerly_outside_functions
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.sparse_tensor import SparseTensor as _SparseTensor
from tf1compat.variables.variables import Variable as _Variable

name_scope_v1 = name_scope

# (section: gradients)
from tf1compat.autodiff.registry import (NotDifferentiable, RegisterGradient,
                                         get_gradient_function, no_gradient)
from tf1compat.framework.indexed_slices import IndexedSlices, IndexedSlicesValue

# (section: TF1's tensor-like predicates, which standalone Keras 2.2.4's `K.is_tensor` and
# `K.function` call through `tensorflow.python.framework.ops`)


class _TensorLike(_abc.ABC):
    """TF1's common base of Tensor, SparseTensor and IndexedSlices, kept for
    `isinstance(x, ops._TensorLike)` (the classes are registered, not derived)."""


for _cls in (Tensor, _SparseTensor, IndexedSlices):
    _TensorLike.register(_cls)


def is_dense_tensor_like(t: _Any) -> bool:
    """True for a Tensor or a variable (TF1's registered dense-tensor-like types)."""
    return isinstance(t, (Tensor, _Variable))


def _as_graph_element(obj: _Any) -> _Any:
    """`obj._as_graph_element()` when obj has one (a variable gives its value tensor),
    else None."""
    conv_fn = getattr(obj, "_as_graph_element", None)
    if conv_fn is not None and callable(conv_fn):
        return conv_fn()
    return None


_UIDS = _itertools.count()


def uid() -> int:
    """A process-wide unique integer, increasing from call to call (TF's `ops.uid`;
    tensor2tensor's fn_with_custom_grad names its Defun with one)."""
    return next(_UIDS)
