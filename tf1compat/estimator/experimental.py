"""`tf.estimator.experimental`: logit_fn builders, early stopping and stop-at-checkpoint
hooks, supervised receivers, the `KMeans` Estimator; `LinearSDCA` and
`InMemoryEvaluatorHook` are not supported."""

# ruff: noqa: F401
from typing import Any

from tf1compat.estimator.canned.dnn import dnn_logit_fn_builder
from tf1compat.estimator.canned.kmeans import KMeans
from tf1compat.estimator.canned.linear import LinearSDCA, linear_logit_fn_builder
from tf1compat.estimator.early_stopping import (make_early_stopping_hook, stop_if_higher_hook,
                                                stop_if_lower_hook, stop_if_no_decrease_hook,
                                                stop_if_no_increase_hook)
from tf1compat.estimator.export.export import build_raw_supervised_input_receiver_fn
from tf1compat.estimator.model_fn import call_logit_fn
from tf1compat.estimator.stop_hooks import make_stop_at_checkpoint_step_hook
from tf1compat.framework.missing import attribute_hook as _attribute_hook


def _unsupported(name: str, why: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"tf.estimator.experimental.{name} is not supported by "
                                  f"tf1compat: {why}")
    return type(name, (), {"__init__": __init__,
                           "__doc__": f"`tf.estimator.experimental.{name}`: not supported."})


InMemoryEvaluatorHook = _unsupported("InMemoryEvaluatorHook", "evaluate from checkpoints "
                                     "(tf.estimator.train_and_evaluate) instead.")

__getattr__ = _attribute_hook("estimator.experimental", globals())
