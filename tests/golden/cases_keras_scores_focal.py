"""Golden cases: tf.keras's F-beta / F1 / R2 score metrics (results over two updates, the
second weighted; averages; configs; errors), the focal crossentropies (functions, loss
classes, metric functions) and the loss classes' positional arguments in TF's order."""

import numpy as np

from tests.golden.cases_keras_metrics_confusion import two_updates
from tests.golden.harness import catch, tolerance


def _labels_scores():
    rng = np.random.RandomState(3)
    y_true = np.eye(4, dtype=np.float32)[rng.randint(0, 4, 10)]
    y_pred = rng.rand(10, 4).astype(np.float32)
    y_pred[2] = 0.0  # a row of zeros predicts no class
    return y_true, y_pred, rng.rand(10).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-6)
def case_fbeta_and_r2_scores(tf):
    M = tf.keras.metrics
    y_true, y_pred, weights = _labels_scores()
    session = tf.keras.backend.get_session()
    out = {}
    for name, metric in [("f1_none", M.F1Score()), ("f1_micro", M.F1Score("micro")),
                         ("f1_macro_threshold", M.F1Score("macro", threshold=0.5)),
                         ("fbeta_weighted", M.FBetaScore("weighted", beta=2.0)),
                         ("fbeta_micro_threshold", M.FBetaScore("micro", 0.5, 0.3))]:
        value = two_updates(tf, session, metric, y_true, y_pred, weights, 4)
        out[name] = {"result": np.asarray(value, np.float64),
                     "weights": [(v.name, v.shape.as_list()) for v in metric.variables],
                     "config": metric.get_config()}
    rng = np.random.RandomState(4)
    t = rng.randn(12, 3).astype(np.float32)
    p = (t + 0.3 * rng.randn(12, 3)).astype(np.float32)
    w = rng.rand(12).astype(np.float32)
    for name, metric in [("r2_uniform", M.R2Score()),
                         ("r2_variance", M.R2Score("variance_weighted_average")),
                         ("r2_raw", M.R2Score(None))]:
        value = two_updates(tf, session, metric, t, p, w, 5)
        out[name] = {"result": np.asarray(value, np.float64),
                     "weights": [(v.name, v.shape.as_list()) for v in metric.variables],
                     "config": metric.get_config()}
    return out


def _adjusted_r2_in_graph(tf, build):
    """R2Score's adjustment compares a Python int with its num_samples variable: in a
    graph, a tensor used as a Python bool."""
    metric = tf.keras.metrics.R2Score(num_regressors=2)
    build(metric, [None, 2])
    return metric.result().shape.as_list()


def case_score_metric_errors(tf):
    M = tf.keras.metrics

    def build(metric, shape):
        return metric.update_state(tf.placeholder(tf.float32, shape),
                                   tf.placeholder(tf.float32, shape))

    return {
        "average": catch(lambda: M.FBetaScore("samples"), message=True),
        "beta_int": catch(lambda: M.FBetaScore(beta=2), message=True),
        "beta_zero": catch(lambda: M.FBetaScore(beta=0.0), message=True),
        "threshold": catch(lambda: M.F1Score(threshold=1.5), message=True),
        "rank": catch(lambda: build(M.F1Score(), [None, 2, 3]), message=True),
        "unknown_classes": catch(lambda: build(M.R2Score(), [None, None]), message=True),
        "aggregation": catch(lambda: M.R2Score("mean"), message=True),
        "regressors": catch(lambda: M.R2Score(num_regressors=-1), message=True),
        "adjusted_in_graph": catch(lambda: _adjusted_r2_in_graph(tf, build)),
    }


@tolerance(rtol=1e-5, atol=1e-6)
def case_focal_crossentropies(tf):
    L = tf.keras.losses
    rng = np.random.RandomState(5)
    y_bin = (rng.rand(4, 3) > 0.5).astype(np.float32)
    p_bin = rng.rand(4, 3).astype(np.float32) * 0.98 + 0.01
    y_cat = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 4)]
    logits = rng.randn(4, 3).astype(np.float32)
    sw = np.array([1.0, 0.5, 0.0, 2.0], np.float32)
    outs = {
        "binary": L.binary_focal_crossentropy(y_bin, p_bin),
        "binary_balanced_logits": L.binary_focal_crossentropy(
            y_bin, logits, apply_class_balancing=True, alpha=0.4, gamma=1.5,
            from_logits=True, label_smoothing=0.1),
        "categorical": L.categorical_focal_crossentropy(y_cat, p_bin),
        "categorical_logits": L.categorical_focal_crossentropy(
            y_cat, logits, alpha=0.5, gamma=3.0, from_logits=True, label_smoothing=0.2),
        "binary_class": L.BinaryFocalCrossentropy(True, 0.3)(y_bin, p_bin, sample_weight=sw),
        "categorical_class_sum": L.CategoricalFocalCrossentropy(
            reduction="sum")(y_cat, logits, sample_weight=sw),
        "metric_fn": tf.keras.metrics.binary_focal_crossentropy(y_bin, p_bin, gamma=0.0),
        "metric_cat_fn": tf.keras.metrics.categorical_focal_crossentropy(y_cat, p_bin),
    }
    with tf.Session() as sess:
        values = sess.run(outs)
    return {"values": values,
            "configs": {"binary": L.BinaryFocalCrossentropy(True, 0.3).get_config(),
                        "categorical": L.CategoricalFocalCrossentropy(0.5, 1.0).get_config()}}


def case_loss_classes_take_positional_arguments(tf):
    L = tf.keras.losses
    return {"huber": L.Huber(2.0).get_config(),
            "bce": L.BinaryCrossentropy(True, 0.1).get_config(),
            "cce": L.CategoricalCrossentropy(True, 0.0, 1, "sum", "c").get_config(),
            "scce": L.SparseCategoricalCrossentropy(True, 3).get_config(),
            "cosine": L.CosineSimilarity(0).get_config(),
            "mse": L.MeanSquaredError("none", "m").get_config(),
            "too_many": catch(lambda: L.Huber(1.0, "sum", "h", 4)),
            "twice": catch(lambda: L.Huber(1.0, delta=2.0))}
