"""`tf.keras.mixed_precision`: LossScaleOptimizer (compat.v1's name), the dtype policies
(`Policy`, `global_policy`, `set_global_policy`: tf-keras's, engine/dtype_policy.py) and
TF 1.15's `experimental` names. Importing it registers the Keras wrapper that
`tf.train.experimental.enable_mixed_precision_graph_rewrite` uses for Keras optimizers."""

from tf1compat.keras.engine.dtype_policy import Policy, global_policy, set_global_policy
from tf1compat.keras.mixed_precision import experimental
from tf1compat.keras.mixed_precision.loss_scale_optimizer import (
    LossScaleOptimizer, loss_scale_optimizer_from_v1_loss_scale)
from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2 as _OptimizerV2
from tf1compat.training.experimental.mixed_precision import register_loss_scale_wrapper

__all__ = ["LossScaleOptimizer", "Policy", "global_policy", "set_global_policy",
           "experimental"]

register_loss_scale_wrapper(_OptimizerV2, loss_scale_optimizer_from_v1_loss_scale,
                            LossScaleOptimizer)

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('keras.mixed_precision', globals())
