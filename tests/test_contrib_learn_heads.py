"""`tf.contrib.learn`'s multi_label_head, loss_only_head, multi_head and no_op_train_fn:
names, keys and errors as TF 1.15's contrib/learn/python/learn/estimators/head.py has them
(values against TF 2.15 in tests/golden/cases_contrib_learn_heads.py)."""

import numpy as np
import pytest

import tf1compat as tf

learn = tf.contrib.learn


def _eval_metrics(metric_ops):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([update for _, update in metric_ops.values()])
        return sess.run({k: v for k, (v, _) in metric_ops.items()})


def test_multi_label_head_keys_and_predictions():
    tf.reset_default_graph()
    head = learn.multi_label_head(3, head_name="tags", metric_class_ids=[2])
    logits = tf.constant([[1., -1., 2.], [-3., 0.5, -0.5]])
    ops = head.create_model_fn_ops({}, "eval", tf.constant([[1, 0, 1], [0, 1, 1]]),
                                   logits=logits)
    assert sorted(ops.eval_metric_ops) == sorted([
        "loss/tags", "accuracy/tags", "auc/tags", "auc_precision_recall/tags",
        "labels/prediction_mean/class2/tags", "labels/actual_label_mean/class2/tags",
        "labels/probability_mean/class2/tags", "labels/logits_mean/class2/tags",
        "auc/class2/tags", "auc_precision_recall/class2/tags"])
    assert sorted(ops.predictions) == ["classes", "logits", "probabilities"]
    assert ops.predictions["classes"].dtype == tf.int64
    assert ops.predictions["probabilities"].op.name == "tags/predictions/probabilities"
    metrics = _eval_metrics(ops.eval_metric_ops)
    # classes [[1,0,1],[0,1,0]] vs labels [[1,0,1],[0,1,1]]: 5 of 6 right.
    assert metrics["accuracy/tags"] == pytest.approx(5 / 6)
    assert metrics["labels/actual_label_mean/class2/tags"] == pytest.approx(1.)
    assert metrics["labels/logits_mean/class2/tags"] == pytest.approx(.75)
    with tf.Session() as sess:
        assert sess.run(ops.predictions["classes"]).tolist() == [[1, 0, 1], [0, 1, 0]]


def test_multi_label_head_sparse_labels_and_default_scope():
    tf.reset_default_graph()
    head = learn.multi_label_head(3)
    labels = tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1]], values=[2, 0, 1],
                             dense_shape=[2, 2])
    logits = tf.constant([[1., -1., 2.], [-3., 0.5, -0.5]])
    ops = head.create_model_fn_ops({}, "train", labels, logits=logits,
                                   train_op_fn=learn.no_op_train_fn)
    assert ops.train_op.type == "NoOp"
    assert ops.predictions["classes"].op.name == "multi_label_head/predictions/classes"
    with tf.Session() as sess:
        loss = sess.run(ops.loss)
    targets = np.array([[0, 0, 1], [1, 1, 0]], np.float32)
    x = np.array([[1., -1., 2.], [-3., 0.5, -0.5]], np.float32)
    expected = np.mean(np.maximum(x, 0) - x * targets + np.log1p(np.exp(-np.abs(x))))
    assert loss == pytest.approx(expected, rel=1e-5)


def test_multi_label_head_errors():
    with pytest.raises(ValueError, match="n_classes must be > 1 for classification."):
        learn.multi_label_head(1)
    with pytest.raises(ValueError, match=r"Class ID 3 not in \[0, 3\)."):
        learn.multi_label_head(3, metric_class_ids=[3])
    with pytest.raises(ValueError, match="Argument weights not found in loss_fn."):
        learn.multi_label_head(3, loss_fn=lambda labels, logits: logits)


def test_multi_label_head_custom_loss_fn_is_the_reported_loss():
    tf.reset_default_graph()

    def loss_fn(labels, logits, weights=None):
        return tf.reduce_sum(tf.abs(tf.cast(labels, tf.float32) - logits))

    head = learn.multi_label_head(2, loss_fn=loss_fn)
    ops = head.create_model_fn_ops({}, "eval", tf.constant([[1, 0]]),
                                   logits=tf.constant([[.5, .25]]))
    assert _eval_metrics(ops.eval_metric_ops)["loss"] == pytest.approx(.75)


def test_loss_only_head():
    tf.reset_default_graph()
    head = learn.loss_only_head(lambda: [tf.constant(1.5), tf.constant(2.)])
    assert head.head_name == "loss_only_head" and head.logits_dimension == 0
    ops = head.create_model_fn_ops({}, "train", train_op_fn=learn.no_op_train_fn)
    assert ops.predictions == {} and ops.eval_metric_ops == {}
    summaries = [op.name for op in tf.get_default_graph().get_operations()
                 if op.type == "ScalarSummary"]
    assert summaries == ["loss/loss_only_head"]
    with tf.Session() as sess:
        assert sess.run(ops.loss) == pytest.approx(3.5)
    infer = head.create_model_fn_ops({}, "infer")
    assert infer.loss is None and infer.train_op is None
    with pytest.raises(ValueError, match="train_op_fn can not be None in TRAIN mode"):
        head.create_model_fn_ops({}, "train")
    with pytest.raises(ValueError, match="mode=predict unrecognized."):
        head.create_model_fn_ops({}, "predict")


def _two_heads():
    return [learn.multi_class_head(3, label_name="a", head_name="a"),
            learn.regression_head(label_name="r", head_name="r")]


def test_multi_head_merges_predictions_metrics_and_losses():
    tf.reset_default_graph()
    head = learn.multi_head(_two_heads() + [learn.loss_only_head(
        lambda: tf.constant(10.), head_name="reg")], loss_weights=[1., .5, .1])
    assert head.logits_dimension == 4
    logits = tf.constant([[2., 0., 0., 1.], [0., 3., 0., -1.]])
    labels = {"a": tf.constant([0, 2]), "r": tf.constant([1., 1.])}
    infer = head.create_model_fn_ops({}, "infer", logits=logits)
    assert sorted(infer.predictions) == [("a", "classes"), ("a", "logits"),
                                         ("a", "probabilities"), ("r", "scores")]
    ev = head.create_model_fn_ops({}, "eval", labels, logits=logits)
    assert sorted(ev.eval_metric_ops) == ["accuracy/a", "loss/a", "loss/r"]
    metrics = _eval_metrics(ev.eval_metric_ops)
    assert metrics["accuracy/a"] == pytest.approx(.5)
    assert metrics["loss/r"] == pytest.approx(2.)
    with tf.Session() as sess:
        ce = sess.run(tf.losses.sparse_softmax_cross_entropy(labels["a"], logits[:, :3]))
        assert sess.run(ev.loss) == pytest.approx(ce + .5 * 2. + .1 * 10., rel=1e-5)


def test_multi_head_dict_logits_and_logits_input():
    tf.reset_default_graph()
    head = learn.multi_head(_two_heads())
    labels = {"a": tf.constant([0, 2]), "r": tf.constant([1., 1.])}
    ops = head.create_model_fn_ops(
        {}, "eval", labels, logits={"a": tf.zeros((2, 3)), "r": tf.ones((2, 1))})
    with tf.Session() as sess:
        assert sess.run(ops.loss) == pytest.approx(np.log(3.), rel=1e-5)
    tf.reset_default_graph()
    ops = head.create_model_fn_ops({}, "infer", logits_input=tf.ones((2, 5)))
    names = sorted(v.op.name for v in tf.global_variables())
    assert names == ["a/logits/biases", "a/logits/weights", "r/logits/biases",
                     "r/logits/weights"]


def test_multi_head_errors():
    with pytest.raises(ValueError, match="heads and loss_weights must have same size"):
        learn.multi_head(_two_heads(), loss_weights=[1.])
    with pytest.raises(ValueError, match="Members of MultiHead must have names."):
        learn.multi_head([learn.regression_head()])
    tf.reset_default_graph()
    head = learn.multi_head(_two_heads())
    with pytest.raises(ValueError, match="train_op_fn can not be None in TRAIN mode."):
        head.create_model_fn_ops({}, "train", {"a": tf.constant([0]), "r": tf.constant([1.])},
                                 logits=tf.zeros((1, 4)))


def test_multi_head_in_a_contrib_estimator(tmp_path):
    x = np.random.RandomState(0).rand(16, 3).astype(np.float32)
    y = {"a": (x[:, 0] * 3).astype(np.int64), "r": x.sum(1)}
    head = learn.multi_head(_two_heads())

    def model_fn(features, labels, mode):
        return head.create_model_fn_ops(
            features, mode, labels, logits_input=features["x"],
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(.1).minimize(
                loss, global_step=tf.train.get_global_step()))

    def input_fn():
        return {"x": tf.constant(x)}, {k: tf.constant(v) for k, v in y.items()}

    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path))
    est.fit(input_fn=input_fn, steps=3)
    result = est.evaluate(input_fn=input_fn, steps=1)
    assert {"loss", "loss/a", "loss/r", "accuracy/a", "global_step"} <= set(result)
    assert result["global_step"] == 3
    first = next(iter(est.predict(input_fn=lambda: ({"x": tf.constant(x)}, None))))
    assert sorted(first) == [("a", "classes"), ("a", "logits"), ("a", "probabilities"),
                             ("r", "scores")]
