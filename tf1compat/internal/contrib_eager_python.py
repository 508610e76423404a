"""`tensorflow.contrib.eager.python`: TF 1.15's package whose `tfe` module is
`tf.contrib.eager` (Sonnet v1 imports `from tensorflow.contrib.eager.python import tfe`)."""

# ruff: noqa: F401
from tf1compat.contrib import eager as tfe
