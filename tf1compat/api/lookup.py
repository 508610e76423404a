"""`tf.lookup`."""

# ruff: noqa: F401
from tf1compat.ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable,
                                      StaticVocabularyTable, TextFileIndex,
                                      TextFileInitializer)
from tf1compat.api import lookup_experimental as experimental


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('lookup', globals())
