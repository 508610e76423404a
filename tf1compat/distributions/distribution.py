"""`tf.distributions.Distribution`, TF 1.x's base class, and the reparameterization
types.

Public methods (`sample`, `log_prob`, `cdf`, `mean`, ...) open the distribution's name
scope and then the method's, convert values, and fall back between related private
methods (`_log_prob` <-> `_prob`, `_variance` <-> `_stddev`, ...) as TF 1.x's base class
does, so graphs carry TF's op names (`Normal/sample/...`, `Normal/log_prob/...`).
"""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.reduction_ops import reduce_prod

__all__ = ["ReparameterizationType", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED",
           "Distribution"]


class ReparameterizationType:
    """Whether samples are reparameterized (differentiable in the parameters)."""

    def __init__(self, rep_type: str):
        self._rep_type = rep_type

    def __repr__(self) -> str:
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other: Any) -> bool:
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def _convert(value: Any, name: str, preferred_dtype: Optional[D.DType]) -> Tensor:
    return convert_to_tensor(value, name=name, dtype_hint=preferred_dtype)


class Distribution:
    """A batch of probability distributions (TF 1.x's `tf.distributions.Distribution`).

    Subclasses implement the private `_sample_n`, `_log_prob`, `_cdf`, `_mean`, ... and
    the shape hooks `_batch_shape(_tensor)`, `_event_shape(_tensor)`.
    """

    def __init__(self, dtype: Any, reparameterization_type: ReparameterizationType,
                 validate_args: bool, allow_nan_stats: bool,
                 parameters: Optional[Dict[str, Any]] = None,
                 graph_parents: Optional[List[Tensor]] = None, name: Optional[str] = None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not is_tensor(t):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        if not name or name[-1] != "/":
            with name_scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = dict(parameters or {})
        self._parameters.pop("self", None)
        self._graph_parents = graph_parents
        self._name = name

    # -- properties --------------------------------------------------------------------
    @classmethod
    def param_shapes(cls, sample_shape: Any, name: str = "DistributionParamShapes") -> dict:
        """The parameter shapes that give samples of shape `sample_shape`."""
        with name_scope(name, values=[sample_shape]):
            return cls._param_shapes(sample_shape)

    @classmethod
    def param_static_shapes(cls, sample_shape: Any) -> Dict[str, TensorShape]:
        """`param_shapes` as static TensorShapes (sample_shape must be known)."""
        if isinstance(sample_shape, TensorShape):
            if not sample_shape.is_fully_defined():
                raise ValueError("TensorShape sample_shape must be fully defined")
            sample_shape = sample_shape.as_list()
        out = {}
        for key, shape in cls.param_shapes(sample_shape).items():
            static = constant_value(shape)
            if static is None:
                raise ValueError("sample_shape must be a fully-defined TensorShape or "
                                 "list/tuple")
            out[key] = TensorShape(static)
        return out

    @staticmethod
    def _param_shapes(sample_shape: Any) -> dict:
        raise NotImplementedError("_param_shapes not implemented")

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def parameters(self) -> Dict[str, Any]:
        return {k: v for k, v in self._parameters.items() if not k.startswith("__")
                and k != "self"}

    @property
    def reparameterization_type(self) -> ReparameterizationType:
        return self._reparameterization_type

    @property
    def allow_nan_stats(self) -> bool:
        return self._allow_nan_stats

    @property
    def validate_args(self) -> bool:
        return self._validate_args

    def copy(self, **override_parameters_kwargs: Any) -> "Distribution":
        """A new distribution of this type with some parameters replaced."""
        parameters = dict(self.parameters, **override_parameters_kwargs)
        return type(self)(**parameters)

    # -- shapes ---------------------------------------------------------------------------
    def _batch_shape_tensor(self) -> Tensor:
        raise NotImplementedError(f"batch_shape_tensor is not implemented: "
                                  f"{type(self).__name__}")

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Tensor:
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return convert_to_tensor(self.batch_shape.as_list(), dtype=D.int32,
                                         name="batch_shape")
            return self._batch_shape_tensor()

    def _batch_shape(self) -> TensorShape:
        return TensorShape(None)

    @property
    def batch_shape(self) -> TensorShape:
        return as_shape(self._batch_shape())

    def _event_shape_tensor(self) -> Tensor:
        raise NotImplementedError(f"event_shape_tensor is not implemented: "
                                  f"{type(self).__name__}")

    def event_shape_tensor(self, name: str = "event_shape_tensor") -> Tensor:
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return convert_to_tensor(self.event_shape.as_list(), dtype=D.int32,
                                         name="event_shape")
            return self._event_shape_tensor()

    def _event_shape(self) -> TensorShape:
        return TensorShape(None)

    @property
    def event_shape(self) -> TensorShape:
        return as_shape(self._event_shape())

    def is_scalar_event(self, name: str = "is_scalar_event") -> Tensor:
        with self._name_scope(name):
            return convert_to_tensor(self._is_scalar_helper(self.event_shape,
                                                            self.event_shape_tensor),
                                     name="is_scalar_event")

    def is_scalar_batch(self, name: str = "is_scalar_batch") -> Tensor:
        with self._name_scope(name):
            return convert_to_tensor(self._is_scalar_helper(self.batch_shape,
                                                            self.batch_shape_tensor),
                                     name="is_scalar_batch")

    # -- sampling ---------------------------------------------------------------------------
    def _sample_n(self, n: Any, seed: Optional[int] = None) -> Tensor:
        raise NotImplementedError(f"sample_n is not implemented: {type(self).__name__}")

    def sample(self, sample_shape: Any = (), seed: Optional[int] = None,
               name: str = "sample") -> Tensor:
        """Samples of shape `sample_shape + batch_shape + event_shape`."""
        with self._name_scope(name, values=[sample_shape]):
            sample_shape = convert_to_tensor(sample_shape, dtype=D.int32, name="sample_shape")
            sample_shape, n = self._expand_sample_shape_to_vector(sample_shape, "sample_shape")
            samples = self._sample_n(n, seed)
            batch_event_shape = array_ops.shape(samples)[1:]
            final_shape = array_ops.concat([sample_shape, batch_event_shape], 0)
            samples = array_ops.reshape(samples, final_shape)
            return self._set_sample_static_shape(samples, sample_shape)

    # -- densities, with TF's fallbacks ------------------------------------------------------
    def _value_method(self, name: str, value: Any, primary: str, fallback: Any) -> Tensor:
        with self._name_scope(name, values=[value]):
            value = _convert(value, "value", self.dtype)
            try:
                return getattr(self, primary)(value)
            except NotImplementedError as original:
                try:
                    return fallback(value)
                except NotImplementedError:
                    raise original from None

    def _log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"log_prob is not implemented: {type(self).__name__}")

    def log_prob(self, value: Any, name: str = "log_prob") -> Tensor:
        return self._value_method(name, value, "_log_prob",
                                  lambda v: math_ops.log(self._prob(v)))

    def _prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"prob is not implemented: {type(self).__name__}")

    def prob(self, value: Any, name: str = "prob") -> Tensor:
        return self._value_method(name, value, "_prob",
                                  lambda v: math_ops.exp(self._log_prob(v)))

    def _log_cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"log_cdf is not implemented: {type(self).__name__}")

    def log_cdf(self, value: Any, name: str = "log_cdf") -> Tensor:
        return self._value_method(name, value, "_log_cdf",
                                  lambda v: math_ops.log(self._cdf(v)))

    def _cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"cdf is not implemented: {type(self).__name__}")

    def cdf(self, value: Any, name: str = "cdf") -> Tensor:
        return self._value_method(name, value, "_cdf",
                                  lambda v: math_ops.exp(self._log_cdf(v)))

    def _log_survival_function(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"log_survival_function is not implemented: "
                                  f"{type(self).__name__}")

    def log_survival_function(self, value: Any, name: str = "log_survival_function") -> Tensor:
        return self._value_method(name, value, "_log_survival_function",
                                  lambda v: math_ops.log1p(-self.cdf(v)))

    def _survival_function(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"survival_function is not implemented: "
                                  f"{type(self).__name__}")

    def survival_function(self, value: Any, name: str = "survival_function") -> Tensor:
        return self._value_method(name, value, "_survival_function",
                                  lambda v: 1.0 - self.cdf(v))

    def _quantile(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"quantile is not implemented: {type(self).__name__}")

    def quantile(self, value: Any, name: str = "quantile") -> Tensor:
        with self._name_scope(name, values=[value]):
            return self._quantile(_convert(value, "value", self.dtype))

    # -- statistics ---------------------------------------------------------------------------
    def _entropy(self) -> Tensor:
        raise NotImplementedError(f"entropy is not implemented: {type(self).__name__}")

    def entropy(self, name: str = "entropy") -> Tensor:
        with self._name_scope(name):
            return self._entropy()

    def _mean(self) -> Tensor:
        raise NotImplementedError(f"mean is not implemented: {type(self).__name__}")

    def mean(self, name: str = "mean") -> Tensor:
        with self._name_scope(name):
            return self._mean()

    def _variance(self) -> Tensor:
        raise NotImplementedError(f"variance is not implemented: {type(self).__name__}")

    def variance(self, name: str = "variance") -> Tensor:
        with self._name_scope(name):
            try:
                return self._variance()
            except NotImplementedError as original:
                try:
                    return math_ops.square(self._stddev())
                except NotImplementedError:
                    raise original from None

    def _stddev(self) -> Tensor:
        raise NotImplementedError(f"stddev is not implemented: {type(self).__name__}")

    def stddev(self, name: str = "stddev") -> Tensor:
        with self._name_scope(name):
            try:
                return self._stddev()
            except NotImplementedError as original:
                try:
                    return math_ops.sqrt(self._variance())
                except NotImplementedError:
                    raise original from None

    def _covariance(self) -> Tensor:
        raise NotImplementedError(f"covariance is not implemented: {type(self).__name__}")

    def covariance(self, name: str = "covariance") -> Tensor:
        with self._name_scope(name):
            return self._covariance()

    def _mode(self) -> Tensor:
        raise NotImplementedError(f"mode is not implemented: {type(self).__name__}")

    def mode(self, name: str = "mode") -> Tensor:
        with self._name_scope(name):
            return self._mode()

    def cross_entropy(self, other: "Distribution", name: str = "cross_entropy") -> Tensor:
        from tf1compat.distributions.kullback_leibler import cross_entropy
        with self._name_scope(name):
            return cross_entropy(self, other, allow_nan_stats=self.allow_nan_stats)

    def kl_divergence(self, other: "Distribution", name: str = "kl_divergence") -> Tensor:
        from tf1compat.distributions.kullback_leibler import kl_divergence
        with self._name_scope(name):
            return kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    # -- printing -----------------------------------------------------------------------------
    def __str__(self) -> str:
        batch = f", batch_shape={self.batch_shape}" if self.batch_shape.rank is not None \
            else ""
        event = f", event_shape={self.event_shape}" if self.event_shape.rank is not None \
            else ""
        return (f'tfp.distributions.{type(self).__name__}("{self.name}"{batch}{event}, '
                f"dtype={self.dtype.name})")

    def __repr__(self) -> str:
        return (f"<tfp.distributions.{type(self).__name__} '{self.name}' "
                f"batch_shape={self.batch_shape} event_shape={self.event_shape} "
                f"dtype={self.dtype.name}>")

    # -- helpers ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _name_scope(self, name: Optional[str] = None, values: Optional[list] = None
                    ) -> Iterator[str]:
        with name_scope(self.name):
            with name_scope(name, values=(values or []) + self._graph_parents) as scope:
                yield scope

    def _expand_sample_shape_to_vector(self, x: Tensor, name: str) -> Tuple[Tensor, Any]:
        static = constant_value(x)
        prod = reduce_prod(x) if static is None else \
            np.prod(static, dtype=x.dtype.as_numpy_dtype)
        ndims = x.shape.rank
        if ndims is None:
            from tf1compat.ops.cond import cond
            expanded = cond(math_ops.equal(array_ops.rank(x), 0),
                            lambda: convert_to_tensor(np.array([1], dtype=np.int32)),
                            lambda: array_ops.shape(x))
            x = array_ops.reshape(x, expanded)
        elif ndims == 0:
            if static is not None:
                x = convert_to_tensor(np.array([static], dtype=x.dtype.as_numpy_dtype),
                                      name=name)
            else:
                x = array_ops.reshape(x, [1])
        elif ndims != 1:
            raise ValueError("Input is neither scalar nor vector.")
        return x, prod

    def _set_sample_static_shape(self, x: Tensor, sample_shape: Tensor) -> Tensor:
        sample = TensorShape(constant_value(sample_shape))
        ndims = x.shape.rank
        sample_ndims, batch_ndims = sample.rank, self.batch_shape.rank
        event_ndims = self.event_shape.rank
        if ndims is None and None not in (sample_ndims, batch_ndims, event_ndims):
            ndims = sample_ndims + batch_ndims + event_ndims
            x.set_shape([None] * ndims)
        if ndims is not None and sample_ndims is not None:
            x.set_shape(x.shape.merge_with(sample.concatenate([None] * (ndims - sample_ndims))))
        if ndims is not None and event_ndims is not None:
            x.set_shape(x.shape.merge_with(TensorShape([None] * (ndims - event_ndims))
                                           .concatenate(self.event_shape)))
        if batch_ndims is not None:
            if ndims is not None:
                if sample_ndims is None and event_ndims is not None:
                    sample_ndims = ndims - batch_ndims - event_ndims
                elif event_ndims is None and sample_ndims is not None:
                    event_ndims = ndims - batch_ndims - sample_ndims
            if sample_ndims is not None and event_ndims is not None:
                x.set_shape(x.shape.merge_with(TensorShape([None] * sample_ndims)
                                               .concatenate(self.batch_shape)
                                               .concatenate([None] * event_ndims)))
        return x

    @staticmethod
    def _is_scalar_helper(static_shape: TensorShape, dynamic_shape_fn: Any) -> Any:
        if static_shape.rank is not None:
            return static_shape.rank == 0
        shape = dynamic_shape_fn()
        if shape.shape.rank is not None and shape.shape.as_list()[0] is not None:
            return shape.shape.as_list() == [0]
        return math_ops.equal(array_ops.shape(shape)[0], 0)
