"""Golden cases: patterns from openai/gpt-2 (a small decoder-only language model sampled
token by token) and TF's r1 tutorials (custom Keras layers), restated small.

The sampler case is the shape of gpt-2's sample.py: a `tf.while_loop` whose body runs
the model under `tf.AUTO_REUSE`, keeps the attention keys/values of earlier steps as a
growing loop variable (shape invariants with unknown dimensions), truncates the logits
to the top k (inside a `tf.cond`) or to the nucleus of probability p (sort + cumsum +
gather_nd), and draws the next token with a graph-seeded `tf.multinomial`.
"""

import numpy as np

from tests.golden.harness import catch

_VOCAB, _WIDTH, _HEADS, _CONTEXT = 23, 8, 2, 16


def _layer_norm(tf, x, scope):
    with tf.variable_scope(scope):
        width = x.shape[-1].value
        gain = tf.get_variable("g", [width], initializer=tf.constant_initializer(1))
        bias = tf.get_variable("b", [width], initializer=tf.constant_initializer(0))
        mean = tf.reduce_mean(x, axis=-1, keepdims=True)
        var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * tf.rsqrt(var + 1e-5) * gain + bias


def _dense(tf, x, scope, units):
    """A position-wise projection through a [1, in, out] kernel, as gpt-2 stores them."""
    with tf.variable_scope(scope):
        dims = [tf.shape(x)[i] if d is None else d for i, d in enumerate(x.shape.as_list())]
        kernel = tf.get_variable("w", [1, dims[-1], units],
                                 initializer=tf.random_normal_initializer(stddev=0.3))
        bias = tf.get_variable("b", [units], initializer=tf.constant_initializer(0.1))
        flat = tf.matmul(tf.reshape(x, [-1, dims[-1]]), tf.reshape(kernel, [-1, units]))
        return tf.reshape(flat + bias, dims[:-1] + [units])


def _heads(tf, x):
    batch, steps = tf.shape(x)[0], tf.shape(x)[1]
    split = tf.reshape(x, [batch, steps, _HEADS, _WIDTH // _HEADS])
    return tf.transpose(split, [0, 2, 1, 3])


def _language_model(tf, tokens, past):
    """One transformer block: returns logits [batch, steps, vocab] and this step's
    keys/values [batch, 2, heads, steps, width/heads]."""
    with tf.variable_scope("lm", reuse=tf.AUTO_REUSE):
        offset = 0 if past is None else tf.shape(past)[-2]
        steps = tf.shape(tokens)[1]
        positions = tf.tile(tf.expand_dims(offset + tf.range(steps), 0),
                            [tf.shape(tokens)[0], 1])
        token_table = tf.get_variable("wte", [_VOCAB, _WIDTH],
                                      initializer=tf.random_normal_initializer(stddev=0.5))
        position_table = tf.get_variable("wpe", [_CONTEXT, _WIDTH],
                                         initializer=tf.random_normal_initializer(stddev=0.2))
        h = tf.gather(token_table, tokens) + tf.gather(position_table, positions)
        qkv = _dense(tf, _layer_norm(tf, h, "ln_1"), "qkv", 3 * _WIDTH)
        q, k, v = [_heads(tf, part) for part in tf.split(qkv, 3, axis=2)]
        present = tf.stack([k, v], axis=1)
        if past is not None:
            past_k, past_v = tf.unstack(past, axis=1)
            k, v = tf.concat([past_k, k], axis=-2), tf.concat([past_v, v], axis=-2)
        scores = tf.matmul(q, k, transpose_b=True) * tf.rsqrt(
            tf.cast(v.shape[-1].value, tf.float32))
        queries, keys = tf.shape(scores)[2], tf.shape(scores)[3]
        mask = tf.cast(tf.range(queries)[:, None] >= tf.range(keys) - keys + queries,
                       tf.float32)
        scores = scores * mask - 1e10 * (1 - mask)
        attended = tf.matmul(tf.nn.softmax(scores), v)
        merged = tf.reshape(tf.transpose(attended, [0, 2, 1, 3]),
                            [tf.shape(h)[0], tf.shape(h)[1], _WIDTH])
        h = h + _dense(tf, merged, "proj", _WIDTH)
        h = _layer_norm(tf, h, "ln_f")
        logits = tf.matmul(tf.reshape(h, [-1, _WIDTH]), token_table, transpose_b=True)
        return tf.reshape(logits, [tf.shape(h)[0], tf.shape(h)[1], _VOCAB]), present


def _top_k(tf, logits, k):
    if k == 0:
        return logits

    def truncate():
        kth = tf.nn.top_k(logits, k=k)[0][:, -1, tf.newaxis]
        return tf.where(logits < kth, tf.ones_like(logits) * -1e10, logits)
    return tf.cond(tf.equal(k, 0), lambda: logits, truncate)


def _top_p(tf, logits, p):
    batch = logits.shape.as_list()[0]
    ordered = tf.sort(logits, direction="DESCENDING", axis=-1)
    mass = tf.cumsum(tf.nn.softmax(ordered, axis=-1), axis=-1)
    keep = tf.maximum(tf.reduce_sum(tf.cast(mass <= p, tf.int32), axis=-1) - 1, 0)
    floor = tf.gather_nd(ordered, tf.stack([tf.range(0, batch), keep], axis=-1))
    return tf.where(logits < floor, tf.ones_like(logits) * -1e10, logits)


def _sampler(tf, context, length, temperature, k, p):
    batch = context.shape.as_list()[0]
    past_shape = [batch, 2, _HEADS, None, _WIDTH // _HEADS]

    def body(past, prev, output):
        logits, present = _language_model(tf, prev, past)
        present.set_shape(past_shape)
        logits = logits[:, -1, :] / tf.to_float(temperature)
        logits = _top_p(tf, _top_k(tf, logits, k), p)
        drawn = tf.multinomial(logits, num_samples=1, output_dtype=tf.int32)
        grown = present if past is None else tf.concat([past, present], axis=-2)
        return [grown, drawn, tf.concat([output, drawn], axis=1)]

    first = body(None, context, context)
    _, _, tokens = tf.while_loop(
        cond=lambda *args: True, body=body, maximum_iterations=length - 1,
        loop_vars=first,
        shape_invariants=[tf.TensorShape(past_shape), tf.TensorShape([batch, None]),
                          tf.TensorShape([batch, None])],
        back_prop=False)
    return tokens


def case_gpt2_style_sampling_loop(tf):
    """Seeded sampling (plain, top-k, nucleus) from a context, then the same model's
    logits with and without the cached keys/values."""
    tf.set_random_seed(5)
    context = tf.placeholder(tf.int32, [1, None])
    plain = _sampler(tf, context, length=6, temperature=1.0, k=0, p=1.0)
    top_k = _sampler(tf, context, length=6, temperature=0.7, k=4, p=1.0)
    nucleus = _sampler(tf, context, length=6, temperature=1.0, k=0, p=0.8)
    full, present = _language_model(tf, context, None)
    tail, _ = _language_model(tf, context[:, 2:], present[:, :, :, :2])
    too_many_rows = catch(lambda: _sampler(tf, tf.zeros([2, 3], tf.int32), 3, 1.0, 0, 0.9),
                          message=True)
    names = sorted(v.op.name for v in tf.global_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {context: [[3, 1, 4, 1]]}
        drawn = sess.run([plain, top_k, nucleus], feed)
        again = sess.run(plain, feed)
        logits_full, logits_tail = sess.run([full, tail], feed)
    return {"plain": drawn[0], "top_k": drawn[1], "nucleus": drawn[2], "second_run": again,
            "shapes": [str(plain.shape), str(present.shape)], "variables": names,
            "logits": logits_full, "cached_tail": logits_tail,
            "cache_agrees": bool(np.allclose(logits_full[:, 2:], logits_tail, atol=1e-5)),
            "batched_nucleus": too_many_rows}


def case_keras_layer_add_variable(tf):
    """A custom Keras layer whose build() calls the deprecated add_variable (TF's r1
    custom-layers tutorial): same variables, values and outputs as add_weight."""

    class ScaledDense(tf.keras.layers.Layer):
        def __init__(self, units):
            super(ScaledDense, self).__init__()
            self.units = units

        def build(self, input_shape):
            self.kernel = self.add_variable(
                "kernel", shape=[int(input_shape[-1]), self.units],
                initializer=tf.keras.initializers.RandomNormal(stddev=0.5, seed=3))
            self.scale = self.add_variable("scale", shape=[], trainable=False,
                                           initializer=tf.constant_initializer(2.0))

        def call(self, inputs):
            return tf.matmul(inputs, self.kernel) * self.scale

    layer = ScaledDense(3)
    out = layer(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(out)
    return {"out": value, "trainable": [v.name for v in layer.trainable_variables],
            "non_trainable": [v.name for v in layer.non_trainable_variables]}


def case_shapes_from_sliced_shape_tensors(tf):
    """`tf.shape(x)[i]` of a known dimension is a constant to shape inference (gpt-2's
    shape_list + reshape keeps the static batch size that its top-p sampler needs)."""
    x = tf.placeholder(tf.float32, [1, None, 8])
    n = tf.placeholder(tf.float32, [None, 5])
    dim = lambda i: tf.shape(x)[i]  # noqa: E731
    built = {
        "reshape_all": tf.reshape(x, [dim(0), dim(1), 8]),
        "reshape_rest": tf.reshape(x, [dim(0), -1]),
        "reshape_product": tf.reshape(x, [dim(0), dim(1) * dim(2)]),
        "reshape_scaled": tf.reshape(x, [dim(0) * 2, -1]),
        "reshape_concat": tf.reshape(x, tf.concat([tf.shape(x)[:1], [-1]], 0)),
        "reshape_unknown": tf.reshape(n, [tf.shape(n)[0], 5]),
        "fill": tf.fill([dim(0), 3], 1.0),
        "zeros_stack": tf.zeros(tf.stack([dim(0), 3])),
        "ones": tf.ones([dim(0), 4]),
        "tile": tf.tile(tf.expand_dims(tf.range(3), 0), [dim(0), 1]),
        "broadcast_to": tf.broadcast_to(1.0, [dim(0), 2]),
        "random_normal": tf.random_normal([dim(0), 4]),
        "range_last": tf.range(dim(2)),
        "one_hot_depth": tf.one_hot(tf.zeros([2], tf.int32), dim(2)),
    }
    out = {name: str(t.shape) for name, t in built.items()}
    with tf.Session() as sess:
        out["values"] = sess.run(built["reshape_rest"], {x: np.ones([1, 2, 8])}).shape
    return out
