"""Golden cases: the less-travelled tf.keras surface of real Keras-on-TF1 programs (graph
mode): a custom training loop over `K.function` and `K.gradients`, a multi-input /
multi-output model fitted with dict inputs and loss weights, `sample_weight_mode=
"temporal"`, a stateful RNN with `reset_states`, TimeDistributed and Bidirectional
wrappers saved and loaded as `.h5`, and a keras-contrib style layer (CRF-like transition
weights) with `add_loss` and `add_metric`."""

import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance


def _init(tf, seed):
    return tf.keras.initializers.glorot_uniform(seed=seed)


@tolerance(rtol=1e-5, atol=1e-6)
def case_k_function_and_k_gradients_training_loop(tf):
    """A 2018-style custom loop: the loss and its gradients from K.gradients, updates as
    assign ops, one K.function with the learning phase as an input."""
    K = tf.keras.backend
    K.clear_session()
    x = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer=_init(tf, 1))(x)
    h = tf.keras.layers.Dropout(0.5, seed=2)(h)
    out = tf.keras.layers.Dense(1, kernel_initializer=_init(tf, 2))(h)
    model = tf.keras.Model(x, out)
    target = K.placeholder(shape=(None, 1))
    loss = K.mean(K.square(model.output - target))
    grads = K.gradients(loss, model.trainable_weights)
    updates = [K.update_sub(w, 0.1 * g) for w, g in zip(model.trainable_weights, grads)]
    train = K.function([model.input, target, K.learning_phase()], [loss], updates=updates)
    evaluate = K.function([model.input, target, K.learning_phase()], [loss])
    data = np.random.RandomState(0).rand(8, 3).astype(np.float32)
    labels = data.sum(1, keepdims=True)
    losses = [train([data, labels, 0])[0] for _ in range(5)]
    return {"losses": losses, "eval": evaluate([data, labels, 0])[0],
            "grad_shapes": [g.shape.as_list() for g in grads],
            "weights": model.get_weights()}


@tolerance(rtol=1e-5, atol=1e-6)
def case_dict_inputs_multi_output_loss_weights(tf):
    """A two-input, two-output functional model fitted on dicts keyed by the Input and
    output layer names, with per-output losses, loss weights and metrics."""
    tf.keras.backend.clear_session()
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    h = tf.keras.layers.concatenate([a, b])
    h = tf.keras.layers.Dense(4, activation="relu", kernel_initializer=_init(tf, 1))(h)
    reg = tf.keras.layers.Dense(1, name="reg", kernel_initializer=_init(tf, 2))(h)
    cls = tf.keras.layers.Dense(3, activation="softmax", name="cls",
                                kernel_initializer=_init(tf, 3))(h)
    model = tf.keras.Model([a, b], [reg, cls])
    model.compile(tf.keras.optimizers.Adam(0.01),
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 0.5, "cls": 2.0}, metrics={"cls": ["accuracy"]})
    rng = np.random.RandomState(1)
    xa = rng.rand(12, 3).astype(np.float32)
    xb = rng.rand(12, 2).astype(np.float32)
    y_reg = xa.sum(1, keepdims=True)
    y_cls = np.arange(12) % 3
    history = model.fit({"a": xa, "b": xb}, {"reg": y_reg, "cls": y_cls}, batch_size=4,
                        epochs=3, verbose=0, shuffle=False)
    return {"history": history.history, "names": model.metrics_names,
            "evaluate": model.evaluate({"a": xa, "b": xb}, {"reg": y_reg, "cls": y_cls},
                                       verbose=0),
            "predict": model.predict({"a": xa, "b": xb})}


@tolerance(rtol=1e-5, atol=1e-6)
def case_temporal_sample_weights(tf):
    """sample_weight_mode="temporal": per-timestep weights on a TimeDistributed output
    (a padded sequence's steps weighted 0)."""
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(6, 3, input_length=5,
                                  embeddings_initializer=tf.keras.initializers.
                                  RandomUniform(-0.1, 0.1, seed=1)),
        tf.keras.layers.SimpleRNN(4, return_sequences=True, kernel_initializer=_init(tf, 2),
                                  recurrent_initializer=tf.keras.initializers.Orthogonal(
                                      seed=3)),
        tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(
            2, activation="softmax", kernel_initializer=_init(tf, 4)))])
    model.compile("sgd", "sparse_categorical_crossentropy", sample_weight_mode="temporal",
                  metrics=["acc"])
    x = np.array([[1, 2, 3, 0, 0], [4, 5, 0, 0, 0], [1, 1, 2, 2, 3]])
    y = (x % 2)[..., None]
    weights = (x > 0).astype(np.float32)
    history = model.fit(x, y, sample_weight=weights, batch_size=2, epochs=2, verbose=0,
                        shuffle=False)
    return {"history": history.history,
            "evaluate": model.evaluate(x, y, sample_weight=weights, verbose=0),
            "bad_weights": catch(lambda: model.fit(x, y, sample_weight=weights[:, :3],
                                                   epochs=1, verbose=0))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_stateful_rnn_reset_states(tf):
    """A stateful LSTM fed chunk by chunk with train_on_batch / predict_on_batch, its
    states carried over and cleared by reset_states (model and layer)."""
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([
        tf.keras.layers.LSTM(3, stateful=True, batch_input_shape=(2, 2, 1),
                             kernel_initializer=_init(tf, 1),
                             recurrent_initializer=tf.keras.initializers.Orthogonal(seed=2)),
        tf.keras.layers.Dense(1, kernel_initializer=_init(tf, 3))])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    series = np.linspace(0, 1, 12, dtype=np.float32).reshape(2, 6, 1)
    out = {"losses": [], "predictions": []}
    for epoch in range(2):
        for step in range(3):
            chunk = series[:, 2 * step:2 * step + 2]
            out["losses"].append(model.train_on_batch(chunk, chunk[:, -1]))
        model.reset_states()
    for step in range(2):
        out["predictions"].append(model.predict_on_batch(series[:, 2 * step:2 * step + 2]))
    out["states"] = [tf.keras.backend.get_value(s) for s in model.layers[0].states]
    model.layers[0].reset_states()
    out["states_after_reset"] = [tf.keras.backend.get_value(s)
                                 for s in model.layers[0].states]
    out["after_reset"] = model.predict_on_batch(series[:, :2])
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_wrappers_h5_round_trip(tf):
    """TimeDistributed(Dense) and Bidirectional(GRU) (merge_mode concat and sum) saved as
    .h5 with their optimizer and loaded back: weights names, predictions, training on."""
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4, 3))
    h = tf.keras.layers.TimeDistributed(
        tf.keras.layers.Dense(2, kernel_initializer=_init(tf, 1)), name="td")(x)
    h = tf.keras.layers.Bidirectional(
        tf.keras.layers.GRU(3, return_sequences=True, kernel_initializer=_init(tf, 2),
                            recurrent_initializer=tf.keras.initializers.Orthogonal(seed=3)),
        name="bi")(h)
    h = tf.keras.layers.Bidirectional(
        tf.keras.layers.LSTM(2, kernel_initializer=_init(tf, 4),
                             recurrent_initializer=tf.keras.initializers.Orthogonal(seed=5)),
        merge_mode="sum", name="bi_sum")(h)
    model = tf.keras.Model(x, tf.keras.layers.Dense(1, kernel_initializer=_init(tf, 6))(h))
    model.compile(tf.keras.optimizers.RMSprop(0.01), "mse")
    data = np.random.RandomState(2).rand(6, 4, 3).astype(np.float32)
    target = data.sum((1, 2))[:, None]
    model.fit(data, target, batch_size=3, epochs=2, verbose=0, shuffle=False)
    path = tempfile.mkdtemp(prefix="wrappers_")
    try:
        model.save(os.path.join(path, "m.h5"))
        loaded = tf.keras.models.load_model(os.path.join(path, "m.h5"))
        out = {"weight_names": [w.name for w in loaded.weights],
               "predict": model.predict(data), "loaded_predict": loaded.predict(data),
               "layers": [type(layer).__name__ for layer in loaded.layers]}
        out["loaded_fit"] = loaded.fit(data, target, batch_size=3, epochs=1, verbose=0,
                                       shuffle=False).history
        out["original_fit"] = model.fit(data, target, batch_size=3, epochs=1, verbose=0,
                                        shuffle=False).history
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return out


def _crf_like(tf):
    class CRFLike(tf.keras.layers.Layer):
        """keras-contrib style: a transition matrix weight, a structured loss via
        add_loss on the layer's inputs, and a metric via add_metric."""

        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):
            self.kernel = self.add_weight(
                "kernel", (int(input_shape[-1]), self.units),
                initializer=tf.keras.initializers.glorot_uniform(seed=7))
            self.transitions = self.add_weight(
                "transitions", (self.units, self.units),
                initializer=tf.keras.initializers.Identity(0.5))
            super().build(input_shape)

        def call(self, inputs):
            scores = tf.keras.backend.dot(inputs, self.kernel)
            pairs = tf.einsum("bti,ij,btj->bt", scores[:, :-1], self.transitions,
                              scores[:, 1:])
            self.add_loss(0.01 * tf.reduce_mean(tf.square(pairs)))
            self.add_metric(tf.reduce_mean(pairs), name="transition_score",
                            aggregation="mean")
            return tf.nn.softmax(scores)

        def get_config(self):
            config = super().get_config()
            config["units"] = self.units
            return config
    return CRFLike


@tolerance(rtol=1e-5, atol=1e-6)
def case_crf_like_layer_add_loss_add_metric(tf):
    """A CRF-like custom layer's add_loss joins the loss, its add_metric is logged."""
    tf.keras.backend.clear_session()
    crf = _crf_like(tf)
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(5, 4, input_length=4,
                                  embeddings_initializer=tf.keras.initializers.
                                  RandomUniform(-0.5, 0.5, seed=1)),
        crf(3, name="crf")])
    model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy")
    x = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [0, 1, 0, 1]])
    y = (x % 3)[..., None]
    history = model.fit(x, y, batch_size=3, epochs=3, verbose=0, shuffle=False)
    probe = tf.keras.layers.Dense(2)
    probe.build((None, 3))
    t = tf.ones((2, 3))
    return {"history": history.history, "names": model.metrics_names,
            "losses": len(model.losses), "layer_metrics": [m.name for m in
                                                           model.layers[1].metrics],
            "evaluate": model.evaluate(x, y, verbose=0),
            "sum_aggregation": catch(lambda: probe.add_metric(t, "sum", name="s")),
            "no_name": catch(lambda: probe.add_metric(t, "mean")),
            "unaggregated": catch(lambda: probe.add_metric(t, name="u"))}


def case_tensorboard_histograms_and_gradients(tf):
    """TensorBoard(histogram_freq=1, write_grads=True) in graph mode: per-epoch scalars,
    and per validation batch the weights', their gradients' and the layers' outputs'
    histograms (tags and steps)."""
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(6, 3, input_length=4, name="emb"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(2, activation="softmax", name="out")])
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["acc"])
    x = np.array([[1, 2, 3, 0], [4, 5, 0, 1], [1, 1, 2, 2], [3, 3, 3, 3]])
    y = np.array([0, 1, 0, 1])
    path = tempfile.mkdtemp(prefix="tensorboard_")
    try:
        callback = tf.keras.callbacks.TensorBoard(path, histogram_freq=1, write_grads=True,
                                                  profile_batch=0)
        model.fit(x, y, batch_size=2, epochs=2, verbose=0, validation_data=(x, y),
                  callbacks=[callback])
        tags = {}
        for name in sorted(os.listdir(path)):
            if ".tfevents" not in name:
                continue
            for event in tf.train.summary_iterator(os.path.join(path, name)):
                for value in event.summary.value:
                    kind = "histo" if value.HasField("histo") else "scalar"
                    tags.setdefault(f"{value.tag} {kind}", []).append(event.step)
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return {"tags": sorted(tags.items())}


@tolerance(rtol=1e-5, atol=1e-6)
def case_functional_add_loss_add_metric_and_feature_function(tf):
    """A functional model's own add_loss (an activity penalty) and add_metric (a mean
    activation), fitted (their values; both insert `tf_op_layer_*`, `add_loss` and
    `add_metric` layers into `model.layers`, see cases_keras_added_losses); a K.function
    extracting inner layers' outputs (the learning phase fed), and a masking-aware custom
    layer after an Embedding with mask_zero."""
    K = tf.keras.backend
    K.clear_session()

    class MaskedMean(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.supports_masking = True

        def call(self, inputs, mask=None):
            weights = K.cast(mask, K.floatx())[..., None]
            return K.sum(inputs * weights, axis=1) / K.maximum(K.sum(weights, axis=1), 1.0)

        def compute_mask(self, inputs, mask=None):
            return None

    x = tf.keras.Input((4,))
    e = tf.keras.layers.Embedding(6, 3, mask_zero=True, name="emb",
                                  embeddings_initializer=tf.keras.initializers.
                                  RandomUniform(-0.5, 0.5, seed=1))(x)
    pooled = MaskedMean(name="pool")(e)
    h = tf.keras.layers.Dense(3, activation="relu", name="hidden",
                              kernel_initializer=_init(tf, 2))(pooled)
    out = tf.keras.layers.Dense(1, name="out", kernel_initializer=_init(tf, 3))(h)
    model = tf.keras.Model(x, out)
    model.add_loss(0.01 * K.mean(K.square(h)))
    model.add_metric(K.mean(h), name="mean_hidden", aggregation="mean")
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    data = np.array([[1, 2, 0, 0], [3, 4, 5, 0], [1, 1, 1, 1], [5, 0, 0, 0]])
    target = np.array([[0.5], [1.0], [0.2], [0.8]], np.float32)
    history = model.fit(data, target, batch_size=2, epochs=3, verbose=0, shuffle=False)
    features = K.function([model.input, K.learning_phase()],
                          [model.get_layer("pool").output, model.get_layer("hidden").output])
    return {"history": history.history, "names": model.metrics_names,
            "losses": len(model.losses), "features": features([data, 0]),
            "evaluate": model.evaluate(data, target, verbose=0)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_callback_learning_rate_and_periodic_checkpoints(tf):
    """A custom callback that reads and sets `model.optimizer.lr` with K.get_value /
    K.set_value, ModelCheckpoint(save_weights_only=True, period=2) (TF 1.x's argument),
    fit_generator with a validation generator and class weights."""
    K = tf.keras.backend
    K.clear_session()
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                              kernel_initializer=_init(tf, 1)),
        tf.keras.layers.Dense(2, activation="softmax", kernel_initializer=_init(tf, 2))])
    model.compile(tf.keras.optimizers.SGD(0.5), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    seen = []

    class Halve(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            lr = K.get_value(self.model.optimizer.lr)
            seen.append(float(lr))
            K.set_value(self.model.optimizer.lr, lr / 2)

    rng = np.random.RandomState(3)
    x = rng.rand(12, 3).astype(np.float32)
    y = (x[:, 0] > 0.5).astype(np.int64)

    def batches():
        while True:
            for i in range(0, 12, 4):
                yield x[i:i + 4], y[i:i + 4]

    path = tempfile.mkdtemp(prefix="checkpoints_")
    try:
        checkpoint = tf.keras.callbacks.ModelCheckpoint(
            os.path.join(path, "w.{epoch:02d}.h5"), save_weights_only=True, period=2)
        history = model.fit_generator(batches(), steps_per_epoch=3, epochs=4, verbose=0,
                                      validation_data=batches(), validation_steps=3,
                                      class_weight={0: 1.0, 1: 3.0},
                                      callbacks=[Halve(), checkpoint])
        files = sorted(os.listdir(path))
        restored = tf.keras.models.clone_model(model)
        restored.load_weights(os.path.join(path, files[-1]))
        same = [np.allclose(a, b) for a, b in zip(restored.get_weights(),
                                                  model.get_weights())]
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return {"history": history.history, "lr_seen": seen, "files": files, "same": same}


@tolerance(rtol=1e-5, atol=1e-6)
def case_keras_layers_in_a_session_training_loop(tf):
    """"Keras as a simplified interface to TensorFlow" (2016-2018): Keras layers on a
    placeholder, a tf.train optimizer minimizing in the user's Session (K.set_session),
    BatchNormalization's updates from `model.updates`, the learning phase fed."""
    K = tf.keras.backend
    K.clear_session()
    graph = tf.Graph()
    with graph.as_default():
        sess = tf.Session()
        K.set_session(sess)
        images = tf.placeholder(tf.float32, shape=(None, 4))
        labels = tf.placeholder(tf.float32, shape=(None, 2))
        model = tf.keras.Sequential([
            # (no bias before the normalization: its gradient is zero up to rounding, which
            # Adam would scale up to full steps)
            tf.keras.layers.Dense(5, activation="relu", use_bias=False,
                                  kernel_initializer=_init(tf, 1)),
            tf.keras.layers.BatchNormalization(),
            tf.keras.layers.Dropout(0.3, seed=4),
            tf.keras.layers.Dense(2, kernel_initializer=_init(tf, 2))])
        logits = model(images)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=labels, logits=logits))
        with tf.control_dependencies(model.updates):
            train = tf.train.AdamOptimizer(0.05).minimize(loss)
        sess.run(tf.global_variables_initializer())
        rng = np.random.RandomState(5)
        x = rng.rand(16, 4).astype(np.float32)
        y = np.eye(2, dtype=np.float32)[(x.sum(1) > 2).astype(int)]
        losses = [sess.run([train, loss], {images: x, labels: y, K.learning_phase(): 1})[1]
                  for _ in range(4)]
        test_loss = sess.run(loss, {images: x, labels: y, K.learning_phase(): 0})
        moving = sess.run(model.layers[1].moving_mean)
        weights = sess.run(model.weights)
        sess.close()
    return {"updates": len(model.updates), "losses": losses, "test_loss": test_loss,
            "moving_mean": moving, "weights": weights}
