"""`tf.contrib.estimator`'s heads: argument checks and keys of TF 1.15's
contrib/estimator head.py and multi_head.py that the goldens
(tests/golden/cases_contrib_estimator_heads.py) do not reach."""

import numpy as np
import pytest

import tf1compat as tf

est = tf.contrib.estimator


@pytest.mark.parametrize("kwargs,message", [
    ({"n_classes": 1}, "n_classes must be > 1 for multi-class classification. Given: 1"),
    ({"n_classes": 3, "thresholds": [1.0]}, "thresholds must be in (0, 1) range. Given: 1.0"),
    ({"n_classes": 3, "label_vocabulary": "abc"}, "label_vocabulary must be a list or tuple"),
    ({"n_classes": 3, "label_vocabulary": ["a", "b"]},
     "Length of label_vocabulary must be n_classes (3). Given: 2"),
    ({"n_classes": 3, "loss_reduction": "none"}, "Invalid loss_reduction: none"),
    ({"n_classes": 3, "classes_for_class_based_metrics": ["a"]},
     "label_vocabulary must be provided when classes_for_class_based_metrics are sting."),
    ({"n_classes": 3, "classes_for_class_based_metrics": [3]},
     "All classes_for_class_based_metrics must be in range [0, 2]. Given: 3"),
])
def test_multi_label_head_argument_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        est.multi_label_head(**kwargs)
    assert str(e.value).startswith(message)


def test_multi_head_argument_errors():
    named = est.regression_head(name="r")
    with pytest.raises(ValueError, match="Must specify heads"):
        est.multi_head([])
    with pytest.raises(ValueError, match="All given heads must have name specified"):
        est.multi_head([named, est.regression_head()])
    with pytest.raises(ValueError, match=r"Given len\(heads\): 1. Given len\(head_weights\): 2"):
        est.multi_head([named], head_weights=[1., 2.])
    head = est.multi_head([named, est.multi_label_head(2, name="m")])
    assert head.name == "r_m" and head.logits_dimension == 3
    with tf.Graph().as_default():
        logits = tf.zeros([2, 3])
        with pytest.raises(ValueError, match="labels must be a dict"):
            head.create_estimator_spec({}, "eval", logits, labels=[tf.zeros([2, 1])])
        with pytest.raises(NotImplementedError, match="regularization_losses"):
            head.create_estimator_spec({}, "eval", logits, {"r": tf.zeros([2, 1])},
                                       regularization_losses=[tf.constant(1.)])
        with pytest.raises(NotImplementedError, match="multi_head under TPUEstimator"):
            head._create_tpu_estimator_spec({}, "eval", logits)


def test_named_multi_label_head_keys():
    """A named head suffixes its metric keys; vocabulary names key the class metrics."""
    head = est.multi_label_head(3, label_vocabulary=["a", "b", "c"], thresholds=[.5],
                                classes_for_class_based_metrics=["c", "a"], name="tags")
    with tf.Graph().as_default():
        labels = tf.constant(np.array([[1, 0, 1], [0, 1, 0]], np.int64))
        spec = head.create_estimator_spec({}, "eval", tf.zeros([2, 3]), labels,
                                          regularization_losses=[tf.constant(.5)])
        assert sorted(spec.eval_metric_ops) == sorted([
            "average_loss/tags", "auc/tags", "auc_precision_recall/tags",
            "regularization_loss/tags", "accuracy/positive_threshold_0.5/tags",
            "precision/positive_threshold_0.5/tags", "recall/positive_threshold_0.5/tags",
            "probability_mean/c/tags", "auc/c/tags", "auc_precision_recall/c/tags",
            "probability_mean/a/tags", "auc/a/tags", "auc_precision_recall/a/tags"])
        predict = head.create_estimator_spec({}, "infer", tf.zeros([2, 3]))
        assert sorted(predict.predictions) == ["logits", "probabilities"]
        assert sorted(predict.export_outputs) == ["classification", "predict",
                                                  "serving_default"]


def test_multi_label_head_rejects_bad_sparse_ids():
    head = est.multi_label_head(3)
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int64, [None])
        labels = tf.SparseTensor([[0, 0]], ids, [1, 1])
        loss = head.create_loss({}, "eval", tf.zeros([1, 3]), labels).training_loss
        with tf.Session() as sess:
            assert sess.run(loss, {ids: [2]}) == pytest.approx(np.log(2.))
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"labels must be an integer SparseTensor with values in "
                                     r"\[0, 3\)"):
                sess.run(loss, {ids: [3]})


def test_contrib_heads_default_to_the_batch_mean():
    """Contrib's heads average the loss over the batch; the core TF1 heads sum it."""
    from tf1compat.estimator.canned import head as core
    with tf.Graph().as_default():
        logits = tf.constant([[1.], [-1.]])
        labels = tf.constant([[1.], [1.]])
        contrib_loss = est.regression_head().create_loss({}, "eval", logits, labels)
        core_loss = core.regression_head().create_loss({}, "eval", logits, labels)
        with tf.Session() as sess:
            assert sess.run([contrib_loss.training_loss, core_loss.training_loss]) == [2., 4.]
