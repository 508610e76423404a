"""`tf.mixed_precision` (compat.v1): TF1's loss scales, loss-scale optimizer and graph
rewrite switch (training/experimental/)."""

# ruff: noqa: F401
from tf1compat.training.experimental import (DynamicLossScale, FixedLossScale, LossScale,
                                             MixedPrecisionLossScaleOptimizer,
                                             disable_mixed_precision_graph_rewrite,
                                             enable_mixed_precision_graph_rewrite)
from tf1compat.api.mixed_precision import experimental

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('mixed_precision', globals())
