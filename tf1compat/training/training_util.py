"""The global step: `tf.train.get_global_step`, `create_global_step`,
`get_or_create_global_step`, `global_step`, `assert_global_step`.

The global step is an int64 scalar variable named `global_step` (not trainable) in the
GLOBAL_VARIABLES and GLOBAL_STEP collections, created outside any name scope.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (Graph, GraphKeys, control_dependencies,
                                       get_default_graph)
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import state_ops
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable
from tf1compat.variables.variables import Variable, VariableAggregation

__all__ = ["global_step", "get_global_step", "create_global_step",
           "get_or_create_global_step", "assert_global_step", "GLOBAL_STEP_READ_KEY"]

GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def global_step(sess: Any, global_step_tensor: Any) -> int:
    """`tf.train.global_step`: the global step's value in `sess`, as a Python int."""
    return int(sess.run(global_step_tensor))


def get_global_step(graph: Optional[Graph] = None) -> Any:
    """The GLOBAL_STEP collection's one item, else the tensor `global_step:0`, else None."""
    graph = graph or get_default_graph()
    tensors = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(tensors) == 1:
        tensor = tensors[0]
    elif not tensors:
        try:
            tensor = graph.get_tensor_by_name("global_step:0")
        except KeyError:
            return None
    else:
        from tf1compat.util import tf_logging as logging
        logging.error("Multiple tensors in global_step collection.")
        return None
    assert_global_step(tensor)
    return tensor


def create_global_step(graph: Optional[Graph] = None) -> Any:
    """Creates the global step; ValueError if it exists already."""
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    if _context.executing_eagerly():
        # An eager variable (a graph's as_default would build graph ops instead).
        return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=D.int64,
                            initializer=zeros_initializer(), trainable=False,
                            aggregation=VariableAggregation.ONLY_FIRST_REPLICA,
                            collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])
    with graph.as_default() as g, g.name_scope(None):
        return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=D.int64,
                            initializer=zeros_initializer(), trainable=False,
                            aggregation=VariableAggregation.ONLY_FIRST_REPLICA,
                            collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph: Optional[Graph] = None) -> Any:
    """`tf.train.get_or_create_global_step`."""
    graph = graph or get_default_graph()
    tensor = get_global_step(graph)
    if tensor is None:
        tensor = create_global_step(graph)
    return tensor


def assert_global_step(global_step_tensor: Any) -> None:
    """TypeError unless `global_step_tensor` is an integer scalar Variable or Tensor."""
    if not isinstance(global_step_tensor, (Variable, Tensor)):
        raise TypeError('Existing "global_step" must be a Variable or Tensor: '
                        f"{global_step_tensor}.")
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError('Existing "global_step" does not have integer type: '
                        f"{global_step_tensor.dtype}")
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')


def _get_or_create_global_step_read(graph: Optional[Graph] = None) -> Optional[Tensor]:
    """A cached `global_step + 0` read (what optimizers' increments depend on)."""
    graph = graph or get_default_graph()
    cached = graph.get_collection(GLOBAL_STEP_READ_KEY)
    if len(cached) > 1:
        raise RuntimeError(f"There are multiple items in collection {GLOBAL_STEP_READ_KEY}. "
                           "There should be only one.")
    if cached:
        return cached[0]
    tensor = get_global_step(graph)
    if tensor is None:
        return None
    with graph.as_default() as g, g.name_scope(None):
        with g.name_scope(tensor.op.name + "/"):
            value = tensor.initialized_value() if isinstance(tensor, Variable) else tensor
            read = value + 0
            graph.add_to_collection(GLOBAL_STEP_READ_KEY, read)
    # No edge to the increments: a run reads the step before the updates it is not
    # ordered after (runtime/plan.py), so hooks see the step of the run's start.
    return read


def _increment_global_step(increment: Any, graph: Optional[Graph] = None) -> Tensor:
    graph = graph or get_default_graph()
    tensor = get_global_step(graph)
    if tensor is None:
        raise ValueError("Global step tensor should be created by "
                         "tf.train.get_or_create_global_step before calling increment.")
    read = _get_or_create_global_step_read(graph)
    with graph.as_default() as g, g.name_scope(None):
        with g.name_scope(tensor.op.name + "/"):
            with control_dependencies([read]):
                return state_ops.assign_add(tensor, increment)
