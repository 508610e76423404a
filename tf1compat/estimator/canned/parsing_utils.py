"""`tf.estimator.classifier_parse_example_spec` / `regressor_parse_example_spec`: the
tf.Example parsing spec of feature columns plus the label (and weight) features."""

from __future__ import annotations

from typing import Any, Dict, Sequence

from tf1compat.framework import dtypes

__all__ = ["classifier_parse_example_spec", "regressor_parse_example_spec"]


def _add_label_and_weight(spec: Dict[str, Any], label_key: str, label_spec: Any,
                          weight_column: Any = None) -> Dict[str, Any]:
    from tf1compat.feature_column.columns import NumericColumn, numeric_column
    if label_key in spec:
        raise ValueError(f"label should not be used as feature. label_key: {label_key}, "
                         f"features: {spec.keys()}")
    spec[label_key] = label_spec
    if weight_column is None:
        return spec
    if isinstance(weight_column, str):
        weight_column = numeric_column(weight_column)
    if not isinstance(weight_column, NumericColumn):
        raise ValueError("weight_column should be an instance of "
                         "tf.feature_column.numeric_column. Given type: "
                         f"{type(weight_column)} value: {weight_column}")
    if weight_column.key in spec:
        raise ValueError(f"weight_column should not be used as feature. weight_column: "
                         f"{weight_column.key}, features: {spec.keys()}")
    spec.update(weight_column._parse_example_spec)
    return spec


def classifier_parse_example_spec(feature_columns: Sequence[Any], label_key: str,
                                  label_dtype: Any = dtypes.int64, label_default: Any = None,
                                  weight_column: Any = None) -> Dict[str, Any]:
    """The columns' parsing spec with an int64 `[1]` label (and the weight)."""
    from tf1compat.feature_column.layers import make_parse_example_spec
    from tf1compat.ops.parsing_ops import FixedLenFeature
    return _add_label_and_weight(make_parse_example_spec(feature_columns), label_key,
                                 FixedLenFeature((1,), label_dtype, label_default),
                                 weight_column)


def regressor_parse_example_spec(feature_columns: Sequence[Any], label_key: str,
                                 label_dtype: Any = dtypes.float32, label_default: Any = None,
                                 label_dimension: int = 1,
                                 weight_column: Any = None) -> Dict[str, Any]:
    """The columns' parsing spec with a float `[label_dimension]` label."""
    from tf1compat.feature_column.layers import make_parse_example_spec
    from tf1compat.ops.parsing_ops import FixedLenFeature
    return _add_label_and_weight(make_parse_example_spec(feature_columns), label_key,
                                 FixedLenFeature((label_dimension,), label_dtype,
                                                 label_default), weight_column)
