"""Golden cases: tf.estimator.train_and_evaluate, exporters, warm starting, saving
listeners, hooks, and TPUEstimator on CPU (recorded under TF 2.15 +
tensorflow-estimator)."""

import os

import numpy as np

from tests.golden.estimator_util import as_py, capture_logs, listing, model_dir
from tests.golden.harness import catch

TF_VERSION = "2.15"

_X = np.linspace(-1, 1, 48, dtype=np.float32).reshape(16, 3)
_Y = (_X @ np.array([[0.5], [-1.], [2.]], np.float32)).astype(np.float32)


def _model_fn(tf):
    def model_fn(features, labels, mode, params):
        h = tf.layers.dense(features["x"], 4, activation=tf.nn.tanh,
                            kernel_initializer=tf.glorot_uniform_initializer(seed=1),
                            name="hidden")
        pred = tf.layers.dense(h, 1, kernel_initializer=tf.glorot_uniform_initializer(seed=2),
                               name="out")
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.AdamOptimizer(params.get("lr", 0.05)).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, train_op=train_op,
            eval_metric_ops={"mse": tf.metrics.mean_squared_error(labels, pred)})
    return model_fn


def _input(tf, epochs=None, batch=4):
    return tf.estimator.inputs.numpy_input_fn({"x": _X}, _Y, batch_size=batch,
                                              num_epochs=epochs, shuffle=False)


def _dataset_input(tf, epochs=None, batch=4):
    """A tf.data input_fn without functions, so graph files are written (see
    cases_estimator._dataset_input)."""
    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": _X}, _Y)).repeat(epochs).batch(batch)
    return input_fn


def _serving(tf):
    return tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 3])})


def case_train_and_evaluate_with_exporters(tf):
    with model_dir() as d:
        config = tf.estimator.RunConfig(save_checkpoints_steps=4, log_step_count_steps=100,
                                        save_summary_steps=100)
        est = tf.estimator.Estimator(_model_fn(tf), model_dir=d, config=config,
                                     params={"lr": 0.05})
        train_spec = tf.estimator.TrainSpec(_dataset_input(tf), max_steps=9)
        exporters = [tf.estimator.LatestExporter("latest", _serving(tf), exports_to_keep=1),
                     tf.estimator.FinalExporter("final", _serving(tf)),
                     tf.estimator.BestExporter("best", _serving(tf))]
        eval_spec = tf.estimator.EvalSpec(_dataset_input(tf, epochs=1, batch=8), steps=None,
                                          exporters=exporters, throttle_secs=0)
        with capture_logs(tf) as logs:
            metrics, exports = tf.estimator.train_and_evaluate(est, train_spec, eval_spec)
        return {"metrics": as_py(metrics),
                "exports": [e is not None for e in exports],
                "logs": [r for r in logs if r[0] in ("save", "eval", "final_loss")],
                "files": listing(d),
                "eval_dirs": sorted(n for n in os.listdir(d) if n.startswith("eval"))}


def case_specs_validation(tf):
    fn = lambda: None  # noqa: E731
    return {
        "train_spec_steps": catch(lambda: tf.estimator.TrainSpec(fn, max_steps=0), message=True),
        "train_spec_fn": catch(lambda: tf.estimator.TrainSpec(1), message=True),
        "eval_spec_steps": catch(lambda: tf.estimator.EvalSpec(fn, steps=0), message=True),
        "eval_spec_name": catch(lambda: tf.estimator.EvalSpec(fn, name=1), message=True),
        "eval_spec_throttle": catch(lambda: tf.estimator.EvalSpec(fn, throttle_secs=-1),
                                    message=True),
        "eval_spec_exporters": catch(lambda: tf.estimator.EvalSpec(fn, exporters=[1]),
                                     message=False),
        "defaults": list(tf.estimator.EvalSpec(fn))[1:],
        "exporter_keep": catch(lambda: tf.estimator.LatestExporter("a", fn, exports_to_keep=0),
                               message=True),
        "bad_compare": catch(lambda: tf.estimator.BestExporter(compare_fn=lambda a: a),
                             message=False),
    }


def case_warm_start(tf):
    out = {}
    with model_dir() as first, model_dir() as second, model_dir() as third:
        est = tf.estimator.Estimator(_model_fn(tf), model_dir=first, params={"lr": 0.1})
        est.train(_input(tf), steps=5)
        out["source_kernel"] = est.get_variable_value("hidden/kernel")
        warm = tf.estimator.Estimator(_model_fn(tf), model_dir=second, params={"lr": 0.0},
                                      warm_start_from=first)
        with capture_logs(tf) as logs:
            warm.train(_input(tf), steps=1)
        out["warm_logs"] = [r for r in logs if r[0] == "warm_started"]
        out["warm_kernel"] = warm.get_variable_value("hidden/kernel")
        out["warm_step"] = warm.get_variable_value("global_step")
        settings = tf.estimator.WarmStartSettings(first, vars_to_warm_start="out.*")
        partial = tf.estimator.Estimator(_model_fn(tf), model_dir=third, params={"lr": 0.0},
                                         warm_start_from=settings)
        partial.train(_input(tf), steps=1)
        out["partial_out"] = partial.get_variable_value("out/kernel")
        out["partial_hidden_differs"] = bool(np.any(
            partial.get_variable_value("hidden/kernel") != out["source_kernel"]))
        out["settings"] = [settings.vars_to_warm_start, settings.var_name_to_vocab_info,
                           settings.var_name_to_prev_var_name]
    out["empty"] = catch(lambda: tf.estimator.WarmStartSettings(""), message=True)
    return out


def case_saving_listeners_and_hooks(tf):
    events = []

    class Listener(tf.train.CheckpointSaverListener):
        def before_save(self, session, global_step_value):
            events.append(["before", int(global_step_value)])

        def after_save(self, session, global_step_value):
            events.append(["after", int(global_step_value)])

        def end(self, session, global_step_value):
            events.append(["end", int(global_step_value)])

    class Hook(tf.train.SessionRunHook):
        def begin(self):
            events.append(["begin"])

        def end(self, session):
            events.append(["hook_end"])
    with model_dir() as d:
        est = tf.estimator.Estimator(_model_fn(tf), model_dir=d,
                                     config=tf.estimator.RunConfig(save_checkpoints_steps=3))
        est.train(_input(tf), steps=7, hooks=[Hook()], saving_listeners=[Listener()])
        no_saver = tf.estimator.Estimator(
            _model_fn(tf), model_dir=d, config=tf.estimator.RunConfig(
                save_checkpoints_steps=None, save_checkpoints_secs=None))
        error = catch(lambda: no_saver.train(_input(tf), steps=1,
                                             saving_listeners=[Listener()]), message=True)
        return {"events": events, "error": error}


def case_tpu_estimator_on_cpu(tf):
    seen = {}

    def model_fn(features, labels, mode, params):
        seen.setdefault("model_params", []).append(
            [mode, params["batch_size"], params["use_tpu"]])
        pred = tf.layers.dense(features["x"], 1,
                               kernel_initializer=tf.glorot_uniform_initializer(seed=3))
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.tpu.TPUEstimatorSpec(mode, predictions={"y": pred})
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_global_step())

        def metric_fn(labels, pred):
            return {"mae": tf.metrics.mean_absolute_error(labels, pred)}
        return tf.estimator.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op,
                                                 eval_metrics=(metric_fn, [labels, pred]))

    def input_fn(params):
        seen.setdefault("input_batch", []).append(params["batch_size"])
        return tf.data.Dataset.from_tensor_slices(({"x": _X}, _Y)).repeat().batch(
            params["batch_size"], drop_remainder=True)

    def eval_input_fn(params):
        return tf.data.Dataset.from_tensor_slices(({"x": _X}, _Y)).batch(params["batch_size"])

    def predict_input_fn(params):
        return tf.data.Dataset.from_tensor_slices({"x": _X[:4]}).batch(params["batch_size"])
    with model_dir() as d:
        config = tf.estimator.tpu.RunConfig(
            model_dir=d, save_checkpoints_steps=5, log_step_count_steps=2,
            tpu_config=tf.estimator.tpu.TPUConfig(iterations_per_loop=1, num_shards=8))
        est = tf.estimator.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=4, eval_batch_size=8,
                                            predict_batch_size=2)
        with capture_logs(tf) as logs:
            est.train(input_fn, max_steps=6)
        metrics = est.evaluate(eval_input_fn, steps=1)
        preds = list(est.predict(predict_input_fn))
        errors = {
            "config": catch(lambda: tf.estimator.tpu.TPUEstimator(
                model_fn=model_fn, config=tf.estimator.RunConfig(model_dir=d), use_tpu=False),
                message=True),
            "reserved": catch(lambda: tf.estimator.tpu.TPUEstimator(
                model_fn=model_fn, config=config, params={"batch_size": 1}, use_tpu=False),
                message=False),
            "no_params": catch(lambda: est.train(lambda: None, steps=1), message=False),
            "iterations": catch(lambda: tf.estimator.tpu.TPUConfig(iterations_per_loop="5x"),
                                message=False),
        }
        return {"seen": seen, "metrics": as_py(metrics), "predictions": as_py(preds),
                "logs": [r for r in logs if r[0] in ("loss", "rate", "examples_rate", "save",
                                                     "final_loss", "cpu")],
                "variables": sorted(est.get_variable_names()), "errors": errors,
                "tpu_config": [config.tpu_config.iterations_per_loop,
                               config.tpu_config.num_shards,
                               config.tpu_config.per_host_input_for_training]}
