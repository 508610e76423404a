"""`tf.keras.wrappers.scikit_learn` (TF 1.x) and standalone `keras.wrappers.scikit_learn`:
KerasClassifier and KerasRegressor, a Keras model behind scikit-learn's estimator API.

`build_fn` (a function, a callable object, or None for a subclass's `__call__`) builds
and compiles the model; the wrapper's keyword arguments (`sk_params`) go to `build_fn`,
`fit`, `predict` or `evaluate`, each taking those its signature names (a name none takes
is a ValueError, except Keras 1's `nb_epoch`, accepted and ignored as TF 1.x did). The
wrappers need no scikit-learn: `get_params`/`set_params` are what `sklearn.base.clone`,
grid search and cross-validation call. scikit-learn 1.6 and later also ask every estimator
for `__sklearn_tags__` (TF 1.x's wrappers predate it): the wrappers answer it, so
`cross_val_score` and `is_classifier` work with any scikit-learn.
"""

from __future__ import annotations

import copy
import types
from typing import Any, Callable, Dict, Optional

import numpy as np

from tf1compat.keras.engine.sequential import Sequential
from tf1compat.keras.utils.generic_utils import has_arg, to_list
from tf1compat.keras.utils.np_utils import to_categorical

__all__ = ["BaseWrapper", "KerasClassifier", "KerasRegressor"]


class BaseWrapper:
    """The parameter handling and `fit` KerasClassifier and KerasRegressor share."""

    _estimator_type: Optional[str] = None    # what scikit-learn < 1.6 reads

    def __sklearn_tags__(self) -> Any:
        """scikit-learn >= 1.6's estimator tags (imported only when scikit-learn asks)."""
        from sklearn.utils import ClassifierTags, RegressorTags, Tags, TargetTags
        return Tags(estimator_type=self._estimator_type,
                    target_tags=TargetTags(required=True),
                    classifier_tags=(ClassifierTags() if self._estimator_type == "classifier"
                                     else None),
                    regressor_tags=(RegressorTags() if self._estimator_type == "regressor"
                                    else None))

    def __init__(self, build_fn: Optional[Callable[..., Any]] = None, **sk_params: Any):
        self.build_fn = build_fn
        self.sk_params = sk_params
        self.check_params(sk_params)

    def _build_fn_target(self) -> Callable[..., Any]:
        """The callable whose signature names build_fn's parameters."""
        if self.build_fn is None:
            return self.__call__        # type: ignore[attr-defined]
        if isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
            return self.build_fn
        return self.build_fn.__call__

    def check_params(self, params: Dict[str, Any]) -> None:
        """ValueError for a parameter no model method or build_fn takes."""
        targets = [Sequential.fit, Sequential.predict, Sequential.predict_classes,
                   Sequential.evaluate, self._build_fn_target()]
        for name in params:
            if name != "nb_epoch" and not any(has_arg(fn, name) for fn in targets):
                raise ValueError(f"{name} is not a legal parameter")

    def get_params(self, **params: Any) -> Dict[str, Any]:
        """The wrapper's parameters (`deep` is accepted for scikit-learn)."""
        result = copy.deepcopy(self.sk_params)
        result.update({"build_fn": self.build_fn})
        return result

    def set_params(self, **params: Any) -> "BaseWrapper":
        """Updates the parameters (checked as in the constructor); returns self."""
        self.check_params(params)
        self.sk_params.update(params)
        return self

    def filter_sk_params(self, fn: Callable[..., Any],
                         override: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """The sk_params `fn` takes, updated with `override`."""
        result = {name: value for name, value in self.sk_params.items() if has_arg(fn, name)}
        result.update(override or {})
        return result

    def _loss_name(self) -> Any:
        loss = self.model.loss
        return getattr(loss, "__name__", loss)

    def _one_hot_if_needed(self, y: np.ndarray) -> np.ndarray:
        # integer labels for a categorical_crossentropy model become one-hot rows
        if self._loss_name() == "categorical_crossentropy" and len(y.shape) != 2:
            return to_categorical(y)
        return y

    def fit(self, x: Any, y: Any, **kwargs: Any) -> Any:
        """Builds a new model with build_fn and fits it; returns the History."""
        target = self._build_fn_target()
        build = self.__call__ if self.build_fn is None else self.build_fn  # type: ignore
        self.model = build(**self.filter_sk_params(target))
        y = self._one_hot_if_needed(np.asarray(y))
        fit_args = copy.deepcopy(self.filter_sk_params(Sequential.fit))
        fit_args.update(kwargs)
        return self.model.fit(x, y, **fit_args)


class KerasClassifier(BaseWrapper):
    """scikit-learn classifier API: labels of any sortable kind (`classes_`) or one-hot."""

    _estimator_type = "classifier"

    def fit(self, x: Any, y: Any, sample_weight: Any = None, **kwargs: Any) -> Any:
        """Fits on `y` as class labels (mapped to 0..n-1) or one-hot rows."""
        y = np.array(y)
        if len(y.shape) == 2 and y.shape[1] > 1:
            self.classes_ = np.arange(y.shape[1])
        elif (len(y.shape) == 2 and y.shape[1] == 1) or len(y.shape) == 1:
            self.classes_ = np.unique(y)
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError("Invalid shape for y: " + str(y.shape))
        self.n_classes_ = len(self.classes_)
        if sample_weight is not None:
            kwargs["sample_weight"] = sample_weight
        return super().fit(x, y, **kwargs)

    def predict(self, x: Any, **kwargs: Any) -> np.ndarray:
        """The predicted labels (from `classes_`)."""
        kwargs = self.filter_sk_params(Sequential.predict_classes, kwargs)
        proba = self.model.predict(x, **kwargs)
        if proba.shape[-1] > 1:
            classes = proba.argmax(axis=-1)
        else:
            classes = (proba > 0.5).astype("int32")
        return self.classes_[classes]

    def predict_proba(self, x: Any, **kwargs: Any) -> np.ndarray:
        """Class probabilities, [n_samples, n_classes] (two columns for one sigmoid)."""
        kwargs = self.filter_sk_params(Sequential.predict_proba, kwargs)
        probs = self.model.predict(x, **kwargs)
        if probs.shape[1] == 1:
            probs = np.hstack([1 - probs, probs])
        return probs

    def score(self, x: Any, y: Any, **kwargs: Any) -> Any:
        """The model's accuracy on (x, y); ValueError unless it was compiled with it."""
        y = self._one_hot_if_needed(np.searchsorted(self.classes_, y))
        kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
        outputs = to_list(self.model.evaluate(x, y, **kwargs))
        for name, output in zip(self.model.metrics_names, outputs):
            if name in ("accuracy", "acc"):
                return output
        raise ValueError("The model is not configured to compute accuracy. You should pass "
                         "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


class KerasRegressor(BaseWrapper):
    """scikit-learn regressor API."""

    _estimator_type = "regressor"

    def predict(self, x: Any, **kwargs: Any) -> np.ndarray:
        """The predictions, squeezed."""
        kwargs = self.filter_sk_params(Sequential.predict, kwargs)
        return np.squeeze(self.model.predict(x, **kwargs))

    def score(self, x: Any, y: Any, **kwargs: Any) -> Any:
        """Minus the loss on (x, y) (scikit-learn maximizes scores)."""
        kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
        loss = self.model.evaluate(x, y, **kwargs)
        return -loss[0] if isinstance(loss, list) else -loss
