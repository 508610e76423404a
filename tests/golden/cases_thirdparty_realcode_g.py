"""Golden cases: patterns of the Keras 2.2.4 example programs (keras-team/keras examples/)
and TF's r1 Keras tutorials that failed or differed on tf1compat, restated small.

The programs import standalone `keras`, which tf1compat resolves to its own Keras
(tf1compat/shim_keras.py); the cases use `tf.keras`, the same classes, so that they record
under tf-keras.
"""

import numpy as np

from tests.golden.harness import catch, describe


def _inputs(rng, *shapes):
    return [rng.randn(*shape).astype(np.float32) for shape in shapes]


def case_memory_network_attention(tf):
    """The end-to-end memory network of babi_memnn: story and question embeddings matched
    by a rank-3 `dot(axes=(2, 2))`, softmax over the story, the match added to a second
    story embedding, permuted, concatenated with the question and classified; trained a
    few steps with RMSprop."""
    keras = tf.keras
    layers = keras.layers
    tf.set_random_seed(3)
    story_len, query_len, vocab, dim = 6, 3, 12, 8
    story = layers.Input((story_len,))
    question = layers.Input((query_len,))
    init = [keras.initializers.RandomUniform(-0.3, 0.3, seed=s) for s in range(4)]
    memory = layers.Embedding(vocab, dim, embeddings_initializer=init[0])(story)
    query = layers.Embedding(vocab, dim, input_length=query_len,
                             embeddings_initializer=init[1])(question)
    context = layers.Embedding(vocab, query_len, embeddings_initializer=init[2])(story)
    match = layers.dot([memory, query], axes=(2, 2))
    attention = layers.Activation("softmax")(match)
    response = layers.Permute((2, 1))(layers.add([attention, context]))
    answer = layers.concatenate([response, query])
    answer = layers.Flatten()(answer)
    answer = layers.Dense(vocab, activation="softmax", kernel_initializer=init[3])(answer)
    model = keras.models.Model([story, question], answer)
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    rng = np.random.RandomState(0)
    stories = rng.randint(0, vocab, (10, story_len))
    questions = rng.randint(0, vocab, (10, query_len))
    answers = rng.randint(0, vocab, (10, 1))
    losses = [model.train_on_batch([stories, questions], answers) for _ in range(4)]
    dot_layer = [layer for layer in model.layers if type(layer).__name__ == "Dot"][0]
    return {"match": describe(match), "response": describe(response),
            "dot_output_shape": list(dot_layer.output_shape),
            "dot_config": {k: dot_layer.get_config()[k] for k in ("axes", "normalize")},
            "losses": np.array(losses, np.float32),
            "predictions": model.predict([stories, questions])}


def case_dot_layer_axes(tf):
    """`keras.layers.Dot` / `dot` on the rank pairings the examples meet: rank-2 pairs
    (cosine proximity with normalize=True), 3-D by 2-D products, negative axes, the
    contracted axes moved; static shapes and values. (Rank 4 is left out: tf-keras 2.x
    contracts it otherwise than TF 1.x, whose rule tf1compat keeps; see
    tests/test_keras_batch_dot_tf1.py.)"""
    keras = tf.keras
    layers = keras.layers
    rng = np.random.RandomState(1)
    cases = [((5, 4), (3, 4), (2, 2)), ((5, 4), (4, 3), (2, 1)), ((4,), (4,), 1),
             ((4,), (4,), -1), ((4,), (4, 3), (1, 1)), ((3, 4), (4,), (2, 1)),
             ((3, 4), (3, 5), 1), ((3, 4), (5, 4), -1), ((3, 4), (3,), (1, 1))]
    out = {}
    for shape1, shape2, axes in cases:
        a, b = layers.Input(shape1), layers.Input(shape2)
        x1, x2 = _inputs(rng, (2,) + shape1, (2,) + shape2)
        for normalize in (False, True):
            layer = layers.Dot(axes=axes, normalize=normalize)
            y = layer([a, b])
            model = keras.models.Model([a, b], y)
            key = f"{shape1}x{shape2}@{axes}{'_normalized' if normalize else ''}"
            out[key] = {"static": describe(y)["shape"],
                        "output_shape": list(layer.compute_output_shape(
                            [(None,) + shape1, (None,) + shape2])),
                        "value": model.predict([x1, x2])}
    bad = {"mismatch": ((3,), (4,), 1), "batch_axis": ((3, 4), (3, 4), 0)}
    for name, (shape1, shape2, axes) in bad.items():
        out[name] = catch(lambda: layers.dot([layers.Input(shape1), layers.Input(shape2)],
                                             axes=axes), message=True)
    return out


def case_backend_batch_dot(tf):
    """`K.batch_dot` on placeholders of rank 2 and 3 (where TF 1.x's rule and tf-keras
    2.x's agree): the default axes (x's last with y's second-to-last, or y's last when y
    is 2-D), int and negative axes, and the ValueErrors of bad ranks and axes."""
    backend = tf.keras.backend
    rng = np.random.RandomState(2)
    specs = {"default_3x3": ((2, 3, 4), (2, 4, 5), None),
             "default_3x2": ((2, 3, 4), (2, 4), None),
             "default_2x2": ((2, 4), (2, 4), None),
             "int_axis": ((2, 3, 4), (2, 3, 5), 1),
             "last_axes": ((2, 3, 4), (2, 5, 4), [2, 2]),
             "negative": ((2, 3, 4), (2, 5, 4), [-1, -1]),
             "first_axes": ((2, 3, 4), (2, 3, 5), [1, 1]),
             "matrix_by_rank3": ((2, 3), (2, 3, 5), [1, 1]),
             "rank3_by_matrix_first": ((2, 3, 4), (2, 3), [1, 1])}
    out = {}
    with tf.Session() as sess:
        for name, (shape1, shape2, axes) in sorted(specs.items()):
            x = tf.placeholder(tf.float32, (None,) + shape1[1:])
            y = tf.placeholder(tf.float32, (None,) + shape2[1:])
            z = backend.batch_dot(x, y, axes)
            x1, x2 = _inputs(rng, shape1, shape2)
            out[name] = {"static": describe(z)["shape"],
                         "value": sess.run(z, {x: x1, y: x2})}
    three = tf.placeholder(tf.float32, [None, 3, 4])
    out["rank1"] = catch(lambda: backend.batch_dot(tf.placeholder(tf.float32, [4]), three),
                         message=True)
    out["axis0"] = catch(lambda: backend.batch_dot(three, three, [0, 0]), message=True)
    out["nested_axes"] = catch(lambda: backend.batch_dot(three, three, [[1], [1]]))
    out["mismatch"] = catch(lambda: backend.batch_dot(three, three, [1, 2]), message=True)
    return out
