"""The sweep of tf-keras 2.21's public Keras names (tf.compat.v1.keras and every namespace
below it, recorded from tf-keras by scripts/record_api_names.py into
tf1compat/_tf_api_names.py): each resolves in tf1compat, or raises an AttributeError
that is also a NotImplementedError naming it. The names not implemented are listed here,
so that a name which stops resolving (or one newly implemented) shows."""

import pytest

import tf1compat as tf
from tf1compat._tf_api_names import API_NAMES
from tf1compat.framework.missing import UnimplementedAPIError
from tf1compat.framework.unsupported_api import explain

# tf-keras names newer than 2018-2020 code (the TF2 migration and TPU helpers) or TF-only
# machinery (keras.export).
NOT_IMPLEMENTED = {
    "keras.export", "keras.export.ExportArchive",
    "keras.callbacks.SidecarEvaluatorModelExport",
    "keras.callbacks.experimental.UpdateEmbeddingCallback",
    "keras.utils.DeterministicRandomTestTool", "keras.utils.StepsPerExecutionTuner",
    "keras.utils.get_or_create_layer", "keras.utils.track_tf1_style_variables",
    "keras.utils.warmstart_embedding_matrix"}


def _keras_names():
    return [(ns, name) for ns, names in API_NAMES.items()
            if ns == "keras" or ns.startswith("keras.") for name in sorted(names)]


def test_every_keras_namespace_of_tf_keras_is_recorded():
    recorded = {ns for ns in API_NAMES if ns == "keras" or ns.startswith("keras.")}
    assert {"keras.layers", "keras.backend", "keras.callbacks", "keras.losses",
            "keras.metrics", "keras.optimizers", "keras.utils", "keras.optimizers.schedules",
            "keras.utils.legacy", "keras.callbacks.experimental"} <= recorded


def test_keras_names_resolve_or_say_they_are_not_implemented():
    unimplemented = set()
    for namespace, name in _keras_names():
        obj = tf
        try:
            for part in namespace.split("."):
                obj = getattr(obj, part)
            getattr(obj, name)
        except UnimplementedAPIError as error:
            assert f"tf.{namespace}" in str(error)
            unimplemented.add(f"{namespace}.{name}" if name in str(error) else namespace)
    assert unimplemented == NOT_IMPLEMENTED


@pytest.mark.parametrize("dotted", sorted(n for n in NOT_IMPLEMENTED
                                           if not n.startswith("keras.export")))
def test_an_unimplemented_keras_name_is_a_not_implemented_error_naming_it(dotted):
    namespace, _, name = dotted.rpartition(".")
    module = tf
    for part in namespace.split("."):
        module = getattr(module, part)
    with pytest.raises(NotImplementedError, match=f"tf.{dotted} is part of the TensorFlow"):
        getattr(module, name)
    assert not hasattr(module, name)


@pytest.mark.parametrize("dotted", sorted(n for n in NOT_IMPLEMENTED
                                           if n.startswith(("keras.utils.",
                                                            "keras.callbacks.Sidecar"))))
def test_the_tf2_helpers_left_out_say_why(dotted):
    """The TF 2 eager-migration and tuning helpers carry their reason and, where there
    is one, what TF1 code uses instead."""
    assert explain(dotted)
