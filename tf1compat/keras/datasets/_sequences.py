"""What imdb and reuters share: word-rank sequences shifted by `index_from` behind a
`start_char`, long ones dropped, rare and top words cut to `oov_char`, and the word
index JSON. The steps keep tf-keras's data types on purpose (NumPy object arrays where it
keeps them, Python lists after a step that rebuilds them), because users see the
difference: e.g. the final `np.array(..., dtype=object)` is 2-D when every sequence has
the same length."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat.keras.datasets._cache import cache_path
from tf1compat.util import tf_logging

__all__ = ["ORIGIN_FOLDER", "renamed_num_words", "add_offsets", "drop_long",
           "limit_vocabulary", "load_word_index"]

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def renamed_num_words(num_words: Optional[int], kwargs: Dict[str, Any],
                      period: str) -> Optional[int]:
    """`num_words`, or the Keras 1 `nb_words` in its place (with tf-keras's warning);
    any other keyword is a TypeError (imdb's message ends with `period`, reuters' not)."""
    kwargs = dict(kwargs)
    if "nb_words" in kwargs:
        tf_logging.warning("The `nb_words` argument in `load_data` has been renamed "
                           "`num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {kwargs}{period}")
    return num_words


def add_offsets(sequences: Any, start_char: Optional[int], index_from: int) -> Any:
    """Each sequence's ranks + `index_from`, behind `start_char` when it is not None; the
    input itself (still an object array) when there is nothing to add."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in sequences]
    if index_from:
        return [[w + index_from for w in x] for x in sequences]
    return sequences


def drop_long(maxlen: int, sequences: Sequence[Any],
              labels: Sequence[Any]) -> Tuple[List[Any], List[Any]]:
    """The sequences shorter than `maxlen` (strictly) and their labels, as lists."""
    kept = [(x, y) for x, y in zip(sequences, labels) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def limit_vocabulary(sequences: Sequence[Any], num_words: Optional[int], skip_top: int,
                     oov_char: Optional[int]) -> List[List[Any]]:
    """Words outside [skip_top, num_words) become `oov_char` (dropped when None). With no
    `num_words`, the bound is the largest word, so that word itself counts as out of
    range, as in tf-keras."""
    if not num_words:
        num_words = max(max(x) for x in sequences)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in sequences]
    return [[w for w in x if skip_top <= w < num_words] for x in sequences]


def load_word_index(path: str, file_name: str, file_hash: str) -> Dict[str, int]:
    """The word -> rank dict of a `*_word_index.json` in the cache, downloaded when missing."""
    with open(cache_path(path, ORIGIN_FOLDER + file_name, file_hash)) as f:
        return json.load(f)
