"""Golden cases: `tf.contrib.gan.features`' spectral normalization (compute_spectral_norm,
spectral_normalize, spectral_norm_regularizer, the custom getter on tf.layers and
get_variable, keras_spectral_normalization on Keras layers) and
`tf.contrib.gan.eval.sliced_wasserstein_distance`. Oracle: TF 1.14's contrib/gan under
TF 2.21 (scripts/oracle_contrib_gan.py; record with PYTHONPATH=scripts). The power
iteration's persisted vectors are set before each run, and the patch positions of the
sliced Wasserstein distance are fixed (numpy's randint replaced for the case), so every
number is comparable."""

import numpy as np

from tests.golden.cases_contrib_gan import gan_of
from tests.golden.harness import catch, tolerance

RS = np.random.RandomState(21)
KERNEL = RS.randn(3, 3, 2, 4).astype(np.float32)
MATRIX = RS.randn(5, 3).astype(np.float32)
INPUTS = RS.randn(2, 5).astype(np.float32)      # (drawn once: cases replay in any order)


def _set_u(tf, sess):
    """Every spectral_norm_u variable set to fixed values; their names."""
    names = []
    for i, v in enumerate(tf.global_variables()):
        if v.op.name.endswith("spectral_norm_u"):
            shape = v.get_shape().as_list()
            v.load(np.random.RandomState(i).randn(*shape).astype(np.float32), sess)
            names.append((v.op.name, shape, v in tf.trainable_variables()))
    return names


@tolerance(rtol=1e-4, atol=1e-5)
def case_spectral_normalize(tf):
    gan = gan_of(tf)
    w = tf.constant(KERNEL)
    m = tf.Variable(MATRIX, name="m")
    sigma = gan.features.compute_spectral_norm(w)
    sigma3 = gan.features.compute_spectral_norm(w, power_iteration_rounds=3, name="three")
    normalized = gan.features.spectral_normalize(m)
    grad = tf.gradients(tf.reduce_sum(normalized * normalized), m)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = _set_u(tf, sess)
        first = sess.run([sigma, sigma3, normalized, grad])
        # Each evaluation advances the persisted u by the rounds of power iteration.
        second = sess.run([sigma, normalized])
        u = sess.run([v for v in tf.global_variables() if "spectral_norm_u" in v.op.name])
    return {"first": first, "second": second, "u": u, "variables": names,
            "ops": [sigma.op.type, sigma.name, normalized.name,
                    normalized.get_shape().as_list()],
            "svd": float(np.linalg.svd(KERNEL.reshape(-1, 4), compute_uv=False)[0])}


@tolerance(rtol=1e-4, atol=1e-5)
def case_spectral_norm_regularizer(tf):
    gan = gan_of(tf)
    m = tf.constant(MATRIX)
    reg = gan.features.spectral_norm_regularizer(0.5, power_iteration_rounds=2)(m)
    scoped = gan.features.spectral_norm_regularizer(2.0, scope="sn_reg")(m)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = _set_u(tf, sess)
        values = sess.run([reg, scoped])
    return {"values": values, "names": [reg.name, scoped.name], "variables": names,
            "zero": gan.features.spectral_norm_regularizer(0.0)(m),
            "errors": [catch(lambda: gan.features.spectral_norm_regularizer(1), message=True),
                       catch(lambda: gan.features.spectral_norm_regularizer(-0.5),
                             message=True)]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_custom_getter(tf):
    gan = gan_of(tf)
    x = tf.constant(INPUTS)
    getter = gan.features.spectral_normalization_custom_getter(power_iteration_rounds=2)
    with tf.variable_scope("disc", custom_getter=getter):
        h = tf.layers.dense(x, 3, kernel_initializer=tf.constant_initializer(MATRIX),
                            name="dense")
        w = tf.get_variable("weights", initializer=tf.constant(MATRIX[:3, :2]))
        other = tf.get_variable("scale", initializer=tf.constant(MATRIX[:2, :2]))
        out = tf.matmul(h, w) + tf.reduce_sum(other)
    errors = {}
    with tf.variable_scope("bad", custom_getter=getter):
        errors["vector"] = catch(lambda: tf.get_variable("kernel", [3]), message=True)
        errors["int"] = catch(lambda: tf.get_variable("weights", [3, 2], tf.int32),
                              message=True)
    errors["filter"] = catch(
        lambda: gan.features.spectral_normalization_custom_getter(name_filter=3),
        message=True)
    with tf.variable_scope("u", custom_getter=gan.features.spectral_normalization_custom_getter(
            name_filter=lambda name: True)):
        errors["own_u"] = catch(lambda: tf.get_variable("spectral_norm_u", [3, 1]),
                                message=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = _set_u(tf, sess)
        value = sess.run(out)
    return {"value": value, "variables": names, "errors": errors, "w": w.name,
            "all": sorted(v.op.name for v in tf.global_variables())}


@tolerance(rtol=1e-4, atol=1e-5)
def case_keras_spectral_normalization(tf):
    gan = gan_of(tf)
    x = tf.constant(INPUTS)
    with gan.features.keras_spectral_normalization():
        layer = tf.keras.layers.Dense(3, kernel_initializer=tf.constant_initializer(MATRIX),
                                      bias_initializer=tf.constant_initializer(0.5),
                                      name="dense_sn")
        y = layer(x)
    plain = tf.keras.layers.Dense(3, kernel_initializer=tf.constant_initializer(MATRIX),
                                  name="dense_plain")(x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = _set_u(tf, sess)
        values = sess.run([y, plain])
    return {"values": values, "variables": names,
            "all": sorted(v.op.name for v in tf.global_variables())}


def _fixed_randint(low, high, size):
    """numpy's randint for the case: patch centres spread deterministically over the
    allowed range, whatever order the py_funcs run in."""
    count = int(np.prod(size))
    return (low + (np.arange(count) * 7) % (high - low)).reshape(size)


def _run_fixed_patches(tf, fetches):
    saved, np.random.randint = np.random.randint, _fixed_randint
    try:
        with tf.Session() as sess:
            return sess.run(fetches)
    finally:
        np.random.randint = saved


@tolerance(rtol=1e-3, atol=1e-4)
def case_sliced_wasserstein_svd(tf):
    gan = gan_of(tf)
    rs = np.random.RandomState(5)
    real = rs.uniform(0, 255, (2, 16, 16, 3)).astype(np.float32)
    fake = (real * 0.5 + rs.uniform(0, 100, real.shape)).astype(np.float32)
    scores = gan.eval.sliced_wasserstein_distance(
        tf.constant(real), tf.constant(fake), resolution_min=8, patches_per_image=6,
        patch_size=5, use_svd=True)
    values = _run_fixed_patches(tf, scores)
    errors = {"channels": catch(lambda: gan.eval.sliced_wasserstein_distance(
        tf.zeros([2, 16, 16, 1]), tf.zeros([2, 16, 16, 1]))),
              "mismatch": catch(lambda: gan.eval.sliced_wasserstein_distance(
                  tf.zeros([2, 16, 16, 3]), tf.zeros([2, 8, 8, 3])))}
    return {"values": values, "levels": len(scores), "errors": errors}


@tolerance(rtol=1e-3, atol=1e-4)
def case_sliced_wasserstein_random_projections(tf):
    gan = gan_of(tf)
    tf.set_random_seed(7)
    rs = np.random.RandomState(6)
    real = rs.uniform(0, 1, (2, 8, 8, 3)).astype(np.float32)
    fake = rs.uniform(0, 1, (2, 8, 8, 3)).astype(np.float32)
    scores = gan.eval.sliced_wasserstein_distance(
        tf.constant(real), tf.constant(fake), resolution_min=4, patches_per_image=4,
        patch_size=3, random_sampling_count=2, random_projection_dim=5)
    values = _run_fixed_patches(tf, scores)
    return {"values": values, "names": [[a.name, b.name] for a, b in scores]}
