"""`tf.lookup.experimental`."""

# ruff: noqa: F401
from tf1compat.ops.lookup_mutable import DenseHashTable, MutableHashTable


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('lookup.experimental', globals())
