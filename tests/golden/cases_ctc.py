"""Golden cases: tf.nn.ctc_greedy_decoder, ctc_beam_search_decoder(_v2) (paths and
scores, pruning with small beams), collapse_repeated, ctc_unique_labels, their errors."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def _parts(decoded):
    return [[d.indices, d.values, d.dense_shape] for d in decoded]


def case_greedy(tf):
    logits = tf.constant(np.random.RandomState(3).randn(6, 3, 5).astype(np.float32))
    seq = tf.constant([6, 4, 0])
    d1, lp1 = tf.nn.ctc_greedy_decoder(logits, seq)
    d2, lp2 = tf.nn.ctc_greedy_decoder(logits, seq, merge_repeated=False, blank_index=0)
    d3, lp3 = tf.nn.ctc_greedy_decoder(tf.cast(logits, tf.float64), seq, blank_index=-2)
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, [_parts(d1), lp1, _parts(d2), lp2, _parts(d3), lp3]),
            "shapes": [describe(t) for t in _parts(d1)[0] + [lp1]],
            "too_long": catch(run(tf.nn.ctc_greedy_decoder(logits, tf.constant([7, 1, 1]))[1])),
            "batch": catch(run(tf.nn.ctc_greedy_decoder(
                logits, tf.placeholder_with_default([1, 1], [None]))[1])),
            "static_batch": catch(lambda: tf.nn.ctc_greedy_decoder(logits, [1, 1]),
                                  message=True),
            "rank": catch(lambda: tf.nn.ctc_greedy_decoder(logits[0], [1, 1]), message=True)}


@tolerance(rtol=1e-5, atol=1e-5)
def case_beam_search(tf):
    rs = np.random.RandomState(7)
    logits = tf.constant(rs.randn(6, 3, 5).astype(np.float32))
    big = tf.constant(rs.randn(30, 4, 12).astype(np.float32) * 3)
    seq = tf.constant([6, 4, 1])
    out = {}
    for key, (bw, tp, mr) in {"small": (3, 2, True), "wide": (10, 3, False),
                              "one": (1, 1, True)}.items():
        d, lp = tf.nn.ctc_beam_search_decoder(logits, seq, beam_width=bw, top_paths=tp,
                                              merge_repeated=mr)
        out[key] = [_parts(d), lp]
    for key, (bw, tp, mr) in {"prune": (5, 3, True), "narrow": (2, 2, False),
                              "deep": (40, 4, True), "full": (8, 8, False)}.items():
        d, lp = tf.nn.ctc_beam_search_decoder(big, [30, 17, 5, 1], beam_width=bw,
                                              top_paths=tp, merge_repeated=mr)
        out[key] = [_parts(d), lp]
    d, lp = tf.nn.ctc_beam_search_decoder_v2(logits, seq, beam_width=4, top_paths=2)
    out["v2"] = [_parts(d), lp]
    d64, lp64 = tf.nn.ctc_beam_search_decoder(tf.constant(rs.randn(8, 2, 3)), [8, 8],
                                              beam_width=4, top_paths=2)
    out["float64"] = [_parts(d64), lp64]
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, out),
            "shapes": [describe(t) for t in _parts(d)[1] + [lp]],
            "more_than_beam": catch(run(tf.nn.ctc_beam_search_decoder(
                logits, seq, beam_width=2, top_paths=3)[1])),
            "few_leaves": catch(run(tf.nn.ctc_beam_search_decoder(
                logits, [6, 4, 0], beam_width=3, top_paths=2)[1])),
            "beam_min": catch(lambda: tf.nn.ctc_beam_search_decoder(logits, seq,
                                                                    beam_width=0),
                              message=True)}


def case_label_helpers(tf):
    labels = [[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]]
    collapsed = tf.nn.collapse_repeated(labels, [5, 2])
    unique = tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 1, 1, 2]])
    return {"vals": _run(tf, [collapsed, unique]),
            "shapes": [describe(t) for t in list(collapsed) + list(unique)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_ctc_loss_v2(tf):
    logits = tf.constant(np.random.RandomState(0).randn(5, 2, 4).astype(np.float32))
    labels = tf.constant([[1, 2, 0], [3, 3, 0]])
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 2, 3, 3], [2, 2])
    out = {
        "dense": tf.nn.ctc_loss_v2(labels, logits, [2, 2], [5, 5]),
        "empty_label": tf.nn.ctc_loss_v2(labels, logits, [0, 2], [5, 1]),
        "impossible": tf.nn.ctc_loss_v2(labels, logits, [3, 2], [2, 5]),
        "blank2": tf.nn.ctc_loss_v2(labels, logits, [3, 2], [4, 5], blank_index=2),
        "batch_major": tf.nn.ctc_loss_v2(labels, tf.transpose(logits, [1, 0, 2]), [3, 2],
                                         [4, 5], logits_time_major=False, blank_index=-1),
        "unique": tf.nn.ctc_loss_v2(labels, logits, [2, 2], [5, 5],
                                    unique=tf.nn.ctc_unique_labels(labels)),
        "sparse": tf.nn.ctc_loss_v2(sparse, logits, None, [5, 5], blank_index=0),
    }
    weighted = tf.nn.ctc_loss_v2(labels, logits, [2, 2], [5, 4]) * [1., 2.]
    impossible = tf.nn.ctc_loss_v2(labels, logits, [3, 2], [2, 5])
    return {"vals": _run(tf, out),
            "shapes": {k: describe(v)["shape"] for k, v in sorted(out.items())},
            "grads": _run(tf, [tf.gradients(weighted, logits),
                               tf.gradients(impossible, logits)]),
            "no_blank": catch(lambda: tf.nn.ctc_loss_v2(sparse, logits, None, [5, 5]),
                              message=True)}
