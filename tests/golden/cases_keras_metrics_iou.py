"""Golden cases: tf.keras's IoU metrics (IoU, MeanIoU, BinaryIoU, OneHotIoU,
OneHotMeanIoU) — results over two updates (the second weighted), `ignore_class`, the
confusion-matrix weight, configs, and MeanIoU as a compile metric in `fit`."""

import numpy as np

from tests.golden.cases_keras_metrics_confusion import two_updates
from tests.golden.harness import tolerance


def _data():
    rng = np.random.RandomState(0)
    labels = rng.randint(0, 3, (4, 5))
    scores = rng.rand(4, 5, 3).astype(np.float32)
    return labels, scores, rng.rand(4, 5).astype(np.float32)


def _metrics(M):
    return [("iou", M.IoU(3, [0, 2])), ("mean_iou", M.MeanIoU(3)),
            ("mean_iou_ignore", M.MeanIoU(3, ignore_class=1)),
            ("binary_iou", M.BinaryIoU(threshold=0.4)),
            ("binary_iou_one", M.BinaryIoU([1])),
            ("one_hot_iou", M.OneHotIoU(3, [1])), ("one_hot_mean_iou", M.OneHotMeanIoU(3)),
            ("sparse_pred_one_hot", M.OneHotMeanIoU(3, sparse_y_pred=True))]


def _inputs(name, labels, scores):
    if name.startswith("binary"):
        return (labels > 0).astype(np.float32), scores[..., 0]
    if name.startswith("one_hot"):
        return np.eye(3, dtype=np.float32)[labels], scores
    if name.startswith("sparse_pred"):
        return np.eye(3, dtype=np.float32)[labels], scores.argmax(-1)
    return labels, scores.argmax(-1)


@tolerance(rtol=1e-5, atol=1e-6)
def case_iou_metrics_results(tf):
    labels, scores, weights = _data()
    session = tf.keras.backend.get_session()
    out = {}
    for name, metric in _metrics(tf.keras.metrics):
        y_true, y_pred = _inputs(name, labels, scores)
        value = two_updates(tf, session, metric, y_true, y_pred, weights, 2)
        matrix = session.run(metric.variables[0])
        metric.reset_states()
        out[name] = {"result": np.asarray(value, np.float64), "matrix": matrix,
                     "after_reset": np.asarray(session.run(metric.result()), np.float64),
                     "weights": [v.name for v in metric.variables],
                     "config": sorted(metric.get_config().items())}
    return out


def case_iou_errors(tf):
    out = {}
    try:
        tf.keras.metrics.IoU(3, [0, 3])
    except ValueError as e:
        out["out_of_range"] = str(e)
    out["from_config"] = tf.keras.metrics.MeanIoU.from_config(
        tf.keras.metrics.MeanIoU(4, name="m").get_config()).get_config()
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_mean_iou_in_fit(tf):
    rng = np.random.RandomState(1)
    x = rng.rand(16, 4).astype(np.float32)
    y = rng.randint(0, 3, 16)
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        3, activation="softmax", input_shape=(4,),
        kernel_initializer=tf.keras.initializers.glorot_uniform(seed=3))])

    class ArgMaxMeanIoU(tf.keras.metrics.MeanIoU):
        def update_state(self, y_true, y_pred, sample_weight=None):
            return super().update_state(y_true, tf.argmax(y_pred, axis=-1), sample_weight)
    model.compile("sgd", "sparse_categorical_crossentropy",
                  metrics=[ArgMaxMeanIoU(3, name="miou")])
    history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False).history
    return {"history": history, "metrics_names": model.metrics_names}

