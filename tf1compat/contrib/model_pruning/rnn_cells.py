"""`tf.contrib.model_pruning`'s LSTM cells with pruning masks (TF 1.15
layers/rnn_cells.py): `tf.nn.rnn_cell.BasicLSTMCell` / `LSTMCell` whose gates read
`mask * kernel` (`weights/masked_weight`, built once with the cell) instead of the kernel.
After the cell's own variables, `build` adds a non-trainable `mask` of ones shaped
[input depth + num_units, 4 * num_units] and a scalar `threshold` of zero, and registers
mask, masked kernel, threshold and kernel in the pruning collections (once per mask), so
`Pruning` prunes the LSTM's kernel as it does the masked layers'. The projection of
MaskedLSTMCell (`num_proj`) is not masked, as in TF."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib.model_pruning.masked_layers import (MASK_COLLECTION,
                                                           MASKED_WEIGHT_COLLECTION,
                                                           MASKED_WEIGHT_NAME,
                                                           THRESHOLD_COLLECTION,
                                                           WEIGHT_COLLECTION)
from tf1compat.framework.graph import add_to_collection, get_collection_ref
from tf1compat.ops import math_ops
from tf1compat.rnn.cells import BasicLSTMCell, LSTMCell
from tf1compat.variables.init_ops import Ones, Zeros

__all__ = ["MaskedBasicLSTMCell", "MaskedLSTMCell"]


class _Masked:
    """The mask, threshold and masked kernel a masked cell adds after its own build."""

    _kernel: Any
    _num_units: int

    def _build_mask(self, inputs_shape: Any) -> None:
        # The cell's build marked it built, which would make these variables reuse ones.
        self.built = False
        depth = inputs_shape.dims[1].value
        shape = [depth + self._num_units, 4 * self._num_units]
        self._mask = self.add_weight(name="mask", shape=shape, initializer=Ones(),
                                     trainable=False, dtype=self.dtype)
        self._threshold = self.add_weight(name="threshold", shape=[], initializer=Zeros(),
                                          trainable=False, dtype=self.dtype)
        self._masked_kernel = math_ops.multiply(self._mask, self._kernel,
                                                MASKED_WEIGHT_NAME)
        if not any(m is self._mask for m in get_collection_ref(MASK_COLLECTION)):
            add_to_collection(MASK_COLLECTION, self._mask)
            add_to_collection(MASKED_WEIGHT_COLLECTION, self._masked_kernel)
            add_to_collection(THRESHOLD_COLLECTION, self._threshold)
            add_to_collection(WEIGHT_COLLECTION, self._kernel)
        self.built = True

    def _gates_kernel(self) -> Any:
        return self._masked_kernel


class MaskedBasicLSTMCell(_Masked, BasicLSTMCell):
    """`tf.contrib.model_pruning.MaskedBasicLSTMCell`: BasicLSTMCell over its masked
    kernel."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = None, reuse: Any = None, name: Optional[str] = None):
        super().__init__(num_units, forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                         activation=activation, reuse=reuse, name=name)

    def build(self, inputs_shape: Any) -> None:
        super().build(inputs_shape)
        self._build_mask(inputs_shape)


class MaskedLSTMCell(_Masked, LSTMCell):
    """`tf.contrib.model_pruning.MaskedLSTMCell`: LSTMCell (peepholes, clipping,
    projection) over its masked kernel."""

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: Any = None,
                 initializer: Any = None, num_proj: Optional[int] = None,
                 proj_clip: Any = None, num_unit_shards: Optional[int] = None,
                 num_proj_shards: Optional[int] = None, forget_bias: float = 1.0,
                 state_is_tuple: bool = True, activation: Any = None, reuse: Any = None):
        super().__init__(num_units, use_peepholes=use_peepholes, cell_clip=cell_clip,
                         initializer=initializer, num_proj=num_proj, proj_clip=proj_clip,
                         num_unit_shards=num_unit_shards, num_proj_shards=num_proj_shards,
                         forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                         activation=activation, reuse=reuse)

    def build(self, inputs_shape: Any) -> None:
        super().build(inputs_shape)
        self._build_mask(inputs_shape)
