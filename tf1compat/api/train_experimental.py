"""`tf.train.experimental`: TF1 mixed precision (training/experimental/). The checkpoint
sharding policies are listed in framework/unsupported_api.py."""

# ruff: noqa: F401
from tf1compat.training.experimental import (DynamicLossScale, FixedLossScale, LossScale,
                                             MixedPrecisionLossScaleOptimizer,
                                             disable_mixed_precision_graph_rewrite,
                                             enable_mixed_precision_graph_rewrite)

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('train.experimental', globals())
