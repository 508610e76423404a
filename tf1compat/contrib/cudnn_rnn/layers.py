"""TF 1.15's `tf.contrib.cudnn_rnn` layers: CudnnLSTM, CudnnGRU, CudnnRNNTanh,
CudnnRNNRelu (tensorflow/contrib/cudnn_rnn/python/layers/cudnn_rnn.py).

A layer holds one opaque params variable (`<scope>/opaque_kernel`, no static shape) and
runs the CudnnRNN ops over time-major (or, with `time_major=False`, batch-major) input;
its saveable (in the SAVEABLE_OBJECTS collection, so a default `tf.train.Saver` writes it)
checkpoints the params as the TF-canonical weights of the compatible cells as well, so a
checkpoint moves between a CudnnLSTM and a MultiRNNCell of CudnnCompatibleLSTMCell (or
stack_bidirectional_dynamic_rnn of them) both ways. tf1compat runs the layers on the CPU
as on CUDA. Differences from TF 1.15: `time_major=False` without an initial state gives
zero states of the batch's size (TF takes the time dimension for it and fails), and
object-based checkpoints (tf.train.Checkpoint) of the layers raise NotImplementedError.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from tf1compat.contrib.cudnn_rnn import cudnn_rnn_ops
from tf1compat.contrib.cudnn_rnn.cudnn_rnn_ops import (CUDNN_GRU, CUDNN_INPUT_AUTO_MODE,
                                                       CUDNN_INPUT_LINEAR_MODE,
                                                       CUDNN_INPUT_SKIP_MODE, CUDNN_LSTM,
                                                       CUDNN_RNN_RELU,
                                                       CUDNN_RNN_TANH, CUDNN_RNN_UNIDIRECTION)
from tf1compat.framework import dtypes
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.graph import add_to_collection
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.layers.base import Layer
from tf1compat.ops import namespace as ops
from tf1compat.util import tf_logging as logging
from tf1compat.variables.init_ops import Constant, GlorotUniform
from tf1compat.variables.variable_scope import (get_variable, get_variable_scope,
                                                variable_scope)

__all__ = ["CudnnLSTM", "CudnnGRU", "CudnnRNNTanh", "CudnnRNNRelu"]

CUDNN_LSTM_PARAMS_PER_LAYER = cudnn_rnn_ops.CUDNN_LSTM_PARAMS_PER_LAYER
CUDNN_GRU_PARAMS_PER_LAYER = cudnn_rnn_ops.CUDNN_GRU_PARAMS_PER_LAYER
CUDNN_RNN_TANH_PARAMS_PER_LAYER = cudnn_rnn_ops.CUDNN_RNN_TANH_PARAMS_PER_LAYER
CUDNN_RNN_RELU_PARAMS_PER_LAYER = cudnn_rnn_ops.CUDNN_RNN_RELU_PARAMS_PER_LAYER


class _CudnnRNN(Layer):
    """A multi-layer, optionally bidirectional RNN of cuDNN's kind as one layer."""

    _rnn_mode = ""
    _num_params_per_layer = 0
    _saveable_cls: Any = None

    def __init__(self, num_layers: int, num_units: int,
                 input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
                 seed: Optional[int] = None, dtype: Any = dtypes.float32,
                 kernel_initializer: Any = None, bias_initializer: Any = None,
                 name: Optional[str] = None):
        super().__init__(dtype=dtype, name=name)
        cudnn_rnn_ops.check_direction(direction)
        cudnn_rnn_ops.check_input_mode(input_mode)
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
            raise ValueError(f"Only support float16, float32, float64, provided {dtype}")
        self._plain_dtype = dtype
        self._num_layers = num_layers
        self._num_units = num_units
        self._input_mode = input_mode
        self._direction = direction
        self._dropout = dropout
        self._seed = seed
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer
        self._input_size: Optional[int] = None
        self._saveable = None

    @property
    def num_layers(self) -> int:
        return self._num_layers

    @property
    def num_units(self) -> int:
        return self._num_units

    @property
    def input_mode(self) -> str:
        """'linear_input', 'skip_input' or 'auto_select' (the first layer's input)."""
        return self._input_mode

    @property
    def input_size(self) -> int:
        if not self._input_size:
            raise ValueError("'input_size' is unknown since layer has not been built.")
        return self._input_size

    @property
    def rnn_mode(self) -> str:
        """`lstm`, `gru`, `rnn_relu` or `rnn_tanh`."""
        return self._rnn_mode

    @property
    def direction(self) -> str:
        return self._direction

    @property
    def num_dirs(self) -> int:
        return 1 if self._direction == CUDNN_RNN_UNIDIRECTION else 2

    @property
    def saveable(self) -> Any:
        return self._saveable

    @property
    def canonical_weight_shapes(self) -> List[Tuple[int, int]]:
        """Shapes of the cuDNN-canonical weight tensors."""
        if not self._input_size:
            raise RuntimeError(f"{type(self).__name__}.canonical_weight_shapes invoked "
                               "before input shape is known")
        shapes: List[Tuple[int, int]] = []
        for layer in range(self._num_layers):
            shapes.extend(self._canonical_weight_shape(layer))
        return shapes

    @property
    def canonical_bias_shapes(self) -> List[List[int]]:
        """Shapes of the cuDNN-canonical bias tensors."""
        return self._canonical_bias_shape(0) * self._num_layers

    def _update_trainable_weights(self, getter: Any, *args: Any, **kwargs: Any) -> Any:
        variable = getter(*args, **kwargs)
        trainable = kwargs.get("trainable", True)
        if trainable and all(variable is not v for v in self._trainable_weights):
            self._trainable_weights.append(variable)
        elif not trainable and all(variable is not v for v in self._non_trainable_weights):
            self._non_trainable_weights.append(variable)
        return variable

    def build(self, input_shape: Any) -> None:
        """Creates the opaque params variable (the canonical weights drawn from the
        initializers, packed) and the layer's saveable."""
        if self.built:
            return
        input_shape = TensorShape(input_shape)
        if input_shape.ndims != 3:
            raise ValueError(f"Expecting input_shape with 3 dims, got {input_shape.ndims}")
        if input_shape[-1] is None or TensorShape(input_shape).as_list()[-1] is None:
            raise ValueError("The last dimension of the inputs to `CudnnRNN` should be "
                             "defined. Found `None`.")
        self._input_size = input_shape.as_list()[-1]
        self.input_spec = InputSpec(ndim=3, axes={-1: self._input_size})
        self._set_scope(None)
        with variable_scope(self._scope, reuse=self.built,
                            custom_getter=self._update_trainable_weights):
            if self._kernel_initializer is None:
                self._kernel_initializer = GlorotUniform(seed=self._seed,
                                                         dtype=self._plain_dtype)
            if self._bias_initializer is None:
                self._bias_initializer = Constant(0.0, dtype=self._plain_dtype)
            weights = [self._kernel_initializer(sp, dtype=self._plain_dtype)
                       for sp in self.canonical_weight_shapes]
            biases = [self._bias_initializer(sp, dtype=self._plain_dtype)
                      for sp in self.canonical_bias_shapes]
            opaque = self._canonical_to_opaque(weights, biases)
            if get_variable_scope().partitioner is not None:
                logging.warn("Partitioner is not supported for Cudnn RNN layer variables, "
                             "using it will create forward-compatibility issues with "
                             "future CUDA/CuDNN generations.")
            self.kernel = get_variable("opaque_kernel", dtype=self._plain_dtype,
                                       initializer=opaque, validate_shape=False)
        # The saveable sits in the scope outside the layer's, so the compatible cells'
        # graph (built there) restores the checkpoint directly.
        if not (self.built or get_variable_scope().reuse is True):
            self._create_saveable()
        self.built = True

    def _gather_saveables(self) -> Any:
        # (TF 1.15 saves a unidirectional CudnnLSTM's canonical weights through
        # contrib.checkpoint's split dependencies; the other layers raise there too)
        raise NotImplementedError(
            f"{type(self).__name__}: object-based checkpoints (tf.train.Checkpoint) of "
            "tf.contrib.cudnn_rnn layers are not supported by tf1compat; use "
            "tf.train.Saver, which writes the compatible cells' canonical weights")

    def call(self, inputs: Any, initial_state: Any = None, sequence_lengths: Any = None,
             time_major: bool = True, training: bool = True) -> Tuple[Any, Tuple[Any, ...]]:
        """(output [time, batch, dirs * units] (batch-major: [batch, time, ...]), the
        final states as a tuple shaped like `initial_state`: (h, c) for LSTM, (h,) else,
        each [layers * dirs, batch, units])."""
        if initial_state is not None and not isinstance(initial_state, tuple):
            raise TypeError(f"Invalid initial_state type: {initial_state}, expecting "
                            "tuple.")
        dtype = self._plain_dtype
        inputs = ops.convert_to_tensor(inputs, dtype=dtype)
        if initial_state is None:
            initial_state = self._zero_state(ops.shape(inputs)[1 if time_major else 0])
        if self._rnn_mode == CUDNN_LSTM:
            h, c = initial_state
            c = ops.convert_to_tensor(c, dtype=dtype)
        else:
            h, = initial_state
            c = ops.constant([], dtype=dtype)
        h = ops.convert_to_tensor(h, dtype=dtype)
        outputs, output_h, output_c = cudnn_rnn_ops._cudnn_rnn(
            inputs, h, c, self.kernel, training, self._rnn_mode,
            sequence_lengths=sequence_lengths, time_major=time_major,
            input_mode=self._input_mode, direction=self._direction, dropout=self._dropout,
            seed=self._seed)
        if self._rnn_mode == CUDNN_LSTM:
            return outputs, (output_h, output_c)
        return outputs, (output_h,)

    def state_shape(self, batch_size: Any) -> Tuple[List[Any], ...]:
        """The initial states' shapes, [layers * dirs, batch, units] each."""
        shape = [self.num_layers * self.num_dirs, batch_size, self.num_units]
        return (shape, list(shape)) if self._rnn_mode == CUDNN_LSTM else (shape,)

    def _zero_state(self, batch_size: Any) -> Tuple[Any, ...]:
        return tuple(ops.zeros(ops.stack(sp), dtype=self._plain_dtype)
                     for sp in self.state_shape(batch_size))

    def _canonical_weight_shape(self, layer: int) -> List[Tuple[int, int]]:
        if layer < 0 or layer >= self._num_layers:
            raise ValueError(f"'layer' is not valid, got {layer}, expecting [0, "
                             f"{self._num_layers - 1}]")
        units, gates = self._num_units, self._num_params_per_layer // 2
        if layer == 0:
            skip = self._input_mode == CUDNN_INPUT_SKIP_MODE or (
                self._input_mode == CUDNN_INPUT_AUTO_MODE and self._input_size == units)
            width = 0 if skip else self._input_size
        else:
            width = units * self.num_dirs
        shapes = [(units, width)] * gates + [(units, units)] * gates
        return shapes * self.num_dirs

    def _canonical_bias_shape(self, unused_layer: int) -> List[List[int]]:
        return [[self._num_units]] * self.num_dirs * self._num_params_per_layer

    def _canonical_to_opaque(self, cu_weights: List[Any], cu_biases: List[Any]) -> Any:
        return cudnn_rnn_ops.cudnn_rnn_canonical_to_opaque_params(
            rnn_mode=self._rnn_mode, num_layers=self._num_layers,
            num_units=self._num_units, input_size=self._input_size, weights=cu_weights,
            biases=cu_biases, input_mode=self._input_mode, seed=self._seed,
            dropout=self._dropout, direction=self._direction)

    def _create_saveable(self) -> None:
        if self._saveable is not None:
            raise RuntimeError("Cudnn saveable already created.")
        opaque = self.trainable_variables[0]
        self._saveable = self._saveable_cls(
            opaque_params=opaque, num_layers=self.num_layers, num_units=self.num_units,
            input_size=self.input_size, input_mode=self.input_mode,
            direction=self.direction, scope=get_variable_scope(),
            name="%s_saveable" % opaque.name.split(":")[0])
        add_to_collection(GraphKeys.SAVEABLE_OBJECTS, self._saveable)


class CudnnLSTM(_CudnnRNN):
    """`tf.contrib.cudnn_rnn.CudnnLSTM`: cuDNN's LSTM (gates i, f, c, o; no forget bias);
    states (h, c)."""
    _rnn_mode = CUDNN_LSTM
    _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER
    _saveable_cls = cudnn_rnn_ops.CudnnLSTMSaveable


class CudnnGRU(_CudnnRNN):
    """`tf.contrib.cudnn_rnn.CudnnGRU`: cuDNN's GRU (reset gate after the recurrent
    matmul); states (h,)."""
    _rnn_mode = CUDNN_GRU
    _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER
    _saveable_cls = cudnn_rnn_ops.CudnnGRUSaveable


class CudnnRNNTanh(_CudnnRNN):
    """`tf.contrib.cudnn_rnn.CudnnRNNTanh`: h' = tanh(W x + R h + b); states (h,)."""
    _rnn_mode = CUDNN_RNN_TANH
    _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER
    _saveable_cls = cudnn_rnn_ops.CudnnRNNTanhSaveable


class CudnnRNNRelu(_CudnnRNN):
    """`tf.contrib.cudnn_rnn.CudnnRNNRelu`: h' = relu(W x + R h + b); states (h,)."""
    _rnn_mode = CUDNN_RNN_RELU
    _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER
    _saveable_cls = cudnn_rnn_ops.CudnnRNNReluSaveable
