"""Golden cases: `tf.keras.constraints.RadialConstraint` (tf-keras's constraint that makes
a Conv2D kernel the same on each ring around its centre), applied directly, through
`constraints.get` and as a layer's kernel constraint during `fit`; and the tf-keras
names tf1compat leaves out, which raise an AttributeError (not a silent stub)."""

import numpy as np


def _kernel(shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * 0.5 - 3.0


def case_radial_constraint_values(tf):
    """Odd and even kernel sizes, several channels and filters, float64 kept. An even
    kernel's centre comes from `backend.zeros((2, 2))`, a variable in graph mode: it needs
    initializing (the error without is the next case)."""
    out = {}
    radial = tf.keras.constraints.RadialConstraint()
    with tf.Graph().as_default():
        tensors = {str(s): radial(tf.constant(_kernel(s)))
                   for s in [(3, 3, 2, 2), (4, 4, 1, 2), (5, 5, 2, 1), (2, 2, 1, 1),
                             (6, 6, 1, 1)]}
        tensors["float64"] = radial(tf.constant(_kernel((3, 3, 1, 1)).astype(np.float64)))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = sess.run(tensors)
    for key, value in values.items():
        out[key] = value
        out[key + "_dtype"] = str(value.dtype)
    out["shape"] = tensors["(3, 3, 2, 2)"].shape.as_list()
    return out


def case_radial_constraint_even_uninitialized(tf):
    """An even kernel's constraint run before its zeros variable is initialized."""
    with tf.Graph().as_default():
        w = tf.keras.constraints.RadialConstraint()(tf.constant(_kernel((4, 4, 1, 1))))
        odd = tf.keras.constraints.RadialConstraint()(tf.constant(_kernel((3, 3, 1, 1))))
        with tf.Session() as sess:
            out = {"odd": sess.run(odd), "variables": len(tf.global_variables())}
            try:
                sess.run(w)
            except tf.errors.FailedPreconditionError as e:
                out["error"] = type(e).__name__
    return out


def case_radial_constraint_api(tf):
    """Names, aliases, `get`/`serialize`, config, and the rank check's message."""
    constraints = tf.keras.constraints
    out = {"alias": constraints.radial_constraint is constraints.RadialConstraint,
           "base": issubclass(constraints.RadialConstraint, constraints.Constraint),
           "config": constraints.RadialConstraint().get_config(),
           "get": type(constraints.get("radial_constraint")).__name__,
           "serialize": constraints.serialize(constraints.RadialConstraint())["class_name"]}
    with tf.Graph().as_default():
        try:
            constraints.RadialConstraint()(tf.zeros([3, 3, 2]))
        except ValueError as e:
            out["rank_error"] = str(e)
    return out


def case_radial_constraint_in_fit(tf):
    """Conv2Ds with kernel_constraint=RadialConstraint (3x3 and 4x4 kernels) after two
    SGD steps; Keras' session initializes the even kernel's zeros variable."""
    keras = tf.keras
    keras.backend.clear_session()
    x = np.linspace(-1, 1, 2 * 25, dtype=np.float32).reshape(2, 5, 5, 1)
    out = {}
    for size in (3, 4):
        model = keras.Sequential([keras.layers.Conv2D(
            2, size, input_shape=(5, 5, 1),
            kernel_initializer=keras.initializers.Constant(_kernel((size, size, 1, 2)) / 10),
            kernel_constraint="radial_constraint"), keras.layers.Flatten()])
        model.compile(keras.optimizers.SGD(0.1), "mse")
        y = np.linspace(0, 1, 2 * model.output_shape[1], dtype=np.float32).reshape(2, -1)
        model.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
        out[f"kernel{size}"] = model.layers[0].get_weights()[0]
    keras.backend.clear_session()
    return out
