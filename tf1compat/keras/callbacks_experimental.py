"""`tf.keras.callbacks.experimental`: tf-keras's `UpdateEmbeddingCallback` (a TPU
embedding helper) is not implemented (UnimplementedAPIError naming it)."""

from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("keras.callbacks.experimental", globals())
