"""Golden cases: tf.keras's confusion-matrix metrics (TruePositives ... AUC) — results over
two updates (the second weighted), weight names and configs, and as compile metrics in
`fit`."""

import json

import numpy as np

from tests.golden.harness import tolerance


def _data():
    rng = np.random.RandomState(0)
    return ((rng.rand(40, 3) > 0.5).astype(np.float32), rng.rand(40, 3).astype(np.float32),
            rng.rand(40).astype(np.float32))


def two_updates(tf, session, metric, y_true, y_pred, weights, split):
    """The metric's result after an update with the first `split` rows and a weighted one
    with the rest, run in `session` (variables initialized first)."""
    first = metric.update_state(y_true[:split], y_pred[:split])
    second = metric.update_state(y_true[split:], y_pred[split:],
                                 sample_weight=weights[split:])
    result = metric.result()
    session.run(tf.variables_initializer(metric.variables))
    session.run(first)
    session.run(second)
    return session.run(result)


@tolerance(rtol=1e-5, atol=1e-6)
def case_confusion_metrics_results(tf):
    M = tf.keras.metrics
    y_true, y_pred, weights = _data()
    session = tf.keras.backend.get_session()
    out = {}
    for name, metric in [
            ("true_positives", M.TruePositives()),
            ("false_positives", M.FalsePositives(thresholds=[0.2, 0.7])),
            ("true_negatives", M.TrueNegatives()), ("false_negatives", M.FalseNegatives()),
            ("precision", M.Precision()), ("precision_top_k", M.Precision(top_k=2)),
            ("recall_class", M.Recall(class_id=1, thresholds=[0.3, 0.6])),
            ("sensitivity_at_specificity", M.SensitivityAtSpecificity(0.5)),
            ("specificity_at_sensitivity", M.SpecificityAtSensitivity(0.7,
                                                                      num_thresholds=50)),
            ("precision_at_recall", M.PrecisionAtRecall(0.6)),
            ("recall_at_precision", M.RecallAtPrecision(0.55)),
            ("auc", M.AUC()), ("auc_pr", M.AUC(curve="PR")),
            ("auc_pr_minoring", M.AUC(curve="PR", summation_method="minoring",
                                      num_thresholds=20)),
            ("auc_thresholds", M.AUC(thresholds=[0.1, 0.4, 0.8])),
            ("auc_pr_gain_logits", M.AUC(from_logits=True, curve="PR_GAIN"))]:
        value = two_updates(tf, session, metric, y_true, y_pred, weights, 20)
        metric.reset_states()
        out[name] = {"result": np.asarray(value, np.float64),
                     "after_reset": np.asarray(session.run(metric.result()), np.float64),
                     "weights": [v.name for v in metric.variables],
                     "config": json.loads(json.dumps(metric.get_config(), default=str))}
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_confusion_metrics_in_fit(tf):
    M = tf.keras.metrics
    y_true, y_pred, _ = _data()
    x = tf.keras.layers.Input((3,))
    model = tf.keras.Model(x, tf.keras.layers.Dense(3, activation="sigmoid")(x))
    rng = np.random.RandomState(1)
    model.set_weights([rng.randn(3, 3).astype(np.float32), np.zeros(3, np.float32)])
    model.compile("sgd", "binary_crossentropy",
                  metrics=[M.AUC(), M.Precision(), M.Recall(), "acc"])
    h = model.fit(y_pred, y_true, epochs=2, batch_size=10, verbose=0, shuffle=False,
                  validation_data=(y_pred[:10], y_true[:10]))
    return {"history": {k: np.asarray(v, np.float64) for k, v in h.history.items()},
            "names": model.metrics_names,
            "evaluate": [float(v) for v in model.evaluate(y_pred, y_true, verbose=0)]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_more_metric_objects_and_aliases(tf):
    """CosineSimilarity (positive, unlike the loss), CategoricalHinge, RootMeanSquaredError,
    MeanRelativeError, MeanTensor, and the kld / cosine aliases."""
    M = tf.keras.metrics
    a = np.array([[1.0, 2.0], [3.0, 1.0]], np.float32)
    b = np.array([[2.0, 1.0], [1.0, 1.0]], np.float32)
    session = tf.keras.backend.get_session()
    out = {name: session.run(getattr(M, name)(a, b)).astype(np.float64)
           for name in ("cosine", "kld", "KLD", "kl_divergence")}
    out.update({"loss_" + name: session.run(getattr(tf.keras.losses, name)(a, b))
                .astype(np.float64) for name in ("cosine", "cosine_proximity",
                                                 "kl_divergence")})
    for metric in [M.CosineSimilarity(), M.CategoricalHinge(), M.RootMeanSquaredError(),
                   M.MeanRelativeError(normalizer=[1.0, 2.0]), M.MeanTensor()]:
        if type(metric).__name__ == "MeanTensor":
            update = metric.update_state(a, sample_weight=[[1.0, 0.5], [0.0, 1.0]])
        else:
            update = metric.update_state(a, b, sample_weight=[1.0, 0.5])
        result = metric.result()
        session.run(tf.variables_initializer(metric.variables))
        session.run(update)
        out[type(metric).__name__] = {
            "result": np.asarray(session.run(result), np.float64),
            "weights": [v.name for v in metric.variables],
            "config": json.loads(json.dumps(metric.get_config(), default=str))}
    return out
