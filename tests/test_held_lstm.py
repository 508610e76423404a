"""LSTM weights held in torch's layout across training runs (runtime/held_plans.py,
runtime/physical_store.py): every value the user can see is bit-identical to runs with
the rewrite off (TF1COMPAT_LSTM_PHYSICAL=0), which re-lay TF's weights every run."""

import os
import threading

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.runtime.physical_store import HeldStore

B, T, D, U = 4, 5, 3, 6
LSTM = "rnn/basic_lstm_cell/kernel"


def _feed(seed):
    return np.random.RandomState(seed).randn(B, T, D).astype(np.float32)


def _build(optimizer, multi=False, dtype=tf.float32):
    tf.set_random_seed(7)
    x = tf.placeholder(dtype, [B, T, D])
    rnn = tf.nn.rnn_cell
    cell = rnn.MultiRNNCell([rnn.BasicLSTMCell(U), rnn.LSTMCell(4, forget_bias=0.5)]) \
        if multi else rnn.BasicLSTMCell(U)
    # The multi-layer case also runs the packed kernel (rows of different lengths).
    lengths = tf.constant([T, 2, T - 1, 1]) if multi else None
    out, _ = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=dtype)
    loss = tf.reduce_mean(tf.square(tf.layers.dense(out[:, -1], 1) - 1.0))
    train = optimizer().minimize(loss)
    return x, loss, train


def _session_values(sess):
    return {v.op.name: sess.run(v) for v in tf.global_variables()}


def _scenario(monkeypatch, tmp_path, on, optimizer, multi=False, between=None, steps=3,
              dtype=tf.float32):
    """Trains `steps` steps (calling `between(sess, i)` after each), then fetches every
    variable, the gradients of the loss, saves and restores: all the values seen."""
    monkeypatch.setenv("TF1COMPAT_LSTM_PHYSICAL", "1" if on else "0")
    seen = []
    with tf.Graph().as_default():
        x, loss, train = _build(optimizer, multi, dtype)
        kernels = [v for v in tf.trainable_variables() if "cell" in v.op.name]
        grads = tf.gradients(loss, kernels)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            held = []
            for i in range(steps):
                seen.append(sess.run([loss, train], {x: _feed(i)})[0])
                held.append(any(k.endswith("_cell/kernel")
                                for k in getattr(sess._runtime.state, "_held", {})))
                if between is not None:
                    seen.append(between(sess, i))
            held = all(held) if on else any(held)
            seen.extend(sess.run(grads, {x: _feed(9)}))
            seen.append(_session_values(sess))
            path = saver.save(sess, os.path.join(str(tmp_path), f"m{on}"))
            seen.append(sess.run(loss, {x: _feed(4)}))
            saver.restore(sess, path)
            seen.append(sess.run([loss, train], {x: _feed(5)})[0])
            seen.append(_session_values(sess))
    return seen, held


def _equal(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if isinstance(x, dict):
            assert x.keys() == y.keys()
            for k in x:
                assert np.array_equal(x[k], y[k]), k
        else:
            assert np.array_equal(x, y)


OPTIMIZERS = {
    "adam": lambda: tf.train.AdamOptimizer(0.01),
    "sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.01),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_training_save_restore_and_gradients_are_bit_identical(monkeypatch, tmp_path, name):
    off, held_off = _scenario(monkeypatch, tmp_path, False, OPTIMIZERS[name])
    on, held_on = _scenario(monkeypatch, tmp_path, True, OPTIMIZERS[name])
    assert not held_off and held_on   # held after each step when on, never when off
    _equal(on, off)


def test_multi_layer_lstm_is_bit_identical(monkeypatch, tmp_path):
    off, _ = _scenario(monkeypatch, tmp_path, False, OPTIMIZERS["adam"], multi=True)
    on, held = _scenario(monkeypatch, tmp_path, True, OPTIMIZERS["adam"], multi=True)
    assert held
    _equal(on, off)


def test_float64_lstm_is_bit_identical(monkeypatch, tmp_path):
    # torch's own CPU kernel (not oneDNN's) adds b_ih and b_hh separately: the held
    # weights must then carry forget_bias in b_ih, as the re-laid ones do.
    off, _ = _scenario(monkeypatch, tmp_path, False, OPTIMIZERS["adam"], dtype=tf.float64)
    on, held = _scenario(monkeypatch, tmp_path, True, OPTIMIZERS["adam"], dtype=tf.float64)
    assert held
    _equal(on, off)


def _assign_between(sess, i):
    kernel = next(v for v in tf.global_variables() if v.op.name == LSTM)
    if i == 1:
        sess.run(kernel.assign(kernel * 0.5))
    return sess.run(kernel)


def test_assign_and_reads_between_steps(monkeypatch, tmp_path):
    """Another plan reading and writing the kernel between training runs (the store
    gives TF's value back, then holds it again)."""
    off, _ = _scenario(monkeypatch, tmp_path, False, OPTIMIZERS["adam"], between=_assign_between)
    on, held = _scenario(monkeypatch, tmp_path, True, OPTIMIZERS["adam"], between=_assign_between)
    assert held
    _equal(on, off)


def test_store_accessors_see_tf_values(monkeypatch):
    """While held, every dict access of the store gives TF's tensor of the key."""
    monkeypatch.setenv("TF1COMPAT_LSTM_PHYSICAL", "1")
    with tf.Graph().as_default():
        x, _, train = _build(OPTIMIZERS["adam"])
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: _feed(0)})
        state = sess._runtime.state
        assert isinstance(state, HeldStore) and LSTM in state._held
        assert LSTM in state and LSTM not in dict.keys(state)
        snapshot = dict(state)                     # saver.py's `_snapshot_state`
        assert tuple(snapshot[LSTM].shape) == (D + U, 4 * U)
        assert not state._held and len(state) == len(snapshot)
        sess.run(train, {x: _feed(1)})
        assert LSTM in state._held
        assert tuple(state.get(LSTM).shape) == (D + U, 4 * U)
        sess.run(train, {x: _feed(2)})
        state[LSTM] = state[LSTM] * 0          # a direct write replaces the held value
        assert LSTM not in state._held
        assert not np.any(sess.run(LSTM + ":0"))


def test_concurrent_reader_of_the_kernel(monkeypatch):
    """A second thread fetching the kernel while the first trains: every step's update
    still applies (align under the locks); the results are finite and the kernel
    fetched last equals the store's."""
    monkeypatch.setenv("TF1COMPAT_LSTM_PHYSICAL", "1")
    with tf.Graph().as_default():
        x, _, train = _build(OPTIMIZERS["adam"])
        kernel = next(v for v in tf.global_variables() if v.op.name == LSTM)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        errors = []

        def reader():
            try:
                for _ in range(20):
                    value = sess.run(kernel)
                    assert value.shape == (D + U, 4 * U) and np.all(np.isfinite(value))
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)
        thread = threading.Thread(target=reader)
        thread.start()
        for i in range(20):
            sess.run(train, {x: _feed(i)})
        thread.join()
        assert not errors
        assert np.all(np.isfinite(sess.run(kernel)))


def test_loop_body_when_the_fused_kernel_declines(monkeypatch, tmp_path):
    """Where the fused kernel declines at run time the loop body runs on TF's layout
    (`restore`): the same values as the cell loop without the rewrite."""
    from tf1compat.rnn import fused
    bind = fused.FusedRNNLoop.bind

    def declining(self, node, kctx):
        run = bind(self, node, kctx)
        if run is None:
            return None

        def never(values, captures):
            return None
        never.restore = run.restore
        return never
    monkeypatch.setattr(fused.FusedRNNLoop, "bind", declining)
    off, _ = _scenario(monkeypatch, tmp_path, False, OPTIMIZERS["adam"])
    on, _ = _scenario(monkeypatch, tmp_path, True, OPTIMIZERS["adam"])
    _equal(on, off)


@pytest.mark.parametrize("on", [False, True])
def test_uninitialized_kernel_fails_as_without_the_rewrite(monkeypatch, on):
    monkeypatch.setenv("TF1COMPAT_LSTM_PHYSICAL", "1" if on else "0")
    with tf.Graph().as_default():
        x, _, train = _build(OPTIMIZERS["adam"])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="uninitialized value rnn/basic_lstm_cell/"):
                sess.run(train, {x: _feed(0)})
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: _feed(0)})
            assert (LSTM in getattr(sess._runtime.state, "_held", {})) == on
