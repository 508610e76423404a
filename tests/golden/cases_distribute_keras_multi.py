"""Golden cases: a multi-output Keras model compiled in a `tf.distribute.MirroredStrategy`
scope and fitted on numpy arrays (TF 2.21 tf-keras, v1 graph mode): per-output losses,
loss weights and metrics in the history, weights, evaluate and predict on one and two
replicas; and what tf-keras refuses under a strategy (compile's sample_weight_mode,
weighted_metrics; train/test/predict_on_batch in the strategy's scope).

Recorded in a process of its own (the CPU split in two logical devices):
`/tmp/tf/bin/python scripts/record_goldens.py cases_distribute_keras_multi`.
"""

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import history
from tests.golden.two_cpus import on_two_cpus


def _data(n=24):
    rng = np.random.RandomState(1)
    x = rng.randn(n, 4).astype(np.float32)
    y_reg = (x @ rng.randn(4, 2)).astype(np.float32)
    y_cls = rng.randint(0, 3, n).astype(np.int64)
    return x, y_reg, y_cls


def _model(tf, strategy, **compile_kwargs):
    tf.keras.backend.clear_session()
    with strategy.scope():
        inp = tf.keras.Input((4,), name="x")
        hidden = tf.keras.layers.Dense(5, activation="tanh", name="hidden",
                                       kernel_initializer=tf.keras.initializers.Constant(0.3))(inp)
        reg = tf.keras.layers.Dense(2, name="reg",
                                    kernel_initializer=tf.keras.initializers.Constant(0.1))(hidden)
        cls = tf.keras.layers.Dense(3, activation="softmax", name="cls",
                                    kernel_initializer=tf.keras.initializers.Constant(-0.2))(hidden)
        model = tf.keras.Model(inp, [reg, cls])
        kwargs = dict(loss=["mse", "sparse_categorical_crossentropy"], loss_weights=[1.0, 0.5],
                      metrics={"reg": "mae", "cls": "accuracy"})
        kwargs.update(compile_kwargs)
        model.compile(tf.keras.optimizers.Adam(0.01), **kwargs)
    return model


@tolerance(rtol=2e-5, atol=1e-6)
@on_two_cpus
def case_multi_output_fit_numpy(tf, devices):
    x, y_reg, y_cls = _data()
    out = {}
    for n in (1, 2):
        model = _model(tf, tf.distribute.MirroredStrategy(devices[:n]))
        h = model.fit(x, [y_reg, y_cls], batch_size=4, epochs=2, verbose=0, shuffle=False,
                      validation_data=(x[:8], [y_reg[:8], y_cls[:8]]))
        out[f"{n}/fit"] = {"history": history(h), "weights": model.get_weights(),
                           "metrics_names": model.metrics_names}
        out[f"{n}/evaluate"] = model.evaluate(x, [y_reg, y_cls], batch_size=4, verbose=0)
        out[f"{n}/predict"] = model.predict(x, batch_size=4)
    return out


@on_two_cpus
def case_refusals_under_strategy(tf, devices):
    x, y_reg, y_cls = _data()
    strategy = tf.distribute.MirroredStrategy(devices)
    out = {}
    compile_calls = {
        "sample_weight_mode": dict(sample_weight_mode="temporal"),
        "weighted_metrics": dict(weighted_metrics=["mae"]),
    }
    for name, kwargs in compile_calls.items():
        out["compile_" + name] = catch(lambda: _model(tf, strategy, **kwargs), message=True)
    model = _model(tf, strategy)
    # Inside the scope (the cross-replica context) tf-keras refuses the *_on_batch
    # methods; outside it TF 2.21 falls into its eager v1 path and fails on an internal
    # assertion (TF 1.15 ran them in graph mode, as tf1compat does).
    with strategy.scope():
        out["train_on_batch"] = catch(
            lambda: model.train_on_batch(x[:4], [y_reg[:4], y_cls[:4]]), message=True)
        out["test_on_batch"] = catch(
            lambda: model.test_on_batch(x[:4], [y_reg[:4], y_cls[:4]]), message=True)
        out["predict_on_batch"] = catch(lambda: model.predict_on_batch(x[:4]), message=True)
    return out
