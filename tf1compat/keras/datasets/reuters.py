"""`tf.keras.datasets.reuters`: 11,228 Reuters newswires as word-rank sequences over 46
topics, from `~/.keras/datasets/reuters.npz`, with tf-keras 2.21's shuffle, offsets, cuts
and train/test split; its word index and topic names."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from tf1compat.keras.datasets import _sequences
from tf1compat.keras.datasets._cache import cache_path, load_npz

__all__ = ["load_data", "get_word_index", "get_label_names"]

# tf-keras's sha256 of reuters.npz and md5 of reuters_word_index.json.
DATA_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"

# The topic of each label id (facts of the data set, in label order).
_LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing",
    "money-supply", "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass",
    "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum",
    "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
    "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
    "dlr", "gas", "silver", "wpi", "hog", "lead")


def load_data(path: str = "reuters.npz", num_words: Optional[int] = None, skip_top: int = 0,
              maxlen: Optional[int] = None, test_split: float = 0.2, seed: int = 113,
              start_char: Optional[int] = 1, oov_char: Optional[int] = 2,
              index_from: int = 3, cache_dir: Optional[str] = None, **kwargs: Any
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)): the newswires shuffled by
    `np.random.RandomState(seed)`, ranks shifted by `index_from` behind `start_char`,
    sequences not shorter than `maxlen` dropped, ranks outside [skip_top, num_words) made
    `oov_char` (dropped when None); the first `int(n * (1 - test_split))` are the train
    split. x are object arrays of word-index lists. `nb_words` is the Keras 1 name of
    `num_words`; other keywords are a TypeError."""
    num_words = _sequences.renamed_num_words(num_words, kwargs, period="")
    arrays = load_npz(cache_path(path, _sequences.ORIGIN_FOLDER + "reuters.npz", DATA_HASH,
                                 cache_dir))
    sequences, labels = arrays["x"], arrays["y"]
    order = np.arange(len(sequences))
    np.random.RandomState(seed).shuffle(order)
    sequences, labels = sequences[order], labels[order]

    sequences = _sequences.add_offsets(sequences, start_char, index_from)
    if maxlen:
        sequences, labels = _sequences.drop_long(maxlen, sequences, labels)
    sequences = _sequences.limit_vocabulary(sequences, num_words, skip_top, oov_char)
    split = int(len(sequences) * (1 - test_split))
    # Labels may be a list here (after maxlen): an empty split is then float64, as in
    # tf-keras.
    return ((np.array(sequences[:split], dtype="object"), np.array(labels[:split])),
            (np.array(sequences[split:], dtype="object"), np.array(labels[split:])))


def get_word_index(path: str = "reuters_word_index.json") -> Dict[str, int]:
    """{word: rank}; a word's id in `load_data`'s sequences is its rank + `index_from`."""
    return _sequences.load_word_index(path, "reuters_word_index.json", WORD_INDEX_HASH)


def get_label_names() -> Tuple[str, ...]:
    """The 46 topic names, indexed by label."""
    return _LABEL_NAMES
