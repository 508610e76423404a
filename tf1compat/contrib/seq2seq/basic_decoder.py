"""`tf.contrib.seq2seq.BasicDecoder`: one RNN cell step, an optional output layer, and a
Helper that samples ids and chooses the next inputs (TF 1.15 semantics)."""

from __future__ import annotations

import collections
from typing import Any, Optional

from tf1compat.util import nest
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.rnn.cell_base import assert_like_rnncell
from tf1compat.contrib.seq2seq.decoder import Decoder
from tf1compat.contrib.seq2seq.helper import Helper

__all__ = ["BasicDecoderOutput", "BasicDecoder"]


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    """One step's (or the stacked) outputs of a BasicDecoder."""


class BasicDecoder(Decoder):
    """`cell` run on the helper's inputs from `initial_state`; `output_layer` (e.g. a
    `tf.layers.Dense` projecting to the vocabulary) applies to each step's output."""

    def __init__(self, cell: Any, helper: Helper, initial_state: Any,
                 output_layer: Optional[Layer] = None) -> None:
        assert_like_rnncell("cell", cell)
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        if output_layer is not None and not isinstance(output_layer, Layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    def _rnn_output_size(self) -> Any:
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        with_batch = nest.map_structure(lambda s: TensorShape([None]).concatenate(s), size)
        layer_shape = self._output_layer.compute_output_shape(with_batch)
        return nest.map_structure(lambda s: TensorShape(s)[1:], layer_shape)

    @property
    def output_size(self) -> BasicDecoderOutput:
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self) -> BasicDecoderOutput:
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name: Optional[str] = None) -> Any:
        return tuple(self._helper.initialize()) + (self._initial_state,)

    def step(self, time: Any, inputs: Any, state: Any, name: Optional[str] = None) -> Any:
        with name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished
