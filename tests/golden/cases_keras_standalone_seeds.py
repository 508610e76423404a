"""Golden cases: standalone Keras 2.2.4's numpy-drawn op seeds. On TF 1.x, Keras 2.2.4 gave
each random op it built without a seed (initializers when a layer creates its weights,
`Dropout`, `GaussianNoise`) the op seed `np.random.randint(10e6)`, so `np.random.seed(...)`
alone fixed a model's weights and masks; tf1compat's standalone `keras` does the same
(keras/backend_core.py `use_numpy_op_seeds`, on when a script imports `keras`).

Recorded under real TF with those seeds drawn explicitly in Keras 2.2.4's order (one per
random initializer, at weight creation, then one per noise op, at call); replayed with
tf1compat's Keras under the standalone seeding and no seeds given. A second replay checks
that tf.keras alone keeps TF's graph-level seeding (ops seeded from the graph seed).
"""

import numpy as np


def _is_tf1compat(tf):
    return tf.__name__.startswith("tf1compat")


def _standalone_seeding(tf, enabled):
    if _is_tf1compat(tf):
        from tf1compat.keras.backend_core import use_numpy_op_seeds
        use_numpy_op_seeds(enabled)


def case_keras_numpy_drawn_op_seeds(tf):
    keras = tf.keras
    layers = keras.layers
    oracle = not _is_tf1compat(tf)

    def seed():
        # Keras 2.2.4's draw, made explicitly for the oracle (tf1compat draws it itself).
        return int(np.random.randint(10e6)) if oracle else None

    _standalone_seeding(tf, True)
    try:
        np.random.seed(11)
        x = layers.Input((5,))
        h = layers.Dense(4, kernel_initializer=keras.initializers.glorot_uniform(seed()))(x)
        h = layers.Reshape((2, 2, 1))(h)
        h = layers.Conv2D(3, 2, padding="same",
                          kernel_initializer=keras.initializers.he_normal(seed()))(h)
        h = layers.Flatten()(h)
        if oracle:
            h = h + tf.random_normal(tf.shape(h), stddev=0.3, seed=seed())
            h = tf.nn.dropout(h, rate=0.25, seed=seed())
        else:
            h = layers.GaussianNoise(0.3)(h, training=True)
            h = layers.Dropout(0.25)(h, training=True)
        out = layers.Dense(2, kernel_initializer=keras.initializers.RandomNormal(
            seed=seed()))(h)
        emb = layers.Embedding(6, 3, embeddings_initializer=keras.initializers.RandomUniform(
            seed=seed()))(layers.Input((2,)))
        after = int(np.random.randint(10e6))    # numpy's state after the draws
    finally:
        _standalone_seeding(tf, False)
    sess = keras.backend.get_session()
    sess.run(tf.global_variables_initializer())
    weights = {v.name.split("/")[0] + "/" + v.name.split("/")[-1]: v
               for v in tf.global_variables()}
    values = sess.run({"weights": weights, "out": out}, {x: np.ones((2, 5), np.float32)})
    values["embedding_shape"] = emb.shape.as_list()
    values["numpy_state_after"] = after
    return values
