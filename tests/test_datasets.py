"""MNIST `input_data` and `tf.keras.datasets` loaders on small files the test writes."""

from __future__ import annotations

import gzip
import os
import pickle
import struct

import numpy as np
import pytest

from tf1compat.examples.tutorials.mnist import input_data
from tf1compat.framework import dtypes
from tests.local_http import http_folder  # noqa: F401  (a fixture)


def _write_idx(path: str, array: np.ndarray, magic: int) -> None:
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for d in array.shape:
            f.write(struct.pack(">I", d))
        f.write(array.astype(np.uint8).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.RandomState(0)
    train_x = rng.randint(0, 256, (30, 28, 28))
    train_y = np.arange(30) % 10
    test_x = rng.randint(0, 256, (7, 28, 28))
    test_y = np.arange(7) % 10
    _write_idx(str(tmp_path / input_data.TRAIN_IMAGES), train_x, 2051)
    _write_idx(str(tmp_path / input_data.TRAIN_LABELS), train_y, 2049)
    _write_idx(str(tmp_path / input_data.TEST_IMAGES), test_x, 2051)
    _write_idx(str(tmp_path / input_data.TEST_LABELS), test_y, 2049)
    return tmp_path, train_x, train_y


def test_read_data_sets(mnist_dir, capsys):
    folder, train_x, train_y = mnist_dir
    data = input_data.read_data_sets(str(folder), one_hot=True, validation_size=10)
    out = capsys.readouterr().out
    assert out.count("Extracting") == 4
    assert data.train.num_examples == 20 and data.validation.num_examples == 10
    assert data.test.num_examples == 7
    assert data.train.images.shape == (20, 784) and data.train.images.dtype == np.float32
    np.testing.assert_allclose(data.validation.images[0], train_x[0].reshape(-1) / 255.0,
                               rtol=1e-6)
    assert data.train.labels.shape == (20, 10) and data.train.labels.dtype == np.float64
    assert data.validation.labels[3].argmax() == train_y[3]


def test_next_batch_epochs_and_shuffle(mnist_dir):
    folder, _, _ = mnist_dir
    data = input_data.read_data_sets(str(folder), validation_size=0, reshape=False,
                                     dtype=dtypes.uint8, seed=3)
    seen = []
    for _ in range(4):
        images, labels = data.train.next_batch(8)
        assert images.shape == (8, 28, 28, 1) and images.dtype == np.uint8
        seen.append(labels)
    assert data.train.epochs_completed == 1
    first_epoch = np.concatenate(seen)[:30]
    assert sorted(first_epoch.tolist()) == sorted((np.arange(30) % 10).tolist())


def test_unreachable_source_names_the_file_to_place(tmp_path):
    with pytest.raises(OSError, match="Could not download http://127.0.0.1:1/train-images"):
        input_data.read_data_sets(str(tmp_path), source_url="http://127.0.0.1:1/")


def test_keras_datasets_from_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    os.makedirs(tmp_path / "datasets" / "fashion-mnist")
    os.makedirs(tmp_path / "datasets" / "cifar-10-batches-py")
    x = np.arange(2 * 28 * 28).reshape(2, 28, 28) % 256
    np.savez(tmp_path / "datasets" / "mnist.npz", x_train=x.astype(np.uint8),
             y_train=np.array([1, 2], np.uint8), x_test=x[:1].astype(np.uint8),
             y_test=np.array([3], np.uint8))
    for name, arr, magic in (("train-labels-idx1-ubyte.gz", np.array([5, 6]), 2049),
                             ("train-images-idx3-ubyte.gz", x, 2051),
                             ("t10k-labels-idx1-ubyte.gz", np.array([7]), 2049),
                             ("t10k-images-idx3-ubyte.gz", x[:1], 2051)):
        _write_idx(str(tmp_path / "datasets" / "fashion-mnist" / name), arr, magic)
    for i in range(1, 6):
        with open(tmp_path / "datasets" / "cifar-10-batches-py" / f"data_batch_{i}", "wb") as f:
            pickle.dump({b"data": np.full((10000, 3072), i, np.uint8),
                         b"labels": [i] * 10000}, f)
    with open(tmp_path / "datasets" / "cifar-10-batches-py" / "test_batch", "wb") as f:
        pickle.dump({b"data": np.zeros((3, 3072), np.uint8), b"labels": [0, 1, 2]}, f)
    import tf1compat as tf
    (xt, yt), (xe, ye) = tf.keras.datasets.mnist.load_data()
    assert xt.shape == (2, 28, 28) and yt.tolist() == [1, 2] and ye.tolist() == [3]
    (fx, fy), _ = tf.keras.datasets.fashion_mnist.load_data()
    np.testing.assert_array_equal(fx, x) and fy.tolist() == [5, 6]
    (cx, cy), (tx, ty) = tf.keras.datasets.cifar10.load_data()
    assert cx.shape == (50000, 32, 32, 3) and cy.shape == (50000, 1) and cy[-1, 0] == 5
    assert tx.shape == (3, 32, 32, 3) and ty.ravel().tolist() == [0, 1, 2]


def test_unsafe_pickle_refused(tmp_path):
    from tf1compat.keras.datasets._cache import restricted_unpickle

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))
    path = tmp_path / "evil"
    with open(path, "wb") as f:
        pickle.dump({b"data": Evil()}, f)
    with open(path, "rb") as f, pytest.raises(pickle.UnpicklingError):
        restricted_unpickle(f)


def test_tensorflow_path_import():
    import tf1compat
    tf1compat.install()
    from tensorflow.examples.tutorials.mnist import input_data as imported
    assert imported.read_data_sets is input_data.read_data_sets


def test_mnist_package_imports_its_modules():
    """TF 1.x's tutorials/mnist/__init__.py imports input_data and mnist, so ericjang/draw's
    `from tensorflow.examples.tutorials import mnist; mnist.input_data.read_data_sets(...)`
    works; checked in a fresh interpreter, where nothing has imported the submodules yet."""
    import subprocess
    import sys
    code = ("import tf1compat; tf1compat.install()\n"
            "from tensorflow.examples.tutorials import mnist\n"
            "print(mnist.input_data.read_data_sets.__module__, mnist.mnist.NUM_CLASSES)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["tf1compat.contrib.learn.datasets.mnist", "10"]


# -- tf.contrib.learn.datasets: downloads, load_dataset ----------------------------------------

def test_read_data_sets_downloads_missing_files_once(tmp_path, mnist_dir, http_folder,
                                                     capsys):
    served, url = http_folder
    folder = mnist_dir[0]
    for name in (input_data.TRAIN_IMAGES, input_data.TRAIN_LABELS, input_data.TEST_IMAGES,
                 input_data.TEST_LABELS):
        (served / name).write_bytes((folder / name).read_bytes())
    target = tmp_path / "MNIST_data"
    data = input_data.read_data_sets(str(target), validation_size=5, source_url=url)
    assert data.train.num_examples == 25 and data.test.num_examples == 7
    assert sorted(os.listdir(target)) == sorted(os.listdir(served))
    assert "Successfully downloaded train-images-idx3-ubyte.gz" in capsys.readouterr().out
    for name in os.listdir(served):
        os.remove(served / name)          # a second call reads the local copies
    assert input_data.read_data_sets(str(target), validation_size=5,
                                     source_url=url).train.num_examples == 25


def test_download_failure_names_the_url_and_path(tmp_path, http_folder):
    from tf1compat.contrib.learn.datasets import base
    _, url = http_folder
    with pytest.raises(OSError, match="Could not download .*missing.csv"):
        base.maybe_download("missing.csv", str(tmp_path), url + "missing.csv")
    assert not os.path.exists(tmp_path / "missing.csv")


def test_load_dataset_and_bundled_csvs():
    import tf1compat as tf
    datasets = tf.contrib.learn.datasets
    iris = datasets.load_dataset("iris")
    assert iris.data.shape == (150, 4) and iris.data.dtype == np.float64
    assert iris.target.dtype == np.int_ and sorted(set(iris.target)) == [0, 1, 2]
    boston = datasets.load_boston()
    assert boston.data.shape == (506, 13) and boston.target.dtype == np.float64
    fake = datasets.load_dataset("dbpedia", test_with_fake_data=True)
    assert fake.validation is None and fake.train.target.dtype == np.int32
    with pytest.raises(ValueError, match="Name of dataset is not found: cifar"):
        datasets.load_dataset("cifar")


def test_retry_backs_off_only_on_retriable_errors(monkeypatch):
    from tf1compat.contrib.learn.datasets import base
    sleeps = []
    monkeypatch.setattr(base.time, "sleep", sleeps.append)
    calls = []

    @base.retry(initial_delay=1.0, max_delay=4.0, jitter=0.0,
                is_retriable=lambda e: isinstance(e, TimeoutError))
    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise TimeoutError
        return "ok"
    assert flaky() == "ok" and sleeps == [1.0, 2.0]

    @base.retry(initial_delay=1.0, max_delay=4.0, is_retriable=lambda e: False)
    def broken():
        raise KeyError("no")
    with pytest.raises(KeyError):
        broken()
    with pytest.raises(ValueError, match="factor must be >= 1"):
        base.retry(1.0, 2.0, factor=0.5)


def test_keras_datasets_download_missing_files(tmp_path, monkeypatch, http_folder):
    served, url = http_folder
    x = (np.arange(2 * 28 * 28).reshape(2, 28, 28) % 256).astype(np.uint8)
    np.savez(served / "mnist.npz", x_train=x, y_train=np.array([4, 2], np.uint8),
             x_test=x[:1], y_test=np.array([9], np.uint8))
    from tf1compat.keras.datasets import mnist
    monkeypatch.setattr(mnist, "ORIGIN", url + "mnist.npz")
    import hashlib
    monkeypatch.setattr(mnist, "DATA_HASH",
                        hashlib.sha256((served / "mnist.npz").read_bytes()).hexdigest())
    (tmp_path / "home").mkdir()
    (tmp_path / "other").mkdir()
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    (xt, yt), (_, ye) = mnist.load_data()
    assert xt.shape == (2, 28, 28) and yt.tolist() == [4, 2] and ye.tolist() == [9]
    assert (tmp_path / "home" / "datasets" / "mnist.npz").exists()
    monkeypatch.setattr(mnist, "ORIGIN", "http://127.0.0.1:1/mnist.npz")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "other"))
    with pytest.raises(Exception, match="URL fetch failure"):
        mnist.load_data()
