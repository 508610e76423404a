"""cuDNN's fused recurrent layers as TF graphs hold them: `CudnnRNN`, `CudnnRNNV2`,
`CudnnRNNV3` (tf.contrib.cudnn_rnn, tf-keras' CuDNNLSTM/CuDNNGRU and the GPU path of
tf.keras LSTM/GRU), for graphs imported from TF.

TF has these kernels on GPUs only, so no CPU oracle runs them; the op follows TF's
documented canonical weight layout instead and is checked against the equivalent tf.keras
LSTM/GRU/SimpleRNN computation recorded from TF with the same weights
(scripts/record_cudnn_rnn.py, tests/test_cudnn_rnn_ops.py). The opaque `params` buffer
of one unidirectional layer is, as tf-keras' `_canonical_to_params` builds it, the
weight matrices (each [units, input] or [units, units], row-major) then the bias vectors,
concatenated flat, in cuDNN's gate order:

- `lstm`: W_i, W_f, W_c, W_o (input), R_i, R_f, R_c, R_o (recurrent), then the eight
  biases in the same order; i, f, o = sigmoid, c~ = tanh(W_c x + R_c h + b), c' = f c +
  i c~, h' = o tanh(c');
- `gru`: W_r, W_z, W_h, R_r, R_z, R_h, then six biases; r, z = sigmoid, h~ = tanh(W_h x +
  b_Wh + r (R_h h + b_Rh)), h' = (1 - z) h~ + z h;
- `rnn_tanh` / `rnn_relu`: W, R, b_W, b_R; h' = act(W x + b_W + R h + b_R).

Input biases and recurrent biases are both added (so a canonical pair splits one bias
any way). Inputs are time-major `[time, batch, input]` (V3: batch-major when
`time_major=False`); `input_h`/`input_c` are `[layers * directions, batch, units]`.
CudnnRNNV3's `sequence_lengths` stop each sequence's state at its length, and the
outputs past it are zeros (cuDNN's padding fill). The layouts of several layers or of
both directions (pseudo-layers in cuDNN's buffer), `skip_input`, projections
(`num_proj`) and dropout between layers cannot be checked without a GPU: they raise
NotImplementedError naming the case. `reserve_space`/`host_reserved` (opaque state for
TF's backward kernel) come out empty; tf1compat's gradients come from autograd.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__: List[str] = []

# Weight matrices (and bias vectors) per layer and direction of each mode.
_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}

_ATTRS = {"T": Type((D.float16, D.float32, D.float64)),
          "rnn_mode": "lstm", "input_mode": "linear_input", "direction": "unidirectional",
          "dropout": 0.0, "seed": 0, "seed2": 0, "is_training": True}


def _as_str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _unsupported(node: Any, what: str) -> NotImplementedError:
    return NotImplementedError(
        f"{node.type} ({node.name}): {what} is not supported by tf1compat (cuDNN's layout "
        "of it cannot be checked without a GPU; one unidirectional layer of linear_input "
        "is)")


def _split_params(params: torch.Tensor, mode: str, units: int, size: int, node: Any
                  ) -> Tuple[List[torch.Tensor], List[torch.Tensor]]:
    """(input and recurrent weight matrices, bias vectors) of the opaque `params`."""
    gates = _GATES[mode]
    shapes = [(units, size)] * gates + [(units, units)] * gates
    expected = sum(r * c for r, c in shapes) + 2 * gates * units
    if params.numel() != expected:
        raise errors.InvalidArgumentError(
            None, None, f"Invalid params size: {params.numel()} elements for {mode} with "
            f"{units} units and input size {size}, expected {expected} [Op:{node.type}]")
    weights, at = [], 0
    for rows, cols in shapes:
        weights.append(params[at:at + rows * cols].reshape(rows, cols))
        at += rows * cols
    biases = [params[at + k * units:at + (k + 1) * units] for k in range(2 * gates)]
    return weights, biases


def _step(mode: str, x: torch.Tensor, h: torch.Tensor, c: torch.Tensor,
          w: List[torch.Tensor], b: List[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
    """One time step of `mode`: (h', c')."""
    g = len(w) // 2
    wx = [x @ w[k].T + b[k] for k in range(g)]
    rh = [h @ w[g + k].T + b[g + k] for k in range(g)]
    if mode == "lstm":
        i, f = torch.sigmoid(wx[0] + rh[0]), torch.sigmoid(wx[1] + rh[1])
        c = f * c + i * torch.tanh(wx[2] + rh[2])
        return torch.sigmoid(wx[3] + rh[3]) * torch.tanh(c), c
    if mode == "gru":
        r, z = torch.sigmoid(wx[0] + rh[0]), torch.sigmoid(wx[1] + rh[1])
        return (1 - z) * torch.tanh(wx[2] + r * rh[2]) + z * h, c
    act = torch.tanh if mode == "rnn_tanh" else torch.relu
    return act(wx[0] + rh[0]), c


def _kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    a = node.attrs
    mode, direction = _as_str(a["rnn_mode"]), _as_str(a["direction"])
    if mode not in _GATES:
        raise errors.InvalidArgumentError(None, None, f"Invalid rnn_mode: {mode}")
    if direction != "unidirectional":
        raise _unsupported(node, f"direction={direction}")
    if _as_str(a["input_mode"]) == "skip_input":
        raise _unsupported(node, "input_mode=skip_input")
    if int(a.get("num_proj", 0) or 0):
        raise _unsupported(node, "num_proj (an LSTM projection)")
    time_major = bool(a.get("time_major", True))
    lengths_input = node.type == "CudnnRNNV3"

    def run(x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor, params: torch.Tensor,
            *rest: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        if h0.dim() != 3 or h0.shape[0] != 1:
            raise _unsupported(node, f"num_layers * directions = {h0.shape[0]} (several "
                                     "layers)")
        if not time_major:
            x = x.transpose(0, 1)
        steps, batch = x.shape[0], x.shape[1]
        units = h0.shape[-1]
        w, b = _split_params(params.reshape(-1), mode, units, x.shape[-1], node)
        h, c = h0[0], c0[0] if mode == "lstm" else h0[0]
        lengths = rest[0].long() if lengths_input and rest else None
        outputs = []
        for t in range(steps):
            h_next, c_next = _step(mode, x[t], h, c, w, b)
            if lengths is not None:     # past a sequence's length: state kept, output 0
                live = (t < lengths).unsqueeze(1)
                h, c = torch.where(live, h_next, h), torch.where(live, c_next, c)
                outputs.append(torch.where(live, h_next, torch.zeros_like(h_next)))
            else:
                h, c = h_next, c_next
                outputs.append(h)
        out = torch.stack(outputs) if outputs else x.new_zeros((0, batch, units))
        if not time_major:
            out = out.transpose(0, 1)
        c_out = c.unsqueeze(0) if mode == "lstm" else x.new_zeros(())
        empty = x.new_zeros((0,))
        extra = (torch.zeros(0, dtype=torch.int8),) if node.type != "CudnnRNN" else ()
        return (out, h.unsqueeze(0), c_out, empty) + extra
    return run


def _shape(ctx: Any) -> List[TensorShape]:
    x, h = ctx.shape(0), ctx.shape(1)
    units = h[-1] if h.rank is not None else None
    dirs = 2 if _as_str(ctx.attrs["direction"]) == "bidirectional" else 1
    # ([time, batch] or, batch-major, [batch, time], then the units of each direction)
    out = TensorShape([x[0], x[1], None if units is None else units * dirs]) \
        if x.rank is not None else unknown_shape(3)
    c = h if _as_str(ctx.attrs["rnn_mode"]) == "lstm" else unknown_shape()
    extra = [TensorShape(None)] if ctx.op_type != "CudnnRNN" else []
    return [out, h, c, TensorShape(None)] + extra


_OUTPUTS = ["output: T", "output_h: T", "output_c: T", "reserve_space: T"]
declare("CudnnRNN", inputs=["input: T", "input_h: T", "input_c: T", "params: T"],
        outputs=_OUTPUTS, attrs=_ATTRS, shape=_shape, kernel=_kernel, stateful=True)
declare("CudnnRNNV2", inputs=["input: T", "input_h: T", "input_c: T", "params: T"],
        outputs=_OUTPUTS + ["host_reserved: int8"], attrs=_ATTRS, shape=_shape,
        kernel=_kernel, stateful=True)
declare("CudnnRNNV3", inputs=["input: T", "input_h: T", "input_c: T", "params: T",
                              "sequence_lengths: int32"],
        outputs=_OUTPUTS + ["host_reserved: int8"],
        attrs={**_ATTRS, "num_proj": 0, "time_major": True}, shape=_shape, kernel=_kernel,
        stateful=True)
