"""Golden cases: Keras layers with a mixed-precision dtype policy (`dtype='mixed_float16'`
/ `'mixed_bfloat16'`) under TF1 behaviour (tf-keras 2.21): float32 variables read in the
compute dtype inside the layer, inputs cast, outputs in the compute dtype; a model of
such layers compiled and trained with the v1 loop."""

import numpy as np

from tests.golden.harness import tolerance

X = np.array([[1.0 / 3.0, 2.0 / 3.0, -1.5], [1e-3, 7.123456, 0.25]], np.float32)
K = np.array([[1.000123, -0.333333], [3.14159265, 2.7182818], [0.1, -0.7]], np.float32)


def _describe_layer(layer):
    return {"dtype": layer.dtype, "compute": layer.compute_dtype,
            "policy": layer.dtype_policy.name,
            "weights": [[w.name, w.dtype.base_dtype.name] for w in layer.weights],
            "config_dtype": layer.get_config()["dtype"]}


@tolerance(rtol=1e-6, atol=1e-7)
def case_dense_mixed_float16(tf):
    layer = tf.keras.layers.Dense(2, dtype="mixed_float16",
                                  kernel_initializer=tf.constant_initializer(K))
    x = tf.placeholder(tf.float32, [None, 3])
    y = layer(x)
    out = _describe_layer(layer)
    out["output_dtype"] = y.dtype.name
    out["kernel_attr_dtype"] = layer.kernel.dtype.base_dtype.name
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["y"] = sess.run(y, {x: X})
        out["kernel"] = sess.run(layer.kernel)
    return out


@tolerance(rtol=1e-6, atol=1e-7)
def case_dense_mixed_bfloat16_and_float32_head(tf):
    hidden = tf.keras.layers.Dense(2, activation="relu", dtype="mixed_bfloat16",
                                   kernel_initializer=tf.constant_initializer(K))
    head = tf.keras.layers.Dense(1, dtype="float32",
                                 kernel_initializer=tf.constant_initializer([[0.5], [-1.0]]))
    x = tf.constant(X)
    h = hidden(x)
    y = head(h)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([tf.cast(h, tf.float32), y])
    return {"h_dtype": h.dtype.name, "y_dtype": y.dtype.name, "values": values,
            "hidden": _describe_layer(hidden), "head": _describe_layer(head)}


@tolerance(rtol=1e-3, atol=1e-4)
def case_mixed_model_fit(tf):
    inputs = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(2, activation="tanh", dtype="mixed_float16",
                              kernel_initializer=tf.constant_initializer(K))(inputs)
    out_t = tf.keras.layers.Dense(1, dtype="float32",
                                  kernel_initializer=tf.constant_initializer(
                                      [[0.5], [-1.0]]))(h)
    model = tf.keras.Model(inputs, out_t)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    y = np.array([[1.0], [-1.0]], np.float32)
    history = model.fit(X, y, epochs=3, verbose=0)
    return {"loss": [float(v) for v in history.history["loss"]],
            "weights": model.get_weights(), "optimizer": type(model.optimizer).__name__,
            "predict": model.predict(X), "variables": sorted(
                v.name for v in tf.global_variables() if "training" not in v.name)}


@tolerance(rtol=1e-3, atol=1e-4)
def case_mixed_float16_model_compile_wraps_optimizer(tf):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__(dtype="mixed_float16")
            self.dense = tf.keras.layers.Dense(
                1, kernel_initializer=tf.constant_initializer([[0.5], [-1.0], [0.25]]))

        def call(self, x):
            return tf.cast(self.dense(x), tf.float32)

    model = Net()
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    y = np.array([[1.0], [-1.0]], np.float32)
    history = model.fit(X, y, epochs=2, verbose=0)
    return {"optimizer": type(model.optimizer).__name__,
            "inner": type(model.optimizer.inner_optimizer).__name__,
            "policy": model.dtype_policy.name, "dense_policy": model.dense.dtype_policy.name,
            "loss": [float(v) for v in history.history["loss"]],
            "weights": model.get_weights()}
