"""`tf.keras.wrappers` (TF 1.x): the scikit-learn API wrappers."""

# ruff: noqa: F401
from tf1compat.keras.wrappers import scikit_learn

__all__ = ["scikit_learn"]
