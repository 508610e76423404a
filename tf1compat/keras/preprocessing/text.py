"""`tf.keras.preprocessing.text`: word splitting, hashing and the `Tokenizer`, as tf-keras
2.21 computes them.

The Tokenizer's vocabulary order is tf-keras's: words sorted by count, most frequent
first, ties in order of first appearance (a stable sort of `word_counts`, an OrderedDict
in insertion order), with `oov_token` (when given) at index 1. `one_hot` hashes with
Python's `hash`, which varies between processes unless PYTHONHASHSEED is set, as in Keras.
"""

from __future__ import annotations

import collections
import hashlib
import json
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union

import numpy as np

__all__ = ["text_to_word_sequence", "one_hot", "hashing_trick", "Tokenizer",
           "tokenizer_from_json"]

DEFAULT_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'
_MATRIX_MODES = ("binary", "count", "tfidf", "freq")


def text_to_word_sequence(input_text: str, filters: str = DEFAULT_FILTERS,
                          lower: bool = True, split: str = " ") -> List[str]:
    """The words of `input_text`: every filter character becomes `split`, then the text
    is split on `split` and empty pieces dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


def hashing_trick(text: str, n: int, hash_function: Union[None, str, Callable] = None,
                  filters: str = DEFAULT_FILTERS, lower: bool = True, split: str = " ",
                  analyzer: Optional[Callable] = None) -> List[int]:
    """Each word hashed into `[1, n - 1]` (0 is kept for padding); `hash_function` is
    Python's `hash` (default), "md5" or a callable."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(word: str) -> int:
            return int(hashlib.md5(word.encode()).hexdigest(), 16)
    words = (text_to_word_sequence(text, filters=filters, lower=lower, split=split)
             if analyzer is None else analyzer(text))
    return [hash_function(word) % (n - 1) + 1 for word in words]


def one_hot(input_text: str, n: int, filters: str = DEFAULT_FILTERS, lower: bool = True,
            split: str = " ", analyzer: Optional[Callable] = None) -> List[int]:
    """`hashing_trick` with Python's `hash`: word indices in `[1, n - 1]`."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


class Tokenizer:
    """A vocabulary fitted on texts; turns texts into index sequences or matrices."""

    def __init__(self, num_words: Optional[int] = None, filters: str = DEFAULT_FILTERS,
                 lower: bool = True, split: str = " ", char_level: bool = False,
                 oov_token: Optional[str] = None, analyzer: Optional[Callable] = None,
                 **kwargs: Any):
        if "nb_words" in kwargs:
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts: Dict[str, int] = collections.OrderedDict()
        self.word_docs: Dict[str, int] = collections.defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs: Dict[int, int] = collections.defaultdict(int)
        self.word_index: Dict[str, int] = {}
        self.index_word: Dict[int, str] = {}
        self.analyzer = analyzer

    def _tokens(self, text: Union[str, List[str]]) -> List[str]:
        """A text's tokens: a list of words or (char_level) a string is taken as is,
        lower-cased when `lower`; else the words of the text."""
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = ([t.lower() for t in text] if isinstance(text, list)
                        else text.lower())
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower,
                                     split=self.split)

    def fit_on_texts(self, texts: Iterable[Union[str, List[str]]]) -> None:
        """Counts the words of `texts` and rebuilds `word_index` (by descending count)."""
        for text in texts:
            self.document_count += 1
            tokens = self._tokens(text)
            for word in tokens:
                self.word_counts[word] = self.word_counts.get(word, 0) + 1
            for word in set(tokens):
                self.word_docs[word] += 1
        by_count = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = [] if self.oov_token is None else [self.oov_token]
        vocabulary.extend(word for word, _ in by_count)
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {index: word for word, index in self.word_index.items()}
        for word, count in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = count

    def fit_on_sequences(self, sequences: List[List[int]]) -> None:
        """Counts in how many sequences each index occurs (for tfidf matrices)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for index in set(seq):
                self.index_docs[index] += 1

    def texts_to_sequences(self, texts: Iterable[Any]) -> List[List[int]]:
        """Each text as word indices; words past `num_words` or unknown become the OOV
        index when `oov_token` is set, else are dropped."""
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts: Iterable[Any]) -> Iterator[List[int]]:
        """`texts_to_sequences`, one text at a time."""
        oov_index = self.word_index.get(self.oov_token)
        for text in texts:
            indices = []
            for word in self._tokens(text):
                index = self.word_index.get(word)
                if index is not None and not (self.num_words and index >= self.num_words):
                    indices.append(index)
                elif index is None and self.oov_token is not None:
                    indices.append(oov_index)
                elif index is not None and oov_index is not None:
                    indices.append(oov_index)
            yield indices

    def sequences_to_texts(self, sequences: Iterable[List[int]]) -> List[str]:
        """Each index sequence back to a space-joined text."""
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences: Iterable[List[int]]
                                     ) -> Iterator[str]:
        """`sequences_to_texts`, one sequence at a time."""
        oov_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for index in seq:
                word = self.index_word.get(index)
                if word is not None and not (self.num_words and index >= self.num_words):
                    words.append(word)
                elif word is None and self.oov_token is not None:
                    words.append(self.index_word[oov_index])
                elif word is not None and oov_index is not None:
                    words.append(self.index_word[oov_index])
            yield " ".join(words)

    def texts_to_matrix(self, texts: Iterable[Any], mode: str = "binary") -> np.ndarray:
        """`sequences_to_matrix(texts_to_sequences(texts), mode)`."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences: List[List[int]], mode: str = "binary"
                            ) -> np.ndarray:
        """A float64 `(len(sequences), num_words)` matrix: per index 1 ("binary"), its
        count ("count"), count / length ("freq") or (1 + log count) * log(1 + documents
        / (1 + documents with it)) ("tfidf")."""
        if self.num_words:
            num_words = self.num_words
        elif self.word_index:
            num_words = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some "
                             "text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        matrix = np.zeros((len(sequences), num_words))
        for row, seq in enumerate(sequences):
            if not seq:
                continue
            counts: Dict[int, int] = collections.defaultdict(int)
            for index in seq:
                if index < num_words:
                    counts[index] += 1
            for index, count in list(counts.items()):
                if mode not in _MATRIX_MODES:
                    raise ValueError("Unknown vectorization mode:", mode)
                if mode == "count":
                    matrix[row][index] = count
                elif mode == "freq":
                    matrix[row][index] = count / len(seq)
                elif mode == "binary":
                    matrix[row][index] = 1
                else:
                    term = 1 + np.log(count)
                    inverse_doc = np.log(1 + self.document_count /
                                         (1 + self.index_docs.get(index, 0)))
                    matrix[row][index] = term * inverse_doc
        return matrix

    def get_config(self) -> Dict[str, Any]:
        """The settings and (as JSON strings) the fitted tables."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs: Any) -> str:
        """`{"class_name": "Tokenizer", "config": get_config()}` as JSON; read back with
        `tokenizer_from_json`."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def tokenizer_from_json(json_string: str) -> Tokenizer:
    """A Tokenizer from `Tokenizer.to_json()` output."""
    config = dict(json.loads(json_string).get("config"))
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = word_counts
    tokenizer.word_docs = word_docs
    tokenizer.index_docs = index_docs
    tokenizer.word_index = word_index
    tokenizer.index_word = index_word
    return tokenizer
