"""Eager golden cases: tf-keras's layer, model and input names under eager execution
(the sequences of cases_keras_names): names count in the global default graph, `get_uid`
and `Input` names in Keras' own graph."""

from tests.golden.cases_keras_names import (  # noqa: F401 - the cases, replayed
    case_model_sequence, case_names_in_other_graph, case_uid_counters)
