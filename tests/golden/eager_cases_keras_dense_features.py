"""Eager golden cases: tf.keras.layers.DenseFeatures under TF 1.x-style eager execution
(tf-keras's v2 loop): a Sequential model on a features dict trained by fit on a dataset
(the sigmoid output keeps its logits for the loss, as TF's eager tensors do, with or without
`run_eagerly`), variables made once and reused."""

import numpy as np

from tests.golden.keras_features_util import columns, features_and_labels, head, named_weights
from tests.golden.keras_util import history


def _fit(tf, run_eagerly):
    tf.set_random_seed(5)
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(columns(tf))] + head(tf))
    model.compile(tf.keras.optimizers.Adam(0.1), "binary_crossentropy",
                  metrics=["accuracy"], run_eagerly=run_eagerly)
    features, labels = features_and_labels()
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(3)
    h = model.fit(ds, epochs=3, verbose=0)
    return {"history": history(h), "weights": named_weights(model),
            "predicted": model.predict(ds), "evaluated": model.evaluate(ds, verbose=0)}


def case_dense_features_sequential_fit(tf):
    return _fit(tf, run_eagerly=None)


def case_dense_features_sequential_fit_run_eagerly(tf):
    return _fit(tf, run_eagerly=True)


def case_dense_features_eager_calls(tf):
    layer = tf.keras.layers.DenseFeatures(columns(tf, 3))
    first = layer({"age": np.array([[1.], [30.]], np.float32),
                   "thal": np.array([["rev"], ["x"]])})
    second = layer({"age": np.array([[45.]], np.float32), "thal": np.array([["normal"]])})
    return {"first": first.numpy(), "second": second.numpy(),
            "weights": [w.name for w in layer.weights],
            "trainable": [w.name for w in layer.trainable_weights]}
