"""`tensorflow.python.tf2`: whether TF 2.x behaviour is on. Libraries that support both
TF versions branch on `tf2.enabled()` (tensorflow/models' official.utils.misc.keras_utils
`is_v2_0()`, whose r1 tests run only when it is False). tf1compat implements TF 1.x
behaviour only, so `enabled()` is False unless `enable()` forced the flag, as in TF 1.15
(which also reads the TF2_BEHAVIOR environment variable; tf1compat cannot honour it)."""

from __future__ import annotations

from typing import Optional

__all__ = ["enable", "disable", "enabled"]

_force_enable: Optional[bool] = None


def enable() -> None:
    """Turning TF 2.x behaviour on is not possible here (tf1compat is TF 1.x)."""
    raise NotImplementedError(
        "tensorflow.python.tf2.enable: tf1compat implements TensorFlow 1.x behaviour only.")


def disable() -> None:
    """Marks TF 2.x behaviour off (TF's `disable_v2_behavior` calls this first)."""
    global _force_enable
    _force_enable = False


def enabled() -> bool:
    """True iff TF 2.x behaviour is on: never, under tf1compat."""
    return bool(_force_enable)
