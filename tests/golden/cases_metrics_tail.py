"""Golden cases: tf.metrics precision/recall at k (dense and sparse labels, class_id,
weights), average precision at k, sensitivity/specificity, mean_cosine_distance,
mean_relative_error: values after updates, variable and op names, errors."""

import numpy as np

from tests.golden.harness import catch, describe


def _stream(tf, pairs, steps=2):
    """Runs every update `steps` times; returns (update results, final values)."""
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        updates = [sess.run([p[1] for p in pairs]) for _ in range(steps)]
        return updates, sess.run([p[0] for p in pairs])


def _names(tf):
    return sorted(v.op.name for v in tf.local_variables())


def case_at_k(tf):
    scores = tf.constant([[0.1, 0.5, 0.3, 0.9], [0.8, 0.1, 0.05, 0.2], [0.3, 0.3, 0.2, 0.1]])
    dense = tf.constant([[3, 1], [2, 0], [1, -1]], tf.int64)
    single = tf.constant([3, 2, 0], tf.int64)
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], tf.constant(
        [3, 2, 0, 1, 7], tf.int64), [3, 2])
    pairs = {
        "p_at_2": tf.metrics.precision_at_k(dense, scores, 2),
        "r_at_2": tf.metrics.recall_at_k(dense, scores, 2),
        "p_single": tf.metrics.precision_at_k(single, scores, 1),
        "r_class": tf.metrics.recall_at_k(sparse, scores, 3, class_id=2),
        "p_class": tf.metrics.sparse_precision_at_k(dense, scores, 2, class_id=1),
        "p_weights": tf.metrics.precision_at_k(dense, scores, 2,
                                               weights=tf.constant([1.0, 0.5, 2.0])),
        "p_top": tf.metrics.precision_at_top_k(dense, tf.constant([[3, 1], [0, 3], [0, 1]]),
                                               k=2),
        "r_top": tf.metrics.recall_at_top_k(sparse, tf.constant([[3, 1], [0, 3], [0, 1]])),
        "ap_1": tf.metrics.average_precision_at_k(dense, scores, 1),
        "ap_3": tf.metrics.average_precision_at_k(sparse, scores, 3),
        "ap_w": tf.metrics.sparse_average_precision_at_k(single, scores, 2,
                                                         weights=[0.5, 1.0, 2.0]),
    }
    keys = sorted(pairs)
    updates, values = _stream(tf, [pairs[k] for k in keys])
    return {"updates": updates, "values": dict(zip(keys, values)),
            "names": {k: [pairs[k][0].name, pairs[k][1].name] for k in keys},
            "variables": _names(tf),
            "broadcast": catch(lambda: _stream(tf, [tf.metrics.precision_at_k(
                dense, scores, 2, weights=tf.constant([[1.0], [0.5], [2.0]]))], 1)),
            "k0": catch(lambda: tf.metrics.average_precision_at_k(dense, scores, 0),
                        message=True),
            "rank": catch(lambda: tf.metrics.precision_at_top_k(
                tf.constant([[[1]]], tf.int64), tf.constant([1])), message=True)}


def case_operating_points(tf):
    rs = np.random.RandomState(5)
    labels = tf.constant(rs.randint(0, 2, size=40).astype(np.int64))
    predictions = tf.constant(rs.uniform(size=40).astype(np.float32))
    weights = tf.constant(rs.uniform(size=40).astype(np.float32))
    pairs = {
        "sens": tf.metrics.sensitivity_at_specificity(labels, predictions, 0.7),
        "sens_w": tf.metrics.sensitivity_at_specificity(labels, predictions, 0.4,
                                                        weights=weights, num_thresholds=50),
        "spec": tf.metrics.specificity_at_sensitivity(labels, predictions, 0.8),
        "spec_w": tf.metrics.specificity_at_sensitivity(labels, predictions, 0.25,
                                                        weights=weights, num_thresholds=7),
    }
    keys = sorted(pairs)
    updates, values = _stream(tf, [pairs[k] for k in keys])
    return {"updates": updates, "values": dict(zip(keys, values)),
            "names": {k: [pairs[k][0].name, pairs[k][1].name] for k in keys},
            "variables": _names(tf),
            "range": catch(lambda: tf.metrics.sensitivity_at_specificity(
                labels, predictions, 1.5), message=True),
            "range2": catch(lambda: tf.metrics.specificity_at_sensitivity(
                labels, predictions, -0.5), message=True)}


def case_error_means(tf):
    labels = tf.constant([[0.6, 0.8, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    predictions = tf.constant([[0.8, 0.6, 0.0], [0.0, 0.6, 0.8], [1.0, 0.0, 0.0]])
    pairs = {
        "cos": tf.metrics.mean_cosine_distance(labels, predictions, dim=1),
        "cos_w": tf.metrics.mean_cosine_distance(labels, predictions, dim=1,
                                                 weights=tf.constant([[1.0], [0.0], [2.0]])),
        "rel": tf.metrics.mean_relative_error(labels, predictions, labels),
        "rel_w": tf.metrics.mean_relative_error(
            tf.constant([1.0, 2.0, 3.0]), tf.constant([1.5, 2.0, 0.0]),
            tf.constant([2.0, 0.0, 3.0]), weights=[1.0, 2.0, 3.0]),
    }
    keys = sorted(pairs)
    updates, values = _stream(tf, [pairs[k] for k in keys])
    return {"updates": updates, "values": dict(zip(keys, values)),
            "names": {k: [pairs[k][0].name, pairs[k][1].name] for k in keys},
            "shapes": {k: describe(pairs[k][0]) for k in keys},
            "variables": _names(tf)}
