"""`tf.contrib.learn.datasets.mnist` (TF 1.15; also `tensorflow.examples.tutorials.mnist.
input_data`): TF1's MNIST reader.

`read_data_sets(train_dir, ...)` reads the four standard idx `.gz` files from `train_dir`,
downloading the missing ones from `source_url` first (base.maybe_download), and returns
`Datasets(train, validation, test)` of `DataSet`s with TF1's `next_batch` (shuffling with
numpy's global RNG exactly as TF1 did).
"""

from __future__ import annotations

import gzip
from typing import Any, Optional, Tuple

import numpy

from tf1compat.contrib.learn.datasets.base import Datasets, maybe_download
from tf1compat.framework import dtypes
from tf1compat.framework.random_seed import get_seed
from tf1compat.util import gfile

__all__ = ["read_data_sets", "DataSet", "Datasets", "extract_images", "extract_labels",
           "dense_to_one_hot", "load_mnist", "DEFAULT_SOURCE_URL"]

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"


def _read32(bytestream: Any) -> int:
    dt = numpy.dtype(numpy.uint32).newbyteorder(">")
    return int(numpy.frombuffer(bytestream.read(4), dtype=dt)[0])


def extract_images(f: Any) -> numpy.ndarray:
    """A 4-D uint8 array [index, y, x, depth] from an idx3 gzip stream."""
    print("Extracting", f.name)
    with gzip.GzipFile(fileobj=f) as bytestream:
        magic = _read32(bytestream)
        if magic != 2051:
            raise ValueError(f"Invalid magic number {magic} in MNIST image file: {f.name}")
        num_images, rows, cols = _read32(bytestream), _read32(bytestream), _read32(bytestream)
        buf = bytestream.read(rows * cols * num_images)
        data = numpy.frombuffer(buf, dtype=numpy.uint8)
        return data.reshape(num_images, rows, cols, 1)


def dense_to_one_hot(labels_dense: numpy.ndarray, num_classes: int) -> numpy.ndarray:
    num_labels = labels_dense.shape[0]
    index_offset = numpy.arange(num_labels) * num_classes
    labels_one_hot = numpy.zeros((num_labels, num_classes))
    labels_one_hot.flat[index_offset + labels_dense.ravel()] = 1
    return labels_one_hot


def extract_labels(f: Any, one_hot: bool = False, num_classes: int = 10) -> numpy.ndarray:
    """A 1-D uint8 array (or one-hot float array) from an idx1 gzip stream."""
    print("Extracting", f.name)
    with gzip.GzipFile(fileobj=f) as bytestream:
        magic = _read32(bytestream)
        if magic != 2049:
            raise ValueError(f"Invalid magic number {magic} in MNIST label file: {f.name}")
        num_items = _read32(bytestream)
        buf = bytestream.read(num_items)
        labels = numpy.frombuffer(buf, dtype=numpy.uint8)
        if one_hot:
            return dense_to_one_hot(labels, num_classes)
        return labels


class DataSet:
    """Images and labels with TF1's `next_batch` semantics."""

    def __init__(self, images: numpy.ndarray, labels: numpy.ndarray, fake_data: bool = False,
                 one_hot: bool = False, dtype: Any = dtypes.float32, reshape: bool = True,
                 seed: Optional[int] = None):
        seed1, seed2 = get_seed(seed)
        # TF1 reseeds numpy's global generator here (op seed if given, else graph seed).
        numpy.random.seed(seed1 if seed is None else seed2)
        dtype = dtypes.as_dtype(dtype).base_dtype
        if dtype not in (dtypes.uint8, dtypes.float32):
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        if fake_data:
            self._num_examples = 10000
            self.one_hot = one_hot
        else:
            if images.shape[0] != labels.shape[0]:
                raise AssertionError(f"images.shape: {images.shape} labels.shape: "
                                     f"{labels.shape}")
            self._num_examples = images.shape[0]
            if reshape:
                assert images.shape[3] == 1
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == dtypes.float32:
                images = images.astype(numpy.float32)
                images = numpy.multiply(images, 1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self) -> numpy.ndarray:
        return self._images

    @property
    def labels(self) -> numpy.ndarray:
        return self._labels

    @property
    def num_examples(self) -> int:
        return self._num_examples

    @property
    def epochs_completed(self) -> int:
        return self._epochs_completed

    def next_batch(self, batch_size: int, fake_data: bool = False, shuffle: bool = True
                   ) -> Tuple[Any, Any]:
        """The next `batch_size` examples, reshuffling at each epoch boundary as TF1."""
        if fake_data:
            fake_image = [1] * 784
            fake_label = [1] + [0] * 9 if self.one_hot else 0
            return ([fake_image for _ in range(batch_size)],
                    [fake_label for _ in range(batch_size)])
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm0 = numpy.arange(self._num_examples)
            numpy.random.shuffle(perm0)
            self._images = self.images[perm0]
            self._labels = self.labels[perm0]
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest_num_examples = self._num_examples - start
            images_rest_part = self._images[start:self._num_examples]
            labels_rest_part = self._labels[start:self._num_examples]
            if shuffle:
                perm = numpy.arange(self._num_examples)
                numpy.random.shuffle(perm)
                self._images = self.images[perm]
                self._labels = self.labels[perm]
            start = 0
            self._index_in_epoch = batch_size - rest_num_examples
            end = self._index_in_epoch
            images_new_part = self._images[start:end]
            labels_new_part = self._labels[start:end]
            return (numpy.concatenate((images_rest_part, images_new_part), axis=0),
                    numpy.concatenate((labels_rest_part, labels_new_part), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


def _extract(train_dir: str, filename: str, source_url: str, extract: Any, *args: Any) -> Any:
    """`extract` applied to `train_dir/filename`, downloaded first if missing."""
    with gfile.Open(maybe_download(filename, train_dir, source_url + filename), "rb") as f:
        return extract(f, *args)


def read_data_sets(train_dir: str, fake_data: bool = False, one_hot: bool = False,
                   dtype: Any = dtypes.float32, reshape: bool = True,
                   validation_size: int = 5000, seed: Optional[int] = None,
                   source_url: str = DEFAULT_SOURCE_URL) -> Datasets:
    """TF1's `input_data.read_data_sets`: the idx files in `train_dir`, downloaded from
    `source_url` where missing."""
    if fake_data:
        def fake() -> DataSet:
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        return Datasets(train=fake(), validation=fake(), test=fake())
    if not source_url:
        source_url = DEFAULT_SOURCE_URL
    train_images = _extract(train_dir, TRAIN_IMAGES, source_url, extract_images)
    train_labels = _extract(train_dir, TRAIN_LABELS, source_url, extract_labels, one_hot)
    test_images = _extract(train_dir, TEST_IMAGES, source_url, extract_images)
    test_labels = _extract(train_dir, TEST_LABELS, source_url, extract_labels, one_hot)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                         f"Received: {validation_size}.")
    validation_images = train_images[:validation_size]
    validation_labels = train_labels[:validation_size]
    train_images = train_images[validation_size:]
    train_labels = train_labels[validation_size:]
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images, train_labels, **options)
    validation = DataSet(validation_images, validation_labels, **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    """`read_data_sets(train_dir)` (what `tf.contrib.learn.datasets.load_dataset("mnist")`
    returns)."""
    return read_data_sets(train_dir)
