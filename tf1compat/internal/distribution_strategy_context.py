"""`tensorflow.python.distribute.distribution_strategy_context` (what TF 1.x Keras and
Estimator internals, and some user code, import to find the current strategy)."""

# ruff: noqa: F401
from tf1compat.training.strategies.distribute_lib import (
    experimental_set_strategy, get_cross_replica_context, get_replica_context, get_strategy,
    has_strategy, in_cross_replica_context)

get_distribution_strategy = get_strategy
has_distribution_strategy = has_strategy
