"""cuDNN's fused recurrent layers as TF graphs hold them: `CudnnRNN`, `CudnnRNNV2`,
`CudnnRNNV3`, their backprops `CudnnRNNBackprop(V2/V3)` (what TF's gradient of them
writes into a training graph) and the parameter-buffer ops `CudnnRNNParamsSize`,
`CudnnRNNParamsToCanonical(V2)` and `CudnnRNNCanonicalToParams(V2)` — for
tf.contrib.cudnn_rnn, tf-keras' CuDNNLSTM/CuDNNGRU, the GPU path of tf.keras LSTM/GRU and
graphs imported from TF.

TF has these kernels on GPUs only, so no CPU oracle runs them; the ops follow cuDNN's
documented equations and TF's canonical weight layout and are checked against the
equivalent tf.nn cells (and tf.keras layers) that TF computed with the same weights
(scripts/record_cudnn_rnn.py, tests/test_cudnn_rnn_ops.py).

The opaque `params` buffer is, for each pseudo-layer (layer 0 forward, layer 0 backward
when bidirectional, layer 1 forward, ...), its weight matrices then its bias vectors,
flat and row-major, in cuDNN's gate order (for one layer this is the buffer tf-keras'
`_canonical_to_params` builds):

- `lstm`: W_i, W_f, W_c, W_o (on the layer's input, each [units, input]), R_i, R_f, R_c,
  R_o (on the recurrent state, [units, units], or [units, num_proj] with a projection),
  with `num_proj` the projection P [num_proj, units], then the eight biases in the same
  order; i, f, o = sigmoid, c' = f c + i tanh(W_c x + R_c h + b), h' = o tanh(c')
  (with a projection h' = P (o tanh(c')));
- `gru`: W_r, W_z, W_h, R_r, R_z, R_h, then six biases; r, z = sigmoid,
  h~ = tanh(W_h x + b_Wh + r (R_h h + b_Rh)), h' = (1 - z) h~ + z h;
- `rnn_tanh` / `rnn_relu`: W, R, b_W, b_R; h' = act(W x + b_W + R h + b_R).

Input biases and recurrent biases are both added (a canonical pair splits one bias any
way). Layer l > 0 reads the previous layer's output (both directions concatenated,
forward first). `input_mode="skip_input"` (and `auto_select` when the input size equals
`num_units`) has no input matrices in layer 0: each gate reads the input itself (as an
identity W would); their canonical weights are [units, 0]. Inputs are time-major
`[time, batch, input]` (V3: batch-major when `time_major=False`); `input_h`/`input_c`
are `[layers * directions, batch, units]` in pseudo-layer order. CudnnRNNV3's
`sequence_lengths` stop each sequence's state at its length (the backward direction
starts at its last valid step) and the outputs past it are zeros (cuDNN's padding
fill). Dropout acts as cuDNN's (TF 1.15's contrib docs: "applied between each layer",
none with one layer): in training (`is_training`) each layer but the last hands its
output (both directions) to the next with every element zeroed with probability
`dropout` and the others scaled by 1 / (1 - dropout); in inference it does nothing. The
numbers differ from TF's: cuDNN draws the masks on the GPU from a generator state TF
seeds with (seed, seed2) and keeps across runs, which no CPU kernel of TF reproduces;
tf1compat draws them, the same distribution, from the op's own Philox stream
(`_random_stream.py`: seeded with (seed, seed2), new masks each run, the same sequence
in each new session). `reserve_space` (opaque state for TF's backward kernel) carries
those masks (empty without dropout) and `host_reserved` is empty; gradients come from
autograd, and the backprop ops recompute the forward pass with the masks of the
reserve_space they are given. Without
`skip_input` and with every sequence full length, the network runs as torch's fused
RNN kernel (cuDNN's on CUDA; its weights are cuDNN's canonical ones); otherwise step by
step in torch ops.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import REQUIRED, Int, Type, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._random_stream import RandomStream
from tf1compat.ops.grad_ops import leaf, vjp

__all__: List[str] = []

# Weight matrices (and bias vectors) per layer and direction of each mode, on the input.
_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}

_MODE_ATTRS = {"rnn_mode": "lstm", "input_mode": "linear_input",
               "direction": "unidirectional", "dropout": 0.0, "seed": 0, "seed2": 0}
_ATTRS = {"T": Type((D.float16, D.float32, D.float64)), **_MODE_ATTRS, "is_training": True}


def _as_str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Layout(NamedTuple):
    """One cuDNN configuration: what the opaque buffer holds and how the layers run."""

    mode: str
    layers: int
    dirs: int
    units: int
    input_size: int
    num_proj: int
    skip: bool

    @property
    def hidden(self) -> int:
        """Width of the state h (and of each direction's output)."""
        return self.num_proj or self.units

    def weight_shapes(self, layer: int) -> List[Tuple[int, int]]:
        """The weight matrices of one pseudo-layer of `layer`, in cuDNN's order."""
        gates = _GATES[self.mode]
        width = 0 if layer == 0 and self.skip else \
            self.input_size if layer == 0 else self.hidden * self.dirs
        shapes = [(self.units, width)] * gates + [(self.units, self.hidden)] * gates
        return shapes + ([(self.num_proj, self.units)] if self.num_proj else [])

    def shapes(self) -> Tuple[List[Tuple[int, int]], List[int]]:
        """(every weight's shape, every bias's length) in canonical order."""
        weights, biases = [], []
        for layer in range(self.layers):
            for _ in range(self.dirs):
                weights += self.weight_shapes(layer)
                biases += [self.units] * (2 * _GATES[self.mode])
        return weights, biases

    def params_size(self) -> int:
        weights, biases = self.shapes()
        return sum(r * c for r, c in weights) + sum(biases)


def make_layout(node: Any, mode: str, layers: int, units: int, input_size: int,
                num_proj: int = 0) -> Layout:
    """The Layout of `node`'s attrs (rnn_mode, direction, input_mode), validated as TF's
    kernels do."""
    direction, input_mode = _as_str(node.attrs["direction"]), \
        _as_str(node.attrs["input_mode"])
    if mode not in _GATES:
        raise errors.InvalidArgumentError(None, None, f"Invalid rnn_mode: {mode} "
                                          f"[Op:{node.type}]")
    if direction not in ("unidirectional", "bidirectional"):
        raise errors.InvalidArgumentError(None, None, f"Invalid direction: {direction} "
                                          f"[Op:{node.type}]")
    if input_mode not in ("linear_input", "skip_input", "auto_select"):
        raise errors.InvalidArgumentError(None, None, f"Invalid input_mode: {input_mode} "
                                          f"[Op:{node.type}]")
    skip = input_mode == "skip_input" or (input_mode == "auto_select"
                                          and input_size == units)
    if skip and input_size != units:
        raise errors.InvalidArgumentError(
            None, None, f"{node.type}: skip_input needs input_size == num_units, got "
            f"{input_size} and {units}")
    if num_proj and mode != "lstm":
        raise errors.InvalidArgumentError(
            None, None, f"{node.type}: num_proj is only for rnn_mode lstm, got {mode}")
    return Layout(mode, layers, 2 if direction == "bidirectional" else 1, units,
                  input_size, num_proj, skip)


def unpack(params: torch.Tensor, layout: Layout, op: str
           ) -> List[Tuple[List[torch.Tensor], List[torch.Tensor]]]:
    """(weights, biases) of each pseudo-layer of the opaque `params`."""
    flat = params.reshape(-1)
    expected = layout.params_size()
    if flat.numel() != expected:
        raise errors.InvalidArgumentError(
            None, None, f"Invalid params size: {flat.numel()} elements for "
            f"{layout.mode} with {layout.layers} layer(s) x {layout.dirs} direction(s), "
            f"{layout.units} units and input size {layout.input_size}, expected "
            f"{expected} [Op:{op}]")
    out, at = [], 0
    for layer in range(layout.layers):
        for _ in range(layout.dirs):
            weights = []
            for rows, cols in layout.weight_shapes(layer):
                weights.append(flat[at:at + rows * cols].reshape(rows, cols))
                at += rows * cols
            biases = []
            for _ in range(2 * _GATES[layout.mode]):
                biases.append(flat[at:at + layout.units])
                at += layout.units
            out.append((weights, biases))
    return out


def _run_direction(layout: Layout, x: torch.Tensor, h: torch.Tensor, c: torch.Tensor,
                   w: List[torch.Tensor], b: List[torch.Tensor],
                   lengths: Optional[torch.Tensor], reverse: bool
                   ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One pseudo-layer over time-major `x`: (outputs, final h, final c)."""
    mode, gates = layout.mode, _GATES[layout.mode]
    # The input side of every step at once: one matmul per gate over [time, batch].
    if w[0].shape[1] == 0:          # skip_input: the gates read the input itself
        wx = [x + b[k] for k in range(gates)]
    else:
        wx = [x @ w[k].T + b[k] for k in range(gates)]
    rec, bias_r = w[gates:2 * gates], b[gates:]
    proj = w[2 * gates] if layout.num_proj else None
    steps = x.shape[0]
    outputs: List[Optional[torch.Tensor]] = [None] * steps
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        rh = [h @ rec[k].T + bias_r[k] for k in range(gates)]
        if mode == "lstm":
            i, f = torch.sigmoid(wx[0][t] + rh[0]), torch.sigmoid(wx[1][t] + rh[1])
            c_next = f * c + i * torch.tanh(wx[2][t] + rh[2])
            h_next = torch.sigmoid(wx[3][t] + rh[3]) * torch.tanh(c_next)
            if proj is not None:
                h_next = h_next @ proj.T
        elif mode == "gru":
            r, z = torch.sigmoid(wx[0][t] + rh[0]), torch.sigmoid(wx[1][t] + rh[1])
            h_next, c_next = (1 - z) * torch.tanh(wx[2][t] + r * rh[2]) + z * h, c
        else:
            act = torch.tanh if mode == "rnn_tanh" else torch.relu
            h_next, c_next = act(wx[0][t] + rh[0]), c
        if lengths is not None:     # past a sequence's length: state kept, output 0
            live = (t < lengths).unsqueeze(1)
            h, c = torch.where(live, h_next, h), torch.where(live, c_next, c)
            outputs[t] = torch.where(live, h_next, torch.zeros_like(h_next))
        else:
            h, c = h_next, c_next
            outputs[t] = h
    out = torch.stack(outputs) if steps else x.new_zeros((0, x.shape[1], layout.hidden))
    return out, h, c


def run_layers(layout: Layout, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor,
               params: torch.Tensor, lengths: Optional[torch.Tensor], op: str,
               masks: Optional[torch.Tensor] = None
               ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The whole network on time-major `x`: (output, h [L*D, B, hidden], c [L*D, B, u]).
    `masks` ([L - 1, T, B, hidden * D]): the dropout factors of each layer's input
    after the first."""
    pseudo = unpack(params, layout, op)
    fused = not layout.skip and (lengths is None or bool((lengths >= x.shape[0]).all())) \
        and x.shape[0] > 0
    if fused and masks is None:
        return _run_fused(layout, x, h0, c0, pseudo)
    hs, cs = [], []
    for layer in range(layout.layers):
        if layer and masks is not None:
            x = x * masks[layer - 1]
        first = layer * layout.dirs
        if fused:       # one layer at a time (the masks between them are tf1compat's)
            span = slice(first, first + layout.dirs)
            x, h, c = _run_fused(layout._replace(layers=1), x, h0[span], c0[span],
                                 pseudo[span])
            hs += list(h)
            cs += list(c)
            continue
        outs = []
        for d in range(layout.dirs):
            w, b = pseudo[first + d]
            out, h, c = _run_direction(layout, x, h0[first + d], c0[first + d], w, b,
                                       lengths, d == 1)
            outs.append(out)
            hs.append(h)
            cs.append(c)
        x = torch.cat(outs, -1) if layout.dirs == 2 else outs[0]
    return x, torch.stack(hs), torch.stack(cs)


def _dropout_masks(stream: RandomStream, layout: Layout, x: torch.Tensor, rate: float
                   ) -> torch.Tensor:
    """cuDNN's dropout between layers: for each layer's input after the first, 0 with
    probability `rate`, else 1 / (1 - rate) ([L - 1, T, B, hidden * D], x's dtype)."""
    shape = [layout.layers - 1, x.shape[0], x.shape[1], layout.hidden * layout.dirs]
    keep = stream.uniform(shape, torch.float32) >= rate
    return (keep.to(x.dtype) / (1.0 - rate)).to(x.device)


def _run_fused(layout: Layout, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor,
               pseudo: List[Tuple[List[torch.Tensor], List[torch.Tensor]]]
               ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """`run_layers` by torch's fused RNN kernel (cuDNN's own on CUDA), whose weights are
    cuDNN's: w_ih, w_hh, b_ih, b_hh (and LSTM's projection w_hr) per layer and direction,
    gates in the same order (LSTM i, f, g, o; GRU r, z, n with the reset gate applied
    after the recurrent matmul)."""
    gates = _GATES[layout.mode]
    flat: List[torch.Tensor] = []
    for w, b in pseudo:
        flat += [torch.cat(w[:gates]), torch.cat(w[gates:2 * gates]), torch.cat(b[:gates]),
                 torch.cat(b[gates:])] + w[2 * gates:]
    fn = getattr(torch._VF, layout.mode)
    hx = (h0, c0) if layout.mode == "lstm" else h0
    with warnings.catch_warnings():
        # (on the CPU torch notes that oneDNN has no projection LSTM: its own kernel runs)
        warnings.filterwarnings("ignore", "LSTM with projections", UserWarning)
        # train: cuDNN's backward needs the training-mode forward (dropout is 0 here)
        result = fn(x, hx, flat, True, layout.layers, 0.0, torch.is_grad_enabled(),
                    layout.dirs == 2, False)
    out = result[0]
    if layout.mode == "lstm":
        return out, result[1], result[2]
    return out, result[1], c0


_Forward = Callable[..., Tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                              Optional[torch.Tensor]]]


def _forward(node: Any, kctx: Any) -> _Forward:
    """(input, input_h, input_c, params[, sequence_lengths], masks=None) -> (output, h,
    c, the dropout masks or None) of the forward op `node` (CudnnRNN* or
    CudnnRNNBackprop*: the same attrs). Masks are drawn where not given (the forward
    ops; the backprop ops pass the reserve_space they read, flat)."""
    a = node.attrs
    mode = _as_str(a["rnn_mode"])
    num_proj = int(a.get("num_proj", 0) or 0)
    time_major = bool(a.get("time_major", True))
    has_lengths = node.type in ("CudnnRNNV3", "CudnnRNNBackpropV3")
    dropout, training = float(a.get("dropout", 0.0)), bool(a.get("is_training", True))
    seed, seed2 = int(a.get("seed", 0)), int(a.get("seed2", 0))

    def run(x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor, params: torch.Tensor,
            *rest: torch.Tensor, masks: Optional[torch.Tensor] = None
            ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, Optional[torch.Tensor]]:
        if h0.dim() != 3:
            raise errors.InvalidArgumentError(
                None, None, f"{node.type}: input_h must be 3-D [layers * directions, "
                f"batch, units], got shape {list(h0.shape)}")
        if not time_major:
            x = x.transpose(0, 1)
        lstm = mode == "lstm"
        units = c0.shape[-1] if lstm and num_proj else h0.shape[-1]
        dirs = 2 if _as_str(a["direction"]) == "bidirectional" else 1
        if h0.shape[0] % dirs:
            raise errors.InvalidArgumentError(
                None, None, f"{node.type}: input_h's first dimension {h0.shape[0]} is not "
                f"a multiple of the {dirs} directions")
        layout = make_layout(node, mode, h0.shape[0] // dirs, units, x.shape[-1], num_proj)
        if not (dropout > 0 and training and layout.layers > 1):
            masks = None
        elif masks is None:
            stream = kctx.op_resource(lambda: RandomStream(seed, seed2))
            masks = _dropout_masks(stream, layout, x, dropout)
        else:       # a reserve_space's, flat
            masks = masks.reshape(layout.layers - 1, x.shape[0], x.shape[1], -1)
        lengths = rest[0].long().to(x.device) if has_lengths and rest else None
        c_in = c0 if lstm else torch.zeros((h0.shape[0],) + h0.shape[1:2] + (units,),
                                           dtype=x.dtype, device=x.device)
        out, h, c = run_layers(layout, x, h0, c_in, params, lengths, node.type, masks)
        if not time_major:
            out = out.transpose(0, 1)
        return out, h, c if lstm else x.new_zeros(()), masks
    return run


def _kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    forward = _forward(node, kctx)

    def run(*args: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        out, h, c, masks = forward(*args)
        reserve = out.new_zeros((0,)) if masks is None else masks.detach().reshape(-1)
        extra = (torch.zeros(0, dtype=torch.int8),) if node.type != "CudnnRNN" else ()
        return (out, h, c, reserve) + extra
    return run


def _backprop_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """TF's backward kernel: the vector-Jacobian product of the forward op at its inputs,
    recomputing the forward pass with the dropout masks of its reserve_space (which holds
    nothing else in tf1compat)."""
    forward = _forward(node, kctx)
    lengths = node.type == "CudnnRNNBackpropV3"
    lstm = _as_str(node.attrs["rnn_mode"]) == "lstm"

    def run(*args: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        n = 5 if lengths else 4
        inputs, rest = list(args[:n]), args[n:]
        grads, reserve = rest[3:6], rest[6]
        with torch.enable_grad():
            wrt = [leaf(t) for t in inputs[:4]]
            out, h, c, _ = forward(*wrt, *inputs[4:],
                                   masks=reserve if reserve.numel() else None)
            ys, gs = [out, h], [grads[0], grads[1]]
            if lstm:
                ys.append(c)
                gs.append(grads[2])
            found = vjp(ys, wrt, gs, tuple(args))
        return found[0], found[1], found[2] if lstm else torch.zeros_like(inputs[2]), \
            found[3]
    return run


def _shape(ctx: Any) -> List[TensorShape]:
    x, h = ctx.shape(0), ctx.shape(1)
    units = h[-1] if h.rank is not None else None
    dirs = 2 if _as_str(ctx.attrs["direction"]) == "bidirectional" else 1
    # ([time, batch] or, batch-major, [batch, time], then the width of each direction)
    out = TensorShape([x[0], x[1], None if units is None else units * dirs]) \
        if x.rank is not None else unknown_shape(3)
    c = ctx.shape(2) if _as_str(ctx.attrs["rnn_mode"]) == "lstm" else unknown_shape()
    extra = [TensorShape(None)] if ctx.op_type != "CudnnRNN" else []
    return [out, h, c, TensorShape(None)] + extra


def _backprop_shape(ctx: Any) -> List[TensorShape]:
    return [ctx.shape(0), ctx.shape(1), ctx.shape(2), ctx.shape(3)]


_INPUTS = ["input: T", "input_h: T", "input_c: T", "params: T"]
_OUTPUTS = ["output: T", "output_h: T", "output_c: T", "reserve_space: T"]
_V3_ATTRS = {**_ATTRS, "num_proj": 0, "time_major": True}
declare("CudnnRNN", inputs=_INPUTS, outputs=_OUTPUTS, attrs=_ATTRS, shape=_shape,
        kernel=_kernel, stateful=True)
declare("CudnnRNNV2", inputs=_INPUTS, outputs=_OUTPUTS + ["host_reserved: int8"],
        attrs=_ATTRS, shape=_shape, kernel=_kernel, stateful=True)
declare("CudnnRNNV3", inputs=_INPUTS + ["sequence_lengths: int32"],
        outputs=_OUTPUTS + ["host_reserved: int8"], attrs=_V3_ATTRS, shape=_shape,
        kernel=_kernel, stateful=True)

_GRAD_INPUTS = ["output: T", "output_h: T", "output_c: T", "output_backprop: T",
                "output_h_backprop: T", "output_c_backprop: T", "reserve_space: T"]
_GRAD_OUTPUTS = ["input_backprop: T", "input_h_backprop: T", "input_c_backprop: T",
                 "params_backprop: T"]
_GRAD_ATTRS = {"T": _ATTRS["T"], **_MODE_ATTRS}
declare("CudnnRNNBackprop", inputs=_INPUTS + _GRAD_INPUTS, outputs=_GRAD_OUTPUTS,
        attrs=_GRAD_ATTRS, shape=_backprop_shape, kernel=_backprop_kernel, stateful=True)
declare("CudnnRNNBackpropV2", inputs=_INPUTS + _GRAD_INPUTS + ["host_reserved: int8"],
        outputs=_GRAD_OUTPUTS, attrs=_GRAD_ATTRS, shape=_backprop_shape,
        kernel=_backprop_kernel, stateful=True)
declare("CudnnRNNBackpropV3",
        inputs=_INPUTS + ["sequence_lengths: int32"] + _GRAD_INPUTS + ["host_reserved: int8"],
        outputs=_GRAD_OUTPUTS, attrs={**_GRAD_ATTRS, "num_proj": 0, "time_major": True},
        shape=_backprop_shape, kernel=_backprop_kernel, stateful=True)


def _params_size(node: Any, kctx: Any) -> Callable[..., Any]:
    mode, num_proj = _as_str(node.attrs["rnn_mode"]), int(node.attrs["num_proj"])
    out_dtype = D.as_dtype(node.attrs["S"]).torch_dtype

    def run(num_layers: torch.Tensor, num_units: torch.Tensor,
            input_size: torch.Tensor) -> torch.Tensor:
        layout = make_layout(node, mode, int(num_layers), int(num_units), int(input_size),
                             num_proj)
        return torch.tensor([layout.params_size()], dtype=out_dtype)
    return run


def _scalar_inputs(node: Any, mode: str, num_proj: int, args: Sequence[torch.Tensor]
                   ) -> Layout:
    return make_layout(node, mode, int(args[0]), int(args[1]), int(args[2]), num_proj)


def _to_canonical(node: Any, kctx: Any) -> Callable[..., Any]:
    mode = _as_str(node.attrs["rnn_mode"])
    num_proj = int(node.attrs.get("num_proj", 0) or 0)
    n_weights = int(node.attrs.get("num_params_weights", node.attrs.get("num_params", 0)))
    n_biases = int(node.attrs.get("num_params_biases", node.attrs.get("num_params", 0)))

    def run(*args: torch.Tensor) -> Tuple[torch.Tensor, ...]:
        layout = _scalar_inputs(node, mode, num_proj, args)
        pseudo = unpack(args[3], layout, node.type)
        weights = [w for ws, _ in pseudo for w in ws]
        biases = [b for _, bs in pseudo for b in bs]
        if (len(weights), len(biases)) != (n_weights, n_biases):
            raise errors.InvalidArgumentError(
                None, None, f"{node.type}: the {layout.mode} network has {len(weights)} "
                f"weights and {len(biases)} biases, the op declares {n_weights} and "
                f"{n_biases}")
        return tuple(w.clone() for w in weights) + tuple(b.clone() for b in biases)
    return run


def _to_params(node: Any, kctx: Any) -> Callable[..., Any]:
    mode = _as_str(node.attrs["rnn_mode"])
    num_proj = int(node.attrs.get("num_proj", 0) or 0)
    n_weights = int(node.attrs.get("num_params_weights", node.attrs.get("num_params", 0)))

    def run(*args: torch.Tensor) -> torch.Tensor:
        layout = _scalar_inputs(node, mode, num_proj, args)
        w_shapes, b_sizes = layout.shapes()
        weights, biases = args[3:3 + n_weights], args[3 + n_weights:]
        if (len(weights), len(biases)) != (len(w_shapes), len(b_sizes)):
            raise errors.InvalidArgumentError(
                None, None, f"{node.type}: the {layout.mode} network takes "
                f"{len(w_shapes)} weights and {len(b_sizes)} biases, got {len(weights)} "
                f"and {len(biases)}")
        parts, wi, bi = [], 0, 0
        per_w = len(w_shapes) // (layout.layers * layout.dirs)
        per_b = len(b_sizes) // (layout.layers * layout.dirs)
        for _ in range(layout.layers * layout.dirs):
            for k in range(per_w):
                parts.append(_checked(node, weights[wi + k], w_shapes[wi + k], wi + k))
            for k in range(per_b):
                parts.append(_checked(node, biases[bi + k], (b_sizes[bi + k],), bi + k))
            wi, bi = wi + per_w, bi + per_b
        return torch.cat(parts)
    return run


def _checked(node: Any, t: torch.Tensor, shape: Tuple[int, ...], index: int) -> torch.Tensor:
    """`t` flat, after checking it holds the canonical tensor's elements."""
    size = 1
    for d in shape:
        size *= d
    if t.numel() != size:
        raise errors.InvalidArgumentError(
            None, None, f"{node.type}: canonical tensor {index} has {t.numel()} elements, "
            f"its {list(shape)} place in the params buffer needs {size}")
    return t.reshape(-1)


def _params_size_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([1])]


def _to_canonical_shape(ctx: Any) -> List[TensorShape]:
    a = ctx.attrs
    n_w = int(a.get("num_params_weights", a.get("num_params", 0)))
    n_b = int(a.get("num_params_biases", a.get("num_params", 0)))
    return [unknown_shape(2)] * n_w + [unknown_shape(1)] * n_b


_SIZES = ["num_layers: int32", "num_units: int32", "input_size: int32"]
declare("CudnnRNNParamsSize", inputs=_SIZES, outputs=["params_size: S"],
        attrs={"T": REQUIRED, "S": Type((D.int32, D.int64)),
               **_MODE_ATTRS, "num_proj": 0},
        shape=_params_size_shape, kernel=_params_size, grad="none")
declare("CudnnRNNParamsToCanonical", inputs=_SIZES + ["params: T"],
        outputs=["weights: num_params * T", "biases: num_params * T"],
        attrs={"T": _ATTRS["T"], "num_params": Int(1), **_MODE_ATTRS},
        shape=_to_canonical_shape, kernel=_to_canonical)
declare("CudnnRNNParamsToCanonicalV2", inputs=_SIZES + ["params: T"],
        outputs=["weights: num_params_weights * T", "biases: num_params_biases * T"],
        attrs={"T": _ATTRS["T"], "num_params_weights": Int(1), "num_params_biases": Int(1),
               **_MODE_ATTRS, "num_proj": 0},
        shape=_to_canonical_shape, kernel=_to_canonical)
declare("CudnnRNNCanonicalToParams",
        inputs=_SIZES + ["weights: num_params * T", "biases: num_params * T"],
        outputs=["params: T"], attrs={"T": _ATTRS["T"], "num_params": Int(1), **_MODE_ATTRS},
        shape=lambda ctx: [unknown_shape(1)], kernel=_to_params)
declare("CudnnRNNCanonicalToParamsV2",
        inputs=_SIZES + ["weights: num_params_weights * T", "biases: num_params_biases * T"],
        outputs=["params: T"],
        attrs={"T": _ATTRS["T"], "num_params_weights": Int(1), "num_params_biases": Int(1),
               **_MODE_ATTRS, "num_proj": 0},
        shape=lambda ctx: [unknown_shape(1)], kernel=_to_params)
