"""CTC decoding: CTCGreedyDecoder (`tf.nn.ctc_greedy_decoder`), CTCBeamSearchDecoder
(`tf.nn.ctc_beam_search_decoder`, `_v2`), and the label helpers `tf.nn.collapse_repeated`
and `tf.nn.ctc_unique_labels`.

The beam search follows TF's (prefix beam search over a tree of label prefixes, Graves'
recurrences, per-step log-softmax of the logits, float32 scores,
the beam kept as the `beam_width` best prefixes with evicted ones reset); the blank is
the last class. Both decoders run on the host.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import REQUIRED, Int, Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape
from tf1compat.ops.creation_ops import ones_like
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.functional_ops import map_fn
from tf1compat.ops.indexing_ops import boolean_mask, scatter_nd, sequence_mask, unique
from tf1compat.ops.math_ops import cast, logical_and, not_equal
from tf1compat.ops.reduction_ops import reduce_max, reduce_sum
from tf1compat.ops.transform_ops import pad

__all__ = ["ctc_greedy_decoder", "ctc_beam_search_decoder", "ctc_beam_search_decoder_v2",
           "collapse_repeated", "ctc_unique_labels"]

_F32 = np.float32
_LOG_ZERO = _F32(-np.inf)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _precondition(message: str) -> errors.FailedPreconditionError:
    return errors.FailedPreconditionError(None, None, message)


def _check_inputs(inputs: torch.Tensor, seq_len: torch.Tensor) -> List[int]:
    """TF's CTCDecodeHelper checks (FailedPrecondition for the lengths, as TF); the
    sequence lengths as ints."""
    if inputs.dim() != 3:
        raise _invalid("inputs is not a 3-Tensor")
    if seq_len.dim() != 1:
        raise _invalid("sequence_length is not a vector")
    max_time, batch = int(inputs.shape[0]), int(inputs.shape[1])
    lengths = [int(v) for v in seq_len.tolist()]
    if len(lengths) != batch:
        raise _precondition(f"len(sequence_length) != batch_size.  len(sequence_length):  "
                       f"{len(lengths)} batch_size: {batch}")
    for b, length in enumerate(lengths):
        if length > max_time:
            raise _precondition(f"sequence_length({b}) <= {max_time}")
    return lengths


def _store(paths: List[List[List[int]]], top: int, device: Any) -> List[torch.Tensor]:
    """TF's StoreAllDecodedSequences: per path rank, (indices, values, dense shape)."""
    out: List[torch.Tensor] = []
    indices, values, shapes = [], [], []
    for p in range(top):
        idx, val = [], []
        longest = 0
        for b, per_batch in enumerate(paths):
            seq = per_batch[p]
            longest = max(longest, len(seq))
            idx.extend([b, t] for t in range(len(seq)))
            val.extend(seq)
        indices.append(torch.tensor(idx, dtype=torch.int64).reshape(-1, 2).to(device))
        values.append(torch.tensor(val, dtype=torch.int64).to(device))
        shapes.append(torch.tensor([len(paths), longest], dtype=torch.int64).to(device))
    out = indices + values + shapes
    return out


# -- CTCGreedyDecoder ------------------------------------------------------------------------

def _greedy_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    merge, blank_attr = bool(node.attrs["merge_repeated"]), int(node.attrs["blank_index"])

    def ctc_greedy_decoder_op(inputs: torch.Tensor, seq_len: torch.Tensor) -> tuple:
        lengths = _check_inputs(inputs, seq_len)
        classes = int(inputs.shape[2])
        blank = classes + blank_attr if blank_attr < 0 else blank_attr
        if not 0 <= blank < classes:
            raise _invalid(f"blank_index expected to be between {-classes} and "
                           f"{classes - 1} but was {blank_attr}")
        if classes == 0 and any(lengths):
            raise _invalid("Invalid input dimensions.")
        best = inputs.max(dim=2) if classes else None
        top_values = best.values.cpu() if best is not None else None
        top_indices = best.indices.cpu().tolist() if best is not None else None
        log_prob = torch.zeros(inputs.shape[1], 1, dtype=inputs.dtype)
        paths = []
        for b, length in enumerate(lengths):
            seq, prev = [], -1
            for t in range(length):
                label = top_indices[t][b]
                log_prob[b, 0] -= top_values[t, b]
                if label != blank and not (merge and label == prev):
                    seq.append(label)
                prev = label
            paths.append([seq])
        return tuple(_store(paths, 1, inputs.device)) + (log_prob.to(inputs.device),)
    return ctc_greedy_decoder_op


def _decoder_shape(ctx: Any) -> List[TensorShape]:
    inputs, seq = ctx.shape(0), ctx.shape(1)
    if inputs.rank is not None and inputs.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {inputs.rank} {node_desc(ctx)}")
    if seq.rank is not None and seq.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {seq.rank} {node_desc(ctx)}")
    batch = inputs.as_list()[1] if inputs.rank == 3 else None
    seq_batch = seq.as_list()[0] if seq.rank == 1 else None
    if batch is not None and seq_batch is not None and batch != seq_batch:
        raise ValueError(f"Dimensions must be equal, but are {batch} and {seq_batch} "
                         f"{node_desc(ctx)}")
    batch = batch if batch is not None else seq_batch
    top = ctx.attrs.get("top_paths", 1)
    return ([TensorShape([None, 2])] * top + [TensorShape([None])] * top +
            [TensorShape([2])] * top + [TensorShape([batch, top])])


declare("CTCGreedyDecoder", inputs=["inputs: T", "sequence_length: int32"],
        outputs=["decoded_indices: int64", "decoded_values: int64", "decoded_shape: int64",
                 "log_probability: T"],
        attrs={"merge_repeated": False, "blank_index": -1,
               "T": Type((D.float32, D.float64), default=D.float32)},
        shape=_decoder_shape, kernel=_greedy_kernel, grad="none", cpu_only=True)


def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True,
                       blank_index: Optional[int] = None) -> Tuple[List[SparseTensor], Tensor]:
    """`tf.nn.ctc_greedy_decoder`: the most likely class per step, repeats merged and
    blanks removed; returns ([SparseTensor], -sum of the chosen logits [batch, 1])."""
    attrs = {"merge_repeated": bool(merge_repeated)}
    if blank_index is not None:
        attrs["blank_index"] = int(blank_index)
    ix, val, shape, log_prob = apply_op("CTCGreedyDecoder", [inputs, sequence_length],
                                        attrs).outputs
    return [SparseTensor(ix, val, shape)], log_prob


# -- CTCBeamSearchDecoder --------------------------------------------------------------------

def _log_sum_exp(a: np.float32, b: np.float32) -> np.float32:
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    if a > b:
        return _F32(a + np.log1p(np.exp(_F32(b - a))))
    return _F32(b + np.log1p(np.exp(_F32(a - b))))


class _Prob:
    """Log probabilities of a prefix: ending in a blank, in its label, in total."""
    __slots__ = ("blank", "label", "total")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.blank = self.label = self.total = _LOG_ZERO

    def copy_from(self, other: "_Prob") -> None:
        self.blank, self.label, self.total = other.blank, other.label, other.total


class _Entry:
    """A node of the prefix tree: label sequence root ... self."""
    __slots__ = ("parent", "label", "children", "oldp", "newp")

    def __init__(self, parent: Optional["_Entry"], label: int) -> None:
        self.parent, self.label = parent, label
        self.children: Dict[int, _Entry] = {}
        self.oldp, self.newp = _Prob(), _Prob()

    def active(self) -> bool:
        return self.newp.total != _LOG_ZERO

    def child(self, label: int) -> "_Entry":
        if label not in self.children:
            self.children[label] = _Entry(self, label)
        return self.children[label]

    def labels(self, merge_repeated: bool) -> List[int]:
        out, prev, node = [], -1, self
        while node.parent is not None:
            if not merge_repeated or node.label != prev:
                out.append(node.label)
            prev, node = node.label, node.parent
        return out[::-1]


def _beam_search(rows: np.ndarray, beam_width: int, top: int, merge: bool
                 ) -> Tuple[List[List[int]], List[np.float32]]:
    """One batch element: rows [time, classes] of logits."""
    classes = rows.shape[1]
    blank = classes - 1
    labels = np.arange(classes - 1)
    root = _Entry(None, -1)
    root.newp.total = root.newp.blank = _F32(0.0)
    leaves: List[_Entry] = [root]
    order = itertools.count()
    for raw in rows:
        # Log-softmax of the step's logits (shifted by their maximum for stability).
        max_coeff = _F32(raw.max())
        shifted = (raw - max_coeff).astype(np.float32)
        shifted = (shifted - _F32(np.log(np.exp(shifted).sum(dtype=np.float32)))
                   ).astype(np.float32)
        branches = sorted(leaves, key=lambda e: -e.newp.total)
        for b in branches:
            b.oldp.copy_from(b.newp)
        # The beam as a min-heap on total probability: its root is the entry a new
        # candidate must beat once the beam is full.
        heap: List[tuple] = []
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    previous = b.parent.oldp.blank if b.label == b.parent.label \
                        else b.parent.oldp.total
                    b.newp.label = _log_sum_exp(b.newp.label, previous)
                b.newp.label = _F32(b.newp.label + shifted[b.label])
            b.newp.blank = _F32(b.oldp.total + shifted[blank])
            b.newp.total = _log_sum_exp(b.newp.blank, b.newp.label)
            heapq.heappush(heap, (b.newp.total, next(order), b))
        for b in branches:
            full = len(heap) >= beam_width
            if not (b.oldp.total > _LOG_ZERO and (not full or b.oldp.total > heap[0][0])):
                continue
            previous = np.where(labels == b.label, b.oldp.blank, b.oldp.total)
            values = (shifted[:-1] + previous.astype(np.float32)).astype(np.float32)
            # Once the beam is full its bottom only rises: labels that cannot beat it now
            # never will in this step, so only those and the existing children (which TF
            # resets when it rejects them: a branch evicted earlier in this step is then
            # not grown either) are visited, in label order.
            floor = heap[0][0] if full else _LOG_ZERO
            hopeful = values > floor
            visit = set(np.nonzero(hopeful)[0].tolist())
            visit.update(b.children)
            for label in sorted(visit):
                c = b.children.get(label)
                if c is not None and c.active():
                    continue
                value = values[label]
                accept = bool(hopeful[label]) and (len(heap) < beam_width or
                                                   value > heap[0][0])
                if not accept:
                    if c is not None:
                        c.oldp.reset()
                        c.newp.reset()
                    continue
                if len(heap) == beam_width:
                    heapq.heappop(heap)[2].newp.reset()
                c = b.child(label)
                c.newp.blank = _LOG_ZERO
                c.newp.label = c.newp.total = value
                heapq.heappush(heap, (value, next(order), c))
        leaves = [entry for _, _, entry in heap]
    if top > beam_width:
        raise _invalid("requested more paths than the beam width.")
    if top > len(leaves):
        raise _invalid("Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda e: -e.newp.total)[:top]
    return [e.labels(merge) for e in best], [e.newp.total for e in best]


def _beam_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    beam_width, top = int(node.attrs["beam_width"]), int(node.attrs["top_paths"])
    merge = bool(node.attrs["merge_repeated"])

    def ctc_beam_search_decoder_op(inputs: torch.Tensor, seq_len: torch.Tensor) -> tuple:
        lengths = _check_inputs(inputs, seq_len)
        host = inputs.detach().cpu().numpy()
        log_prob = np.zeros((host.shape[1], top), dtype=host.dtype)
        paths = []
        for b, length in enumerate(lengths):
            found, scores = _beam_search(host[:length, b, :], beam_width, top, merge)
            paths.append(found)
            log_prob[b, :] = scores
        return tuple(_store(paths, top, inputs.device)) + (
            torch.from_numpy(log_prob).to(inputs.device),)
    return ctc_beam_search_decoder_op


declare("CTCBeamSearchDecoder", inputs=["inputs: T", "sequence_length: int32"],
        outputs=["decoded_indices: top_paths * int64", "decoded_values: top_paths * int64",
                 "decoded_shape: top_paths * int64", "log_probability: T"],
        attrs={"beam_width": REQUIRED, "top_paths": Int(minimum=1),
               "merge_repeated": True, "T": Type((D.float32, D.float64), default=D.float32)},
        shape=_decoder_shape, kernel=_beam_kernel, grad="none", cpu_only=True)


def ctc_beam_search_decoder(inputs: Any, sequence_length: Any, beam_width: int = 100,
                            top_paths: int = 1, merge_repeated: bool = True
                            ) -> Tuple[List[SparseTensor], Tensor]:
    """`tf.nn.ctc_beam_search_decoder` (TF1): the `top_paths` best label sequences of a
    prefix beam search over logits [max_time, batch, num_classes] (blank = last class),
    and their scores [batch, top_paths]."""
    for attr, value in (("beam_width", beam_width), ("top_paths", top_paths)):
        if int(value) < 1:
            raise ValueError(f"Attr '{attr}' of 'CTCBeamSearchDecoder' Op passed {value} less "
                             "than minimum 1.")
    outputs = apply_op("CTCBeamSearchDecoder", [inputs, sequence_length],
                       {"beam_width": int(beam_width), "top_paths": int(top_paths),
                        "merge_repeated": bool(merge_repeated)}).outputs
    k = int(top_paths)
    decoded = [SparseTensor(ix, val, shape) for ix, val, shape in
               zip(outputs[:k], outputs[k:2 * k], outputs[2 * k:3 * k])]
    return decoded, outputs[3 * k]


def ctc_beam_search_decoder_v2(inputs: Any, sequence_length: Any, beam_width: int = 100,
                               top_paths: int = 1) -> Tuple[List[SparseTensor], Tensor]:
    """`tf.nn.ctc_beam_search_decoder_v2`: the beam search without merging repeats."""
    return ctc_beam_search_decoder(inputs, sequence_length=sequence_length,
                                   beam_width=beam_width, top_paths=top_paths,
                                   merge_repeated=False)


# -- label helpers -------------------------------------------------------------------------------

def _dim(tensor: Tensor, i: int) -> Any:
    """The static size of dimension i, else its dynamic value (TF's _get_dim)."""
    return dimension_value(tensor.shape[i]) or shape(tensor)[i]


def collapse_repeated(labels: Any, seq_length: Any, name: Optional[str] = None
                      ) -> Tuple[Tensor, Tensor]:
    """`tf.nn.collapse_repeated`: runs of a repeated label merged into one, per row of
    `labels` [batch, max_len] (within `seq_length`); returns (labels, new lengths)."""
    with name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
        labels = convert_to_tensor(labels, name="labels")
        seq_length = convert_to_tensor(seq_length, name="seq_length")
        label_mask = concat([ones_like(labels[:, :1], D.bool),
                             not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        maxlen = _dim(labels, 1)
        seq_mask = sequence_mask(seq_length, maxlen=maxlen)
        label_mask = logical_and(label_mask, seq_mask)
        new_seq_len = reduce_sum(cast(label_mask, D.int32), axis=1)
        new_maxlen = reduce_max(new_seq_len)
        idx_mask = sequence_mask(new_seq_len, maxlen=new_maxlen)
        flat_labels = reshape(labels, [-1])
        flat_label_mask = reshape(label_mask, [-1])
        flat_idx_mask = reshape(idx_mask, [-1])
        idx = range_(_dim(flat_idx_mask, 0))
        flat = scatter_nd(indices=expand_dims(boolean_mask(idx, flat_idx_mask), axis=1),
                          updates=boolean_mask(flat_labels, flat_label_mask),
                          shape=shape(flat_idx_mask))
        batch_size = _dim(labels, 0)
        return reshape(flat, [batch_size, new_maxlen]), cast(new_seq_len, seq_length.dtype)


def ctc_unique_labels(labels: Any, name: Optional[str] = None) -> List[Tensor]:
    """`tf.nn.ctc_unique_labels`: per row, its unique labels (int64, zero padded to the
    row length) and each label's index among them (int32)."""
    with name_scope(name, "ctc_unique_labels", [labels]):
        labels = convert_to_tensor(labels, name="labels")

        def unique_row(x: Tensor) -> List[Tensor]:
            u = unique(x)
            y = pad(u.y, [[0, _dim(u.idx, 0) - _dim(u.y, 0)]])
            return [cast(y, D.int64), u.idx]
        return map_fn(unique_row, labels, dtype=[D.int64, D.int32])
