"""`tf.layers.experimental`: `keras_style_scope` / `set_keras_style`.

tf.layers layers created while Keras style is on behave as Keras layers (TF 1.x's bridge
towards TF 2): their weights are created under the layer's name scope when it is first
called (`outer/dense_1/kernel`), are owned by the layer object (calling it again reuses
them) and are never shared or looked up through `variable_scope` reuse; the `_scope` and
`_reuse` constructor arguments raise ValueError. The switch is process-wide, as TF's.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

__all__ = ["keras_style_scope", "set_keras_style", "in_keras_style_scope"]

_KERAS_STYLE = False


@contextlib.contextmanager
def keras_style_scope() -> Iterator[None]:
    """Layers created in this block are Keras-style (see the module docstring)."""
    global _KERAS_STYLE
    previous = _KERAS_STYLE
    _KERAS_STYLE = True
    try:
        yield
    finally:
        _KERAS_STYLE = previous


def set_keras_style() -> None:
    """Makes every tf.layers layer created from now on Keras-style."""
    global _KERAS_STYLE
    _KERAS_STYLE = True


def in_keras_style_scope() -> bool:
    """Whether layers created now are Keras-style."""
    return _KERAS_STYLE
