"""Keras masks attached to tensors (TF's `tensor._keras_mask`).

tf1compat tensors have fixed slots, so a tensor's mask lives in a side table keyed by
the tensor's id and holding a weak reference to it (an entry whose tensor is gone, or
whose id was reused, reads as no mask). Layers set the mask of their outputs from
`compute_mask` (base_layer.py) and read their inputs' masks to pass `mask=` to `call`.
"""

from __future__ import annotations

import weakref
from typing import Any, Dict, Tuple

from tf1compat.util import nest

__all__ = ["get_mask", "set_mask", "collect_masks"]

_MASKS: Dict[int, Tuple[Any, Any]] = {}


def get_mask(tensor: Any) -> Any:
    """The mask attached to `tensor`, or None."""
    entry = _MASKS.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def set_mask(tensor: Any, mask: Any) -> None:
    """Attaches `mask` to `tensor` (None removes it)."""
    key = id(tensor)
    if mask is None:
        _MASKS.pop(key, None)
        return
    try:
        ref = weakref.ref(tensor, lambda dead, key=key: _forget(key, dead))
    except TypeError:
        return
    _MASKS[key] = (ref, mask)


def _forget(key: int, dead: Any) -> None:
    entry = _MASKS.get(key)
    if entry is not None and entry[0] is dead:
        del _MASKS[key]


def collect_masks(inputs: Any) -> Any:
    """The masks of `inputs` in the same structure (None when no input has one)."""
    masks = nest.map_structure(get_mask, inputs)
    if all(m is None for m in nest.flatten(masks)):
        return None
    return masks


def mask_for_call(layer: Any, inputs: Any, args: tuple, kwargs: dict) -> tuple:
    """(kwargs, the mask the layer sees, whether the framework passed it): a layer whose
    `call` takes `mask` gets its inputs' masks unless the caller gave one."""
    if layer._arg_passed("mask", args, kwargs):
        return kwargs, layer._arg_value("mask", args, kwargs), False
    masks = collect_masks(inputs)
    if masks is not None and isinstance(masks, (list, tuple)) and len(masks) == 1:
        masks = masks[0]
    if masks is not None and layer._expects_mask_arg:
        return {**kwargs, "mask": masks}, masks, True
    return kwargs, masks, False


def set_output_masks(layer: Any, inputs: Any, outputs: Any, previous_mask: Any) -> None:
    """Attaches `layer.compute_mask(inputs, previous_mask)` to the outputs, for layers
    that support masking or compute masks themselves (tf-keras's rule)."""
    from tf1compat.keras.engine.base_layer import is_default
    flat = nest.flatten(outputs)
    if all(get_mask(x) is not None for x in flat):
        return
    if not (layer.supports_masking or not is_default(layer.compute_mask)):
        return
    masks = layer.compute_mask(inputs, previous_mask)
    if masks is None:
        return
    for output, mask in zip(flat, nest.flatten(masks)):
        set_mask(output, mask)
