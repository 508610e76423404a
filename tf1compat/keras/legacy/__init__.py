"""`keras.legacy` of standalone Keras 2.2.4: the Keras 1 argument converters
(`interfaces`), the deprecated layers it still shipped (`layers`: MaxoutDense, Highway,
AtrousConvolution1D/2D) and the standalone classes that accept Keras 1 arguments
(`keras1_classes`, used by tf1compat/shim_keras.py)."""

# ruff: noqa: F401
from tf1compat.keras.legacy import interfaces, layers

__all__ = ["interfaces", "layers"]
