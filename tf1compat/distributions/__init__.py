"""`tf.distributions`: TF 1.x's probability distributions (deprecated in TF in favour of
TensorFlow Probability, kept for TF1 programs)."""

# ruff: noqa: F401
from tf1compat.distributions.continuous import (Beta, Exponential, Gamma, Laplace, Normal,
                                                StudentT, Uniform)
from tf1compat.distributions.discrete import (Bernoulli, Categorical, Dirichlet,
                                              DirichletMultinomial, Multinomial)
from tf1compat.distributions.distribution import (FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED,
                                                  Distribution, ReparameterizationType)
from tf1compat.distributions.kullback_leibler import RegisterKL, kl_divergence
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("distributions", globals())
