"""The model builders of `tf.contrib.legacy_seq2seq` (TF 1.15 semantics): the list-of-tensors
decoders (`rnn_decoder`, `attention_decoder` and their embedding variants), the seq2seq
models built from them and `model_with_buckets` — the API of char-rnn, the translation and
chatbot tutorials of TF 1.x.

Variable names, scopes and reuse follow TF 1.15's seq2seq.py so checkpoints written by TF
restore here: every step after the first reuses the decoder's variables, a fed-back output
is embedded under `loop_function` with reuse, the encoder of a non-tied model works on a
deep copy of the cell. A `feed_previous` that is a boolean tensor builds both decoders (the
feeding one first, creating the variables) under one `tf.cond`.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.contrib._sequence_losses import legacy_sequence_loss, sequence_loss_by_example
from tf1compat.contrib.rnn.contrib_cells import (EmbeddingWrapper, OutputProjectionWrapper,
                                                 _Linear)
from tf1compat.ops import namespace as ops
from tf1compat.ops.array_ops import stop_gradient
from tf1compat.ops.cond import cond
from tf1compat.ops.nn_conv import conv2d
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.nn_ops import softmax, xw_plus_b
from tf1compat.ops.reduction_ops import argmax
from tf1compat.rnn.cell_base import RNNCell
from tf1compat.rnn.static import static_rnn
from tf1compat.variables.variable_scope import (get_variable, get_variable_scope,
                                                variable_scope)

__all__ = ["rnn_decoder", "basic_rnn_seq2seq", "tied_rnn_seq2seq", "embedding_rnn_decoder",
           "embedding_rnn_seq2seq", "embedding_tied_rnn_seq2seq", "attention_decoder",
           "embedding_attention_decoder", "embedding_attention_seq2seq",
           "one2many_rnn_seq2seq", "model_with_buckets"]

LoopFunction = Callable[[Any, int], Any]


def _argmax_embedder(embedding: Any, output_projection: Optional[Tuple[Any, Any]],
                     update_embedding: bool) -> LoopFunction:
    """A loop function feeding back the embedding of the previous step's argmax symbol
    (after the optional output projection); without `update_embedding` no gradient
    reaches the embedding through the fed-back symbols."""
    def loop_function(prev: Any, _step: int) -> Any:
        if output_projection is not None:
            prev = xw_plus_b(prev, output_projection[0], output_projection[1])
        embedded = embedding_lookup(embedding, argmax(prev, 1))
        return embedded if update_embedding else stop_gradient(embedded)
    return loop_function


def _check_projection(output_projection: Optional[Tuple[Any, Any]], num_symbols: int,
                      dtype: Any, check_weights: bool = True) -> None:
    if output_projection is None:
        return
    if check_weights:
        weights = ops.convert_to_tensor(output_projection[0], dtype=dtype)
        weights.shape.assert_is_compatible_with([None, num_symbols])
    biases = ops.convert_to_tensor(output_projection[1], dtype=dtype)
    biases.shape.assert_is_compatible_with([num_symbols])


def _decode(feed_previous: Any, build: Callable[[bool, bool], Tuple[List[Any], Any]],
            num_outputs: int, state_structure: Callable[[], Any]) -> Tuple[List[Any], Any]:
    """`build(feeding, update_embedding)` for a Python `feed_previous`; for a boolean
    tensor both decoders under `tf.cond` (the feeding one first, creating the variables,
    the other reusing them; no embedding updates through fed-back symbols), the state
    packed like `state_structure()`."""
    if isinstance(feed_previous, bool):
        return build(feed_previous, True)

    def branch(feeding: bool) -> List[Any]:
        with variable_scope(get_variable_scope(), reuse=None if feeding else True):
            outputs, state = build(feeding, False)
            return list(outputs) + nest.flatten(state)
    merged = cond(feed_previous, lambda: branch(True), lambda: branch(False))
    states = merged[num_outputs:]
    state = states[0]
    structure = state_structure()
    if nest.is_nested(structure):
        state = nest.pack_sequence_as(structure, states)
    return merged[:num_outputs], state


def _embedded_encoder(cell: Any, inputs: Sequence[Any], num_symbols: int,
                      embedding_size: int, dtype: Any) -> Tuple[List[Any], Any]:
    """A static RNN over embedded int32 symbols on a deep copy of `cell` (the encoder gets
    its own weights; `cell` stays unbuilt for the decoder)."""
    encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_symbols,
                                    embedding_size=embedding_size)
    return static_rnn(encoder_cell, list(inputs), dtype=dtype)


def rnn_decoder(decoder_inputs: Sequence[Any], initial_state: Any, cell: Any,
                loop_function: Optional[LoopFunction] = None,
                scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.rnn_decoder`: runs `cell` over the list of
    [batch, input_size] inputs from `initial_state`; with `loop_function`, every step after
    the first takes `loop_function(previous_output, step)` instead of its input."""
    with variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs: List[Any] = []
        prev = None
        for step, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, step)
            if step > 0:
                get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any], cell: Any,
                      dtype: Any = D.float32, scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.basic_rnn_seq2seq`: a static RNN encoder (a copy of
    `cell`, its own weights) whose final state starts `rnn_decoder`."""
    with variable_scope(scope or "basic_rnn_seq2seq"):
        _, encoder_state = static_rnn(copy.deepcopy(cell), list(encoder_inputs), dtype=dtype)
        return rnn_decoder(decoder_inputs, encoder_state, cell)


def tied_rnn_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any], cell: Any,
                     loop_function: Optional[LoopFunction] = None, dtype: Any = D.float32,
                     scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.tied_rnn_seq2seq`: encoder and decoder share the cell's
    weights (one scope, default "tied_rnn_seq2seq", under "combined_tied_rnn_seq2seq")."""
    with variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, encoder_state = static_rnn(cell, list(encoder_inputs), dtype=dtype, scope=scope)
        get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, encoder_state, cell, loop_function=loop_function,
                           scope=scope)


def embedding_rnn_decoder(decoder_inputs: Sequence[Any], initial_state: Any, cell: Any,
                          num_symbols: int, embedding_size: int,
                          output_projection: Optional[Tuple[Any, Any]] = None,
                          feed_previous: bool = False,
                          update_embedding_for_previous: bool = True,
                          scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.embedding_rnn_decoder`: `rnn_decoder` over embedded
    int32 symbols (variable `embedding`); `feed_previous=True` decodes greedily."""
    with variable_scope(scope or "embedding_rnn_decoder") as vscope:
        _check_projection(output_projection, num_symbols, vscope.dtype)
        embedding = get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_argmax_embedder(embedding, output_projection,
                                          update_embedding_for_previous)
                         if feed_previous else None)
        embedded = [embedding_lookup(embedding, symbols) for symbols in decoder_inputs]
        return rnn_decoder(embedded, initial_state, cell, loop_function=loop_function)


def embedding_rnn_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any],
                          cell: Any, num_encoder_symbols: int, num_decoder_symbols: int,
                          embedding_size: int,
                          output_projection: Optional[Tuple[Any, Any]] = None,
                          feed_previous: Any = False, dtype: Any = None,
                          scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq`: embedded encoder and decoder with
    their own embeddings; without `output_projection` the decoder outputs
    `num_decoder_symbols` logits through an OutputProjectionWrapper."""
    with variable_scope(scope or "embedding_rnn_seq2seq") as vscope:
        if dtype is not None:
            vscope.set_dtype(dtype)
        else:
            dtype = vscope.dtype
        _, encoder_state = _embedded_encoder(cell, encoder_inputs, num_encoder_symbols,
                                             embedding_size, dtype)
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)

        def build(feeding: bool, update_embedding: bool) -> Tuple[List[Any], Any]:
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell,
                                         num_decoder_symbols, embedding_size,
                                         output_projection=output_projection,
                                         feed_previous=feeding,
                                         update_embedding_for_previous=update_embedding)
        return _decode(feed_previous, build, len(decoder_inputs), lambda: encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any],
                               cell: Any, num_symbols: int, embedding_size: int,
                               num_decoder_symbols: Optional[int] = None,
                               output_projection: Optional[Tuple[Any, Any]] = None,
                               feed_previous: Any = False, dtype: Any = None,
                               scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.embedding_tied_rnn_seq2seq`: one embedding and one cell
    for encoder and decoder (`tied_rnn_seq2seq` over embedded symbols)."""
    with variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as vscope:
        dtype = vscope.dtype
        _check_projection(output_projection, num_symbols, dtype)
        embedding = get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        embedded_encoder = [embedding_lookup(embedding, x) for x in encoder_inputs]
        embedded_decoder = [embedding_lookup(embedding, x) for x in decoder_inputs]
        if output_projection is None:
            cell = OutputProjectionWrapper(
                cell, num_symbols if num_decoder_symbols is None else num_decoder_symbols)

        def build(feeding: bool, update_embedding: bool) -> Tuple[List[Any], Any]:
            loop_function = (_argmax_embedder(embedding, output_projection, update_embedding)
                             if feeding else None)
            return tied_rnn_seq2seq(embedded_encoder, embedded_decoder, cell,
                                    loop_function=loop_function, dtype=dtype)

        def zero_state() -> Any:
            batch_size = encoder_inputs[0].shape[0]
            for inp in encoder_inputs[1:]:
                batch_size = batch_size.merge_with(inp.shape[0])
            batch_size = batch_size.value
            if batch_size is None:
                batch_size = ops.shape(encoder_inputs[0])[0]
            return cell.zero_state(batch_size, dtype)
        return _decode(feed_previous, build, len(decoder_inputs), zero_state)


def attention_decoder(decoder_inputs: Sequence[Any], initial_state: Any,
                      attention_states: Any, cell: Any, output_size: Optional[int] = None,
                      num_heads: int = 1, loop_function: Optional[LoopFunction] = None,
                      dtype: Any = None, scope: Any = None,
                      initial_state_attention: bool = False) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.attention_decoder`: Bahdanau-style additive attention over
    `attention_states` [batch, length, size] with `num_heads` heads (variables `AttnW_i`,
    `AttnV_i`, `Attention_i/{kernel,bias}`); each step's input is a linear map of the input
    and the previous attention reads, each output a linear map (`AttnOutputProjection`) of
    the cell output and the new reads."""
    if not decoder_inputs:
        raise ValueError("Must provide at least 1 input to attention decoder.")
    if num_heads < 1:
        raise ValueError("With less than 1 heads, use a non-attention decoder.")
    if dimension_value(attention_states.shape[2]) is None:
        raise ValueError(f"Shape[2] of attention_states must be known: "
                         f"{attention_states.shape}")
    if output_size is None:
        output_size = cell.output_size
    with variable_scope(scope or "attention_decoder", dtype=dtype) as vscope:
        dtype = vscope.dtype
        batch_size = ops.shape(decoder_inputs[0])[0]
        attn_length = dimension_value(attention_states.shape[1])
        if attn_length is None:
            attn_length = ops.shape(attention_states)[1]
        attn_size = dimension_value(attention_states.shape[2])
        # [batch, length, 1, size]: a 1x1 convolution applies W_i to every encoder state.
        hidden = ops.reshape(attention_states, [-1, attn_length, 1, attn_size])
        hidden_features, attn_vectors = [], []
        for head in range(num_heads):
            kernel = get_variable(f"AttnW_{head}", [1, 1, attn_size, attn_size], dtype=dtype)
            hidden_features.append(conv2d(hidden, kernel, [1, 1, 1, 1], "SAME"))
            attn_vectors.append(get_variable(f"AttnV_{head}", [attn_size], dtype=dtype))

        def attend(query: Any) -> List[Any]:
            if nest.is_nested(query):
                parts = nest.flatten(query)
                for part in parts:
                    assert part.shape.ndims in (None, 0, 2)
                query = ops.concat(parts, 1)
            reads = []
            for head in range(num_heads):
                with variable_scope(f"Attention_{head}"):
                    y = _Linear(query, attn_size, True)(query)
                    y = ops.cast(ops.reshape(y, [-1, 1, 1, attn_size]), dtype)
                    scores = ops.reduce_sum(
                        attn_vectors[head] * ops.tanh(hidden_features[head] + y), [2, 3])
                    weights = ops.cast(softmax(ops.cast(scores, D.float32)), dtype)
                    read = ops.reduce_sum(
                        ops.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
                    reads.append(ops.reshape(read, [-1, attn_size]))
            return reads

        outputs: List[Any] = []
        prev = None
        attns = [ops.zeros(ops.stack([batch_size, attn_size]), dtype=dtype)
                 for _ in range(num_heads)]
        for attn in attns:
            attn.set_shape([None, attn_size])
        if initial_state_attention:
            attns = attend(initial_state)
        state = initial_state
        for step, inp in enumerate(decoder_inputs):
            if step > 0:
                get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, step)
            input_size = inp.shape.with_rank(2)[1]
            if input_size.value is None:
                raise ValueError(f"Could not infer input size from input: {inp.name}")
            step_inputs = [ops.cast(x, dtype) for x in [inp] + attns]
            cell_output, state = cell(_Linear(step_inputs, input_size.value, True)(step_inputs),
                                      state)
            if step == 0 and initial_state_attention:
                with variable_scope(get_variable_scope(), reuse=True):
                    attns = attend(state)
            else:
                attns = attend(state)
            with variable_scope("AttnOutputProjection"):
                projected = [ops.cast(cell_output, dtype)] + attns
                output = _Linear(projected, output_size, True)(projected)
            if loop_function is not None:
                prev = output
            outputs.append(output)
    return outputs, state


def embedding_attention_decoder(decoder_inputs: Sequence[Any], initial_state: Any,
                                attention_states: Any, cell: Any, num_symbols: int,
                                embedding_size: int, num_heads: int = 1,
                                output_size: Optional[int] = None,
                                output_projection: Optional[Tuple[Any, Any]] = None,
                                feed_previous: bool = False,
                                update_embedding_for_previous: bool = True,
                                dtype: Any = None, scope: Any = None,
                                initial_state_attention: bool = False
                                ) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.embedding_attention_decoder`: `attention_decoder` over
    embedded int32 symbols (variable `embedding`)."""
    if output_size is None:
        output_size = cell.output_size
    _check_projection(output_projection, num_symbols, dtype, check_weights=False)
    with variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
        embedding = get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (_argmax_embedder(embedding, output_projection,
                                          update_embedding_for_previous)
                         if feed_previous else None)
        embedded = [embedding_lookup(embedding, symbols) for symbols in decoder_inputs]
        return attention_decoder(embedded, initial_state, attention_states, cell,
                                 output_size=output_size, num_heads=num_heads,
                                 loop_function=loop_function,
                                 initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any],
                                cell: Any, num_encoder_symbols: int, num_decoder_symbols: int,
                                embedding_size: int, num_heads: int = 1,
                                output_projection: Optional[Tuple[Any, Any]] = None,
                                feed_previous: Any = False, dtype: Any = None,
                                scope: Any = None, initial_state_attention: bool = False
                                ) -> Tuple[List[Any], Any]:
    """`tf.contrib.legacy_seq2seq.embedding_attention_seq2seq`: an embedded static-RNN
    encoder whose outputs are attended by `embedding_attention_decoder` (the model of the
    TF 1.x translation tutorial)."""
    with variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as vscope:
        dtype = vscope.dtype
        encoder_outputs, encoder_state = _embedded_encoder(cell, encoder_inputs,
                                                           num_encoder_symbols,
                                                           embedding_size, dtype)
        attention_states = ops.concat(
            [ops.reshape(out, [-1, 1, cell.output_size]) for out in encoder_outputs], 1)
        output_size = None
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols

        def build(feeding: bool, update_embedding: bool) -> Tuple[List[Any], Any]:
            return embedding_attention_decoder(
                decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols,
                embedding_size, num_heads=num_heads, output_size=output_size,
                output_projection=output_projection, feed_previous=feeding,
                update_embedding_for_previous=update_embedding,
                initial_state_attention=initial_state_attention)
        return _decode(feed_previous, build, len(decoder_inputs), lambda: encoder_state)


def one2many_rnn_seq2seq(encoder_inputs: Sequence[Any], decoder_inputs_dict: Dict[Any, Any],
                         enc_cell: Any, dec_cells_dict: Dict[Any, Any],
                         num_encoder_symbols: int, num_decoder_symbols_dict: Dict[Any, int],
                         embedding_size: int, feed_previous: Any = False, dtype: Any = None,
                         scope: Any = None) -> Tuple[Dict[Any, Any], Dict[Any, Any]]:
    """`tf.contrib.legacy_seq2seq.one2many_rnn_seq2seq`: one embedded encoder, one embedding
    decoder per key (scope `one2many_decoder_<key>`)."""
    if not isinstance(enc_cell, RNNCell):
        raise TypeError(f"enc_cell is not an RNNCell: {type(enc_cell)}")
    if set(dec_cells_dict) != set(decoder_inputs_dict):
        raise ValueError("keys of dec_cells_dict != keys of decodre_inputs_dict")
    for dec_cell in dec_cells_dict.values():
        if not isinstance(dec_cell, RNNCell):
            raise TypeError(f"dec_cell is not an RNNCell: {type(dec_cell)}")
    outputs_dict: Dict[Any, Any] = {}
    state_dict: Dict[Any, Any] = {}
    with variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as vscope:
        dtype = vscope.dtype
        enc_cell = EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
        _, encoder_state = static_rnn(enc_cell, list(encoder_inputs), dtype=dtype)
        for name, decoder_inputs in decoder_inputs_dict.items():
            num_symbols = num_decoder_symbols_dict[name]
            with variable_scope(f"one2many_decoder_{name}"):
                dec_cell = OutputProjectionWrapper(dec_cells_dict[name], num_symbols)

                # TF keeps updating the embedding through fed-back symbols here
                def build(feeding: bool, _update_embedding: bool, inputs: Any = decoder_inputs,
                          cell: Any = dec_cell, symbols: int = num_symbols
                          ) -> Tuple[List[Any], Any]:
                    return embedding_rnn_decoder(inputs, encoder_state, cell, symbols,
                                                 embedding_size, feed_previous=feeding)
                outputs, state = _decode(feed_previous, build, len(decoder_inputs),
                                         lambda: encoder_state)
            outputs_dict[name] = outputs
            state_dict[name] = state
    return outputs_dict, state_dict


def model_with_buckets(encoder_inputs: Sequence[Any], decoder_inputs: Sequence[Any],
                       targets: Sequence[Any], weights: Sequence[Any],
                       buckets: Sequence[Tuple[int, int]],
                       seq2seq: Callable[[Any, Any], Tuple[List[Any], Any]],
                       softmax_loss_function: Optional[Callable[..., Any]] = None,
                       per_example_loss: bool = False,
                       name: Optional[str] = None) -> Tuple[List[Any], List[Any]]:
    """`tf.contrib.legacy_seq2seq.model_with_buckets`: one `seq2seq` model per
    (encoder length, decoder length) bucket over prefixes of the inputs, sharing variables
    (every bucket after the first reuses), with each bucket's sequence loss."""
    if len(encoder_inputs) < buckets[-1][0]:
        raise ValueError(f"Length of encoder_inputs ({len(encoder_inputs)}) must be at least "
                         f"that of last bucket ({buckets[-1][0]}).")
    if len(targets) < buckets[-1][1]:
        raise ValueError(f"Length of targets ({len(targets)}) must be at least that of last "
                         f"bucket ({buckets[-1][1]}).")
    if len(weights) < buckets[-1][1]:
        raise ValueError(f"Length of weights ({len(weights)}) must be at least that of last "
                         f"bucket ({buckets[-1][1]}).")
    losses: List[Any] = []
    outputs: List[Any] = []
    all_inputs = list(encoder_inputs) + list(decoder_inputs) + list(targets) + list(weights)
    loss_fn = sequence_loss_by_example if per_example_loss else legacy_sequence_loss
    with ops.name_scope(name, "model_with_buckets", all_inputs):
        for index, (encoder_length, decoder_length) in enumerate(buckets):
            with variable_scope(get_variable_scope(), reuse=True if index > 0 else None):
                bucket_outputs, _ = seq2seq(encoder_inputs[:encoder_length],
                                            decoder_inputs[:decoder_length])
                outputs.append(bucket_outputs)
                losses.append(loss_fn(bucket_outputs, targets[:decoder_length],
                                      weights[:decoder_length],
                                      softmax_loss_function=softmax_loss_function))
    return outputs, losses
