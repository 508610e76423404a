"""`tf.contrib.distributions.bijectors`: invertible maps for TransformedDistribution.
A TF 1.15 bijector tf1compat does not implement raises UnimplementedAPIError naming it."""

# ruff: noqa: F401
from tf1compat.contrib.distributions.bijectors.batch_norm import BatchNormalization
from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.contrib.distributions.bijectors.extra import (CholeskyOuterProduct, Kumaraswamy,
                                                             MatrixInverseTriL, Ordered,
                                                             SinhArcsinh, SoftmaxCentered)
from tf1compat.contrib.distributions.bijectors.flows import (
    MaskedAutoregressiveFlow, RealNVP, masked_autoregressive_default_template, masked_dense,
    real_nvp_default_template)
from tf1compat.contrib.distributions.bijectors.matrix import (Affine, AffineLinearOperator,
                                                              FillTriangular, Permute, Reshape,
                                                              ScaleTriL, TransformDiagonal)
from tf1compat.contrib.distributions.bijectors.scalar import (AffineScalar, Chain, Exp,
                                                              Gumbel, Identity, Inline, Invert,
                                                              PowerTransform, Sigmoid,
                                                              Softplus, Softsign, Square)
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib.distributions.bijectors")
