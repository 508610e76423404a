"""`tf.estimator.ModeKeys`: the three modes a model_fn is called in."""

from __future__ import annotations

__all__ = ["ModeKeys"]


class ModeKeys:
    """The mode strings an Estimator passes to `model_fn` (TF's values)."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"
