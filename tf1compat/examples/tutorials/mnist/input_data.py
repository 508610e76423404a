"""`tensorflow.examples.tutorials.mnist.input_data`: TF1's MNIST reader, which is
`tf.contrib.learn.datasets.mnist` (as in TF 1.x)."""

# ruff: noqa: F401
from tf1compat.contrib.learn.datasets.mnist import (DEFAULT_SOURCE_URL, TEST_IMAGES,
                                                    TEST_LABELS, TRAIN_IMAGES, TRAIN_LABELS,
                                                    DataSet, Datasets, dense_to_one_hot,
                                                    extract_images, extract_labels,
                                                    load_mnist, read_data_sets)
