"""Eager golden cases: the first two Keras training scripts of cases_keras_real_scripts
under TF 1.x-style eager execution (tf-keras's v2 loop: step counts in the progress lines,
metric names as given)."""

from tests.golden.cases_keras_real_scripts import (  # noqa: F401 - the cases, replayed
    case_mlp_with_callbacks, case_multi_output_functional_h5)
