"""`tf.contrib.learn.preprocessing` (TF 1.15): text to id matrices for TF1 text models.

`VocabularyProcessor` maps documents to fixed-length rows of word ids (0 is the unknown
word and the padding), `CategoricalVocabulary` is its word -> id table, `ByteProcessor`
maps documents to rows of UTF-8 bytes, `tokenizer` is the default word splitter,
`CategoricalProcessor` maps the columns of categorical rows to ids (NaN as unknown).

Ids follow TF 1.15 exactly: while fitting, words get ids in order of first appearance;
`min_frequency` re-numbers the kept words by descending count (ties in key order) and keeps
only words seen more than `min_frequency` times. `save`/`restore` pickle the processor, and
the instance attributes carry TF's names: `save` writes the pickle naming TF 1.x's module
paths for these classes and the default tokenizer, so TF 1.x's `restore` reads it (a model
trained here is evaluated by TF 1.x with its vocabulary), and `restore` reads such files,
TF 1.x's own included, with or without `tf1compat.install()`.
"""

from __future__ import annotations

import collections
import importlib
import io
import math
import pickle
import re
from typing import Any, Callable, Iterable, Iterator, List, Optional

import numpy as np

from tf1compat.util import gfile

__all__ = ["VocabularyProcessor", "CategoricalVocabulary", "CategoricalProcessor",
           "ByteProcessor", "tokenizer", "TOKENIZER_RE"]

# Runs of capitals (not followed by a lower-case letter), a capitalised word followed by
# another capital (so "CamelCase" splits), and runs of word characters, ' and -.
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)


def tokenizer(iterator: Iterable[str]) -> Iterator[List[str]]:
    """Yields the list of tokens of each string of `iterator`."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """A growing category -> id table; id 0 is `unknown_token`.

    Unfrozen, `get` of a new category gives it the next id; frozen, new categories map
    to 0. `add` counts occurrences (not of the unknown token), which `trim` uses.
    """

    def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq: Any = collections.defaultdict(int)
        self._freeze = False

    def __len__(self) -> int:
        """The number of ids, the unknown token's included."""
        return len(self._mapping)

    def freeze(self, freeze: bool = True) -> None:
        """Frozen, new categories map to the unknown id instead of getting one."""
        self._freeze = freeze

    def get(self, category: Any) -> int:
        """The category's id (a new id for a new category unless frozen)."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category: Any, count: int = 1) -> None:
        """Counts `count` more occurrences of `category` (giving it an id if new)."""
        if self.get(category) <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
        """Keeps the categories seen more than `min_frequency` times (and, with
        `max_frequency` > 0, fewer than it), re-numbered 1.. by descending count."""
        # Key order first (strings after other keys), then a stable sort by count.
        by_key = sorted(self._freq.items(), key=lambda kv: (isinstance(kv[0], str), kv[0]))
        ranked = sorted(by_key, key=lambda kv: kv[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        next_id = 1
        for category, count in ranked:
            if 0 < max_frequency <= count:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = next_id
            next_id += 1
            if self._support_reverse:
                self._reverse_mapping.append(category)
        # TF 1.15 keeps the counts of the first `kept` ranked entries (also when
        # max_frequency skipped some of them).
        self._freq = dict(ranked[:next_id - 1])

    def reverse(self, class_id: int) -> Any:
        """The category of `class_id`.

        Raises:
          ValueError: the vocabulary was built with support_reverse=False.
        """
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to "
                             "support reverse() function.")
        return self._reverse_mapping[class_id]


class ByteProcessor:
    """Documents as rows of `max_document_length` UTF-8 bytes (uint8, zero-padded)."""

    def __init__(self, max_document_length: int):
        self.max_document_length = max_document_length

    def fit(self, x: Any) -> None:
        """Nothing to learn."""

    def fit_transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
        """`transform(x)`."""
        return self.transform(x)

    def reverse(self, x: Iterable[np.ndarray]) -> Iterator[str]:
        """Rows of byte ids back to strings (trailing zeros dropped; '' if not UTF-8)."""
        for row in x:
            document = np.trim_zeros(np.asarray(row).astype(np.int8), trim="b").tobytes()
            try:
                yield document.decode("utf-8")
            except UnicodeDecodeError:
                yield ""

    def transform(self, x: Iterable[Any]) -> Iterator[np.ndarray]:
        """Yields each document's first `max_document_length` UTF-8 bytes, zero-padded."""
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            row = np.frombuffer(memoryview(document)[:self.max_document_length],
                                dtype=np.uint8)
            yield np.pad(row, (0, self.max_document_length - len(row)), "constant")


class VocabularyProcessor:
    """Maps documents to rows of `max_document_length` word ids (int64, zero-padded,
    longer documents cut).

    Attributes:
      vocabulary_: the CategoricalVocabulary (fitted, or given as `vocabulary`).
    """

    def __init__(self, max_document_length: int, min_frequency: int = 0,
                 vocabulary: Optional[CategoricalVocabulary] = None,
                 tokenizer_fn: Optional[Callable[[Iterable[str]], Iterable[List[str]]]] = None):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents: Iterable[str], unused_y: Any = None) -> "VocabularyProcessor":
        """Learns the vocabulary of `raw_documents` (then freezes it); returns self."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents: Iterable[str],
                      unused_y: Any = None) -> Iterator[np.ndarray]:
        """`fit` then `transform` (iterate `raw_documents` twice: pass a list)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents: Iterable[str]) -> Iterator[np.ndarray]:
        """Yields each document's word-id row."""
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for index, token in enumerate(tokens):
                if index >= self.max_document_length:
                    break
                word_ids[index] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents: Iterable[Iterable[int]]) -> Iterator[str]:
        """Yields each row of ids as its words joined by spaces (0 as '<UNK>')."""
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename: str) -> None:
        """Pickles the processor to `filename` (any tf.gfile path), naming TF 1.x's
        module paths so that TF 1.x's `VocabularyProcessor.restore` reads it too."""
        buffer = io.BytesIO()
        _TFPathPickler(buffer).dump(self)
        with gfile.Open(filename, "wb") as f:
            f.write(buffer.getvalue())

    @classmethod
    def restore(cls, filename: str) -> "VocabularyProcessor":
        """The processor pickled in `filename` (by `save` here or by TF 1.x)."""
        with gfile.Open(filename, "rb") as f:
            return _TFPathUnpickler(io.BytesIO(f.read())).load()


# TF 1.x's module of each object a VocabularyProcessor pickle names.
_TF_PACKAGE = "tensorflow.contrib.learn.python.learn.preprocessing"
_TF_TEXT = _TF_PACKAGE + ".text"
_TF_MODULE_OF = {"VocabularyProcessor": _TF_TEXT, "ByteProcessor": _TF_TEXT,
                 "tokenizer": _TF_TEXT,
                 "CategoricalVocabulary": _TF_PACKAGE + ".categorical_vocabulary",
                 "CategoricalProcessor": _TF_PACKAGE + ".categorical"}


class _TFPathPickler(pickle.Pickler):
    """Pickles this module's classes and tokenizer as TF 1.x's, by module path: each as
    `getattr(importlib.import_module(<TF 1.x module>), <name>)`, which TF 1.x resolves to
    its own objects and `_TFPathUnpickler` (or the shim) to these."""

    def reducer_override(self, obj: Any) -> Any:
        name = getattr(obj, "__name__", None)
        if (isinstance(name, str) and name in _TF_MODULE_OF
                and globals().get(name) is obj):
            return getattr, (_ModulePath(_TF_MODULE_OF[name]), name)
        if isinstance(obj, _ModulePath):
            return importlib.import_module, (obj.path,)
        return NotImplemented


class _ModulePath:
    """A module named by its import path in a pickle (see _TFPathPickler)."""

    def __init__(self, path: str):
        self.path = path


def _import_module(path: str) -> Any:
    """importlib.import_module, with TF 1.x's preprocessing modules read as this one
    (so a pickle naming them loads without `tf1compat.install()`)."""
    if path == _TF_PACKAGE or path.startswith(_TF_PACKAGE + "."):
        return importlib.import_module(__name__)
    return importlib.import_module(path)


class _TFPathUnpickler(pickle.Unpickler):
    """Reads TF 1.x's module paths of this module's objects as this module: the GLOBAL
    references TF 1.x writes and the import_module calls `save` writes."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "importlib" and name == "import_module":
            return _import_module
        if module == _TF_PACKAGE or module.startswith(_TF_PACKAGE + "."):
            return getattr(importlib.import_module(__name__), name)
        return super().find_class(module, name)


def _rows(x: Any) -> Any:
    """The rows of `x`: a pandas DataFrame or Series as its values, anything else as is."""
    values = getattr(x, "values", None)
    if type(x).__module__.startswith("pandas") and values is not None:
        return values
    return x


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


class CategoricalProcessor:
    """Maps each row of categorical values to a row of ids, one vocabulary per column
    (or one shared, `share=True`); NaN values are the unknown id 0.

    Attributes:
      vocabularies_: the CategoricalVocabulary of each column.
    """

    def __init__(self, min_frequency: int = 0, share: bool = False,
                 vocabularies: Optional[List[CategoricalVocabulary]] = None):
        self.min_frequency = min_frequency
        self.share = share
        self.vocabularies_ = vocabularies

    def freeze(self, freeze: bool = True) -> None:
        """Freezes (or unfreezes) every column's vocabulary."""
        for vocab in self.vocabularies_:
            vocab.freeze(freeze)

    def fit(self, x: Any, unused_y: Any = None) -> "CategoricalProcessor":
        """Learns the vocabularies of the rows of `x`; returns self."""
        for row in _rows(x):
            if self.vocabularies_ is None:
                if self.share:
                    shared = CategoricalVocabulary()
                    self.vocabularies_ = [shared for _ in row]
                else:
                    self.vocabularies_ = [CategoricalVocabulary() for _ in row]
            for index, value in enumerate(row):
                if not _is_nan(value):
                    self.vocabularies_[index].add(value)
        if self.min_frequency > 0:
            for vocab in self.vocabularies_:
                vocab.trim(self.min_frequency)
        self.freeze()
        return self

    def fit_transform(self, x: Any, unused_y: Any = None) -> Iterator[np.ndarray]:
        """`fit` then `transform`."""
        self.fit(x)
        return self.transform(x)

    def transform(self, x: Any) -> Iterator[np.ndarray]:
        """Yields each row's ids (int64)."""
        self.freeze()
        for row in _rows(x):
            yield np.array([0 if _is_nan(value) else self.vocabularies_[index].get(value)
                            for index, value in enumerate(row)], dtype=np.int64)
