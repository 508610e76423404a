"""Golden cases: the v2 heads (`tf.estimator.BinaryClassHead`, `MultiClassHead`,
`RegressionHead`, `PoissonRegressionHead`, `LogisticRegressionHead`) as TF 2.15 runs them
in graph mode: `create_estimator_spec` in `tf.compat.v1.estimator.Estimator` model_fns
(with `train_op_fn`, or a Keras optimizer with `trainable_variables`), and `loss`,
`predictions`, `metrics`, `update_metrics` called directly."""

import numpy as np

from tests.golden.estimator_util import model_dir, train_evaluate_predict_export
from tests.golden.harness import catch, tolerance

TF_VERSION = "2.15"

_RNG = np.random.RandomState(17)
_X = _RNG.uniform(-1., 1., (12, 3)).astype(np.float32)
_W = _RNG.uniform(.5, 2., (12, 1)).astype(np.float32)
_BIN = (_X.sum(1) > 0).astype(np.int64).reshape(-1, 1)
_BIN_STR = np.array([[b"no", b"yes"][int(i)] for i in _BIN[:, 0]], dtype=object).reshape(-1, 1)
_CLS3 = np.clip(((_X[:, 0] + 1.) * 1.5).astype(np.int64), 0, 2).reshape(-1, 1)
_REG2 = (_X @ np.array([[1., .5], [-2., 0.], [.5, 1.]], np.float32)).astype(np.float32)
_COUNTS = np.round(np.exp(_X[:, :1] + .5)).astype(np.float32)
_PROB = ((_X[:, :1] + 1.) / 2.).astype(np.float32)
_KERNEL = np.array([[.3, -.2, .5], [-.4, .6, .1], [.2, .3, -.5]], np.float32)


def _input(tf, y, epochs=None, batch=4):
    return tf.estimator.inputs.numpy_input_fn({"x": _X, "w": _W}, y, batch_size=batch,
                                              num_epochs=epochs, shuffle=False)


def _model_fn(tf, make_head, units, keras_optimizer=False, regularize=False):
    """Logits x @ a fixed kernel slice; a v1 GradientDescent train_op_fn, or a Keras
    legacy SGD over the (resource) trainable variables with the global step's increment
    as an update op."""
    def model_fn(features, labels, mode):
        head = make_head()
        with tf.variable_scope(tf.get_variable_scope(), use_resource=keras_optimizer):
            logits = tf.layers.dense(
                features["x"], units, name="logits",
                kernel_initializer=tf.constant_initializer(_KERNEL[:, :units]),
                bias_initializer=tf.constant_initializer(.1))
        reg = None
        if regularize:
            reg = [tf.multiply(.01, tf.reduce_sum(tf.square(tf.trainable_variables()[0])),
                               name="l2")]
        if keras_optimizer:
            return head.create_estimator_spec(
                features=features, mode=mode, labels=labels, logits=logits,
                optimizer=tf.keras.optimizers.legacy.SGD(.1),
                trainable_variables=tf.trainable_variables(),
                update_ops=[tf.assign_add(tf.train.get_global_step(), 1)],
                regularization_losses=reg)
        return head.create_estimator_spec(
            features=features, mode=mode, labels=labels, logits=logits,
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(.1).minimize(
                loss, global_step=tf.train.get_global_step()),
            regularization_losses=reg)
    return model_fn


def _serving_fn(tf):
    return tf.estimator.export.build_parsing_serving_input_receiver_fn(
        {"x": tf.io.FixedLenFeature([3], tf.float32)})


def _run(tf, model_fn, y):
    with model_dir() as d:
        return train_evaluate_predict_export(
            tf, tf.estimator.Estimator(model_fn, model_dir=d), _input(tf, y),
            _input(tf, y, epochs=1),
            tf.estimator.inputs.numpy_input_fn({"x": _X[:3], "w": _W[:3]}, batch_size=2,
                                               shuffle=False),
            _serving_fn(tf))


@tolerance(rtol=1e-5, atol=1e-6)
def case_binary_class_head_estimator(tf):
    """Vocabulary labels, example weights, two thresholds, train_op_fn."""
    return _run(tf, _model_fn(tf, lambda: tf.estimator.BinaryClassHead(
        weight_column="w", thresholds=[.3, .6], label_vocabulary=["no", "yes"]), 1), _BIN_STR)


@tolerance(rtol=1e-5, atol=1e-6)
def case_binary_class_head_keras_optimizer_sum(tf):
    """A named head, SUM reduction, a Keras optimizer and regularization losses."""
    return _run(tf, _model_fn(tf, lambda: tf.estimator.BinaryClassHead(
        loss_reduction="sum", name="b"), 1, keras_optimizer=True,
        regularize=True), _BIN)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_class_head_estimator(tf):
    """Integer labels, weights, a Keras optimizer."""
    return _run(tf, _model_fn(tf, lambda: tf.estimator.MultiClassHead(
        3, weight_column="w"), 3, keras_optimizer=True), _CLS3)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_class_head_vocabulary(tf):
    """String labels through `label_vocabulary`, regularization losses."""
    labels = np.array([[[b"a", b"b", b"c"][int(i)]] for i in _CLS3[:, 0]], dtype=object)
    return _run(tf, _model_fn(tf, lambda: tf.estimator.MultiClassHead(
        3, label_vocabulary=["a", "b", "c"], name="m"), 3, regularize=True), labels)


@tolerance(rtol=1e-5, atol=1e-6)
def case_regression_head_estimator(tf):
    """Two label dimensions, weights, regularization losses."""
    return _run(tf, _model_fn(tf, lambda: tf.estimator.RegressionHead(
        label_dimension=2, weight_column="w"), 2, regularize=True), _REG2)


@tolerance(rtol=1e-5, atol=1e-6)
def case_poisson_regression_head_estimator(tf):
    return _run(tf, _model_fn(tf, lambda: tf.estimator.PoissonRegressionHead(
        weight_column="w"), 1), _COUNTS)


@tolerance(rtol=1e-5, atol=1e-6)
def case_logistic_regression_head_estimator(tf):
    return _run(tf, _model_fn(tf, lambda: tf.estimator.LogisticRegressionHead(name="p"), 1),
                _PROB)


@tolerance(rtol=1e-5, atol=1e-6)
def case_head_methods(tf):
    """`loss` (SUM_OVER_BATCH_SIZE and SUM), `predictions` with keys, `metrics` keys and
    `update_metrics` results, outside an Estimator."""
    out = {}
    with tf.Graph().as_default():
        logits1 = tf.constant(_X[:6, :1] * 2.)
        logits3 = tf.constant(_X[:6] * 2.)
        features = {"w": tf.constant(_W[:6])}
        binary = tf.estimator.BinaryClassHead(weight_column="w", thresholds=[.5])
        multi = tf.estimator.MultiClassHead(3, loss_reduction="sum")
        regression = tf.estimator.RegressionHead(label_dimension=3, weight_column="w")
        losses = [binary.loss(tf.constant(_BIN[:6]), logits1, features),
                  multi.loss(tf.constant(_CLS3[:6]), logits3, {}),
                  regression.loss(tf.constant(_REG2[:6, :1] * np.ones((1, 3), np.float32)),
                                  logits3, features)]
        preds = [binary.predictions(logits1, ["logistic", "class_ids"]),
                 multi.predictions(logits3, ["probabilities", "classes"]),
                 regression.predictions(logits3)]
        metrics = binary.metrics()
        out["metric_keys"] = sorted(metrics)
        metrics = binary.update_metrics(metrics, features, logits1, tf.constant(_BIN[:6]))
        updates = [u for m in metrics.values() for u in m.updates]
        results = {k: m.result() for k, m in metrics.items()}
        with tf.Session() as sess:
            sess.run(tf.variables_initializer(
                [v for m in metrics.values() for v in m.variables]))
            sess.run(updates)
            out["losses"], out["predictions"], out["metrics"] = sess.run(
                (losses, preds, results))
    return out


def case_head_errors(tf):
    """TF's ValueErrors for bad arguments."""
    def optimizer_error():
        with tf.Graph().as_default():
            head = tf.estimator.RegressionHead()
            return head.create_estimator_spec(
                features={}, mode="train", logits=tf.zeros([2, 1]), labels=tf.zeros([2, 1]),
                optimizer=tf.train.GradientDescentOptimizer(.1))
    return {
        "n_classes": catch(lambda: tf.estimator.MultiClassHead(2), message=True),
        "vocab_len": catch(lambda: tf.estimator.MultiClassHead(3, label_vocabulary=["a"]),
                           message=True),
        "thresholds": catch(lambda: tf.estimator.BinaryClassHead(thresholds=[1.5]),
                            message=True),
        "reduction": catch(lambda: tf.estimator.RegressionHead(loss_reduction="none"),
                           message=True),
        "label_dimension": catch(lambda: tf.estimator.RegressionHead(label_dimension=0),
                                 message=True),
        "pred_key": catch(lambda: tf.estimator.BinaryClassHead().predictions(
            tf.zeros([2, 1]), ["scores"]), message=True),
        # (the message names the optimizer's class path)
        "optimizer": catch(optimizer_error),
        "v1_reduction": catch(lambda: tf.estimator.RegressionHead(
            loss_reduction=tf.losses.Reduction.SUM), message=True),
    }


_MULTI_HOT = (_RNG.rand(12, 3) > .5).astype(np.int64)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_label_head_estimator(tf):
    """Multi-hot labels, weights, a threshold, per-class metrics named by the vocabulary."""
    return _run(tf, _model_fn(tf, lambda: tf.estimator.MultiLabelHead(
        3, weight_column="w", thresholds=[.5], label_vocabulary=["a", "b", "c"],
        classes_for_class_based_metrics=["c", "a"]), 3), _MULTI_HOT)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_label_head_sparse_labels(tf):
    """SparseTensor labels (ids, and strings through the vocabulary): loss, and metrics
    updated by `update_metrics`; a named head with SUM reduction."""
    out = {}
    with tf.Graph().as_default():
        logits = tf.constant(_X[:4] * 2.)
        indices = [[0, 0], [0, 1], [2, 0], [3, 0], [3, 1]]
        ids = tf.SparseTensor(indices, tf.constant([2, 0, 1, 0, 2], tf.int64), [4, 2])
        strings = tf.SparseTensor(indices, ["c", "a", "b", "a", "c"], [4, 2])
        by_id = tf.estimator.MultiLabelHead(3, loss_reduction="sum", name="t",
                                            classes_for_class_based_metrics=[1])
        by_name = tf.estimator.MultiLabelHead(3, label_vocabulary=["a", "b", "c"])
        losses = [by_id.loss(ids, logits, {}), by_name.loss(strings, logits, {})]
        metrics = by_id.update_metrics(by_id.metrics(), {}, logits, ids)
        out["metric_keys"] = sorted(metrics)
        updates = [u for m in metrics.values() for u in m.updates]
        with tf.Session() as sess:
            sess.run([tf.tables_initializer(), tf.variables_initializer(
                [v for m in metrics.values() for v in m.variables])])
            sess.run(updates)
            out["losses"], out["metrics"] = sess.run(
                (losses, {k: m.result() for k, m in metrics.items()}))
    return out


def _multi_head(tf, weights=(1., .5)):
    return tf.estimator.MultiHead(
        [tf.estimator.MultiClassHead(3, name="a", weight_column="w"),
         tf.estimator.RegressionHead(name="r")], head_weights=list(weights))


def _multi_labels():
    return {"a": _CLS3, "r": _REG2[:, :1]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_head_estimator(tf):
    """MultiHead (3-class "a" with weights, regression "r") on one [batch, 4] logits
    tensor, weighted 1 and .5, with regularization losses: merged loss, `loss/<name>` and
    the members' metrics, predictions keyed (head, key), per-head and merged signatures."""
    def model_fn(features, labels, mode):
        logits = tf.layers.dense(features["x"], 4, name="logits",
                                 kernel_initializer=tf.constant_initializer(
                                     np.hstack([_KERNEL, _KERNEL[:, :1]])))
        reg = [tf.multiply(.01, tf.reduce_sum(tf.square(tf.trainable_variables()[0])),
                           name="l2")]
        return _multi_head(tf).create_estimator_spec(
            features=features, mode=mode, labels=labels, logits=logits,
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(.2).minimize(
                loss, global_step=tf.train.get_global_step()),
            regularization_losses=reg)
    return _run(tf, model_fn, _multi_labels())


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_head_methods(tf):
    """MultiHead's `loss` with a dict of logits, `predictions` keys, and its errors."""
    out = {}
    with tf.Graph().as_default():
        head = _multi_head(tf, ())
        logits = {"a": tf.constant(_X[:4] * 2.), "r": tf.constant(_X[:4, :1])}
        labels = {k: tf.constant(v[:4]) for k, v in _multi_labels().items()}
        loss = head.loss(labels, logits, {"w": tf.constant(_W[:4])})
        out["name"], out["logits_dimension"] = head.name, head.logits_dimension
        out["loss_reduction"] = head.loss_reduction
        out["prediction_keys"] = sorted(str(k) for k in head.predictions(logits))
        with tf.Session() as sess:
            out["loss"] = sess.run(loss)
        out["bad_split"] = catch(lambda: head.predictions(tf.zeros([2, 5])), message=True)
        out["missing_logits"] = catch(lambda: head.predictions({"a": logits["a"]}),
                                      message=True)
        out["missing_labels"] = catch(lambda: head.loss({"a": labels["a"]}, logits, {}),
                                      message=True)
        out["mixed_reduction"] = catch(lambda: tf.estimator.MultiHead([
            tf.estimator.RegressionHead(name="x"),
            tf.estimator.RegressionHead(name="y", loss_reduction="sum")]).loss_reduction,
            message=True)
    out["unnamed"] = catch(lambda: tf.estimator.MultiHead([tf.estimator.RegressionHead()]))
    out["weights"] = catch(lambda: tf.estimator.MultiHead(
        [tf.estimator.RegressionHead(name="x")], head_weights=[1., 2.]), message=True)
    return out
