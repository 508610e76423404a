"""Eager golden cases: the names tf-keras's v2 loop writes (under TF 1.x-style eager
execution), over the same table of models as cases_keras_history_names (graph mode's v1
loop renames "accuracy" to `acc`; the v2 loop keeps the names as given)."""

from tests.golden.cases_keras_history_names import (  # noqa: F401 - the cases, replayed
    case_accuracy_by_loss, case_layer_weight_names, case_multi_output_names,
    case_single_output_metric_names)
