"""`tf.wrap_function`: a Python function traced once, for a given signature, into a graph.

The wrapped function exposes its traced graph (`graph`, `inputs` placeholders, `outputs`,
`structured_outputs`, `structured_input_signature`), as TF's WrappedFunction. Calling it
runs `fn` on the arguments: under eager execution as a `tf.function` with the signature
(one plan), in a TF1 graph by adding `fn`'s ops to the current graph (TF adds one
PartitionedCall op running the traced graph; the values are the same).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

from tf1compat.eager.function import FuncGraph, Function
from tf1compat.framework import context as _context
from tf1compat.framework.tensor import Tensor
from tf1compat.util import nest

__all__ = ["wrap_function", "WrappedFunction"]


class WrappedFunction:
    """What `tf.wrap_function` returns; see the module docstring."""

    def __init__(self, fn: Callable[..., Any], signature: Optional[Sequence[Any]],
                 name: Optional[str] = None):
        from tf1compat.ops.array_ops import placeholder
        self._fn = fn
        self._signature = list(signature) if signature is not None else []
        self.graph = FuncGraph(name or getattr(fn, "__name__", "wrapped_function"))
        self.graph._outer_eager = False     # variables stay in the traced graph
        with self.graph.as_default():
            args = [placeholder(spec.dtype, spec.shape) for spec in nest.flatten(
                self._signature)]
            self.inputs: List[Tensor] = list(args)
            self.structured_outputs = fn(*nest.pack_sequence_as(self._signature, args))
        self.outputs = [t for t in nest.flatten(self.structured_outputs)
                        if isinstance(t, Tensor)]
        self._eager = Function(fn, input_signature=self._signature or None)

    @property
    def structured_input_signature(self) -> tuple:
        return (tuple(self._signature), {})

    @property
    def function_def(self) -> Any:
        return self.graph.as_graph_def()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _context.executing_eagerly():
            return self._eager(*args, **kwargs)
        return self._fn(*args, **kwargs)

    def prune(self, feeds: Any, fetches: Any, name: Optional[str] = None,
              input_signature: Any = None) -> Any:
        raise NotImplementedError("WrappedFunction.prune is not supported by tf1compat; "
                                  "build the pruned computation as a function of its own "
                                  "and wrap that")


def wrap_function(fn: Callable[..., Any], signature: Optional[Sequence[Any]],
                  name: Optional[str] = None) -> WrappedFunction:
    """`tf.wrap_function(fn, signature)`: see the module docstring."""
    return WrappedFunction(fn, signature, name)
