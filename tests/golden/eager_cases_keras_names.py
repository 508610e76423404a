"""Eager golden cases: tf-keras's layer, model and input names under eager execution
(the sequences of cases_keras_names): names count in the global default graph, `get_uid`
and `Input` names in Keras' own graph; `clear_session` restarts seeded random streams."""

from tests.golden.cases_keras_names import (  # noqa: F401 - the cases, replayed
    case_input_tensor_names, case_model_sequence, case_names_in_other_graph, case_uid_counters)


def case_seeded_initializers_after_clear_session(tf):
    """`clear_session` clears TF's eager kernel cache: a seeded initializer's stream starts
    over (the same seed twice in a row draws on)."""
    keras = tf.keras
    keras.backend.clear_session()

    def draw():
        return keras.initializers.glorot_uniform(seed=1)((2, 2)).numpy()
    first, second = draw(), draw()
    keras.backend.clear_session()
    layer = keras.layers.Dense(2, kernel_initializer=keras.initializers.glorot_uniform(seed=1))
    layer.build((None, 2))
    return {"first": first, "second": second, "after_clear": draw(),
            "layer": layer.kernel.numpy()}
