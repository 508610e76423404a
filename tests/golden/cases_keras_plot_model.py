"""Golden cases: tf.keras.utils.plot_model / model_to_dot where pydot is not installed
(as in the recording venv and CI): tf-keras's ImportError messages, and the ValueError
for a model that is not built yet (checked first). The graphs themselves are compared in
tests/test_keras_vis_utils.py."""

import sys

from tests.golden.harness import catch


def _without_pydot(fn):
    # (tf-keras looks pydot up when it is imported; tf1compat when called)
    hidden = {name: sys.modules.get(name) for name in ("pydot_ng", "pydotplus", "pydot")}
    sys.modules.update({name: None for name in hidden})
    try:
        return catch(fn, message=True)
    finally:
        for name, module in hidden.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def case_without_pydot(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    return {"model_to_dot": _without_pydot(lambda: tf.keras.utils.model_to_dot(model)),
            "plot_model": _without_pydot(lambda: tf.keras.utils.plot_model(model)),
            "unbuilt_dot": _without_pydot(lambda: tf.keras.utils.model_to_dot(unbuilt)),
            "unbuilt_plot": _without_pydot(lambda: tf.keras.utils.plot_model(unbuilt))}
