"""Golden cases: tf.keras.estimator.model_to_estimator — a compiled Keras model as an
Estimator: warm start from the model's current weights, train 2 epochs on fixed data,
evaluate (loss and Keras metrics), predict, export_saved_model; the 'saver' and 'checkpoint'
formats, metric_names_map, export_outputs, dict inputs (recorded under TF 2.15 +
tensorflow-estimator)."""

import os

import numpy as np

from tests.golden.estimator_util import (as_py, capture_logs, listing, model_dir,
                                         saved_model_signatures)
from tests.golden.harness import catch

TF_VERSION = "2.15"

_X = np.linspace(-1, 1, 48, dtype=np.float32).reshape(16, 3)
_Y = (_X @ np.array([[0.5], [-1.], [2.]], np.float32) > 0.1).astype(np.float32)
_K1 = np.array([[0.3, -0.2, 0.5, 0.1], [-0.4, 0.6, 0.2, -0.3], [0.7, 0.1, -0.5, 0.4]],
               np.float32)
_B1 = np.array([0.05, -0.1, 0.0, 0.2], np.float32)
_K2 = np.array([[0.5], [-0.6], [0.8], [0.3]], np.float32)
_B2 = np.array([-0.1], np.float32)


def _sequential(tf, optimizer=None, metrics=("accuracy",)):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
        tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.5),
                  loss="binary_crossentropy", metrics=list(metrics))
    model.set_weights([_K1, _B1, _K2, _B2])
    return model


def _train_input(tf):
    return tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(4).repeat(2)


def _eval_input(tf):
    return tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(8)


def _predict_input(tf):
    return tf.data.Dataset.from_tensor_slices(_X[:5]).batch(5)


def _run(tf, est, directory, export=True):
    out = {}
    with capture_logs(tf) as logs:
        est.train(lambda: _train_input(tf))
    out["train_logs"] = [r for r in logs if r[0] in ("loss", "save", "final_loss",
                                                     "warm_started")]
    out["eval"] = as_py(est.evaluate(lambda: _eval_input(tf)))
    out["predict"] = as_py(list(est.predict(lambda: _predict_input(tf))))
    out["variables"] = sorted(est.get_variable_names())
    out["weights"] = [est.get_variable_value(n) for n in sorted(est.get_variable_names())
                      if n.endswith("kernel") or n.endswith("bias")]
    if export:
        serving = tf.estimator.export.build_raw_serving_input_receiver_fn(
            {"dense_input": tf.placeholder(tf.float32, [None, 3], name="x")})
        path = est.export_saved_model(os.path.join(directory, "export"), serving)
        out["signatures"] = saved_model_signatures(tf, path, ["serve"])
    out["files"] = [f for f in listing(directory) if not f.startswith("export/")]
    return out


def case_sequential_saver_format(tf):
    model = _sequential(tf)
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d)
        out = {"type": type(est).__name__}
        out.update(_run(tf, est, d))
    return out


def case_metric_names_map_and_export_outputs(tf):
    model = _sequential(tf, metrics=("accuracy", "mse"))
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(
            keras_model=model, model_dir=d,
            metric_names_map={"acc": "accuracy", "mean_squared_error": "mse"},
            export_outputs={"dense_1": tf.estimator.export.RegressionOutput})
        return _run(tf, est, d)


def case_sequential_checkpoint_format(tf):
    model = _sequential(tf, metrics=("accuracy", "mse"))
    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d,
                                                    checkpoint_format="checkpoint")
        out = _run(tf, est, d, export=False)
        out["keras_keys"] = sorted(n for n, _ in tf.train.list_variables(
            os.path.join(d, "keras", "keras_model.ckpt")))
        out["warm_start_again"] = as_py(tf.keras.estimator.model_to_estimator(
            keras_model=model, model_dir=d, checkpoint_format="checkpoint").evaluate(
                lambda: _eval_input(tf)))
    return out


def case_adam_and_config(tf):
    model = _sequential(tf, optimizer=tf.keras.optimizers.Adam(0.05))
    with model_dir() as d:
        config = tf.estimator.RunConfig(model_dir=d, save_checkpoints_steps=3)
        est = tf.keras.estimator.model_to_estimator(keras_model=model, config=config)
        out = _run(tf, est, d, export=False)
        out["model_dir"] = est.model_dir == d
    return out


def case_functional_dict_inputs(tf):
    a = tf.keras.Input(shape=(2,), name="a")
    b = tf.keras.Input(shape=(1,), name="b")
    h = tf.keras.layers.Concatenate()([a, b])
    out_t = tf.keras.layers.Dense(1, name="score")(h)
    model = tf.keras.Model([a, b], out_t)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    model.set_weights([np.array([[0.2], [-0.3], [0.4]], np.float32),
                       np.array([0.1], np.float32)])

    def train_input():
        return tf.data.Dataset.from_tensor_slices(
            ({"a": _X[:, :2], "b": _X[:, 2:]}, _Y)).batch(4)

    with model_dir() as d:
        est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=d)
        est.train(train_input)
        out = {"eval": as_py(est.evaluate(train_input)),
               "predict": as_py(list(est.predict(
                   lambda: tf.data.Dataset.from_tensor_slices(
                       {"a": _X[:3, :2], "b": _X[:3, 2:]}).batch(3)))),
               "variables": sorted(est.get_variable_names())}
        out["missing_key"] = catch(lambda: est.train(
            lambda: tf.data.Dataset.from_tensor_slices(({"a": _X[:, :2]}, _Y)).batch(4),
            steps=1))
    return out


def case_keras_model_path(tf):
    model = _sequential(tf)
    with model_dir() as d:
        path = os.path.join(d, "model.h5")
        model.save(path)
        est = tf.keras.estimator.model_to_estimator(keras_model_path=path,
                                                    model_dir=os.path.join(d, "est"))
        est.train(lambda: _train_input(tf), steps=3)
        return {"eval": as_py(est.evaluate(lambda: _eval_input(tf)))}


def case_errors(tf):
    model = _sequential(tf)
    plain = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    return [catch(lambda: tf.keras.estimator.model_to_estimator(), message=True),
            catch(lambda: tf.keras.estimator.model_to_estimator(
                keras_model=model, keras_model_path="x.h5"), message=True),
            catch(lambda: tf.keras.estimator.model_to_estimator(keras_model=plain),
                  message=True),
            catch(lambda: tf.keras.estimator.model_to_estimator(
                keras_model=model, checkpoint_format="h5"), message=True),
            catch(lambda: tf.keras.estimator.model_to_estimator(
                keras_model=model, metric_names_map={"nope": "x"}).train(
                    lambda: _train_input(tf), steps=1))]
