"""`tf.keras.datasets`: loaders reading Keras' dataset cache, downloading missing files
as tf-keras does."""

from tf1compat.keras.datasets import cifar10, fashion_mnist, mnist  # noqa: F401
