"""`tf.contrib.framework`: arg_scope, the variable helpers, the assignment of variables
from values or a checkpoint (`assign_from_checkpoint_fn`, ...), contrib's tensor helpers
(`with_shape`, `reduce_sum_n`, ...) and the core functions TF 1.15 re-exported here (the
deprecation decorators, `smart_case`, `BoundedTensorSpec`, ...)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.framework.arg_scope import (add_arg_scope, arg_scope,
                                                   arg_scope_func_key,
                                                   arg_scoped_arguments,
                                                   current_arg_scope, has_arg_scope)
from tf1compat.contrib.framework.tensor_util import (assert_scalar_int, reduce_sum_n,
                                                     remove_squeezable_dimensions,
                                                     with_same_shape, with_shape)
from tf1compat.contrib.framework.variables import (VariableDeviceChooser, add_model_variable,
                                                   assert_or_get_global_step,
                                                   filter_variables, get_local_variables,
                                                   get_model_variables,
                                                   get_trainable_variables,
                                                   get_unique_variable, get_variables,
                                                   get_variables_by_name,
                                                   get_variables_by_suffix,
                                                   get_variables_to_restore, global_variable,
                                                   local_variable, model_variable, variable)
from tf1compat.contrib.framework.checkpoint_assign import (assign_from_checkpoint,
                                                           assign_from_checkpoint_fn,
                                                           assign_from_values,
                                                           assign_from_values_fn,
                                                           get_variable_full_name)
from tf1compat.contrib.framework.graph_util import (get_graph_from_inputs, get_name_scope,
                                                    get_placeholders, prepend_name_scope,
                                                    strip_name_scope)
from tf1compat.contrib.framework.script_ops import py_func
from tf1compat.data.bounded_tensor_spec import BoundedTensorSpec
from tf1compat.data.structure import TensorSpec
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.sparse_tensor import convert_to_tensor_or_sparse_tensor
from tf1compat.ops.check_ops import assert_scalar
from tf1compat.ops.cond import smart_case, smart_cond, smart_constant_value
from tf1compat.ops.numerics_ops import (assert_same_float_dtype, is_non_decreasing,
                                        is_numeric_tensor, is_strictly_increasing)
from tf1compat.ops.sort_ops import argsort, sort
from tf1compat.training.saving.checkpoint_utils import (init_from_checkpoint, list_variables,
                                                        load_checkpoint, load_variable)
from tf1compat.training.training_util import (assert_global_step, create_global_step,
                                              get_global_step, get_or_create_global_step)
from tf1compat.util import nest_internal as nest
from tf1compat.util.deprecation import deprecated, deprecated_arg_values, deprecated_args
from tf1compat.variables.conv_orthogonal import (convolutional_orthogonal_1d,
                                                 convolutional_orthogonal_2d,
                                                 convolutional_orthogonal_3d)
from tf1compat.variables.init_ops import convolutional_delta_orthogonal

__getattr__ = _missing("tf.contrib.framework")
