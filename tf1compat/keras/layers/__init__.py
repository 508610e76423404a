"""`tf.keras.layers`: the layer subset TF1 graph-mode code uses."""

# ruff: noqa: F401
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.layers.advanced import (ELU, LeakyReLU, PReLU, ReLU, Softmax,
                                             ThresholdedReLU)
from tf1compat.keras.layers.attention import AdditiveAttention, Attention
from tf1compat.keras.engine.input_layer import Input, InputLayer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers.convolutional import (Conv1D, Conv2D, Conv2DTranspose, Conv3D,
                                                  Conv3DTranspose, Convolution1D,
                                                  Convolution2D, Convolution2DTranspose,
                                                  Convolution3D, Convolution3DTranspose,
                                                  DepthwiseConv2D, SeparableConv1D,
                                                  SeparableConv2D, SeparableConvolution1D,
                                                  SeparableConvolution2D)
from tf1compat.keras.layers.core import (Activation, Dense, Dropout, Flatten, Identity, Lambda,
                                         Masking, Permute, RepeatVector, Reshape)
from tf1compat.keras.layers.embeddings import Embedding
from tf1compat.keras.layers.merge import (Add, Average, Concatenate, Dot, Maximum, Minimum,
                                          Multiply, Subtract, add, average, concatenate, dot,
                                          maximum, minimum, multiply, subtract)
from tf1compat.keras.layers.normalization import BatchNormalization
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
from tf1compat.keras.layers.recurrent import (GRU, LSTM, RNN, ConvLSTM2D,
                                              CuDNNGRU, CuDNNLSTM, GRUCell, LSTMCell,
                                              SimpleRNN, SimpleRNNCell, StackedRNNCells)
from tf1compat.keras.layers.serialization import deserialize, serialize


def __getattr__(name: str) -> object:
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"tf.keras.layers.{name} is not provided by tf1compat")
