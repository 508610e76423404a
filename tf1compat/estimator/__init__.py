"""`tf.estimator` (TF1's `tf.compat.v1.estimator`): Estimator, its specs and config,
train_and_evaluate, exporters, input_fns and the canned estimators."""

# ruff: noqa: F401
from tf1compat.estimator import experimental, export, inputs, tpu
from tf1compat.estimator.canned import (BaselineClassifier, BaselineEstimator,
                                        BaselineRegressor, BoostedTreesClassifier,
                                        BoostedTreesEstimator, BoostedTreesRegressor,
                                        DNNClassifier, DNNEstimator,
                                        DNNLinearCombinedClassifier,
                                        DNNLinearCombinedEstimator, DNNLinearCombinedRegressor,
                                        DNNRegressor, LinearClassifier, LinearEstimator,
                                        LinearRegressor)
from tf1compat.estimator.canned.parsing_utils import (classifier_parse_example_spec,
                                                      regressor_parse_example_spec)
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.extenders import add_metrics
from tf1compat.estimator.head import (BinaryClassHead, Head, LogisticRegressionHead,
                                      MultiClassHead, MultiHead, MultiLabelHead,
                                      PoissonRegressionHead, RegressionHead)
from tf1compat.estimator.exporter import BestExporter, Exporter, FinalExporter, LatestExporter
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.estimator.run_config import RunConfig
from tf1compat.estimator.training import EvalSpec, TrainSpec, train_and_evaluate
from tf1compat.estimator.warm_start_settings import VocabInfo, WarmStartSettings
from tf1compat.training.sessions.basic_session_run_hooks import (CheckpointSaverHook,
                                                                 CheckpointSaverListener,
                                                                 FeedFnHook, FinalOpsHook,
                                                                 GlobalStepWaiterHook,
                                                                 LoggingTensorHook,
                                                                 NanLossDuringTrainingError,
                                                                 NanTensorHook, ProfilerHook,
                                                                 SecondOrStepTimer,
                                                                 StepCounterHook, StopAtStepHook,
                                                                 SummarySaverHook)
from tf1compat.training.sessions.session_run_hook import (SessionRunArgs, SessionRunContext,
                                                          SessionRunHook, SessionRunValues)
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("estimator", globals())
