"""Golden cases: the canned estimators of tf.estimator (TF1, recorded under TF 2.15):
variable names in checkpoints, training losses, evaluation metrics and keys, predictions,
SavedModel signatures; seeded so values are TF's."""

import os

import numpy as np

from tests.golden.estimator_util import (as_py, capture_logs, listing, model_dir,
                                         saved_model_signatures)
from tests.golden.harness import catch, tolerance

TF_VERSION = "2.15"

_RNG = np.random.RandomState(3)
_X = _RNG.rand(24, 3).astype(np.float32)
_S = np.array([[b"a"], [b"b"], [b"c"], [b"d"]] * 6, dtype=object)
_CLS = (_X.sum(1) > 1.5).astype(np.int64)
_CLS3 = (_X[:, 0] * 3).astype(np.int64)
_REG = (_X @ np.array([[1.], [-2.], [0.5]], np.float32) + 0.3).astype(np.float32)


def _columns(tf):
    fc = tf.feature_column
    vocab = fc.categorical_column_with_vocabulary_list("s", ["a", "b", "c"])
    return fc.numeric_column("x", shape=[3]), vocab


def _input(tf, y, epochs=None, batch=8, shuffle=False):
    return tf.estimator.inputs.numpy_input_fn({"x": _X, "s": _S}, y, batch_size=batch,
                                              num_epochs=epochs, shuffle=shuffle)


def _run(tf, est, y, steps=6, export=False):
    out = {}
    with capture_logs(tf) as logs:
        est.train(_input(tf, y), steps=steps)
    out["train_logs"] = [r for r in logs if r[0] in ("loss", "final_loss", "save")]
    out["variables"] = sorted(est.get_variable_names())
    metrics = est.evaluate(_input(tf, y, epochs=1))
    out["metric_keys"] = sorted(metrics)
    out["metrics"] = as_py(metrics)
    preds = list(est.predict(tf.estimator.inputs.numpy_input_fn(
        {"x": _X[:3], "s": _S[:3]}, batch_size=2, shuffle=False)))
    out["predictions"] = as_py(preds)
    if export:
        spec = tf.feature_column.make_parse_example_spec(list(_columns(tf)))
        path = est.export_saved_model(
            os.path.join(est.model_dir, "export"),
            tf.estimator.export.build_parsing_serving_input_receiver_fn(spec))
        out["signatures"] = saved_model_signatures(tf, path, ["serve"])
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_classifier_binary(tf):
    x, vocab = _columns(tf)
    fc = tf.feature_column
    with model_dir() as d:
        est = tf.estimator.DNNClassifier(
            hidden_units=[4, 3], feature_columns=[x, fc.embedding_column(vocab, 2)],
            model_dir=d, config=tf.estimator.RunConfig(tf_random_seed=7,
                                                       log_step_count_steps=2))
        out = _run(tf, est, _CLS, export=True)
        out["files"] = listing(d)
        return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_classifier_multiclass_vocab_labels(tf):
    x, vocab = _columns(tf)
    fc = tf.feature_column
    labels = np.array([[b"lo", b"mid", b"hi"][i] for i in _CLS3], dtype=object)
    with model_dir() as d:
        est = tf.estimator.DNNClassifier(
            hidden_units=[5], feature_columns=[x, fc.indicator_column(vocab)], n_classes=3,
            label_vocabulary=["lo", "mid", "hi"], optimizer="Adam", dropout=0.2,
            model_dir=d, config=tf.estimator.RunConfig(tf_random_seed=3))
        return _run(tf, est, labels)


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_regressor_weighted(tf):
    x, vocab = _columns(tf)
    fc = tf.feature_column
    with model_dir() as d:
        est = tf.estimator.DNNRegressor(
            hidden_units=[3], feature_columns=[x, fc.embedding_column(vocab, 2)],
            weight_column="x_w", activation_fn=tf.nn.tanh,
            optimizer=lambda: tf.train.GradientDescentOptimizer(0.05),
            model_dir=d, config=tf.estimator.RunConfig(tf_random_seed=1))
        inputs = {"x": _X, "s": _S, "x_w": np.linspace(0.5, 2., 24).astype(np.float32)}
        est.train(tf.estimator.inputs.numpy_input_fn(inputs, _REG, batch_size=6,
                                                     num_epochs=None, shuffle=False), steps=5)
        metrics = est.evaluate(tf.estimator.inputs.numpy_input_fn(
            inputs, _REG, batch_size=12, num_epochs=1, shuffle=False))
        return {"variables": sorted(est.get_variable_names()), "metrics": as_py(metrics)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_linear_classifier_and_regressor(tf):
    x, vocab = _columns(tf)
    fc = tf.feature_column
    out = {}
    with model_dir() as d:
        est = tf.estimator.LinearClassifier(
            feature_columns=[x, vocab, fc.crossed_column(["s", vocab], 7)], model_dir=d,
            n_classes=3)
        out["classifier"] = _run(tf, est, _CLS3, export=True)
    with model_dir() as d:
        est = tf.estimator.LinearRegressor(
            feature_columns=[x, fc.bucketized_column(fc.numeric_column("b"), [0.5])],
            model_dir=d, optimizer="SGD")
        inputs = {"x": _X, "b": _X[:, 1]}
        est.train(tf.estimator.inputs.numpy_input_fn(inputs, _REG, batch_size=8,
                                                     num_epochs=None, shuffle=False), steps=4)
        out["regressor_vars"] = sorted(est.get_variable_names())
        out["regressor"] = as_py(est.evaluate(tf.estimator.inputs.numpy_input_fn(
            inputs, _REG, batch_size=8, num_epochs=1, shuffle=False)))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_linear_combined(tf):
    x, vocab = _columns(tf)
    fc = tf.feature_column
    with model_dir() as d:
        est = tf.estimator.DNNLinearCombinedClassifier(
            linear_feature_columns=[vocab], dnn_feature_columns=[x, fc.indicator_column(vocab)],
            dnn_hidden_units=[3], model_dir=d,
            config=tf.estimator.RunConfig(tf_random_seed=5))
        return _run(tf, est, _CLS)


@tolerance(rtol=1e-4, atol=1e-5)
def case_baseline(tf):
    out = {}
    with model_dir() as d:
        est = tf.estimator.BaselineClassifier(n_classes=3, model_dir=d)
        out["classifier"] = _run(tf, est, _CLS3)
    with model_dir() as d:
        est = tf.estimator.BaselineRegressor(model_dir=d)
        out["regressor"] = _run(tf, est, _REG, steps=3)
    return out


def _model_fn_with_optimizer(tf, column, optimizer):
    with model_dir() as d:
        est = tf.estimator.DNNClassifier([2], [column], optimizer=optimizer, model_dir=d)
        with tf.Graph().as_default():
            return est.model_fn({"x": tf.ones([1, 3])}, None, "infer", est.config)


def case_canned_argument_errors(tf):
    x, vocab = _columns(tf)
    return {
        "n_classes": catch(lambda: tf.estimator.DNNClassifier([2], [x], n_classes=1),
                           message=False),
        "vocab_type": catch(lambda: tf.estimator.DNNClassifier([2], [x], label_vocabulary="ab"),
                            message=False),
        "optimizer_name": catch(lambda: _model_fn_with_optimizer(tf, x, "Nope"),
                                message=True),
        "loss_reduction": catch(lambda: tf.estimator.LinearRegressor(
            [x], loss_reduction="none"), message=True),
        "combined_empty": catch(lambda: tf.estimator.DNNLinearCombinedClassifier(),
                                message=True),
    }
