"""Eager golden cases: `metrics_names` of models from `load_model` before any step under
eager execution (cases_keras_loaded_names): tf-keras builds the compiled losses and
metrics on the model's outputs when it saves and when it loads, saves the built metric
objects (one list per output, named as they log) and keeps their names on loading."""

from tests.golden.cases_keras_loaded_names import (  # noqa: F401 - the case, replayed
    _multi_output, _single_output, case_loaded_metrics_names)
