"""`tensorflow.python.ops.lookup_ops`."""

# ruff: noqa: F401
from tf1compat.ops.lookup_base import (FastHashSpec, HasherSpec, InitializableLookupTableBase,
                                       LookupInterface, StrongHashSpec, TableInitializerBase)
from tf1compat.ops.lookup_mutable import DenseHashTable, MutableHashTable
from tf1compat.ops.lookup_ops import (HashTable, IdTableWithHashBuckets,
                                      KeyValueTensorInitializer, StaticHashTable,
                                      StaticVocabularyTable, TextFileIdTableInitializer,
                                      TextFileIndex, TextFileInitializer,
                                      TextFileStringTableInitializer, index_table_from_file,
                                      index_table_from_tensor,
                                      index_to_string_table_from_file,
                                      index_to_string_table_from_tensor)
from tf1compat.variables.collections import tables_initializer
