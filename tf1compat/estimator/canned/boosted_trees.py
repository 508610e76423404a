"""`tf.estimator.BoostedTreesClassifier` / `BoostedTreesRegressor`: not supported (TF's
boosted trees run on dedicated C++ resource ops that tf1compat does not implement)."""

from __future__ import annotations

from typing import Any

__all__ = ["BoostedTreesClassifier", "BoostedTreesRegressor", "BoostedTreesEstimator"]


def _unsupported(name: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"tf.estimator.{name} is not supported by tf1compat: TF's boosted trees are "
            "built on its C++ tree-ensemble resource ops, which tf1compat does not implement. "
            "Use a DNN or linear estimator instead.")
    return type(name, (), {"__init__": __init__, "__doc__": f"`tf.estimator.{name}`: "
                           "raises NotImplementedError (not supported by tf1compat)."})


BoostedTreesClassifier = _unsupported("BoostedTreesClassifier")
BoostedTreesRegressor = _unsupported("BoostedTreesRegressor")
BoostedTreesEstimator = _unsupported("BoostedTreesEstimator")
