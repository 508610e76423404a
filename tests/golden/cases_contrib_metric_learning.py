"""Golden cases: `tf.contrib.losses.metric_learning`. TF 2.x has no contrib: the oracle is
TF 1.15's metric_loss_ops.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`): the contrastive, triplet semi-hard, lifted
structured and N-pairs (single- and multi-label) losses, their gradients with respect to
the embeddings, op names, and cluster_loss's absence (it needs scikit-learn)."""

import numpy as np

from tests.golden.harness import catch, tolerance


def _ml(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.losses.metric_learning
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.losses.python.metric_learning",
                                        ["metric_loss_ops"])


def _embeddings(n, dim, seed, normalize=True):
    x = np.random.RandomState(seed).randn(n, dim).astype(np.float32)
    if normalize:
        x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def _run(tf, losses, inputs):
    names = sorted(losses)
    grads = {k: tf.gradients(losses[k], inputs) for k in names}
    with tf.Session() as sess:
        values, grad_values = sess.run([{k: losses[k] for k in names},
                                        {k: [g for g in grads[k] if g is not None]
                                         for k in names}])
    return {"values": values, "grads": grad_values,
            "names": {k: losses[k].op.name for k in names},
            "dtypes": {k: losses[k].dtype.name for k in names}}


@tolerance(1e-5, 1e-6)
def case_triplet_and_lifted(tf):
    ml = _ml(tf)
    labels = tf.constant([0, 1, 0, 2, 1, 2, 0, 1])
    emb = tf.constant(_embeddings(8, 4, 1))
    losses = {"triplet": ml.triplet_semihard_loss(labels, emb),
              "triplet_margin": ml.triplet_semihard_loss(labels, emb, margin=0.3),
              "lifted": ml.lifted_struct_loss(labels, emb),
              "lifted_margin": ml.lifted_struct_loss(labels, emb, margin=0.5)}
    return _run(tf, losses, [emb])


@tolerance(1e-5, 1e-6)
def case_triplet_unnormalized_int64_labels(tf):
    ml = _ml(tf)
    labels = tf.constant(np.array([3, 3, 5, 5, 7, 3], np.int64))
    emb = tf.constant(_embeddings(6, 3, 2, normalize=False))
    losses = {"triplet": ml.triplet_semihard_loss(labels, emb, margin=2.0),
              "lifted": ml.lifted_struct_loss(labels, emb, margin=2.0)}
    return _run(tf, losses, [emb])


@tolerance(1e-5, 1e-6)
def case_contrastive(tf):
    ml = _ml(tf)
    anchor = tf.constant(_embeddings(5, 3, 3, normalize=False))
    positive = tf.constant(_embeddings(5, 3, 4, normalize=False))
    labels = tf.constant([1, 0, 1, 0, 0])
    losses = {"default": ml.contrastive_loss(labels, anchor, positive),
              "margin": ml.contrastive_loss(tf.cast(labels, tf.float32), anchor, positive,
                                            margin=3.0)}
    return _run(tf, losses, [anchor, positive])


@tolerance(1e-5, 1e-6)
def case_npairs(tf):
    ml = _ml(tf)
    anchor = tf.constant(_embeddings(6, 4, 5))
    positive = tf.constant(_embeddings(6, 4, 6))
    labels = tf.constant([0, 1, 2, 1, 3, 0])
    losses = {"default": ml.npairs_loss(labels, anchor, positive),
              "reg": ml.npairs_loss(labels, anchor, positive, reg_lambda=0.5)}
    return _run(tf, losses, [anchor, positive])


@tolerance(1e-5, 1e-6)
def case_npairs_multilabel(tf):
    ml = _ml(tf)
    anchor = tf.constant(_embeddings(3, 4, 7))
    positive = tf.constant(_embeddings(3, 4, 8))
    classes = [[0, 2], [1], [2, 3]]
    sparse = [tf.SparseTensor([[0, c] for c in cs], np.ones(len(cs), np.int64), [1, 5])
              for cs in classes]
    losses = {"multilabel": ml.npairs_loss_multilabel(sparse, anchor, positive,
                                                      reg_lambda=0.01)}
    result = _run(tf, losses, [anchor, positive])
    result["dense"] = catch(lambda: ml.npairs_loss_multilabel(
        [tf.constant([[1, 0]])], anchor, positive), message=True)
    return result


def case_cluster_loss_names(tf):
    ml = _ml(tf)
    return {"has": [hasattr(ml, name) for name in (
        "contrastive_loss", "cluster_loss", "lifted_struct_loss", "npairs_loss",
        "npairs_loss_multilabel", "triplet_semihard_loss")]}
