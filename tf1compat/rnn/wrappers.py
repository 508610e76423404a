"""The TF1 cell wrappers of `tf.nn.rnn_cell`: DropoutWrapper, ResidualWrapper and
DeviceWrapper (TF's `legacy_cell_wrappers`).

A wrapper is an RNNCell around another cell whose `__call__` runs the wrapped cell's
`__call__` directly (the wrapper opens no variable scope of its own, so the wrapped
cell's variables keep their names: `rnn/basic_lstm_cell/kernel`).

DropoutWrapper's per-element seeds are TF's: `md5(str(seed) + "<input|state|output>_<i>")`
for the i-th leaf, so seeded dropout draws the numbers real TF draws.
"""

from __future__ import annotations

import hashlib
import numbers
from typing import Any, Callable, List, Optional

from tf1compat.util import nest
from tf1compat.framework.misc import get_static_value
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops import namespace as ops
from tf1compat.rnn.cell_base import LSTMStateTuple, RNNCell, assert_like_rnncell

__all__ = ["DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "map_structure_up_to",
           "traverse_shallow_structure"]


# -- nest helpers TF's wrappers rely on ---------------------------------------------------------

def _flatten_up_to(shallow: Any, structure: Any) -> List[Any]:
    if not nest.is_nested(shallow):
        return [structure]
    if not nest.is_nested(structure):
        raise TypeError("If shallow structure is a sequence, input must also be a sequence. "
                        f"Input has type: {type(structure)}.")
    if len(shallow) != len(structure):
        raise ValueError("The two structures don't have the same sequence length. Input "
                         f"structure has length {len(structure)}, while shallow structure "
                         f"has length {len(shallow)}.")
    if isinstance(shallow, dict):
        keys = sorted(shallow)
        pairs = [(shallow[k], structure[k]) for k in keys]
    else:
        pairs = list(zip(shallow, structure))
    out: List[Any] = []
    for s, x in pairs:
        out.extend(_flatten_up_to(s, x))
    return out


def map_structure_up_to(shallow: Any, fn: Callable[..., Any], *structures: Any) -> Any:
    """`nest.map_structure_up_to`: `fn` applied to the subtrees at `shallow`'s leaves."""
    flats = [_flatten_up_to(shallow, s) for s in structures]
    return nest.pack_sequence_as(shallow, [fn(*xs) for xs in zip(*flats)])


def _enumerated_map_up_to(shallow: Any, fn: Callable[..., Any], *structures: Any) -> Any:
    counter = [0]

    def numbered(*args: Any) -> Any:
        result = fn(counter[0], *args)
        counter[0] += 1
        return result
    return map_structure_up_to(shallow, numbered, *structures)


def _like(structure: Any, items: List[Any]) -> Any:
    if isinstance(structure, dict):
        return {k: v for k, v in zip(sorted(structure), items)}
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*items)
    return type(structure)(items)


def traverse_shallow_structure(traverse_fn: Callable[[Any], Any], structure: Any) -> Any:
    """`nest.get_traverse_shallow_structure`: the bool structure `traverse_fn` describes."""
    to_traverse = traverse_fn(structure)
    if not nest.is_nested(structure):
        if not isinstance(to_traverse, bool):
            raise TypeError(f"traverse_fn returned structure: {to_traverse} for "
                            f"non-structure: {structure}")
        return to_traverse
    branches = [structure[k] for k in sorted(structure)] if isinstance(structure, dict) \
        else list(structure)
    if isinstance(to_traverse, bool):
        if not to_traverse:
            return False
        level = [traverse_shallow_structure(traverse_fn, b) for b in branches]
    elif not nest.is_nested(to_traverse):
        raise TypeError(f"traverse_fn returned a non-bool scalar: {to_traverse} for input: "
                        f"{structure}")
    else:
        flags = [to_traverse[k] for k in sorted(to_traverse)] \
            if isinstance(to_traverse, dict) else list(to_traverse)
        if len(flags) != len(branches):
            raise ValueError("traverse_fn returned a structure of a different length than "
                             "its input.")
        level = []
        for t, b in zip(flags, branches):
            if not isinstance(t, bool):
                raise TypeError("traverse_fn didn't return a depth=1 structure of bools.  "
                                f"saw: {to_traverse}  for structure: {structure}")
            level.append(traverse_shallow_structure(traverse_fn, b) if t else False)
    return _like(structure, level)


def _default_dropout_state_filter_visitor(substate: Any) -> Any:
    # An LSTM's cell state is not dropped out, only its output h.
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    if isinstance(substate, TensorArray):
        return False
    return True


# -- wrappers ---------------------------------------------------------------------------------

class _RNNCellWrapperV1(RNNCell):
    """An RNNCell that runs another cell (TF's `_RNNCellWrapperV1`)."""

    def __init__(self, cell: Any, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        assert_like_rnncell("cell", cell)
        self.cell = cell
        if hasattr(cell, "_track_trackable"):
            self._track_trackable(self.cell, name="cell")

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any],
                           **kwargs: Any) -> Any:
        raise NotImplementedError

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.__call__,
                                       scope=scope)

    @property
    def state_size(self) -> Any:
        return self.cell.state_size

    @property
    def output_size(self) -> Any:
        return self.cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def get_config(self) -> dict:
        config = {"cell": {"class_name": type(self.cell).__name__,
                           "config": self.cell.get_config()}}
        return {**RNNCell.get_config(self), **config}


class DropoutWrapper(_RNNCellWrapperV1):
    """`tf.nn.rnn_cell.DropoutWrapper`: dropout on the cell's inputs, state and outputs.

    `*_keep_prob` may be floats or tensors; `variational_recurrent=True` draws one mask
    per sequence (noise made at construction, needs `dtype`, and `input_size` when inputs
    are dropped), as Gal & Ghahramani; otherwise each step draws new masks.
    """

    def __init__(self, cell: Any, input_keep_prob: Any = 1.0, output_keep_prob: Any = 1.0,
                 state_keep_prob: Any = 1.0, variational_recurrent: bool = False,
                 input_size: Any = None, dtype: Any = None, seed: Optional[int] = None,
                 dropout_state_filter_visitor: Any = None, **kwargs: Any):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and \
                not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable. Received: "
                            f"{dropout_state_filter_visitor}")
        self._dropout_state_filter = (dropout_state_filter_visitor or
                                      _default_dropout_state_filter_visitor)
        with ops.name_scope("DropoutWrapperInit"):
            for prob, attr in [(input_keep_prob, "input_keep_prob"),
                               (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")]:
                tensor_prob = convert_to_tensor(prob)
                const_prob = get_static_value(tensor_prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError(f"Parameter {attr} must be between 0 and 1. "
                                         f"Received {const_prob}")
                    setattr(self, f"_{attr}", float(const_prob))
                else:
                    setattr(self, f"_{attr}", tensor_prob)
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._recurrent_input_noise = None
        self._recurrent_state_noise = None
        self._recurrent_output_noise = None
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def batch_noise(s: Any, inner_seed: Optional[int]) -> Any:
                shape = ops.concat(([1], TensorShape(s).as_list()), 0)
                return ops.random_uniform(shape, seed=inner_seed, dtype=dtype)
            if not isinstance(self._input_keep_prob, numbers.Real) or \
                    self._input_keep_prob < 1.0:
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < "
                                     "1.0 or is unknown, input_size must be provided")
                self._recurrent_input_noise = _enumerated_map_up_to(
                    input_size, lambda i, s: batch_noise(s, self._gen_seed("input", i)),
                    input_size)
            self._recurrent_state_noise = _enumerated_map_up_to(
                cell.state_size, lambda i, s: batch_noise(s, self._gen_seed("state", i)),
                cell.state_size)
            self._recurrent_output_noise = _enumerated_map_up_to(
                cell.output_size, lambda i, s: batch_noise(s, self._gen_seed("output", i)),
                cell.output_size)

    def _gen_seed(self, salt_prefix: str, index: int) -> Optional[int]:
        if self._seed is None:
            return None
        text = (str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")
        return int(hashlib.md5(text).hexdigest()[:8], 16) & 0x7FFFFFFF

    @property
    def wrapped_cell(self) -> Any:
        return self.cell

    def build(self, input_shape: Any) -> None:
        self.cell.build(input_shape)
        self.built = True

    def _variational_value(self, value: Any, noise: Any, keep_prob: Any) -> Any:
        # One mask per sequence: floor(keep_prob + noise) is 1 with probability keep_prob.
        binary = ops.floor(keep_prob + noise)
        result = ops.divide(value, keep_prob) * binary
        result.set_shape(value.shape)
        return result

    def _dropout(self, values: Any, salt_prefix: str, recurrent_noise: Any, keep_prob: Any,
                 shallow: Any = None) -> Any:
        if shallow is None:
            shallow = values
        if not self._variational_recurrent:
            def dropout(i: int, do_dropout: Any, v: Any) -> Any:
                if not isinstance(do_dropout, bool) or do_dropout:
                    return ops.dropout(v, rate=1.0 - keep_prob,
                                       seed=self._gen_seed(salt_prefix, i))
                return v
            return _enumerated_map_up_to(shallow, dropout, shallow, values)

        def variational(i: int, do_dropout: Any, v: Any, n: Any) -> Any:
            if not isinstance(do_dropout, bool) or do_dropout:
                return self._variational_value(v, n, keep_prob)
            return v
        return _enumerated_map_up_to(shallow, variational, shallow, values, recurrent_noise)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any],
                           **kwargs: Any) -> Any:
        def should_dropout(p: Any) -> bool:
            return (not isinstance(p, float)) or p < 1
        if should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._recurrent_input_noise,
                                   self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if should_dropout(self._state_keep_prob):
            shallow = traverse_shallow_structure(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._recurrent_state_noise,
                                      self._state_keep_prob, shallow)
        if should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._recurrent_output_noise,
                                   self._output_keep_prob)
        return output, new_state

    def get_config(self) -> dict:
        config = {"input_keep_prob": self._input_keep_prob,
                  "output_keep_prob": self._output_keep_prob,
                  "state_keep_prob": self._state_keep_prob,
                  "variational_recurrent": self._variational_recurrent,
                  "input_size": self._input_size, "seed": self._seed}
        return {**super().get_config(), **config}


class ResidualWrapper(_RNNCellWrapperV1):
    """`tf.nn.rnn_cell.ResidualWrapper`: the output is `inputs + cell output` (or
    `residual_fn(inputs, outputs)`)."""

    def __init__(self, cell: Any, residual_fn: Optional[Callable[..., Any]] = None,
                 **kwargs: Any):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any],
                           **kwargs: Any) -> Any:
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs: Any, outputs: Any) -> Any:
            nest.assert_same_structure(inputs, outputs)
            nest.map_structure(lambda i, o: i.shape.assert_is_compatible_with(o.shape),
                               inputs, outputs)
            return nest.map_structure(lambda i, o: i + o, inputs, outputs)
        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapperV1):
    """`tf.nn.rnn_cell.DeviceWrapper`: runs the cell (and builds its zero state) on
    `device`."""

    def __init__(self, cell: Any, device: Any, **kwargs: Any):
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            with ops.device(self._device):
                return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any],
                           **kwargs: Any) -> Any:
        with ops.device(self._device):
            return cell_call_fn(inputs, state, **kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "device": self._device}
