"""`tf.contrib.distributions` (TF 1.15): everything of `tf.distributions`, the contrib
distributions (multivariate normals, one-hot and relaxed categoricals, transformed,
independent and mixture distributions, the scalar families), `bijectors`, and the
helpers scripts call. A TF 1.15 name tf1compat does not implement raises
UnimplementedAPIError naming it."""

# ruff: noqa: F401
from tf1compat.contrib.distributions import bijectors
from tf1compat.contrib.distributions.distribution_util import (fill_triangular,
                                                               fill_triangular_inverse,
                                                               matrix_diag_transform,
                                                               reduce_weighted_logsumexp,
                                                               softplus_inverse, tridiag)
from tf1compat.contrib.distributions.categorical import (ExpRelaxedOneHotCategorical,
                                                         Logistic, OneHotCategorical,
                                                         RelaxedBernoulli,
                                                         RelaxedOneHotCategorical)
from tf1compat.contrib.distributions.meta import Autoregressive, Independent, MixtureSameFamily
from tf1compat.contrib.distributions.mixture import Mixture, QuantizedDistribution
from tf1compat.contrib.distributions.scalar import (BernoulliWithSigmoidProbs, Binomial, Cauchy,
                                                    Chi2, Chi2WithAbsDf, Deterministic,
                                                    Geometric, HalfNormal, InverseGamma,
                                                    InverseGammaWithSoftplusConcentrationRate,
                                                    NegativeBinomial, Poisson,
                                                    VectorDeterministic)
from tf1compat.contrib.distributions.mvn import (MultivariateNormalDiag,
                                                 MultivariateNormalDiagPlusLowRank,
                                                 MultivariateNormalDiagWithSoftplusScale,
                                                 MultivariateNormalFullCovariance,
                                                 MultivariateNormalLinearOperator,
                                                 MultivariateNormalTriL)
from tf1compat.contrib.distributions.stats import (assign_log_moving_mean_exp, auto_correlation,
                                                   assign_moving_mean_variance,
                                                   moving_mean_variance,
                                                   normal_conjugates_known_scale_posterior,
                                                   normal_conjugates_known_scale_predictive,
                                                   percentile)
from tf1compat.contrib.distributions.transformed_distribution import TransformedDistribution
from tf1compat.contrib.distributions.vector import (SinhArcsinh, VectorExponentialDiag,
                                                    VectorExponentialLinearOperator,
                                                    VectorLaplaceDiag,
                                                    VectorLaplaceLinearOperator,
                                                    VectorSinhArcsinhDiag)
from tf1compat.distributions import (FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Bernoulli,
                                     Beta, Categorical, Dirichlet, DirichletMultinomial,
                                     Distribution, Exponential, Gamma, Laplace, Multinomial,
                                     Normal, RegisterKL, ReparameterizationType, StudentT,
                                     Uniform, kl_divergence)
from tf1compat.distributions.continuous import (BetaWithSoftplusConcentration,
                                                ExponentialWithSoftplusRate,
                                                GammaWithSoftplusConcentrationRate,
                                                LaplaceWithSoftplusScale,
                                                NormalWithSoftplusScale,
                                                StudentTWithAbsDfSoftplusScale)
from tf1compat.contrib.distributions.wishart import WishartCholesky, WishartFull
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib.distributions")
