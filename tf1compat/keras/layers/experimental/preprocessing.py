"""`tf.keras.layers.experimental.preprocessing`: the preprocessing layers of tf-keras's v1
API (implemented in tf1compat/keras/layers/preprocessing.py)."""

from tf1compat.keras.layers.preprocessing import (CategoryEncoding, CenterCrop, Discretization,
                                                  Hashing, Normalization, PreprocessingLayer,
                                                  Rescaling, Resizing)

__all__ = ["CategoryEncoding", "CenterCrop", "Discretization", "Hashing", "Normalization",
           "PreprocessingLayer", "Rescaling", "Resizing"]
