"""Mutable lookup tables (`tf.lookup.experimental.MutableHashTable`, `DenseHashTable`):
ops MutableHashTableV2, MutableHashTableOfTensorsV2, MutableDenseHashTableV2,
LookupTableInsertV2, LookupTableRemoveV2 (finds, sizes, exports and imports go through
lookup_ops' LookupTable*V2 kernels, which hand mutable tables to `MutableTable`).

A table op is a stateful op whose run-time value is the session's `MutableTable` (keys
as Python ints/bytes, values as numpy rows of `value_shape`). With `checkpoint=True` the
table joins the SAVEABLE_OBJECTS collection and `tf.train.Saver` saves `<name>-keys` and
`<name>-values` as TF does. A DenseHashTable's export is its buckets: `DenseTable`
holds them as TF does (its open addressing reproduced), so checkpoints pass between TF
and tf1compat both ways.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import (GraphKeys, add_to_collection, apply_op, apply_op1,
                                       name_scope)
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._string_hash import tf_hash64
from tf1compat.ops.lookup_base import LookupInterface
from tf1compat.ops.lookup_ops import as_keys, output_array

__all__ = ["MutableHashTable", "DenseHashTable", "MutableTable"]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _dims(shape: Any) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


class MutableTable:
    """One session's mutable table."""

    mutable = True

    def __init__(self, key_dtype: D.DType, value_dtype: D.DType, value_shape: tuple):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.value_shape = tuple(value_shape)
        self.data: Dict[Any, Any] = {}
        self.empty_key: Any = None
        self.deleted_key: Any = None

    def _check_keys(self, keys: List[Any]) -> None:
        if self.empty_key is None:
            return
        for key in keys:
            if key == self.empty_key:
                raise _invalid("Using the empty_key as a table key is not allowed")
            if key == self.deleted_key:
                raise _invalid("Using the deleted_key as a table key is not allowed")

    def _rows(self, keys: Any, values: Any) -> List[Any]:
        key_shape = tuple(keys.shape)
        expected = key_shape + self.value_shape
        if tuple(values.shape) != expected:
            raise _invalid(f"Expected shape {_dims(expected)} for value, got "
                           f"{_dims(values.shape)}")
        flat = as_keys(values) if not self.value_shape else \
            [np.asarray(row) for row in _numpy(values).reshape((-1,) + self.value_shape)]
        return flat

    def insert(self, keys: Any, values: Any) -> None:
        flat_keys = as_keys(keys)
        rows = self._rows(keys, values)
        self._check_keys(flat_keys)
        self.data.update(zip(flat_keys, rows))

    def remove(self, keys: Any) -> None:
        flat_keys = as_keys(keys)
        self._check_keys(flat_keys)
        for key in flat_keys:
            self.data.pop(key, None)

    def _get(self, key: Any, default: Any) -> Any:
        return self.data.get(key, default)

    def find(self, keys: Any, default: Any, device: Any) -> Any:
        flat_keys = as_keys(keys)
        self._check_keys(flat_keys)
        default_rows = _numpy(default).reshape((-1,) + self.value_shape)
        if len(default_rows) == 1:
            rows = [self._get(k, default_rows[0]) for k in flat_keys]
        else:
            rows = [self._get(k, d) for k, d in zip(flat_keys, default_rows)]
        shape = tuple(keys.shape) + self.value_shape
        if not self.value_shape:
            return output_array([r.item() if isinstance(r, np.generic) else r for r in rows],
                                shape, self.value_dtype, device)
        return _rows_output(rows, shape, self.value_dtype, device)

    def size(self) -> int:
        return len(self.data)

    def export(self, device: Any) -> tuple:
        keys = list(self.data)
        values = [self.data[k] for k in keys]
        return (output_array(keys, (len(keys),), self.key_dtype, device),
                _rows_output(values, (len(keys),) + self.value_shape, self.value_dtype,
                             device))

    def import_(self, keys: Any, values: Any) -> None:
        """Replaces the contents (a checkpoint restore): TF's LookupTableImportV2."""
        flat_keys = as_keys(keys)
        rows = [np.asarray(r) for r in _numpy(values).reshape((len(flat_keys),) +
                                                              self.value_shape)]
        if not self.value_shape:
            rows = [r.item() for r in rows]
        self.data = dict(zip(flat_keys, rows))


class DenseTable(MutableTable):
    """A session's MutableDenseHashTable, held as TF holds it: arrays of buckets (keys,
    values), each key at the first empty or deleted bucket of its probe sequence (its
    hash masked to the bucket count, then +1, +2, ...: TF's quadratic probing; the
    hash of an integer key is its value, of a string TF's Hash64), removed keys marked
    `deleted_key`, doubled (the live pairs inserted again in bucket order) before an
    insert that would pass `max_load_factor`. Its export is the buckets (keys
    [buckets, 1], values [buckets, elements of a value]), which is what TF's
    checkpoints hold and its restore adopts as they are: each side finds the other's
    keys."""

    def __init__(self, key_dtype: D.DType, value_dtype: D.DType, value_shape: tuple):
        super().__init__(key_dtype, value_dtype, value_shape)
        self.max_load = 0.8
        self.entries = 0
        self.slot_keys: List[Any] = []
        self.slot_values: List[Any] = []

    def allocate(self, count: int) -> None:
        """Empty buckets (values zero), `count` of them (TF's check: probing masks the
        hash with count - 1)."""
        if count < 4 or count & (count - 1):
            raise _invalid(f"Number of buckets must be at least 4 and a power of 2, got: "
                           f"{count}")
        fill = np.zeros(self.value_shape, self.value_dtype.as_numpy_dtype) \
            if self.value_dtype != D.string else b""
        if not self.value_shape and self.value_dtype != D.string:
            fill = fill.item()
        self.slot_keys = [self.empty_key] * count
        self.slot_values = [fill] * count
        self.entries = 0

    def _probe(self, key: Any, what: str) -> Any:
        """The buckets of `key`'s probe sequence, in order (TF's error past the last, in
        the `what` of the table: insert, lookup, remove)."""
        mask = len(self.slot_keys) - 1
        slot = (tf_hash64(key) if isinstance(key, bytes) else int(key)) & mask
        for probes in range(1, len(self.slot_keys) + 1):
            yield slot
            slot = (slot + probes) & mask
        raise errors.InternalError(None, None,
                                   f"Internal error in MutableDenseHashTable {what}")

    def _place(self, key: Any, value: Any) -> None:
        for slot in self._probe(key, "insert"):
            if self.slot_keys[slot] == key:
                self.slot_values[slot] = value
                return
            if self.slot_keys[slot] in (self.empty_key, self.deleted_key):
                self.slot_keys[slot], self.slot_values[slot] = key, value
                self.entries += 1
                return

    def insert(self, keys: Any, values: Any) -> None:
        flat_keys = as_keys(keys)
        rows = self._rows(keys, values)
        self._check_keys(flat_keys)
        # (TF counts every key of the batch as new: it may grow without need)
        pending = self.entries + (int(keys.shape[0]) if len(keys.shape) else 1)
        if pending > len(self.slot_keys) * self.max_load:
            count = len(self.slot_keys)
            while pending > count * self.max_load:
                count *= 2
            old = list(zip(self.slot_keys, self.slot_values))
            self.allocate(count)
            for key, value in old:
                if key not in (self.empty_key, self.deleted_key):
                    self._place(key, value)
        for key, value in zip(flat_keys, rows):
            self._place(key, value)

    def remove(self, keys: Any) -> None:
        flat_keys = as_keys(keys)
        self._check_keys(flat_keys)
        for key in flat_keys:
            for slot in self._probe(key, "remove"):
                if self.slot_keys[slot] == key:
                    self.slot_keys[slot] = self.deleted_key
                    self.entries -= 1
                    break
                if self.slot_keys[slot] == self.empty_key:
                    break

    def _get(self, key: Any, default: Any) -> Any:
        for slot in self._probe(key, "lookup"):
            if self.slot_keys[slot] == key:
                return self.slot_values[slot]
            if self.slot_keys[slot] == self.empty_key:
                break
        return default

    def size(self) -> int:
        return self.entries

    def export(self, device: Any) -> tuple:
        count = len(self.slot_keys)
        return (output_array(self.slot_keys, (count, 1), self.key_dtype, device),
                _rows_output(self.slot_values, (count, int(np.prod(self.value_shape))),
                             self.value_dtype, device))

    def import_(self, keys: Any, values: Any) -> None:
        """Adopts the buckets as they are (TF's LookupTableImportV2 of a dense table)."""
        self.slot_keys = as_keys(keys)
        rows = _numpy(values).reshape((len(self.slot_keys),) + self.value_shape)
        self.slot_values = [r.item() if not self.value_shape and self.value_dtype != D.string
                            else r for r in rows]
        self.entries = sum(k not in (self.empty_key, self.deleted_key)
                           for k in self.slot_keys)


def _numpy(value: Any) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def _rows_output(rows: List[Any], shape: tuple, dtype: D.DType, device: Any) -> Any:
    if dtype == D.string:
        out = np.empty(int(np.prod(shape)), dtype=object)
        out[:] = [v for row in rows for v in np.asarray(row, dtype=object).reshape(-1)]
        return out.reshape(shape)
    array = np.asarray(rows, dtype=dtype.as_numpy_dtype).reshape(shape)
    return torch.as_tensor(array, device=device)


# -- op declarations ------------------------------------------------------------------------

def _table_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    a = node.attrs
    shape = tuple(a.get("value_shape", TensorShape([])).as_list())
    if node.type != "MutableDenseHashTableV2":
        table = kctx.op_resource(lambda: MutableTable(a["key_dtype"], a["value_dtype"], shape))
        return lambda: table
    table = kctx.op_resource(lambda: DenseTable(a["key_dtype"], a["value_dtype"], shape))

    def dense(empty_key: Any, deleted_key: Any = None) -> MutableTable:
        # (No deleted_key: the V1 op of TF <= 1.2, whose tables had no removal.)
        if table.empty_key is None:
            table.empty_key = as_keys(empty_key)[0]
            if deleted_key is not None:
                table.deleted_key = as_keys(deleted_key)[0]
                if table.empty_key == table.deleted_key:
                    raise _invalid("Empty and deleted keys cannot be equal")
            table.allocate(int(a["initial_num_buckets"]))
            table.max_load = float(a["max_load_factor"])
        return table
    return dense


# (As HashTableV2's: the dtypes are given by the wrappers, never inferred.)
_TABLE_ATTRS = {"container": "", "shared_name": "", "use_node_name_sharing": False,
                "key_dtype": D.string, "value_dtype": D.int64}
declare("MutableHashTableV2", outputs=["table_handle: resource"], attrs=dict(_TABLE_ATTRS),
        shape=lambda ctx: [TensorShape([])], kernel=_table_kernel, grad="none",
        stateful=True, cpu_only=True, doc="A mutable hash table of scalar values.")
declare("MutableHashTableOfTensorsV2", outputs=["table_handle: resource"],
        attrs={**_TABLE_ATTRS, "value_shape": TensorShape([])},
        shape=lambda ctx: [TensorShape([])], kernel=_table_kernel, grad="none",
        stateful=True, cpu_only=True, doc="A mutable hash table of value_shape values.")
declare("MutableDenseHashTableV2", inputs=["empty_key: key_dtype", "deleted_key: key_dtype"],
        outputs=["table_handle: resource"],
        attrs={**_TABLE_ATTRS, "key_dtype": Type(), "value_shape": TensorShape([]), "initial_num_buckets": 131072,
               "max_load_factor": 0.8},
        shape=lambda ctx: [TensorShape([])], kernel=_table_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="A mutable hash table with open addressing (TF); a dict here.")
declare("LookupTableInsertV2", inputs=["table_handle: resource", "keys: Tin",
                                       "values: Tout"],
        attrs={"Tin": Type(), "Tout": Type()}, shape=lambda ctx: [],
        kernel=lambda node, kctx: (lambda table, keys, values: table.insert(keys, values)),
        grad="none", stateful=True, cpu_only=True)
declare("LookupTableRemoveV2", inputs=["table_handle: resource", "keys: Tin"],
        attrs={"Tin": Type()}, shape=lambda ctx: [],
        kernel=lambda node, kctx: (lambda table, keys: table.remove(keys)),
        grad="none", stateful=True, cpu_only=True)


# -- Python API ------------------------------------------------------------------------------

class _TableCheckpoint:
    """What tf.train.Saver saves of a table: `<name>-keys`, `<name>-values` (its export),
    restored by LookupTableImportV2."""

    def __init__(self, table: "MutableHashTable", name: str):
        self.table, self.name, self.op = table, name, table.resource_handle
        # Exported now, as TF's saveable does (so user exports are `..._values_1`).
        self._tensors = table.export()

    def checkpoint_tensors(self) -> List[tuple]:
        keys, values = self._tensors
        return [(keys, self.name + "-keys"), (values, self.name + "-values")]

    def restore_tensors(self, restored: List[Tensor]) -> Any:
        return apply_op("LookupTableImportV2", [self.table.resource_handle, restored[0],
                                                restored[1]], {})


class MutableHashTable(LookupInterface):
    """`tf.lookup.experimental.MutableHashTable`: a table filled by `insert` and emptied by
    `remove`; keys not held look up `default_value` (whose shape is the values' shape)."""

    _op_type = "MutableHashTable"

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any,
                 name: str = "MutableHashTable", checkpoint: bool = True,
                 experimental_is_anonymous: bool = False):
        self._key_dtype = D.as_dtype(key_dtype)
        self._value_dtype = D.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype,
                                                name="default_value")
        self._value_shape = self._default_value.shape
        self._handle = self._create(name, checkpoint)
        # TF names the table after its op's unique name (an eager table keeps `name`).
        self._name = name if executing_eagerly() else self._handle.op.name.split("/")[-1]
        if checkpoint and not executing_eagerly():
            add_to_collection(GraphKeys.SAVEABLE_OBJECTS, _TableCheckpoint(self, self._name))

    def _create(self, name: str, checkpoint: bool) -> Tensor:
        attrs = {"key_dtype": self._key_dtype, "value_dtype": self._value_dtype,
                 "use_node_name_sharing": checkpoint}
        if self._value_shape.ndims == 0:
            return apply_op1("MutableHashTableV2", [], attrs, name=name)
        attrs["value_shape"] = self._value_shape
        return apply_op1("MutableHashTableOfTensorsV2", [], attrs, name=name)

    @property
    def name(self) -> str:
        return self._name

    @property
    def key_dtype(self) -> D.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> D.DType:
        return self._value_dtype

    @property
    def resource_handle(self) -> Tensor:
        return self._handle

    def _keys(self, keys: Any) -> Tensor:
        keys = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, "
                            f"got {keys.dtype}.")
        return keys

    def size(self, name: Optional[str] = None) -> Tensor:
        """The number of keys held (int64)."""
        with name_scope(name, f"{self.name}_Size", [self._handle]):
            return apply_op1("LookupTableSizeV2", [self._handle])

    def remove(self, keys: Any, name: Optional[str] = None) -> Any:
        """Removes `keys` (those not held are ignored)."""
        keys = self._keys(keys)
        with name_scope(name, f"{self.name}_lookup_table_remove", [self._handle, keys]):
            return apply_op("LookupTableRemoveV2", [self._handle, keys], {})

    def lookup(self, keys: Any, dynamic_default_values: Any = None,
               name: Optional[str] = None) -> Tensor:
        """Values of `keys`: shape keys.shape + value shape."""
        with name_scope(name, f"{self.name}_lookup_table_find", [self._handle, keys]):
            keys = self._keys(keys)
            default = self._default_value if dynamic_default_values is None else \
                convert_to_tensor(dynamic_default_values, dtype=self._value_dtype)
            values = apply_op1("LookupTableFindV2", [self._handle, keys, default])
            values.set_shape(keys.shape.concatenate(self._value_shape))
            return values

    def insert(self, keys: Any, values: Any, name: Optional[str] = None) -> Any:
        """Sets (or replaces) the values of `keys`."""
        with name_scope(name, f"{self.name}_lookup_table_insert", [self._handle, keys,
                                                                   values]):
            keys = self._keys(keys)
            values = convert_to_tensor(values, dtype=self._value_dtype, name="values")
            return apply_op("LookupTableInsertV2", [self._handle, keys, values], {})

    def export(self, name: Optional[str] = None) -> tuple:
        """(keys, values) held."""
        with name_scope(name, f"{self.name}_lookup_table_export_values", [self._handle]):
            return tuple(apply_op("LookupTableExportV2", [self._handle],
                                  {"Tkeys": self._key_dtype,
                                   "Tvalues": self._value_dtype}).outputs)


class DenseHashTable(MutableHashTable):
    """`tf.lookup.experimental.DenseHashTable`: a MutableHashTable whose keys may be
    neither `empty_key` nor `deleted_key` (TF's open-addressing markers)."""

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any, empty_key: Any,
                 deleted_key: Any, initial_num_buckets: Optional[int] = None,
                 name: str = "MutableDenseHashTable", checkpoint: bool = True,
                 experimental_is_anonymous: bool = False):
        self._empty_key, self._deleted_key = empty_key, deleted_key
        self._buckets = initial_num_buckets
        super().__init__(key_dtype, value_dtype, default_value, name=name,
                         checkpoint=checkpoint)

    def _create(self, name: str, checkpoint: bool) -> Tensor:
        attrs = {"key_dtype": self._key_dtype, "value_dtype": self._value_dtype,
                 "use_node_name_sharing": checkpoint, "value_shape": self._value_shape}
        if self._buckets is not None:
            attrs["initial_num_buckets"] = int(self._buckets)
        empty = convert_to_tensor(self._empty_key, dtype=self._key_dtype, name="empty_key")
        deleted = convert_to_tensor(self._deleted_key, dtype=self._key_dtype,
                                    name="deleted_key")
        return apply_op1("MutableDenseHashTableV2", [empty, deleted], attrs, name=name)

    def insert_or_assign(self, keys: Any, values: Any, name: Optional[str] = None) -> Any:
        """The same as `insert`."""
        return self.insert(keys, values, name)

    def erase(self, keys: Any, name: Optional[str] = None) -> Any:
        """The same as `remove`."""
        return self.remove(keys, name)
