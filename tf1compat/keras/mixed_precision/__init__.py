"""`tf.keras.mixed_precision` (compat.v1): LossScaleOptimizer. Importing it registers the
Keras wrapper that `tf.train.experimental.enable_mixed_precision_graph_rewrite` uses for
Keras optimizers."""

from tf1compat.keras.mixed_precision.loss_scale_optimizer import (
    LossScaleOptimizer, loss_scale_optimizer_from_v1_loss_scale)
from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2 as _OptimizerV2
from tf1compat.training.experimental.mixed_precision import register_loss_scale_wrapper

__all__ = ["LossScaleOptimizer"]

register_loss_scale_wrapper(_OptimizerV2, loss_scale_optimizer_from_v1_loss_scale,
                            LossScaleOptimizer)

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('keras.mixed_precision', globals())
