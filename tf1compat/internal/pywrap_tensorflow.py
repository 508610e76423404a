"""`tensorflow.python.pywrap_tensorflow`: of TF's C++ bindings, the checkpoint reader that
Python code reaches through this path (`pywrap_tensorflow.NewCheckpointReader(path)`)."""

# ruff: noqa: F401
from tf1compat.serialization.checkpoint_reader import CheckpointReader, NewCheckpointReader
