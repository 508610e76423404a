"""Golden cases: `tf.contrib.integrate`. TF 2.x has no contrib: the oracle is TF 1.15's
odes.py run under TF 2.21's tf.compat.v1 graph mode (scripts/oracle_contrib.py,
`tf115_package`): adaptive Dormand-Prince solutions with their step history, options,
complex states, fixed-grid midpoint/RK4 with their gradients, and the errors."""

import numpy as np


def _integrate(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.integrate
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.integrate.python.ops", ["odes"])


def case_odeint_decay_and_history(tf):
    integrate = _integrate(tf)
    with tf.Graph().as_default():
        scalar = integrate.odeint(lambda y, _: -y, 1.0, [0.0, 1.0, 2.0])
        vector, info = integrate.odeint(lambda y, t: -y * t,
                                        tf.constant([1.0, 2.0], tf.float64),
                                        np.linspace(0, 2, 5), full_output=True)
        with tf.Session() as sess:
            values = sess.run([scalar, vector, info])
        return {"scalar": values[0], "scalar_dtype": scalar.dtype.name,
                "scalar_shape": scalar.shape.as_list(), "vector": values[1],
                "vector_shape": vector.shape.as_list(), "info": values[2]}


def case_odeint_oscillator_options(tf):
    integrate = _integrate(tf)

    def oscillator(y, t):
        position, velocity = y[0], y[1]
        return tf.stack([velocity, -4.0 * position - 0.3 * velocity + tf.sin(t)])

    with tf.Graph().as_default():
        t = tf.constant(np.linspace(0.0, 3.0, 7))
        y0 = tf.constant([1.0, 0.0], tf.float64)
        default = integrate.odeint(oscillator, y0, t, rtol=1e-8, atol=1e-10)
        tuned, info = integrate.odeint(
            oscillator, y0, t, method="dopri5", full_output=True,
            options={"first_step": 0.05, "safety": 0.8, "ifactor": 4.0, "dfactor": 0.5})
        with tf.Session() as sess:
            return {"default": sess.run(default), "tuned": sess.run([tuned, info])}


def case_odeint_float32_matrix_and_complex(tf):
    integrate = _integrate(tf)
    rate = np.array([[-0.5, 1.0], [-1.0, -0.5]], np.float32)
    with tf.Graph().as_default():
        matrix = integrate.odeint(lambda y, _: tf.matmul(tf.constant(rate), y),
                                  tf.constant(np.eye(2, dtype=np.float32)),
                                  tf.constant([0.0, 0.5, 1.5], tf.float32))
        spin = integrate.odeint(lambda y, _: tf.complex(tf.constant(0.0, tf.float64),
                                                        tf.constant(2.0, tf.float64)) * y,
                                tf.constant([1 + 0j, 0.5j], tf.complex128), [0.0, 0.7, 1.3],
                                rtol=1e-7)
        with tf.Session() as sess:
            return {"matrix": sess.run(matrix), "spin": sess.run(spin)}


def case_odeint_fixed_methods_and_gradients(tf):
    integrate = _integrate(tf)
    with tf.Graph().as_default():
        k = tf.Variable(0.7, dtype=tf.float64, name="k")
        y0 = tf.constant([1.0, -0.5], tf.float64)
        t = tf.constant([0.0, 0.3, 1.0, 1.1], tf.float64)

        def decay(y, time):
            return -k * y + tf.cos(time)

        runs = {"rk4_none": integrate.odeint_fixed(decay, y0, t),
                "rk4_scalar": integrate.odeint_fixed(decay, y0, t, dt=0.07),
                "midpoint_vector": integrate.odeint_fixed(
                    decay, y0, t, dt=tf.constant([0.1, 0.25, 0.05], tf.float64),
                    method="midpoint"),
                "float32": integrate.odeint_fixed(lambda y, _: -y * y, 2.0,
                                                  tf.constant([0.0, 0.5, 2.0]),
                                                  dt=tf.constant(0.1))}
        grads = tf.gradients(tf.reduce_sum(runs["rk4_scalar"][-1]), [k, y0])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(runs)
            out["grads"] = sess.run(grads)
            out["shape"] = runs["float32"].shape.as_list()
            return out


def case_argument_and_run_errors(tf):
    integrate = _integrate(tf)
    out = {}
    calls = {
        "bad_method": lambda: integrate.odeint(lambda y, _: y, 1.0, [0.0, 1.0], method="rk4"),
        "options_without_method": lambda: integrate.odeint(
            lambda y, _: y, 1.0, [0.0, 1.0], options={"safety": 0.5}),
        "int_state": lambda: integrate.odeint(lambda y, _: y, 1, [0.0, 1.0]),
        "int_times": lambda: integrate.odeint(lambda y, _: y, 1.0, tf.constant([0, 1])),
        "fixed_bad_method": lambda: integrate.odeint_fixed(lambda y, _: y, 1.0, [0.0, 1.0],
                                                           method="euler"),
        "fixed_lengths": lambda: integrate.odeint_fixed(lambda y, _: y, 1.0, [0.0, 1.0, 2.0],
                                                        dt=[0.1, 0.1, 0.1]),
    }
    for key, call in calls.items():
        with tf.Graph().as_default():
            try:
                call()
                out[key] = "no error"
            except (ValueError, TypeError) as e:
                out[key] = [type(e).__name__, str(e)]
    with tf.Graph().as_default():
        stiff = integrate.odeint(lambda y, _: -1e4 * y, 1.0, [0.0, 10.0], method="dopri5",
                                 options={"max_num_steps": 20})
        backwards = integrate.odeint(lambda y, _: -y, 1.0, [0.0, 2.0, 1.0])
        with tf.Session() as sess:
            for key, fetch in (("max_steps", stiff), ("not_increasing", backwards)):
                try:
                    sess.run(fetch)
                    out[key] = "no error"
                except tf.errors.OpError as e:
                    out[key] = type(e).__name__
    return out
