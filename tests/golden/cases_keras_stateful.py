"""Golden cases: stateful Keras recurrent layers (`stateful=True`) in TF1 graph mode
(tf-keras's v1 loop): state variables sized by `batch_input_shape` / `batch_size`, states
carried across batches and across train_on_batch / predict / fit calls, `reset_states()`
(with and without values, on the layer and the model), and TF's errors when the batch
size is unknown or the number of samples does not divide by it."""

import numpy as np

from tests.golden.harness import catch, tolerance


def _rng(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _init(tf, seed):
    return {"kernel_initializer": tf.keras.initializers.glorot_uniform(seed=seed),
            "recurrent_initializer": tf.keras.initializers.Orthogonal(seed=seed + 1),
            "bias_initializer": tf.keras.initializers.RandomUniform(-0.3, 0.3,
                                                                     seed=seed + 2)}


def _states(tf, layer):
    return [tf.keras.backend.get_value(s) for s in layer.states]


@tolerance(1e-5, 1e-5)
def case_char_rnn_loop(tf):
    # A char-RNN training loop: one-hot characters, stateful LSTM, train_on_batch over
    # consecutive windows, reset_states() between epochs, then sampling with predict.
    vocab, batch, steps = 5, 2, 4
    text = np.random.RandomState(1).randint(0, vocab, size=batch * steps * 3 + 1)
    model = tf.keras.Sequential([
        tf.keras.layers.LSTM(6, return_sequences=True, stateful=True,
                             batch_input_shape=(batch, steps, vocab), **_init(tf, 3)),
        tf.keras.layers.Dense(vocab, activation="softmax",
                              kernel_initializer=tf.keras.initializers.glorot_uniform(9)),
    ])
    model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    lstm = model.layers[0]
    eye = np.eye(vocab, dtype=np.float32)
    streams = text[:-1].reshape(batch, -1)
    targets = text[1:].reshape(batch, -1)
    losses, states = [], []
    for _epoch in range(2):
        model.reset_states()
        states.append(_states(tf, lstm))
        for i in range(streams.shape[1] // steps):
            xs = eye[streams[:, i * steps:(i + 1) * steps]]
            ys = targets[:, i * steps:(i + 1) * steps, None]
            losses.append(model.train_on_batch(xs, ys))
            states.append(_states(tf, lstm))
    model.reset_states()
    sampled, probs = [], []
    seed = np.zeros((batch, steps, vocab), np.float32)
    for _ in range(3):
        p = model.predict(seed, batch_size=batch)
        probs.append(p)
        nxt = p[:, -1].argmax(-1)
        sampled.append(nxt)
        seed = eye[np.repeat(nxt[:, None], steps, axis=1)]
    return {"losses": losses, "states": states, "probs": probs, "sampled": sampled,
            "state_shapes": [s.shape.as_list() for s in lstm.states],
            "state_dtypes": [s.dtype.name for s in lstm.states],
            "state_names": [s.name for s in lstm.states],
            "n_weights": len(model.weights), "stateful": model.stateful,
            "n_updates": len(model.state_updates),
            "config_stateful": [layer["config"].get("stateful") for layer in
                                   model.get_config()["layers"]],
            "weights": model.get_weights()}


@tolerance(1e-5, 1e-5)
def case_gru_simple_rnn_carry_and_reset_values(tf):
    x = _rng([3, 2, 2], 4)
    gru = tf.keras.layers.GRU(3, stateful=True, return_state=True, **_init(tf, 5))
    inp = tf.keras.Input(batch_shape=(3, 2, 2))
    out, state = gru(inp)
    rnn = tf.keras.layers.SimpleRNN(2, stateful=True, **_init(tf, 8))
    out2 = rnn(tf.keras.layers.Reshape((1, 3))(out))
    model = tf.keras.Model(inp, [out, state, out2])
    first = model.predict(x, batch_size=3)
    second = model.predict(x, batch_size=3)
    after_first = _states(tf, gru) + _states(tf, rnn)
    gru.reset_states(np.full((3, 3), 0.5, np.float32))
    from_values = model.predict(x, batch_size=3)
    gru.reset_states()
    rnn.reset_states([np.ones((3, 2), np.float32)])
    mixed = model.predict(x, batch_size=3)
    bad_count = catch(lambda: gru.reset_states([np.zeros((3, 3)), np.zeros((3, 3))]),
                      message=True)
    bad_shape = catch(lambda: gru.reset_states(np.zeros((2, 3), np.float32)))
    return {"first": first, "second": second, "after_first": after_first,
            "from_values": from_values, "mixed": mixed, "bad_count": bad_count,
            "bad_shape": bad_shape, "state_shape": [s.shape.as_list() for s in gru.states]}


@tolerance(1e-5, 1e-5)
def case_stateful_fit_and_evaluate(tf):
    x = _rng([8, 3, 2], 6)
    y = _rng([8, 1], 7)
    model = tf.keras.Sequential([
        tf.keras.layers.SimpleRNN(4, stateful=True, batch_size=4, input_shape=(3, 2),
                                  **_init(tf, 10)),
        tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.glorot_uniform(13)),
    ])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    after_fit = _states(tf, model.layers[0])
    ev = model.evaluate(x, y, batch_size=4, verbose=0)
    after_eval = _states(tf, model.layers[0])
    bad = catch(lambda: model.fit(x[:6], y[:6], batch_size=4, verbose=0), message=True)
    return {"history": h.history, "after_fit": after_fit, "eval": ev,
            "after_eval": after_eval, "bad": bad,
            "input_shape": model.layers[0].input_spec[0].shape}


def case_stateful_unknown_batch_errors(tf):
    def sequential():
        tf.keras.Sequential([tf.keras.layers.LSTM(2, stateful=True, input_shape=(3, 2))])

    def functional():
        inp = tf.keras.Input((3, 2))
        tf.keras.layers.GRU(2, stateful=True)(inp)

    def not_stateful():
        layer = tf.keras.layers.LSTM(2)
        layer(tf.keras.Input((3, 2)))
        layer.reset_states()

    def before_build():
        tf.keras.layers.SimpleRNN(2, stateful=True).reset_states()
    return {"sequential": catch(sequential, message=True),
            "functional": catch(functional, message=True),
            "not_stateful": catch(not_stateful, message=True),
            "before_build": catch(before_build, message=True)}


@tolerance(1e-5, 1e-5)
def case_stateful_rnn_cell_and_initial_state(tf):
    # RNN(cell, stateful=True); an explicit initial_state is used while the recorded
    # states are all zeros, then the recorded states win. A stacked cell carries its
    # states too (tf-keras cannot take an initial_state for one).
    layer = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(2, **_init(tf, 20)),
                                stateful=True, return_sequences=True)
    inp = tf.keras.Input(batch_shape=(2, 3, 2))
    init = [tf.keras.Input(batch_shape=(2, 2)), tf.keras.Input(batch_shape=(2, 2))]
    out = layer(inp, initial_state=init)
    model = tf.keras.Model([inp] + init, out)
    stacked = tf.keras.layers.RNN([tf.keras.layers.LSTMCell(2, **_init(tf, 30)),
                                   tf.keras.layers.SimpleRNNCell(3, **_init(tf, 33))],
                                  stateful=True)
    stacked_model = tf.keras.Model(inp, stacked(inp))
    x = _rng([2, 3, 2], 26)
    s = [np.full((2, 2), 0.3, np.float32), np.full((2, 2), -0.2, np.float32)]
    first = model.predict([x] + s, batch_size=2)
    second = model.predict([x] + s, batch_size=2)
    layer.reset_states()
    third = model.predict([x] + s, batch_size=2)
    stacked_runs = [stacked_model.predict(x, batch_size=2) for _ in range(2)]
    return {"first": first, "second": second, "third": third, "stacked": stacked_runs,
            "states": [st.shape.as_list() for st in layer.states],
            "stacked_states": [st.shape.as_list() for st in tf.nest.flatten(stacked.states)],
            "stacked_values": [tf.keras.backend.get_value(st) for st in
                               tf.nest.flatten(stacked.states)]}


@tolerance(1e-5, 1e-5)
def case_stateful_conv_lstm_2d(tf):
    # ConvLSTM2D(stateful=True): states shaped like one step of the output (channels
    # last and first), carried across predict and train_on_batch calls, reset to zeros
    # or to given values, and tf-keras's errors for a wrong state shape.
    def conv_init(seed):
        return {"kernel_initializer": tf.keras.initializers.glorot_uniform(seed=seed),
                "recurrent_initializer": tf.keras.initializers.glorot_uniform(seed=seed + 1),
                "bias_initializer": tf.keras.initializers.RandomUniform(-0.3, 0.3,
                                                                         seed=seed + 2)}
    layer = tf.keras.layers.ConvLSTM2D(3, (2, 2), padding="same", stateful=True,
                                       return_sequences=True,
                                       batch_input_shape=(2, 3, 4, 4, 2), **conv_init(40))
    model = tf.keras.Sequential([layer, tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1, kernel_initializer=tf.keras.
                                                       initializers.glorot_uniform(44))])
    model.compile(tf.keras.optimizers.SGD(0.05), "mse")
    x = _rng([2, 3, 4, 4, 2], 41)
    y = _rng([2, 1], 42)
    first = model.predict(x, batch_size=2)
    second = model.predict(x, batch_size=2)
    after_predict = _states(tf, layer)
    loss = model.train_on_batch(x, y)
    after_train = _states(tf, layer)
    model.reset_states()
    zeroed = _states(tf, layer)
    values = [np.full((2, 4, 4, 3), 0.25, np.float32), np.full((2, 4, 4, 3), -0.5, np.float32)]
    layer.reset_states(values)
    given = model.predict(x, batch_size=2)
    wrong = catch(lambda: layer.reset_states([np.zeros((2, 4, 4, 2)), np.zeros((2, 4, 4, 3))]),
                  message=True)
    count = catch(lambda: layer.reset_states([np.zeros((2, 4, 4, 3))]), message=True)
    first_layer = tf.keras.layers.ConvLSTM2D(2, 3, data_format="channels_first",
                                             stateful=True, **conv_init(50))
    out = first_layer(tf.keras.Input(batch_shape=(1, 2, 3, 5, 5)))
    channels_first = tf.keras.Model(first_layer.input, out)
    cf = [channels_first.predict(_rng([1, 2, 3, 5, 5], 51), batch_size=1) for _ in range(2)]
    return {"first": first, "second": second, "after_predict": after_predict,
            "loss": loss, "after_train": after_train, "zeroed": zeroed, "given": given,
            "wrong": wrong, "count": count, "channels_first": cf,
            "states": [s.shape.as_list() for s in layer.states],
            "cf_states": [s.shape.as_list() for s in first_layer.states],
            "input_spec": layer.input_spec[0].shape}


def case_stateful_conv_lstm_unknown_shape(tf):
    def no_batch():
        tf.keras.Sequential([tf.keras.layers.ConvLSTM2D(2, 2, stateful=True,
                                                        input_shape=(3, 4, 4, 1))])

    def no_rows():
        inp = tf.keras.Input(batch_shape=(2, 3, None, 4, 1))
        tf.keras.layers.ConvLSTM2D(2, 2, stateful=True)(inp)
    # (tf-keras fails with "__int__ returned non-int (type NoneType)"; the class is what
    # tf1compat matches, with a message that says what is missing)
    return {"no_batch": catch(no_batch), "no_rows": catch(no_rows)}
