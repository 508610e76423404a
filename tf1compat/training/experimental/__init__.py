"""TF1 mixed precision: loss scales, the loss-scale optimizer and the graph rewrite
switch (`tf.train.experimental`, `tf.mixed_precision`)."""

from tf1compat.training.experimental.loss_scale import (DynamicLossScale, FixedLossScale,
                                                        LossScale)
from tf1compat.training.experimental.loss_scale_optimizer import \
    MixedPrecisionLossScaleOptimizer
from tf1compat.training.experimental.mixed_precision import (
    disable_mixed_precision_graph_rewrite, enable_mixed_precision_graph_rewrite,
    register_loss_scale_wrapper)

__all__ = ["LossScale", "FixedLossScale", "DynamicLossScale",
           "MixedPrecisionLossScaleOptimizer", "enable_mixed_precision_graph_rewrite",
           "disable_mixed_precision_graph_rewrite", "register_loss_scale_wrapper"]
