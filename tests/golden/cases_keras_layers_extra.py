"""Golden cases: the Keras layers tf-keras's v1 API has beyond the core set — their
outputs with deterministic weights, configs, weight names and output shapes
(LayerNormalization, transposed / depthwise / locally connected convolutions, ConvLSTMs,
EinsumDense, MultiHeadAttention, preprocessing layers, masked Softmax, activation and
reshaping layers), mask propagation into recurrent layers and losses, seeded noise layers
in training mode, and training through the new layers."""

import json

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import history, set_weights


def _weights(model, seed):
    rng = np.random.RandomState(seed)
    model.set_weights([(rng.randn(*w.shape) * 0.4).astype(np.float32)
                       for w in model.get_weights()])


def _run_layers(tf, specs, seed=0):
    """Each (name, layer factory, input array[, input dtype]) as a one-layer model:
    output, output shape, weight names and config."""
    out = {}
    for spec in specs:
        name, make, x = spec[:3]
        dtype = spec[3] if len(spec) > 3 else "float32"
        inp = tf.keras.layers.Input(x.shape[1:], dtype=dtype)
        layer = make()
        model = tf.keras.Model(inp, layer(inp))
        _weights(model, seed)
        out[name] = {"y": np.asarray(model.predict(x)).astype(np.float64),
                     "shape": model.output.shape.as_list(),
                     "weights": [w.name for w in model.weights],
                     "config": json.loads(json.dumps(layer.get_config(), default=str))}
    return out


def _inputs():
    rng = np.random.RandomState(7)
    return (rng.randn(2, 9, 4).astype(np.float32), rng.randn(2, 7, 6, 4).astype(np.float32),
            rng.randn(2, 5, 4, 4, 3).astype(np.float32))


@tolerance(rtol=1e-4, atol=1e-5)
def case_normalization_and_conv_layers(tf):
    L = tf.keras.layers
    x3, x4, x5 = _inputs()
    return _run_layers(tf, [
        ("layer_norm", lambda: L.LayerNormalization(), x3),
        ("layer_norm_axes", lambda: L.LayerNormalization(axis=[1, 2], epsilon=1e-6), x3),
        ("layer_norm_no_center", lambda: L.LayerNormalization(center=False), x4),
        ("depthwise1d", lambda: L.DepthwiseConv1D(3, depth_multiplier=2, strides=2), x3),
        ("depthwise1d_same", lambda: L.DepthwiseConv1D(2, padding="same",
                                                       dilation_rate=2), x3),
        ("depthwise2d", lambda: L.DepthwiseConv2D(3, depth_multiplier=2), x4),
        ("conv1d_transpose", lambda: L.Conv1DTranspose(5, 3, strides=2), x3),
        ("conv1d_transpose_pad", lambda: L.Conv1DTranspose(5, 3, strides=2, padding="same",
                                                           output_padding=1), x3),
        ("conv3d_transpose", lambda: L.Conv3DTranspose(2, 2, strides=2), x5),
        ("separable1d_causal", lambda: L.SeparableConv1D(3, 3, depth_multiplier=2,
                                                         padding="causal"), x3),
        ("local1d", lambda: L.LocallyConnected1D(3, 3, strides=2), x3),
        ("local1d_dense", lambda: L.LocallyConnected1D(3, 3, padding="same",
                                                       implementation=2), x3),
        ("local2d", lambda: L.LocallyConnected2D(3, (3, 2), strides=(2, 1)), x4),
        ("local2d_first", lambda: L.LocallyConnected2D(2, 2,
                                                       data_format="channels_first"), x4),
        ("local2d_dense", lambda: L.LocallyConnected2D(3, 3, strides=2, padding="same",
                                                       implementation=2), x4),
    ])


@tolerance(rtol=1e-4, atol=1e-5)
def case_activation_reshaping_einsum_layers(tf):
    L = tf.keras.layers
    x3, x4, x5 = _inputs()
    return _run_layers(tf, [
        ("elu", lambda: L.ELU(0.5), x3),
        ("prelu_shared", lambda: L.PReLU(shared_axes=[1]), x3),
        ("thresholded_relu", lambda: L.ThresholdedReLU(0.3), x3),
        ("softmax_axes", lambda: L.Softmax(axis=(1, 2)), x3),
        ("cropping3d", lambda: L.Cropping3D(((1, 0), (0, 1), (1, 1))), x5),
        ("upsampling2d_bilinear", lambda: L.UpSampling2D(2, interpolation="bilinear"), x4),
        ("zeropadding1d", lambda: L.ZeroPadding1D((2, 1)), x3),
        ("einsum_dense", lambda: L.EinsumDense("abc,cd->abd", output_shape=(None, 5),
                                               bias_axes="d", activation="relu"), x3),
        ("einsum_dense_ellipsis", lambda: L.EinsumDense("...b,bc->...c", output_shape=3,
                                                        bias_axes="c"), x3),
    ])


@tolerance(rtol=1e-5, atol=1e-5)
def case_preprocessing_layers(tf):
    L = tf.keras.layers
    images = np.arange(2 * 5 * 4 * 2, dtype=np.float32).reshape(2, 5, 4, 2)
    values = np.array([[-1.0, 0.0, 1.5, 3.0], [2.5, 0.5, 1.0, 9.0]], np.float32)
    ids = np.array([[0, 1, 1], [4, 2, 2]], np.int32)
    out = _run_layers(tf, [
        ("rescaling", lambda: L.Rescaling(1 / 255.0, offset=-0.5), images),
        ("resizing", lambda: L.Resizing(3, 5), images),
        ("resizing_nearest_crop", lambda: L.Resizing(3, 5, interpolation="nearest",
                                                     crop_to_aspect_ratio=True), images),
        ("resizing_bicubic", lambda: L.Resizing(7, 3, interpolation="bicubic"), images),
        ("resizing_area", lambda: L.Resizing(2, 3, interpolation="area"), images),
        ("center_crop", lambda: L.CenterCrop(3, 2), images),
        ("center_crop_upsize", lambda: L.CenterCrop(7, 3), images),
        ("normalization", lambda: L.Normalization(mean=[1.0, 2, 3, 4],
                                                  variance=[1.0, 4, 9, 0]), values),
        ("normalization_invert", lambda: L.Normalization(axis=None, mean=2.0, variance=4.0,
                                                         invert=True), values),
        ("discretization", lambda: L.Discretization(bin_boundaries=[0.0, 1.0, 2.5]), values),
        ("discretization_count", lambda: L.Discretization(bin_boundaries=[0.0, 1.0],
                                                          output_mode="count"), values),
        ("category_multi_hot", lambda: L.CategoryEncoding(5), ids, "int32"),
        ("category_count", lambda: L.CategoryEncoding(5, output_mode="count"), ids, "int32"),
        ("hashing_ints", lambda: L.Hashing(7), ids, "int32"),
        ("hashing_ints_multi_hot", lambda: L.Hashing(7, output_mode="multi_hot"), ids,
         "int32"),
    ])
    strings = tf.constant([["a", "b"], ["hello", "b"]])
    session = tf.keras.backend.get_session()
    for name, layer in [("hashing_strings", L.Hashing(11)),
                        ("hashing_salt", L.Hashing(11, salt=[3, 4])),
                        ("hashing_mask", L.Hashing(11, mask_value="b"))]:
        y = layer(strings)
        out[name] = {"y": session.run(y).tolist(), "dtype": y.dtype.name,
                     "config": layer.get_config()}
    normalization = L.Normalization()
    out["adapt_in_graph_mode"] = catch(lambda: normalization.adapt(values), message=True)
    onehot = L.CategoryEncoding(3, output_mode="one_hot")(tf.constant([0, 2, 1]))
    out["category_one_hot"] = session.run(onehot).tolist()
    bad = L.CategoryEncoding(3)(tf.constant([[0, 5]]))
    out["category_out_of_range"] = catch(lambda: session.run(bad))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_conv_lstm_layers(tf):
    L = tf.keras.layers
    rng = np.random.RandomState(3)
    x4 = rng.randn(2, 3, 7, 4).astype(np.float32)
    x5 = rng.randn(2, 3, 6, 5, 4).astype(np.float32)
    x6 = rng.randn(2, 3, 4, 4, 3, 2).astype(np.float32)
    out = _run_layers(tf, [
        ("conv_lstm1d", lambda: L.ConvLSTM1D(3, 3), x4),
        ("conv_lstm1d_same_back", lambda: L.ConvLSTM1D(3, 2, padding="same",
                                                       return_sequences=True,
                                                       go_backwards=True), x4),
        ("conv_lstm2d_strided", lambda: L.ConvLSTM2D(2, (3, 2), strides=(2, 1)), x5),
        ("conv_lstm2d_first", lambda: L.ConvLSTM2D(2, 3, data_format="channels_first",
                                                   return_sequences=True), x5),
        ("conv_lstm3d", lambda: L.ConvLSTM3D(2, 2, padding="same"), x6),
    ], seed=4)
    inp = L.Input(x5.shape[1:])
    outputs = L.ConvLSTM2D(2, 3, return_state=True)(inp)
    model = tf.keras.Model(inp, outputs)
    _weights(model, 5)
    out["return_state"] = [np.asarray(v, np.float64) for v in model.predict(x5)]
    out["return_state_shapes"] = [t.shape.as_list() for t in model.outputs]
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_multi_head_attention(tf):
    L = tf.keras.layers
    rng = np.random.RandomState(11)
    q = rng.randn(2, 4, 6).astype(np.float32)
    v = rng.randn(2, 5, 6).astype(np.float32)
    out = {}
    for name, make, kwargs in [
            ("plain", lambda: L.MultiHeadAttention(2, 3), {}),
            ("scores_no_bias", lambda: L.MultiHeadAttention(3, 2, value_dim=4, output_shape=5,
                                                            use_bias=False),
             {"return_attention_scores": True}),
            ("causal", lambda: L.MultiHeadAttention(2, 3), {"use_causal_mask": True})]:
        tq, tv = L.Input((4, 6)), L.Input((5, 6))
        y = make()(tq, tv, **kwargs)
        model = tf.keras.Model([tq, tv], list(y) if isinstance(y, tuple) else y)
        _weights(model, 12)
        result = model.predict([q, v])
        out[name] = {"y": [np.asarray(r, np.float64) for r in
                           (result if isinstance(result, list) else [result])],
                     "weights": [w.name for w in model.weights],
                     "json": json.loads(model.to_json())}
    tq, tv = L.Input((4, 6)), L.Input((5, 6))
    mask = L.Input((4, 5), dtype="bool")
    y = L.MultiHeadAttention(2, 2, attention_axes=(1,))(tq, tv, attention_mask=mask)
    model = tf.keras.Model([tq, tv, mask], y)
    _weights(model, 13)
    out["explicit_mask"] = model.predict([q, v, rng.rand(2, 4, 5) > 0.3]).astype(np.float64)
    return out


@tolerance(rtol=2e-5, atol=1e-6)
def case_mask_propagation(tf):
    L = tf.keras.layers
    rng = np.random.RandomState(21)
    tokens = np.array([[3, 1, 4, 0, 0], [2, 2, 0, 0, 0], [5, 1, 2, 3, 1]], np.int32)
    y = rng.randn(3, 2).astype(np.float32)
    model = tf.keras.Sequential([L.Embedding(6, 4, mask_zero=True, input_length=5),
                                 L.LSTM(3), L.Dense(2)])
    set_weights(model, 1)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    fit = model.fit(tokens, y, epochs=2, batch_size=2, verbose=0, shuffle=False)
    out = {"embedding_lstm": history(fit),
           "embedding_lstm_pred": model.predict(tokens).astype(np.float64)}
    seq = rng.randn(3, 5, 2).astype(np.float32)
    seq[0, 3:] = 0.0
    seq[1, 1:] = 0.0
    targets = rng.randn(3, 5, 1).astype(np.float32)
    model = tf.keras.Sequential([L.Masking(0.0, input_shape=(5, 2)),
                                 L.GRU(3, return_sequences=True),
                                 L.TimeDistributed(L.Dense(1))])
    set_weights(model, 2)
    model.compile(tf.keras.optimizers.Adam(0.01), "mae", metrics=["mse"])
    fit = model.fit(seq, targets, epochs=2, batch_size=3, verbose=0, shuffle=False)
    out["masked_sequence_loss"] = history(fit)
    out["masked_sequence_eval"] = [float(v) for v in model.evaluate(seq, targets, verbose=0)]
    inp = L.Input((5, 2))
    masked = L.Masking(0.0)(inp)
    pooled = L.GlobalAveragePooling1D()(masked)
    out["masked_pooling"] = tf.keras.Model(inp, pooled).predict(seq).astype(np.float64)
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_noise_layers_in_training(tf):
    L = tf.keras.layers
    tf.set_random_seed(5)
    x = np.random.RandomState(8).randn(4, 6).astype(np.float32) + 1.0
    out = {}
    for name, layer in [("gaussian_noise", L.GaussianNoise(0.5)),
                        ("gaussian_dropout", L.GaussianDropout(0.3)),
                        ("alpha_dropout", L.AlphaDropout(0.3, seed=3)),
                        ("dropout", L.Dropout(0.4, seed=9)),
                        ("spatial_dropout", L.SpatialDropout1D(0.5, seed=4))]:
        np.random.seed(17)
        t = tf.constant(x if name != "spatial_dropout" else x.reshape(4, 3, 2))
        train, test = layer(t, training=True), layer(t, training=False)
        session = tf.keras.backend.get_session()
        out[name] = {"train": session.run(train).astype(np.float64),
                     "test": session.run(test).astype(np.float64)}
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_fit_through_new_layers(tf):
    L = tf.keras.layers
    rng = np.random.RandomState(31)
    x = rng.randn(8, 3, 6, 5, 2).astype(np.float32)
    y = rng.randn(8, 1).astype(np.float32)
    model = tf.keras.Sequential([L.ConvLSTM2D(2, 3, input_shape=(3, 6, 5, 2)),
                                 L.LayerNormalization(), L.Flatten(),
                                 L.EinsumDense("ab,bc->ac", output_shape=1, bias_axes="c")])
    _weights(model, 32)
    model.compile("sgd", "mse")
    first = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
    x2 = rng.randn(8, 9, 4).astype(np.float32)
    model2 = tf.keras.Sequential([L.Conv1DTranspose(3, 3, strides=2, input_shape=(9, 4)),
                                  L.DepthwiseConv1D(3), L.LocallyConnected1D(2, 3),
                                  L.Flatten(), L.Dense(1)])
    _weights(model2, 33)
    model2.compile("adam", "mse")
    second = model2.fit(x2, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
    return {"conv_lstm": history(first), "conv1d_stack": history(second),
            "weights": [np.asarray(w, np.float64) for w in model2.get_weights()]}


@tolerance(rtol=2e-5, atol=1e-6)
def case_sparse_gradients_every_optimizer(tf):
    """Embedding gradients are IndexedSlices: each Keras optimizer's sparse update."""
    L = tf.keras.layers
    tokens = np.array([[1, 3, 3], [0, 2, 1]], np.int32)
    y = np.random.RandomState(51).randn(2, 2).astype(np.float32)
    out = {}
    for name, make in [("sgd", lambda: tf.keras.optimizers.SGD(0.1)),
                       ("momentum", lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9,
                                                                    nesterov=True)),
                       ("rmsprop", lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5,
                                                                       centered=True)),
                       ("rmsprop_plain", lambda: tf.keras.optimizers.RMSprop(0.01)),
                       ("rmsprop_centered", lambda: tf.keras.optimizers.RMSprop(
                           0.01, centered=True)),
                       ("adagrad", lambda: tf.keras.optimizers.Adagrad(0.1)),
                       ("adadelta", lambda: tf.keras.optimizers.Adadelta(1.0)),
                       ("adam", lambda: tf.keras.optimizers.Adam(0.01)),
                       ("amsgrad", lambda: tf.keras.optimizers.Adam(0.01, amsgrad=True)),
                       ("adamax", lambda: tf.keras.optimizers.Adamax(0.01)),
                       ("nadam", lambda: tf.keras.optimizers.Nadam(0.01)),
                       ("ftrl", lambda: tf.keras.optimizers.Ftrl(0.1))]:
        model = tf.keras.Sequential([L.Embedding(4, 3, input_length=3), L.Flatten(),
                                     L.Dense(2)])
        set_weights(model, 52)
        model.compile(make(), "mse")
        out[name] = catch(lambda: (history(model.fit(tokens, y, epochs=3, verbose=0,
                                                     shuffle=False)),
                                   [np.asarray(w, np.float64) for w in model.get_weights()]))
    return out


def case_layer_name_lists(tf):
    """tf.keras.layers, .experimental and .experimental.preprocessing expose tf-keras's
    v1 names (submodules of the implementation aside)."""
    import types

    def names(module):
        return sorted(n for n in dir(module) if not n.startswith("_") and
                      not isinstance(getattr(module, n), types.ModuleType))
    layers = tf.keras.layers
    return {"layers": names(layers), "experimental": names(layers.experimental),
            "preprocessing": names(layers.experimental.preprocessing)}


def case_recurrent_and_wrapper_configs(tf):
    """Recurrent layer and cell configs in tf-keras's key order, and a Bidirectional
    (with its own backward layer) / TimeDistributed model's JSON and its reload. tf-keras
    marks initializers serialized twice with `shared_object_id`; tf1compat does not (it
    reads such JSON), so the markers are left out of the comparison."""
    L = tf.keras.layers

    def without_shared_ids(obj):
        if isinstance(obj, dict):
            return {k: without_shared_ids(v) for k, v in obj.items()
                    if k != "shared_object_id"}
        if isinstance(obj, list):
            return [without_shared_ids(v) for v in obj]
        return obj
    keys = {type(layer).__name__: list(layer.get_config())
            for layer in [L.LSTM(2), L.GRU(2), L.SimpleRNN(2), L.LSTMCell(2), L.GRUCell(2),
                          L.SimpleRNNCell(2), L.ConvLSTM2D(2, 2)]}
    x = L.Input((5, 3))
    y = L.Bidirectional(L.LSTM(2, return_sequences=True),
                        backward_layer=L.GRU(2, return_sequences=True, go_backwards=True))(x)
    y = L.TimeDistributed(L.Dense(1))(y)
    text = tf.keras.Model(x, y).to_json()
    reloaded = tf.keras.models.model_from_json(text)
    return {"keys": keys, "json": without_shared_ids(json.loads(text)),
            "reloaded": without_shared_ids(json.loads(reloaded.to_json())),
            "reloaded_weights": [w.name for w in reloaded.weights]}
