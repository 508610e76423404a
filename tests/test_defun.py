"""`function.Defun` behaviour the TF goldens (tests/golden/cases_defun.py) do not cover:
tf1compat's refusals, a body with control flow written and read back, `from_library`,
the call op's declaration (stateful bodies, `get_op_def` by the function's name)."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.framework.op_def import get_op_def, registered_op_types
from tf1compat.graphdef.graph_io import UnserializableGraphError
from tf1compat.internal import framework_function as function


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_python_gradient_reading_other_tensors_is_not_serializable():
    """A Python gradient is written as a gradient function of the call's inputs and output
    gradients (tf1compat_graphs/defun_gradients); one reading another tensor cannot be."""
    scale = tf.placeholder(tf.float32, [], name="scale")

    @function.Defun(tf.float32, python_grad_func=lambda op, dy: dy * scale,
                    func_name="Doubled")
    def doubled(x):
        return tf.identity(x)

    x = tf.constant([1.0, 2.0])
    g = tf.gradients(doubled(x), x)[0]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g, {scale: 2.0}), [2.0, 2.0])
    with pytest.raises(UnserializableGraphError, match="Doubled.*reads scale:0"):
        tf.train.export_meta_graph()


def test_python_gradient_with_a_constant_round_trips():
    """Constants the Python gradient reads are copied into its gradient function."""
    two = tf.constant(2.0, name="two")

    @function.Defun(tf.float32, tf.float32, func_name="Mixed",
                    python_grad_func=lambda op, dy: [dy * two, None])
    def mixed(x, y):
        return x + y

    x = tf.placeholder(tf.float32, [2], name="x")
    tf.identity(tf.gradients(tf.reduce_sum(mixed(x, x * 3.0), [0]), x)[0], name="g")
    meta = tf.train.export_meta_graph()
    library = meta.graph_def.library
    assert [(g.function_name, g.gradient_func) for g in library.gradient] == \
        [("Mixed", "Mixed_python_grad")]
    with tf.Graph().as_default():
        tf.train.import_meta_graph(meta)
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run("g:0", {"x:0": [1.0, 2.0]}), [2.0, 2.0])


def test_body_with_cond_round_trips():
    @function.Defun(tf.float32, func_name="Branchy")
    def branchy(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)

    x = tf.placeholder(tf.float32, [None], name="x")
    tf.identity(branchy(x), name="out")
    graph_def = tf.get_default_graph().as_graph_def()
    names = sorted(f.signature.name for f in graph_def.library.function)
    assert names == ["Branchy"]           # the cond is Switch/Merge in the body, as TF's
    ops = {n.op for n in graph_def.library.function[0].node_def}
    assert {"Switch", "Merge"} <= ops and "If" not in ops
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run("out:0", {"x:0": [1.0, 2.0]}), [2.0, 4.0])
            np.testing.assert_allclose(sess.run("out:0", {"x:0": [-1.0, -2.0]}),
                                       [1.0, 2.0])


def test_from_library_calls_the_functions():
    @function.Defun(tf.float32, tf.float32, func_name="Hypot")
    def hypot(a, b):
        return tf.sqrt(a * a + b * b)

    hypot(tf.constant(3.0), tf.constant(4.0))
    library = tf.get_default_graph().as_graph_def().library
    with tf.Graph().as_default():
        functions = function.from_library(library)
        assert [f.name for f in functions] == ["Hypot"]
        y = functions[0](tf.constant(6.0), tf.constant(8.0))
        assert y.op.type == "Hypot"
        with tf.Session() as sess:
            assert sess.run(y) == pytest.approx(10.0)


def test_call_op_declaration():
    @function.Defun(tf.float32, func_name="Noisy")
    def noisy(x):
        return x + tf.random_uniform([2], seed=1)

    @function.Defun(tf.float32, func_name="Quiet")
    def quiet(x):
        return x + 1.0

    a, b = noisy(tf.zeros([2])), quiet(tf.zeros([2]))
    assert a.op._op_def.stateful and not b.op._op_def.stateful
    assert noisy.stateful_ops == [(op.name, op.type) for op in
                                  noisy._library_function().graph.get_operations()
                                  if op.type == "RandomUniform"]
    assert get_op_def("Quiet") is b.op._op_def
    assert "Quiet" not in registered_op_types()      # no builtin op type
    assert quiet.definition.signature.name == "Quiet"
    with tf.Session() as sess:
        first, second = sess.run(a), sess.run(a)
    assert not np.array_equal(first, second)
