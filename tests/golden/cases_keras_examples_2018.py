"""Golden cases: keras-team/keras examples of 2018 run through `tf.keras` in graph mode,
on small synthetic data: variational_autoencoder (Lambda sampling, `add_loss` of raw TF
ops, nested functional models: their summary, with `Functional` rows and the
`tf_op_layer_*` output shapes as lists), mnist_siamese (shared base network, Lambda
distance, custom loss and metric), lstm_seq2seq (return_state, initial_state, inference
models), imdb_fasttext (n-grams, pad_sequences, Embedding + GlobalAveragePooling1D),
conv_filter_visualization (K.gradients, K.function with the learning phase), and
`fit_generator`/`evaluate_generator`/`predict_generator` with Sequence workers and
`use_multiprocessing` (with tf-keras's deprecation warnings)."""

import warnings

import numpy as np

from tests.golden.harness import tolerance


def _history(h):
    return {k: [float(v) for v in values] for k, values in h.history.items()}


@tolerance(rtol=1e-4, atol=1e-5)
def case_variational_autoencoder(tf):
    K, layers, Model = tf.keras.backend, tf.keras.layers, tf.keras.models.Model
    tf.set_random_seed(0)

    def sampling(args):
        z_mean, z_log_var = args
        epsilon = K.random_normal(shape=(K.shape(z_mean)[0], K.int_shape(z_mean)[1]), seed=3)
        return z_mean + K.exp(0.5 * z_log_var) * epsilon
    original_dim, intermediate_dim, latent_dim = 16, 8, 2
    x_train = np.random.RandomState(0).rand(64, original_dim).astype("float32")
    init = tf.keras.initializers.glorot_uniform(seed=1)
    inputs = layers.Input(shape=(original_dim,), name="encoder_input")
    x = layers.Dense(intermediate_dim, activation="relu", kernel_initializer=init)(inputs)
    z_mean = layers.Dense(latent_dim, name="z_mean", kernel_initializer=init)(x)
    z_log_var = layers.Dense(latent_dim, name="z_log_var", kernel_initializer=init)(x)
    z = layers.Lambda(sampling, output_shape=(latent_dim,), name="z")([z_mean, z_log_var])
    encoder = Model(inputs, [z_mean, z_log_var, z], name="encoder")
    latent_inputs = layers.Input(shape=(latent_dim,), name="z_sampling")
    x = layers.Dense(intermediate_dim, activation="relu", kernel_initializer=init)(latent_inputs)
    outputs = layers.Dense(original_dim, activation="sigmoid", kernel_initializer=init)(x)
    decoder = Model(latent_inputs, outputs, name="decoder")
    outputs = decoder(encoder(inputs)[2])
    vae = Model(inputs, outputs, name="vae_mlp")
    reconstruction_loss = tf.keras.losses.binary_crossentropy(inputs, outputs) * original_dim
    kl_loss = 1 + z_log_var - K.square(z_mean) - K.exp(z_log_var)
    kl_loss = K.sum(kl_loss, axis=-1) * -0.5
    vae.add_loss(K.mean(reconstruction_loss + kl_loss))
    vae.compile(optimizer="adam")
    summary = []
    vae.summary(print_fn=summary.append)
    # (No validation_data: the validation losses draw the sampling layer's noise in the
    # test function, whose stream depended on the cases run before it, under TF too.)
    h = vae.fit(x_train, epochs=3, batch_size=16, verbose=0, shuffle=False)
    return {"summary": summary, "history": _history(h),
            "encoded": encoder.predict(x_train[:3], batch_size=3)[0],
            "metrics_names": vae.metrics_names,
            "op_layer_output_shapes": [layer.output_shape for layer in vae.layers
                                       if layer.name.startswith("tf_op_layer_")][:3]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_mnist_siamese(tf):
    tf.set_random_seed(0)
    K, layers, Model = tf.keras.backend, tf.keras.layers, tf.keras.models.Model

    def euclidean_distance(vects):
        x, y = vects[0], vects[1]
        return K.sqrt(K.maximum(K.sum(K.square(x - y), axis=1, keepdims=True), K.epsilon()))

    def contrastive_loss(y_true, y_pred):
        margin_square = K.square(K.maximum(1 - y_pred, 0))
        return K.mean(y_true * K.square(y_pred) + (1 - y_true) * margin_square)

    def accuracy(y_true, y_pred):
        return K.mean(K.equal(y_true, K.cast(y_pred < 0.5, y_true.dtype)))
    init = tf.keras.initializers.glorot_uniform(seed=2)
    rng = np.random.RandomState(0)
    pairs = rng.rand(64, 2, 4, 4).astype("float32")
    labels = rng.randint(0, 2, 64).astype("float32")
    base_input = layers.Input(shape=(4, 4))
    x = layers.Flatten()(base_input)
    x = layers.Dense(16, activation="relu", kernel_initializer=init)(x)
    x = layers.Dropout(0.1, seed=1)(x)
    x = layers.Dense(16, activation="relu", kernel_initializer=init)(x)
    base_network = Model(base_input, x)
    input_a, input_b = layers.Input(shape=(4, 4)), layers.Input(shape=(4, 4))
    distance = layers.Lambda(euclidean_distance, output_shape=lambda s: (s[0][0], 1))(
        [base_network(input_a), base_network(input_b)])
    model = Model([input_a, input_b], distance)
    model.compile(loss=contrastive_loss, optimizer=tf.keras.optimizers.RMSprop(),
                  metrics=[accuracy])
    data = [pairs[:, 0], pairs[:, 1]]
    h = model.fit(data, labels, batch_size=16, epochs=3, verbose=0,
                  validation_data=(data, labels), shuffle=False)
    predicted = model.predict(data)
    return {"history": _history(h), "predicted": predicted[:5],
            "accuracy": float(np.mean((predicted.ravel() < 0.5) == labels))}


@tolerance(rtol=1e-4, atol=1e-5)
def case_lstm_seq2seq(tf):
    layers, Model = tf.keras.layers, tf.keras.models.Model
    tf.set_random_seed(0)
    enc_tokens, dec_tokens, latent = 6, 7, 8
    rng = np.random.RandomState(0)
    enc_data = np.eye(enc_tokens, dtype="float32")[rng.randint(0, enc_tokens, (32, 5))]
    dec_data = np.eye(dec_tokens, dtype="float32")[rng.randint(0, dec_tokens, (32, 4))]
    target = np.roll(dec_data, -1, axis=1)
    g = tf.keras.initializers.glorot_uniform(seed=1)
    o = tf.keras.initializers.orthogonal(seed=2)
    encoder_inputs = layers.Input(shape=(None, enc_tokens))
    _, state_h, state_c = layers.LSTM(latent, return_state=True, kernel_initializer=g,
                                      recurrent_initializer=o)(encoder_inputs)
    decoder_inputs = layers.Input(shape=(None, dec_tokens))
    decoder_lstm = layers.LSTM(latent, return_sequences=True, return_state=True,
                               kernel_initializer=g, recurrent_initializer=o)
    decoder_outputs, _, _ = decoder_lstm(decoder_inputs, initial_state=[state_h, state_c])
    decoder_dense = layers.Dense(dec_tokens, activation="softmax", kernel_initializer=g)
    model = Model([encoder_inputs, decoder_inputs], decoder_dense(decoder_outputs))
    model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
    h = model.fit([enc_data, dec_data], target, batch_size=8, epochs=2, validation_split=0.25,
                  verbose=0, shuffle=False)
    encoder_model = Model(encoder_inputs, [state_h, state_c])
    states_inputs = [layers.Input(shape=(latent,)), layers.Input(shape=(latent,))]
    outputs, h_out, c_out = decoder_lstm(decoder_inputs, initial_state=states_inputs)
    decoder_model = Model([decoder_inputs] + states_inputs,
                          [decoder_dense(outputs), h_out, c_out])
    summary = []
    decoder_model.summary(print_fn=summary.append)
    states = encoder_model.predict(enc_data[:1])
    token = np.zeros((1, 1, dec_tokens))
    token[0, 0, 0] = 1.0
    decoded = []
    for _ in range(4):
        probs, h_value, c_value = decoder_model.predict([token] + states)
        decoded.append(int(np.argmax(probs[0, -1, :])))
        token = np.zeros((1, 1, dec_tokens))
        token[0, 0, decoded[-1]] = 1.0
        states = [h_value, c_value]
    return {"history": _history(h), "summary": summary, "decoded": decoded,
            "last_state": h_value}


@tolerance(rtol=1e-4, atol=1e-5)
def case_imdb_fasttext(tf):
    layers = tf.keras.layers
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    x_train = [list(rng.randint(1, 20, rng.randint(3, 9))) for _ in range(40)]
    y_train = rng.randint(0, 2, 40)
    ngrams = set()
    for sequence in x_train:
        ngrams.update(zip(sequence, sequence[1:]))
    token_indice = {v: k + 20 for k, v in enumerate(sorted(ngrams))}
    max_features = max(token_indice.values()) + 1
    x_train = [s + [token_indice[ng] for ng in zip(s, s[1:])] for s in x_train]
    x_train = tf.keras.preprocessing.sequence.pad_sequences(x_train, maxlen=12)
    model = tf.keras.Sequential([
        layers.Embedding(max_features, 8, input_length=12,
                         embeddings_initializer=tf.keras.initializers.RandomUniform(seed=1)),
        layers.GlobalAveragePooling1D(),
        layers.Dense(1, activation="sigmoid",
                     kernel_initializer=tf.keras.initializers.glorot_uniform(seed=2))])
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
    h = model.fit(x_train, y_train, batch_size=8, epochs=3, validation_data=(x_train, y_train),
                  verbose=0, shuffle=False)
    return {"padded": x_train[:2], "history": _history(h),
            "evaluate": model.evaluate(x_train, y_train, verbose=0)}


@tolerance(rtol=1e-4, atol=1e-4)
def case_conv_filter_visualization(tf):
    K, layers = tf.keras.backend, tf.keras.layers
    tf.set_random_seed(0)
    g = tf.keras.initializers.glorot_uniform(seed=1)
    model = tf.keras.Sequential([
        layers.Conv2D(4, 3, activation="relu", padding="same", name="block1_conv1",
                      input_shape=(8, 8, 3), kernel_initializer=g),
        layers.MaxPooling2D(2),
        layers.Conv2D(4, 3, activation="relu", name="block2_conv1", kernel_initializer=g)])
    layer_output = dict((layer.name, layer) for layer in model.layers)["block2_conv1"].output
    results = []
    for filter_index in range(2):
        loss = K.mean(layer_output[:, :, :, filter_index])
        grads = K.gradients(loss, model.input)[0]
        grads = grads / (K.sqrt(K.mean(K.square(grads))) + K.epsilon())
        iterate = K.function([model.input, K.learning_phase()], [loss, grads])
        image = np.random.RandomState(filter_index).random_sample((1, 8, 8, 3)) * 20 + 128.0
        for _ in range(5):
            loss_value, grads_value = iterate([image, 0])
            image += grads_value
        results.append({"loss": float(loss_value), "image": image[0, :2, :2]})
    return results


def case_generators_with_workers(tf):
    class Batches(tf.keras.utils.Sequence):
        def __init__(self, x, y, batch_size):
            self.x, self.y, self.batch_size = x, y, batch_size

        def __len__(self):
            return int(np.ceil(len(self.x) / float(self.batch_size)))

        def __getitem__(self, idx):
            part = slice(idx * self.batch_size, (idx + 1) * self.batch_size)
            return self.x[part], self.y[part]

    def batches(x, y, size):
        while True:
            for i in range(0, len(x), size):
                yield x[i:i + size], y[i:i + size]
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    x = rng.rand(48, 5).astype("float32")
    y = rng.randint(0, 3, 48)
    g = tf.keras.initializers.glorot_uniform(seed=1)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(5,), kernel_initializer=g),
        tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=g)])
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["acc"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = model.fit_generator(Batches(x, y, 8), epochs=2, verbose=0, workers=2,
                                    use_multiprocessing=True, shuffle=False,
                                    validation_data=Batches(x, y, 16))
        second = model.fit_generator(batches(x, y, 8), steps_per_epoch=6, epochs=1, verbose=0,
                                     workers=1, max_queue_size=4)
        evaluated = model.evaluate_generator(Batches(x, y, 8), workers=2,
                                             use_multiprocessing=True)
        predicted = model.predict_generator(Batches(x, y, 8), workers=2,
                                            use_multiprocessing=True)
        from_generator = model.evaluate_generator(batches(x, y, 8), steps=6)
    return {"first": _history(first), "second": _history(second), "evaluated": evaluated,
            "predicted": predicted[:3], "from_generator": from_generator,
            "warnings": [str(w.message) for w in caught if "_generator" in str(w.message)]}
