"""`tf.xla.experimental.jit_scope` / `compile` (and `tf.contrib.compiler`'s forms).

In TF these mark ops for XLA's compiler; the values they compute are the ops' own. tf1compat
has no XLA, so a scope only records TF's attrs on the ops it creates (`_XlaCompile`,
`_XlaScope`, `_XlaSeparateCompiledGradients`: graph files keep them for TF) and `compile`
builds the computation in place. To compile session plans with torch, set
`tf.config.optimizer.set_jit(True)` or ConfigProto's `global_jit_level`.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Optional, Sequence, Union

from tf1compat.framework import graph as _graph
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import identity
from tf1compat.ops.control_flow_ops import group
from tf1compat.util import nest

__all__ = ["jit_scope", "compile"]


@contextlib.contextmanager
def jit_scope(compile_ops: Union[bool, Callable[[Any], bool]] = True,
              separate_compiled_gradients: bool = False) -> Iterator[None]:
    """Ops created inside are marked for XLA (`compile_ops`: a bool, or a function of the
    node's `name`/`op`/`input` returning one); each scope gets TF's name `jit_scope_<N>`."""
    if executing_eagerly():
        raise RuntimeError("xla.experimental.jit_scope is not supported when eager "
                           "execution is enabled. Try use it inside tf.function.")
    graph = _graph.get_default_graph()
    number = graph._extras.get("jit_scope_count", 0)
    graph._extras["jit_scope_count"] = number + 1
    attrs = {"_XlaCompile": compile_ops if callable(compile_ops) else bool(compile_ops),
             "_XlaSeparateCompiledGradients": bool(separate_compiled_gradients),
             "_XlaScope": f"jit_scope_{number}".encode()}
    with graph._attr_scope(attrs):
        yield


def compile(computation: Callable[..., Any],  # noqa: A001 - TF's name
            inputs: Optional[Sequence[Any]] = None) -> Any:
    """Builds `computation(*inputs)` and returns its outputs as TF's `xla.compile` does:
    each tensor through an Identity named `output_<i>`, a single tensor as a one-element
    list, None or only operations as one NoOp `output_0` after them."""
    outputs = computation(*(inputs or ()))
    flat = [] if outputs is None else nest.flatten(outputs)
    tensors = [x for x in flat if isinstance(x, Tensor)]
    if not tensors:
        ops = [x for x in flat if isinstance(x, Operation)]
        return group(*ops, name="output_0")
    renamed, index = [], 0
    for x in flat:
        if isinstance(x, Tensor):
            x = identity(x, name=f"output_{index}")
            index += 1
        renamed.append(x)
    if isinstance(outputs, (Tensor, tuple)):
        return nest.pack_sequence_as(list(outputs), renamed) if isinstance(
            outputs, tuple) else renamed
    return nest.pack_sequence_as(outputs, renamed)
