"""Lookup tables (`tf.lookup`, `tf.contrib.lookup`): HashTableV2, LookupTableImportV2,
InitializeTableV2, InitializeTableFromTextFileV2, LookupTableFindV2, LookupTableSizeV2,
LookupTableExportV2; `HashTable`/`StaticHashTable`, `KeyValueTensorInitializer`,
`TextFileInitializer`, `index_table_from_tensor/file`, `index_to_string_table_from_*`.

A HashTableV2 op is a constant op whose run-time value is the session's table object
(`kctx.op_resource`), so each session has its own tables, initialized by running the
TABLE_INITIALIZERS ops (`tf.tables_initializer()`); a lookup before that raises TF's
FailedPreconditionError "Table not initialized.". Keys are Python ints or bytes.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import (GraphKeys, add_to_collection, apply_op, apply_op1,
                                       name_scope)
from tf1compat.framework.op_def import Type, declare
from tf1compat.ops.lookup_base import (FastHashSpec, HasherSpec, InitializableLookupTableBase,
                                       LookupInterface, TableInitializerBase)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import merge_shapes
from tf1compat.runtime.eager_binding import tf_type_name

__all__ = ["as_keys", "output_array", "HashTable", "StaticHashTable", "StaticVocabularyTable",
           "KeyValueTensorInitializer", "TextFileInitializer", "TextFileIndex",
           "TextFileIdTableInitializer", "TextFileStringTableInitializer",
           "IdTableWithHashBuckets", "index_table_from_tensor",
           "index_table_from_file", "index_to_string_table_from_tensor",
           "index_to_string_table_from_file"]


class _Table:
    """One session's hash table."""

    def __init__(self, key_dtype: D.DType, value_dtype: D.DType):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.data: Optional[Dict[Any, Any]] = None

    def require(self) -> Dict[Any, Any]:
        if self.data is None:
            raise errors.FailedPreconditionError(None, None, "Table not initialized.")
        return self.data

    def insert(self, keys: List[Any], values: List[Any]) -> None:
        if self.data is not None:
            # TF's static tables accept the same data again (tables_initializer run twice)
            # and refuse different data.
            if len(keys) == len(self.data) and all(
                    k in self.data and self.data[k] == v for k, v in zip(keys, values)):
                return
            raise errors.FailedPreconditionError(
                None, None, "Table was already initialized with different data.")
        if len(keys) != len(values):
            raise errors.InvalidArgumentError(
                None, None, f"Expected shape [{len(keys)}] for value, got [{len(values)}]")
        data: Dict[Any, Any] = {}
        for k, v in zip(keys, values):
            if k in data and data[k] != v:
                raise errors.FailedPreconditionError(
                    None, None, f"HashTable has different value for same key. Key {_text(k)} "
                                f"has {_text(data[k])} and trying to add value {_text(v)}")
            data[k] = v
        self.data = data


def _text(v: Any) -> str:
    return v.decode(errors="replace") if isinstance(v, bytes) else str(v)


def as_keys(value: Any) -> List[Any]:
    """Run-time keys/values (torch tensor or numpy object array) as Python scalars."""
    if isinstance(value, torch.Tensor):
        return value.reshape(-1).tolist()
    return [v.item() if isinstance(v, np.generic) else v for v in np.asarray(value).reshape(-1)]


def output_array(values: List[Any], shape: tuple, dtype: D.DType, device: Any) -> Any:
    """Python scalars as a run-time value of `dtype` and `shape`."""
    if dtype == D.string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out.reshape(shape)
    return torch.tensor(values, dtype=dtype.torch_dtype, device=device).reshape(shape)


# -- op declarations ----------------------------------------------------------------------

def _table_kernel(node: Any, kctx: Any) -> Any:
    return kctx.op_resource(lambda: _Table(node.attrs["key_dtype"],
                                           node.attrs["value_dtype"]))


declare("HashTableV2", outputs=["table_handle: resource"],
        attrs={"container": "", "shared_name": "", "use_node_name_sharing": False,
               "key_dtype": D.string, "value_dtype": D.int64},
        shape=lambda ctx: [TensorShape([])], kernel=_table_kernel, grad="none",
        stateful=True, constant=True, cpu_only=True,
        doc="A hash table; its run-time value is the session's table object.")


def _import_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def import_table(table: _Table, keys: Any, values: Any) -> None:
        if getattr(table, "mutable", False):        # lookup_mutable.MutableTable
            table.import_(keys, values)
            return
        table.insert(as_keys(keys), as_keys(values))
    return import_table


def _initialize_shape(ctx: Any) -> List[TensorShape]:
    merge_shapes(ctx.shape(1), ctx.shape(2), ctx)      # one value per key
    return []


for _type, _k, _v, _shape in (("LookupTableImportV2", "Tin", "Tout", lambda ctx: []),
                              ("InitializeTableV2", "Tkey", "Tval", _initialize_shape)):
    declare(_type, inputs=["table_handle: resource", f"keys: {_k}", f"values: {_v}"],
            attrs={_k: Type(), _v: Type()}, shape=_shape, kernel=_import_kernel,
            grad="none", stateful=True, cpu_only=True)


def _text_file_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    a = node.attrs
    key_index, value_index = a["key_index"], a["value_index"]
    vocab_size, delimiter, offset = a["vocab_size"], a["delimiter"], a["offset"]
    if isinstance(delimiter, str):
        delimiter = delimiter.encode()

    def column(line: bytes, number: int, index: int, dtype: D.DType, path: str) -> Any:
        if index == -2:
            field = line
        elif index == -1:
            return number
        else:
            parts = line.split(delimiter) if delimiter else line.split()
            if index >= len(parts):
                raise errors.InvalidArgumentError(
                    None, None, f"Invalid number of columns in {path} line {number} "
                                f"({_text(line)}) for the column index {index}")
            field = parts[index]
        if dtype == D.string:
            return field
        try:
            return int(field) if dtype.is_integer else float(field)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Field {_text(field)} in line {number} is not a valid "
                            f"{dtype.name}.") from None

    def init_from_file(table: _Table, filename: Any) -> None:
        path = _text(np.asarray(filename, dtype=object).reshape(()).item())
        try:
            with open(path, "rb") as f:
                lines = f.read().split(b"\n")
        except OSError as e:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory"
                                       ) from e
        if lines and lines[-1] == b"":
            lines.pop()
        lines = [ln[:-1] if ln.endswith(b"\r") else ln for ln in lines]
        if vocab_size != -1:
            if len(lines) < vocab_size:
                raise errors.InvalidArgumentError(
                    None, None, f"Invalid vocab_size in {path}: expected {vocab_size} but "
                                f"got {len(lines)}")
            lines = lines[:vocab_size]
        keys = [column(ln, i + offset, key_index, table.key_dtype, path)
                for i, ln in enumerate(lines)]
        values = [column(ln, i + offset, value_index, table.value_dtype, path)
                  for i, ln in enumerate(lines)]
        table.insert(keys, values)
    return init_from_file


declare("InitializeTableFromTextFileV2", inputs=["table_handle: resource", "filename: string"],
        attrs={"key_index": -2, "value_index": -1, "vocab_size": -1, "delimiter": "\t",
               "offset": 0},
        shape=lambda ctx: [], kernel=_text_file_kernel, grad="none", stateful=True,
        cpu_only=True)


def _find_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_dtype = node.attrs["Tout"]

    def find(table: _Table, keys: Any, default: Any) -> Any:
        for what, given, held in (("Key", node.attrs["Tin"], table.key_dtype),
                                  ("Value", out_dtype, table.value_dtype)):
            if given != held:
                raise errors.InvalidArgumentError(
                    None, None, f"{what} must be type {tf_type_name(held)} but got "
                                f"{tf_type_name(given)}")
        if getattr(table, "mutable", False):        # lookup_mutable.MutableTable
            return table.find(keys, default, kctx.device)
        data = table.require()
        flat = as_keys(keys)
        fallback = as_keys(default)
        # (A scalar string key reaches the kernel as a bare bytes object.)
        shape = tuple(np.shape(keys)) if not isinstance(keys, torch.Tensor) else \
            tuple(keys.shape)
        if len(fallback) == 1:
            values = [data.get(k, fallback[0]) for k in flat]
        else:
            values = [data.get(k, d) for k, d in zip(flat, fallback)]
        return output_array(values, shape, out_dtype, kctx.device)
    return find


declare("LookupTableFindV2", inputs=["table_handle: resource", "keys: Tin",
                                     "default_value: Tout"],
        outputs=["values: Tout"], attrs={"Tin": Type(), "Tout": Type()},
        # (Unknown, as TF's without handle data: HashTable.lookup sets the keys' shape.)
        shape=lambda ctx: [unknown_shape()], kernel=_find_kernel, grad="none",
        stateful=True, cpu_only=True)

declare("LookupTableSizeV2", inputs=["table_handle: resource"], outputs=["size: int64"],
        shape=lambda ctx: [TensorShape([])],
        # TF's size of a table not yet initialized is 0 (only lookups fail).
        kernel=lambda node, kctx: (lambda table: torch.tensor(
            table.size() if getattr(table, "mutable", False) else len(table.data or ()),
            dtype=torch.int64)),       # (lookup_mutable.MutableTable: its own count)
        grad="none", stateful=True, cpu_only=True)


def _export_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    tk, tv = node.attrs["Tkeys"], node.attrs["Tvalues"]

    def export(table: _Table) -> tuple:
        if getattr(table, "mutable", False):        # lookup_mutable.MutableTable
            return table.export(kctx.device)
        if table.data is None:
            raise errors.AbortedError(None, None, "HashTable is not initialized.")
        data = table.data
        keys = list(data)
        return (output_array(keys, (len(keys),), tk, kctx.device),
                output_array([data[k] for k in keys], (len(keys),), tv, kctx.device))
    return export


declare("LookupTableExportV2", inputs=["table_handle: resource"],
        outputs=["keys: Tkeys", "values: Tvalues"],
        attrs={"Tkeys": Type(), "Tvalues": Type()},
        shape=lambda ctx: [unknown_shape(), unknown_shape()], kernel=_export_kernel,
        grad="none", stateful=True, cpu_only=True)


# -- Python API -------------------------------------------------------------------------------

class TextFileIndex:
    """Special column indices of TextFileInitializer."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class KeyValueTensorInitializer(TableInitializerBase):
    """`tf.lookup.KeyValueTensorInitializer`: a table's contents from two tensors."""

    def __init__(self, keys: Any, values: Any, key_dtype: Any = None, value_dtype: Any = None,
                 name: Optional[str] = None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
        self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name if name is not None else "key_value_init"
        self.key_dtype = self._keys.dtype.base_dtype
        self.value_dtype = self._values.dtype.base_dtype

    def initialize(self, table: "HashTable") -> Any:
        with name_scope(self._name, values=(table.resource_handle, self._keys,
                                            self._values)):
            op = apply_op("LookupTableImportV2", [table.resource_handle, self._keys,
                                                  self._values])
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op

    def _shared_name(self) -> str:
        return f"hash_table_{uuid.uuid4()}"


class TextFileInitializer(TableInitializerBase):
    """`tf.lookup.TextFileInitializer`: a table's contents from the columns of a text file
    (TextFileIndex.WHOLE_LINE, LINE_NUMBER or a column of `delimiter`-split lines)."""

    def __init__(self, filename: Any, key_dtype: Any, key_index: int, value_dtype: Any,
                 value_index: int, vocab_size: Optional[int] = None, delimiter: str = "\t",
                 name: Optional[str] = None, value_index_offset: int = 0):
        if key_index < -2 or value_index < -2:
            raise ValueError("Invalid key_index / value_index")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"Invalid vocab_size {vocab_size}.")
        self._filename_arg = filename
        self._filename = convert_to_tensor(filename, D.string, name="asset_path")
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter = vocab_size, delimiter
        self._offset = value_index_offset
        self._name = name if name is not None else "text_file_init"
        self.key_dtype = D.as_dtype(key_dtype)
        self.value_dtype = D.as_dtype(value_dtype)

    def initialize(self, table: "HashTable") -> Any:
        with name_scope(self._name, "text_file_init", (table.resource_handle,)):
            op = apply_op("InitializeTableFromTextFileV2", [table.resource_handle,
                                                            self._filename],
                          {"key_index": self._key_index, "value_index": self._value_index,
                           "vocab_size": -1 if self._vocab_size is None else self._vocab_size,
                           "delimiter": self._delimiter, "offset": self._offset})
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        # A constant file name is an asset: SavedModel builders copy the file into
        # `assets/` and loaders feed the copy's path (a fed name is left alone, as in TF).
        if not executing_eagerly() and getattr(self._filename, "op", None) is not None \
                and self._filename.op.type == "Const":
            add_to_collection(GraphKeys.ASSET_FILEPATHS, self._filename)
        return op

    def _shared_name(self) -> str:
        vocab = "" if self._vocab_size is None else f"_{self._vocab_size}"
        path = self._filename_arg
        path = _text(path) if isinstance(path, (str, bytes)) else path.name
        return f"hash_table_{path}{vocab}_{self._key_index}_{self._value_index}"


class TextFileStringTableInitializer(TextFileInitializer):
    """A TextFileInitializer for int64 -> string tables: by default line number -> line."""

    def __init__(self, filename: Any, key_column_index: int = TextFileIndex.LINE_NUMBER,
                 value_column_index: int = TextFileIndex.WHOLE_LINE,
                 vocab_size: Optional[int] = None, delimiter: str = "\t",
                 name: str = "text_file_string_table_init"):
        super().__init__(filename, D.int64, key_column_index, D.string, value_column_index,
                         vocab_size=vocab_size, delimiter=delimiter, name=name)


class TextFileIdTableInitializer(TextFileInitializer):
    """A TextFileInitializer for key -> int64 id tables: by default line -> line number."""

    def __init__(self, filename: Any, key_column_index: int = TextFileIndex.WHOLE_LINE,
                 value_column_index: int = TextFileIndex.LINE_NUMBER,
                 vocab_size: Optional[int] = None, delimiter: str = "\t",
                 name: str = "text_file_id_table_init", key_dtype: Any = D.string):
        super().__init__(filename, key_dtype, key_column_index, D.int64, value_column_index,
                         vocab_size=vocab_size, delimiter=delimiter, name=name)


class HashTable(InitializableLookupTableBase):
    """`tf.contrib.lookup.HashTable` / `tf.lookup.StaticHashTable` (TF1): an immutable
    table filled by `initializer` when the TABLE_INITIALIZERS run."""

    def __init__(self, initializer: Any, default_value: Any, shared_name: Optional[str] = None,
                 name: Optional[str] = None, experimental_is_anonymous: bool = False):
        self._name = name or "hash_table"
        self._table_shared_name = shared_name or initializer._shared_name()
        super().__init__(default_value, initializer)

    def _create_resource(self) -> Tensor:
        return apply_op1("HashTableV2", [], {"shared_name": self._table_shared_name,
                                             "key_dtype": self._key_dtype,
                                             "value_dtype": self._value_dtype},
                         name=self._name)

    @property
    def name(self) -> str:
        return self._name

    def size(self, name: Optional[str] = None) -> Tensor:
        with name_scope(name, f"{self.name}_Size", [self.resource_handle]):
            return apply_op1("LookupTableSizeV2", [self.resource_handle])

    def lookup(self, keys: Any, name: Optional[str] = None) -> Any:
        """Values of `keys` (a Tensor, SparseTensor or RaggedTensor of key_dtype)."""
        from tf1compat.framework.sparse_tensor import SparseTensor
        with name_scope(name, f"{self.name}_Lookup", [self.resource_handle, keys]):
            sparse = keys if isinstance(keys, SparseTensor) else None
            if sparse is not None:
                keys = sparse.values
            keys = keys if isinstance(keys, Tensor) else convert_to_tensor(
                keys, dtype=self._key_dtype, name="keys")
            if keys.dtype.base_dtype != self._key_dtype:
                raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, "
                                f"received: {keys.dtype}")
            values = apply_op1("LookupTableFindV2", [self.resource_handle, keys,
                                                     self._default_value])
            values.set_shape(keys.shape)
            if sparse is not None:
                return SparseTensor(sparse.indices, values, sparse.dense_shape)
            return values

    def export(self, name: Optional[str] = None) -> tuple:
        with name_scope(name, f"{self.name}_Export", [self.resource_handle]):
            keys, values = apply_op("LookupTableExportV2", [self.resource_handle],
                                    {"Tkeys": self._key_dtype,
                                     "Tvalues": self._value_dtype}).outputs
            return keys, values


StaticHashTable = HashTable


class IdTableWithHashBuckets(LookupInterface):
    """`tf.contrib.lookup.IdTableWithHashBuckets`: ids from `table`, and keys it does not
    hold hashed into `num_oov_buckets` extra ids after the table's (TF's Fingerprint64
    buckets, StringToHashBucketFast; integer keys are hashed as their decimal text)."""

    def __init__(self, table: Optional[HashTable], num_oov_buckets: int,
                 hasher_spec: Any = FastHashSpec, name: Optional[str] = None,
                 key_dtype: Any = None):
        if not isinstance(hasher_spec, HasherSpec):
            raise TypeError("`hasher_spec` must be of type HasherSpec, got "
                            f"{type(hasher_spec)}.")
        if hasher_spec.hasher not in ("fasthash", "legacy", "stronghash"):
            raise ValueError(f"Found unknown hasher {hasher_spec.hasher} in `hasher_spec`")
        self._hasher_spec = hasher_spec
        if table is None and key_dtype is None:
            key_dtype = D.string
        self._table = table
        self._num_oov_buckets = num_oov_buckets
        self._key_dtype = D.as_dtype(key_dtype) if key_dtype is not None else table.key_dtype
        self._name = name or (table.name if table is not None else "hash_bucket")

    @property
    def name(self) -> str:
        return self._name

    @property
    def key_dtype(self) -> D.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> D.DType:
        return D.int64

    @property
    def resource_handle(self) -> Optional[Tensor]:
        return self._table.resource_handle if self._table is not None else None

    @property
    def initializer(self) -> Any:
        return self._table.initializer if self._table is not None else None

    init = initializer

    def size(self, name: Optional[str] = None) -> Tensor:
        with name_scope(name, f"{self.name}_Size"):
            if self._table is None:
                return convert_to_tensor(self._num_oov_buckets, D.int64)
            return self._table.size() + self._num_oov_buckets

    def lookup(self, keys: Any, name: Optional[str] = None) -> Any:
        """Ids of `keys` (a Tensor or SparseTensor)."""
        from tf1compat.framework.sparse_tensor import SparseTensor
        from tf1compat.ops.indexing_ops import where_v2
        from tf1compat.ops.math_ops import add, not_equal
        from tf1compat.ops import string_ops
        sparse = keys if isinstance(keys, SparseTensor) else None
        values = sparse.values if sparse is not None else keys
        values = values if isinstance(values, Tensor) else convert_to_tensor(
            values, dtype=self._key_dtype, name="keys")
        if values.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, "
                            f"received: {values.dtype}")
        with name_scope(name, f"{self.name}_Lookup"):
            text = string_ops.as_string(values) if values.dtype.is_integer else values
            buckets = self._hash_buckets(text)
            if self._table is not None:
                ids = self._table.lookup(values)
                buckets = add(buckets, self._table.size())
                known = not_equal(ids, self._table.default_value)
                ids = where_v2(known, ids, buckets)
            else:
                ids = buckets
        if sparse is not None:
            return SparseTensor(sparse.indices, ids, sparse.dense_shape)
        return ids


    def _hash_buckets(self, text: Tensor) -> Tensor:
        """The out-of-vocabulary bucket of each string, by the hasher spec's hash."""
        from tf1compat.ops import string_ops
        spec = self._hasher_spec
        if spec.hasher == "fasthash":
            return string_ops.string_to_hash_bucket_fast(
                text, num_buckets=self._num_oov_buckets, name="hash_bucket")
        if spec.hasher == "legacy":
            return string_ops.string_to_hash_bucket(text, num_buckets=self._num_oov_buckets,
                                                    name="hash_bucket")
        return string_ops.string_to_hash_bucket_strong(
            text, num_buckets=self._num_oov_buckets, key=spec.key, name="hash_bucket")


class StaticVocabularyTable(IdTableWithHashBuckets):
    """`tf.lookup.StaticVocabularyTable` (TF1's StaticVocabularyTableV1): ids from the
    `initializer`'s vocabulary, other keys hashed into `num_oov_buckets` ids after it."""

    def __init__(self, initializer: Any, num_oov_buckets: int, lookup_key_dtype: Any = None,
                 name: Optional[str] = None, experimental_is_anonymous: bool = False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if lookup_key_dtype is not None and D.as_dtype(lookup_key_dtype) != \
                initializer.key_dtype:
            raise NotImplementedError("StaticVocabularyTable(lookup_key_dtype=...) other than "
                                      "the initializer's key dtype is not supported by "
                                      "tf1compat.")
        table = HashTable(initializer, -1, name=name)
        super().__init__(table, num_oov_buckets, name=table.name)


def index_table_from_tensor(vocabulary_list: Any, num_oov_buckets: int = 0,
                            default_value: int = -1, hasher_spec: Any = FastHashSpec,
                            dtype: Any = D.string, name: Optional[str] = None) -> HashTable:
    """`tf.lookup.index_table_from_tensor` (contrib too): key -> position in the list."""
    from tf1compat.ops.array_ops import size
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.math_ops import cast
    if vocabulary_list is None:
        raise ValueError("`vocabulary_list` must be specified.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got "
                         f"{num_oov_buckets}.")
    with name_scope(name, "string_to_index"):
        keys = convert_to_tensor(vocabulary_list)
        if keys.dtype.is_integer != D.as_dtype(dtype).is_integer:
            kind = "integer" if keys.dtype.is_integer else "non-integer"
            raise ValueError(f"Invalid `dtype`: Expected {kind}, got {D.as_dtype(dtype)}.")
        values = cast(range_(size(keys)), D.int64)
        with name_scope(None, "hash_table"):
            table_keys = cast(keys, D.int64) if keys.dtype.is_integer else keys
            init = KeyValueTensorInitializer(table_keys, values, table_keys.dtype.base_dtype,
                                             D.int64, name="table_init")
            table = HashTable(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets, hasher_spec,
                                           key_dtype=dtype)
        return table


def index_table_from_file(vocabulary_file: Any = None, num_oov_buckets: int = 0,
                          vocab_size: Optional[int] = None, default_value: int = -1,
                          hasher_spec: Any = FastHashSpec, key_dtype: Any = D.string,
                          name: Optional[str] = None, key_column_index: int = -2,
                          value_column_index: int = -1, delimiter: str = "\t") -> HashTable:
    """`tf.lookup.index_table_from_file`: line (or a column) -> line number."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("`vocabulary_file` must be specified and must not be empty.")
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got "
                         f"{num_oov_buckets}.")
    with name_scope(name, "string_to_index"):
        with name_scope(None, "hash_table"):
            init = TextFileInitializer(vocabulary_file, D.as_dtype(key_dtype),
                                       key_column_index, D.int64, value_column_index,
                                       vocab_size=vocab_size, delimiter=delimiter,
                                       name="table_init")
            table = HashTable(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets, hasher_spec,
                                           key_dtype=key_dtype)
        return table


def index_to_string_table_from_tensor(vocabulary_list: Any, default_value: Any = "UNK",
                                      name: Optional[str] = None) -> HashTable:
    """`tf.lookup.index_to_string_table_from_tensor`: position -> string."""
    from tf1compat.ops.array_ops import size
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.math_ops import cast
    if vocabulary_list is None:
        raise ValueError("`vocabulary_list` argument must be specified.")
    with name_scope(name, "index_to_string"):
        values = convert_to_tensor(vocabulary_list, D.string)
        keys = cast(range_(size(values)), D.int64)
        init = KeyValueTensorInitializer(keys, values, D.int64, D.string, name="table_init")
        return HashTable(init, convert_to_tensor(default_value, D.string))


def index_to_string_table_from_file(vocabulary_file: Any, vocab_size: Optional[int] = None,
                                    default_value: Any = "UNK", name: Optional[str] = None,
                                    key_column_index: int = -1,
                                    value_column_index: int = -2,
                                    delimiter: str = "\t") -> HashTable:
    """`tf.lookup.index_to_string_table_from_file`: line number -> line (or column)."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("`vocabulary_file` must be specified and must not be empty.")
    with name_scope(name, "index_to_string"):
        init = TextFileInitializer(vocabulary_file, D.int64, key_column_index, D.string,
                                   value_column_index, vocab_size=vocab_size,
                                   delimiter=delimiter, name="table_init")
        return HashTable(init, default_value)
