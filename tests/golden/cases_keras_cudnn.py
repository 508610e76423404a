"""Golden cases: `tf.keras.layers.CuDNNLSTM` / `CuDNNGRU` (tf-keras 2.21, compat.v1 graph
mode): weight names, shapes and initial values (unit_forget_bias), configs, output shapes.
TF cannot run them without a GPU (no CPU kernel for CudnnRNNV3), so their numbers are
checked against cuDNN's equations in numpy (tests/test_keras_cudnn.py)."""


def _layer(tf, cls, **kwargs):
    args = dict(kernel_initializer="ones", recurrent_initializer="zeros",
                bias_initializer="zeros", **kwargs)
    with tf.Graph().as_default():
        # (a graph holding TF's CudnnRNNV3 op cannot run on a CPU: build the weights alone)
        layer = cls(4, **args)
        layer.build((None, 5, 3))
        with tf.Session() as sess:
            sess.run(tf.variables_initializer(layer.weights))
            bias = sess.run(layer.weights[-1])
        names = [[w.name, w.shape.as_list()] for w in layer.weights]
    with tf.Graph().as_default():
        layer = cls(4, **args)
        out = layer(tf.keras.layers.Input((5, 3)))
        outs = out if isinstance(out, list) else [out]
        return {"weights": names, "bias": bias, "config": layer.get_config(),
                "outputs": [o.shape.as_list() for o in outs]}


def case_cudnn_lstm(tf):
    layers = tf.keras.layers
    return {"default": _layer(tf, layers.CuDNNLSTM),
            "sequences_state": _layer(tf, layers.CuDNNLSTM, return_sequences=True,
                                      return_state=True),
            "no_forget_bias": _layer(tf, layers.CuDNNLSTM, unit_forget_bias=False,
                                     go_backwards=True, name="enc")}


def case_cudnn_gru(tf):
    layers = tf.keras.layers
    return {"default": _layer(tf, layers.CuDNNGRU),
            "sequences_state": _layer(tf, layers.CuDNNGRU, return_sequences=True,
                                      return_state=True)}
