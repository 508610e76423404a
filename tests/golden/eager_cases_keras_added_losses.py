"""Eager golden cases: `add_loss` / `add_metric` under eager execution (tf-keras's v2
layers): the functional cases of cases_keras_added_losses, in-call `add_loss` /
`add_metric` of subclassed models and layers (a loss lasts one call, a metric is a `Mean`
per name), and an HDF5 round trip that brings the inserted layers back."""

import os
import tempfile

import numpy as np

from tests.golden.cases_keras_added_losses import (  # noqa: F401 - the cases, replayed
    _data, _two_dense, case_functional_add_loss_side_branch, case_functional_add_metric,
    step_results)
from tests.golden.harness import tolerance


@tolerance(rtol=2e-5, atol=1e-6)
def case_subclassed_in_call_loss_and_metrics(tf):
    class Penalty(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(0.1 * tf.reduce_sum(tf.abs(x)))
            self.add_metric(tf.reduce_max(x), name="xmax", aggregation="mean")
            return x

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d1 = tf.keras.layers.Dense(2, kernel_initializer="ones")
            self.penalty = Penalty()
            self.d2 = tf.keras.layers.Dense(1, kernel_initializer="ones")
            self.total = tf.keras.metrics.Sum(name="total")

        def call(self, x):
            h = self.penalty(self.d1(x))
            self.add_metric(tf.reduce_mean(h), name="hmean")
            self.add_metric(self.total(h))
            return self.d2(h)

    model = Net()
    model.compile(tf.keras.optimizers.SGD(0.01), "mse", metrics=["mae"])
    x, y = _data()
    fitted = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
                       validation_data=(x, y))
    return {"names": model.metrics_names, "metrics": [m.name for m in model.metrics],
            **step_results(model, fitted, x, y)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_h5_round_trip_of_added_layers(tf):
    inp, h, out = _two_dense(tf)
    model = tf.keras.Model(inp, out)
    model.add_loss(tf.reduce_mean(h))
    model.add_metric(tf.reduce_sum(h), name="hs", aggregation="mean")
    model.compile(tf.keras.optimizers.SGD(0.01), "mse")
    x, y = _data()
    path = os.path.join(tempfile.mkdtemp(), "added.h5")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    clone = tf.keras.models.clone_model(model)
    return {"layers": [layer.name for layer in loaded.layers],
            "losses": len(loaded.losses), "evaluate": loaded.evaluate(x, y, verbose=0),
            "names": loaded.metrics_names,
            "clone_losses": len(clone.losses)}


def case_tf2_optimizer_config_compiles_as_legacy(tf):
    """A training config saved by TF2-behaviour tf-keras names its optimizer "Custom>SGD"
    (with the TF2 optimizers' extra keys); compiling from it gives the legacy optimizer,
    and a MeanMetricWrapper config names its function."""
    new_keys = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None,
                "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                "ema_overwrite_frequency": None, "jit_compile": False,
                "is_legacy_optimizer": False}
    found = {}
    for name, extra in (("SGD", {"momentum": 0.5, "nesterov": True}),
                        ("Adam", {"beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-7,
                                  "amsgrad": False}),
                        ("RMSprop", {"rho": 0.8, "momentum": 0.0, "epsilon": 1e-7,
                                     "centered": False})):
        config = {"class_name": f"Custom>{name}",
                  "config": {"name": name, "learning_rate": 0.25, **new_keys, **extra}}
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        metric = tf.keras.metrics.deserialize(
            {"class_name": "MeanMetricWrapper",
             "config": {"name": "mae", "dtype": "float32", "fn": "mean_absolute_error"}})
        model.compile(tf.keras.optimizers.get(config), "mse", metrics=[metric])
        model.evaluate(np.ones((2, 2), "float32"), np.zeros((2, 1), "float32"), verbose=0)
        found[name] = {"class": type(model.optimizer).__name__,
                       "config": {k: float(v) if isinstance(v, (float, np.floating)) else v
                                  for k, v in model.optimizer.get_config().items()},
                       "metrics": model.metrics_names}
    return found
