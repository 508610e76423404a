"""TF1 mixed precision beyond the goldens (tests/golden/cases_mixed_precision.py): which
Sessions the graph rewrite affects, float16 autocast on CUDA (skipped without a GPU), and
model_to_estimator's unsupported path (subclassed models)."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.runtime import mixed_precision_state

X = np.array([[1.0 / 3.0, 2.0 / 3.0], [1e-3, 7.123456]], np.float32)
W = np.array([[1.000123, -0.333333], [3.14159265, 2.7182818]], np.float32)


@pytest.fixture(autouse=True)
def _rewrite_off():
    tf.reset_default_graph()
    yield
    mixed_precision_state.set_graph_rewrite_enabled(False)


def _matmul_graph():
    w = tf.get_variable("w", initializer=tf.constant(W))
    y = tf.matmul(tf.constant(X), w)
    loss = tf.reduce_sum(tf.square(y))
    return w, y, loss


def test_rewrite_on_cpu_keeps_float32_numerics():
    w, y, loss = _matmul_graph()
    opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.train.GradientDescentOptimizer(0.01))
    train = opt.minimize(loss)
    with tf.Session() as sess:
        assert sess._autocast is None            # TF converts ops on GPUs only
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y), X @ W, rtol=1e-6)
        sess.run(train)
        assert sess.run(w).dtype == np.float32


def test_disable_warns_when_already_disabled(caplog):
    tf.train.experimental.disable_mixed_precision_graph_rewrite()
    assert "already disabled" in caplog.text


def test_sessions_created_before_enabling_are_reported():
    _matmul_graph()
    with tf.Session():
        pass
    assert mixed_precision_state.non_mixed_precision_session_created()


def test_keras_policy_and_graph_rewrite_exclude_each_other():
    mixed_precision_state.set_using_mixed_precision_policy(True)
    try:
        with pytest.raises(ValueError, match="global Keras dtype Policy"):
            tf.train.experimental.enable_mixed_precision_graph_rewrite(
                tf.train.GradientDescentOptimizer(0.1))
    finally:
        mixed_precision_state.set_using_mixed_precision_policy(False)


def test_model_to_estimator_subclassed_model_is_not_implemented(tmp_path):
    class Sub(tf.keras.Model):
        def call(self, x):
            return x

    with pytest.raises(NotImplementedError, match="subclassed"):
        tf.keras.estimator.model_to_estimator(keras_model=Sub(), model_dir=str(tmp_path))


# -- CUDA (skipped without a GPU) ----------------------------------------------------------------

@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_rewrite_runs_float16_and_keeps_declared_dtypes():
    w, y, loss = _matmul_graph()
    with tf.Session() as before:               # created before enabling: stays float32
        before.run(tf.global_variables_initializer())
        exact = before.run(y)
    opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.train.GradientDescentOptimizer(0.001))
    train = opt.minimize(loss)
    with tf.Session() as sess:
        assert sess._autocast is not None
        sess.run(tf.global_variables_initializer())
        fast = sess.run(y)
        assert fast.dtype == np.float32                        # the graph's dtype
        half = (X.astype(np.float16) @ W.astype(np.float16)).astype(np.float32)
        np.testing.assert_allclose(fast, half, rtol=2e-3)
        assert not np.array_equal(fast, exact)                 # float16 matmul ran
        sess.run(train)
        assert sess.run(w).dtype == np.float32                 # variables stay float32
    np.testing.assert_allclose(exact, X @ W, rtol=1e-6)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_config_auto_mixed_precision_on():
    _, y, _ = _matmul_graph()
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.auto_mixed_precision = 1     # ON
    with tf.Session(config=config) as sess:
        assert sess._autocast is not None
        sess.run(tf.global_variables_initializer())
        assert sess.run(y).dtype == np.float32


def test_autocast_path_keeps_fetch_and_variable_dtypes(monkeypatch):
    """The session's autocast path, exercised on the CPU with bfloat16 autocast: fetched
    values and variables (assigned, initialized from autocast results, or updated by the
    optimizer) keep their declared float32 dtype."""
    import tf1compat.runtime.session as session_module
    monkeypatch.setattr(session_module, "session_autocast",
                        lambda config, device: lambda: torch.autocast("cpu",
                                                                      dtype=torch.bfloat16))
    w, y, loss = _matmul_graph()
    v = tf.Variable(tf.zeros([2, 2]), name="v")
    u = tf.Variable(tf.matmul(tf.constant(X), tf.constant(W)), name="u")
    assign = tf.assign(v, y)
    train = tf.train.experimental.MixedPrecisionLossScaleOptimizer(
        tf.train.AdamOptimizer(0.01), "dynamic").minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        fetched = sess.run(y)
        assert fetched.dtype == np.float32
        np.testing.assert_allclose(fetched, X @ W, rtol=1e-2)
        assert not np.allclose(fetched, X @ W, rtol=1e-5)      # bfloat16 matmul ran
        sess.run([assign, train])
        store = dict.items(sess._runtime.state)
        dtypes = {k: val.dtype for k, val in store if isinstance(val, torch.Tensor)}
        assert dtypes["v"] == dtypes["u"] == dtypes["w"] == torch.float32
        assert dtypes["current_loss_scale"] == torch.float32


# -- Keras dtype policies -------------------------------------------------------------------------

def test_set_global_policy_needs_v2_dtype_behavior():
    with pytest.raises(ValueError, match="V2 dtype behavior"):
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
    assert tf.keras.mixed_precision.global_policy().name == "_infer"


def test_global_policy_applies_to_new_layers_and_excludes_the_rewrite():
    tf.keras.layers.enable_v2_dtype_behavior()
    try:
        tf.keras.mixed_precision.experimental.set_policy("mixed_bfloat16")
        layer = tf.keras.layers.Dense(2)
        y = layer(tf.constant(X))
        assert (layer.dtype, layer.compute_dtype, y.dtype) == ("float32", "bfloat16",
                                                               tf.bfloat16)
        assert [w.dtype.base_dtype for w in layer.weights] == [tf.float32, tf.float32]
        with pytest.raises(ValueError, match="global Keras dtype Policy"):
            tf.train.experimental.enable_mixed_precision_graph_rewrite(
                tf.train.GradientDescentOptimizer(0.1))
    finally:
        tf.keras.mixed_precision.set_global_policy(None)
        tf.keras.layers.disable_v2_dtype_behavior()
    assert not mixed_precision_state.is_using_mixed_precision_policy()


def test_policy_names_and_autocast_variable_outside_a_call():
    with pytest.raises(ValueError, match="Cannot convert value"):
        tf.keras.mixed_precision.Policy("mixed_int8")
    with pytest.raises(TypeError, match="must be a string"):
        tf.keras.mixed_precision.Policy(tf.float16)
    policy = tf.keras.mixed_precision.Policy("mixed_float16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("float16", "float32")
    layer = tf.keras.layers.Dense(2, dtype=policy)
    layer(tf.constant(X))
    assert layer.kernel.dtype.base_dtype == tf.float32       # outside the layer's call
    assert tf.convert_to_tensor(layer.kernel).dtype == tf.float32
    config = layer.get_config()
    assert config["dtype"] == {"class_name": "Policy", "config": {"name": "mixed_float16"}}
    assert type(layer).from_config(config).compute_dtype == "float16"


def test_experimental_loss_scale_optimizer_takes_a_tf1_loss_scale():
    opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), tf.train.experimental.DynamicLossScale(4., 10))
    assert (opt.dynamic, opt.initial_scale, opt.dynamic_growth_steps) == (True, 4., 10)
    fixed = tf.keras.mixed_precision.experimental.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), 64)
    assert (fixed.dynamic, fixed.initial_scale) == (False, 64)
