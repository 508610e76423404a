"""`tf.keras.layers.MultiHeadAttention`: scaled dot-product attention over several heads.

Built on the first call from the shapes of query/value/key: EinsumDense projections
`query`, `key`, `value` (kernels [dim, heads, key_dim or value_dim]) and `attention_output`
([heads, value_dim, out]), a Softmax over the attention axes and a Dropout on the scores,
with the einsum equations tf-keras derives from the ranks. Masks come from
`attention_mask`, the query/value/key Keras masks and `use_causal_mask`. Ragged inputs are
not supported.
"""

from __future__ import annotations

import collections.abc
import math
import string
from typing import Any, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.masking import get_mask
from tf1compat.keras.layers.advanced import Softmax
from tf1compat.keras.layers.core import Dropout
from tf1compat.keras.layers.einsum_dense import EinsumDense
from tf1compat.ops import array_ops, creation_ops, math_ops
from tf1compat.ops.linalg_ops import einsum
from tf1compat.util import tf_logging as logging

__all__ = ["MultiHeadAttention"]

_CHR_IDX = string.ascii_lowercase


def _build_attention_equation(rank: int, attn_axes: Tuple[int, ...]) -> Tuple[str, str, int]:
    """(dot-product equation key,query->scores, combine equation scores,value->output,
    rank of the scores) for projected tensors of `rank` attending over `attn_axes`."""
    target = _CHR_IDX[:rank]
    batch_dims = tuple(i for i in range(rank) if i not in attn_axes + (rank - 1,))
    offset = rank
    source = ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _CHR_IDX[offset]
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes] +
                      [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def _build_proj_equation(free_dims: int, bound_dims: int, output_dims: int
                         ) -> Tuple[str, str, int]:
    """(equation, bias axes, output rank) of a projection keeping `free_dims`, contracting
    `bound_dims` and adding `output_dims`."""
    input_str = kernel_str = output_str = bias_axes = ""
    letters = iter(_CHR_IDX)
    for _ in range(free_dims):
        char = next(letters)
        input_str += char
        output_str += char
    for _ in range(bound_dims):
        char = next(letters)
        input_str += char
        kernel_str += char
    for _ in range(output_dims):
        char = next(letters)
        kernel_str += char
        output_str += char
        bias_axes += char
    return f"{input_str},{kernel_str}->{output_str}", bias_axes, len(output_str)


def _get_output_shape(output_rank: int, known_last_dims: Any) -> list:
    return [None] * (output_rank - len(known_last_dims)) + list(known_last_dims)


class MultiHeadAttention(Layer):
    """`MultiHeadAttention(num_heads, key_dim, value_dim, dropout, use_bias, output_shape,
    attention_axes, ...)` called as `layer(query, value, key=None, attention_mask=None,
    return_attention_scores=False, training=None, use_causal_mask=False)`."""

    def __init__(self, num_heads: int, key_dim: int, value_dim: Optional[int] = None,
                 dropout: float = 0.0, use_bias: bool = True, output_shape: Any = None,
                 attention_axes: Any = None, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None,
                 softmax_robust_masking: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads = num_heads
        self._key_dim = key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout = dropout
        self._use_bias = use_bias
        self._output_shape = output_shape
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        # As tf-keras, this is also the layer's own activity regularizer.
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self._softmax_robust_masking = softmax_robust_masking
        if attention_axes is not None and not isinstance(attention_axes,
                                                         collections.abc.Sized):
            self._attention_axes: Any = (attention_axes,)
        else:
            self._attention_axes = attention_axes
        self._built_from_signature = False
        self._query_shape: Any = None
        self._key_shape: Any = None
        self._value_shape: Any = None

    def get_config(self) -> dict:
        config = {
            "num_heads": self._num_heads, "key_dim": self._key_dim,
            "value_dim": self._value_dim, "dropout": self._dropout,
            "use_bias": self._use_bias, "output_shape": self._output_shape,
            "attention_axes": self._attention_axes,
            "kernel_initializer": initializers.serialize(self._kernel_initializer),
            "bias_initializer": initializers.serialize(self._bias_initializer),
            "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self._bias_regularizer),
            "activity_regularizer": regularizers.serialize(self._activity_regularizer),
            "kernel_constraint": constraints.serialize(self._kernel_constraint),
            "bias_constraint": constraints.serialize(self._bias_constraint),
            "query_shape": self._query_shape, "key_shape": self._key_shape,
            "value_shape": self._value_shape,
            "softmax_robust_masking": self._softmax_robust_masking}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config: dict) -> "MultiHeadAttention":
        config = dict(config)
        shapes = [config.pop(k) for k in ("query_shape", "key_shape", "value_shape")]
        layer = cls(**config)
        if None in shapes:
            logging.warning("One of dimensions of the input shape is missing. It should have "
                            "been memorized when the layer was serialized. %s is created "
                            "without weights.", str(cls))
        else:
            query_shape, key_shape, value_shape = shapes
            layer._build_from_signature(query_shape, value_shape, key_shape)
        return layer

    def _build_from_signature(self, query: Any, value: Any, key: Any = None) -> None:
        def shape_of(x: Any) -> TensorShape:
            return TensorShape(x.shape if hasattr(x, "shape") else x)
        self._built_from_signature = True
        self._query_shape = shape_of(query)
        self._value_shape = shape_of(value)
        self._key_shape = self._value_shape if key is None else shape_of(key)
        free_dims = self._query_shape.rank - 1
        self._query_dense = self._projection(free_dims, self._key_dim, "query")
        self._key_dense = self._projection(self._key_shape.rank - 1, self._key_dim, "key")
        self._value_dense = self._projection(self._value_shape.rank - 1, self._value_dim,
                                             "value")
        output_rank = self._value_shape.rank + 1
        self._build_attention(output_rank)
        self._output_dense = self._make_output_dense(free_dims, "attention_output")

    def _common_kwargs(self) -> dict:
        # Each sublayer gets its own copy of the initializers.
        return dict(kernel_regularizer=self._kernel_regularizer,
                    bias_regularizer=self._bias_regularizer,
                    activity_regularizer=self._activity_regularizer,
                    kernel_constraint=self._kernel_constraint,
                    bias_constraint=self._bias_constraint, dtype=self.dtype,
                    kernel_initializer=type(self._kernel_initializer).from_config(
                        self._kernel_initializer.get_config()),
                    bias_initializer=type(self._bias_initializer).from_config(
                        self._bias_initializer.get_config()))

    def _projection(self, free_dims: int, size: int, name: str) -> EinsumDense:
        equation, bias_axes, output_rank = _build_proj_equation(free_dims, bound_dims=1,
                                                                output_dims=2)
        return EinsumDense(equation,
                           output_shape=_get_output_shape(output_rank - 1,
                                                          [self._num_heads, size]),
                           bias_axes=bias_axes if self._use_bias else None, name=name,
                           **self._common_kwargs())

    def _make_output_dense(self, free_dims: int, name: str) -> EinsumDense:
        if self._output_shape:
            output_shape = self._output_shape if isinstance(
                self._output_shape, collections.abc.Sized) else [self._output_shape]
        else:
            output_shape = [self._query_shape[-1]]
        equation, bias_axes, output_rank = _build_proj_equation(
            free_dims, bound_dims=2, output_dims=len(output_shape))
        return EinsumDense(equation,
                           output_shape=_get_output_shape(output_rank - 1, output_shape),
                           bias_axes=bias_axes if self._use_bias else None, name=name,
                           **self._common_kwargs())

    def _build_attention(self, rank: int) -> None:
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, rank - 2))
        else:
            self._attention_axes = tuple(self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = \
            _build_attention_equation(rank, attn_axes=self._attention_axes)
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, robust_masking=self._softmax_robust_masking,
                                dtype=self.dtype)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype)

    def _masked_softmax(self, attention_scores: Any, attention_mask: Any = None) -> Any:
        if attention_mask is not None:
            # The mask is [B, T, S] (or broadcastable): insert the heads axis (and more
            # for several attention axes) before the query/key axes.
            expansion_axis = -len(self._attention_axes) * 2 - 1
            for _ in range(len(attention_scores.shape) - len(attention_mask.shape)):
                attention_mask = array_ops.expand_dims(attention_mask, axis=expansion_axis)
        return self._softmax(attention_scores, attention_mask)

    def _compute_attention(self, query: Any, key: Any, value: Any,
                           attention_mask: Any = None, training: Any = None) -> Tuple[Any, Any]:
        query = math_ops.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))
        attention_scores = einsum(self._dot_product_equation, key, query)
        attention_scores = self._masked_softmax(attention_scores, attention_mask)
        scores_dropout = self._dropout_layer(attention_scores, training=training)
        attention_output = einsum(self._combine_equation, scores_dropout, value)
        return attention_output, attention_scores

    def call(self, query: Any, value: Any, key: Any = None, attention_mask: Any = None,
             return_attention_scores: bool = False, training: Any = None,
             use_causal_mask: bool = False) -> Any:
        if type(query).__name__ == "RaggedTensor":
            raise NotImplementedError("MultiHeadAttention on RaggedTensor inputs is not "
                                      "supported by tf1compat")
        if not self._built_from_signature:
            self._build_from_signature(query=query, value=value, key=key)
        if key is None:
            key = value
        attention_mask = self._compute_attention_mask(query, value, key=key,
                                                      attention_mask=attention_mask,
                                                      use_causal_mask=use_causal_mask)
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        attention_output, attention_scores = self._compute_attention(
            query, key, value, attention_mask, training)
        attention_output = self._output_dense(attention_output)
        if return_attention_scores:
            return attention_output, attention_scores
        return attention_output

    def _compute_attention_mask(self, query: Any, value: Any, key: Any = None,
                                attention_mask: Any = None,
                                use_causal_mask: bool = False) -> Any:
        """The query ([B, T, 1]), value and key ([B, 1, S]) Keras masks, the causal mask
        and `attention_mask`, and-ed together."""
        auto_mask = None
        query_mask = get_mask(query)
        if query_mask is not None:
            auto_mask = math_ops.cast(query_mask, D.bool)[:, :, None]
        for other in (value, key):
            other_mask = get_mask(other)
            if other_mask is not None:
                mask = math_ops.cast(other_mask, D.bool)[:, None, :]
                auto_mask = mask if auto_mask is None else auto_mask & mask
        if use_causal_mask:
            mask = self._compute_causal_mask(query, value)
            auto_mask = mask if auto_mask is None else auto_mask & mask
        if auto_mask is not None:
            attention_mask = auto_mask if attention_mask is None else \
                math_ops.cast(attention_mask, D.bool) & auto_mask
        return attention_mask

    def _compute_causal_mask(self, query: Any, value: Any = None) -> Any:
        from tf1compat.ops.matrix_ops import matrix_band_part
        q_len = array_ops.shape(query)[1]
        v_len = q_len if value is None else array_ops.shape(value)[1]
        # A lower triangular [1, T, S] matrix: each query position sees the past.
        return matrix_band_part(creation_ops.ones((1, q_len, v_len), D.bool), -1, 0)

    def compute_output_shape(self, query_shape: Any, value_shape: Any,
                             key_shape: Any = None) -> TensorShape:
        if key_shape is None:
            key_shape = value_shape
        query_shape, value_shape = TensorShape(query_shape), TensorShape(value_shape)
        key_shape = TensorShape(key_shape)
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be "
                             f"equal, but are {query_shape[-1]}, {value_shape[-1]}. Received: "
                             f"query_shape={query_shape}, value_shape={value_shape}")
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError("All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received {value_shape} and {key_shape}")
        if self._output_shape:
            return query_shape[:-1].concatenate(self._output_shape)
        return query_shape
