"""`tf.contrib.framework`: arg_scope, the variable helpers and the assignment of variables
from values or a checkpoint (`assign_from_checkpoint_fn`, ...)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.framework.arg_scope import (add_arg_scope, arg_scope,
                                                   arg_scope_func_key,
                                                   arg_scoped_arguments,
                                                   current_arg_scope, has_arg_scope)
from tf1compat.contrib.framework.variables import (add_model_variable, get_local_variables,
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
from tf1compat.framework.misc import is_tensor
from tf1compat.ops.cond import smart_cond
from tf1compat.training.training_util import (assert_global_step, create_global_step,
                                              get_global_step, get_or_create_global_step)
from tf1compat.util import nest_internal as nest

__getattr__ = _missing("tf.contrib.framework")
