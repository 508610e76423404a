"""`Layer.add_loss` and `Layer.losses` as tf-keras has them.

Graph mode (its v1 layers): tensors are kept; zero-argument callables (regularizers) are
called whenever `losses` is read. A tensor of a functional model's graph added to the
model outside a layer call inserts the layers computing it into the network
(engine/functional_insert.py).

Under eager execution (its v2 layers) a loss computed inside a call lasts until the next
outermost call, which starts the layers' eager losses afresh; an eager value added
outside a call is tf-keras's ValueError.
"""

from __future__ import annotations

import functools
from typing import Any, List

from tf1compat.util import nest
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras.engine import node as node_module

__all__ = ["add_loss", "collected_losses"]


def _tag_loss(layer: Any, loss: Any, inputs: Any) -> Any:
    """`loss` as a tensor (a callable called first), recorded as conditional on inputs
    when `inputs` is given."""
    if callable(loss):
        loss = loss()
    if loss is None:
        return None
    if not isinstance(loss, Tensor):
        loss = convert_to_tensor(loss, dtype=backend.floatx())
    layer._unconditional[id(loss)] = inputs is None
    return loss


def add_loss(layer: Any, losses: Any, inputs: Any = None) -> None:
    """What `layer.add_loss(losses, inputs)` does (see the module docstring)."""
    in_call = node_module.call_context().in_call
    for loss in nest.flatten(losses):
        if callable(loss):
            layer._callable_losses.append(functools.partial(_tag_loss, layer, loss, inputs))
            continue
        if loss is None:
            continue
        loss = _tag_loss(layer, loss, inputs)
        if getattr(loss, "_is_eager_tensor", False):
            if not in_call:
                raise ValueError("Expected a symbolic Tensors or a callable for the loss "
                                 "value. Please wrap your loss computation in a zero "
                                 "argument `lambda`.")
            layer._eager_losses.append(loss)
        elif not in_call and getattr(layer, "_is_graph_network", False):
            from tf1compat.keras.engine.functional_insert import graph_network_add_loss
            graph_network_add_loss(layer, loss)
        else:
            layer._losses.append(loss)


def collected_losses(layer: Any) -> List[Any]:
    """`layer.losses`: its own and its sublayers' losses, regularizers evaluated now."""
    out: List[Any] = []
    for sub in layer._flatten_layers():
        # (eager losses mean an eager step ran: they replace the symbolic ones)
        out.extend(getattr(sub, "_eager_losses", None) or sub._losses)
        for regularizer in sub._callable_losses:
            loss = regularizer()
            if loss is not None:
                out.append(loss)
    return out
