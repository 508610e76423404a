"""Small synthetic files in the real formats of tf-keras's dataset caches (imdb, reuters,
boston_housing, cifar-100, mnist, fashion-mnist), the grid of loader calls made on them, and a JSON-able summary
of what each call returns or raises.

Shared by scripts/record_keras_datasets.py (which runs tf-keras 2.21's loaders on these
files and writes tests/fixtures/keras_datasets.json) and tests/test_keras_datasets.py
(which runs tf1compat's on the same files and compares). Only numpy and the standard
library are imported, so the module runs under either venv. Content is deterministic:
numpy's legacy RandomState streams are fixed across numpy versions.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import pickle
import tarfile
from typing import Any, Dict, List, Tuple

import numpy as np

ROOT = "{root}"   # stands for the folder the files were written under, in CASES' kwargs

# (case name, tf.keras.datasets module, function, keyword arguments)
CASES: List[Tuple[str, str, str, Dict[str, Any]]] = [
    ("imdb_default", "imdb", "load_data", {}),
    ("imdb_num_words", "imdb", "load_data", {"num_words": 15}),
    ("imdb_skip_top", "imdb", "load_data", {"num_words": 20, "skip_top": 6}),
    ("imdb_maxlen", "imdb", "load_data", {"maxlen": 8}),
    ("imdb_seed", "imdb", "load_data", {"seed": 7}),
    ("imdb_no_start_char", "imdb", "load_data", {"start_char": None}),
    ("imdb_no_offsets", "imdb", "load_data", {"start_char": None, "index_from": 0}),
    ("imdb_no_oov_char", "imdb", "load_data", {"oov_char": None, "num_words": 12,
                                               "skip_top": 4}),
    ("imdb_custom_chars", "imdb", "load_data", {"start_char": 5, "oov_char": 0,
                                                "index_from": 1, "num_words": 18}),
    ("imdb_nb_words", "imdb", "load_data", {"nb_words": 10}),
    ("imdb_unknown_kwarg", "imdb", "load_data", {"num_words": 10, "foo": 1}),
    ("imdb_maxlen_drops_all", "imdb", "load_data", {"maxlen": 4}),
    ("imdb_equal_lengths", "imdb", "load_data", {"path": "imdb_equal.npz"}),
    ("imdb_equal_lengths_maxlen", "imdb", "load_data", {"path": "imdb_equal.npz",
                                                        "maxlen": 7, "num_words": 9}),
    ("imdb_cache_dir", "imdb", "load_data", {"cache_dir": ROOT + "/custom",
                                             "num_words": 9}),
    ("imdb_absolute_path", "imdb", "load_data", {"path": ROOT + "/elsewhere/imdb_abs.npz"}),
    ("imdb_word_index", "imdb", "get_word_index", {}),
    ("reuters_default", "reuters", "load_data", {}),
    ("reuters_num_words", "reuters", "load_data", {"num_words": 10}),
    ("reuters_skip_top", "reuters", "load_data", {"num_words": 25, "skip_top": 3}),
    ("reuters_maxlen", "reuters", "load_data", {"maxlen": 9}),
    ("reuters_test_split", "reuters", "load_data", {"test_split": 0.5, "seed": 3}),
    ("reuters_no_test", "reuters", "load_data", {"test_split": 0.0}),
    ("reuters_no_train", "reuters", "load_data", {"test_split": 1.0}),
    ("reuters_no_start_char", "reuters", "load_data", {"start_char": None}),
    ("reuters_no_offsets", "reuters", "load_data", {"start_char": None, "index_from": 0}),
    ("reuters_no_oov_char", "reuters", "load_data", {"oov_char": None, "num_words": 14,
                                                     "skip_top": 2}),
    ("reuters_nb_words", "reuters", "load_data", {"nb_words": 12}),
    ("reuters_unknown_kwarg", "reuters", "load_data", {"bar": 2}),
    ("reuters_maxlen_drops_all", "reuters", "load_data", {"maxlen": 3}),
    ("reuters_maxlen_drops_all_num_words", "reuters", "load_data", {"maxlen": 3,
                                                                    "num_words": 10}),
    ("reuters_cache_dir", "reuters", "load_data", {"cache_dir": ROOT + "/custom"}),
    ("reuters_word_index", "reuters", "get_word_index", {}),
    ("reuters_label_names", "reuters", "get_label_names", {}),
    ("boston_default", "boston_housing", "load_data", {}),
    ("boston_test_split", "boston_housing", "load_data", {"test_split": 0.45, "seed": 1}),
    ("boston_no_test", "boston_housing", "load_data", {"test_split": 0.0}),
    ("boston_test_split_one", "boston_housing", "load_data", {"test_split": 1.0}),
    ("boston_cache_dir", "boston_housing", "load_data", {"cache_dir": ROOT + "/custom",
                                                         "seed": 5}),
    ("cifar100_fine", "cifar100", "load_data", {}),
    ("cifar100_coarse", "cifar100", "load_data", {"label_mode": "coarse"}),
    ("cifar100_bad_label_mode", "cifar100", "load_data", {"label_mode": "medium"}),
    ("cifar100_cache_dir", "cifar100", "load_data", {"cache_dir": ROOT + "/custom",
                                                     "label_mode": "coarse"}),
    ("mnist_default", "mnist", "load_data", {}),
    ("mnist_absolute_path", "mnist", "load_data", {"path": ROOT + "/elsewhere/mnist_abs.npz"}),
    ("mnist_cache_dir", "mnist", "load_data", {"cache_dir": ROOT + "/custom"}),
    ("fashion_mnist_default", "fashion_mnist", "load_data", {}),
    ("fashion_mnist_cache_dir", "fashion_mnist", "load_data", {"cache_dir": ROOT + "/custom"}),
]


def _sequences(rng: np.random.RandomState, count: int, lengths: Tuple[int, int],
               vocabulary: int) -> np.ndarray:
    """A 1-D object array of Python lists of Python ints (word ranks from 1), as the
    real imdb.npz / reuters.npz hold them."""
    out = np.empty(count, dtype=object)
    for i in range(count):
        length = int(rng.randint(lengths[0], lengths[1] + 1))
        out[i] = [int(w) for w in rng.randint(1, vocabulary + 1, size=length)]
    return out


def _equal_sequences(rng: np.random.RandomState, count: int, length: int) -> np.ndarray:
    out = np.empty(count, dtype=object)
    for i in range(count):
        out[i] = [int(w) for w in rng.randint(1, 12, size=length)]
    return out


def _cifar100_batch(rng: np.random.RandomState, count: int, label: bytes) -> Dict[bytes, Any]:
    """A CIFAR-100 python batch: bytes keys (the files are Python 2 pickles), images as
    (count, 3072) uint8 rows of 1024 red, 1024 green, 1024 blue values."""
    return {b"filenames": [b"img_%d.png" % i for i in range(count)],
            b"batch_label": label,
            b"fine_labels": [int(v) for v in rng.randint(0, 100, size=count)],
            b"coarse_labels": [int(v) for v in rng.randint(0, 20, size=count)],
            b"data": rng.randint(0, 256, size=(count, 3072)).astype(np.uint8)}


def _write_idx(path: str, array: np.ndarray) -> None:
    """An MNIST-style gzipped IDX file: magic (0x0801 labels, 0x0803 images), sizes, bytes."""
    with gzip.open(path, "wb") as f:
        f.write(np.array([0x800 + array.ndim] + list(array.shape), ">u4").tobytes())
        f.write(array.astype(np.uint8).tobytes())


def _word_index(prefix: str, size: int) -> Dict[str, int]:
    return {f"{prefix}{rank}": rank for rank in range(1, size + 1)}


def write_files(root: str, datasets_dir: str) -> None:
    """Writes every file CASES reads: the default cache's files into `datasets_dir`, the
    `cache_dir` cases' into `root/custom/datasets`, absolute paths under `root/elsewhere`.
    CIFAR-100 goes in as `cifar-100-python.tar.gz` only (what tf-keras's get_file looks
    for; loaders unpack it)."""
    custom = os.path.join(root, "custom", "datasets")
    elsewhere = os.path.join(root, "elsewhere")
    for folder in (datasets_dir, custom, elsewhere):
        os.makedirs(folder, exist_ok=True)
    rng = np.random.RandomState(1234)
    imdb = {"x_train": _sequences(rng, 25, (3, 14), 40),
            "y_train": rng.randint(0, 2, size=25).astype(np.int64),
            "x_test": _sequences(rng, 20, (3, 14), 45),
            "y_test": rng.randint(0, 2, size=20).astype(np.int64)}
    for path in (os.path.join(datasets_dir, "imdb.npz"), os.path.join(custom, "imdb.npz"),
                 os.path.join(elsewhere, "imdb_abs.npz")):
        np.savez(path, **imdb)
    np.savez(os.path.join(datasets_dir, "imdb_equal.npz"),
             x_train=_equal_sequences(rng, 6, 5), y_train=np.arange(6) % 2,
             x_test=_equal_sequences(rng, 4, 5), y_test=np.arange(4) % 2)
    reuters = {"x": _sequences(rng, 30, (2, 16), 50),
               "y": rng.randint(0, 46, size=30).astype(np.int64)}
    for folder in (datasets_dir, custom):
        np.savez(os.path.join(folder, "reuters.npz"), **reuters)
    for name, prefix, size in (("imdb_word_index.json", "word", 45),
                               ("reuters_word_index.json", "term", 50)):
        with open(os.path.join(datasets_dir, name), "w") as f:
            json.dump(_word_index(prefix, size), f)
    boston = {"x": np.round(rng.uniform(0, 100, size=(21, 13)), 4),
              "y": np.round(rng.uniform(5, 50, size=21), 1)}
    for folder in (datasets_dir, custom):
        np.savez(os.path.join(folder, "boston_housing.npz"), **boston)
    batches = {"train": _cifar100_batch(rng, 7, b"training batch 1 of 1"),
               "test": _cifar100_batch(rng, 4, b"testing batch 1 of 1")}
    for folder in (datasets_dir, custom):
        with tarfile.open(os.path.join(folder, "cifar-100-python.tar.gz"), "w:gz") as tar:
            for name, batch in batches.items():
                payload = pickle.dumps(batch, protocol=2)
                info = tarfile.TarInfo(f"cifar-100-python/{name}")
                info.size = len(payload)
                tar.addfile(info, io.BytesIO(payload))
    mnist = {"x_train": rng.randint(0, 256, size=(6, 28, 28)).astype(np.uint8),
             "y_train": rng.randint(0, 10, size=6).astype(np.uint8),
             "x_test": rng.randint(0, 256, size=(3, 28, 28)).astype(np.uint8),
             "y_test": rng.randint(0, 10, size=3).astype(np.uint8)}
    for path in (os.path.join(datasets_dir, "mnist.npz"), os.path.join(custom, "mnist.npz"),
                 os.path.join(elsewhere, "mnist_abs.npz")):
        np.savez(path, **mnist)
    fashion = {"train-labels-idx1-ubyte.gz": rng.randint(0, 10, size=5),
               "train-images-idx3-ubyte.gz": rng.randint(0, 256, size=(5, 28, 28)),
               "t10k-labels-idx1-ubyte.gz": rng.randint(0, 10, size=2),
               "t10k-images-idx3-ubyte.gz": rng.randint(0, 256, size=(2, 28, 28))}
    for folder in (datasets_dir, custom):
        os.makedirs(os.path.join(folder, "fashion-mnist"), exist_ok=True)
        for name, array in fashion.items():
            _write_idx(os.path.join(folder, "fashion-mnist", name), array)


def resolve(kwargs: Dict[str, Any], root: str) -> Dict[str, Any]:
    """CASES' kwargs with ROOT replaced by the folder the files were written under."""
    return {k: v.replace(ROOT, root) if isinstance(v, str) else v for k, v in kwargs.items()}


def _array(value: np.ndarray) -> Dict[str, Any]:
    out: Dict[str, Any] = {"shape": list(value.shape), "dtype": str(value.dtype)}
    if value.dtype == object:
        items = value.ravel().tolist()
        out["item_types"] = sorted({type(x).__name__ for x in items})
        out["word_types"] = sorted({type(w).__name__ for x in items
                                    if isinstance(x, list) for w in x})
        out["values"] = [[int(w) for w in x] if isinstance(x, list) else int(x)
                         for x in items]
    elif value.size > 2000:
        out["sum"] = int(value.astype(np.int64).sum())
        out["sha256"] = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
        out["first"] = value.ravel()[:8].tolist()
    else:
        out["values"] = value.tolist()
    return out


def describe(value: Any) -> Any:
    """What a loader returned, as JSON: arrays by shape, dtype and values (item and word
    types of object arrays; sum and hash of large ones), containers by their type."""
    if isinstance(value, np.ndarray):
        return {"array": _array(value)}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [describe(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": sorted([str(k), describe(v)] for k, v in value.items())}
    return {type(value).__name__: value}


def run_case(datasets: Any, case: Tuple[str, str, str, Dict[str, Any]], root: str) -> Any:
    """The described result of one case against a `tf.keras.datasets` namespace, or the
    class and message of what it raised."""
    _, module, function, kwargs = case
    try:
        return describe(getattr(getattr(datasets, module), function)(**resolve(kwargs, root)))
    except Exception as e:  # the error is the expected result of some cases
        return {"error": type(e).__name__, "message": str(e)}
