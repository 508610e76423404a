"""`tensorflow.examples.tutorials.mnist`: as in TF 1.x, the package imports its two
modules, so `from tensorflow.examples.tutorials import mnist` then
`mnist.input_data.read_data_sets(...)` works without importing `input_data` itself."""

from tf1compat.examples.tutorials.mnist import input_data, mnist

__all__ = ["input_data", "mnist"]
