"""TF-written graphs with gradients of gradients through tf.while_loop (and a tf.cond in
its body): `tf.gradients(tf.gradients(loss, x), x)`, `tf.hessians` and a gradient penalty
trained from the file, in make_graph_fixtures.py's format.

TF 1.x's dataflow control flow cannot build them: its gradient of a loop's Exit raises
"TypeError: Second-order gradient for while loops not supported." (TF 1.15 and 2.21,
control_flow_grad.py). TF builds them with its control flow v2 (functional While/If, the
first gradient a While over the body's gradient function with TensorList accumulators,
the second a While over that one's), so the fixtures are written that way; each case
also records the TypeError TF 1.x's form gives (`v1_error` in case.json).

Run with the TensorFlow venv (never in CI):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/make_graph_fixtures_second_order.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_graph_fixtures import ROOT, Recorder, main, tf  # noqa: E402

sys.path.insert(0, ROOT)
from tests.graph_second_order_cases import (XS, build_gradient_penalty,  # noqa: E402
                                            build_second_order)


def _v1_error(build) -> str:
    """What TF 1.x's own control flow gives for the same graph."""
    try:
        with tf.Graph().as_default():
            build(tf)
    except TypeError as e:
        return f"TypeError: {e}"
    return "built"


def case_loop_second_order_gradients(rec: Recorder) -> None:
    """d/dx of tf.gradients(loss, x) and tf.hessians(loss, x) of a loop with a cond in
    its body, wrt a fed x, and wrt a variable the body captures."""
    rec.spec["v1_error"] = _v1_error(build_second_order)
    tf.enable_control_flow_v2()
    try:
        build_second_order(tf)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for xv in XS:
                rec.run(sess, ["loss:0", "g:0", "gg:0", "hessian:0", "g_w:0"], {"x:0": xv})
            rec.save_meta(sess, saver)
    finally:
        tf.disable_control_flow_v2()


def case_loop_gradient_penalty_training(rec: Recorder) -> None:
    """A gradient penalty through a loop (loss + sum(dloss/dx ** 2)) trained with
    GradientDescent: the train op from the file differentiates the first gradient; then
    TF's minimize of the imported penalty (a gradient of the file's first gradient)."""
    rec.spec["v1_error"] = _v1_error(build_gradient_penalty)
    tf.enable_control_flow_v2()
    try:
        build_gradient_penalty(tf)
        graph = tf.get_default_graph()
        tf.add_to_collection("train_op", graph.get_operation_by_name("train"))
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            rec.save_meta(sess, saver)
            feed = {"x:0": XS[0]}
            rec.run(sess, ["total:0"], feed)
            rec.run(sess, [], feed, targets=["train"])
            rec.run(sess, [], feed, targets=["train"])
            rec.run(sess, ["w:0", "total:0"], feed)
        rec.minimize("total:0", {"x:0": XS[1]}, ["w:0"])
    finally:
        tf.disable_control_flow_v2()


CASES = [case_loop_second_order_gradients, case_loop_gradient_penalty_training]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], CASES))
