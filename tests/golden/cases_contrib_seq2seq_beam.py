"""Golden cases: `tf.contrib.seq2seq` beam search (BeamSearchDecoder, tile_batch,
gather_tree). The oracle is TF 1.15's own seq2seq modules executed under TF 2.21
(scripts/oracle_contrib.py, `tf115_seq2seq`); TF 2.21 has no GatherTree kernel, so the
oracle's gather_tree is contrib's kernel restated in numpy there."""

import numpy as np

from tests.golden.cases_contrib_seq2seq import seq2seq, set_weights
from tests.golden.harness import catch

_MEMORY = np.random.RandomState(7).randn(2, 5, 4).astype(np.float32)


def _beam(tf, beam_width=3, attention=False, maximum_iterations=7, **kwargs):
    s = seq2seq(tf)
    embedding = tf.get_variable("embedding", [9, 4])
    cell = tf.nn.rnn_cell.LSTMCell(5)
    if attention:
        memory = s.tile_batch(tf.constant(_MEMORY), beam_width)
        lengths = s.tile_batch(tf.constant([5, 3]), beam_width)
        mechanism = s.BahdanauAttention(4, memory, memory_sequence_length=lengths)
        cell = s.AttentionWrapper(cell, mechanism, attention_layer_size=3,
                                  alignment_history=True)
    initial = cell.zero_state(2 * beam_width, tf.float32)
    decoder = s.BeamSearchDecoder(cell, embedding, tf.constant([1, 2]), 7, initial,
                                  beam_width, output_layer=tf.layers.Dense(9), **kwargs)
    outputs, state, seq_len = s.dynamic_decode(decoder, maximum_iterations=maximum_iterations)
    fetches = {"predicted_ids": outputs.predicted_ids,
               "scores": outputs.beam_search_decoder_output.scores,
               "parent_ids": outputs.beam_search_decoder_output.parent_ids,
               "step_ids": outputs.beam_search_decoder_output.predicted_ids,
               "log_probs": state.log_probs, "lengths": state.lengths,
               "finished": state.finished, "seq_len": seq_len}
    if attention:
        history = state.cell_state.alignment_history
        # TF 1.15 reorders a TensorArray only when its elements are not [batch * beam, n]
        # with n known, so this history stays a TensorArray (in step order)
        fetches["history_is_array"] = tf.constant(not isinstance(history, tf.Tensor))
        fetches["history"] = history if isinstance(history, tf.Tensor) else history.stack()
        fetches["coverage"] = state.accumulated_attention_probs
        fetches["attention"] = state.cell_state.attention
    else:
        fetches["cell_state"] = state.cell_state
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=21, scale=1.5)
        result = sess.run(fetches)
    result["variables"] = names
    result["static"] = [outputs.predicted_ids.shape.as_list(), outputs.predicted_ids.dtype.name,
                        state.lengths.dtype.name,
                        outputs.beam_search_decoder_output.scores.shape.as_list()]
    return result


def case_beam_search(tf):
    return _beam(tf)


def case_beam_search_length_penalty(tf):
    return _beam(tf, beam_width=4, length_penalty_weight=0.6, maximum_iterations=9)


def case_beam_search_attention_coverage(tf):
    return _beam(tf, attention=True, coverage_penalty_weight=0.4, length_penalty_weight=1.0)


def case_beam_search_attention_no_reorder(tf):
    return _beam(tf, beam_width=2, attention=True, reorder_tensor_arrays=False)


def case_tile_batch(tf):
    s = seq2seq(tf)
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 3, 2))
    nested = s.tile_batch((x, tf.constant([4, 5])), 3)
    unknown = s.tile_batch(tf.placeholder(tf.float32, [None, 4]), 2)
    with tf.Session() as sess:
        values = sess.run(nested)
    return {"values": list(values), "static": [nested[0].shape.as_list(),
                                               unknown.shape.as_list()],
            "name": nested[0].name.split("/")[0],
            "scalar": catch(lambda: s.tile_batch(tf.constant(1.0), 2), message=True)}


def case_gather_tree(tf):
    s = seq2seq(tf)
    step_ids = np.array([[[2, 5, 3], [6, 1, 1]], [[4, 3, 6], [3, 3, 2]],
                         [[6, 2, 5], [1, 4, 2]], [[3, 6, 7], [5, 2, 2]]], np.int32)
    parent_ids = np.array([[[0, 0, 0], [0, 0, 0]], [[2, 0, 1], [1, 1, 0]],
                           [[0, 0, 2], [2, 1, 0]], [[1, 2, 0], [0, 0, 2]]], np.int32)
    out = {}
    with tf.Session() as sess:
        for lengths, end in (([4, 4], 9), ([3, 2], 9), ([4, 0], 3), ([7, 1], 6)):
            beams = s.gather_tree(step_ids, parent_ids, max_sequence_lengths=lengths,
                                  end_token=end)
            out[f"{lengths}_{end}"] = sess.run(beams)
        out["static"] = beams.shape.as_list()
        bad = s.gather_tree(step_ids, parent_ids + 5, [4, 4], 9)
        out["bad_parent"] = catch(lambda: sess.run(bad))
    out["bad_rank"] = catch(lambda: s.gather_tree(step_ids[0], parent_ids[0], [4], 9))
    return out


def case_beam_search_errors(tf):
    s = seq2seq(tf)
    cell = tf.nn.rnn_cell.GRUCell(4)
    emb = tf.ones([6, 3])
    state = cell.zero_state(4, tf.float32)
    return {
        "bad_start": catch(lambda: s.BeamSearchDecoder(cell, emb, [[1]], 2, state, 2),
                           message=True),
        "bad_end": catch(lambda: s.BeamSearchDecoder(cell, emb, [1, 1], [2], state, 2),
                         message=True),
        "bad_layer": catch(lambda: s.BeamSearchDecoder(cell, emb, [1, 1], 2, state, 2,
                                                       output_layer=lambda t: t)),
        "untiled": catch(lambda: s.BeamSearchDecoder(cell, emb, [1, 1], 2,
                                                     cell.zero_state(3, tf.float32), 2)),
        "coverage_no_attention": catch(lambda: s.dynamic_decode(s.BeamSearchDecoder(
            cell, emb, [1, 1], 2, state, 2, coverage_penalty_weight=0.5)), message=True),
        "fields": [list(s.BeamSearchDecoderState._fields),
                   list(s.BeamSearchDecoderOutput._fields),
                   list(s.FinalBeamSearchDecoderOutput._fields)],
    }


def case_beam_search_nmt_style(tf):
    """The NMT tutorial's inference graph: a 2-layer encoder whose final state (a tuple of
    LSTMStateTuples) and outputs are tiled, a MultiRNNCell under Luong attention with
    `output_attention=False`, the zero state cloned with the encoder state, beam search with
    a length penalty. Encoder and decoder weights come from the same seeded stream."""
    s = seq2seq(tf)
    beam_width = 3
    src = tf.constant(np.random.RandomState(3).randn(2, 5, 4).astype(np.float32))
    with tf.variable_scope("encoder"):
        enc_cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(5) for _ in range(2)])
        enc_out, enc_state = tf.nn.dynamic_rnn(enc_cell, src, sequence_length=[5, 3],
                                               dtype=tf.float32)
    memory = s.tile_batch(enc_out, beam_width)
    state = s.tile_batch(enc_state, beam_width)
    lengths = s.tile_batch(tf.constant([5, 3]), beam_width)
    mechanism = s.LuongAttention(5, memory, memory_sequence_length=lengths)
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(5) for _ in range(2)])
    cell = s.AttentionWrapper(cell, mechanism, attention_layer_size=5,
                              output_attention=False)
    initial = cell.zero_state(2 * beam_width, tf.float32).clone(cell_state=state)
    decoder = s.BeamSearchDecoder(cell, tf.get_variable("embedding", [9, 3]), [1, 1], 2,
                                  initial, beam_width, output_layer=tf.layers.Dense(9),
                                  length_penalty_weight=0.8)
    outputs, final, seq_len = s.dynamic_decode(decoder, maximum_iterations=8)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, seed=31, scale=1.2)
        result = sess.run({"predicted_ids": outputs.predicted_ids,
                           "scores": outputs.beam_search_decoder_output.scores,
                           "cell_state": final.cell_state.cell_state,
                           "log_probs": final.log_probs, "seq_len": seq_len})
    result["variables"] = names
    return result
