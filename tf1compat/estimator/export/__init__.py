"""`tf.estimator.export`: export outputs and serving input receivers."""

# ruff: noqa: F401
from tf1compat.estimator.export.export import (ServingInputReceiver, SupervisedInputReceiver,
                                               TensorServingInputReceiver,
                                               UnsupervisedInputReceiver,
                                               build_parsing_serving_input_receiver_fn,
                                               build_raw_serving_input_receiver_fn)
from tf1compat.estimator.export.export_output import (ClassificationOutput, EvalOutput,
                                                      ExportOutput, PredictOutput,
                                                      RegressionOutput)
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("estimator.export", globals())
