"""`dynamic_rnn` over standard cells on torch's fused RNN kernels (cuDNN on CUDA).

The graph stays TF's: `dynamic_rnn` still builds its while loop with the cell's ops,
variables and names (`rnn/basic_lstm_cell/kernel`, `rnn/while/Exit_3`, ...), so
checkpoints, names, `tf.gradients` and collections are unchanged. What changes is how
the loop runs: when the cell is one this module recognises, the loop's While op gets a
`fast_path` (ops/while_loop.py) that computes the same recurrence in one call of
torch's LSTM / RNN kernel instead of one generated body call per time step, and writes
the outputs into the loop's output TensorArray as the body would have.

Recognised cells (TF's formulas equal torch's kernels up to floating-point rounding):

* `BasicLSTMCell` and `LSTMCell` without peepholes, cell clipping, projection or
  sharded weights, tanh activation: TF's kernel `[input + units, 4 * units]` holds the
  gates in the order i, j (candidate), f, o; torch's layout is i, f, g, o with separate
  input and hidden matrices. The weights are re-ordered views of the same variables, and
  `forget_bias` is added to the forget gate's bias, so gradients reach the variables.
* `BasicRNNCell` with tanh or relu (`tanh([x, h] @ K + b)` is torch's Elman RNN).
* `MultiRNNCell` of those (one fused call per layer, in order).

Not recognised, so they keep the cell loop: `GRUCell` (TF applies the reset gate to the
state before the candidate matmul, torch's GRU after it: different functions), wrappers
(dropout, residual, attention), peepholes/clipping/projection, custom cells, several
input tensors, dtypes other than float32/float64.

`sequence_length` follows TF's `dynamic_rnn`: rows stop at their length (zero outputs,
state carried), the loop runs to the longest row; rows are packed for torch's kernel.
`TF1COMPAT_FUSED_RNN=0` turns the fast path off (it is read when a plan is built).

Host cost per run (a small model's step on a GPU is bound by it): the inputs come from
the input TensorArray's block (the unstacked tensor itself) and the outputs go into the
output TensorArray as one block, which `stack` hands back as it is; each cell's weights
are re-laid by one autograd node (`_CellWeights`) into one buffer in the layout of the
device's kernel (cuDNN's on CUDA, so cuDNN does not copy them into its own every call);
without `sequence_length` nothing is read back from the device (the loop's start values
are checked when the plan is built, the number of steps is the input array's size).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence

import torch
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.tensor import Tensor
from tf1compat.rnn.fused_weights import (BiasLayout, KernelLayout, cell_weights,
                                         held_lstm_weights)

__all__ = ["attach", "fusion_reason", "enabled"]

_FLOAT_TYPES = (D.float32, D.float64)


def enabled() -> bool:
    """Whether plans built now use the fused kernels (`TF1COMPAT_FUSED_RNN`, default on)."""
    return os.environ.get("TF1COMPAT_FUSED_RNN", "1").strip() not in ("0", "false", "off")


@dataclass
class _Layer:
    """One recognised cell: its kind, sizes and variables."""
    kind: str                 # "lstm" | "rnn_tanh" | "rnn_relu"
    units: int
    forget_bias: float
    kernel: Any               # the cell's variables (RefVariable or ResourceVariable)
    bias: Any
    tuple_state: bool         # LSTM state as (c, h) rather than concat([c, h], 1)

    @property
    def state_tensors(self) -> int:
        return 2 if self.kind == "lstm" and self.tuple_state else 1


def _activation_name(fn: Any) -> str:
    """'tanh' / 'relu' for TF's and Keras's functions of those names (`tf.tanh` is the
    op wrapper named after its op type, Tanh)."""
    return getattr(fn, "__name__", "").lower()


def _is_tanh(fn: Any) -> bool:
    return _activation_name(fn) == "tanh"


def _layer(cell: Any) -> Any:
    """A `_Layer` for a recognised cell, else the reason (a string)."""
    from tf1compat.rnn.cells import BasicLSTMCell, BasicRNNCell, LSTMCell
    name = type(cell).__name__
    if not getattr(cell, "built", False):
        return f"{name} was not built"
    if type(cell) is BasicLSTMCell:
        if not _is_tanh(cell._activation):
            return "BasicLSTMCell with an activation other than tanh"
        return _Layer("lstm", cell._num_units, float(cell._forget_bias), cell._kernel,
                      cell._bias, bool(cell._state_is_tuple))
    if type(cell) is LSTMCell:
        for attr, what in (("_use_peepholes", "peepholes"), ("_cell_clip", "cell_clip"),
                           ("_num_proj", "num_proj"), ("_num_unit_shards", "num_unit_shards")):
            if getattr(cell, attr):
                return f"LSTMCell with {what}"
        if not _is_tanh(cell._activation):
            return "LSTMCell with an activation other than tanh"
        return _Layer("lstm", cell._num_units, float(cell._forget_bias), cell._kernel,
                      cell._bias, bool(cell._state_is_tuple))
    if type(cell) is BasicRNNCell:
        act = _activation_name(cell._activation)
        if act not in ("tanh", "relu"):
            return "BasicRNNCell with an activation other than tanh or relu"
        return _Layer(f"rnn_{act}", cell._num_units, 0.0, cell._kernel, cell._bias, True)
    if name == "GRUCell":
        return ("GRUCell: TF applies the reset gate before the candidate matmul, torch's "
                "GRU kernel after it")
    return f"{name} is not a cell with a fused kernel"


def _layers(cell: Any) -> Any:
    from tf1compat.rnn.cells import MultiRNNCell
    if type(cell) is MultiRNNCell:
        layers = [_layer(c) for c in cell._cells]
        for layer in layers:
            if isinstance(layer, str):
                return f"MultiRNNCell: {layer}"
        return layers
    layer = _layer(cell)
    return layer if isinstance(layer, str) else [layer]


class FusedRNNLoop:
    """The While op's `fast_path` for a dynamic_rnn loop over recognised cells."""

    def __init__(self, layers: List[_Layer], input_handle: Tensor, output_handle: Tensor,
                 loop_bound: Tensor, sequence_length: Optional[Tensor], counter: bool):
        self.layers = layers
        self.input_handle = input_handle
        self.output_handle = output_handle
        self.loop_bound = loop_bound
        self.sequence_length = sequence_length
        self.counter = counter        # loop vars start with maximum_iterations' counter

    def held_layouts(self, node: Any) -> dict:
        """{While input: layout} for the LSTM weights this loop may take in torch's
        layout (`KernelLayout`, `BiasLayout`; runtime/physical_store.py): ref variables
        read through the loop's captures, where the loop starts at the graph's constant
        0 (so the fused kernel declines only when the loop body is not run at all or
        reads its captures through `restore`)."""
        n = len(node.inputs) - len(node.attrs["Tcaptures"])
        first = 1 if self.counter else 0
        if not enabled() or any(not _is_zero(node.inputs[i]) for i in range(first + 1)):
            return {}
        found = {}
        for layer in self.layers:
            if layer.kind != "lstm":
                continue
            for v, layout in ((layer.kernel, None), (layer.bias, BiasLayout(layer.units))):
                ref = getattr(v, "_variable", None)
                if ref is None or getattr(v, "_handle", None) is not None:
                    continue
                shape = tuple(v.shape.as_list()) if v.shape.is_fully_defined() else None
                if shape is None:
                    continue
                if layout is None:
                    layout = KernelLayout(shape[0] - layer.units, layer.units)
                hits = [t for t in node.inputs[n:] if _reads(t, {ref})]
                if len(hits) == 1:
                    found[hits[0]] = layout
        return found

    def step_macs(self, node: Any) -> Optional[int]:
        """Multiply-adds of the largest per-time-step product this loop's fused kernel
        makes (`batch x gates * units x (input + units)`, one layer's two matrices),
        from the graph's static shapes; None where a size is not static. The recurrence
        runs these products one after another, so their size says whether they are
        worth splitting across threads (runtime/thread_tuner.py)."""
        n = len(node.inputs) - len(node.attrs["Tcaptures"])
        first = 1 if self.counter else 0
        if n <= first + 2:
            return None
        batch = node.inputs[first + 2].shape
        if batch.ndims != 2 or batch.dims[0].value is None:
            return None
        largest = 0
        for layer in self.layers:
            shape = layer.kernel.shape
            if not shape.is_fully_defined() or len(shape) != 2:
                return None
            rows, cols = (d.value for d in shape.dims)
            largest = max(largest, batch.dims[0].value * rows * cols)
        return largest

    def bind(self, node: Any, kctx: Any) -> Optional[Callable[..., Any]]:
        if not enabled():
            return None
        n_state = sum(layer.state_tensors for layer in self.layers)
        n = len(node.inputs) - len(node.attrs["Tcaptures"])
        position = {t: i for i, t in enumerate(node.inputs[n:])}
        wanted = [self.input_handle, self.output_handle, self.loop_bound]
        if self.sequence_length is not None:
            wanted.append(self.sequence_length)
        getters = [_variable_getter(v, position, kctx)
                   for layer in self.layers for v in (layer.kernel, layer.bias)]
        if any(t not in position for t in wanted) or None in getters:
            return None
        p_in, p_out, p_bound = (position[t] for t in wanted[:3])
        p_len = position[self.sequence_length] if self.sequence_length is not None else None
        first = 1 if self.counter else 0     # index of `time` among the loop values
        if n != first + 2 + n_state:
            return None
        # The loop starts at time 0 (and counter 0): known from the graph when those are
        # constants, else read at run time (a device synchronisation on CUDA).
        starts = [i for i in range(first + 1) if not _is_zero(node.inputs[i])]
        # Without sequence_length dynamic_rnn's bound is min(time_steps, max(1,
        # time_steps)): the input array's size whenever the loop runs at all.
        bound_is_size = p_len is None
        layers = self.layers

        def run(values: tuple, captures: tuple) -> Optional[tuple]:
            if any(int(values[i]) != 0 for i in starts):
                return None
            in_ta, out_ta = captures[p_in], captures[p_out]
            size = len(in_ta.elements)
            steps = size if bound_is_size else min(int(captures[p_bound]), size)
            if steps < 1 or any(e is not None for e in out_ta.elements):
                return None
            x = in_ta.block_rows(steps)
            if x is None:
                if any(e is None for e in in_ta.elements[:steps]):
                    return None
                x = torch.stack([in_ta._element(i) for i in range(steps)])
            weights = [g(captures) for g in getters]
            # Everything on the weights' device: the cell loop's ops would move their
            # inputs there one by one; torch's fused kernels (cuDNN) need them together.
            device = weights[0].device
            x = x.to(device)
            if x.dim() != 3 or not x.is_floating_point():
                return None
            lengths = None if p_len is None else captures[p_len].to(device)
            state = [s.to(device) for s in values[first + 2:]]
            outputs, new_state = _run_layers(layers, x, state, weights, lengths)
            out_ta.write_rows(range(steps), outputs)
            head = tuple(v + steps for v in values[:first + 1])
            return head + (values[first + 1],) + tuple(new_state)

        held = [(position[t], layout, kctx.ref_key(t))
                for t, layout in self.held_layouts(node).items() if t in position]
        store = kctx.state

        def restore(captures: tuple) -> tuple:
            """For the loop body when `run` declines: the captures in TF's layout, and
            so the gradient run's view of those variables, which the body reads (a
            differentiable re-layout of the held leaf: the gradient and the update
            then see TF's layout too)."""
            if not any(captures[p].dim() != layout.tf_rank for p, layout, _ in held):
                return captures
            out, view = list(captures), store.view()
            for p, layout, key in held:
                if out[p].dim() != layout.tf_rank:
                    value = layout.to_tf(out[p])
                    if view is not store and dict.get(view, key) is out[p]:
                        dict.__setitem__(view, key, value)
                    out[p] = value
            return tuple(out)
        run.restore = restore      # type: ignore[attr-defined]
        return run


def _is_zero(t: Tensor) -> bool:
    """Whether the graph makes `t` the constant 0."""
    value = constant_value(t)
    return value is not None and getattr(value, "ndim", 0) == 0 and value == 0


def _variable_getter(variable: Any, position: dict, kctx: Any) -> Any:
    """How the fused run reads `variable`: from the While op's capture of its value (a
    read made outside the loop: `v/read`, a caching device's `Read/Identity`, whose value
    is what the loop body would use) or, when the loop captured a resource variable's
    handle, from the store under the handle's key. None when the loop reads it otherwise."""
    handle = getattr(variable, "_handle", None)
    if handle is not None and handle in position:
        i = position[handle]
        state = kctx.state
        return lambda captures: state[captures[i]]
    roots = {t for t in (handle, getattr(variable, "_variable", None)) if t is not None}
    for t, i in position.items():
        if _reads(t, roots):
            return lambda captures, i=i: captures[i]
    return None


def _reads(t: Tensor, roots: set) -> bool:
    """Whether `t` is a variable's value through reads and identities only."""
    while t not in roots:
        op = t.op
        if op.type not in ("Identity", "ReadVariableOp") or not op.inputs:
            return False
        t = op.inputs[0]
    return True


def _run_layers(layers: Sequence[_Layer], x: torch.Tensor, state: List[torch.Tensor],
                weights: List[torch.Tensor], lengths: Optional[torch.Tensor]) -> tuple:
    steps, batch = x.shape[0], x.shape[1]
    train = torch.is_grad_enabled()
    packed = None
    if lengths is not None:
        lengths = lengths.to(torch.long).clamp(0, steps)
        empty = lengths == 0
        packed = pack_padded_sequence(x, lengths.clamp(min=1).cpu(), enforce_sorted=False)
    new_state: List[torch.Tensor] = []
    data = packed.data if packed is not None else x
    # Whether torch's kernel is oneDNN's, which adds b_ih + b_hh into one bias first
    # (aten's use_mkldnn; packed sequences take torch's own kernel).
    one_bias = packed is None and x.dtype == torch.float32 and x.device.type == "cpu" \
        and torch.backends.mkldnn.is_available() and torch._C._get_mkldnn_enabled()
    at = 0
    for k, layer in enumerate(layers):
        kernel, bias = weights[2 * k], weights[2 * k + 1]
        depth = data.shape[-1]
        if layer.kind == "lstm":
            if layer.tuple_state:
                c0, h0 = state[at], state[at + 1]
            else:
                c0, h0 = state[at][:, :layer.units], state[at][:, layer.units:]
            hx = [h0.unsqueeze(0).contiguous(), c0.unsqueeze(0).contiguous()]
        else:
            hx = [state[at].unsqueeze(0).contiguous()]
        if layer.kind == "lstm" and (kernel.dim() == 1 or bias.dim() == 2):
            # Held in torch's layout (runtime/physical_store.py).
            params = list(held_lstm_weights(layer.units, layer.forget_bias, kernel, bias,
                                            depth, one_bias))
        else:
            params = list(cell_weights(layer.kind, layer.units, layer.forget_bias, kernel,
                                       bias, depth))
        if packed is not None:
            hx = [h.index_select(1, packed.sorted_indices) for h in hx]
            fn = getattr(torch._VF, layer.kind)
            hx_arg = tuple(hx) if layer.kind == "lstm" else hx[0]
            result = fn(data, packed.batch_sizes, hx_arg, params, True, 1, 0.0, train, False)
            data = result[0]
            finals = [h.index_select(1, packed.unsorted_indices)[0] for h in result[1:]]
        else:
            fn = getattr(torch._VF, layer.kind)
            hx_arg = tuple(hx) if layer.kind == "lstm" else hx[0]
            result = fn(data, hx_arg, params, True, 1, 0.0, train, False, False)
            data = result[0]
            finals = [h[0] for h in result[1:]]
        if layer.kind == "lstm":
            h_n, c_n = finals
            if packed is not None:
                c_n = torch.where(empty[:, None], c0, c_n)
                h_n = torch.where(empty[:, None], h0, h_n)
            new_state.extend([c_n, h_n] if layer.tuple_state else [torch.cat([c_n, h_n], 1)])
        else:
            (h_n,) = finals
            if packed is not None:
                h_n = torch.where(empty[:, None], state[at], h_n)
            new_state.append(h_n)
        at += layer.state_tensors
    if packed is not None:
        out, _ = pad_packed_sequence(
            PackedSequence(data, packed.batch_sizes, packed.sorted_indices,
                           packed.unsorted_indices), total_length=steps)
        keep = (torch.arange(steps, device=out.device)[:, None] < lengths[None, :])
        outputs = out * keep[:, :, None].to(out.dtype)
    else:
        outputs = data
    assert outputs.shape[1] == batch
    return outputs, new_state


def fusion_reason(cell: Any, flat_input: Sequence[Tensor], state_dtype: Any) -> Optional[str]:
    """Why a dynamic_rnn over `cell` keeps the cell loop (None: it can be fused)."""
    layers = _layers(cell)
    if isinstance(layers, str):
        return layers
    if len(flat_input) != 1:
        return "several input tensors"
    if flat_input[0].dtype.base_dtype not in _FLOAT_TYPES or \
            D.as_dtype(state_dtype).base_dtype != flat_input[0].dtype.base_dtype:
        return "dtypes other than float32/float64 (or inputs and state of different types)"
    for layer in layers:
        for v in (layer.kernel, layer.bias):
            if getattr(v, "_variable", None) is None and getattr(v, "_handle", None) is None:
                return f"variable {getattr(v, 'name', v)} is not a plain variable"
    return None


def attach(loop_op: Any, cell: Any, flat_input: Sequence[Tensor], state_dtype: Any,
           input_handle: Tensor, output_handle: Tensor, loop_bound: Tensor,
           sequence_length: Optional[Tensor], counter: bool) -> Optional[str]:
    """Gives `loop_op` (dynamic_rnn's While) the fused fast path when the cell allows it;
    returns the reason when it does not (also kept as the loop's `fast_path_reason`)."""
    loop = loop_op.get_attr("loop")
    reason = fusion_reason(cell, flat_input, state_dtype)
    if reason is None:
        loop.fast_path = FusedRNNLoop(_layers(cell), input_handle, output_handle, loop_bound,
                                      sequence_length, counter)
    loop.fast_path_reason = reason
    return reason
