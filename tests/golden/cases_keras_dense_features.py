"""Golden cases: tf.keras.layers.DenseFeatures in TF1 graph mode (tf-keras's v1 layer on
tf.feature_column): a functional model on a features dict trained by fit on a tf.data
dataset, variable names and values, output shapes and names, reuse across calls, errors."""

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_features_util import columns, features_and_labels, head, named_weights
from tests.golden.keras_util import captured, history


@tolerance(rtol=2e-5, atol=1e-6)
def case_dense_features_functional_fit(tf):
    tf.set_random_seed(5)
    layer = tf.keras.layers.DenseFeatures(columns(tf))
    inputs = {"age": tf.keras.Input((1,), name="age"),
              "thal": tf.keras.Input((1,), name="thal", dtype=tf.string)}
    x = layer(inputs)
    for dense in head(tf):
        x = dense(x)
    model = tf.keras.Model(inputs, x)
    # Tables of vocabulary columns are initialized by the user in graph mode, as in TF.
    tf.keras.backend.get_session().run(tf.tables_initializer())
    model.compile(tf.keras.optimizers.Adam(0.1), "binary_crossentropy", metrics=["accuracy"])
    features, labels = features_and_labels()
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(3)
    h, screen = captured(lambda: model.fit(ds, epochs=2, verbose=2))
    return {"history": history(h), "screen": screen, "weights": named_weights(model),
            "layer_weights": [w.name for w in layer.trainable_weights],
            "non_trainable": [w.name for w in layer.non_trainable_weights],
            "predicted": model.predict(ds), "evaluated": model.evaluate(ds, verbose=0),
            "globals": [v.name for v in tf.global_variables()
                        if not v.name.startswith("training/")]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_dense_features_direct_calls(tf):
    tf.set_random_seed(7)
    layer = tf.keras.layers.DenseFeatures(columns(tf), name="feats")
    first = layer({"age": tf.constant([[1.], [30.]]), "thal": tf.constant([["rev"], ["x"]])})
    second = layer({"age": tf.constant([[45.]]), "thal": tf.constant([["normal"]])})
    outputs = {}
    third = layer({"age": tf.constant([[3.]]), "thal": tf.constant([["fixed"]])},
                  cols_to_output_tensors=outputs)
    frozen = tf.keras.layers.DenseFeatures(columns(tf, 4), trainable=False)
    frozen({"age": tf.constant([[1.]]), "thal": tf.constant([["rev"]])})
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        values = sess.run([first, second, third])
        outs = sess.run({c.name: t for c, t in outputs.items()})
    return {"values": values, "names": [first.name, second.name, third.name],
            "shapes": [first.shape.as_list(), second.shape.as_list()],
            "weights": [w.name for w in layer.weights], "per_column": outs,
            "per_column_names": sorted(t.name for t in outputs.values()),
            "frozen": [[w.name for w in frozen.trainable_weights],
                       [w.name for w in frozen.non_trainable_weights]],
            "trainable_vars": [v.name for v in tf.trainable_variables()],
            "output_shape": layer.compute_output_shape([None, 1])}


def case_dense_features_errors(tf):
    fc = tf.feature_column
    thal = fc.categorical_column_with_vocabulary_list("thal", ["a"])
    layer = tf.keras.layers.DenseFeatures([fc.numeric_column("age")])
    return {"categorical": catch(lambda: tf.keras.layers.DenseFeatures([thal]).name),
            "empty": catch(lambda: tf.keras.layers.DenseFeatures([]).name),
            "not_dict": catch(lambda: layer(tf.constant([[1.]])).name),
            "duplicate": catch(lambda: tf.keras.layers.DenseFeatures(
                [fc.numeric_column("a"), fc.numeric_column("a")]).name),
            "batch": catch(lambda: tf.keras.layers.DenseFeatures(
                [fc.numeric_column("a"), fc.numeric_column("b")])(
                    {"a": tf.zeros([2, 1]), "b": tf.zeros([3, 1])}).name, message=True)}


def case_dense_features_other_columns(tf):
    fc = tf.feature_column
    age = fc.numeric_column("age", normalizer_fn=lambda x: (x - 30.) / 10.)
    city = fc.categorical_column_with_hash_bucket("city", 5)
    crossed = fc.crossed_column([fc.bucketized_column(age, [0.]), "city"], 7)
    weighted = fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 4), "w")
    layer = tf.keras.layers.DenseFeatures([
        age, fc.indicator_column(crossed), fc.indicator_column(weighted),
        fc.embedding_column(city, 3, initializer=tf.constant_initializer(0.5),
                            combiner="sqrtn")])
    out = layer({"age": tf.constant([[20.], [45.]]),
                 "city": tf.constant([["sf", "ny"], ["la", ""]]),
                 "i": tf.constant([[1], [3]], tf.int64), "w": tf.constant([[2.], [0.5]])})
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        value = sess.run(out)
    shared = fc.shared_embedding_columns(
        [fc.categorical_column_with_vocabulary_list("s1", ["a", "b"]),
         fc.categorical_column_with_vocabulary_list("s2", ["a", "b"])], 2)
    return {"value": value, "weights": [w.name for w in layer.weights],
            "shape": out.shape.as_list(),
            "shared_v1": catch(lambda: tf.keras.layers.DenseFeatures(shared).name)}
