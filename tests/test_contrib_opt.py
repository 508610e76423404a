"""tf.contrib.opt (no TF oracle: TF 2 has no contrib). Each optimizer runs a few steps on
dense and sparse (gathered) gradients, ref and resource variables, in float64, against a
numpy reference written from TF 1.15's update formulas; slot and variable names as TF
1.15 creates them. The ops themselves have goldens (tests/golden/cases_contrib_opt.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tf1compat as tf

opt = tf.contrib.opt

W0 = np.array([1.0, -2.0, 3.0, 0.5])
TARGET = np.array([0.5, 1.0, -1.0, 0.25])
SCALE = np.array([1.0, 2.0, 0.5, 3.0])
E0 = np.arange(8, dtype=np.float64).reshape(4, 2) / 4.0 - 0.8
IDS = [0, 2, 0]
ROWS_TARGET = np.array([[1.0, -1.0], [0.5, 0.5], [-0.5, 2.0]])
STEPS = 3


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def f32(x):
    """A hyperparameter as the optimizers see it: a float32 tensor cast to float64."""
    return float(np.float32(x))


def power32(beta, t):
    """beta_power after t steps: a float32 variable multiplied by float32 beta."""
    p = np.float32(beta)
    for _ in range(t - 1):
        p = np.float32(p * np.float32(beta))
    return float(p)


def dense_grad(w):
    return (w - TARGET) * SCALE


def sparse_grad(e):
    """The summed (deduplicated) rows of the gathered loss's gradient, and the rows."""
    rows = sorted(set(IDS))
    g = np.zeros_like(e)
    for k, i in enumerate(IDS):
        g[i] += e[i] - ROWS_TARGET[k]
    return g[rows], rows


def run_tf(make, resource, steps=STEPS, **minimize_kw):
    w = tf.get_variable("w", initializer=W0, use_resource=resource)
    e = tf.get_variable("e", initializer=E0, use_resource=resource)
    loss = (0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE) +
            0.5 * tf.reduce_sum(tf.square(tf.gather(e, IDS) - ROWS_TARGET)))
    optimizer = make()
    train = optimizer.minimize(loss, global_step=tf.train.get_or_create_global_step(),
                               **minimize_kw)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(steps):
            sess.run(train)
            out.append(sess.run([w, e]))
    return optimizer, out


def run_numpy(dense_step, sparse_step, steps=STEPS):
    """dense_step(w, g, t) and sparse_step(e, g_rows, rows, t) update in place."""
    w, e = W0.copy(), E0.copy()
    out = []
    for t in range(1, steps + 1):
        g = dense_grad(w)
        g_rows, rows = sparse_grad(e)
        dense_step(w, g, t)
        sparse_step(e, g_rows, rows, t)
        out.append([w.copy(), e.copy()])
    return out


def check(make, dense_step, sparse_step, resource):
    _, got = run_tf(make, resource)
    want = run_numpy(dense_step, sparse_step)
    for (gw, ge), (ww, we) in zip(got, want):
        np.testing.assert_allclose(gw, ww, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(ge, we, rtol=1e-10, atol=1e-12)


class Adam:
    """TF1's Adam / Nadam reference (slots kept per variable)."""

    def __init__(self, lr=0.1, b1=0.9, b2=0.999, eps=1e-8, nesterov=False, lazy=False,
                 decay=0.0):
        self.lr, self.b1, self.b2, self.eps = f32(lr), b1, b2, f32(eps)
        self.nesterov, self.lazy, self.decay = nesterov, lazy, decay
        self.m = {}
        self.v = {}

    def alpha(self, t):
        return self.lr * math.sqrt(1 - power32(self.b2, t)) / (1 - power32(self.b1, t))

    def dense(self, w, g, t):
        w -= self.decay * w
        m = self.m.setdefault("w", np.zeros_like(w))
        v = self.v.setdefault("w", np.zeros_like(w))
        b1, b2 = f32(self.b1), f32(self.b2)
        m += (g - m) * (1 - b1)
        v += (g * g - v) * (1 - b2)
        step = (m * b1 + (1 - b1) * g) if self.nesterov else m
        w -= self.alpha(t) * step / (np.sqrt(v) + self.eps)

    def sparse(self, e, g, rows, t):
        e[rows] -= self.decay * e[rows]
        m = self.m.setdefault("e", np.zeros_like(e))
        v = self.v.setdefault("e", np.zeros_like(e))
        b1, b2 = f32(self.b1), f32(self.b2)
        if self.lazy:
            m[rows] = b1 * m[rows] + (1 - b1) * g
            v[rows] = b2 * v[rows] + (1 - b2) * g * g
            e[rows] -= self.alpha(t) * m[rows] / (np.sqrt(v[rows]) + self.eps)
            return
        m *= b1
        m[rows] += (1 - b1) * g
        v *= b2
        v[rows] += (1 - b2) * g * g
        if self.nesterov:
            m_bar = (1 - b1) * g + b1 * m[rows]
            e[rows] -= self.alpha(t) * m_bar / (np.sqrt(v[rows]) + self.eps)
        else:
            e -= self.alpha(t) * m / (np.sqrt(v) + self.eps)


@pytest.mark.parametrize("resource", [False, True])
def test_adamw_against_numpy(resource):
    ref = Adam(decay=0.05)
    check(lambda: opt.AdamWOptimizer(0.05, learning_rate=0.1), ref.dense, ref.sparse,
          resource)


@pytest.mark.parametrize("resource", [False, True])
def test_extend_with_decoupled_weight_decay_adam_equals_adamw(resource):
    ref = Adam(decay=0.02)
    my_adamw = opt.extend_with_decoupled_weight_decay(tf.train.AdamOptimizer)
    check(lambda: my_adamw(weight_decay=0.02, learning_rate=0.1), ref.dense, ref.sparse,
          resource)


@pytest.mark.parametrize("resource", [False, True])
def test_lazy_adam_against_numpy(resource):
    ref = Adam(lazy=True)
    check(lambda: opt.LazyAdamOptimizer(0.1), ref.dense, ref.sparse, resource)


@pytest.mark.parametrize("resource", [False, True])
def test_nadam_against_numpy(resource):
    ref = Adam(nesterov=True)
    check(lambda: opt.NadamOptimizer(0.1), ref.dense, ref.sparse, resource)


@pytest.mark.parametrize("resource", [False, True])
def test_momentumw_against_numpy(resource):
    lr, mu, wd = f32(0.1), f32(0.9), 0.01
    acc = {}

    def step(x, g, key, rows=None):
        a = acc.setdefault(key, np.zeros_like(x))
        sel = slice(None) if rows is None else rows
        x[sel] -= wd * x[sel]
        a[sel] = a[sel] * mu + g
        x[sel] -= lr * a[sel]

    check(lambda: opt.MomentumWOptimizer(wd, lr, mu),
          lambda w, g, t: step(w, g, "w"), lambda e, g, rows, t: step(e, g, "e", rows),
          resource)


@pytest.mark.parametrize("resource", [False, True])
def test_adamax_against_numpy(resource):
    lr, b1, b2, eps = f32(0.1), f32(0.9), f32(0.999), f32(1e-8)
    slots = {}

    def step(x, g, t, key, rows=None):
        m = slots.setdefault(key + "m", np.zeros_like(x))
        v = slots.setdefault(key + "v", np.zeros_like(x))
        sel = slice(None) if rows is None else rows
        m[sel] = b1 * m[sel] + (1 - b1) * g
        v[sel] = np.maximum(b2 * v[sel], np.abs(g))
        x[sel] -= lr / (1 - power32(0.9, t)) * m[sel] / (v[sel] + eps)

    check(lambda: opt.AdaMaxOptimizer(lr), lambda w, g, t: step(w, g, t, "w"),
          lambda e, g, rows, t: step(e, g, t, "e", rows), resource)


def _sign_reference(multiplier, lr=0.1, beta=0.9, decay=lambda t: 1.0):
    lr, beta = f32(lr), f32(beta)
    slots = {}

    def step(x, g, t, key, rows=None):
        m = slots.setdefault(key, np.zeros_like(x))
        dense_g = g
        if rows is not None:
            dense_g = np.zeros_like(x)
            dense_g[rows] = g
        m[:] = m * beta + dense_g * (1 - beta)
        sel = slice(None) if rows is None else rows
        x[sel] -= lr * multiplier(decay(t) * np.sign(g) * np.sign(m[sel])) * g

    return (lambda w, g, t: step(w, g, t, "w"),
            lambda e, g, rows, t: step(e, g, t, "e", rows))


def test_add_sign_against_numpy():
    dense, sparse = _sign_reference(lambda s: f32(0.5) + s)
    check(lambda: opt.AddSignOptimizer(alpha=0.5), dense, sparse, False)


def test_power_sign_against_numpy_with_linear_decay():
    decay_steps = 4
    # apply_gradients reads global_step before this step's increment: t - 1.
    dense, sparse = _sign_reference(lambda s: np.exp(f32(math.log(2.0)) * s),
                                    decay=lambda t: f32((decay_steps - (t - 1)) / decay_steps))
    check(lambda: opt.PowerSignOptimizer(base=2.0, sign_decay_fn=opt.get_linear_decay_fn(
        decay_steps)), dense, sparse, False)


def test_sign_optimizers_resource_dense_and_sparse_error():
    w = tf.get_variable("w", initializer=W0, use_resource=True)
    dense, _ = _sign_reference(lambda s: 1.0 + s)
    loss = 0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE)
    train = opt.AddSignOptimizer().minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        got = sess.run(w)
    want = W0.copy()
    dense(want, dense_grad(want), 1)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    e = tf.get_variable("e", initializer=E0, use_resource=True)
    with pytest.raises(NotImplementedError, match="PowerSignOptimizer.*sparse"):
        opt.PowerSignOptimizer().minimize(tf.reduce_sum(tf.gather(e, IDS)))


def test_sign_decay_schedules():
    step = tf.placeholder(tf.int64, [])
    linear = opt.get_linear_decay_fn(10)(step)
    cosine = opt.get_cosine_decay_fn(10, num_periods=1.0, zero_after=0.75)(step)
    restart = opt.get_restart_decay_fn(10, num_periods=2)(step)
    with tf.Session() as sess:
        for s in (0, 3, 8, 12):
            lin, cos, res = sess.run([linear, cosine, restart], {step: s})
            c = min(s, 10)
            assert lin == pytest.approx(max(0.0, (10 - c) / 10))
            frac = 2.0 * c / 10
            assert cos == pytest.approx(0.0 if frac >= 1.5 else
                                        0.5 * (1 + math.cos(math.pi * frac)), abs=1e-6)
            assert res == pytest.approx(0.5 * (1 + math.cos(math.pi * ((2 * c) % 10) / 10)),
                                        abs=1e-6)
    with pytest.raises(ValueError, match="global_step is required"):
        opt.get_linear_decay_fn(10)(None)


def test_names_slots_and_decay_var_list():
    optimizer, _ = run_tf(lambda: opt.AdamWOptimizer(0.1), False, steps=0)
    assert [v.name for v in optimizer.variables()] == [
        "beta1_power:0", "beta2_power:0", "e/AdamW:0", "e/AdamW_1:0", "w/AdamW:0",
        "w/AdamW_1:0"]
    tf.reset_default_graph()
    optimizer, _ = run_tf(lambda: opt.AdaMaxOptimizer(), False, steps=0)
    assert [v.name for v in optimizer.variables()] == [
        "beta1_power:0", "e/AdaMax:0", "e/AdaMax_1:0", "w/AdaMax:0", "w/AdaMax_1:0"]
    assert opt.NadamOptimizer().get_name() == "Adam"
    assert opt.PowerSignOptimizer().get_name() == "PowerSignOptimizer"
    # apply_gradients' decay_var_list: only w decays, e steps as plain Momentum.
    tf.reset_default_graph()
    w = tf.get_variable("w", initializer=W0)
    e = tf.get_variable("e", initializer=E0)
    momentum_w = opt.MomentumWOptimizer(0.5, 0.0, 0.0)
    loss = tf.reduce_sum(w) + tf.reduce_sum(e)
    train = momentum_w.apply_gradients(momentum_w.compute_gradients(loss), decay_var_list=[w])
    # TF 1.15's minimize forgets its decay_var_list (it calls apply_gradients without
    # it), so every variable decays.
    train_all = momentum_w.minimize(loss, decay_var_list=[w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), W0 * 0.5)
        np.testing.assert_allclose(sess.run(e), E0)
        sess.run(train_all)
        np.testing.assert_allclose(sess.run(e), E0 * 0.5)


# -- wrappers and LARS / RegAdagrad ------------------------------------------------------------

def test_lars_against_numpy_and_skip_list():
    lr, mu, wd, eeta = 0.5, 0.9, 0.01, 0.02
    w = tf.get_variable("w", initializer=W0)
    b = tf.get_variable("bias", initializer=W0 * 2)
    loss = 0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE) + tf.reduce_sum(b * SCALE)
    train = opt.LARSOptimizer(lr, momentum=mu, weight_decay=wd, eeta=eeta,
                              skip_list=["bias"]).minimize(loss)
    want_w, want_b = W0.copy(), W0 * 2
    acc_w, acc_b = np.zeros(4), np.zeros(4)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
            g = dense_grad(want_w)
            scaled = lr * eeta * np.linalg.norm(want_w) / (np.linalg.norm(g) +
                                                           wd * np.linalg.norm(want_w))
            acc_w = acc_w * mu + g
            want_w -= scaled * acc_w
            acc_b = acc_b * mu + SCALE
            want_b -= lr * acc_b
        got_w, got_b = sess.run([w, b])
    np.testing.assert_allclose(got_w, want_w, rtol=1e-10)
    np.testing.assert_allclose(got_b, want_b, rtol=1e-10)
    with pytest.raises(ValueError, match="momentum should be positive"):
        opt.LARSOptimizer(0.1, momentum=-1.0)


@pytest.mark.parametrize("resource", [False, True])
def test_reg_adagrad_avoid_updating_slots(resource):
    w = tf.get_variable("w", initializer=W0, use_resource=resource)
    reg = opt.RegAdagradOptimizer(0.1)
    loss_update = reg.minimize(0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE))
    with reg.avoid_updating_slots():
        reg_update = reg.minimize(tf.reduce_sum(w * w))
    acc = reg.get_slot(w, "accumulator")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(reg_update)
        np.testing.assert_allclose(sess.run(acc), np.full(4, 0.1))
        np.testing.assert_allclose(sess.run(w), W0 - f32(0.1) * 2 * W0 / np.sqrt(0.1))
        before = sess.run(w)
        sess.run(loss_update)
        g = dense_grad(before)
        np.testing.assert_allclose(sess.run(acc), 0.1 + g * g)
    assert acc.op.name == "w/RegAdagrad"


def test_variable_clipping_dense_and_sparse():
    w = tf.get_variable("w", initializer=np.array([[3.0, 4.0], [0.3, 0.4]]))
    e = tf.get_variable("e", initializer=np.array([[6.0, 8.0], [1.0, 0.0], [0.0, 9.0]]))
    loss = tf.reduce_sum(w) * 0.0 + tf.reduce_sum(tf.gather(e, [0, 1])) * 0.0
    clip = opt.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         {w: [1], e: [1]}, max_norm=1.0)
    train = clip.minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [[0.6, 0.8], [0.3, 0.4]])
        # Only the gathered rows of e are clipped.
        np.testing.assert_allclose(sess.run(e), [[0.6, 0.8], [1.0, 0.0], [0.0, 9.0]])
    assert train.name == "VariableClipping"


def test_drop_stale_gradient_optimizer():
    w = tf.get_variable("w", initializer=W0)
    gs = tf.train.get_or_create_global_step()
    drop = opt.DropStaleGradientOptimizer(tf.train.GradientDescentOptimizer(0.5), staleness=1)
    train = drop.minimize(tf.reduce_sum(w), global_step=gs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(train) == 0.0
        np.testing.assert_allclose(sess.run(w), W0 - 0.5)
        # Gradients computed 2 steps ago are dropped: the counter grows, w stays.
        assert sess.run(train, {drop._local_step: sess.run(gs) - 2}) == 1.0
        np.testing.assert_allclose(sess.run(w), W0 - 0.5)
        assert sess.run(gs) == 1


def test_moving_average_optimizer_and_swapping_saver(tmp_path):
    w = tf.get_variable("w", initializer=W0)
    ma = opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.5), average_decay=0.5)
    with pytest.raises(RuntimeError, match="before creating the swapping_saver"):
        ma.swapping_saver()
    train = ma.minimize(tf.reduce_sum(w))
    saver = ma.swapping_saver()
    assert train.name == "train_with_avg"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        sess.run(train)
        # average = 0.5 avg + 0.5 w after each step: W0 -> W0 - 0.25 -> W0 - 0.625.
        np.testing.assert_allclose(sess.run(ma._ema.average(w)), W0 - 0.625)
        path = saver.save(sess, str(tmp_path / "model"))
    tf.reset_default_graph()
    w2 = tf.get_variable("w", initializer=np.zeros(4))
    with tf.Session() as sess:
        tf.train.Saver([w2]).restore(sess, path)
        np.testing.assert_allclose(sess.run(w2), W0 - 0.625)


# -- ExternalOptimizerInterface / ScipyOptimizerInterface ------------------------------------

class _NumpyGradientDescent(opt.ExternalOptimizerInterface):
    """A tiny outside algorithm: fixed-step gradient descent with box bounds."""

    def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs,
                  inequality_funcs, inequality_grad_funcs, packed_bounds, step_callback,
                  optimizer_kwargs):
        x = initial_val.copy()
        for _ in range(optimizer_kwargs["steps"]):
            _, grad = loss_grad_func(x)
            x = x - optimizer_kwargs["rate"] * grad
            if packed_bounds is not None:
                x = np.clip(x, [b[0] for b in packed_bounds], [b[1] for b in packed_bounds])
            step_callback(x)
        return x


def test_external_optimizer_interface_feeds_packs_and_assigns():
    v = tf.get_variable("v", initializer=np.array([[3.0, -2.0]]))
    u = tf.get_variable("u", initializer=np.array(5.0))
    scale = tf.placeholder(tf.float64, [])
    loss = scale * (tf.reduce_sum(tf.square(v)) + tf.square(u - 1.0))
    steps, losses = [], []
    ext = _NumpyGradientDescent(loss, var_to_bounds={u: (2.0, None)}, steps=50, rate=0.25)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ext.minimize(sess, feed_dict={scale: 1.0}, fetches=[loss],
                     step_callback=steps.append, loss_callback=losses.append)
        got_v, got_u = sess.run([v, u])
    np.testing.assert_allclose(got_v, [[0.0, 0.0]], atol=1e-9)
    assert got_u == pytest.approx(2.0)       # held at its lower bound
    assert len(steps) == 50 and steps[-1].shape == (3,)
    assert losses[0] == pytest.approx(9 + 4 + 16)
    with pytest.raises(NotImplementedError, match="implement the _minimize"):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            opt.ExternalOptimizerInterface(loss).minimize(sess, feed_dict={scale: 1.0})


def test_scipy_optimizer_interface():
    v = tf.get_variable("v", initializer=np.array([7.0, 7.0]))
    loss = tf.reduce_sum(tf.square(v - np.array([1.0, -2.0])))
    scipy_opt = opt.ScipyOptimizerInterface(loss, options={"maxiter": 100})
    with pytest.raises(ValueError, match="var_to_bounds"):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            opt.ScipyOptimizerInterface(loss, bounds=[(0, 1)] * 2).minimize(sess)
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError):
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                scipy_opt.minimize(sess)
        return
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        scipy_opt.minimize(sess)
        np.testing.assert_allclose(sess.run(v), [1.0, -2.0], atol=1e-6)


@pytest.mark.parametrize("resource", [False, True])
def test_multitask_wrapper_skips_all_zero_gradients(resource):
    w = tf.get_variable("w", initializer=W0, use_resource=resource)
    e = tf.get_variable("e", initializer=E0, use_resource=resource)
    task = tf.placeholder(tf.float64, [])
    loss = task * tf.reduce_sum(w) + tf.reduce_sum(tf.gather(e, [1]))
    wrapped = opt.MultitaskOptimizerWrapper(tf.train.MomentumOptimizer(0.1, 0.9))
    grads = opt.clip_gradients_by_global_norm(wrapped.compute_gradients(loss), 100.0)
    train = wrapped.apply_gradients(grads)
    mom = wrapped.get_slot(w, "momentum")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {task: 1.0})
        sess.run(train, {task: 0.0})
        # The zero gradient left w and its momentum alone: one step of 0.1 only.
        np.testing.assert_allclose(sess.run(w), W0 - 0.1)
        np.testing.assert_allclose(sess.run(mom), np.ones(4))
        np.testing.assert_allclose(sess.run(e)[1], E0[1] - 0.1 - 0.19)


def test_clip_gradients_by_global_norm():
    g = [tf.constant([3.0, 0.0]), tf.constant([4.0])]
    out = opt.clip_gradients_by_global_norm(list(zip(g, ["a", "b"])), clip_norm=1.0)
    with tf.Session() as sess:
        vals = sess.run([x for x, _ in out])
    np.testing.assert_allclose(np.concatenate(vals), [0.6, 0.0, 0.8], rtol=1e-6)
    assert [v for _, v in out] == ["a", "b"]


@pytest.mark.parametrize("resource", [False, True])
def test_adam_gs_powers_from_global_step(resource):
    # The global step starts at 5 and is not incremented: every step uses beta ** 6.
    def make():
        gs = tf.get_variable("step", initializer=np.int64(5), trainable=False)
        return opt.AdamGSOptimizer(global_step=gs, learning_rate=0.1)

    w = tf.get_variable("w", initializer=W0, use_resource=resource)
    optimizer = make()
    train = optimizer.minimize(0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE))
    b1, b2 = f32(0.9), f32(0.999)
    p1, p2 = float(np.float32(b1) ** np.float32(6)), float(np.float32(b2) ** np.float32(6))
    m = v = np.zeros(4)
    want = W0.copy()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(train)
            g = dense_grad(want)
            m = m + (g - m) * (1 - b1)
            v = v + (g * g - v) * (1 - b2)
            want = want - f32(0.1) * math.sqrt(1 - p2) / (1 - p1) * m / (np.sqrt(v) +
                                                                          f32(1e-8))
        np.testing.assert_allclose(sess.run(w), want, rtol=1e-6)
    assert [x.name for x in optimizer.variables()] == ["w/Adam:0", "w/Adam_1:0"]
    assert isinstance(opt.LazyAdamGSOptimizer(), opt.LazyAdamOptimizer)


def test_ggt_against_numpy():
    lr, beta1, window, eps, svd_eps, sigma_eps = 0.1, 0.9, 2, 1e-4, 1e-6, 1e-2
    w = tf.get_variable("w", initializer=W0)
    b = tf.get_variable("b", initializer=np.array([[0.5, -0.5]]))
    loss = (0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE) +
            tf.reduce_sum(tf.square(b)))
    ggt = opt.GGTOptimizer(lr, beta1, window=window, eps=eps, svd_eps=svd_eps,
                           sigma_eps=sigma_eps)
    train = ggt.minimize(loss)
    # numpy: variables flattened in name order (b then w).
    x = np.concatenate([np.array([0.5, -0.5]), W0])
    m1 = np.zeros(6)
    buf = np.zeros((window, 6))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for t in range(1, 4):
            sess.run(train)
            g = np.concatenate([2 * x[:2], dense_grad(x[2:])])
            m1 = beta1 * m1 + (1 - beta1) * g
            buf[(t - 1) % window] = m1
            m = buf.T / np.sqrt(min(t, window))
            u, sigma, _ = np.linalg.svd(m.T @ m + svd_eps * np.eye(window))
            proj = u.T @ (m.T @ m1)
            head = m @ (u @ (np.diag((np.sqrt(sigma) + sigma_eps) ** -3.0) @ proj))
            tail = m1 - m @ (u @ (np.diag(1 / sigma) @ proj))
            smin = np.sqrt(sigma).min()
            x = x - lr * (head + tail / smin if smin > eps else head)
            got = np.concatenate([sess.run(b).reshape(-1), sess.run(w)])
            np.testing.assert_allclose(got, x, rtol=1e-5, atol=1e-7)
    assert sorted(v.op.name for v in ggt.variables()) == [
        "flat_grad", "global_step", "grad_buffer", "moment1"]
    tf.reset_default_graph()
    e = tf.get_variable("e", initializer=E0)
    with pytest.raises(NotImplementedError, match="Sparse"):
        opt.GGTOptimizer().minimize(tf.reduce_sum(tf.gather(e, IDS)))


def test_weight_decay_runs_after_the_gradient_reads_the_variable():
    """The sparse decay gathers the embedding (a ResourceGather, which only reads it)
    after the gradient: the dense variable's decay still waits for the gradient, so the
    gradient fetched with the train op is the one at the step's start."""
    w = tf.get_variable("w", initializer=W0, use_resource=True)
    e = tf.get_variable("e", initializer=E0, use_resource=True)
    loss = (0.5 * tf.reduce_sum(tf.square(w - TARGET) * SCALE) +
            0.5 * tf.reduce_sum(tf.square(tf.gather(e, IDS) - ROWS_TARGET)))
    optimizer = opt.AdamWOptimizer(0.05, learning_rate=0.1)
    grads_and_vars = optimizer.compute_gradients(loss)
    train = optimizer.apply_gradients(grads_and_vars)
    assert {op.type for op in train.graph.get_operations()} >= {"ResourceGather"}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        _, grad_w = sess.run([train, grads_and_vars[0][0]])
    np.testing.assert_allclose(grad_w, dense_grad(W0), rtol=1e-12)
