"""Golden cases: `tf.contrib.crf`. TF 2.x has no contrib: the oracle is TF 1.15's crf.py
run under TF 2.21's tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`):
log-likelihoods, partition functions, decoding (in graph and numpy), gradients, the
`transitions` variable, the length-1 shortcut and sequences of length 0."""

import numpy as np


def _crf(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.crf
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.crf.python.ops", ["crf"])


def _inputs(max_len, batch=3, tags=4, seed=0):
    rng = np.random.RandomState(seed)
    scores = rng.randn(batch, max_len, tags).astype(np.float32)
    tag_ids = rng.randint(0, tags, (batch, max_len)).astype(np.int32)
    transitions = rng.randn(tags, tags).astype(np.float32)
    return scores, tag_ids, transitions


def case_crf_log_likelihood_and_gradients(tf):
    crf = _crf(tf)
    scores, tag_ids, _ = _inputs(5)
    with tf.Graph().as_default():
        x = tf.constant(scores)
        with tf.variable_scope("crf_layer"):
            ll, transitions = crf.crf_log_likelihood(
                x, tf.constant(tag_ids), tf.constant([5, 3, 0]),
                transition_params=None)
        loss = tf.reduce_mean(-ll)
        grads = tf.gradients(loss, [x, transitions])
        with tf.Session() as sess:
            sess.run(tf.assign(transitions, _inputs(5)[2]))
            values = sess.run([ll, loss] + grads)
        return {"name": transitions.name, "shape": transitions.shape.as_list(),
                "ll": values[0], "loss": values[1], "d_inputs": values[2],
                "d_transitions": values[3]}


def case_crf_scores_and_norms(tf):
    crf = _crf(tf)
    scores, tag_ids, trans = _inputs(6, seed=1)
    lens = np.array([6, 1, 4], np.int32)
    bitmap = np.random.RandomState(2).rand(3, 6, 4) > 0.4
    bitmap[:, :, 0] = True
    with tf.Graph().as_default():
        x, t, tr, ln = (tf.constant(scores), tf.constant(tag_ids.astype(np.int64)),
                        tf.constant(trans), tf.constant(lens.astype(np.int64)))
        ops = {"sequence_score": crf.crf_sequence_score(x, t, ln, tr),
               "log_norm": crf.crf_log_norm(x, ln, tr),
               "unary": crf.crf_unary_score(t, ln, x),
               "binary": crf.crf_binary_score(t, ln, tr),
               "multitag": crf.crf_multitag_sequence_score(x, tf.constant(bitmap), ln, tr)}
        with tf.Session() as sess:
            return sess.run(ops)


def case_crf_decode(tf):
    crf = _crf(tf)
    scores, _, trans = _inputs(7, batch=4, seed=3)
    lens = np.array([7, 5, 1, 0], np.int32)
    with tf.Graph().as_default():
        tags, best = crf.crf_decode(tf.constant(scores), tf.constant(trans),
                                    tf.constant(lens))
        with tf.Session() as sess:
            got = sess.run([tags, best])
    numpy = [crf.viterbi_decode(scores[i, :lens[i]], trans) for i in range(2)]
    return {"tags": got[0], "best": got[1], "tags_dtype": str(got[0].dtype),
            "numpy": [[[int(v) for v in seq], float(score)] for seq, score in numpy]}


def case_crf_length_one_and_unknown_length(tf):
    crf = _crf(tf)
    scores, tag_ids, trans = _inputs(1, seed=4)
    out = {}
    with tf.Graph().as_default():
        x = tf.constant(scores)
        ll, _ = crf.crf_log_likelihood(x, tf.constant(tag_ids), tf.constant([1, 0, 1]),
                                       tf.constant(trans))
        tags, best = crf.crf_decode(x, tf.constant(trans), tf.constant([1, 0, 1]))
        with tf.Session() as sess:
            out["static_one"] = sess.run([ll, tags, best])
    scores3, tag_ids3, trans3 = _inputs(3, seed=5)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None, 4])
        t = tf.placeholder(tf.int32, [None, None])
        ll, _ = crf.crf_log_likelihood(x, t, tf.constant([3, 2, 1]), tf.constant(trans3))
        tags, best = crf.crf_decode(x, tf.constant(trans3), tf.constant([3, 2, 1]))
        with tf.Session() as sess:
            out["dynamic"] = sess.run([ll, tags, best], {x: scores3, t: tag_ids3})
            out["dynamic_one"] = sess.run([ll, tags, best],
                                          {x: scores3[:, :1], t: tag_ids3[:, :1]})
    return out
