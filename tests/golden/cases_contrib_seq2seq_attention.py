"""Golden cases: `tf.contrib.seq2seq` attention (Bahdanau, Luong, monotonic variants,
AttentionWrapper) decoded by BasicDecoder / dynamic_decode. The oracle is TF 1.15's own
seq2seq modules executed under TF 2.21 (scripts/oracle_contrib.py, `tf115_seq2seq`)."""

import numpy as np

from tests.golden.cases_contrib_seq2seq import seq2seq, set_weights
from tests.golden.harness import catch, tolerance

_MEMORY = np.random.RandomState(7).randn(3, 5, 4).astype(np.float32)
_INPUTS = np.random.RandomState(8).randn(3, 4, 3).astype(np.float32)


def _decode(tf, make_mechanism, wrapper_kwargs=None, cell_fn=None, loss=False,
            memory_length=(5, 3, 2), lengths=(4, 2, 3), impute_finished=True):
    s = seq2seq(tf)
    memory = tf.constant(_MEMORY)
    mechanism = make_mechanism(s, memory, tf.constant(list(memory_length)))
    cell = cell_fn(tf) if cell_fn else tf.nn.rnn_cell.LSTMCell(4)
    kwargs = dict(wrapper_kwargs or {})
    initial = kwargs.pop("initial_cell_state_fn", None)
    if initial is not None:
        kwargs["initial_cell_state"] = initial(tf, cell)
    wrapper = s.AttentionWrapper(cell, mechanism, **kwargs)
    x = tf.constant(_INPUTS)
    decoder = s.BasicDecoder(wrapper, s.TrainingHelper(x, list(lengths)),
                             wrapper.zero_state(3, tf.float32),
                             output_layer=tf.layers.Dense(6))
    outputs, state, seq_len = s.dynamic_decode(decoder, impute_finished=impute_finished)
    fetches = {"rnn_output": outputs.rnn_output, "lengths": seq_len,
               "cell_state": state.cell_state, "attention": state.attention,
               "alignments": state.alignments, "time": state.time}
    history = state.alignment_history
    if history != () and not isinstance(history, tuple):
        fetches["history"] = history.stack()
    elif isinstance(history, tuple) and history and history[0] != ():
        fetches["history"] = [h.stack() for h in history]
    if loss:
        targets = tf.constant(np.array([[1, 2, 3, 4], [5, 0, 0, 0], [2, 2, 1, 0]], np.int32))
        mask = tf.sequence_mask(list(lengths), 4, dtype=tf.float32)
        total = s.sequence_loss(outputs.rnn_output, targets, mask)
        variables = tf.trainable_variables()
        fetches["loss"] = total
        fetches["grads"] = dict(zip([v.name for v in variables],
                                    tf.gradients(total, variables)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=11)
        result = sess.run(fetches)
    result["variables"] = names
    result["static"] = [outputs.rnn_output.shape.as_list(), str(wrapper.output_size),
                        str(wrapper.state_size)]
    return result


def case_bahdanau_attention(tf):
    return _decode(tf, lambda s, m, n: s.BahdanauAttention(5, m, memory_sequence_length=n),
                   {"attention_layer_size": 3, "alignment_history": True})


@tolerance(rtol=1e-4, atol=1e-5)
def case_bahdanau_normalized_training_step(tf):
    return _decode(tf, lambda s, m, n: s.BahdanauAttention(
        5, m, memory_sequence_length=n, normalize=True), {"attention_layer_size": 3},
        loss=True)


def case_bahdanau_no_attention_layer(tf):
    return _decode(tf, lambda s, m, n: s.BahdanauAttention(5, m),
                   {"output_attention": False}, impute_finished=False)


def case_luong_attention(tf):
    return _decode(tf, lambda s, m, n: s.LuongAttention(4, m, memory_sequence_length=n),
                   {"attention_layer_size": 5, "alignment_history": True})


@tolerance(rtol=1e-4, atol=1e-5)
def case_luong_scaled_initial_state_training_step(tf):
    def initial(tf, cell):
        return tf.nn.rnn_cell.LSTMStateTuple(tf.constant(_MEMORY[:, 0]),
                                             tf.constant(_MEMORY[:, 1]))
    return _decode(tf, lambda s, m, n: s.LuongAttention(
        4, m, memory_sequence_length=n, scale=True),
        {"attention_layer_size": 2, "output_attention": False,
         "initial_cell_state_fn": initial}, loss=True)


def case_luong_hardmax_cell_input_fn(tf):
    s = seq2seq(tf)
    return _decode(tf, lambda s2, m, n: s2.LuongAttention(
        4, m, memory_sequence_length=n, probability_fn=s.hardmax),
        {"cell_input_fn": lambda inputs, attention: inputs * 2.0},
        cell_fn=lambda tf: tf.nn.rnn_cell.GRUCell(4))


def case_multiple_mechanisms(tf):
    def both(s, m, n):
        return [s.BahdanauAttention(3, m, memory_sequence_length=n, name="b"),
                s.LuongAttention(4, m, name="l")]
    return _decode(tf, both, {"attention_layer_size": [2, 3], "alignment_history": True})


def case_bahdanau_monotonic_parallel(tf):
    return _decode(tf, lambda s, m, n: s.BahdanauMonotonicAttention(
        5, m, memory_sequence_length=n, score_bias_init=-1.0, normalize=True),
        {"attention_layer_size": 3})


def case_luong_monotonic_hard_and_recursive(tf):
    return {
        "hard": _decode(tf, lambda s, m, n: s.LuongMonotonicAttention(
            4, m, mode="hard", scale=True, score_bias_init=1.0), {"alignment_history": True}),
        "recursive": _decode(tf, lambda s, m, n: s.LuongMonotonicAttention(
            4, m, memory_sequence_length=n, mode="recursive"), {"attention_layer_size": 3}),
    }


def case_attention_functions(tf):
    s = seq2seq(tf)
    rng = np.random.RandomState(4)
    p = tf.constant(rng.uniform(0.05, 0.95, (2, 5)).astype(np.float32))
    prev = tf.constant(np.array([[1, 0, 0, 0, 0], [0.2, 0.3, 0.5, 0, 0]], np.float32))
    x = tf.constant(rng.uniform(0, 1, (2, 5)).astype(np.float32))
    out = {"hardmax": s.hardmax(tf.constant([[1.0, 3.0, 2.0], [5.0, 0.0, 5.0]])),
           "safe_cumprod": s.safe_cumprod(x, axis=1),
           "safe_cumprod_exclusive": s.safe_cumprod(x, axis=1, exclusive=True),
           "safe_cumprod_grad": tf.gradients(tf.reduce_sum(s.safe_cumprod(x, axis=1)), x)[0]}
    for mode in ("recursive", "parallel", "hard"):
        chooser = tf.cast(p > 0.5, tf.float32) if mode == "hard" else p
        out[mode] = s.monotonic_attention(chooser, prev, mode)
    with tf.Session() as sess:
        result = sess.run(out)
    result["bad_mode"] = catch(lambda: s.monotonic_attention(p, prev, "soft"), message=True)
    return result


def case_attention_errors(tf):
    s = seq2seq(tf)
    memory = tf.constant(_MEMORY)
    cell = tf.nn.rnn_cell.LSTMCell(4)
    mechanism = s.LuongAttention(4, memory)
    return {
        "not_mechanism": catch(lambda: s.AttentionWrapper(cell, object()), message=True),
        "both_layers": catch(lambda: s.AttentionWrapper(
            cell, mechanism, attention_layer_size=2, attention_layer=tf.layers.Dense(2)),
            message=True),
        "sizes": catch(lambda: s.AttentionWrapper(cell, mechanism,
                                                  attention_layer_size=[1, 2]), message=True),
        "cell_input_fn": catch(lambda: s.AttentionWrapper(cell, mechanism,
                                                          cell_input_fn=3), message=True),
        "undefined_inner": catch(lambda: s.BahdanauAttention(
            3, tf.placeholder(tf.float32, [None, None, None])), message=True),
        "bad_state": catch(lambda: s.AttentionWrapper(cell, mechanism)(
            tf.zeros([3, 2]), cell.zero_state(3, tf.float32))),
        "luong_units": catch(lambda: s.AttentionWrapper(
            cell, s.LuongAttention(3, memory, name="l3")).call(
                tf.zeros([3, 2]), s.AttentionWrapper(
                    cell, s.LuongAttention(3, memory, name="l4")).zero_state(3, tf.float32))),
        "state_names": list(s.AttentionWrapperState._fields),
    }


def case_attention_wrapper_state_clone(tf):
    s = seq2seq(tf)
    cell = tf.nn.rnn_cell.GRUCell(4)
    wrapper = s.AttentionWrapper(cell, s.BahdanauAttention(3, tf.constant(_MEMORY)))
    state = wrapper.zero_state(3, tf.float32)
    cloned = state.clone(cell_state=tf.ones([3, 4]))
    with tf.Session() as sess:
        value = sess.run(cloned.cell_state)
    return {"cell_state": value, "static": cloned.cell_state.shape.as_list(),
            "bad": catch(lambda: state.clone(cell_state=tf.ones([2, 4])))}


def case_custom_attention_layer(tf):
    """`attention_layer=` a user layer (tanh Dense with bias) instead of attention_layer_size."""
    return _decode(tf, lambda s, m, n: s.BahdanauAttention(5, m, memory_sequence_length=n),
                   {"attention_layer": tf.layers.Dense(3, activation=tf.tanh, name="att")})
