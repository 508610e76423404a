"""`tensorflow.python.ops.standard_ops`: TF's one module gathering the standard op
families (array, math, control flow, state, initializers, random, sparse, string,
linear algebra, lookup, parsing, variable scopes), as old layer libraries import it."""

# ruff: noqa: F401, F403
from tf1compat.internal.array_ops import *
from tf1compat.internal.control_flow_ops import *
from tf1compat.internal.init_ops import *
from tf1compat.internal.linalg_ops import *
from tf1compat.internal.lookup_ops import *
from tf1compat.internal.math_ops import *
from tf1compat.internal.parsing_ops import *
from tf1compat.internal.random_ops import *
from tf1compat.internal.sparse_ops import *
from tf1compat.internal.string_ops import *
from tf1compat.internal.variable_scope import *
from tf1compat.ops.state_ops import (assign, assign_add, assign_sub, batch_scatter_update,
                                     count_up_to, is_variable_initialized, scatter_add,
                                     scatter_div, scatter_max, scatter_min, scatter_mul,
                                     scatter_nd_add, scatter_nd_sub, scatter_nd_update,
                                     scatter_sub, scatter_update)
