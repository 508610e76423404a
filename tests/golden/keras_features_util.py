"""Shared pieces of the DenseFeatures golden cases (graph and eager): a heart-disease-style
features dict, the columns of TF's structured-data tutorial, a small classifier on them."""

import numpy as np


def features_and_labels():
    features = {"age": np.array([[10.], [25.], [50.], [33.], [61.], [18.]], np.float32),
                "thal": np.array([["fixed"], ["normal"], ["rev"], ["x"], ["normal"],
                                  ["rev"]])}
    return features, np.array([0, 1, 1, 0, 1, 0], np.float32)


def columns(tf, embedding_seed=2):
    fc = tf.feature_column
    age = fc.numeric_column("age")
    thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "rev"])
    embedding = fc.embedding_column(
        thal, dimension=2, initializer=tf.truncated_normal_initializer(seed=embedding_seed))
    return [age, fc.bucketized_column(age, [20., 40.]), fc.indicator_column(thal), embedding]


def head(tf):
    """The Dense layers after DenseFeatures, with deterministic initializers."""
    return [tf.keras.layers.Dense(3, activation="relu", kernel_initializer="ones"),
            tf.keras.layers.Dense(1, activation="sigmoid",
                                  kernel_initializer=tf.keras.initializers.Constant(0.05))]


def named_weights(layer_or_model):
    return {w.name: np.round(v, 5) for w, v in zip(layer_or_model.weights,
                                                     layer_or_model.get_weights())}
