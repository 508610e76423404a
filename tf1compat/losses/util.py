"""The loss collections behind `tf.losses`: add_loss, get_losses, get_total_loss and the
regularization losses (GraphKeys.REGULARIZATION_LOSSES, filled by variables' and layers'
regularizers)."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.framework import context as _context
from tf1compat.framework.graph import GraphKeys, add_to_collection, get_collection
from tf1compat.framework.tensor import Tensor

__all__ = ["add_loss", "get_losses", "get_regularization_losses", "get_regularization_loss",
           "get_total_loss"]


def add_loss(loss: Any, loss_collection: Any = GraphKeys.LOSSES) -> None:
    """Adds `loss` to `loss_collection` (nothing when the collection is None/empty)."""
    if loss_collection and not _context.executing_eagerly():
        add_to_collection(loss_collection, loss)


def get_losses(scope: Optional[str] = None, loss_collection: Any = GraphKeys.LOSSES
               ) -> List[Any]:
    """The losses in `loss_collection` whose names match `scope`."""
    return get_collection(loss_collection, scope)


def get_regularization_losses(scope: Optional[str] = None) -> List[Any]:
    """The regularization losses whose names match `scope`."""
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: Optional[str] = None,
                            name: str = "total_regularization_loss") -> Tensor:
    """Their sum (an AddN named `name`), or a constant 0.0 when there are none."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.math_ops import add_n
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss",
                   scope: Optional[str] = None) -> Tensor:
    """The sum of the losses (and regularization losses) as one AddN named `name`."""
    from tf1compat.ops.math_ops import add_n
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    return add_n(losses, name=name)
