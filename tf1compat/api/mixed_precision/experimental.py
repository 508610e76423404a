"""`tf.mixed_precision.experimental` (compat.v1): the loss scales."""

# ruff: noqa: F401
from tf1compat.training.experimental import DynamicLossScale, FixedLossScale, LossScale

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('mixed_precision.experimental', globals())
