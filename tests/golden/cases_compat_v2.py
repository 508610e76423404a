"""Golden cases: `tf.compat.v2` used from a TF1 graph, as TF 1.14/1.15-era code does
(`import tensorflow.compat.v2 as tf2` beside the v1 API: TensorFlow Probability, libraries
written for both versions). v2's functions take TF 2's arguments and defaults and build
the same graph ops; each case fetches values and describes the tensors (names, dtypes,
shapes) both sides build.
"""

from __future__ import annotations

import numpy as np

from tests.golden.harness import catch, describe

_X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def case_reductions_and_arguments_in_v2_order(tf):
    v2 = tf.compat.v2
    x = tf.constant(_X)
    made = {
        "sum": v2.reduce_sum(x, 1, True),
        "mean": v2.math.reduce_mean(x, axis=0),
        "max": v2.reduce_max(x, [0, 1], False, "max_all"),
        "logsumexp": v2.reduce_logsumexp(x, axis=-1, keepdims=True),
        "any": v2.reduce_any(x > 3.5, 1),
        "argmax": v2.argmax(x, 1, tf.int32),
        "argmin": v2.math.argmin(x, axis=0, output_type=tf.int64),
        "count": v2.math.count_nonzero(x > 0, axis=1, keepdims=True, dtype=tf.int32),
        "in_top_k": v2.math.in_top_k(tf.constant([2, 1]), x, 1),
        "shape": v2.shape(x, tf.int64),
        "size": v2.size(x, out_type=tf.int64),
    }
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made)}


def case_array_functions_with_v2_arguments(tf):
    v2 = tf.compat.v2
    x = tf.constant(_X)
    made = {
        "where_broadcast": v2.where(x > 0, x, tf.constant(0.0)),
        "where_rows": v2.where(tf.constant([[True], [False]]), x, -x),
        "where_indices": v2.where(x > 0),
        "expand": v2.expand_dims(x, 1),
        "gather": v2.gather(x, [[2, 0], [1, 1]], axis=1, batch_dims=1),
        "gather_nd": v2.gather_nd(x, [[1], [0]], batch_dims=0),
        "transpose": v2.transpose(x, [1, 0], False, "t"),
        "pad": v2.pad(x, [[1, 0], [0, 2]], "CONSTANT", 7.0),
        "mask": v2.boolean_mask(x, [True, False, True], axis=1),
        "ones": v2.ones_like(x, tf.int32),
        "zeros": v2.zeros_like(x),
        "squeeze": v2.squeeze(tf.reshape(x, [2, 1, 3]), [1]),
        "b2s": v2.batch_to_space(tf.reshape(tf.range(8.0), [4, 1, 1, 2]), [2, 2],
                                 [[0, 0], [0, 0]]),
        "s2b": v2.space_to_batch(tf.reshape(tf.range(8.0), [1, 2, 2, 2]), [2, 2],
                                 [[0, 0], [0, 0]]),
        "tuple": v2.tuple([x, x * 2.0])[1],
        "convert": v2.convert_to_tensor([1, 2], dtype_hint=tf.float32),
        "constant_reshaped": v2.constant([[1, 2], [3, 4]], shape=[4]),
        "constant_broadcast": v2.constant([7.0], shape=[2, 2]),
    }
    made_v1 = {"v1_padded": tf.constant([1, 2], shape=[3])}
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made),
            "v1": _run(tf, made_v1),
            "constant_padding": catch(lambda: v2.constant([1, 2], shape=[3]))}


def case_nn_functions_with_v2_arguments(tf):
    v2 = tf.compat.v2
    rng = np.random.RandomState(0)
    image = tf.constant(rng.randn(2, 5, 5, 3).astype(np.float32))
    kernel = tf.constant(rng.randn(3, 3, 3, 4).astype(np.float32))
    made = {
        "conv2d": v2.nn.conv2d(image, kernel, 1, "SAME", dilations=2),
        "conv2d_nchw_args": v2.nn.conv2d(input=image, filters=kernel, strides=[1, 2, 2, 1],
                                         padding="VALID"),
        "convolution": v2.nn.convolution(image, kernel, padding="SAME", dilations=[1, 1]),
        "depthwise": v2.nn.depthwise_conv2d(image, tf.constant(
            rng.randn(2, 2, 3, 2).astype(np.float32)), [1, 1, 1, 1], "VALID"),
        "transpose": v2.nn.conv2d_transpose(image, tf.constant(
            rng.randn(2, 2, 6, 3).astype(np.float32)), [2, 10, 10, 6], 2),
        "max_pool_int": v2.nn.max_pool(image, 2, 2, "SAME"),
        "max_pool_1d": v2.nn.max_pool(tf.reshape(image, [2, 25, 3]), 3, 2, "VALID"),
        "avg_pool": v2.nn.avg_pool(image, [1, 3, 3, 1], [1, 1, 1, 1], "VALID"),
        "moments": v2.nn.moments(image, [0, 1, 2], keepdims=True)[1],
        "dropout_none": v2.nn.dropout(image, 0.0),
        "relu6": v2.nn.relu6(image * 4.0),
        "leaky": v2.nn.leaky_relu(image, 0.1),
        "log_softmax": v2.nn.log_softmax(image, axis=1),
        "crelu": v2.nn.crelu(image, axis=1),
        "depth_to_space": v2.nn.depth_to_space(tf.tile(image, [1, 1, 1, 4])[:, :, :, :4], 2),
    }
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made)}


def case_losses_with_v2_semantics(tf):
    """v2's softmax cross-entropy backpropagates into the labels (v1's does not); the
    sparse, sigmoid and weighted forms take v2's argument lists."""
    v2 = tf.compat.v2
    logits = tf.constant(_X)
    labels = tf.constant([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    soft = v2.nn.softmax_cross_entropy_with_logits(labels, logits)
    made = {
        "softmax": soft,
        "softmax_label_grad": tf.gradients(soft, labels)[0],
        "sparse": v2.nn.sparse_softmax_cross_entropy_with_logits([2, 0], logits),
        "sigmoid": v2.nn.sigmoid_cross_entropy_with_logits(labels, logits),
        "weighted": v2.nn.weighted_cross_entropy_with_logits(labels, logits, 2.0),
        "l2": v2.nn.l2_loss(logits),
    }
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made)}


def case_embedding_lookup_of_shards_divides(tf):
    """v2's embedding lookups split ids over shards by "div" (v1's default is "mod")."""
    v2 = tf.compat.v2
    shards = [tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) + 10 * i)
              for i in range(2)]
    ids = tf.constant([0, 2, 3, 5])
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 4, 5], tf.int64),
                             [2, 2])
    made = {"lookup": v2.nn.embedding_lookup(shards, ids),
            "v1_lookup": tf.nn.embedding_lookup(shards, ids),
            "sparse": v2.nn.embedding_lookup_sparse(shards, sparse, None, combiner="sum")}
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made)}


def case_control_flow_keeps_structures(tf):
    """v2's cond is strict (a one-element list stays a list) and v2's while_loop returns
    the loop variables' own structure."""
    v2 = tf.compat.v2
    p = tf.placeholder(tf.bool, [])
    one = v2.cond(p, lambda: [tf.constant(1.0)], lambda: [tf.constant(2.0)])
    pair = v2.cond(p, lambda: (tf.constant(1), tf.constant(2)),
                   lambda: (tf.constant(3), tf.constant(4)), name="pair")
    loop = v2.while_loop(lambda i: i < 5, lambda i: [i + 2], [tf.constant(0)])
    counted = v2.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i),
                            (tf.constant(0), tf.constant(0)), maximum_iterations=3)
    picked = v2.case([(p, lambda: tf.constant(10)), (tf.logical_not(p),
                                                      lambda: tf.constant(20))])
    out = {"one_type": type(one).__name__, "one_len": len(one),
           "loop_type": type(loop).__name__, "pair_type": type(pair).__name__,
           "names": [t.name for t in [one[0], pair[0], loop[0], counted[1], picked]]}
    for value in (True, False):
        out[str(value)] = _run(tf, [one, pair, loop, counted, picked], {p: value})
    return out


def case_variables_are_resource_variables(tf):
    v2 = tf.compat.v2
    v = v2.Variable([1.0, 2.0], name="v2var")
    w = v2.Variable(3.0, False, name="frozen")
    old = tf.Variable(5.0, name="v1var")
    x = tf.placeholder(tf.float32, [2])
    loss = v2.reduce_sum(v * x) + w * old
    grads = v2.gradients(loss, [v, old, w], stop_gradients=[w],
                         unconnected_gradients="zero")
    step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g = sess.run(grads, {x: [1.0, -1.0]})
        sess.run(step, {x: [1.0, -1.0]})
        after = sess.run([v, w, old])
    return {"handle_ops": [v.op.type, w.op.type, old.op.type],
            "names": [v.name, w.name, old.name],
            "trainable": [t.name for t in tf.trainable_variables()],
            "isinstance": [isinstance(t, v2.Variable) for t in (v, w, old)],
            "resource": [type(t).__name__ for t in (v, old)] and
            [hasattr(t, "handle") for t in (v, old)],
            "grads": g, "after": after}


def case_strings_and_parsing_with_v2_arguments(tf):
    v2 = tf.compat.v2
    words = tf.constant(["héllo", "ab", "xyz"])
    made = {
        "length_chars": v2.strings.length(words, "UTF8_CHAR"),
        "length_bytes": v2.strings.length(words),
        "substr": v2.strings.substr(words, 1, 2),
        "to_number": v2.strings.to_number(tf.constant(["1.5", "-2"])),
        "to_int": v2.strings.to_number(tf.constant(["7", "8"]), tf.int64),
        "join": v2.strings.reduce_join(words, 0, separator="-"),
        "bucket": v2.strings.to_hash_bucket_fast(words, 5),
        "raw": v2.io.decode_raw(tf.constant([b"\x01\x00\x02\x00"]), tf.int16),
    }
    return {"tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made)}


def case_keras_recurrent_layers_have_v2_defaults(tf):
    """v2's Keras LSTM/GRU use a sigmoid recurrent activation and GRU resets after the
    recurrent product; the layers' values on fixed weights."""
    v2 = tf.compat.v2
    rng = np.random.RandomState(1)
    seq = tf.constant(rng.randn(2, 4, 3).astype(np.float32))
    lstm = v2.keras.layers.LSTM(5)
    gru = v2.keras.layers.GRU(5, return_sequences=True)
    outs = [lstm(seq), gru(seq)]
    sess = tf.keras.backend.get_session()
    for layer in (lstm, gru):
        layer.set_weights([rng.randn(*w.shape).astype(np.float32) * 0.3
                           for w in layer.get_weights()])
    values = sess.run(outs)
    return {"config": [{k: lstm.get_config()[k] for k in ("recurrent_activation",)},
                       {k: gru.get_config()[k] for k in ("recurrent_activation",
                                                         "reset_after")}],
            "weights": [[w.name for w in layer.weights] for layer in (lstm, gru)],
            "weight_shapes": [[list(w.shape) for w in layer.get_weights()]
                              for layer in (lstm, gru)],
            "values": values}


def case_shared_names_are_v1_objects_and_errors(tf):
    v2 = tf.compat.v2
    return {"shared": [v2.nn.relu is tf.nn.relu, v2.matmul is tf.matmul,
                       v2.data.Dataset.range(3) is not None, v2.float32 is tf.float32,
                       v2.GradientTape is tf.GradientTape],
            "bad_argument": catch(lambda: v2.reduce_sum(tf.constant(_X), keep_dims=True)),
            "missing": catch(lambda: v2.not_a_tf_name)}


def case_image_resize_is_tf2s(tf):
    """TF 2's resize: half-pixel centers, float32 but for nearest, resized even to the same
    size, 3-D images and a kept aspect ratio; the methods as names."""
    v2 = tf.compat.v2
    rng = np.random.RandomState(4)
    image = tf.constant(rng.rand(1, 5, 7, 2).astype(np.float32) * 255.0)
    pixels = tf.constant((rng.rand(4, 6, 3) * 255).astype(np.uint8))
    made = {
        "bilinear": v2.image.resize(image, [8, 3]),
        "nearest": v2.image.resize(image, [3, 9], v2.image.ResizeMethod.NEAREST_NEIGHBOR),
        "bicubic": v2.image.resize(image, [6, 6], method="bicubic"),
        "area": v2.image.resize(image, [2, 3], "area"),
        "same_size": v2.image.resize(image, [5, 7]),
        "uint8_bilinear": v2.image.resize(pixels, [8, 12]),
        "uint8_nearest": v2.image.resize(pixels, [2, 3], "nearest"),
        "aspect": v2.image.resize(image, [10, 10], preserve_aspect_ratio=True),
        "named": v2.image.resize(image, [4, 4], name="shrink"),
    }
    return {"methods": [v2.image.ResizeMethod.BILINEAR, v2.image.ResizeMethod.AREA,
                        v2.image.ResizeMethod.LANCZOS3],
            "tensors": {k: describe(t) for k, t in made.items()}, "values": _run(tf, made),
            "bad_method": catch(lambda: v2.image.resize(image, [2, 2], "cubic"))}


def case_keras_batch_normalization_v2_freezes_when_not_trainable(tf):
    """TF 2's BatchNormalization normalizes with its moving statistics when the layer is
    not trainable, even with training=True (v1's uses the batch's)."""
    v2 = tf.compat.v2
    x = tf.constant(np.random.RandomState(5).randn(4, 3).astype(np.float32) * 3.0 + 1.0)
    frozen_v2 = v2.keras.layers.BatchNormalization(trainable=False)
    frozen_v1 = tf.keras.layers.BatchNormalization(trainable=False)
    live_v2 = v2.keras.layers.BatchNormalization()
    outs = [frozen_v2(x, training=True), frozen_v1(x, training=True), live_v2(x, training=True)]
    return {"values": _run(tf, outs),
            "updates": [len(layer.updates) for layer in (frozen_v2, frozen_v1, live_v2)]}


def case_initializers_are_tf2s(tf):
    """TF 2's initializers: dtype at call time, scale-0.05 defaults, seeded ones stateless
    (the same values in every graph), Constant's dtype from its value."""
    v2 = tf.compat.v2
    seeded = {
        "glorot_uniform": v2.keras.initializers.GlorotUniform(seed=3),
        "glorot_normal": v2.initializers.glorot_normal(seed=4),
        "he_normal": v2.keras.initializers.he_normal(seed=5),
        "lecun_uniform": v2.keras.initializers.lecun_uniform(seed=6),
        "random_normal": v2.random_normal_initializer(seed=7),
        "random_uniform": v2.random_uniform_initializer(seed=8),
        "truncated": v2.keras.initializers.TruncatedNormal(stddev=2.0, seed=9),
        "orthogonal": v2.keras.initializers.Orthogonal(gain=0.5, seed=10),
        "variance_normal": v2.keras.initializers.VarianceScaling(2.0, "fan_out", "normal",
                                                                 seed=11),
    }
    made = {k: init([4, 3]) for k, init in seeded.items()}
    made.update({
        "zeros_int": v2.zeros_initializer()([2], tf.int32),
        "ones": v2.ones_initializer()([2, 2]),
        "constant_int": v2.constant_initializer([1, 2, 3])([3]),
        "constant_float": v2.constant_initializer(2)([2, 2], tf.float64),
        "identity": v2.keras.initializers.Identity(3.0)([2, 3]),
        "variable": tf.get_variable("v", [2, 2], initializer=v2.random_normal_initializer(
            1.0, 2.0, seed=12)),
    })
    first = _run(tf, made)
    with tf.Graph().as_default():
        again = _run(tf, seeded["glorot_uniform"]([4, 3]))
    return {"values": first, "same_in_a_new_graph": bool(np.array_equal(again,
                                                                       first["glorot_uniform"])),
            "dtypes": {k: t.dtype.name for k, t in made.items()},
            "configs": [seeded["random_normal"].get_config(),
                        seeded["variance_normal"].get_config(),
                        v2.constant_initializer(5).get_config()],
            "bad_constant": catch(lambda: v2.constant_initializer([1, 2])([3])),
            "reshaped_constant": _run(tf, v2.constant_initializer([[1, 2], [3, 4]])([4])),
            "unseeded_shape": _run(tf, v2.random_uniform_initializer()([5])).shape}
