"""Side effects of the forward ops a gradient passes through.

TF runs an op of a `tf.gradients` result only where some gradient function reads its
output. WGAN_GP (hwalsuklee/tensorflow-generative-model-collections) takes
`tf.gradients(D(interpolates), interpolates)` through a contrib batch norm whose
moving-average updates hang on an Identity's control dependencies: no gradient function
reads that Identity, so TF never runs those updates for D(interpolates). tf1compat's
SymbolicGradient differentiates its computed ys; the plan computes the forward ops no
gradient function reads for autograd only, without their control dependencies
(autodiff/grad_reads.py, runtime/plan.py `value_only`), and stateful ones among them
without their effects. Oracle (TF 2.21, compat.v1): the counter below stays 0.0. More
cases: tests/golden/cases_gradient_forward_effects.py.
"""

import tf1compat as tf
from tests.golden.cases_thirdparty_realcode_k import counted_identity_graph


def test_gradient_not_reading_a_forward_value_skips_its_control_deps():
    with tf.Graph().as_default():
        x, counter, _, y = counted_identity_graph(tf)
        g = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(g).tolist() == [[3.0, -3.0]]
            assert sess.run(counter) == 0.0
            sess.run(y)
            assert sess.run(counter) == 1.0


def test_plan_of_gradient_leaves_out_the_unread_hook():
    """The pruned plan of the gradient has no AssignAdd; fetching the value adds it."""
    from tf1compat.runtime.plan import PlanBuilder
    with tf.Graph().as_default():
        x, counter, _, y = counted_identity_graph(tf)
        g = tf.gradients(y, x)[0]
        types = [op.type for op in PlanBuilder(None).prune([g], {})]
        assert "AssignAdd" not in types and "Identity" in types
        assert "AssignAdd" in [op.type for op in PlanBuilder(None).prune([g, y], {})]
