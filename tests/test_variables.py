"""Unit tests for variables: what golden tests cannot express (storage ownership, the
interpreter, properties of the orthogonal convolution initializers, local execution of
distributed device strings, creator scopes, the internal-module stand-ins)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime.interpreter import Interpreter


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_load_copies_the_fed_array():
    v = tf.Variable(np.zeros(3, np.float32), name="v")
    arr = np.array([1.0, 2.0, 3.0], np.float32)
    with tf.Session() as sess:
        v.load(arr, sess)
        arr[:] = 99.0   # the store must own its copy
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])


def test_assign_from_constant_keeps_constant_intact():
    v = tf.Variable([0.0, 0.0], name="v")
    c = tf.constant([1.0, 2.0])
    assign = tf.assign(v, c)
    add = tf.assign_add(v, [1.0, 1.0])
    with tf.Session() as sess:
        for _ in range(2):
            sess.run(assign)
            sess.run(add)
            np.testing.assert_array_equal(sess.run(v), [2.0, 3.0])
        np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])


def test_fetched_value_does_not_alias_the_store():
    v = tf.Variable([1.0, 2.0], name="v")
    r = v.read_value()
    with tf.Session() as sess:
        sess.run(v.initializer)
        first = sess.run(r)
        first[:] = -1.0
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])


def test_assign_to_another_variable_copies():
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([0.0, 0.0], name="b")
    copy = tf.assign(b, a)
    bump = tf.assign_add(a, [10.0, 10.0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(copy)
        sess.run(bump)
        np.testing.assert_array_equal(sess.run(b), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(a), [11.0, 12.0])


def test_interpreter_matches_generated_code():
    v = tf.get_variable("v", initializer=[1.0, 2.0])
    w = tf.get_variable("w", initializer=[[3.0], [4.0]])
    step = tf.assign_add(v, [1.0, 1.0])
    with tf.control_dependencies([step]):
        out = tf.matmul(tf.expand_dims(v.read_value(), 0), w)
    for interpreted in (False, True):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if interpreted:
                plan = sess._plan_for([out], [])
                value = Interpreter(plan).run([], sess._runtime.state)[0]
                value = value.cpu().numpy()
            else:
                value = sess.run(out)
            np.testing.assert_allclose(value, [[2.0 * 3.0 + 3.0 * 4.0]])


def test_session_close_drops_values():
    v = tf.Variable(1.0, name="v")
    sess = tf.Session()
    sess.run(v.initializer)
    state = sess._runtime.state
    assert "v" in state
    sess.close()
    assert "v" not in state


def test_variables_ignore_control_dependencies():
    c = tf.constant(1.0)
    with tf.control_dependencies([c]):
        v = tf.Variable(2.0, name="v")
        g = tf.get_variable("g", [1])
        x = v + 1.0
    assert v.initializer.control_inputs == []
    assert v.op.control_inputs == []
    assert g.initializer.control_inputs == []
    # Ops built in the block still get the dependency (here through the add's constant).
    assert [op.name for op in x.op.inputs[1].op.control_inputs] == ["Const"]


def test_variable_creator_scope():
    seen = []

    def creator(next_creator, **kwargs):
        seen.append(kwargs["name"])
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    with tf.variable_creator_scope(creator):
        v = tf.Variable(1.0, name="made")
        w = tf.get_variable("got", [2])
    u = tf.Variable(1.0, name="outside")
    assert seen == ["made", "got"]
    assert not v.trainable and not w.trainable and u.trainable
    assert isinstance(v, tf.Variable)


def test_resource_variables_are_variables():
    r = tf.get_variable("r", [2], use_resource=True)
    assert isinstance(r, tf.Variable)
    a = r.assign([1.0, 2.0])
    b = a.assign_add([1.0, 1.0])   # chained on the unread variable: runs after `a`
    with tf.Session() as sess:
        sess.run(r.initializer)
        np.testing.assert_array_equal(sess.run(b), [2.0, 3.0])
        np.testing.assert_array_equal(sess.run(r), [2.0, 3.0])
    with pytest.raises(RuntimeError):
        r += 1.0


def test_replica_device_setter_graph_runs_locally():
    cluster = {"ps": ["ps0:2222", "ps1:2222"], "worker": ["w0:2222"]}
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        v = tf.get_variable("v", initializer=[1.0, 2.0])
        w = tf.Variable(3.0, name="w")
        y = v * w
    assert v.device == "/job:ps/task:0" and w.device == "/job:ps/task:1"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(y), [3.0, 6.0])


def test_convolution_orthogonal_initializers_are_orthogonal():
    from tf1compat.internal import init_ops
    k1 = init_ops.ConvolutionOrthogonal1D(dtype=tf.float64)([3, 4, 6])
    k2 = init_ops.ConvolutionOrthogonal2D(gain=2.0, dtype=tf.float64)([3, 3, 4, 6])
    k3 = init_ops.ConvolutionOrthogonal3D(dtype=tf.float64)([2, 2, 2, 3, 3])
    delta = init_ops.ConvolutionDeltaOrthogonal(dtype=tf.float64)([3, 3, 4, 5])
    with tf.Session() as sess:
        v1, v2, v3, vd = sess.run([k1, k2, k3, delta])
    assert v1.shape == (3, 4, 6) and v2.shape == (3, 3, 4, 6) and v3.shape == (2, 2, 2, 3, 3)
    # An orthogonal convolution: sum over kernel positions of K K^T is gain^2 * I.
    np.testing.assert_allclose(np.einsum("kio,kjo->ij", v1, v1), np.eye(4), atol=1e-8)
    np.testing.assert_allclose(np.einsum("abio,abjo->ij", v2, v2), 4.0 * np.eye(4), atol=1e-8)
    np.testing.assert_allclose(np.einsum("abcio,abcjo->ij", v3, v3), np.eye(3), atol=1e-8)
    center = vd[1, 1]
    np.testing.assert_allclose(center @ center.T, np.eye(4), atol=1e-8)
    vd[1, 1] = 0.0
    assert not vd.any()


def test_contrib_initializers():
    from tf1compat.variables.init_ops import contrib_variance_scaling_initializer, \
        xavier_initializer
    he = contrib_variance_scaling_initializer()([300, 200])
    xavier = xavier_initializer()([300, 200])
    xavier_normal = xavier_initializer(uniform=False)([300, 200])
    with tf.Session() as sess:
        vhe, vx, vxn = sess.run([he, xavier, xavier_normal])
    # FAN_IN, factor 2, truncated normal of stddev sqrt(1.3 * 2 / 300) (before truncation).
    assert abs(np.abs(vhe).max() - 2 * np.sqrt(2.6 / 300)) < 0.01
    limit = np.sqrt(3.0 / 250.0)
    assert vx.min() >= -limit and vx.max() <= limit and vx.max() > 0.95 * limit
    assert np.abs(vxn).max() <= 2 * np.sqrt(1.3 / 250.0) * (1 + 1e-6)
    with pytest.raises(TypeError):
        contrib_variance_scaling_initializer(mode="fan_in")


def test_internal_module_stand_ins():
    from tf1compat.internal import init_ops, variable_scope
    assert variable_scope.get_variable is tf.get_variable
    assert variable_scope.VariableV1 is tf.Variable
    assert init_ops.glorot_uniform_initializer is tf.glorot_uniform_initializer
    assert init_ops._compute_fans([3, 3, 4, 8]) == (36, 72)


def test_contrib_framework_variable_getters():
    from tf1compat.variables import collections as c
    with tf.variable_scope("a"):
        w = tf.get_variable("weights", [1])
        tf.get_variable("bias", [1])
    with tf.variable_scope("b"):
        w2 = tf.get_variable("weights", [1])
    assert c.get_variables_by_name("weights") == [w, w2]
    assert c.get_variables_by_suffix("bias")[0].name == "a/bias:0"
    assert c.get_variables("a") == tf.global_variables("a")
    assert c.get_unique_variable("b/weights") is w2
    with pytest.raises(ValueError):
        c.get_unique_variable("zzz")


def test_uninitialized_fetch_message():
    v = tf.Variable(1.0, name="needs_init")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="Attempting to use uninitialized value needs_init"):
            sess.run(v)
        with pytest.raises(tf.errors.FailedPreconditionError) as info:
            sess.run(v * 2.0)
        from tf1compat.runtime import session as session_module
        if not session_module._USE_INTERPRETER:   # the interpreter does not map ops
            assert info.value.op is not None and info.value.op.name == "needs_init/read"


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_assign_stores_on_the_variable_device():
    with tf.device("/cpu:0"):
        v = tf.Variable([1.0, 2.0], name="v")
    with tf.device("/gpu:0"):
        x = tf.constant([3.0, 4.0])
        assign = tf.assign(v, x)
    assert assign.device == v.device   # colocated with the ref input, as TF
    with tf.Session() as sess:
        sess.run(assign)
        assert sess._runtime.state["v"].device.type == "cpu"
        np.testing.assert_array_equal(sess.run(v), [3.0, 4.0])
