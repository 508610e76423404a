"""Golden cases: the names tf-keras gives layers, models and inputs across sequences of
model creations (graph mode here; `eager_cases_keras_names` replays them under eager
execution). Layer and model names count per default graph under (namespace, name) keys;
`K.get_uid` (and `Input`'s `input_N`) counts the bare prefix in Keras' graph (`get_graph()`:
a graph of its own under eager execution) - separate counters."""

import numpy as np


def _names(model):
    return [model.name] + [layer.name for layer in model.layers]


def _models(tf):
    keras, layers = tf.keras, tf.keras.layers

    def seq():
        return keras.Sequential([layers.Dense(2, input_shape=(3,)), layers.Dense(1)])

    def func():
        i = layers.Input((3,))
        return keras.Model(i, layers.Activation("relu")(layers.Dense(2)(i)))
    return seq, func


def case_model_sequence(tf):
    keras, layers = tf.keras, tf.keras.layers
    keras.backend.clear_session()
    seq, func = _models(tf)

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = layers.Dense(2)

        def call(self, x):
            return self.d(x)
    out = {"seq1": _names(seq()), "seq2": _names(seq()), "func1": _names(func())}
    sub = Sub()
    sub(np.ones((1, 3), np.float32))
    out["sub"] = [sub.name, sub.d.name]
    out["func2"] = _names(func())
    out["alone"] = [layers.Dense(1).name, layers.Dense(1, name="x").name,
                    layers.Dense(1).name, layers.Dense(1, name="dense_5").name,
                    layers.Dense(1).name]
    out["kinds"] = [layers.LSTM(2).name, layers.Conv2D(1, 1).name,
                    layers.BatchNormalization().name, layers.Embedding(3, 2).name]
    keras.backend.clear_session()
    out["after_clear"] = _names(seq()) + _names(func())
    return out


def case_uid_counters(tf):
    keras, layers, backend = tf.keras, tf.keras.layers, tf.keras.backend
    keras.backend.clear_session()
    out = {"uids": [backend.get_uid("dense"), backend.get_uid("dense"), backend.get_uid()],
           "dense_after_uids": layers.Dense(1).name, "uid_after_dense": backend.get_uid("dense")}
    i = layers.Input((3,))
    out["input_layer"] = keras.Model(i, layers.Dense(1)(i)).layers[0].name
    out["uid_input"] = backend.get_uid("input")
    out["next_input"] = keras.Model(layers.Input((2,)), layers.Input((2,))).name
    backend.reset_uids()
    out["after_reset"] = [layers.Dense(1).name, keras.Sequential().name,
                          backend.get_uid("dense")]
    return out


def case_names_in_other_graph(tf):
    keras, backend = tf.keras, tf.keras.backend
    keras.backend.clear_session()
    seq, func = _models(tf)
    out = {"before": _names(seq())}
    with tf.Graph().as_default():
        out["inner"] = _names(seq()) + _names(func()) + [backend.get_uid("dense")]
    out["after"] = _names(seq()) + _names(func()) + [backend.get_uid("dense")]
    return out


def case_input_tensor_names(tf):
    """The names of `Input` tensors and of what models expose of them: graph mode's
    placeholders are `input_1:0`; under eager execution tf-keras's KerasTensors are named
    after their layer (`input_1`), while layer outputs keep their op's `:0` names."""
    keras, layers = tf.keras, tf.keras.layers
    keras.backend.clear_session()
    x = keras.Input((3,))
    y = layers.Dense(2)(x)
    named = keras.Input((3,), name="foo")
    typed = layers.Input(shape=(3,), dtype="int32")
    batch = keras.Input(batch_shape=(2, 3), name="bs")
    input_layer = layers.InputLayer(input_shape=(3,))
    model = keras.Model(x, y)
    seq = keras.Sequential([layers.Dense(2, input_shape=(3,))])
    return {"input": x.name, "dense": y.name, "named": named.name, "typed": typed.name,
            "batch_shape": batch.name, "input_layer": [input_layer.name,
                                                       input_layer.output.name],
            "model_inputs": [t.name for t in model.inputs],
            "model_outputs": [t.name for t in model.outputs],
            "model_input": [model.input.name, model.layers[0].output.name],
            "sequential": [seq.input.name, seq.output.name],
            "merged": layers.Concatenate()([x, x]).name,
            "activation": layers.Activation("relu")(x).name,
            "lambda": layers.Lambda(lambda t: t * 2)(x).name}
