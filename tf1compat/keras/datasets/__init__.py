"""`tf.keras.datasets`: loaders reading Keras' dataset cache, downloading missing files
as tf-keras does."""

from tf1compat.keras.datasets import (  # noqa: F401
    boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters)
