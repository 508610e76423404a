"""Op rows: the generic Conv op, Dilation2D, ExtractVolumePatches,
CTC decoders, fake quantization and quantize-and-dequantize."""

import numpy as np

from tests.golden.op_harness import err, f32, f64, row

_X = f32(1, 5, 5, 2)
_W = f32(3, 3, 2, 4, seed=1)
_LOGITS = f32(4, 2, 5)
_LENGTHS = np.array([4, 3], np.int32)
_Q = f32(2, 6, lo=-8.0, hi=8.0)

ROWS = [
    row("Conv", input=_X, filter=_W, strides=[1, 1, 1, 1], padding="SAME",
        rtol=1e-4, atol=1e-4),
    row("Conv", input=f32(1, 4, 4, 4, 2), filter=f32(2, 2, 2, 2, 3, seed=1),
        strides=[1, 1, 2, 1, 1], padding="VALID", rtol=1e-4, atol=1e-4),
    row("Dilation2D", input=_X, filter=f32(2, 2, 2, seed=1), strides=[1, 1, 1, 1],
        rates=[1, 2, 2, 1], padding="SAME"),
    row("Dilation2D", input=_X, filter=f32(2, 3, 2, seed=1), strides=[1, 2, 2, 1],
        rates=[1, 1, 1, 1], padding="VALID"),
    row("ExtractVolumePatches", input=f32(1, 4, 4, 4, 2), ksizes=[1, 2, 2, 2, 1],
        strides=[1, 2, 2, 2, 1], padding="VALID"),
    row("ExtractVolumePatches", input=f32(1, 3, 3, 3, 1), ksizes=[1, 2, 2, 2, 1],
        strides=[1, 1, 1, 1, 1], padding="SAME"),
    row("CTCGreedyDecoder", inputs=_LOGITS, sequence_length=_LENGTHS),
    row("CTCGreedyDecoder", inputs=_LOGITS, sequence_length=_LENGTHS, merge_repeated=True,
        blank_index=0),
    row("CTCBeamSearchDecoder", inputs=_LOGITS, sequence_length=_LENGTHS, beam_width=3,
        top_paths=2, rtol=1e-4, atol=1e-4),
    err("CTCBeamSearchDecoder", inputs=_LOGITS, sequence_length=_LENGTHS, beam_width=2,
        top_paths=3),
    row("FakeQuantWithMinMaxArgs", inputs=_Q),
    row("FakeQuantWithMinMaxArgs", inputs=_Q, min=-1.0, max=2.5, num_bits=4,
        narrow_range=True),
    row("FakeQuantWithMinMaxArgsGradient", gradients=f32(2, 6, seed=1), inputs=_Q),
    row("FakeQuantWithMinMaxVars", inputs=_Q, min=np.float32(-3.0), max=np.float32(5.0)),
    row("FakeQuantWithMinMaxVarsGradient", gradients=f32(2, 6, seed=1), inputs=_Q,
        min=np.float32(-3.0), max=np.float32(5.0)),
    row("FakeQuantWithMinMaxVarsPerChannel", inputs=_Q,
        min=np.linspace(-3, -1, 6).astype(np.float32),
        max=np.linspace(1, 6, 6).astype(np.float32), num_bits=6),
    row("FakeQuantWithMinMaxVarsPerChannelGradient", gradients=f32(2, 6, seed=1), inputs=_Q,
        min=np.linspace(-3, -1, 6).astype(np.float32),
        max=np.linspace(1, 6, 6).astype(np.float32)),
    row("QuantizeAndDequantizeV2", input=_Q, input_min=np.float32(-4.0),
        input_max=np.float32(4.0), range_given=True),
    row("QuantizeAndDequantizeV2", input=_Q, input_min=np.float32(0.0),
        input_max=np.float32(0.0), num_bits=4, round_mode="HALF_UP"),
    row("QuantizeAndDequantizeV4", input=_Q, input_min=np.float32(-4.0),
        input_max=np.float32(4.0), range_given=True, narrow_range=True),
    row("QuantizeAndDequantizeV4Grad", gradients=f32(2, 6, seed=1), input=_Q,
        input_min=np.float32(-4.0), input_max=np.float32(4.0), with_grad=False),
]

# NthElement (tf.contrib.nn.nth_element): ties, reverse, a batch, and TF's refusals.
ROWS += [
    row("NthElement", input=np.array([[3., 1., 2., 1.], [0., 5., 5., -1.]], np.float32),
        n=np.int32(1)),
    row("NthElement", input=np.array([[3., 1., 2., 1.], [0., 5., 5., -1.]], np.float32),
        n=np.int32(0), reverse=True),
    row("NthElement", input=f32(2, 3, 6), n=np.int32(5)),
    row("NthElement", input=np.array([4, 9, 2], np.int32), n=np.int32(2), reverse=True),
    err("NthElement", input=f32(2, 3), n=np.int32(3)),
    err("NthElement", input=f32(2, 3), n=np.int32(-1)),
]

# optimize_for_inference's fused convolutions (TF has no gradient for them: the gradient
# records TF's LookupError). Batch 1: TF 2.21's kernels repeat batch element 0's result
# for every element (nn_conv_fused.py), so larger batches would record that.
_PADS = np.array([[0, 0], [1, 2], [2, 1], [0, 0]], np.int32)
_RESIZE_X = f32(1, 4, 5, 3)
_RESIZE_W = f32(3, 3, 3, 2, seed=2)
ROWS += [
    row("FusedPadConv2D", input=_RESIZE_X, paddings=_PADS, filter=_RESIZE_W, mode="REFLECT",
        strides=[1, 1, 1, 1], padding="VALID", rtol=1e-5, atol=1e-5),
    row("FusedPadConv2D", input=_RESIZE_X, paddings=_PADS, filter=_RESIZE_W,
        mode="SYMMETRIC", strides=[1, 2, 1, 1], padding="SAME", rtol=1e-5, atol=1e-5),
    row("FusedPadConv2D", input=f64(1, 3, 3, 2), paddings=_PADS,
        filter=f64(2, 2, 2, 3, seed=1), mode="SYMMETRIC", strides=[1, 1, 2, 1],
        padding="VALID"),
    row("FusedResizeAndPadConv2D", input=_RESIZE_X, size=np.array([7, 9], np.int32),
        paddings=_PADS, filter=_RESIZE_W, mode="REFLECT", strides=[1, 2, 1, 1],
        padding="SAME", rtol=1e-5, atol=1e-5),
    row("FusedResizeAndPadConv2D", input=_RESIZE_X, size=np.array([3, 8], np.int32),
        paddings=_PADS, filter=_RESIZE_W, mode="SYMMETRIC", strides=[1, 1, 1, 1],
        padding="VALID", resize_align_corners=True, rtol=1e-5, atol=1e-5),
    row("FusedResizeAndPadConv2D", input=f64(1, 3, 3, 2), size=np.array([5, 4], np.int32),
        paddings=_PADS, filter=f64(2, 2, 2, 3, seed=1), mode="REFLECT",
        strides=[1, 1, 1, 1], padding="VALID", rtol=1e-6, atol=1e-6),
    err("FusedPadConv2D", input=_RESIZE_X, paddings=np.array([[0, 0], [4, 0], [0, 0], [0, 0]],
                                                              np.int32),
        filter=_RESIZE_W, mode="REFLECT", strides=[1, 1, 1, 1], padding="SAME"),
    err("FusedPadConv2D", input=f32(2, 4, 5, 3), paddings=np.array(
        [[1, 0], [0, 0], [0, 0], [0, 0]], np.int32), filter=_RESIZE_W, mode="REFLECT",
        strides=[1, 1, 1, 1], padding="SAME"),
    err("FusedPadConv2D", input=_RESIZE_X, paddings=_PADS, filter=_RESIZE_W, mode="REFLECT",
        strides=[1, 1, 1, 2], padding="SAME"),
    err("FusedPadConv2D", input=_RESIZE_X, paddings=_PADS, filter=f32(3, 3, 2, 2),
        mode="REFLECT", strides=[1, 1, 1, 1], padding="SAME"),
    err("FusedResizeAndPadConv2D", input=_RESIZE_X, size=np.array([0, 3], np.int32),
        paddings=_PADS, filter=_RESIZE_W, mode="REFLECT", strides=[1, 1, 1, 1],
        padding="SAME"),
]
