"""`tf.keras.datasets` imdb, reuters, boston_housing and cifar100 against tf-keras 2.21:
the synthetic files of tests/golden/keras_datasets_files.py are written into a temporary
Keras cache and every case of its grid is compared with what tf-keras returned on the
same files (tests/fixtures/keras_datasets.json, scripts/record_keras_datasets.py);
then the cache's behaviours tf-keras's own runs cannot show (downloads, unsafe files)."""

from __future__ import annotations

import hashlib
import json
import os
import pickle

import numpy as np
import pytest

import tf1compat as tf
from tests.golden import keras_datasets_files as files
from tests.local_http import http_folder  # noqa: F401  (a fixture)

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "keras_datasets.json")
with open(FIXTURE) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """(root, KERAS_HOME) with every file of the grid written; CIFAR-100 only as its
    archive, so the first load unpacks it as tf-keras's get_file does."""
    root = tmp_path_factory.mktemp("keras_datasets")
    home = root / "keras_home"
    files.write_files(str(root / "files"), str(home / "datasets"))
    return str(root / "files"), str(home)


def test_grid_covers_the_recording():
    assert sorted(EXPECTED) == sorted(case[0] for case in files.CASES)


@pytest.mark.parametrize("case", files.CASES, ids=[case[0] for case in files.CASES])
def test_matches_tf_keras(case, written, monkeypatch):
    root, home = written
    monkeypatch.setenv("KERAS_HOME", home)
    assert files.run_case(tf.keras.datasets, case, root) == EXPECTED[case[0]]


def test_cifar100_unpacks_the_archive_once(tmp_path, monkeypatch):
    home = str(tmp_path / "home")
    files.write_files(str(tmp_path / "files"), os.path.join(home, "datasets"))
    monkeypatch.setenv("KERAS_HOME", home)
    tf.keras.datasets.cifar100.load_data()
    folder = os.path.join(home, "datasets", "cifar-100-python")
    assert sorted(os.listdir(folder)) == ["test", "train"]
    os.remove(os.path.join(home, "datasets", "cifar-100-python.tar.gz"))
    (x, y), _ = tf.keras.datasets.cifar100.load_data("coarse")   # the unpacked files
    assert x.shape == (7, 32, 32, 3) and y.dtype == np.int64


def test_cifar100_channels_first(written, monkeypatch):
    root, home = written
    monkeypatch.setenv("KERAS_HOME", home)
    (last, _), _ = tf.keras.datasets.cifar100.load_data()
    tf.keras.backend.set_image_data_format("channels_first")
    try:
        (first, _), _ = tf.keras.datasets.cifar100.load_data()
    finally:
        tf.keras.backend.set_image_data_format("channels_last")
    assert first.shape == (7, 3, 32, 32)
    np.testing.assert_array_equal(first.transpose(0, 2, 3, 1), last)


def test_nb_words_warns(written, monkeypatch, caplog):
    root, home = written
    monkeypatch.setenv("KERAS_HOME", home)
    tf.keras.datasets.reuters.load_data(nb_words=12)
    assert "renamed `num_words`" in caplog.text


def test_pickled_code_in_an_npz_is_refused(tmp_path, monkeypatch):
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))
    x = np.empty(1, dtype=object)
    x[0] = Evil()
    np.savez(tmp_path / "evil.npz", x=x, y=np.zeros(1))
    with pytest.raises(pickle.UnpicklingError, match="refusing to load"):
        tf.keras.datasets.reuters.load_data(path=str(tmp_path / "evil.npz"))


def _sha256(path) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_missing_files_are_downloaded_and_checked(tmp_path, http_folder, monkeypatch):
    folder, url = http_folder
    files.write_files(str(tmp_path / "files"), str(folder))
    from tf1compat.keras.datasets import _sequences, boston_housing, cifar100, imdb
    monkeypatch.setattr(_sequences, "ORIGIN_FOLDER", url)
    monkeypatch.setattr(imdb, "DATA_HASH", _sha256(folder / "imdb.npz"))
    monkeypatch.setattr(imdb, "WORD_INDEX_HASH", hashlib.md5(
        (folder / "imdb_word_index.json").read_bytes()).hexdigest())
    monkeypatch.setattr(cifar100, "ORIGIN", url + "cifar-100-python.tar.gz")
    monkeypatch.setattr(cifar100, "DATA_HASH", _sha256(folder / "cifar-100-python.tar.gz"))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    (x, _), _ = imdb.load_data(num_words=15)
    assert x.shape == (25,) and imdb.get_word_index()["word3"] == 3
    (images, _), _ = cifar100.load_data()
    assert images.shape == (7, 32, 32, 3)
    cache = tmp_path / "home" / "datasets"
    assert {"imdb.npz", "imdb_word_index.json", "cifar-100-python.tar.gz",
            "cifar-100-python"} <= set(os.listdir(cache))
    # A download whose hash is not tf-keras's is refused and leaves nothing behind.
    monkeypatch.setattr(boston_housing, "ORIGIN", url + "boston_housing.npz")
    with pytest.raises(ValueError, match="file hash does not match"):
        boston_housing.load_data()
    assert not [n for n in os.listdir(cache) if "boston" in n or n.startswith(".download")]
    monkeypatch.setattr(_sequences, "ORIGIN_FOLDER", "http://127.0.0.1:1/")
    with pytest.raises(Exception, match="URL fetch failure"):
        tf.keras.datasets.reuters.load_data()


def test_tutorial_text_pipeline(written, monkeypatch):
    """TF's basic_text_classification / overfit_and_underfit steps on the loaded arrays:
    decoding through the word index, pad_sequences, multi-hot rows."""
    root, home = written
    monkeypatch.setenv("KERAS_HOME", home)
    imdb = tf.keras.datasets.imdb
    (train, labels), _ = imdb.load_data(num_words=30)
    index = {word: rank + 3 for word, rank in imdb.get_word_index().items()}
    reverse = {rank: word for word, rank in index.items()}
    assert [reverse.get(i, "?") for i in train[0]][1] == "word20"
    padded = tf.keras.preprocessing.sequence.pad_sequences(train, value=0, padding="post",
                                                           maxlen=16)
    assert padded.shape == (25, 16) and padded.dtype == np.int32
    assert padded[0].tolist() == train[0] + [0] * (16 - len(train[0]))
    multi_hot = np.zeros((len(train), 30))
    for i, words in enumerate(train):
        multi_hot[i, words] = 1.0
    assert multi_hot[:, 1].all() and labels.dtype == np.int64
