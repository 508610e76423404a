"""Golden cases: Keras `fit`/`evaluate`/`predict` on numpy arrays for a model compiled in a
`tf.distribute` strategy's scope (TF 2.21 tf-keras, v1 graph mode). TF turns the arrays into
a dataset: "Train on N steps", steps from the global batch size, and its ValueErrors
(sizes not divisible in evaluate/predict, validation_split, too few samples).

Recorded in a process of its own (the CPU split in two logical devices):
`/tmp/tf/bin/python scripts/record_goldens.py cases_distribute_keras_numpy`.
"""

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import captured, history
from tests.golden.two_cpus import on_two_cpus


def _data(n=20):
    rng = np.random.RandomState(0)
    x = rng.randn(n, 3).astype(np.float32)
    y = (x @ np.array([[1.], [-2.], [0.5]], np.float32) + 0.3).astype(np.float32)
    return x, y


def _model(tf, strategy):
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,),
                                  kernel_initializer="ones"),
            tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.1))])
        model.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
    return model


def _params(h):
    return {k: (int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                else v) for k, v in sorted(h.params.items())}


@tolerance(rtol=2e-5, atol=1e-6)
@on_two_cpus
def case_fit_numpy_steps_and_progress(tf, devices):
    x, y = _data()
    out = {}
    for n in (1, 2):
        s = tf.distribute.MirroredStrategy(devices[:n])
        for name, kwargs in (("bs4_e2_v1", dict(batch_size=4, epochs=2, verbose=1)),
                             ("bs3_v2", dict(batch_size=3, epochs=1, verbose=2)),
                             ("default_bs", dict(epochs=1, verbose=1)),
                             ("steps_per_epoch", dict(batch_size=4, steps_per_epoch=2,
                                                      epochs=2, verbose=2)),
                             ("validation_data", dict(batch_size=4, epochs=1, verbose=2,
                                                      validation_data=(x[:8], y[:8])))):
            model = _model(tf, s)
            h, screen = captured(lambda: model.fit(x, y, shuffle=False, **kwargs))
            out[f"{n}/{name}"] = {"history": history(h), "params": _params(h),
                                  "screen": screen, "weights": model.get_weights()}
    return out


@tolerance(rtol=2e-5, atol=1e-6)
@on_two_cpus
def case_evaluate_predict_numpy(tf, devices):
    x, y = _data()
    s = tf.distribute.MirroredStrategy(devices)
    model = _model(tf, s)
    model.fit(x, y, batch_size=4, shuffle=False, verbose=0)
    out = {}
    for name, kwargs in (("bs4", dict(batch_size=4)), ("default", {}),
                         ("steps", dict(steps=2)), ("bs4_steps2", dict(batch_size=4, steps=2)),
                         ("bs5_uneven_replicas", dict(batch_size=5))):
        result, screen = captured(lambda: model.evaluate(x, y, verbose=1, **kwargs))
        out["evaluate/" + name] = {"result": result, "screen": screen}
        out["predict/" + name] = model.predict(x, **kwargs)
    return out


@on_two_cpus
def case_numpy_errors_under_strategy(tf, devices):
    x, y = _data()
    s = tf.distribute.MirroredStrategy(devices)
    model = _model(tf, s)
    out = {}
    calls = {
        "fit_validation_split": lambda: model.fit(x, y, batch_size=4, validation_split=0.2,
                                                  verbose=0),
        "fit_validation_indivisible": lambda: model.fit(x, y, batch_size=4, verbose=0,
                                                        validation_data=(x[:6], y[:6])),
        "fit_steps_indivisible": lambda: model.fit(x, y, steps_per_epoch=3, verbose=0),
        "fit_too_few_samples": lambda: model.fit(x, y, batch_size=8, steps_per_epoch=4,
                                                 verbose=0),
        "fit_class_weight": lambda: model.fit(x, y, batch_size=4, verbose=0,
                                              class_weight={0: 1.}),
        "evaluate_indivisible": lambda: model.evaluate(x, y, batch_size=3, verbose=0),
        "evaluate_steps_indivisible": lambda: model.evaluate(x, y, steps=3, verbose=0),
        "predict_indivisible": lambda: model.predict(x, batch_size=6),
        "evaluate_too_few": lambda: model.evaluate(x, y, batch_size=8, steps=3, verbose=0),
    }
    for name, call in calls.items():
        out[name] = catch(call, message=True)
    return out
