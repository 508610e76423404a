"""`tf.keras.layers.experimental`: EinsumDense, RandomFourierFeatures and the
preprocessing layers; DynamicEmbedding and DynamicLookup (tf-keras's vocabulary-evicting
lookups) are not supported."""

from tf1compat.keras.layers.einsum_dense import EinsumDense
from tf1compat.keras.layers.experimental import preprocessing
from tf1compat.keras.layers.kernelized import RandomFourierFeatures

__all__ = ["EinsumDense", "RandomFourierFeatures", "preprocessing", "DynamicEmbedding",
           "DynamicLookup"]


def _unsupported(name: str) -> type:
    def __init__(self: object, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(f"tf.keras.layers.experimental.{name} is not supported by "
                                  "tf1compat")
    return type(name, (), {"__init__": __init__, "__doc__": f"Not supported: {name}."})


DynamicEmbedding = _unsupported("DynamicEmbedding")
DynamicLookup = _unsupported("DynamicLookup")
