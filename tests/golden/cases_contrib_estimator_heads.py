"""Golden cases: `tf.contrib.estimator`'s heads (TF 1.15's tensorflow_estimator
contrib/estimator head.py and multi_head.py) through `tf.estimator.Estimator` model_fns and
`DNNEstimator`/`LinearEstimator`.

TF 1.15 (which had contrib) is not installable, so the oracle is TF 2.15, whose
tensorflow-estimator still has the TF1 heads contrib wraps (`canned/head.py`):
`binary_classification_head`, `multi_class_head` and `regression_head` are those heads with
`loss_reduction=SUM_OVER_BATCH_SIZE`, and `poisson_regression_head` /
`logistic_regression_head` are `_regression_head` with TF 1.15's loss and inverse link
(`_oracle_heads`). For `multi_label_head` and `multi_head` (classes TF 2.15 only has as v2
heads) the oracle side records TF 1.15's formulas run with TF 2.15's ops and
`tf.compat.v1.metrics`, over the TF1 member heads of TF 2.15 for `multi_head`; the
multi-label training loss is checked against TF 2.15's `tf.estimator.MultiLabelHead`.
Contrib's metric and export keys: tests/test_contrib_estimator_heads.py.
"""

import numpy as np

from tests.golden.estimator_util import model_dir, train_evaluate_predict_export
from tests.golden.harness import catch, tolerance

TF_VERSION = "2.15"

_RNG = np.random.RandomState(11)
_X = _RNG.uniform(-1., 1., (12, 3)).astype(np.float32)
_W = _RNG.uniform(.5, 2., (12, 1)).astype(np.float32)
_BIN = (_X.sum(1) > 0).astype(np.int64).reshape(-1, 1)
_BIN_STR = np.array([[b"neg", b"pos"][int(i)] for i in _BIN[:, 0]], dtype=object).reshape(-1, 1)
_CLS3 = np.array([[b"lo", b"mid", b"hi"][int(v)] for v in
                  np.clip((_X[:, 0] + 1.) * 1.5, 0., 2.9)], dtype=object).reshape(-1, 1)
_REG2 = (_X @ np.array([[1., .5], [-2., 0.], [.5, 1.]], np.float32)).astype(np.float32)
_COUNTS = np.round(np.exp(_X[:, :1] + .5)).astype(np.float32)
_PROB = ((_X[:, :1] + 1.) / 2.).astype(np.float32)
_MULTI_HOT = (_RNG.rand(12, 3) > .5).astype(np.int64)
_KERNEL = np.array([[.3, -.2, .5], [-.4, .6, .1], [.2, .3, -.5]], np.float32)


def _oracle_heads(tf):
    """`tf.contrib.estimator`'s head functions: tf1compat's, or TF 1.15's built on TF 2.15's
    TF1 heads."""
    if hasattr(tf, "contrib"):
        return tf.contrib.estimator
    from tensorflow_estimator.python.estimator.canned import head as head_lib
    mean = tf.losses.Reduction.SUM_OVER_BATCH_SIZE

    class Heads:
        @staticmethod
        def binary_classification_head(loss_reduction=mean, **kw):
            return head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss(
                loss_reduction=loss_reduction, **kw)

        @staticmethod
        def multi_class_head(n_classes, loss_reduction=mean, **kw):
            return head_lib._multi_class_head_with_softmax_cross_entropy_loss(
                n_classes, loss_reduction=loss_reduction, **kw)

        @staticmethod
        def regression_head(loss_reduction=mean, **kw):
            return head_lib._regression_head(loss_reduction=loss_reduction, **kw)

        @staticmethod
        def poisson_regression_head(weight_column=None, label_dimension=1,
                                    loss_reduction=mean, compute_full_loss=True, name=None):
            def loss_fn(labels, logits):
                return tf.nn.log_poisson_loss(labels, logits,
                                              compute_full_loss=compute_full_loss)
            return head_lib._regression_head(
                weight_column=weight_column, label_dimension=label_dimension,
                loss_reduction=loss_reduction, loss_fn=loss_fn, inverse_link_fn=tf.exp,
                name=name)

        @staticmethod
        def logistic_regression_head(weight_column=None, loss_reduction=mean, name=None):
            def loss_fn(labels, logits):
                labels = head_lib._assert_range(labels, n_classes=2,
                                                message="Labels must be in range [0, 1]")
                return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
            return head_lib._regression_head(
                weight_column=weight_column, label_dimension=1,
                loss_reduction=loss_reduction, loss_fn=loss_fn, inverse_link_fn=tf.sigmoid,
                name=name)
    return Heads


def _input(tf, y, epochs=None, batch=4, x=_X, w=_W):
    return tf.estimator.inputs.numpy_input_fn({"x": x, "w": w}, y, batch_size=batch,
                                              num_epochs=epochs, shuffle=False)


def _linear_model_fn(tf, head, units, lr=.1):
    """A model_fn whose logits are x @ a fixed kernel slice (TF's and ours the same)."""
    def model_fn(features, labels, mode):
        logits = tf.layers.dense(features["x"], units, name="logits",
                                 kernel_initializer=tf.constant_initializer(_KERNEL[:, :units]),
                                 bias_initializer=tf.constant_initializer(.1))
        return head.create_estimator_spec(
            features=features, mode=mode, labels=labels, logits=logits,
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(lr).minimize(
                loss, global_step=tf.train.get_global_step()))
    return model_fn


def _serving_fn(tf):
    """Serialized tf.Examples in: classify and regress signatures are valid too."""
    return tf.estimator.export.build_parsing_serving_input_receiver_fn(
        {"x": tf.io.FixedLenFeature([3], tf.float32)})


def _run(tf, est, y, export=True):
    return train_evaluate_predict_export(
        tf, est, _input(tf, y), _input(tf, y, epochs=1),
        tf.estimator.inputs.numpy_input_fn({"x": _X[:3], "w": _W[:3]}, batch_size=2,
                                           shuffle=False),
        _serving_fn(tf) if export else None)


@tolerance(rtol=1e-5, atol=1e-6)
def case_binary_classification_head_model_fn(tf):
    """Vocabulary labels, example weights, two thresholds; loss averaged over the batch."""
    head = _oracle_heads(tf).binary_classification_head(
        weight_column="w", thresholds=[.3, .7], label_vocabulary=["neg", "pos"])
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf, head, 1), model_dir=d)
        return _run(tf, est, _BIN_STR)


@tolerance(rtol=1e-5, atol=1e-6)
def case_binary_classification_head_sum_reduction(tf):
    """loss_reduction=SUM with integer labels (contrib's default overridden)."""
    head = _oracle_heads(tf).binary_classification_head(
        loss_reduction=tf.losses.Reduction.SUM, name="bin")
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf, head, 1, lr=.05), model_dir=d)
        return _run(tf, est, _BIN, export=False)


@tolerance(rtol=1e-4, atol=1e-5)
def case_multi_class_head_dnn_estimator(tf):
    """`DNNEstimator` over a 3-class head with a label vocabulary and weights."""
    head = _oracle_heads(tf).multi_class_head(3, weight_column="w",
                                              label_vocabulary=["lo", "mid", "hi"])
    with model_dir() as d:
        est = tf.estimator.DNNEstimator(
            head=head, hidden_units=[4], model_dir=d,
            feature_columns=[tf.feature_column.numeric_column("x", shape=[3])],
            config=tf.estimator.RunConfig(tf_random_seed=5))
        return _run(tf, est, _CLS3)


@tolerance(rtol=1e-4, atol=1e-5)
def case_regression_head_linear_estimator(tf):
    """`LinearEstimator` over a two-dimensional regression head with weights."""
    head = _oracle_heads(tf).regression_head(weight_column="w", label_dimension=2)
    with model_dir() as d:
        est = tf.estimator.LinearEstimator(
            head=head, model_dir=d,
            feature_columns=[tf.feature_column.numeric_column("x", shape=[3])])
        return _run(tf, est, _REG2)


@tolerance(rtol=1e-5, atol=1e-6)
def case_poisson_regression_head(tf):
    """log_poisson_loss (full) on counts; predictions exp(logits)."""
    head = _oracle_heads(tf).poisson_regression_head(weight_column="w")
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf, head, 1, lr=.05), model_dir=d)
        return _run(tf, est, _COUNTS)


@tolerance(rtol=1e-5, atol=1e-6)
def case_logistic_regression_head(tf):
    """Sigmoid cross entropy on probabilities; predictions sigmoid(logits), a regress
    signature; labels outside [0, 1] fail the range check."""
    heads = _oracle_heads(tf)
    with model_dir() as d:
        est = tf.estimator.Estimator(
            _linear_model_fn(tf, heads.logistic_regression_head(name="p"), 1), model_dir=d)
        out = _run(tf, est, _PROB)
    with model_dir() as d:
        est = tf.estimator.Estimator(
            _linear_model_fn(tf, heads.logistic_regression_head(), 1), model_dir=d)
        out["bad_labels"] = catch(lambda: est.train(_input(tf, _PROB + 1.), steps=1))
    return out


def _run_eval(tf, spec, extra=None):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer(),
                  tf.tables_initializer()])
        sess.run([update for _, update in spec.eval_metric_ops.values()])
        return sess.run(({k: value for k, (value, _) in spec.eval_metric_ops.items()},
                         spec.loss, extra))


def _oracle_multi_label_eval(tf, logits, labels, weights, thresholds, class_id):
    """TF 1.15's `_MultiLabelHead` EVAL loss and metrics with TF 2.15's ops."""
    import tensorflow as tf2
    from tensorflow_estimator.python.estimator.canned import head as head_lib
    unreduced = tf.reduce_mean(tf.losses.sigmoid_cross_entropy(
        labels, logits, reduction=tf.losses.Reduction.NONE), axis=-1, keepdims=True)
    loss = tf.losses.compute_weighted_loss(unreduced, weights,
                                           reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
    v2_loss = tf2.estimator.MultiLabelHead(3, weight_column="w").loss(
        labels=labels, logits=logits, features={"w": weights}, mode="eval")
    probabilities = tf.sigmoid(logits)
    ops = {"average_loss": tf.metrics.mean(unreduced, weights),
           "auc": head_lib._auc(labels, probabilities, weights),
           "auc_precision_recall": head_lib._auc(labels, probabilities, weights, curve="PR")}
    for t in thresholds:
        ops["accuracy/positive_threshold_%g" % t] = head_lib._accuracy_at_threshold(
            labels, probabilities, weights, t)
        ops["precision/positive_threshold_%g" % t] = head_lib._precision_at_threshold(
            labels, probabilities, weights, t)
        ops["recall/positive_threshold_%g" % t] = head_lib._recall_at_threshold(
            labels, probabilities, weights, t)
    p, lab = probabilities[:, class_id:class_id + 1], labels[:, class_id:class_id + 1]
    ops["probability_mean/class%d" % class_id] = head_lib._predictions_mean(p, weights)
    ops["auc/class%d" % class_id] = head_lib._auc(lab, p, weights)
    ops["auc_precision_recall/class%d" % class_id] = head_lib._auc(lab, p, weights, curve="PR")
    spec = tf.estimator.EstimatorSpec("eval", loss=loss, eval_metric_ops=ops)
    return _run_eval(tf, spec, v2_loss)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_label_head_eval(tf):
    """multi_label_head EVAL: loss averaged over classes then the batch, AUCs, threshold
    metrics and one class's metrics (multi-hot labels, example weights)."""
    logits = tf.constant(_X)
    labels = tf.constant(_MULTI_HOT)
    weights = tf.constant(_W)
    if hasattr(tf, "contrib"):
        head = tf.contrib.estimator.multi_label_head(
            3, weight_column="w", thresholds=[.4], classes_for_class_based_metrics=[2])
        spec = head.create_estimator_spec({"w": weights}, "eval", logits, labels)
        metrics, loss, training_loss = _run_eval(
            tf, spec, head.create_loss({"w": weights}, "eval", logits, labels).training_loss)
    else:
        metrics, loss, training_loss = _oracle_multi_label_eval(tf, logits, labels, weights,
                                                                [.4], 2)
    return {"metrics": metrics, "loss": loss, "training_loss": training_loss}


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_label_head_sparse_labels(tf):
    """SparseTensor labels - class ids, and strings through `label_vocabulary` - become
    multi-hot labels; the vocabulary names the per-class metrics."""
    logits = tf.constant(_X[:4])
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 0], [3, 1]], [2, 0, 1, 0, 2], [4, 2])
    strings = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 0], [3, 1]],
                              ["c", "a", "b", "a", "c"], [4, 2])
    dense = np.array([[1, 0, 1], [0, 0, 0], [0, 1, 0], [1, 0, 1]], np.int64)
    out = {}
    if hasattr(tf, "contrib"):
        est = tf.contrib.estimator
        h1 = est.multi_label_head(3)
        h2 = est.multi_label_head(3, label_vocabulary=["a", "b", "c"],
                                  classes_for_class_based_metrics=["b"])
        l1 = h1.create_loss({}, "eval", logits, ids)
        l2 = h2.create_loss({}, "eval", logits, strings)
        spec = h2.create_estimator_spec({}, "eval", logits, strings)
        metrics, _, (p1, p2, t1, t2) = _run_eval(tf, spec, (
            l1.processed_labels, l2.processed_labels, l1.training_loss, l2.training_loss))
        out["metrics"] = {k: v for k, v in metrics.items() if "/" in k}
    else:
        from tensorflow_estimator.python.estimator.canned import head as head_lib
        loss = tf.losses.compute_weighted_loss(tf.reduce_mean(tf.losses.sigmoid_cross_entropy(
            dense, logits, reduction=tf.losses.Reduction.NONE), axis=-1, keepdims=True),
            reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
        p = tf.sigmoid(logits)[:, 1:2]
        ops = {"probability_mean/b": head_lib._predictions_mean(p, 1.),
               "auc/b": head_lib._auc(dense[:, 1:2], p, 1.),
               "auc_precision_recall/b": head_lib._auc(dense[:, 1:2], p, 1., curve="PR")}
        metrics, _, (t1,) = _run_eval(tf, tf.estimator.EstimatorSpec(
            "eval", loss=loss, eval_metric_ops=ops), (loss,))
        p1 = p2 = dense
        t2 = t1
        out["metrics"] = metrics
    out.update(labels=[p1, p2], losses=[t1, t2])
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_label_head_estimator(tf):
    """multi_label_head trained by a model_fn: logged losses, the EVAL loss, predictions
    and the export signatures."""
    if hasattr(tf, "contrib"):
        head = tf.contrib.estimator.multi_label_head(3, label_vocabulary=["a", "b", "c"])
    else:
        # TF 2.15's v2 MultiLabelHead has TF 1.15's loss, logits and probabilities; it adds
        # a `classes` prediction, dropped here (its TF1 metrics: case_multi_label_head_eval).
        head = tf.estimator.MultiLabelHead(3, label_vocabulary=["a", "b", "c"])
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf, head, 3), model_dir=d)
        out = _run(tf, est, _MULTI_HOT)
    out["metrics"] = {k: out["metrics"][k] for k in ("loss", "global_step")}
    out["metric_keys"] = [k for k in out["metric_keys"] if k in ("loss", "global_step")]
    out["predictions"] = [{k: p[k] for k in ("logits", "probabilities")}
                          for p in out["predictions"]]
    out["signatures"]["predict"]["outputs"].pop("classes", None)
    return out


def _multi_head_parts(tf):
    heads = _oracle_heads(tf)
    return (heads.multi_class_head(3, name="a"),
            heads.regression_head(name="r", weight_column="w"))


def _oracle_multi_head(tf, members, weights, mode, logits, labels, features):
    """TF 1.15's `_MultiHead` merge over TF 2.15's TF1 member heads."""
    with tf.name_scope(None, "split_logits", [logits]):
        batch_shape = tf.shape(logits)[:-1]
        zeros, minus_ones = tf.zeros_like(batch_shape), -1 * tf.ones_like(batch_shape)
        split = {h.name: tf.slice(logits, tf.concat([zeros, [b]], 0),
                                  tf.concat([minus_ones, [h.logits_dimension]], 0))
                 for h, b in zip(members, (0, 3))}
    specs = [h.create_estimator_spec(features=features, mode=mode, logits=split[h.name],
                                     labels=labels[h.name] if labels else None,
                                     train_op_fn=lambda loss: tf.no_op())
             for h in members]
    predictions = {(h.name, k): v for h, s in zip(members, specs)
                   for k, v in s.predictions.items()}
    if mode == "infer":
        outputs = {"serving_default": specs[0].export_outputs["serving_default"]}
        merged = {}
        for h, s in zip(members, specs):
            for k, v in s.export_outputs.items():
                outputs[h.name if k == "serving_default" else f"{h.name}/{k}"] = v
                if k == "predict":
                    merged.update({f"{h.name}/{kp}": vp for kp, vp in v.outputs.items()})
        outputs["predict"] = tf.estimator.export.PredictOutput(merged)
        return tf.estimator.EstimatorSpec(mode, predictions=predictions,
                                          export_outputs=outputs)
    loss = tf.add_n([s.loss * w for s, w in zip(specs, weights)])
    if mode == "train":
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, predictions=predictions,
            train_op=tf.train.GradientDescentOptimizer(.2).minimize(
                loss, global_step=tf.train.get_global_step()))
    metrics = {}
    for h, s in zip(members, specs):
        metrics[f"loss/{h.name}"] = tf.metrics.mean(s.loss)
        metrics.update(s.eval_metric_ops)
    return tf.estimator.EstimatorSpec(mode, loss=loss, predictions=predictions,
                                      eval_metric_ops=metrics)


@tolerance(rtol=1e-5, atol=1e-6)
def case_multi_head_estimator(tf):
    """multi_head (3-class "a" weight 1, regression "r" weight .5) on one [batch, 4]
    logits tensor: merged training loss, per-head EVAL metrics and `loss/<name>`,
    predictions keyed (head, key), export signatures per head and merged `predict`."""
    def model_fn(features, labels, mode):
        logits = tf.layers.dense(features["x"], 4, name="logits",
                                 kernel_initializer=tf.constant_initializer(
                                     np.hstack([_KERNEL, _KERNEL[:, :1]])))
        members = _multi_head_parts(tf)
        if hasattr(tf, "contrib"):
            head = tf.contrib.estimator.multi_head(members, head_weights=[1., .5])
            return head.create_estimator_spec(
                features=features, mode=mode, labels=labels, logits=logits,
                optimizer=tf.train.GradientDescentOptimizer(.2))
        return _oracle_multi_head(tf, members, [1., .5], mode, logits, labels, features)

    y = {"a": (_X[:, 0] > 0).astype(np.int64) + (_X[:, 1] > 0).astype(np.int64),
         "r": _REG2[:, :1]}
    with model_dir() as d:
        est = tf.estimator.Estimator(model_fn, model_dir=d)
        return _run(tf, est, y)
