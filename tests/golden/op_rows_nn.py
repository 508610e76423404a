"""Op rows: activations and their gradient ops, convolutions, pooling, normalization,
softmax and losses, top-k, fused RNN cells."""

import numpy as np

from tests.golden.op_harness import Dyn, err, f16, f32, f64, i32, pos, row

_FEATURES = np.array([[-2.5, -0.7, 0.3], [0.9, 6.5, -0.01]], np.float32)
_GRADS = f32(2, 3, seed=7)

ROWS = [row(op, features=_FEATURES) for op in
        ("Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign")]
ROWS += [
    row("Relu", features=i32(2, 3)),
    row("Relu", features=Dyn(f64(2, 3), (None, None))),
    row("Relu6", features=np.array([-3, 2, 9], np.int32)),
    row("Softplus", features=np.array([-30.0, 30.0, 0.0, 15.0], np.float32)),
    row("LeakyRelu", features=_FEATURES),
    row("LeakyRelu", features=_FEATURES, alpha=0.01),
    row("LeakyRelu", features=f16(4), alpha=0.3, rtol=1e-3, atol=1e-3, grad_rtol=1e-2,
        grad_atol=1e-2),
    # gradient ops: (incoming gradient, forward input or output)
    row("ReluGrad", gradients=_GRADS, features=_FEATURES),
    row("Relu6Grad", gradients=_GRADS, features=_FEATURES),
    row("EluGrad", gradients=_GRADS, outputs=_FEATURES),
    row("SeluGrad", gradients=_GRADS, outputs=_FEATURES),
    row("SoftplusGrad", gradients=_GRADS, features=_FEATURES),
    row("SoftsignGrad", gradients=_GRADS, features=_FEATURES),
    row("LeakyReluGrad", gradients=_GRADS, features=_FEATURES, alpha=0.1),
    row("SigmoidGrad", y=f32(2, 3), dy=_GRADS),
    row("TanhGrad", y=f32(2, 3), dy=_GRADS),
    row("SqrtGrad", y=pos(2, 3), dy=_GRADS),
    row("RsqrtGrad", y=pos(2, 3), dy=_GRADS),
    row("ReciprocalGrad", y=pos(2, 3), dy=_GRADS),
    row("InvGrad", y=pos(2, 3), dy=_GRADS),
    err("ReluGrad", gradients=f32(2, 3), features=f32(3, 2)),
    row("Softmax", logits=f32(2, 4)),
    row("Softmax", logits=f32(2, 2, 3)),
    row("LogSoftmax", logits=f32(3, 4)),
    row("Softmax", logits=np.array([[1000.0, 0.0, -1000.0]], np.float32)),
    err("Softmax", logits=np.float32(1.0)),
    row("SoftmaxCrossEntropyWithLogits", features=f32(3, 4),
        labels=np.array([[0.2, 0.3, 0.5, 0.0], [1, 0, 0, 0], [0.25] * 4], np.float32)),
    # Broadcast labels: TF's gradient function fails on them (ValueError); values only.
    row("SoftmaxCrossEntropyWithLogits", features=f32(3, 4),
        labels=np.array([[0.2, 0.3, 0.5, 0.0]], np.float32), with_grad=False),
    err("SoftmaxCrossEntropyWithLogits", features=f32(3, 4), labels=f32(3, 5)),
    row("SparseSoftmaxCrossEntropyWithLogits", features=f32(3, 4),
        labels=np.array([0, 3, 1], np.int32)),
    row("SparseSoftmaxCrossEntropyWithLogits", features=f64(2, 5),
        labels=np.array([4, 2], np.int64)),
    err("SparseSoftmaxCrossEntropyWithLogits", features=f32(3, 4),
        labels=np.array([0, 4, 1], np.int32)),
    row("L2Loss", t=f32(3, 4)),
    row("BiasAdd", value=f32(2, 3, 4), bias=f32(4, seed=1)),
    row("BiasAdd", value=f32(2, 3, 4, 5), bias=f32(3, seed=1), data_format="NCHW"),
    row("BiasAdd", value=i32(2, 3), bias=np.array([1, 2, 3], np.int32)),
    err("BiasAdd", value=f32(2, 3), bias=f32(4)),
    row("BiasAddGrad", out_backprop=f32(2, 3, 4)),
    row("BiasAddGrad", out_backprop=f32(2, 3, 4, 5), data_format="NCHW"),
    row("LRN", input=f32(1, 2, 2, 6)),
    row("LRN", input=f32(2, 3, 3, 4), depth_radius=2, bias=2.0, alpha=0.5, beta=0.75),
    row("InTopKV2", predictions=f32(3, 5), targets=np.array([0, 4, 2], np.int32),
        k=np.int32(2)),
    row("InTopKV2", predictions=f32(2, 4), targets=np.array([1, 3], np.int64),
        k=np.int64(1)),
    row("TopKV2", input=f32(3, 5), k=np.int32(2)),
    row("TopKV2", input=i32(6, lo=-50, hi=50), k=np.int32(6)),
    # TF's TopK gradient function fails (TypeError) on int64 indices; values only.
    row("TopKV2", input=f32(2, 4), k=np.int32(3), sorted=True, index_type="int64", with_grad=False),
    err("TopKV2", input=f32(2, 4), k=np.int32(5)),
]

# -- convolution and pooling (NHWC unless said) ------------------------------------------------

_IMAGE = f32(2, 5, 5, 3)
_FILTER = f32(3, 3, 3, 4, seed=1)
_STRIDES = [1, 2, 2, 1]

ROWS += [
    row("Conv2D", input=_IMAGE, filter=_FILTER, strides=[1, 1, 1, 1], padding="SAME"),
    row("Conv2D", input=_IMAGE, filter=_FILTER, strides=_STRIDES, padding="VALID"),
    row("Conv2D", input=_IMAGE, filter=_FILTER, strides=_STRIDES, padding="SAME"),
    row("Conv2D", input=_IMAGE, filter=f32(2, 2, 3, 2, seed=1), strides=[1, 1, 1, 1],
        padding="VALID", dilations=[1, 2, 2, 1]),
    row("Conv2D", input=f32(1, 3, 6, 6), filter=f32(3, 3, 3, 2, seed=1), strides=[1, 1, 2, 2],
        padding="SAME", data_format="NCHW"),
    row("Conv2D", input=_IMAGE, filter=f32(2, 2, 3, 2, seed=1), strides=[1, 1, 1, 1],
        padding="EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0]),
    row("Conv2D", input=f64(1, 4, 4, 1), filter=f64(2, 2, 1, 1, seed=1), strides=[1, 1, 1, 1],
        padding="VALID"),
    row("Conv2D", input=Dyn(_IMAGE, (None, None, None, 3)), filter=_FILTER,
        strides=[1, 1, 1, 1], padding="SAME"),
    err("Conv2D", input=_IMAGE, filter=f32(3, 3, 2, 4), strides=[1, 1, 1, 1], padding="SAME"),
    err("Conv2D", input=_IMAGE, filter=_FILTER, strides=[1, 1], padding="SAME"),
    err("Conv2D", input=_IMAGE, filter=_FILTER, strides=[1, 1, 1, 1], padding="FULL"),
    row("Conv2DBackpropInput", input_sizes=np.array([2, 5, 5, 3], np.int32), filter=_FILTER,
        out_backprop=f32(2, 3, 3, 4, seed=2), strides=_STRIDES, padding="SAME"),
    row("Conv2DBackpropInput", input_sizes=np.array([2, 6, 6, 3], np.int32), filter=_FILTER,
        out_backprop=f32(2, 2, 2, 4, seed=2), strides=_STRIDES, padding="VALID"),
    row("Conv2DBackpropFilter", input=_IMAGE, filter_sizes=np.array([3, 3, 3, 4], np.int32),
        out_backprop=f32(2, 3, 3, 4, seed=2), strides=_STRIDES, padding="SAME"),
    row("Conv2DBackpropFilter", input=f32(1, 3, 5, 5),
        filter_sizes=np.array([2, 2, 3, 2], np.int32), out_backprop=f32(1, 2, 4, 4, seed=2),
        strides=[1, 1, 1, 1], padding="VALID", data_format="NCHW"),
    row("DepthwiseConv2dNative", input=_IMAGE, filter=f32(3, 3, 3, 2, seed=1),
        strides=[1, 1, 1, 1], padding="SAME"),
    row("DepthwiseConv2dNative", input=_IMAGE, filter=f32(2, 2, 3, 1, seed=1),
        strides=_STRIDES, padding="VALID"),
    row("DepthwiseConv2dNativeBackpropInput", input_sizes=np.array([2, 5, 5, 3], np.int32),
        filter=f32(3, 3, 3, 2, seed=1), out_backprop=f32(2, 5, 5, 6, seed=2),
        strides=[1, 1, 1, 1], padding="SAME"),
    row("DepthwiseConv2dNativeBackpropFilter", input=_IMAGE,
        filter_sizes=np.array([3, 3, 3, 2], np.int32), out_backprop=f32(2, 3, 3, 6, seed=2),
        strides=_STRIDES, padding="SAME"),
    row("Conv3D", input=f32(1, 4, 4, 4, 2), filter=f32(2, 2, 2, 2, 3, seed=1),
        strides=[1, 1, 1, 1, 1], padding="VALID"),
    row("Conv3D", input=f32(1, 5, 4, 4, 2), filter=f32(3, 3, 3, 2, 2, seed=1),
        strides=[1, 2, 2, 2, 1], padding="SAME"),
    row("Conv3DBackpropInputV2", input_sizes=np.array([1, 4, 4, 4, 2], np.int32),
        filter=f32(2, 2, 2, 2, 3, seed=1), out_backprop=f32(1, 3, 3, 3, 3, seed=2),
        strides=[1, 1, 1, 1, 1], padding="VALID"),
    row("Conv3DBackpropFilterV2", input=f32(1, 4, 4, 4, 2),
        filter_sizes=np.array([2, 2, 2, 2, 3], np.int32), out_backprop=f32(1, 3, 3, 3, 3, seed=2),
        strides=[1, 1, 1, 1, 1], padding="VALID"),
    row("MaxPool", input=_IMAGE, ksize=[1, 2, 2, 1], strides=_STRIDES, padding="VALID"),
    row("MaxPool", input=_IMAGE, ksize=[1, 3, 3, 1], strides=_STRIDES, padding="SAME"),
    row("MaxPool", input=f32(1, 2, 4, 4), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2],
        padding="VALID", data_format="NCHW"),
    row("MaxPool", input=i32(1, 4, 4, 1, lo=-20, hi=20), ksize=[1, 2, 2, 1],
        strides=[1, 2, 2, 1], padding="VALID"),
    err("MaxPool", input=_IMAGE, ksize=[1, 6, 6, 1], strides=[1, 1, 1, 1], padding="VALID"),
    row("AvgPool", value=_IMAGE, ksize=[1, 2, 2, 1], strides=_STRIDES, padding="VALID"),
    row("AvgPool", value=_IMAGE, ksize=[1, 3, 3, 1], strides=_STRIDES, padding="SAME"),
    row("MaxPoolWithArgmax", input=f32(2, 4, 4, 3), ksize=[1, 2, 2, 1], strides=_STRIDES,
        padding="VALID"),
    # TF's gradient kernel rejects these attrs (InvalidArgumentError); values only.
    row("MaxPoolWithArgmax", input=f32(2, 4, 4, 3), ksize=[1, 2, 2, 1], strides=_STRIDES,
        padding="SAME", Targmax="int32", include_batch_in_index=True, with_grad=False),
    row("MaxPool3D", input=f32(1, 4, 4, 4, 2), ksize=[1, 2, 2, 2, 1],
        strides=[1, 2, 2, 2, 1], padding="VALID"),
    row("AvgPool3D", input=f32(1, 4, 4, 4, 2), ksize=[1, 2, 2, 2, 1],
        strides=[1, 1, 2, 2, 1], padding="SAME"),
]

# -- normalization, fused cells, CTC -----------------------------------------------------------
# TF 2.21 registers no gradient for the fused cells (TF 1.15's tf.contrib.rnn did, and
# tf1compat differentiates them as 1.15 did): their rows check values only.

_BN_X = f32(2, 3, 3, 4)
ROWS += [
    row("FusedBatchNormV3", x=_BN_X, scale=pos(4), offset=f32(4, seed=1),
        mean=np.zeros((0,), np.float32), variance=np.zeros((0,), np.float32),
        epsilon=0.001, is_training=True, with_grad=False),
    row("FusedBatchNormV3", x=_BN_X, scale=pos(4), offset=f32(4, seed=1), mean=f32(4, seed=2),
        variance=pos(4, seed=3), epsilon=0.001, is_training=False),
    row("FusedBatchNormV3", x=f32(2, 4, 3, 3), scale=pos(4), offset=f32(4, seed=1),
        mean=f32(4, seed=2), variance=pos(4, seed=3), data_format="NCHW", is_training=False),
    row("FusedBatchNormV3", x=_BN_X, scale=pos(4), offset=f32(4, seed=1), mean=f32(4, seed=2),
        variance=pos(4, seed=3), is_training=True, exponential_avg_factor=0.3, with_grad=False),
    row("LSTMBlockCell", x=f32(2, 3), cs_prev=f32(2, 4, seed=1), h_prev=f32(2, 4, seed=2),
        w=f32(7, 16, seed=3), wci=f32(4, seed=4), wcf=f32(4, seed=5), wco=f32(4, seed=6),
        b=f32(16, seed=7), forget_bias=1.0, cell_clip=-1.0, use_peephole=False, with_grad=False),
    row("LSTMBlockCell", x=f32(2, 3), cs_prev=f32(2, 4, seed=1), h_prev=f32(2, 4, seed=2),
        w=f32(7, 16, seed=3), wci=f32(4, seed=4), wcf=f32(4, seed=5), wco=f32(4, seed=6),
        b=f32(16, seed=7), forget_bias=0.5, cell_clip=0.5, use_peephole=True, with_grad=False),
    row("GRUBlockCell", x=f32(2, 3), h_prev=f32(2, 4, seed=1), w_ru=f32(7, 8, seed=2),
        w_c=f32(7, 4, seed=3), b_ru=f32(8, seed=4), b_c=f32(4, seed=5), with_grad=False),
    row("CTCLoss", inputs=f32(5, 2, 4),
        labels_indices=np.array([[0, 0], [0, 1], [1, 0]], np.int64),
        labels_values=np.array([1, 2, 1], np.int32),
        sequence_length=np.array([5, 4], np.int32), grad_rtol=1e-3, grad_atol=1e-4),
    row("CTCLoss", inputs=f32(4, 1, 3),
        labels_indices=np.array([[0, 0], [0, 1]], np.int64),
        labels_values=np.array([1, 1], np.int32), sequence_length=np.array([4], np.int32),
        preprocess_collapse_repeated=True),
]


# -- the gradient ops of pooling, LRN and batch normalization (in TF's gradient graphs;
# their forward values computed here in numpy) ----------------------------------------------

def _max_pool_2x2(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def _lrn(x: np.ndarray, radius: int, bias: float, alpha: float, beta: float) -> np.ndarray:
    sq = np.square(x.astype(np.float64))
    depth = x.shape[-1]
    window = np.stack([sq[..., max(0, d - radius):d + radius + 1].sum(-1)
                       for d in range(depth)], axis=-1)
    return (x / (bias + alpha * window) ** beta).astype(np.float32)


_POOL_IN = f32(1, 4, 4, 2)
_POOL_GRAD = f32(1, 2, 2, 2, seed=3)
_LRN_IN = f32(1, 2, 2, 5, seed=4)
_BN_GRAD_X = f32(2, 2, 2, 3, seed=5)
_BN_MEAN = _BN_GRAD_X.mean(axis=(0, 1, 2))
_BN_VAR = _BN_GRAD_X.var(axis=(0, 1, 2))
ROWS += [
    row("MaxPoolGrad", orig_input=_POOL_IN, orig_output=_max_pool_2x2(_POOL_IN),
        grad=_POOL_GRAD, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"),
    row("AvgPoolGrad", orig_input_shape=np.array([1, 4, 4, 2], np.int32), grad=_POOL_GRAD,
        ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"),
    row("AvgPoolGrad", orig_input_shape=np.array([1, 5, 5, 1], np.int32),
        grad=f32(1, 3, 3, 1, seed=6), ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
        padding="SAME"),
    row("LRNGrad", input_grads=f32(1, 2, 2, 5, seed=7), input_image=_LRN_IN,
        output_image=_lrn(_LRN_IN, 2, 1.0, 0.5, 0.75), depth_radius=2, bias=1.0, alpha=0.5,
        beta=0.75),
    row("FusedBatchNormGradV3", y_backprop=f32(2, 2, 2, 3, seed=8), x=_BN_GRAD_X,
        scale=np.array([0.5, 1.0, 2.0], np.float32), reserve_space_1=_BN_MEAN,
        reserve_space_2=_BN_VAR, reserve_space_3=np.zeros(0, np.float32), epsilon=0.001,
        is_training=True, checked_outputs=(0, 1, 2)),
    row("FusedBatchNormGradV3", y_backprop=f32(2, 2, 2, 3, seed=8), x=_BN_GRAD_X,
        scale=np.array([0.5, 1.0, 2.0], np.float32), reserve_space_1=_BN_MEAN + 0.1,
        reserve_space_2=_BN_VAR + 0.5, reserve_space_3=np.zeros(0, np.float32),
        epsilon=0.001, is_training=False, checked_outputs=(0, 1, 2)),
]
