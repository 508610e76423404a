"""Optimizers and training ops beyond the goldens: in-place updates and copy-on-write,
checkpoint hooks, SyncReplicasOptimizer, regularizers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework.graph import apply_op
from tf1compat.contrib.layers import regularizers
from tf1compat.ops.training_ops import exclusively_owned
from tf1compat.runtime.session_state import VariableStore


def _session_with(loss_fn, opt, resource=False):
    tf.reset_default_graph()
    w = tf.get_variable("w", initializer=tf.constant(np.ones((4, 3), np.float32)),
                        use_resource=resource)
    x = tf.placeholder(tf.float32, [None, 4])
    loss = loss_fn(tf.matmul(x, w))
    train_op = opt().minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return sess, w, x, train_op


OPTIMIZERS = [lambda: tf.train.AdamOptimizer(0.1),
              lambda: tf.train.MomentumOptimizer(0.1, 0.9),
              lambda: tf.train.GradientDescentOptimizer(0.1),
              lambda: tf.train.RMSPropOptimizer(0.1, centered=True),
              lambda: tf.train.FtrlOptimizer(0.1)]


@pytest.mark.parametrize("resource", [False, True])
@pytest.mark.parametrize("make", OPTIMIZERS)
def test_updates_are_in_place(make, resource):
    sess, w, x, train_op = _session_with(lambda y: tf.reduce_sum(tf.square(y)), make,
                                         resource)
    feed = {x: np.ones((2, 4), np.float32)}
    sess.run(train_op, feed)
    store = sess._runtime.state
    pointers = {k: v.data_ptr() for k, v in store.items()}
    before = sess.run(w)
    sess.run(train_op, feed)
    assert not np.array_equal(sess.run(w), before)
    for key, ptr in pointers.items():
        if key.startswith("w"):        # the variable and its slots (beta powers: Assign)
            assert store[key].data_ptr() == ptr, key


def test_read_before_update_is_a_snapshot():
    tf.reset_default_graph()
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    r = w.read_value()
    with tf.control_dependencies([r]):
        train_op = tf.train.AdamOptimizer(0.5).minimize(tf.reduce_sum(w * w))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(w)
        seen, _ = sess.run([r, train_op])
        np.testing.assert_array_equal(seen, before)
        assert not np.array_equal(sess.run(w), before)


def test_assigned_value_fetched_elsewhere_is_not_mutated():
    # The Assign stores the slot value that the fetch also returns (no copy): the
    # update must not write into the caller's array.
    tf.reset_default_graph()
    w = tf.Variable([1.0, 2.0], name="w")
    x = tf.constant([3.0, 4.0]) * 2.0
    assign = tf.assign(w, x)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(w * w))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, _ = sess.run([x, assign.op])
        sess.run(train_op)
        np.testing.assert_array_equal(got, [6.0, 8.0])
        np.testing.assert_allclose(sess.run(w), [0.0, 0.0])


def test_exclusive_ownership_rules():
    state = VariableStore()
    state["a"] = torch.zeros(3)
    assert exclusively_owned(state, "a")
    alias = state["a"]
    assert not exclusively_owned(state, "a")
    del alias
    view = state["a"][:2]
    assert not exclusively_owned(state, "a")
    del view
    state["b"] = torch.zeros(3, 2).t()
    assert not exclusively_owned(state, "b")       # not contiguous


def test_unsupported_dtype_has_no_kernel():
    tf.reset_default_graph()
    v = tf.Variable([1, 2], name="v")
    op = apply_op("ApplyGradientDescent", [v, 1, tf.constant([1, 1])])
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel"):
            sess.run(op.outputs[0])


# -- checkpoint hooks --------------------------------------------------------------------------------

class _Restoration:
    def __init__(self):
        self.restored = []

    def restore(self, obj):
        self.restored.append(obj)


def test_checkpoint_dependencies_and_slot_variables():
    tf.reset_default_graph()
    w = tf.Variable([1.0, 2.0], name="w")
    b = tf.Variable(0.5, name="b")
    opt = tf.train.AdamOptimizer(0.1)
    early = _Restoration()
    opt._create_or_restore_slot_variable(early, "v", w)
    beta = _Restoration()
    opt._defer_restoration("beta1_power", beta)
    opt.minimize(tf.reduce_sum(w * w) + b)
    assert [n for n, _ in opt._checkpoint_dependencies] == ["beta1_power", "beta2_power"]
    assert opt._lookup_dependency("beta2_power").name == "beta2_power:0"
    slots = opt._slot_variables_for_checkpoint()
    assert [(v.name, n, s.name) for v, n, s in slots] == [
        ("w:0", "m", "w/Adam:0"), ("b:0", "m", "b/Adam:0"),
        ("w:0", "v", "w/Adam_1:0"), ("b:0", "v", "b/Adam_1:0")]
    assert [s.name for s in early.restored] == ["w/Adam_1:0"]
    assert [s.name for s in beta.restored] == ["beta1_power:0"]
    late = _Restoration()
    opt._create_or_restore_slot_variable(late, "m", b)
    assert [s.name for s in late.restored] == ["b/Adam:0"]
    with tf.Graph().as_default():
        assert opt._checkpoint_dependencies == []
        assert opt._slot_variables_for_checkpoint() == []


def test_optimizer_in_two_graphs():
    opt = tf.train.AdamOptimizer(0.1)
    for _ in range(2):
        with tf.Graph().as_default():
            w = tf.Variable([1.0], name="w")
            opt.minimize(tf.reduce_sum(w * w))
            assert [v.name for v in opt.variables()] == ["beta1_power:0", "beta2_power:0",
                                                         "w/Adam:0", "w/Adam_1:0"]


# -- SyncReplicasOptimizer --------------------------------------------------------------------------

def test_sync_replicas_is_a_pass_through():
    results = []
    for wrap in (False, True):
        tf.reset_default_graph()
        w = tf.Variable([1.0, -2.0], name="w")
        gs = tf.train.get_or_create_global_step()
        opt = tf.train.MomentumOptimizer(0.1, 0.9)
        if wrap:
            opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=2,
                                                 total_num_replicas=2)
        train_op = opt.minimize(tf.reduce_sum(w * w), global_step=gs)
        if wrap:
            assert opt.get_slot_names() == ["momentum"]
            assert opt.get_slot(w, "momentum").name == "w/Momentum:0"
            hook = opt.make_session_run_hook(is_chief=True)
            hook.begin()
            assert opt.get_init_tokens_op().type == "NoOp"
            with pytest.raises(ValueError, match="Global step"):
                opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train_op)
            results.append(sess.run([w, gs]))
    np.testing.assert_allclose(results[0][0], results[1][0])
    assert results[0][1] == results[1][1] == 3


def test_sync_replicas_init_ops_as_tfs_mnist_replica_script():
    # TF 2.21 (tf.compat.v1): names, types and the token-count check recorded.
    tf.reset_default_graph()
    w = tf.Variable([1.0, -2.0], name="w")
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         replicas_to_aggregate=3, total_num_replicas=2)
    with pytest.raises(ValueError, match="after apply_gradients"):
        opt.get_init_tokens_op()
    train_op = opt.minimize(tf.reduce_sum(w * w), global_step=gs)
    assert [v.name for v in tf.local_variables()] == ["sync_rep_local_step:0"]
    assert opt.chief_init_op.name == "sync_replicas/group_deps"
    assert opt.chief_init_op.type == "NoOp"
    queue_runner = opt.get_chief_queue_runner()
    assert isinstance(queue_runner, tf.train.QueueRunner) and queue_runner.name == "sync_token_q"
    with pytest.raises(ValueError, match=r"Too few tokens to finish the first step: 0 "
                                         r"\(given\) vs 1 \(needed\)"):
        opt.get_init_tokens_op(0)
    with pytest.raises(ValueError, match="Too few tokens"):
        opt.make_session_run_hook(True, num_tokens=0).begin()
    sync_init_op = opt.get_init_tokens_op()
    # TF 1.15's mnist_replica.py, chief side, through a Supervisor.
    sv = tf.train.Supervisor(is_chief=True, logdir=None, init_op=tf.global_variables_initializer(),
                             local_init_op=opt.chief_init_op,
                             ready_for_local_init_op=opt.ready_for_local_init_op,
                             recovery_wait_secs=1, global_step=gs)
    sess = sv.prepare_or_wait_for_session("")
    sess.run(sync_init_op)
    assert sv.start_queue_runners(sess, [queue_runner]) == []
    for _ in range(2):
        sess.run(train_op)
    np.testing.assert_allclose(sess.run(w), [1.0 * 0.8 ** 2, -2.0 * 0.8 ** 2], rtol=1e-6)
    assert sess.run(opt._local_step) == 0
    sess.run(opt.local_step_init_op)
    assert sess.run(opt._local_step) == 2
    sv.stop()


@pytest.mark.parametrize("is_chief", [True, False])
def test_sync_replicas_hook_in_a_monitored_session(is_chief):
    tf.reset_default_graph()
    w = tf.Variable([1.0, -2.0], name="w")
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), 2)
    train_op = opt.minimize(tf.reduce_sum(w * w), global_step=gs)
    hooks = [opt.make_session_run_hook(is_chief), tf.train.StopAtStepHook(last_step=4)]
    local_steps = []
    with tf.train.MonitoredTrainingSession(hooks=hooks) as mon:
        while not mon.should_stop():
            local_steps.append(mon.run([train_op, opt._local_step])[1])
    assert local_steps == [0] * 4     # set from the global step once, at the start
    with pytest.raises(ValueError, match="apply_gradient should be called before"):
        tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                       2).make_session_run_hook(True).begin()


# -- regularizers -------------------------------------------------------------------------------------

def test_regularizers_values_and_names():
    tf.reset_default_graph()
    w = tf.constant([[1.0, -2.0], [0.5, 3.0]])
    l1 = regularizers.l1_regularizer(0.1)(w)
    l2 = regularizers.l2_regularizer(0.2)(w)
    both = regularizers.l1_l2_regularizer(0.1, 0.2)(w)
    scoped = regularizers.l2_regularizer(0.5, scope="decay")(w)
    assert [l1.op.name, l2.op.name, both.op.name, scoped.op.name] == [
        "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "decay"]
    assert (l1.op.type, l2.op.type, both.op.type) == ("Mul", "Mul", "AddN")
    values = np.array([[1.0, -2.0], [0.5, 3.0]])
    with tf.Session() as sess:
        got = sess.run([l1, l2, both, scoped])
    np.testing.assert_allclose(got, [0.1 * np.abs(values).sum(),
                                     0.2 * (values ** 2).sum() / 2,
                                     0.1 * np.abs(values).sum() + 0.2 * (values ** 2).sum() / 2,
                                     0.5 * (values ** 2).sum() / 2], rtol=1e-6)


def test_regularizer_scales():
    assert regularizers.l1_regularizer(0.0)(tf.constant(1.0)) is None
    with pytest.raises(ValueError, match="scale cannot be an integer"):
        regularizers.l2_regularizer(1)
    with pytest.raises(ValueError, match="less than 0"):
        regularizers.l1_regularizer(-0.5)
    with pytest.raises(ValueError, match="scale_l1 cannot be an integer"):
        regularizers.l1_l2_regularizer(1, 0.5)
    assert regularizers.sum_regularizer([None]) is None
    tf.reset_default_graph()
    only_l2 = regularizers.l1_l2_regularizer(0.0, 0.5)(tf.constant([2.0]))
    assert only_l2.op.name == "l1_l2_regularizer"
    with tf.Session() as sess:
        assert sess.run(only_l2) == pytest.approx(1.0)


def test_apply_regularization_and_variable_regularizer():
    tf.reset_default_graph()
    a = tf.get_variable("a", initializer=tf.constant([1.0, -1.0]),
                        regularizer=regularizers.l2_regularizer(0.5))
    b = tf.Variable([2.0], name="b")
    tf.add_to_collection(tf.GraphKeys.WEIGHTS, a)
    tf.add_to_collection(tf.GraphKeys.WEIGHTS, b)
    penalty = regularizers.apply_regularization(regularizers.l1_regularizer(0.1))
    assert penalty.op.name == "get_regularization_penalty"
    assert len(tf.losses.get_regularization_losses()) == 2
    total = tf.losses.get_regularization_loss()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(penalty) == pytest.approx(0.1 * 4.0)
        assert sess.run(total) == pytest.approx(0.5 + 0.4)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No weights to regularize"):
            regularizers.apply_regularization(regularizers.l1_regularizer(0.1))
        with pytest.raises(ValueError, match="scalar"):
            regularizers.apply_regularization(lambda w: w * 2.0, [tf.constant([1.0, 2.0])])


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_training_on_cuda_matches_cpu():
    values = []
    for device in ("/cpu:0", "/gpu:0"):
        tf.reset_default_graph()
        with tf.device(device):
            w = tf.get_variable("w", initializer=tf.constant(np.ones((4, 3), np.float32)))
            loss = tf.reduce_sum(tf.square(tf.matmul(tf.ones([2, 4]), w) - 1.0))
            train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(5):
                sess.run(train_op)
            assert sess._runtime.state["w"].device.type == ("cpu" if "cpu" in device
                                                            else "cuda")
            values.append(sess.run(w))
    np.testing.assert_allclose(values[0], values[1], rtol=1e-5)


# -- the softmax cross-entropy gradient TF computes ------------------------------------------

def test_xent_gradient_is_the_ops_backprop():
    tf.reset_default_graph()
    values = np.array([[2.0, -1.0, 0.5, 3.0], [0.1, 0.2, 0.3, 0.4]], np.float32)
    logits = tf.placeholder(tf.float32, [2, 4], name="logits")
    labels = tf.stop_gradient(tf.nn.softmax(logits))
    loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels,
                                                                    logits=logits))
    g, = tf.gradients(loss, [logits])
    onehot = tf.constant([[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    loss2 = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits_v2(labels=onehot,
                                                                     logits=logits))
    g2, = tf.gradients(loss2, [logits])
    h, = tf.hessians(loss2, [logits])
    with tf.Session() as sess:
        zero, grad, hess = sess.run([g, g2, h], {logits: values})
    x = values
    assert not zero.any()                # softmax - labels is exactly zero, as in TF
    p = np.exp(x - x.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(grad, p - [[0, 0, 1, 0], [1, 0, 0, 0]], rtol=1e-6, atol=1e-7)
    for row in range(2):
        block = hess[row, :, row, :]
        np.testing.assert_allclose(block, np.diag(p[row]) - np.outer(p[row], p[row]),
                                   rtol=1e-5, atol=1e-6)
