"""`tf.contrib.training`: `HParams` (and its `HParamDef` proto), the training loop
(`create_train_op`, `train` and the gradient helpers), queue-based bucketing and sampling
(`rejection_sample`, `stratified_sample`, `resample_at_rate`, `weighted_resample`), the
parameter-server placement strategies, `FeedingQueueRunner` and the evaluation helpers
built on checkpoints."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.training.bucket_ops import bucket, bucket_by_sequence_length
from tf1compat.contrib.training.device_setter import (GreedyLoadBalancingStrategy,
                                                      RandomStrategy, byte_size_load_fn)
from tf1compat.contrib.training.hparam import HParamDef, HParams, parse_values
from tf1compat.contrib.training.resample import resample_at_rate, weighted_resample
from tf1compat.contrib.training.sampling_ops import rejection_sample, stratified_sample
from tf1compat.estimator.inputs.feeding import FeedingQueueRunner
from tf1compat.contrib.training.training import (add_gradients_summaries, clip_gradient_norms,
                                                 clip_gradient_norms_fn, create_train_op,
                                                 multiply_gradients, train)
from tf1compat.contrib.training.evaluation import (SummaryAtEndHook, StopAfterNEvalsHook,
                                                   checkpoints_iterator, evaluate_once,
                                                   evaluate_repeatedly,
                                                   get_or_create_eval_step,
                                                   wait_for_new_checkpoint)

__getattr__ = _missing("tf.contrib.training")
