"""Golden cases: models with tf.keras.layers.DenseFeatures saved and loaded in TF1 graph
mode — the layer's config (its feature columns as tf-keras serializes them), JSON, HDF5
and SavedModel round trips (predictions, weights, training on), and the SavedModel's
"serving_default" signature run by the TF1 loader (vocabulary tables initialized by it)."""

import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance
from tests.golden.keras_features_util import columns, features_and_labels, head


def _model(tf):
    tf.set_random_seed(5)
    layer = tf.keras.layers.DenseFeatures(columns(tf))
    inputs = {"age": tf.keras.Input((1,), name="age"),
              "thal": tf.keras.Input((1,), name="thal", dtype=tf.string)}
    x = layer(inputs)
    for dense in head(tf):
        x = dense(x)
    model = tf.keras.Model(inputs, x)
    tf.keras.backend.get_session().run(tf.tables_initializer())
    model.compile(tf.keras.optimizers.Adam(0.1), "binary_crossentropy", metrics=["accuracy"])
    features, labels = features_and_labels()
    model.fit(features, labels, batch_size=3, epochs=2, shuffle=False, verbose=0)
    return model, features, labels


def _reloaded(tf, features, labels, load):
    # (in a graph of its own: the embedding variables' names are taken in the first one)
    with tf.Graph().as_default():
        loaded = load()
        tf.keras.backend.get_session().run(tf.tables_initializer())
        return {"predict": loaded.predict(features),
                "weights": {w.name: v for w, v in zip(loaded.weights, loaded.get_weights())},
                "layers": [type(layer).__name__ for layer in loaded.layers],
                "fit": loaded.fit(features, labels, batch_size=3, epochs=1, shuffle=False,
                                  verbose=0).history}


@tolerance(rtol=2e-5, atol=1e-6)
def case_config_and_json_round_trip(tf):
    model, features, _ = _model(tf)
    layer = [l for l in model.layers if type(l).__name__ == "DenseFeatures"][0]
    config = layer.get_config()
    rebuilt = tf.keras.layers.DenseFeatures.from_config(config)
    weights = model.get_weights()
    predict = model.predict(features)
    with tf.Graph().as_default():
        clone = tf.keras.models.model_from_json(model.to_json())
        clone.set_weights(weights)
        tf.keras.backend.get_session().run(tf.tables_initializer())
        clone_predict = clone.predict(features)
    return {"config": config, "rebuilt_config": rebuilt.get_config(),
            "names": [c.name for c in rebuilt._feature_columns],
            "clone_predict": clone_predict, "predict": predict}


@tolerance(rtol=2e-5, atol=1e-6)
def case_hdf5_round_trip(tf):
    model, features, labels = _model(tf)
    path = os.path.join(tempfile.mkdtemp(), "features.h5")
    model.save(path)
    expected = model.predict(features)
    return {"expected": expected,
            **_reloaded(tf, features, labels, lambda: tf.keras.models.load_model(path))}


@tolerance(rtol=2e-5, atol=1e-6)
def case_saved_model_round_trip_and_signature(tf):
    model, features, labels = _model(tf)
    path = os.path.join(tempfile.mkdtemp(), "features")
    model.save(path, save_format="tf")
    expected = model.predict(features)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        served = sess.run({k: v.name for k, v in sig.outputs.items()},
                          {sig.inputs[k].name: features[k] for k in sig.inputs})
        inputs = {k: (v.dtype, [d.size for d in v.tensor_shape.dim])
                  for k, v in sorted(sig.inputs.items())}
    return {"expected": expected, "served": served, "inputs": inputs,
            **_reloaded(tf, features, labels, lambda: tf.keras.models.load_model(path))}


@tolerance(1e-5, 1e-6)
def case_save_weights_object_checkpoint(tf):
    # The columns' variables are checkpoint dependencies of the layer
    # ("thal_embedding/embedding_weights"), so TF-format weights hold them too.
    model, features, labels = _model(tf)
    path = os.path.join(tempfile.mkdtemp(), "weights")
    model.save_weights(path)
    keys = sorted(k for k in tf.train.load_checkpoint(path).get_variable_to_shape_map()
                  if "OPTIMIZER_SLOT" not in k)
    before = model.predict(features)
    fresh, _, _ = _model(tf)
    fresh.load_weights(path)
    return {"keys": keys, "before": before, "after": fresh.predict(features)}
