"""`tensorflow.python.framework.ops`."""

# ruff: noqa: F401
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
from tf1compat.framework.tensor import Tensor, get_default_session
from tf1compat.framework.tensor_conversion import (convert_n_to_tensor, convert_to_tensor,
                                                   convert_to_tensor_or_indexed_slices,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_conversion import convert_to_tensor as internal_convert_to_tensor
from tf1compat.framework.context import executing_eagerly as executing_eagerly_outside_functions
from tf1compat.framework.device_spec import DeviceSpec

name_scope_v1 = name_scope

# (section: gradients)
from tf1compat.autodiff.registry import (NotDifferentiable, RegisterGradient,
                                         get_gradient_function, no_gradient)
from tf1compat.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
