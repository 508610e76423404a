"""`tf.RaggedTensor` and `tf.ragged.RaggedTensorValue` (TF 1.15's ragged_tensor.py).

A RaggedTensor is a composite of graph (or eager) tensors: `flat_values` and one int64
(or int32) `row_splits` vector per ragged dimension, outermost first. Row `i` of a
ragged_rank-1 tensor is `values[row_splits[i]:row_splits[i + 1]]`; with a higher
ragged_rank, `values` is itself a RaggedTensor. The factories build the splits with
ordinary ops (cumsum, repeat, segment sums) so graph mode and eager mode share them;
`Session.run` fetches a RaggedTensor as a RaggedTensorValue of numpy arrays and feeds
one into a RaggedTensor's components (registered with runtime/fetch.py below).
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import array_ops, check_ops, creation_ops, indexing_ops, math_ops
from tf1compat.ops import reduction_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ragged import _row_ops as R
from tf1compat.runtime.fetch import register_session_run_conversion_functions

__all__ = ["RaggedTensor", "RaggedTensorValue", "is_ragged"]

_PRIVATE = ("RaggedTensor constructor is private; please use one of the factory methods "
            "instead (e.g., RaggedTensor.from_row_lengths())")


def is_ragged(value: Any) -> bool:
    """Whether `value` is a RaggedTensor or a RaggedTensorValue."""
    return isinstance(value, (RaggedTensor, RaggedTensorValue))


def _convert_values(values: Any) -> Any:
    if isinstance(values, RaggedTensor):
        return values
    return convert_to_tensor(values, name="values")


class RaggedTensor:
    """A tensor with one or more ragged dimensions (rows of different lengths)."""

    def __init__(self, values: Any, row_splits: Tensor, cached_row_lengths: Any = None,
                 cached_value_rowids: Any = None, cached_nrows: Any = None,
                 internal: bool = False):
        if not internal:
            raise ValueError(_PRIVATE)
        if not isinstance(values, (RaggedTensor, Tensor)):
            raise TypeError("values must be a Tensor or RaggedTensor.")
        if isinstance(values, RaggedTensor) and values.row_splits.dtype != row_splits.dtype:
            raise ValueError("dtype mismatch: row_splits has dtype "
                             f"{row_splits.dtype.name} but values.row_splits has dtype "
                             f"{values.row_splits.dtype.name}")
        values.shape.with_rank_at_least(1)
        self._values = values
        self._row_splits = row_splits
        self._cached_row_lengths = cached_row_lengths
        self._cached_value_rowids = cached_value_rowids
        self._cached_nrows = cached_nrows

    # -- factories --------------------------------------------------------------------------

    @classmethod
    def from_row_splits(cls, values: Any, row_splits: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i is `values[row_splits[i]:row_splits[i + 1]]`."""
        with name_scope(name, "RaggedFromRowSplits", [values, row_splits]):
            values = _convert_values(values)
            row_splits = R.convert_partition(row_splits, "row_splits")
            if validate:
                row_splits = R.validate("from_row_splits", row_splits,
                                        R.nrows_of(values, row_splits.dtype), [])
            return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values: Any, row_lengths: Any, name: Optional[str] = None,
                         validate: bool = True) -> "RaggedTensor":
        """Row i holds the next `row_lengths[i]` values."""
        with name_scope(name, "RaggedFromRowLengths", [values, row_lengths]):
            values = _convert_values(values)
            row_lengths = R.convert_partition(row_lengths, "row_lengths")
            splits = R.lengths_to_splits(row_lengths)
            if validate:
                msg = "Arguments to from_row_lengths do not form a valid RaggedTensor"
                splits = R.validate("from_row_lengths", splits,
                                    R.nrows_of(values, splits.dtype),
                                    [check_ops.assert_non_negative(row_lengths, message=msg)])
            return cls(values, splits, cached_row_lengths=row_lengths, internal=True)

    @classmethod
    def from_value_rowids(cls, values: Any, value_rowids: Any, nrows: Any = None,
                          name: Optional[str] = None, validate: bool = True) -> "RaggedTensor":
        """Value j belongs to row `value_rowids[j]` (sorted); `nrows` adds empty trailing
        rows."""
        with name_scope(name, "RaggedFromValueRowIds", [values, value_rowids, nrows]):
            values = _convert_values(values)
            value_rowids = R.convert_partition(value_rowids, "value_rowids")
            value_rowids.shape.assert_is_compatible_with(values.shape[:1])
            if nrows is not None:
                nrows = convert_to_tensor(nrows, dtype=value_rowids.dtype, name="nrows")
                nrows.shape.assert_has_rank(0)
                R.static_nrows_check(value_rowids, nrows)
            checks = []
            if validate:
                msg = "Arguments to from_value_rowids do not form a valid RaggedTensor"
                checks = [check_ops.assert_non_negative(value_rowids[:1], message=msg),
                          check_ops.assert_non_negative(R.splits_to_lengths(value_rowids),
                                                        message=msg),
                          check_ops.assert_equal(
                              array_ops.size(value_rowids, out_type=value_rowids.dtype),
                              R.nrows_of(values, value_rowids.dtype), message=msg)]
                if nrows is not None:
                    checks.append(check_ops.assert_less(value_rowids[-1:], nrows,
                                                         message=msg))
            if checks:
                value_rowids = with_dependencies(checks, value_rowids)
            splits = R.rowids_to_splits(value_rowids, nrows)
            return cls(values, splits, cached_value_rowids=value_rowids, cached_nrows=nrows,
                       internal=True)

    @classmethod
    def from_row_starts(cls, values: Any, row_starts: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i is `values[row_starts[i]:row_starts[i + 1]]` (the last runs to the end)."""
        with name_scope(name, "RaggedFromRowStarts", [values, row_starts]):
            values = _convert_values(values)
            row_starts = R.convert_partition(row_starts, "row_starts")
            nvals = R.nrows_of(values, row_starts.dtype)
            splits = array_ops.concat([row_starts, array_ops.reshape(nvals, [1])], 0)
            if validate:
                splits = R.validate("from_row_starts", splits, nvals, [])
            return cls(values, splits, internal=True)

    @classmethod
    def from_row_limits(cls, values: Any, row_limits: Any, name: Optional[str] = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i is `values[row_limits[i - 1]:row_limits[i]]` (the first starts at 0)."""
        with name_scope(name, "RaggedFromRowLimits", [values, row_limits]):
            values = _convert_values(values)
            row_limits = R.convert_partition(row_limits, "row_limits")
            zero = creation_ops.zeros([1], dtype=row_limits.dtype)
            splits = array_ops.concat([zero, row_limits], 0)
            if validate:
                splits = R.validate("from_row_limits", splits,
                                    R.nrows_of(values, splits.dtype), [])
            return cls(values, splits, internal=True)

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Any,
                               name: Optional[str] = None, validate: bool = True
                               ) -> "RaggedTensor":
        """One `from_row_splits` per ragged dimension, innermost first."""
        return cls._nested("from_nested_row_splits", "RaggedFromNestedRowSplits",
                           cls.from_row_splits, flat_values, nested_row_splits, name, validate)

    @classmethod
    def from_nested_row_lengths(cls, flat_values: Any, nested_row_lengths: Any,
                                name: Optional[str] = None, validate: bool = True
                                ) -> "RaggedTensor":
        """One `from_row_lengths` per ragged dimension, innermost first."""
        return cls._nested("from_nested_row_lengths", "RaggedFromNestedRowlengths",
                           cls.from_row_lengths, flat_values, nested_row_lengths, name,
                           validate)

    @classmethod
    def from_nested_value_rowids(cls, flat_values: Any, nested_value_rowids: Any,
                                 nested_nrows: Any = None, name: Optional[str] = None,
                                 validate: bool = True) -> "RaggedTensor":
        """One `from_value_rowids` per ragged dimension, innermost first."""
        if isinstance(nested_value_rowids, Tensor):
            raise TypeError("nested_value_rowids must be a list of Tensors")
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        elif isinstance(nested_nrows, Tensor) or \
                len(nested_nrows) != len(nested_value_rowids):
            raise ValueError("nested_nrows must be a list of Tensors with the same length "
                             "as nested_value_rowids")
        with name_scope(name, "RaggedFromNestedValueRowIds", [flat_values]):
            result = flat_values
            for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
                result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
            return result

    @classmethod
    def _nested(cls, factory: str, scope: str, one: Any, flat_values: Any, partitions: Any,
                name: Optional[str], validate: bool) -> "RaggedTensor":
        if isinstance(partitions, Tensor):
            raise TypeError(f"{factory.replace('from_', '')} must be a list of Tensors")
        with name_scope(name, scope, [flat_values]):
            result = flat_values
            for partition in reversed(list(partitions)):
                result = one(result, partition, validate=validate)
            return result

    @classmethod
    def from_tensor(cls, tensor: Any, lengths: Any = None, padding: Any = None,
                    ragged_rank: int = 1, name: Optional[str] = None,
                    row_splits_dtype: Any = D.int64) -> "RaggedTensor":
        """The rows of a dense `tensor`, cut at `lengths` or where trailing `padding`
        starts (at most one of the two); `ragged_rank` leading dimensions become ragged."""
        from tf1compat.ragged._conversions import from_tensor
        return from_tensor(cls, tensor, lengths, padding, ragged_rank, name,
                           D.as_dtype(row_splits_dtype))

    @classmethod
    def from_sparse(cls, st_input: Any, name: Optional[str] = None,
                    row_splits_dtype: Any = D.int64) -> "RaggedTensor":
        """The rows of a 2-D SparseTensor whose values are left-aligned in each row."""
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"st_input must be a SparseTensor; got {st_input!r}")
        static_rank = st_input.indices.shape[1]
        if static_rank is not None and int(static_rank) != 2:
            raise ValueError("rank(st_input) must be 2.")
        with name_scope(name, "RaggedFromSparse", [st_input]):
            dtype = D.as_dtype(row_splits_dtype)
            rowids = math_ops.cast(st_input.indices[:, 0], dtype)
            nrows = math_ops.cast(st_input.dense_shape[0], dtype)
            return cls.from_value_rowids(st_input.values, rowids, nrows, validate=False)

    # -- properties -------------------------------------------------------------------------

    @property
    def dtype(self) -> D.DType:
        return self._values.dtype

    @property
    def row_splits_dtype(self) -> D.DType:
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        """[nrows, None (ragged), ...values' inner dimensions]."""
        nsplits = self._row_splits.shape.with_rank(1).as_list()[0]
        nrows = None if nsplits is None else nsplits - 1
        return TensorShape([nrows, None]).concatenate(self._values.shape[1:])

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def _type_spec(self) -> Any:
        """The RaggedTensorSpec of this value."""
        from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
        return RaggedTensorSpec.from_value(self)

    @property
    def ragged_rank(self) -> int:
        inner = self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0
        return inner + 1

    @property
    def values(self) -> Any:
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values.values
        return values

    @property
    def nested_row_splits(self) -> tuple:
        splits = [self._row_splits]
        values = self._values
        while isinstance(values, RaggedTensor):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    def value_rowids(self, name: Optional[str] = None) -> Tensor:
        """The row index of each value."""
        if self._cached_value_rowids is not None:
            return self._cached_value_rowids
        with name_scope(name, "RaggedValueRowIds", [self]):
            return R.splits_to_rowids(self._row_splits)

    def nrows(self, out_type: Any = None, name: Optional[str] = None) -> Tensor:
        """The number of rows (a scalar of `out_type`, default the splits' dtype)."""
        out_type = self._row_splits.dtype if out_type is None else D.as_dtype(out_type)
        if self._cached_nrows is not None:
            return math_ops.cast(self._cached_nrows, out_type)
        with name_scope(name, "RaggedNRows", [self]):
            return array_ops.shape(self._row_splits, out_type=out_type)[0] - 1

    def row_starts(self, name: Optional[str] = None) -> Tensor:
        with name_scope(name, "RaggedRowStarts", [self]):
            return R.drop_last(self._row_splits)

    def row_limits(self, name: Optional[str] = None) -> Tensor:
        with name_scope(name, "RaggedRowLimits", [self]):
            return R.drop_first(self._row_splits)

    def row_lengths(self, axis: int = 1, name: Optional[str] = None) -> Any:
        """The length of each row (axis 1), or of each row of a deeper ragged axis."""
        if self._cached_row_lengths is not None and axis == 1:
            return self._cached_row_lengths
        with name_scope(name, "RaggedRowLengths", [self]):
            if axis == 0:
                return self.nrows()
            if axis == 1:
                return R.splits_to_lengths(self._row_splits)
            if axis < 0 or not isinstance(self._values, RaggedTensor):
                raise NotImplementedError(f"RaggedTensor.row_lengths(axis={axis}): only axis "
                                          "0, 1 and deeper ragged axes are supported")
            return self.with_values(self._values.row_lengths(axis - 1))

    def nested_row_lengths(self, name: Optional[str] = None) -> tuple:
        with name_scope(name, "RaggedNestedRowLengths", [self]):
            return tuple(R.splits_to_lengths(s) for s in self.nested_row_splits)

    def bounding_shape(self, axis: Any = None, name: Optional[str] = None,
                       out_type: Any = None) -> Tensor:
        """The smallest dense shape that holds every row: [nrows, longest row, ...]."""
        out_type = self._row_splits.dtype if out_type is None else D.as_dtype(out_type)
        with name_scope(name, "RaggedBoundingBox", [self, axis]):
            dims = [self.nrows(out_type=out_type)]
            for splits in self.nested_row_splits:
                longest = reduction_ops.reduce_max(R.splits_to_lengths(splits))
                dims.append(math_ops.maximum(math_ops.cast(longest, out_type),
                                             math_ops.cast(0, out_type)))
            inner = array_ops.shape(self.flat_values, out_type=out_type)[1:]
            shape = array_ops.concat([array_ops.stack(dims), inner], 0)
            return shape if axis is None else indexing_ops.gather(shape, axis)

    # -- transformations --------------------------------------------------------------------

    def with_values(self, new_values: Any) -> "RaggedTensor":
        """The same row partition over `new_values` (as many rows as `values` has)."""
        new_values = _convert_values(new_values)
        new_values.shape.with_rank_at_least(1)
        self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
        if isinstance(new_values, RaggedTensor) and \
                new_values.row_splits.dtype != self._row_splits.dtype:
            new_values = new_values.with_row_splits_dtype(self._row_splits.dtype)
        return RaggedTensor(new_values, self._row_splits, self._cached_row_lengths,
                            self._cached_value_rowids, self._cached_nrows, internal=True)

    def with_flat_values(self, new_values: Any) -> "RaggedTensor":
        """The same nested row partitions over new flat values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype: Any) -> "RaggedTensor":
        """This RaggedTensor with its row partitions cast to int32 or int64."""
        dtype = D.as_dtype(dtype)
        if dtype not in (D.int32, D.int64):
            raise ValueError(f"dtype must be int32 or int64; got {dtype}")
        if dtype == self._row_splits.dtype:
            return self
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        return RaggedTensor(values, math_ops.cast(self._row_splits, dtype), internal=True)

    def to_tensor(self, default_value: Any = None, name: Optional[str] = None,
                  shape: Any = None) -> Tensor:
        """A dense tensor padded with `default_value` (zero / empty string) to
        `bounding_shape()`, or cut / padded to `shape`'s known dimensions."""
        from tf1compat.ragged._conversions import to_tensor
        return to_tensor(self, default_value, name, shape)

    def to_sparse(self, name: Optional[str] = None) -> SparseTensor:
        """A SparseTensor with a value at each element of the ragged tensor."""
        from tf1compat.ragged._conversions import to_sparse
        return to_sparse(self, name)

    def to_list(self) -> list:
        """The nested Python list of the values (eager mode only, as TF)."""
        if not executing_eagerly():
            raise ValueError("to_list can only be used in eager mode.")
        splits = [np.asarray(s.numpy()) for s in self.nested_row_splits]
        return RaggedTensorValue._build(np.asarray(self.flat_values.numpy()),
                                        splits).to_list()

    def numpy(self) -> np.ndarray:
        """The rows as a numpy array (eager mode only, as TF): rows of different lengths
        make a 1-D object array of row arrays, rows of one length one array."""
        if not executing_eagerly():
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)     # TF's object array of rows
            out[:] = rows
            return out
        return np.array(rows)

    def __getitem__(self, key: Any) -> Any:
        from tf1compat.ragged._getitem import ragged_getitem
        return ragged_getitem(self, key)

    def consumers(self) -> list:
        seen = []
        for t in (self.flat_values,) + self.nested_row_splits:
            for op in t.consumers():
                if op not in seen:
                    seen.append(op)
        return seen

    @property
    def graph(self) -> Any:
        return self._row_splits.graph

    def eval(self, feed_dict: Any = None, session: Any = None) -> "RaggedTensorValue":
        """The value in `session` (or the default session)."""
        # The same look-up of the default session as SparseTensor's.
        return SparseTensor.eval(self, feed_dict, session)

    def __repr__(self) -> str:
        if getattr(self.flat_values, "_is_eager_tensor", False):
            return f"<tf.RaggedTensor {self.to_list()}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    def __str__(self) -> str:
        return self.__repr__()

    def __bool__(self) -> bool:
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def _overload(op: str, reverse: bool = False) -> Any:  # noqa: N805 - builds methods
        def method(self: "RaggedTensor", other: Any = None) -> Any:
            from tf1compat.ragged import ragged_math
            fn = getattr(ragged_math, op)
            return fn(self) if other is None and op in ("negative", "abs", "logical_not") \
                else (fn(other, self) if reverse else fn(self, other))
        method.__name__ = f"__{op}__"
        return method

    __add__, __radd__ = _overload("add"), _overload("add", True)
    __sub__, __rsub__ = _overload("subtract"), _overload("subtract", True)
    __mul__, __rmul__ = _overload("multiply"), _overload("multiply", True)
    __truediv__, __rtruediv__ = _overload("truediv"), _overload("truediv", True)
    __floordiv__, __rfloordiv__ = _overload("floordiv"), _overload("floordiv", True)
    __mod__, __rmod__ = _overload("floormod"), _overload("floormod", True)
    __pow__, __rpow__ = _overload("pow"), _overload("pow", True)
    __lt__, __le__ = _overload("less"), _overload("less_equal")
    __gt__, __ge__ = _overload("greater"), _overload("greater_equal")
    __and__, __rand__ = _overload("logical_and"), _overload("logical_and", True)
    __or__, __ror__ = _overload("logical_or"), _overload("logical_or", True)
    __xor__, __rxor__ = _overload("logical_xor"), _overload("logical_xor", True)
    __neg__, __abs__ = _overload("negative"), _overload("abs")
    __invert__ = _overload("logical_not")
    del _overload


class RaggedTensorValue:
    """A fetched RaggedTensor: numpy `values` (or a nested RaggedTensorValue) and
    `row_splits`."""

    def __init__(self, values: Any, row_splits: Any):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and
                row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and \
                row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values = values
        self._row_splits = row_splits

    @staticmethod
    def _build(flat_values: np.ndarray, nested_splits: List[np.ndarray]
               ) -> "RaggedTensorValue":
        value = flat_values
        for splits in reversed(nested_splits):
            value = RaggedTensorValue(value, splits)
        return value

    row_splits = property(lambda self: self._row_splits)
    values = property(lambda self: self._values)

    @property
    def dtype(self) -> np.dtype:
        return self._values.dtype

    @property
    def flat_values(self) -> np.ndarray:
        values = self._values
        while isinstance(values, RaggedTensorValue):
            values = values.values
        return values

    @property
    def nested_row_splits(self) -> tuple:
        out, value = [], self
        while isinstance(value, RaggedTensorValue):
            out.append(value.row_splits)
            value = value.values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def shape(self) -> tuple:
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def to_list(self) -> list:
        """The nested Python list of the values."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensorValue) \
            else self._values.tolist()
        s = self._row_splits.tolist()
        return [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def __str__(self) -> str:
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self) -> str:
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"


# -- Session.run: a RaggedTensor is fetched and fed as its components ---------------------------

def _components(rt: RaggedTensor) -> list:
    return [rt.flat_values] + list(rt.nested_row_splits)


def _fetch(rt: RaggedTensor) -> tuple:
    return _components(rt), lambda v: RaggedTensorValue._build(v[0], list(v[1:]))


def _feed(rt: RaggedTensor, value: Any) -> list:
    if isinstance(value, RaggedTensor):
        raise TypeError("The value of a feed cannot be a tf.RaggedTensor object.")
    if not isinstance(value, RaggedTensorValue):
        raise TypeError(f"The value fed to a RaggedTensor must be a RaggedTensorValue; "
                        f"got {type(value).__name__}")
    if value.ragged_rank != rt.ragged_rank:
        raise ValueError(f"A RaggedTensorValue of ragged_rank {value.ragged_rank} cannot "
                         f"feed a RaggedTensor of ragged_rank {rt.ragged_rank}")
    parts = [value.flat_values] + list(value.nested_row_splits)
    return list(zip(_components(rt), parts))


register_session_run_conversion_functions(RaggedTensor, _fetch, _feed, _components)
