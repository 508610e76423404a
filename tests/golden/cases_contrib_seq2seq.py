"""Golden cases: `tf.contrib.seq2seq` helpers, BasicDecoder and dynamic_decode. TF 2.x has
no contrib: the oracle is TF 1.15's own seq2seq modules executed under TF 2.21
(scripts/oracle_contrib.py, `tf115_seq2seq`). Weights are set from a seeded numpy stream
after initialization, so both sides decode with the same model."""

import numpy as np

from tests.golden.harness import catch, tolerance


def seq2seq(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.seq2seq
    import oracle_contrib
    return oracle_contrib.tf115_seq2seq(tf)


def set_weights(tf, sess, seed=0, scale=0.6):
    """Deterministic values for every global variable (by sorted name): both sides
    decode with the same model whatever their initializers draw."""
    rng = np.random.RandomState(seed)
    names = []
    for v in sorted(tf.global_variables(), key=lambda v: v.name):
        shape = v.shape.as_list()
        sess.run(v.assign(rng.uniform(-scale, scale, shape).astype(v.dtype.as_numpy_dtype)))
        names.append([v.name, shape])
    return names


def _inputs(batch=3, time=4, depth=5, seed=1):
    return np.random.RandomState(seed).randn(batch, time, depth).astype(np.float32)


def _training(tf, impute_finished=False, output_time_major=False, time_major=False,
              maximum_iterations=None, lengths=(4, 1, 2)):
    s = seq2seq(tf)
    x = _inputs()
    if time_major:
        x = x.transpose(1, 0, 2)
    cell = tf.nn.rnn_cell.LSTMCell(6)
    helper = s.TrainingHelper(tf.constant(x), list(lengths), time_major=time_major)
    decoder = s.BasicDecoder(cell, helper, cell.zero_state(3, tf.float32),
                             output_layer=tf.layers.Dense(7))
    outputs, state, seq_len = s.dynamic_decode(
        decoder, impute_finished=impute_finished, output_time_major=output_time_major,
        maximum_iterations=maximum_iterations)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        o, st, n = sess.run((outputs, state, seq_len))
    return {"rnn_output": o.rnn_output, "sample_id": o.sample_id, "c": st.c, "h": st.h,
            "lengths": n, "variables": names,
            "static": [outputs.rnn_output.shape.as_list(), outputs.sample_id.shape.as_list(),
                       outputs.sample_id.dtype.name, seq_len.dtype.name]}


def case_training_helper_basic_decoder(tf):
    return _training(tf)


def case_training_helper_impute_finished(tf):
    return _training(tf, impute_finished=True)


def case_training_helper_time_major(tf):
    return _training(tf, impute_finished=True, output_time_major=True, time_major=True)


def case_training_helper_maximum_iterations(tf):
    return {"two": _training(tf, maximum_iterations=2),
            "zero_len": _training(tf, impute_finished=True, lengths=(0, 3, 2))}


@tolerance(rtol=1e-4, atol=1e-5)
def case_training_step_loss_and_gradients(tf):
    """A teacher-forced training step: sequence_loss over the decoder's logits, its
    gradients with respect to every variable and to the inputs, one SGD update."""
    s = seq2seq(tf)
    x = tf.constant(_inputs())
    targets = tf.constant(np.array([[1, 2, 3, 4], [5, 6, 0, 0], [2, 2, 1, 0]], np.int32))
    lengths = tf.constant([4, 2, 3])
    with tf.variable_scope("model"):
        cell = tf.nn.rnn_cell.GRUCell(6)
        helper = s.TrainingHelper(x, lengths)
        decoder = s.BasicDecoder(cell, helper, cell.zero_state(3, tf.float32),
                                 output_layer=tf.layers.Dense(7, name="proj"))
        outputs, _, _ = s.dynamic_decode(decoder, impute_finished=True)
    mask = tf.sequence_mask(lengths, 4, dtype=tf.float32)
    loss = s.sequence_loss(outputs.rnn_output, targets, mask)
    variables = tf.trainable_variables()
    grads = tf.gradients(loss, variables + [x])
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=3)
        before, g = sess.run((loss, grads))
        sess.run(train)
        after = sess.run(loss)
    return {"loss": before, "after": after, "variables": names,
            "grads": {v.name: gv for v, gv in zip(variables + [x], g)}}


def _embedding_decoder(tf, helper_fn, maximum_iterations=6, impute_finished=False):
    s = seq2seq(tf)
    embedding = tf.get_variable("embedding", [8, 5])
    cell = tf.nn.rnn_cell.GRUCell(6)
    helper = helper_fn(s, embedding)
    decoder = s.BasicDecoder(cell, helper, cell.zero_state(3, tf.float32),
                             output_layer=tf.layers.Dense(8, use_bias=False))
    outputs, state, seq_len = s.dynamic_decode(decoder, maximum_iterations=maximum_iterations,
                                               impute_finished=impute_finished)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=5, scale=2.0)
        o, st, n = sess.run((outputs, state, seq_len))
    return {"rnn_output": o.rnn_output, "sample_id": o.sample_id, "state": st,
            "lengths": n, "variables": names}


def case_greedy_embedding_helper(tf):
    return _embedding_decoder(
        tf, lambda s, emb: s.GreedyEmbeddingHelper(emb, [1, 2, 3], 4))


def case_greedy_embedding_helper_impute(tf):
    return _embedding_decoder(
        tf, lambda s, emb: s.GreedyEmbeddingHelper(emb, tf.constant([0, 5, 7]), 3),
        maximum_iterations=tf.constant(9), impute_finished=True)


def case_greedy_embedding_callable(tf):
    return _embedding_decoder(
        tf, lambda s, emb: s.GreedyEmbeddingHelper(
            lambda ids: tf.nn.embedding_lookup(emb, ids) * 2.0, [1, 1, 6], 2))


def case_scheduled_embedding_probability_zero(tf):
    """Probability 0: every row reads the ground truth (sample ids are -1)."""
    def helper(s, emb):
        return s.ScheduledEmbeddingTrainingHelper(tf.constant(_inputs()), [4, 2, 3], emb, 0.0)
    return _embedding_decoder(tf, helper, maximum_iterations=None)


def case_inference_helper(tf):
    """InferenceHelper: the sigmoid of the outputs is fed back; a row stops where its
    first output is above 0.6."""
    def helper(s, emb):
        return s.InferenceHelper(
            sample_fn=lambda outputs: tf.sigmoid(outputs[:, :5]), sample_shape=[5],
            sample_dtype=tf.float32, start_inputs=tf.zeros([3, 5]),
            end_fn=lambda ids: ids[:, 0] > 0.5)
    return _embedding_decoder(tf, helper, maximum_iterations=5)


def case_custom_helper(tf):
    """CustomHelper reading the inputs in reverse and stopping at time 2."""
    x = tf.constant(_inputs())

    def helper(s, emb):
        return s.CustomHelper(
            initialize_fn=lambda: (tf.zeros([3], tf.bool), x[:, 3]),
            sample_fn=lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
            next_inputs_fn=lambda time, outputs, state, sample_ids: (
                tf.fill([3], time + 1 >= 3), x[:, tf.maximum(2 - time, 0)], state))
    return _embedding_decoder(tf, helper, maximum_iterations=None)


def case_decoder_static_shapes_and_errors(tf):
    s = seq2seq(tf)
    cell = tf.nn.rnn_cell.BasicRNNCell(4)
    x = tf.placeholder(tf.float32, [None, None, 3])
    n = tf.placeholder(tf.int32, [None])
    d = s.BasicDecoder(cell, s.TrainingHelper(x, n), cell.zero_state(tf.shape(x)[0],
                                                                     tf.float32))
    outputs, state, lengths = s.dynamic_decode(d, scope="dec")
    emb = tf.ones([5, 3])
    return {
        "shapes": [outputs.rnn_output.shape.as_list(), outputs.sample_id.shape.as_list(),
                   state.shape.as_list(), lengths.shape.as_list()],
        "output_size": [str(d.output_size.rnn_output), str(d.output_size.sample_id)],
        "names": [outputs.rnn_output.name.split("/")[0], lengths.name.split("/")[0]],
        "bad_length": catch(lambda: s.TrainingHelper(x, [[1]]), message=True),
        "bad_start": catch(lambda: s.GreedyEmbeddingHelper(emb, [[1]], 0), message=True),
        "bad_end": catch(lambda: s.GreedyEmbeddingHelper(emb, [1], [0]), message=True),
        "bad_helper": catch(lambda: s.BasicDecoder(cell, object(), None)),
        "bad_layer": catch(lambda: s.BasicDecoder(cell, s.TrainingHelper(x, n), None,
                                                  output_layer=lambda t: t)),
        "bad_probability": catch(lambda: s.ScheduledEmbeddingTrainingHelper(
            x, n, emb, [[0.5]]), message=True),
        "bad_max_iter": catch(lambda: s.dynamic_decode(d, maximum_iterations=[3, 4]),
                              message=True),
    }


def case_sample_embedding_helper_cold(tf):
    """A near-zero softmax temperature: sampling picks the argmax (deterministic)."""
    return _embedding_decoder(
        tf, lambda s, emb: s.SampleEmbeddingHelper(emb, [1, 2, 3], 4,
                                                   softmax_temperature=1e-4, seed=3))


def _scheduled_output(tf, probability, next_inputs_fn=None, auxiliary=False):
    s = seq2seq(tf)
    x = _inputs(depth=2 if auxiliary else 4)
    aux = tf.constant(_inputs(depth=2, seed=9)) if auxiliary else None
    cell = tf.nn.rnn_cell.GRUCell(5)
    helper = s.ScheduledOutputTrainingHelper(tf.constant(x), [4, 2, 3], probability,
                                             next_inputs_fn=next_inputs_fn,
                                             auxiliary_inputs=aux)
    decoder = s.BasicDecoder(cell, helper, cell.zero_state(3, tf.float32),
                             output_layer=tf.layers.Dense(2 if auxiliary else 4))
    outputs, state, seq_len = s.dynamic_decode(decoder)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=13)
        o, st, n = sess.run((outputs, state, seq_len))
    return {"rnn_output": o.rnn_output, "sample_id": o.sample_id, "state": st, "lengths": n,
            "variables": names}


def case_scheduled_output_training_helper(tf):
    return {"never": _scheduled_output(tf, 0.0),
            "always": _scheduled_output(tf, 1.0),
            "always_fn_aux": _scheduled_output(tf, 1.0, next_inputs_fn=tf.tanh,
                                               auxiliary=True),
            "never_aux": _scheduled_output(tf, 0.0, auxiliary=True)}
