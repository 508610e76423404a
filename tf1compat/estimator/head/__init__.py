"""The v2 heads of tf.estimator (tensorflow-estimator 2.15's head/ package): `Head`,
`BinaryClassHead`, `MultiClassHead`, `RegressionHead`, `PoissonRegressionHead`,
`LogisticRegressionHead`, `MultiLabelHead`, `MultiHead`."""

# ruff: noqa: F401
from tf1compat.estimator.head.base_head import Head
from tf1compat.estimator.head.classification_heads import BinaryClassHead, MultiClassHead
from tf1compat.estimator.head.regression_head import (LogisticRegressionHead,
                                                      PoissonRegressionHead, RegressionHead)
from tf1compat.estimator.head.multi_label_head import MultiLabelHead
from tf1compat.estimator.head.multi_head import MultiHead
