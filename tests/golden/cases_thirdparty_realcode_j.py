"""Golden cases: patterns from google-research/bert (run_classifier / run_pretraining under
TPUEstimator with use_tpu=False), restated small: the whole of BERT ran unchanged and matched
TF, so these cases pin the patterns it leans on rather than a fixed bug.
"""

import numpy as np


def _bert_like_step_graph(tf):
    """A tiny transformer-ish step: one-hot embedding lookup, layer norm from moments,
    tanh-gelu dense, masked-position gather through flat offsets, and a decoupled
    weight-decay Adam update written with tf.assign (no bias correction), clipped by
    global norm, excluding LayerNorm/bias from decay by name."""
    rng = np.random.RandomState(3)
    ids = tf.constant([[2, 5, 7, 3, 0], [2, 6, 6, 3, 1]], tf.int32)
    positions = tf.constant([[1, 2], [2, 4]], tf.int32)
    labels = tf.constant([[5, 7], [6, 1]], tf.int32)
    with tf.variable_scope("bert"):
        table = tf.get_variable("word_embeddings", initializer=rng.randn(8, 6).astype(np.float32))
        flat = tf.reshape(ids, [-1])
        emb = tf.reshape(tf.matmul(tf.one_hot(flat, depth=8), table), [2, 5, 6])
        with tf.variable_scope("LayerNorm"):
            beta = tf.get_variable("beta", [6], initializer=tf.zeros_initializer())
            gamma = tf.get_variable("gamma", [6], initializer=tf.ones_initializer())
            mean, var = tf.nn.moments(emb, [2], keep_dims=True)
            normed = tf.nn.batch_normalization(emb, mean, var, beta, gamma, 1e-12)
        hidden = tf.layers.dense(normed, 6, kernel_initializer=tf.constant_initializer(
            rng.randn(6, 6).astype(np.float32) * 0.5), name="dense")
        hidden = 0.5 * hidden * (1.0 + tf.tanh(np.sqrt(2 / np.pi) * (
            hidden + 0.044715 * tf.pow(hidden, 3))))
    offsets = tf.reshape(tf.range(0, 2, dtype=tf.int32) * 5, [-1, 1])
    picked = tf.gather(tf.reshape(hidden, [10, 6]), tf.reshape(positions + offsets, [-1]))
    logits = tf.matmul(picked, table, transpose_b=True)
    log_probs = tf.nn.log_softmax(logits, axis=-1)
    one_hot = tf.one_hot(tf.reshape(labels, [-1]), depth=8, dtype=tf.float32)
    loss = tf.reduce_mean(-tf.reduce_sum(log_probs * one_hot, axis=[-1]))
    return loss


def case_bert_adam_weight_decay_steps(tf):
    """Three hand-written AdamWeightDecay steps on the BERT-like graph: losses, the
    gradient kind of the embedding table, and the variables after training."""
    import re
    loss = _bert_like_step_graph(tf)
    tvars = tf.trainable_variables()
    grads = tf.gradients(loss, tvars)
    grads, norm = tf.clip_by_global_norm(grads, clip_norm=1.0)
    step = tf.train.get_or_create_global_step()
    lr = tf.train.polynomial_decay(tf.constant(0.1), step, 3, end_learning_rate=0.0,
                                   power=1.0, cycle=False)
    assignments = []
    for g, v in zip(grads, tvars):
        name = re.match("^(.*):\\d+$", v.name).group(1)
        m = tf.get_variable(name + "/adam_m", shape=v.shape.as_list(), dtype=tf.float32,
                            trainable=False, initializer=tf.zeros_initializer())
        s = tf.get_variable(name + "/adam_v", shape=v.shape.as_list(), dtype=tf.float32,
                            trainable=False, initializer=tf.zeros_initializer())
        next_m = 0.9 * m + 0.1 * g
        next_v = 0.999 * s + 0.001 * tf.square(g)
        update = next_m / (tf.sqrt(next_v) + 1e-6)
        if not any(re.search(p, name) for p in ["LayerNorm", "bias"]):
            update += 0.01 * v
        assignments.extend([v.assign(v - lr * update), m.assign(next_m), s.assign(next_v)])
    # The step moves only after every update read it: a plain tf.group would let the
    # increment race the learning-rate read.
    with tf.control_dependencies(assignments):
        train_op = step.assign(step + 1)
    losses, norms = [], []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            l, n, _ = sess.run([loss, norm, train_op])
            losses.append(float(l))
            norms.append(float(n))
        final = {v.op.name: sess.run(v).tolist() for v in tvars}
    return {"losses": losses, "norms": norms, "vars": final,
            "names": sorted(v.name for v in tf.global_variables())}
