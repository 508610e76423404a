"""The canned estimators of `tf.estimator` (TF1): DNN, linear, wide & deep, baseline,
their heads; boosted trees raise NotImplementedError."""

# ruff: noqa: F401
from tf1compat.estimator.canned.baseline import (BaselineClassifier, BaselineEstimator,
                                                 BaselineRegressor)
from tf1compat.estimator.canned.boosted_trees import (BoostedTreesClassifier,
                                                      BoostedTreesEstimator,
                                                      BoostedTreesRegressor)
from tf1compat.estimator.canned.dnn import DNNClassifier, DNNEstimator, DNNRegressor
from tf1compat.estimator.canned.dnn_linear_combined import (DNNLinearCombinedClassifier,
                                                            DNNLinearCombinedEstimator,
                                                            DNNLinearCombinedRegressor)
from tf1compat.estimator.canned.linear import LinearClassifier, LinearEstimator, \
    LinearRegressor
