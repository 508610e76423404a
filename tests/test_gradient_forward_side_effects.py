"""Side effects of the forward ops a gradient passes through.

TF runs an op of a `tf.gradients` result only where some gradient function reads its
output. WGAN_GP (hwalsuklee/tensorflow-generative-model-collections) takes
`tf.gradients(D(interpolates), interpolates)` through a contrib batch norm whose
moving-average updates hang on an Identity's control dependencies: no gradient function
reads that Identity, so TF never runs those updates for D(interpolates). tf1compat's
SymbolicGradient differentiates its computed ys; the plan computes the forward ops no
gradient function reads for autograd only, without their control dependencies
(autodiff/grad_reads.py, runtime/plan.py `value_only`). Oracle (TF 2.21, compat.v1): the
counter below stays 0.0. More cases: tests/golden/cases_gradient_forward_effects.py.

Still different: a stateful op whose output the forward consumes but no gradient function
reads (an assign_add feeding an Add, a py_func whose overridden gradient reads only its
inputs) runs here, since autograd needs a value for it; TF does not run it.
"""

import pytest

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


@pytest.mark.xfail(strict=True, reason="a stateful op feeding the forward runs for autograd "
                   "where no TF gradient function reads it")
def test_assign_add_on_a_side_input_not_read_does_not_run():
    # Oracle (TF 2.21): gradient [5, 7], v stays [0, 0] (Add's gradient reads no input).
    with tf.Graph().as_default():
        x = tf.Variable([1., 2.])
        v = tf.Variable([0., 0.])
        w = tf.Variable([5., 7.])
        y = tf.reduce_sum(x * w + tf.assign_add(v, [1., 1.]))
        g = tf.gradients(y, x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(g).tolist() == [5.0, 7.0]
            assert sess.run(v).tolist() == [0.0, 0.0]


@pytest.mark.xfail(strict=True, reason="a py_func whose gradient reads only its inputs is "
                   "still called for autograd")
def test_py_func_whose_gradient_reads_no_output_is_not_called():
    # Oracle (TF 2.21): gradient [6, 24], the function is not called.
    calls = []

    def double(a):
        calls.append(1)
        return a * 2.

    with tf.Graph().as_default() as graph:
        @tf.RegisterGradient("SideEffectsTimesTwo")
        def _grad(op, grad):
            return grad * 2.

        x = tf.Variable([1., 2.])
        with graph.gradient_override_map({"PyFunc": "SideEffectsTimesTwo"}):
            p = tf.py_func(double, [x * 3.], tf.float32)
        p.set_shape([2])
        g = tf.gradients(tf.reduce_sum(p * tf.constant([1., 4.])), x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(g).tolist() == [6.0, 24.0]
            assert calls == []
