"""The lookup API's base classes and hasher specs (TF's python/ops/lookup_ops.py):
`LookupInterface` (what every table has: dtypes, `name`, `size`, `lookup`),
`InitializableLookupTableBase` (a table filled once by an initializer),
`TableInitializerBase`, and the `HasherSpec`s that choose IdTableWithHashBuckets' hash.

The concrete tables (ops/lookup_ops.py, ops/lookup_mutable.py) derive from these, so
`isinstance(table, tf.contrib.lookup.LookupInterface)` holds as in TF, and user code can
subclass them as it did in TF.
"""

from __future__ import annotations

import collections
from typing import Any, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor

__all__ = ["HasherSpec", "FastHashSpec", "StrongHashSpec", "LookupInterface",
           "InitializableLookupTableBase", "TableInitializerBase"]


class HasherSpec(collections.namedtuple("HasherSpec", ["hasher", "key"])):
    """Which hash IdTableWithHashBuckets gives out-of-vocabulary keys: `hasher` is
    "fasthash", "legacy" or "stronghash" (the latter with a 2-integer `key`)."""
    __slots__ = ()


FastHashSpec = HasherSpec("fasthash", None)


class StrongHashSpec(HasherSpec):
    """The keyed strong hash (SipHash) with `key`, a list of two unsigned integers."""
    __slots__ = ()

    def __new__(cls, key: Sequence[int]) -> "StrongHashSpec":
        if len(key) != 2:
            raise ValueError(f"`key` must have size 2, received {len(key)}")
        if not isinstance(key[0], int) or not isinstance(key[1], int):
            raise TypeError("Invalid key %s. Must be unsigned integer values." % (key,))
        return super().__new__(cls, "stronghash", key)


class LookupInterface:
    """A table mapping keys of `key_dtype` to values of `value_dtype`; subclasses give
    `name`, `size` and `lookup`."""

    def __init__(self, key_dtype: Any, value_dtype: Any):
        self._key_dtype = D.as_dtype(key_dtype)
        self._value_dtype = D.as_dtype(value_dtype)

    def _create_resource(self) -> Tensor:
        raise NotImplementedError

    @property
    def key_dtype(self) -> D.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> D.DType:
        return self._value_dtype

    @property
    def name(self) -> str:
        raise NotImplementedError

    def size(self, name: Optional[str] = None) -> Tensor:
        raise NotImplementedError

    def lookup(self, keys: Any, name: Optional[str] = None) -> Any:
        raise NotImplementedError

    def __getitem__(self, keys: Any) -> Any:
        return self.lookup(keys)


class TableInitializerBase:
    """Fills a table (`initialize(table)` returns the op); `key_dtype` / `value_dtype`
    are the table's."""

    def __init__(self, key_dtype: Any, value_dtype: Any):
        self.key_dtype = D.as_dtype(key_dtype)
        self.value_dtype = D.as_dtype(value_dtype)

    def initialize(self, table: Any) -> Any:
        raise NotImplementedError

    def _shared_name(self) -> Optional[str]:
        return None


class InitializableLookupTableBase(LookupInterface):
    """A table filled once by `initializer` (a TableInitializerBase) when the
    TABLE_INITIALIZERS run; subclasses give `_create_resource()` (the table's handle)."""

    def __init__(self, default_value: Any, initializer: Any):
        from tf1compat.framework.context import executing_eagerly
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.framework.tensor_shape import TensorShape
        super().__init__(initializer.key_dtype, initializer.value_dtype)
        self._initializer = initializer
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._default_value.shape.merge_with(TensorShape([]))
        self._resource_handle = self._create_resource()
        # TF names the table (and its `<name>_Lookup` scopes) after the op's unique name
        # (an eager table has no op: it keeps the name it was given).
        if not executing_eagerly() and getattr(self._resource_handle, "op", None) is not None:
            self._name = self._resource_handle.op.name.split("/")[-1]
        self._init_op = initializer.initialize(self)

    @property
    def resource_handle(self) -> Tensor:
        return self._resource_handle

    @property
    def default_value(self) -> Tensor:
        return self._default_value

    @property
    def initializer(self) -> Any:
        return self._init_op

    @property
    def init(self) -> Any:
        return self._init_op
