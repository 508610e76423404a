"""`tf.keras.layers`: tf-keras's v1 layer names (`experimental.DynamicEmbedding/
DynamicLookup` raise NotImplementedError)."""

# ruff: noqa: F401
from tf1compat.keras.engine.base_layer import (Layer, disable_v2_dtype_behavior,
                                               enable_v2_dtype_behavior)
from tf1compat.keras.layers.advanced import (ELU, LeakyReLU, PReLU, ReLU, Softmax,
                                             ThresholdedReLU)
from tf1compat.keras.layers.attention import AdditiveAttention, Attention
from tf1compat.keras.engine.input_layer import Input, InputLayer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers.conv_depthwise import (DepthwiseConv1D, DepthwiseConv2D,
                                                   SeparableConv1D, SeparableConv2D,
                                                   SeparableConvolution1D,
                                                   SeparableConvolution2D)
from tf1compat.keras.layers.dense_features import DenseFeatures
from tf1compat.keras.layers.conv_transpose import (Conv1DTranspose, Conv2DTranspose,
                                                   Conv3DTranspose, Convolution1DTranspose,
                                                   Convolution2DTranspose,
                                                   Convolution3DTranspose)
from tf1compat.keras.layers.convolutional import (Conv1D, Conv2D, Conv3D, Convolution1D,
                                                  Convolution2D, Convolution3D)
from tf1compat.keras.layers.core import (Activation, Dense, Dropout, Flatten, Identity, Lambda,
                                         Masking, Permute, RepeatVector, Reshape)
from tf1compat.keras.layers.einsum_dense import EinsumDense
from tf1compat.keras.layers.embeddings import Embedding
from tf1compat.keras.layers.locally_connected import LocallyConnected1D, LocallyConnected2D
from tf1compat.keras.layers.merge import (Add, Average, Concatenate, Dot, Maximum, Minimum,
                                          Multiply, Subtract, add, average, concatenate, dot,
                                          maximum, minimum, multiply, subtract)
from tf1compat.keras.layers.multi_head_attention import MultiHeadAttention
from tf1compat.keras.layers.normalization import BatchNormalization, LayerNormalization
from tf1compat.keras.layers.pooling import (AveragePooling1D, AveragePooling2D,
                                            AveragePooling3D, AvgPool1D, AvgPool2D, AvgPool3D,
                                            GlobalAveragePooling1D, GlobalAveragePooling2D,
                                            GlobalAveragePooling3D, GlobalAvgPool1D,
                                            GlobalAvgPool2D, GlobalAvgPool3D,
                                            GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D,
                                            GlobalMaxPooling1D, GlobalMaxPooling2D,
                                            GlobalMaxPooling3D, MaxPool1D, MaxPool2D,
                                            MaxPool3D, MaxPooling1D, MaxPooling2D,
                                            MaxPooling3D)
from tf1compat.keras.layers.regularization import (ActivityRegularization, AlphaDropout,
                                                   GaussianDropout, GaussianNoise,
                                                   SpatialDropout1D, SpatialDropout2D,
                                                   SpatialDropout3D)
from tf1compat.keras.layers.reshaping import (Cropping1D, Cropping2D, Cropping3D, UpSampling1D,
                                              UpSampling2D, UpSampling3D, ZeroPadding1D,
                                              ZeroPadding2D, ZeroPadding3D)
from tf1compat.keras.layers.wrappers import Bidirectional, TimeDistributed, Wrapper
from tf1compat.keras.layers.conv_recurrent import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from tf1compat.keras.layers.preprocessing import (CategoryEncoding, CenterCrop, Discretization,
                                                  Hashing, Normalization, Rescaling, Resizing)
from tf1compat.keras.layers.cudnn_recurrent import CuDNNGRU, CuDNNLSTM
from tf1compat.keras.layers.recurrent import (GRU, LSTM, RNN, GRUCell,
                                              LSTMCell, SimpleRNN, SimpleRNNCell,
                                              StackedRNNCells)
from tf1compat.keras.layers.recurrent_cells import AbstractRNNCell
from tf1compat.keras.layers.serialization import deserialize, serialize
from tf1compat.keras.layers import experimental


def __getattr__(name: str) -> object:
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"tf.keras.layers.{name} is not provided by tf1compat")
