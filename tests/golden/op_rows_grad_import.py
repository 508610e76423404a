"""Op rows: ops only TF's own graphs hold, which tf1compat runs for imported graphs: TF's
gradient ops (ops/grad_ops_nn.py, ops/grad_ops_sparse.py), the TF <= 1.13 forward ops
FusedBatchNorm(V2) and MaxPoolV2, and raw ops without a TF 1.x Python API."""

import numpy as np

from tests.golden.op_harness import err, f32, row, strings
from tests.golden.op_rows_strings import example

_X = f32(2, 4, 5, 3)
_SEQ = f32(2, 5, 3, seed=2)
_VOL = f32(1, 4, 4, 4, 2, seed=3)
_BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 0.5, 0.6]], np.float32)
_SCALE = np.array([0.5, 1.0, 2.0], np.float32)
_OFFSET = np.array([0.1, -0.2, 0.3], np.float32)
_MEAN = _X.mean(axis=(0, 1, 2))
_VAR = _X.var(axis=(0, 1, 2))
_SEG_GRAD = f32(3, 4, seed=4)
_SEG_INDICES = np.array([4, 0, 4, 2, 1], np.int32)
_SEG_IDS = np.array([0, 0, 1, 2, 2], np.int32)


def _max_pool_2x2(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x[:, :h // 2 * 2, :w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


_POOL_IN = f32(1, 4, 4, 2, seed=5)
_POOL_OUT = _max_pool_2x2(_POOL_IN)
# Flat NHWC positions of each 2x2 window's maximum (MaxPoolWithArgmax's argmax output).
_WINDOWS = _POOL_IN.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(1, 2, 2, 2, 4)
_BEST = _WINDOWS.argmax(-1)
_ARGMAX = (((np.arange(2)[:, None, None] * 2 + _BEST // 2) * 4 +
            np.arange(2)[None, :, None] * 2 + _BEST % 2) * 2 +
           np.arange(2)[None, None, :]).astype(np.int64)

ROWS = [
    row("StridedSliceGrad", shape=np.array([2, 5, 3], np.int32),
        begin=np.array([0, -1], np.int32), end=np.array([0, 0], np.int32),
        strides=np.array([1, 1], np.int32), dy=f32(2, 3, seed=6), begin_mask=1, end_mask=1,
        shrink_axis_mask=2),
    row("StridedSliceGrad", shape=np.array([2, 5, 3], np.int32),
        begin=np.array([0, 1, 0], np.int32), end=np.array([2, 4, 3], np.int32),
        strides=np.array([1, 2, -1], np.int32), dy=f32(2, 2, 3, seed=7), end_mask=4,
        begin_mask=4),
    row("MirrorPadGrad", input=f32(2, 7, 8, 3, seed=8),
        paddings=np.array([[0, 0], [2, 1], [1, 2], [0, 0]], np.int32), mode="REFLECT"),
    row("MirrorPadGrad", input=f32(2, 6, 8, 3, seed=9),
        paddings=np.array([[0, 0], [1, 1], [3, 0], [0, 0]], np.int32), mode="SYMMETRIC"),
    row("ResizeBilinearGrad", grads=f32(2, 9, 4, 3, seed=10), original_image=_X),
    row("ResizeBilinearGrad", grads=f32(2, 3, 7, 3, seed=11), original_image=_X,
        align_corners=True),
    row("ResizeBilinearGrad", grads=f32(2, 6, 6, 3, seed=12), original_image=_X,
        half_pixel_centers=True),
    row("ResizeBicubicGrad", grads=f32(2, 8, 8, 3, seed=13), original_image=_X),
    row("ResizeNearestNeighborGrad", grads=f32(2, 8, 3, 3, seed=14),
        size=np.array([4, 5], np.int32)),
    row("ResizeNearestNeighborGrad", grads=f32(2, 7, 9, 3, seed=15),
        size=np.array([4, 5], np.int32), half_pixel_centers=True),
    row("CropAndResizeGradImage", grads=f32(2, 3, 4, 3, seed=16), boxes=_BOXES,
        box_ind=np.array([0, 1], np.int32), image_size=np.array([2, 4, 5, 3], np.int32),
        T=np.float32),
    row("CropAndResizeGradBoxes", grads=f32(2, 3, 4, 3, seed=16), image=_X, boxes=_BOXES,
        box_ind=np.array([0, 1], np.int32), rtol=1e-4, atol=1e-5),
    row("MaxPoolGradV2", orig_input=_POOL_IN, orig_output=_POOL_OUT,
        grad=f32(1, 2, 2, 2, seed=17), ksize=np.array([1, 2, 2, 1], np.int32),
        strides=np.array([1, 2, 2, 1], np.int32), padding="VALID"),
    row("MaxPoolGradGrad", orig_input=_POOL_IN, orig_output=_POOL_OUT,
        grad=f32(1, 4, 4, 2, seed=18), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
        padding="VALID"),
    row("MaxPoolGradGradV2", orig_input=_POOL_IN, orig_output=_POOL_OUT,
        grad=f32(1, 4, 4, 2, seed=19), ksize=np.array([1, 2, 2, 1], np.int32),
        strides=np.array([1, 2, 2, 1], np.int32), padding="VALID"),
    row("MaxPoolV2", input=_X, ksize=np.array([1, 2, 2, 1], np.int32),
        strides=np.array([1, 2, 2, 1], np.int32), padding="SAME"),
    row("MaxPool3DGrad", orig_input=_VOL,
        orig_output=_VOL.reshape(1, 2, 2, 2, 2, 2, 2, 2).max(axis=(2, 4, 6)),
        grad=f32(1, 2, 2, 2, 2, seed=20), ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1],
        padding="VALID"),
    row("AvgPool3DGrad", orig_input_shape=np.array([1, 4, 4, 4, 2], np.int32),
        grad=f32(1, 3, 2, 2, 2, seed=21), ksize=[1, 2, 2, 2, 1], strides=[1, 1, 2, 2, 1],
        padding="VALID"),
    row("FusedBatchNorm", x=_X, scale=_SCALE, offset=_OFFSET, mean=np.zeros(0, np.float32),
        variance=np.zeros(0, np.float32), epsilon=0.001),
    row("FusedBatchNorm", x=_X, scale=_SCALE, offset=_OFFSET, mean=_MEAN, variance=_VAR,
        epsilon=0.001, is_training=False),
    row("FusedBatchNormV2", x=_X, scale=_SCALE, offset=_OFFSET,
        mean=np.zeros(0, np.float32), variance=np.zeros(0, np.float32)),
    # with_grad=False: TF's V1/V2 kernels give 0-d reserve outputs whose static shape is
    # [0] (TF's quirk, kept), so the checking interpreter rejects the gradient's Mul of them.
    row("FusedBatchNormGrad", y_backprop=f32(2, 4, 5, 3, seed=22), x=_X, scale=_SCALE,
        reserve_space_1=_MEAN, reserve_space_2=_VAR, epsilon=0.001, rtol=1e-4, atol=1e-5,
        with_grad=False),
    row("FusedBatchNormGradV2", y_backprop=f32(2, 4, 5, 3, seed=23), x=_X, scale=_SCALE,
        reserve_space_1=_MEAN, reserve_space_2=_VAR, epsilon=0.001, is_training=False,
        rtol=1e-4, atol=1e-5, with_grad=False),
    row("MaxPoolGradWithArgmax", input=_POOL_IN, grad=f32(1, 2, 2, 2, seed=24),
        argmax=_ARGMAX, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"),
]

for _kind in ("Sum", "Mean", "SqrtN"):
    ROWS += [
        row(f"SparseSegment{_kind}Grad", grad=_SEG_GRAD, indices=_SEG_INDICES,
            segment_ids=_SEG_IDS, output_dim0=np.int32(6)),
        row(f"SparseSegment{_kind}GradV2", grad=_SEG_GRAD, indices=_SEG_INDICES,
            segment_ids=_SEG_IDS, dense_output_dim0=np.int32(6)),
    ]

_IMAGE = f32(1, 5, 5, 2, seed=25)
_STRUCTURE = f32(2, 2, 2, seed=26)
_DILATION = {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"}
ROWS += [
    row("Dilation2DBackpropInput", input=_IMAGE, filter=_STRUCTURE,
        out_backprop=f32(1, 4, 4, 2, seed=27), **_DILATION),
    row("Dilation2DBackpropFilter", input=_IMAGE, filter=_STRUCTURE,
        out_backprop=f32(1, 4, 4, 2, seed=27), **_DILATION),
    row("SparseAddGrad", backprop_val_grad=np.array([1.0, 2.0, 3.0, 4.0], np.float32),
        a_indices=np.array([[0, 1], [2, 0]], np.int64),
        b_indices=np.array([[0, 1], [1, 1], [3, 3]], np.int64),
        sum_indices=np.array([[0, 1], [1, 1], [2, 0], [3, 3]], np.int64)),
    row("SparseDenseCwiseAdd", sp_indices=np.array([[0, 1], [1, 0], [1, 2]], np.int64),
        sp_values=np.array([1.0, 2.0, 3.0], np.float32),
        sp_shape=np.array([2, 3], np.int64), dense=f32(2, 3, seed=28)),
    row("SparseDenseCwiseAdd", sp_indices=np.array([[0, 1], [1, 0]], np.int64),
        sp_values=np.array([1.0, 2.0], np.float32), sp_shape=np.array([2, 3], np.int64),
        dense=f32(3, seed=29)),
    row("Empty", shape=np.array([2, 3], np.int32), dtype=np.float32, init=True),
    row("CheckNumericsV2", tensor=f32(2, 3, seed=30), message="fine"),
]
for _values in ([1.0, np.inf], [1.0, -np.inf], [np.nan, 0.0], [-np.inf, np.inf, np.nan],
                [np.inf, np.nan]):
    ROWS.append(err("CheckNumericsV2", tensor=np.array(_values, np.float32), message="bad"))

# -- forward ops of older TF versions (ops/legacy_ops.py) --------------------------------------
_EXAMPLES = strings(example(age=[29], score=[0.5, 1.5], tags=[b"a", b"b"]),
                    example(age=[41], tags=[b"c"]), example(score=[2.0, -1.0]))
ROWS += [
    row("BatchMatMul", x=f32(2, 3, 4, seed=31), y=f32(2, 4, 2, seed=32)),
    row("BatchMatMul", x=f32(2, 4, 3, seed=33), y=f32(2, 2, 4, seed=34), adj_x=True,
        adj_y=True),
    row("BatchMatMulV3", x=np.arange(12, dtype=np.int8).reshape(2, 2, 3),
        y=np.arange(12, dtype=np.int8).reshape(2, 3, 2), Tout=np.int32),
    row("Gather", params=f32(5, 3, seed=35), indices=np.array([[4, 0], [2, 2]], np.int32)),
    err("Gather", params=f32(5, 3, seed=35), indices=np.array([7], np.int32)),
    row("Concat", concat_dim=np.int32(1), values=[f32(2, 3, seed=36), f32(2, 1, seed=37)]),
    row("Reverse", tensor=f32(2, 3, 4, seed=38), dims=np.array([True, False, True])),
    row("BiasAddV1", value=f32(2, 3, 4, seed=39), bias=f32(4, seed=40)),
    row("ParseExample", serialized=_EXAMPLES, names=[],
        sparse_keys=[np.array(b"tags", object)],
        dense_keys=[np.array(b"age", object), np.array(b"score", object)],
        dense_defaults=[np.array([-1], np.int64), np.array([0.0, 0.0], np.float32)],
        sparse_types=["string"], dense_shapes=[[1], [2]]),
    row("ParseSingleExample", serialized=_EXAMPLES[0], sparse_keys=["tags"],
        dense_keys=["age", "score"],
        dense_defaults=[np.array([-1], np.int64), np.array([0.0, 0.0], np.float32)],
        num_sparse=1, sparse_types=["string"], dense_shapes=[[1], [2]]),
]
