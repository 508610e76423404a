"""`tf.layers` (TF 1.x graph mode): Keras layers with variable-scope naming and sharing.

    y = tf.layers.dense(x, 10, activation=tf.nn.relu)      # dense/kernel:0, dense/bias:0
    y = tf.layers.conv2d(x, 32, 3, padding="same", name="c1", reuse=tf.AUTO_REUSE)
    y = tf.layers.batch_normalization(y, training=is_training)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)): ...
"""

# ruff: noqa: F401
from tf1compat.layers.base import InputSpec, Layer
from tf1compat.layers.layers import (AveragePooling1D, AveragePooling2D, AveragePooling3D,
                                     BatchNormalization, Conv1D, Conv2D, Conv2DTranspose,
                                     Conv3D, Conv3DTranspose, Dense, Dropout, Flatten,
                                     MaxPooling1D, MaxPooling2D, MaxPooling3D,
                                     SeparableConv1D, SeparableConv2D, average_pooling1d,
                                     average_pooling2d, average_pooling3d,
                                     batch_normalization, conv1d, conv2d, conv2d_transpose,
                                     conv3d, conv3d_transpose, dense, dropout, flatten,
                                     max_pooling1d, max_pooling2d, max_pooling3d,
                                     separable_conv1d, separable_conv2d)

# TF's aliases.
AvgPool2D = AveragePooling2D
MaxPool2D = MaxPooling2D
max_pool2d = max_pooling2d
avg_pool2d = average_pooling2d
BatchNorm = BatchNormalization
batch_norm = batch_normalization
Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
SeparableConvolution2D = SeparableConv2D
Convolution2DTranspose = Deconvolution2D = Deconv2D = Conv2DTranspose
Convolution3DTranspose = Deconvolution3D = Deconv3D = Conv3DTranspose
convolution1d = conv1d
convolution2d = conv2d
convolution3d = conv3d
separable_convolution2d = separable_conv2d
convolution2d_transpose = deconvolution2d = deconv2d = conv2d_transpose
convolution3d_transpose = deconvolution3d = deconv3d = conv3d_transpose
FullyConnected = Dense
fully_connected = dense
from tf1compat.layers import experimental
