"""`tf.keras` (the subset legacy TF1 graph-mode code uses): layers, Model/Sequential
callable on graph tensors, backend, initializers, regularizers, constraints, activations,
losses, metrics, optimizers, callbacks and the datasets; training with
`compile`/`fit` (graph and eager mode)."""

# ruff: noqa: F401
from tf1compat.keras import (activations, applications, backend, callbacks, constraints,
                             datasets, experimental, initializers, layers, losses, metrics,
                             mixed_precision, models, optimizers, preprocessing, regularizers,
                             saving, utils, wrappers)
from tf1compat.keras.engine.input_layer import Input
from tf1compat.keras.engine.sequential import Sequential
from tf1compat.keras.engine.training import Model

# TF 1.15's tf.keras reports the Keras API version it implements (under TF1 behaviour).
__version__ = "2.2.4-tf"


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras", globals())
