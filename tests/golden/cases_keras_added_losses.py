"""Golden cases: `add_loss` / `add_metric` on a built functional model, on tensors of its
graph (side branches that do not lead to the outputs included): tf-keras inserts the
layers computing them plus `add_loss` / `add_metric` layers into the network, so their
losses and metrics join fit / evaluate. The same cases replay under eager execution
(eager_cases_keras_added_losses), with subclassed models' in-call `add_metric` there.
Validation runs and losses on bare variables are left out: tf-keras's v1 graph loop reads
such variables while their updates run (those values vary from run to run)."""

import numpy as np

from tests.golden.harness import catch, tolerance


def _data():
    x = np.arange(30, dtype="float32").reshape(10, 3) / 30.0
    return x, np.ones((10, 1), "float32")


def _two_dense(tf):
    """Input -> Dense "h" (2 units) -> Dense "o" (1 unit), all-ones kernels."""
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(2, kernel_initializer="ones", name="h")(inp)
    out = tf.keras.layers.Dense(1, kernel_initializer="ones", name="o")(h)
    return inp, h, out


def step_results(model, fitted, x, y):
    """History, evaluate and one train/test step of a fitted model."""
    return {"history": {k: [float(v) for v in vs] for k, vs in fitted.history.items()},
            "evaluate": model.evaluate(x, y, batch_size=4, verbose=0),
            "train_on_batch": model.train_on_batch(x, y),
            "test_on_batch": model.test_on_batch(x, y)}


def _functional(tf):
    class Penalty(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(0.1 * tf.reduce_sum(tf.abs(x)))
            return x

    inp, h, out = _two_dense(tf)
    side = tf.keras.layers.Dense(2, kernel_initializer="ones", name="side")(h)
    side = Penalty(name="penalty")(side)
    model = tf.keras.Model(inp, out)
    model.add_loss(tf.reduce_mean(side))
    model.add_loss(0.5 * tf.reduce_mean(h))
    return model


@tolerance(rtol=2e-5, atol=1e-6)
def case_functional_add_loss_side_branch(tf):
    model = _functional(tf)
    layers = [layer.name for layer in model.layers]
    losses = len(model.losses)
    model.compile(tf.keras.optimizers.SGD(0.01), "mse")
    x, y = _data()
    fitted = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"layers": layers, "losses": losses, "names": model.metrics_names,
            **step_results(model, fitted, x, y),
            "weights": [np.asarray(w) for w in model.get_weights()],
            "eager_outside_call": catch(lambda: model.add_loss(tf.constant(1.0)))
            if tf.executing_eagerly() else None}


@tolerance(rtol=2e-5, atol=1e-6)
def case_functional_add_metric(tf):
    inp, h, out = _two_dense(tf)
    model = tf.keras.Model(inp, out)
    model.add_metric(tf.reduce_mean(h), name="hmean", aggregation="mean")
    layers = [layer.name for layer in model.layers]
    model.compile(tf.keras.optimizers.SGD(0.01), "mse", metrics=["mae"])
    x, y = _data()
    fitted = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    eager = tf.executing_eagerly()
    config = model.get_config()
    return {"layers": layers, "names": model.metrics_names,
            "history": {k: [float(v) for v in vs] for k, vs in fitted.history.items()},
            "config_layers": [(c["class_name"], c["name"]) for c in config["layers"]],
            "add_metric_config": config["layers"][-1]["config"],
            "unaggregated": catch(lambda: model.add_metric(tf.reduce_sum(h), name="s")),
            "metric_result": None if eager else catch(lambda: model.add_metric(
                tf.keras.metrics.Mean(name="m")(model.outputs[0]))),
            "eager_value": catch(lambda: model.add_metric(tf.constant(1.0), name="c"))
            if eager else None}
