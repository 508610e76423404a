"""Golden cases: tf.estimator with RunConfig(train_distribute=, eval_distribute=)
(recorded under TF 2.15 + tensorflow-estimator, the CPU split into two logical devices).

TF allows the split only before its runtime starts, so this module is recorded in a
process of its own: `/tmp/tf215/bin/python scripts/record_goldens.py cases_estimator_strategy`.
"""

import os

import numpy as np

from tests.golden.estimator_util import model_dir
from tests.golden.harness import catch
from tests.golden.two_cpus import on_two_cpus

TF_VERSION = "2.15"


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(32, 3).astype(np.float32)
    y = (x @ np.array([[1.], [-2.], [0.5]], np.float32) + 0.3).astype(np.float32)
    return x, y


def _model_fn(tf, reduction=None, optimizer="sgd"):
    def model_fn(features, labels, mode):
        h = tf.layers.dense(features["x"], 4, activation=tf.nn.tanh,
                            kernel_initializer=tf.ones_initializer())
        out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.1))
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"y": out})
        kwargs = {} if reduction is None else {"reduction": reduction}
        loss = tf.losses.mean_squared_error(labels, out, **kwargs)
        opt = tf.train.GradientDescentOptimizer(0.05) if optimizer == "sgd" else \
            tf.train.AdamOptimizer(0.01)
        train_op = opt.minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, train_op=train_op, predictions={"y": out},
            eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, out)})
    return model_fn


def _input_fn(tf, batch):
    x, y = _data()

    def input_fn(input_context=None):
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(batch).repeat()
    return input_fn


def _run(tf, devices, model_fn, steps=6, eval_steps=2, batch=4):
    s = tf.distribute.MirroredStrategy(devices)
    with model_dir() as d:
        config = tf.estimator.RunConfig(train_distribute=s, eval_distribute=s,
                                        save_checkpoints_steps=5, tf_random_seed=1)
        est = tf.estimator.Estimator(model_fn, model_dir=d, config=config)
        est.train(_input_fn(tf, batch), steps=steps)
        results = est.evaluate(_input_fn(tf, batch), steps=eval_steps)
        names = est.get_variable_names()
        return {"variables": names,
                "values": {n: est.get_variable_value(n) for n in names},
                "evaluate": results,
                "checkpoints": sorted(f for f in os.listdir(d)
                                      if f.startswith("model.ckpt") and f.endswith(".index")),
                "predict": [p["y"] for p in est.predict(
                    lambda: tf.data.Dataset.from_tensor_slices({"x": _data()[0][:3]}).batch(3))]}


@on_two_cpus
def case_train_evaluate_one_and_two_replicas(tf, devices):
    return {"1": _run(tf, devices[:1], _model_fn(tf)),
            "2": _run(tf, devices, _model_fn(tf))}


@on_two_cpus
def case_sum_reduction_and_adam(tf, devices):
    return {"sum": _run(tf, devices, _model_fn(tf, reduction=tf.losses.Reduction.SUM)),
            "adam": _run(tf, devices, _model_fn(tf, optimizer="adam"), steps=4)}


@on_two_cpus
def case_train_loss_reported(tf, devices):
    """The loss the train loop logs and returns: the replicas' mean of the scaled loss."""
    s = tf.distribute.MirroredStrategy(devices)
    losses = []

    class Losses(tf.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.train.SessionRunArgs(tf.get_collection(tf.GraphKeys.LOSSES))

        def after_run(self, run_context, run_values):
            losses.append(run_values.results)
    with model_dir() as d:
        est = tf.estimator.Estimator(_model_fn(tf), model_dir=d,
                                     config=tf.estimator.RunConfig(train_distribute=s))
        est.train(_input_fn(tf, 4), steps=3, hooks=[Losses()])
    return losses


@on_two_cpus
def case_errors(tf, devices):
    s = tf.distribute.MirroredStrategy(devices)
    x, y = _data()
    out = {}
    with model_dir() as d:
        est = tf.estimator.Estimator(_model_fn(tf), model_dir=d,
                                     config=tf.estimator.RunConfig(train_distribute=s))
        numpy_input = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4,
                                                         shuffle=False)
        out["numpy_input_fn"] = catch(lambda: est.train(numpy_input, steps=1), message=True)
    return out


@on_two_cpus
def case_canned_estimators(tf, devices):
    columns = [tf.feature_column.numeric_column("x", shape=[3])]
    makers = {
        "linear": lambda config, d: tf.estimator.LinearRegressor(
            columns, model_dir=d, config=config),
        "dnn": lambda config, d: tf.estimator.DNNRegressor(
            [4], columns, model_dir=d, config=config,
            optimizer=tf.train.GradientDescentOptimizer(0.05)),
    }
    out = {}
    for name, make in makers.items():
        s = tf.distribute.MirroredStrategy(devices)
        with model_dir() as d:
            config = tf.estimator.RunConfig(train_distribute=s, eval_distribute=s,
                                            tf_random_seed=1)
            est = make(config, d)
            est.train(_input_fn(tf, 4), steps=4)
            out[name] = {"values": {n: est.get_variable_value(n)
                                    for n in est.get_variable_names()},
                         "evaluate": est.evaluate(_input_fn(tf, 4), steps=2)}
    return out


@on_two_cpus
def case_keras_model_to_estimator(tf, devices):
    """A Keras model (v2 optimizer, mean loss) as an Estimator under train_distribute."""
    x, y = _data()
    tf.keras.backend.clear_session()
    inputs = tf.keras.Input((3,), name="x")
    hidden = tf.keras.layers.Dense(4, kernel_initializer="ones")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(hidden))
    model.compile(tf.keras.optimizers.SGD(0.01), "mse")
    s = tf.distribute.MirroredStrategy(devices)
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(
            model, model_dir=d, config=tf.estimator.RunConfig(train_distribute=s))
        est.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(4).repeat(),
                  steps=3)
        return {n: est.get_variable_value(n) for n in est.get_variable_names()}
