"""`tf.contrib.learn` (TF 1.15): `Experiment`, `learn_runner`, `RunConfig`, `ModeKeys`,
`ExportStrategy`/`make_export_strategy`, for `tf.estimator.Estimator`s;
`preprocessing` (VocabularyProcessor and its vocabularies) and `datasets` (iris, boston,
MNIST, DBpedia); the contrib `Estimator` (with `ModelFnOps`, `SKCompat`, `MetricSpec`) and
`io`'s input functions; the canned contrib Estimators (`DNNClassifier`, `LinearRegressor`,
`DNNLinearCombinedClassifier`, ..., `KMeansClustering`) with contrib's heads
(`multi_class_head`, `regression_head`, `multi_label_head`, `multi_head`, ...), the linear
ones also trained by SDCA (`SDCAOptimizer`), and `SVM`; `export_savedmodel` with
`InputFnOps` serving input_fns (`build_parsing_serving_input_fn`, `utils`) and a signature
per head."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.learn import (datasets, io, learn_runner, monitors, preprocessing,
                                     utils)
from tf1compat.contrib.learn.canned import (DNNClassifier, DNNLinearCombinedClassifier,
                                            DNNLinearCombinedRegressor, DNNRegressor,
                                            LinearClassifier, LinearRegressor,
                                            infer_real_valued_columns_from_input,
                                            infer_real_valued_columns_from_input_fn)
from tf1compat.contrib.learn.estimator import Estimator, ModelFnOps, SKCompat
from tf1compat.contrib.learn.kmeans import KMeansClustering
from tf1compat.contrib.learn.head import (MetricKey, PredictionKey, binary_svm_head,
                                          multi_class_head, poisson_regression_head,
                                          regression_head)
from tf1compat.contrib.learn.head_multi import (loss_only_head, multi_head, multi_label_head,
                                                no_op_train_fn)
from tf1compat.contrib.learn.saved_model_export_utils import (InputFnOps, ProblemType,
                                                              build_parsing_serving_input_fn)
from tf1compat.contrib.learn.sdca import SVM
from tf1compat.contrib.learn.metric_spec import MetricSpec
from tf1compat.contrib.learn.experiment import Experiment
from tf1compat.contrib.learn.export_strategy import ExportStrategy, make_export_strategy
from tf1compat.contrib.learn.run_config import Environment, RunConfig, TaskType


class ModeKeys:
    """`tf.contrib.learn.ModeKeys` (INFER is tf.estimator's PREDICT)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"


__getattr__ = _missing("tf.contrib.learn")
