"""Golden cases: the validation errors of the v2 heads (`tf.estimator.BinaryClassHead`,
`MultiClassHead`, `MultiLabelHead`, `RegressionHead`, `PoissonRegressionHead`,
`LogisticRegressionHead`, `MultiHead`) as TF 2.15 raises them in graph mode: class and
first line of the message for each check of the constructors, of the labels, logits and
weights given to `loss`/`predictions`, and of `create_estimator_spec`'s training
arguments."""

import numpy as np

from tests.golden.harness import catch

TF_VERSION = "2.15"


def _loss(tf, head, labels, logits, features=None):
    """`head.loss` in a fresh graph (static shapes: the checks run at construction)."""
    def call():
        with tf.Graph().as_default():
            head.loss(labels() if callable(labels) else labels, logits(), features or {})
    return catch(call, message=True)


def case_constructor_errors(tf):
    """Each head's constructor checks, one bad argument at a time."""
    est = tf.estimator
    cases = {
        "binary_vocab_type": lambda: est.BinaryClassHead(label_vocabulary="ab"),
        "binary_thresholds": lambda: est.BinaryClassHead(thresholds=[0.]),
        "binary_reduction": lambda: est.BinaryClassHead(loss_reduction="none"),
        "binary_loss_fn_missing": lambda: est.BinaryClassHead(loss_fn=lambda labels: labels),
        "binary_loss_fn_extra": lambda: est.BinaryClassHead(
            loss_fn=lambda labels, logits, extra: labels),
        "multi_class_none": lambda: est.MultiClassHead(None),
        "multi_class_one": lambda: est.MultiClassHead(1),
        "multi_class_vocab_type": lambda: est.MultiClassHead(3, label_vocabulary="abc"),
        "multi_class_reduction": lambda: est.MultiClassHead(3, loss_reduction="mean"),
        "multi_label_one": lambda: est.MultiLabelHead(1),
        "multi_label_thresholds": lambda: est.MultiLabelHead(3, thresholds=[.5, 1.]),
        "multi_label_vocab_type": lambda: est.MultiLabelHead(3, label_vocabulary="abc"),
        "multi_label_vocab_len": lambda: est.MultiLabelHead(3, label_vocabulary=["a"]),
        "multi_label_class_names": lambda: est.MultiLabelHead(
            3, classes_for_class_based_metrics=["a"]),
        "multi_label_class_range": lambda: est.MultiLabelHead(
            3, classes_for_class_based_metrics=[3]),
        "multi_label_class_negative": lambda: est.MultiLabelHead(
            3, classes_for_class_based_metrics=[-1]),
        "multi_label_class_unknown": lambda: est.MultiLabelHead(
            3, label_vocabulary=["a", "b", "c"], classes_for_class_based_metrics=["d"]),
        "multi_label_loss_fn": lambda: est.MultiLabelHead(3, loss_fn=lambda logits: logits),
        "regression_dimension": lambda: est.RegressionHead(label_dimension=-1),
        "regression_loss_fn": lambda: est.RegressionHead(
            loss_fn=lambda labels, logits, features, more: labels),
        "poisson_reduction": lambda: est.PoissonRegressionHead(loss_reduction="x"),
        "logistic_dimension": lambda: est.LogisticRegressionHead(label_dimension=0),
        "multi_head_empty": lambda: est.MultiHead([]),
    }
    return {name: catch(fn, message=True) for name, fn in cases.items()}


def case_label_errors(tf):
    """Labels that do not fit the logits: None, sparse, wrong last dimension, wrong batch,
    wrong dtype (ids against a vocabulary and back), and the multi-label sparse checks."""
    est = tf.estimator
    two = lambda: tf.zeros([2, 1])  # noqa: E731 - a logits maker
    three = lambda: tf.zeros([2, 3])  # noqa: E731
    sparse = lambda: tf.SparseTensor([[0, 0]], tf.constant([1], tf.int64), [2, 1])  # noqa
    return {
        "binary_none": _loss(tf, est.BinaryClassHead(), None, two),
        "binary_sparse": _loss(tf, est.BinaryClassHead(), sparse, two),
        "binary_last_dim": _loss(tf, est.BinaryClassHead(),
                                 lambda: tf.zeros([2, 2], tf.int64), two),
        "binary_batch": _loss(tf, est.BinaryClassHead(),
                              lambda: tf.zeros([3, 1], tf.int64), two),
        "binary_float_labels": _loss(tf, est.BinaryClassHead(),
                                     lambda: tf.constant([["a"], ["b"]]), two),
        "binary_vocab_int": _loss(tf, est.BinaryClassHead(label_vocabulary=["a", "b"]),
                                  lambda: tf.zeros([2, 1], tf.int64), two),
        "multi_class_float": _loss(tf, est.MultiClassHead(3),
                                   lambda: tf.zeros([2, 1], tf.float32), three),
        "multi_class_vocab_int": _loss(
            tf, est.MultiClassHead(3, label_vocabulary=["a", "b", "c"]),
            lambda: tf.zeros([2, 1], tf.int64), three),
        "multi_class_last_dim": _loss(tf, est.MultiClassHead(3),
                                      lambda: tf.zeros([2, 3], tf.int64), three),
        "regression_last_dim": _loss(tf, est.RegressionHead(label_dimension=2),
                                     lambda: tf.zeros([2, 3]), lambda: tf.zeros([2, 2])),
        "regression_string": _loss(tf, est.RegressionHead(),
                                   lambda: tf.constant([["a"], ["b"]]), two),
        "multi_label_none": _loss(tf, est.MultiLabelHead(3), None, three),
        "multi_label_sparse_float": _loss(
            tf, est.MultiLabelHead(3),
            lambda: tf.SparseTensor([[0, 0]], tf.constant([1.]), [2, 1]), three),
        "multi_label_dense_dim": _loss(tf, est.MultiLabelHead(3),
                                       lambda: tf.zeros([2, 2], tf.int64), three),
        "multi_head_not_dict": _loss(
            tf, est.MultiHead([est.RegressionHead(name="r")]),
            lambda: tf.zeros([2, 1]), lambda: {"r": tf.zeros([2, 1])}),
    }


def case_logits_and_weight_errors(tf):
    """Logits of the wrong rank or last dimension, and weight columns that are not a
    name, not numeric, or of a shape that does not fit."""
    est = tf.estimator
    ids = lambda: tf.zeros([2, 1], tf.int64)  # noqa: E731
    out = {
        "binary_rank1": _loss(tf, est.BinaryClassHead(), ids, lambda: tf.zeros([2])),
        "binary_dim": _loss(tf, est.BinaryClassHead(), ids, lambda: tf.zeros([2, 2])),
        "multi_class_dim": _loss(tf, est.MultiClassHead(3), ids, lambda: tf.zeros([2, 2])),
        "regression_dim": _loss(tf, est.RegressionHead(), lambda: tf.zeros([2, 1]),
                                lambda: tf.zeros([2, 3])),
        "multi_label_dim": _loss(tf, est.MultiLabelHead(3),
                                 lambda: tf.zeros([2, 3], tf.int64), lambda: tf.zeros([2, 4])),
        "multi_head_split": _loss(
            tf, est.MultiHead([est.RegressionHead(name="r"), est.RegressionHead(name="s")]),
            lambda: {"r": tf.zeros([2, 1]), "s": tf.zeros([2, 1])},
            lambda: tf.zeros([2, 3])),
    }

    def weighted(column):
        def call():
            with tf.Graph().as_default():
                feats = {k: tf.constant(v) for k, v in
                         {"w_str": np.array([[b"a"], [b"b"]], dtype=object),
                          "w_wide": np.ones((2, 2), np.float32),
                          "w": np.ones((2, 1), np.float32)}.items()}
                est.BinaryClassHead(weight_column=column).loss(
                    tf.zeros([2, 1], tf.int64), tf.zeros([2, 1]), feats)
        return catch(call, message=True)
    out["weight_type"] = weighted(5)
    out["weight_string"] = weighted("w_str")
    out["weight_shape"] = weighted("w_wide")
    out["weight_ok"] = weighted("w")
    return out


def case_training_argument_errors(tf):
    """`create_estimator_spec` in TRAIN mode: train_op_fn with optimizer, neither, a v1
    optimizer, and bad trainable_variables and
    update_ops."""
    est = tf.estimator

    def spec(mode="train", **given):
        """The error of one call; the message up to the type it names (TF's class path)."""
        def call():
            with tf.Graph().as_default():
                tf.train.create_global_step()
                v = tf.Variable(1., name="v")
                logits = tf.zeros([2, 1]) * v
                kwargs = {k: (a(v) if callable(a) and k != "train_op_fn" else a)
                          for k, a in given.items()}
                est.RegressionHead().create_estimator_spec(
                    features={}, mode=mode, logits=logits, labels=tf.zeros([2, 1]),
                    **kwargs)
        out = catch(call, message=True)
        if "message" in out:
            out["message"] = out["message"].split("<class")[0]
        return out

    sgd = lambda v: tf.keras.optimizers.legacy.SGD(.1)  # noqa: E731
    return {
        "both": spec(train_op_fn=lambda loss: tf.no_op(), optimizer=sgd),
        "neither": spec(),
        "no_variables": spec(optimizer=sgd),
        "variables_not_list": spec(optimizer=sgd, trainable_variables=lambda v: v),
        "update_ops_not_list": spec(optimizer=sgd, trainable_variables=lambda v: [v],
                                    update_ops=lambda v: tf.no_op()),
        "v1_optimizer": spec(optimizer=lambda v: tf.train.GradientDescentOptimizer(.1)),
        "bad_mode": spec(mode="bogus", train_op_fn=lambda loss: tf.no_op()),
    }
