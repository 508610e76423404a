"""`tf.contrib.lookup`: TF 1.x's lookup tables (TF 1.15 contrib/lookup/lookup_ops.py):
the core tables and initializers, contrib's `mapping=` forms of
`index_table_from_tensor` / `index_to_string_table_from_tensor`, and the deprecated
`string_to_index*` / `index_to_string` helpers."""

# ruff: noqa: F401
from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib._missing import missing as _missing
from tf1compat.framework import dtypes as _D
from tf1compat.framework.graph import name_scope as _name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor as _convert_to_tensor
from tf1compat.ops import lookup_ops as _core
from tf1compat.ops.lookup_base import (FastHashSpec, HasherSpec, InitializableLookupTableBase,
                                       LookupInterface, StrongHashSpec, TableInitializerBase)
from tf1compat.ops.lookup_mutable import DenseHashTable as MutableDenseHashTable
from tf1compat.ops.lookup_mutable import MutableHashTable
from tf1compat.ops.lookup_ops import (HashTable, IdTableWithHashBuckets,
                                      KeyValueTensorInitializer, TextFileIdTableInitializer,
                                      TextFileIndex, TextFileInitializer,
                                      TextFileStringTableInitializer, index_table_from_file,
                                      index_to_string_table_from_file)


def index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0, default_value: int = -1,
                            hasher_spec: Any = FastHashSpec, dtype: Any = _D.string,
                            name: Optional[str] = None) -> Any:
    """A table from each key of `mapping` to its position (others: `default_value`, or
    one of `num_oov_buckets` hash buckets after the vocabulary)."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return _core.index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                         dtype, name)


def index_to_string_table_from_tensor(mapping: Any, default_value: Any = "UNK",
                                      name: Optional[str] = None) -> Any:
    """A table from each position of `mapping` to its string (others: `default_value`)."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return _core.index_to_string_table_from_tensor(mapping, default_value, name)


def string_to_index_table_from_file(vocabulary_file: Any = None, num_oov_buckets: int = 0,
                                    vocab_size: Optional[int] = None, default_value: int = -1,
                                    hasher_spec: Any = FastHashSpec,
                                    name: Optional[str] = None) -> Any:
    """Deprecated form of `index_table_from_file` for string keys."""
    return index_table_from_file(vocabulary_file, num_oov_buckets, vocab_size, default_value,
                                 hasher_spec, key_dtype=_D.string, name=name)


def string_to_index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0,
                                      default_value: int = -1,
                                      hasher_spec: Any = FastHashSpec,
                                      name: Optional[str] = None) -> Any:
    """Deprecated form of `index_table_from_tensor` for string keys (under the name scope
    `string_to_index`)."""
    with _name_scope(name, "string_to_index") as scope:
        mapping = _convert_to_tensor(mapping)
    if _D.string != mapping.dtype.base_dtype:
        raise ValueError("string_to_index_table_from_tensor requires string.")
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                   name=scope)


def string_to_index(tensor: Any, mapping: Any, default_value: int = -1,
                    name: Optional[str] = None) -> Any:
    """The ids of `tensor`'s strings in `mapping` (deprecated: build the table with
    `index_table_from_tensor` and call its `lookup`)."""
    table = index_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)


def index_to_string(tensor: Any, mapping: Any, default_value: Any = "UNK",
                    name: Optional[str] = None) -> Any:
    """The strings of `mapping` at `tensor`'s int64 positions (deprecated: use
    `index_to_string_table_from_tensor` and its `lookup`)."""
    table = index_to_string_table_from_tensor(mapping=mapping, default_value=default_value,
                                              name=name)
    return table.lookup(tensor)


__getattr__ = _missing("tf.contrib.lookup")
