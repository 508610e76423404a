"""Keras dot-product (Luong) and additive (Bahdanau) attention layers, tf-keras's
BaseDenseAttention: inputs `[query, value]` or `[query, value, key]`, masks
`[query_mask, value_mask]` (masked values score -1e9; masked queries output zeros),
`use_causal_mask`, attention dropout, `return_attention_scores`."""

from __future__ import annotations

from typing import Any, List

from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.layers.core import LegacySeed, smart_cond
from tf1compat.ops import array_ops, math_ops

__all__ = ["Attention", "AdditiveAttention"]


def _lower_triangular(shape: Any) -> Any:
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.reduction_ops import cumsum
    rows = cumsum(ones(shape, dtype="int32"), axis=-2)
    cols = cumsum(ones(shape, dtype="int32"), axis=-1)
    return math_ops.greater_equal(rows, cols)


def _matmul(a: Any, b: Any, transpose_b: bool = False) -> Any:
    from tf1compat.ops.linalg_ops import matmul
    return matmul(a, b, transpose_b=transpose_b)


def _merge_masks(x: Any, y: Any) -> Any:
    if x is None:
        return y
    if y is None:
        return x
    return math_ops.logical_and(x, y)


class _BaseDenseAttention(Layer):
    def __init__(self, dropout: float = 0.0, **kwargs: Any):
        self.causal = kwargs.pop("causal", False)
        seed = kwargs.pop("seed", None)
        super().__init__(**kwargs)
        self.dropout = dropout
        self.supports_masking = True
        self._seeds = LegacySeed(seed)

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        raise NotImplementedError

    def _apply_scores(self, scores: Any, value: Any, scores_mask: Any, training: Any) -> tuple:
        from tf1compat.ops.nn_ops import dropout_v2, softmax
        if scores_mask is not None:
            padding = math_ops.cast(math_ops.logical_not(scores_mask), scores.dtype)
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = scores - big * padding
        if training is None:
            training = backend.learning_phase()
        weights = softmax(scores)
        if self.dropout > 0:
            weights = smart_cond(training, lambda: dropout_v2(weights, self.dropout,
                                                              seed=self._seeds.next()),
                                 lambda: array_ops.identity(weights))
        return _matmul(weights, value), weights

    def _validate(self, inputs: Any, mask: Any) -> None:
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely "
                             "[query, value] or [query, value, key]. Received length: "
                             f"{len(inputs)}.")
        if mask:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, "
                                 f"value_mask]. Received: {mask}.")
            if len(mask) < 2 or len(mask) > len(inputs):
                raise ValueError(f"{name} layer mask must be a list of length 2, namely "
                                 f"[query_mask, value_mask]. Received length: {len(mask)}.")

    def call(self, inputs: List[Any], mask: Any = None, training: Any = None,
             return_attention_scores: bool = False, use_causal_mask: bool = False) -> Any:
        from tf1compat.ops.array_ops import concat, shape
        from tf1compat.ops.creation_ops import ones_like
        self._validate(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = mask[0] if mask else None
        value_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=query, key=key)
        if value_mask is not None:
            value_mask = array_ops.expand_dims(value_mask, axis=-2)
        causal_mask = None
        if self.causal or use_causal_mask:
            scores_shape = shape(scores)
            causal_mask = _lower_triangular(concat([ones_like(scores_shape[:-2]),
                                                    scores_shape[-2:]], axis=0))
        result, scores = self._apply_scores(scores, value, _merge_masks(value_mask,
                                                                        causal_mask),
                                            training)
        if query_mask is not None:
            result = result * math_ops.cast(array_ops.expand_dims(query_mask, axis=-1),
                                            result.dtype)
        if return_attention_scores:
            return result, scores
        return result

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        self._validate(inputs, mask)
        if mask and mask[0] is not None:
            from tf1compat.framework.tensor_conversion import convert_to_tensor
            return convert_to_tensor(mask[0])
        return None

    def compute_output_shape(self, input_shape: Any) -> Any:
        return TensorShape(input_shape[0])

    def get_config(self) -> dict:
        return {**super().get_config(), "dropout": self.dropout}


class Attention(_BaseDenseAttention):
    """Dot-product attention: scores = query . key^T (times a learned `scale`), or with
    score_mode="concat" sum(tanh(query + key))."""

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", **kwargs: Any):
        super().__init__(**kwargs)
        self.use_scale = use_scale
        self.score_mode = score_mode
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Received: score_mode={score_mode}. Acceptable values are: "
                             "[\"dot\", \"concat\"]")

    def build(self, input_shape: Any) -> None:
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones",
                                     dtype=self.dtype, trainable=True) \
            if self.use_scale else None
        self.concat_score_weight = self.add_weight(
            name="concat_score_weight", shape=(), initializer="ones", dtype=self.dtype,
            trainable=True) if self.score_mode == "concat" else None
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        from tf1compat.ops.reduction_ops import reduce_sum
        if self.score_mode == "dot":
            scores = _matmul(query, key, transpose_b=True)
            if self.scale is not None:
                scores = scores * self.scale
            return scores
        total = array_ops.expand_dims(query, axis=-2) + array_ops.expand_dims(key, axis=-3)
        if self.scale is not None:
            total = self.scale * total
        return self.concat_score_weight * reduce_sum(math_ops.tanh(total), axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale,
                "score_mode": self.score_mode}


class AdditiveAttention(_BaseDenseAttention):
    """Bahdanau attention: scores = sum(scale * tanh(query + key)) with a learned
    per-feature `scale` (glorot_uniform)."""

    def __init__(self, use_scale: bool = True, **kwargs: Any):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape: Any) -> None:
        dim = dimension_value(TensorShape(input_shape[1])[-1])
        self.scale = self.add_weight(name="scale", shape=[dim], initializer="glorot_uniform",
                                     dtype=self.dtype, trainable=True) \
            if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query: Any, key: Any) -> Any:
        from tf1compat.ops.reduction_ops import reduce_sum
        scale = self.scale if self.use_scale else 1.0
        total = array_ops.expand_dims(query, axis=-2) + array_ops.expand_dims(key, axis=-3)
        return reduce_sum(scale * math_ops.tanh(total), axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale}

