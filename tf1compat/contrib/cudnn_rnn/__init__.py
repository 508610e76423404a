"""`tf.contrib.cudnn_rnn` (TF 1.15): the cuDNN RNN layers CudnnLSTM, CudnnGRU, CudnnRNNTanh
and CudnnRNNRelu (tf1compat/contrib/cudnn_rnn/layers.py), the compatible cells, saveables
and params format converters (tf1compat/contrib/cudnn_rnn/cudnn_rnn_ops.py), on the
CudnnRNN ops, which tf1compat runs on the CPU as on CUDA."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.cudnn_rnn.cudnn_rnn_ops import (
    CudnnCompatibleGRUCell, CudnnCompatibleLSTMCell, CudnnGRUSaveable, CudnnLSTMSaveable,
    CudnnParamsFormatConverterGRU, CudnnParamsFormatConverterLSTM,
    CudnnParamsFormatConverterRelu, CudnnParamsFormatConverterTanh, CudnnRNNReluSaveable,
    CudnnRNNTanhSaveable)
from tf1compat.contrib.cudnn_rnn.layers import CudnnGRU, CudnnLSTM, CudnnRNNRelu, CudnnRNNTanh

__getattr__ = _missing("tf.contrib.cudnn_rnn")
