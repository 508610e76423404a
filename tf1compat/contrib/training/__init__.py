"""`tf.contrib.training`: `HParams` (and the evaluation helpers built on checkpoints)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.training.hparam import HParams, parse_values
from tf1compat.training.saving.checkpoint_utils import checkpoints_iterator
from tf1compat.training.sessions.evaluation import StopAfterNEvalsHook, evaluate_once

__getattr__ = _missing("tf.contrib.training")
