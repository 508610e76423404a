"""Golden cases: the side effects of forward ops when only a gradient is fetched.

TF runs a forward op of a `tf.gradients` result, with its control dependencies, only where
a gradient function reads its output (tf1compat: autodiff/grad_reads.py and the plan's
`value_only` pruning). Each case counts the runs of a hook (assign_add, py_func, tf.print
to a file) hung on the forward by `tf.control_dependencies`, fetching the gradient first
and a forward value after. Constants are made outside the control-dependency blocks: a
constant made inside one carries the control input too, and Mul's gradient reads it.
"""

import itertools
import os
import tempfile

import numpy as np


def _gradient_then_value(tf, g, y, effects):
    """The gradient `g`, `effects(sess)` after fetching it, and again after fetching `y`."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grad = sess.run(g)
        before = effects(sess)
        sess.run(y)
        return grad, before, effects(sess)


def _counted(tf, make):
    """`make(x, hook)` -> y, with `hook` an assign_add counting its runs: the gradient of y
    with respect to x and the count after it and after fetching y."""
    x = tf.Variable([1., 2.])
    counter = tf.Variable(0.)
    y = make(x, tf.assign_add(counter, 1.))
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: sess.run(counter))


def case_assign_add_hook_on_mul_not_read(tf):
    """h = x * w under the hook; d(sum(2h))/dx reads w and 2, not h: the hook does not run."""
    w = tf.constant([5., 7.])
    two = tf.constant(2.)

    def make(x, hook):
        with tf.control_dependencies([hook]):
            h = x * w
        return tf.reduce_sum(h * two)
    return _counted(tf, make)


def case_assign_add_hook_on_tanh_read(tf):
    """Tanh's gradient reads its output: the hook runs with the gradient."""
    three = tf.constant(3.)

    def make(x, hook):
        with tf.control_dependencies([hook]):
            h = tf.tanh(x * three)
        return tf.reduce_sum(h)
    return _counted(tf, make)


def case_assign_hook_on_identity_fed_to_matmul(tf):
    """An Identity under a tf.assign hook feeding MatMul's first input: the gradient with
    respect to it reads only the second input, so the assign does not run."""
    x = tf.Variable([[1., 2.]])
    v = tf.Variable(0.)
    c = tf.constant([[1.], [-1.]])
    h = x * 3.
    with tf.control_dependencies([tf.assign(v, 7.)]):
        h = tf.identity(h)
    y = tf.matmul(h, c)
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: sess.run(v))


def case_control_dependencies_chain(tf):
    """A chain of Identity and Add ops each under its own hook: none runs for the
    gradient (static shapes: Add's gradient reads no shape); all run for the value."""
    x = tf.Variable([1., 2.])
    c = tf.Variable(0.)
    three, one, k = tf.constant(3.), tf.constant(1.), tf.constant([2., 5.])
    h = x * three
    with tf.control_dependencies([tf.assign_add(c, 1.)]):
        h = tf.identity(h)
    with tf.control_dependencies([tf.assign_add(c, 10.)]):
        h = tf.identity(h)
    with tf.control_dependencies([tf.assign_add(c, 100.)]):
        h = tf.add(h, one)
    y = tf.reduce_sum(h * k)
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: sess.run(c))


def case_hook_runs_where_shape_is_dynamic(tf):
    """With an unknown static shape the default grad_ys reads y's shape, so y and the
    hook it depends on run with the gradient."""
    x = tf.placeholder(tf.float32, [None])
    c = tf.Variable(0.)
    three, two = tf.constant(3.), tf.constant(2.)
    h = x * three
    with tf.control_dependencies([tf.assign_add(c, 1.)]):
        h = tf.identity(h)
    g = tf.gradients(h * two, x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(g, {x: [1., 2.]}), sess.run(c)


def case_py_func_hook(tf):
    """A py_func hung on the forward by a control dependency is not called for the
    gradient; it is for the value."""
    calls = []

    def count(a):
        calls.append(1)
        return a

    x = tf.Variable([1., 2.])
    k = tf.constant([1., 4.])
    hook = tf.py_func(count, [tf.constant(0.)], tf.float32)
    with tf.control_dependencies([hook]):
        h = tf.identity(x * k)
    y = tf.reduce_sum(h)
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: len(calls))


_REGISTRATIONS = itertools.count()


def _py_func_times_two(tf, gradient_name, gradient):
    """y = sum(py_func(2 * (3x)) * [1, 4]), the py_func's gradient `gradient` (registered
    as `gradient_name`): its gradient with respect to x and the calls after it and after
    fetching y."""
    calls = []

    def double(a):
        calls.append(1)
        return a * 2.

    # A gradient name registers once per process, and a process may replay the case
    # twice (tests/test_goldens.py and test_goldens_checked.py under one xdist worker).
    gradient_name = f"{gradient_name}{next(_REGISTRATIONS)}"
    tf.RegisterGradient(gradient_name)(gradient)
    x = tf.Variable([1., 2.])
    k = tf.constant([1., 4.])
    with tf.get_default_graph().gradient_override_map({"PyFunc": gradient_name}):
        p = tf.py_func(double, [x * 3.], tf.float32)
    p.set_shape([2])
    y = tf.reduce_sum(p * k)
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: len(calls))


def case_py_func_gradient_reading_its_output(tf):
    """A py_func whose overridden gradient reads its output runs with the gradient."""
    return _py_func_times_two(tf, "ForwardEffectsReadsOutput",
                              lambda op, grad: grad * op.outputs[0])


def case_print_hook(tf):
    """tf.print (to a file) hung on the forward is not run for the gradient."""
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    try:
        x = tf.Variable([1., 2.])
        k = tf.constant([1., 4.])
        printed = tf.print("hook", output_stream="file://" + path)
        with tf.control_dependencies([printed]):
            h = tf.identity(x * k)
        y = tf.reduce_sum(h)

        def read(sess):
            with open(path) as f:
                return f.read()
        return _gradient_then_value(tf, tf.gradients(y, x)[0], y, read)
    finally:
        os.remove(path)


def case_gradient_and_value_fetched_together(tf):
    """Fetching the gradient with the value runs the hook once."""
    x = tf.Variable([1., 2.])
    c = tf.Variable(0.)
    k = tf.constant([2., 3.])
    with tf.control_dependencies([tf.assign_add(c, 1.)]):
        h = tf.identity(x * k)
    y = tf.reduce_sum(h)
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run([g, y]), sess.run(c)


def case_assign_add_feeding_add_not_read(tf):
    """An assign_add feeding an Add: Add's gradient reads neither input, so TF does not
    run the update for the gradient (tf1compat computes its value for autograd only)."""
    x = tf.Variable([1., 2.])
    v = tf.Variable([0., 0.])
    w = tf.constant([5., 7.])
    y = tf.reduce_sum(x * w + tf.assign_add(v, [1., 1.]))
    return _gradient_then_value(tf, tf.gradients(y, x)[0], y, lambda sess: sess.run(v))


def case_py_func_gradient_not_reading_its_output(tf):
    """A py_func whose overridden gradient reads nothing of it is not called for the
    gradient (tf1compat computes zeros for autograd in its place)."""
    return _py_func_times_two(tf, "ForwardEffectsTimesTwo", lambda op, grad: grad * 2.)


def case_random_op_feeding_add_not_read(tf):
    """A seeded random op added to the forward does not run for the gradient, so the
    first value fetched afterwards is its first sample."""
    x = tf.Variable([1., 2.])
    noise = tf.random_normal([2], seed=3)
    y = tf.reduce_sum(x * 2. + noise)
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(g), sess.run(noise)


def _stderr_text(run):
    """What `run()` writes to stderr, from Python (tf1compat) and from C++ (TF)."""
    import sys
    with tempfile.TemporaryFile("w+") as f:
        saved_fd, saved_stream = os.dup(2), sys.stderr
        sys.stderr.flush()
        os.dup2(f.fileno(), 2)
        sys.stderr = f
        try:
            run()
        finally:
            f.flush()
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
            sys.stderr = saved_stream
        f.seek(0)
        return f.read()


def case_print_op_on_the_gradient_path_prints_only_for_values(tf):
    """tf.Print on the path from x to y passes the gradient on (autograd differentiates
    its kernel); fetching the gradient prints nothing (TF's backward does not run the
    Print), fetching y prints once."""
    x = tf.Variable([1., 2.])
    h = tf.Print(x * 3., [x], "on-the-path")
    y = tf.reduce_sum(h * tf.constant([1., 4.]))
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grad = []
        printed_by_gradient = _stderr_text(lambda: grad.append(sess.run(g)))
        printed_by_value = _stderr_text(lambda: sess.run(y))
    return {"grad": grad[0], "by_gradient": printed_by_gradient.count("on-the-path"),
            "by_value": printed_by_value.count("on-the-path")}


def case_check_numerics_on_the_gradient_path(tf):
    """CheckNumerics of an Inf on the path: fetching the gradient does not run the check
    (TF's backward does not read its output); fetching the value raises."""
    x = tf.Variable([1., 0.])
    h = tf.check_numerics(tf.log(x), "checked")
    y = tf.reduce_sum(h * tf.constant([3., 1.]))
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grad = sess.run(g)
        try:
            sess.run(y)
            raised = None
        except tf.errors.InvalidArgumentError as e:
            raised = type(e).__name__
    return {"grad": grad, "value_raises": raised,
            "gradient_check": _inf_gradient_through_check(tf)}


def _inf_gradient_through_check(tf):
    """The check of the incoming gradient still runs: an Inf there raises."""
    x = tf.Variable([1., 2.])
    h = tf.check_numerics(x * 2., "checked-grad")
    g = tf.gradients(tf.reduce_sum(h * tf.constant([np.inf, 1.])), x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        try:
            sess.run(g)
        except tf.errors.InvalidArgumentError as e:
            return type(e).__name__, "detected in gradient" in e.message
    return None
