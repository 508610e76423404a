"""`tf.keras.datasets.imdb`: the IMDB movie-review sentiment set (25,000 train and 25,000
test reviews as word-rank sequences, labels 0/1) from `~/.keras/datasets/imdb.npz`, and
its word index, with tf-keras 2.21's shuffles, offsets and cuts."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from tf1compat.keras.datasets import _sequences
from tf1compat.keras.datasets._cache import cache_path, load_npz

__all__ = ["load_data", "get_word_index"]

# tf-keras's sha256 of imdb.npz and md5 of imdb_word_index.json: downloads are checked.
DATA_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def load_data(path: str = "imdb.npz", num_words: Optional[int] = None, skip_top: int = 0,
              maxlen: Optional[int] = None, seed: int = 113, start_char: Optional[int] = 1,
              oov_char: Optional[int] = 2, index_from: int = 3,
              cache_dir: Optional[str] = None, **kwargs: Any
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)): x object arrays of word-index lists, y int
    labels. Each split is shuffled by `np.random.RandomState(seed)` (train, then test);
    ranks are shifted by `index_from` behind `start_char`; with `maxlen`, sequences not
    shorter are dropped (ValueError when a split ends up empty); ranks outside
    [skip_top, num_words) become `oov_char` (or are dropped when it is None). `nb_words`
    is the Keras 1 name of `num_words`; other keywords are a TypeError."""
    num_words = _sequences.renamed_num_words(num_words, kwargs, period=".")
    arrays = load_npz(cache_path(path, _sequences.ORIGIN_FOLDER + "imdb.npz", DATA_HASH,
                                 cache_dir))
    x_train, labels_train = arrays["x_train"], arrays["y_train"]
    x_test, labels_test = arrays["x_test"], arrays["y_test"]

    rng = np.random.RandomState(seed)
    order = np.arange(len(x_train))
    rng.shuffle(order)
    x_train, labels_train = x_train[order], labels_train[order]
    order = np.arange(len(x_test))
    rng.shuffle(order)
    x_test, labels_test = x_test[order], labels_test[order]

    x_train = _sequences.add_offsets(x_train, start_char, index_from)
    x_test = _sequences.add_offsets(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = _sequences.drop_long(maxlen, x_train, labels_train)
        x_test, labels_test = _sequences.drop_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, "
                             "no sequence was kept. Increase maxlen.")
    # Lists are joined; with neither offset (start_char None, index_from 0) they are
    # still object arrays and `+` adds them elementwise, as in tf-keras (a shape error
    # for splits of different sizes).
    sequences = x_train + x_test
    labels = np.concatenate([labels_train, labels_test])
    sequences = _sequences.limit_vocabulary(sequences, num_words, skip_top, oov_char)
    split = len(x_train)
    return ((np.array(sequences[:split], dtype="object"), labels[:split]),
            (np.array(sequences[split:], dtype="object"), labels[split:]))


def get_word_index(path: str = "imdb_word_index.json") -> Dict[str, int]:
    """{word: rank} (rank 1 the most frequent word); a word's id in `load_data`'s
    sequences is its rank + `index_from`."""
    return _sequences.load_word_index(path, "imdb_word_index.json", WORD_INDEX_HASH)
