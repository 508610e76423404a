"""`tf.keras.utils.legacy`: tf-keras's legacy (pre-2.13 format) serialization functions,
which are tf1compat's only ones."""

# ruff: noqa: F401
from tf1compat.keras.utils.serialization import (deserialize_keras_object,
                                                 serialize_keras_object)

__all__ = ["serialize_keras_object", "deserialize_keras_object"]
