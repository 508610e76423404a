"""tf.contrib.learn.Estimator / ModelFnOps / SKCompat on the core Estimator.

Numbers: a linear model y = x.w + b trained with plain SGD on the whole batch has updates
computed here in numpy, so the trained values are checked against that reference.
"""

import numpy as np
import pytest

import tf1compat as tf

learn = tf.contrib.learn
X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]], np.float32)
Y = np.array([[1.0], [2.0], [0.0], [-1.0]], np.float32)  # fed as a [batch] vector
LR = 0.05


def _linear_ops(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    predictions = tf.reshape(tf.matmul(features, w) + b, [-1])
    if mode == learn.ModeKeys.INFER:
        return predictions, None, None
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = tf.train.GradientDescentOptimizer(LR).minimize(
        loss, global_step=tf.train.get_global_step())
    return predictions, loss, train_op


def tuple_model_fn(features, targets, mode):
    return _linear_ops(features, targets, mode)


def ops_model_fn(features, labels, mode, params):
    predictions, loss, train_op = _linear_ops(features, labels, mode)
    metrics = None
    if mode == learn.ModeKeys.EVAL:
        metrics = {"mae": tf.metrics.mean_absolute_error(labels, predictions)}
    return learn.ModelFnOps(mode=mode, predictions={"y": predictions}, loss=loss,
                            train_op=train_op, eval_metric_ops=metrics)


def _numpy_sgd(steps):
    w, b = np.zeros((2, 1)), np.zeros(1)
    for _ in range(steps):
        err = X @ w + b - Y  # [4, 1]: the model's [4] predictions minus [4] labels
        w -= LR * 2 * X.T @ err / len(X)
        b -= LR * 2 * err.mean(axis=0)
    return w, b


def test_fit_evaluate_predict_with_x_y_and_tuple_model_fn(tmp_path):
    est = learn.Estimator(model_fn=tuple_model_fn, model_dir=str(tmp_path))
    assert est.fit(x=X, y=Y, steps=20) is est  # batch_size None: the whole array
    w, b = _numpy_sgd(20)
    np.testing.assert_allclose(est.get_variable_value("w"), w, rtol=1e-4)
    np.testing.assert_allclose(est.get_variable_value("b"), b, rtol=1e-4)
    metrics = est.evaluate(x=X, y=Y, steps=1)
    assert metrics["global_step"] == 20
    np.testing.assert_allclose(metrics["loss"], np.mean((X @ w + b - Y) ** 2), rtol=1e-4)
    preds = list(est.predict(x=X, as_iterable=True))
    assert len(preds) == 4
    np.testing.assert_allclose(np.stack(preds), (X @ w + b)[:, 0], rtol=1e-4)
    whole = est.predict(x=X, batch_size=3, as_iterable=False)
    assert whole.dtype == np.float32 and whole.shape == (4,)
    est.fit(x=X, y=Y, steps=5)  # resumes from the checkpoint
    assert est.evaluate(x=X, y=Y)["global_step"] == 25


def test_model_fn_ops_input_fn_metrics_and_skcompat(tmp_path):
    est = learn.Estimator(model_fn=ops_model_fn, model_dir=str(tmp_path), params={"a": 1})
    assert est.params == {"a": 1}
    input_fn = learn.io.numpy_input_fn(X, Y[:, 0], batch_size=4, num_epochs=None,
                                       shuffle=False)
    est.fit(input_fn=input_fn, steps=10)
    w, b = _numpy_sgd(10)
    metrics = est.evaluate(x=X, y=Y)
    assert set(metrics) == {"loss", "mae", "global_step"}
    np.testing.assert_allclose(metrics["mae"], np.mean(np.abs(X @ w + b - Y)), rtol=1e-4)
    sk = learn.SKCompat(est)
    assert sk.fit(X, Y, steps=0 or 1) is sk
    out = sk.predict(X)
    assert set(out) == {"y"} and out["y"].shape == (4,)
    assert sk.score(X, Y)["global_step"] == 11


def test_deprecation_logged_once(tmp_path, caplog, monkeypatch):
    from tf1compat.contrib.learn import estimator as contrib_estimator
    monkeypatch.setattr(contrib_estimator, "_deprecation_logged", False)
    learn.Estimator(model_fn=tuple_model_fn, model_dir=str(tmp_path))
    learn.Estimator(model_fn=tuple_model_fn, model_dir=str(tmp_path))
    logged = [r.getMessage() for r in caplog.records if "is deprecated" in r.getMessage()]
    assert len(logged) == 1 and logged[0].startswith(f"From {__file__}:")
    assert logged[0].endswith("Instructions for updating:\nPlease replace uses of any "
                              "Estimator from tf.contrib.learn with an Estimator from "
                              "tf.estimator.*")


def test_x_y_batches_follow_tfs_data_feeder(tmp_path, caplog):
    seen = []

    def recording_model_fn(features, labels, mode):
        seen.append((features, labels))
        return _linear_ops(features, labels, mode)

    est = learn.Estimator(model_fn=recording_model_fn, model_dir=str(tmp_path))
    x64 = np.arange(5.0)  # 1-D float64: one float64 column, with TF's warning
    with pytest.raises(TypeError, match="MatMul"):  # float32 variables, float64 features
        est.fit(x=x64, y=np.arange(5.0), steps=1)
    assert any("float64 is not supported" in r.getMessage() for r in caplog.records)
    assert seen[-1][0].dtype == tf.float64 and seen[-1][0].shape.as_list() == [None, 1]
    from tf1compat.contrib.learn.estimator import _get_input_fn
    feed = _get_input_fn(X, Y, None, 3, shuffle=True, epochs=2)
    with tf.Graph().as_default():
        nxt = feed().make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            got = []
            while True:
                try:
                    got.append(sess.run(nxt))
                except tf.errors.OutOfRangeError:
                    break
    assert [len(f) for f, _ in got] == [3, 1, 3, 1]  # batches do not cross epochs
    state = np.random.RandomState(42)
    first, second = state.permutation(4), state.permutation(4)
    np.testing.assert_array_equal(np.concatenate([got[0][0], got[1][0]]), X[first])
    np.testing.assert_array_equal(np.concatenate([got[2][1], got[3][1]]), Y[second, 0])


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="model_fn must be provided"):
        learn.Estimator(model_fn=None)
    with pytest.raises(ValueError, match="does not have a params argument"):
        learn.Estimator(model_fn=tuple_model_fn, params={"a": 1})
    est = learn.Estimator(model_fn=tuple_model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Either x or input_fn"):
        est.fit(steps=1)
    with pytest.raises(ValueError, match="both input_fn and x"):
        est.fit(x=X, input_fn=lambda: None, steps=1)
    with pytest.raises(ValueError, match="both steps and max_steps"):
        est.fit(x=X, y=Y, steps=1, max_steps=2)
    with pytest.raises(ValueError, match="Missing train_op"):
        learn.ModelFnOps(mode="train", predictions=1, loss=1)
    with pytest.raises(TypeError, match="not callable"):  # a bare metric is called
        est.evaluate(x=X, y=Y, metrics={"m": object()})

    def bad_model_fn(features, labels, mode):
        return 1, 2

    bad = learn.Estimator(model_fn=bad_model_fn, model_dir=str(tmp_path / "bad"))
    with pytest.raises(ValueError, match="Unrecognized value returned by model_fn"):
        bad.fit(x=X, y=Y, steps=1)


def test_tf1_module_paths_under_the_shim(tmp_path):
    import subprocess
    import sys
    script = tmp_path / "paths.py"
    script.write_text(
        "import tensorflow as tf\n"
        "from tensorflow.contrib.learn.python.learn.estimators import estimator, model_fn\n"
        "from tensorflow.contrib.learn.python.learn.learn_io import numpy_input_fn\n"
        "assert estimator.Estimator is tf.contrib.learn.Estimator\n"
        "assert model_fn.ModelFnOps is tf.contrib.learn.ModelFnOps\n"
        "assert numpy_input_fn is tf.estimator.inputs.numpy_input_fn\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
