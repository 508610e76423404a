"""Golden cases from TF's r1 guide (tensorflow/docs, site/en/r1/guide) that need the
Estimator, recorded with TF 2.15 and its estimator package."""

from __future__ import annotations

import numpy as np

from tests.golden.estimator_util import model_dir

TF_VERSION = "2.15"


def case_model_to_estimator_of_an_untrained_model_with_a_tf_train_optimizer(tf):
    """guide/keras: `model_to_estimator` right after `compile(optimizer=
    tf.train.RMSPropOptimizer(...))`, never fitted: the first checkpoint holds the
    optimizer's slots, initialized; training then continues from it."""
    layers = tf.keras.layers
    init = tf.keras.initializers
    model = tf.keras.Sequential([
        layers.Dense(4, activation="relu", input_shape=(3,),
                     kernel_initializer=init.glorot_uniform(seed=1)),
        layers.Dense(2, activation="softmax", kernel_initializer=init.glorot_uniform(seed=2))])
    model.compile(optimizer=tf.train.RMSPropOptimizer(0.01), loss="categorical_crossentropy",
                  metrics=["accuracy"])
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = np.eye(2, dtype=np.float32)[np.arange(8) % 2]

    def input_fn():
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    with model_dir() as directory:
        estimator = tf.keras.estimator.model_to_estimator(model, model_dir=directory)
        estimator.train(input_fn, steps=2)
        names = sorted(estimator.get_variable_names())
        return {"names": names,
                "slots": {n: estimator.get_variable_value(n) for n in names
                          if n.startswith("dense_1/bias")},
                "loss": estimator.evaluate(input_fn, steps=2)["loss"]}
