"""`tensorflow.python.ops.variable_scope` (and `tensorflow.python.ops.variables`).

Both TF-internal modules map here: the scope machinery plus the Variable classes and the
collection/initializer functions legacy code reaches through `variables.*`.
"""

# ruff: noqa: F401
from tf1compat.variables.collections import (all_variables, assert_variables_initialized,
                                             global_variables, global_variables_initializer,
                                             initialize_all_variables,
                                             initialize_local_variables, initialize_variables,
                                             is_variable_initialized, local_variables,
                                             local_variables_initializer, model_variables,
                                             moving_average_variables,
                                             report_uninitialized_variables,
                                             trainable_variables, variables_initializer)
from tf1compat.variables.partitioned import PartitionedVariable
from tf1compat.variables.resource_variable import ResourceVariable
from tf1compat.variables.variable_scope import (AUTO_REUSE, EagerVariableStore, VariableScope,
                                                _get_default_variable_store,
                                                _pure_variable_scope, get_local_variable,
                                                get_variable, get_variable_scope,
                                                get_variable_scope_store, no_regularizer,
                                                variable_op_scope, variable_scope,
                                                with_variable_store)
from tf1compat.variables.variable_store import _VariableStore
from tf1compat.variables.variables import (RefVariable, Variable, VariableAggregation,
                                           VariableSynchronization, default_variable_creator,
                                           variable_creator_scope)

VariableV1 = Variable
variable_creator_scope_v1 = variable_creator_scope
# TF 1.15's `variable_scope.variable` (TF 2.x keeps it as variable_v1.VariableV1): optimizers
# written against 1.x internals (tensorlayer's AMSGrad) create their beta powers with it.
variable = Variable
