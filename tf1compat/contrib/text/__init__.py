"""`tf.contrib.text` (TF 1.15): skip-gram (token, label) pairs for word2vec-style
training (https://arxiv.org/abs/1301.3781), with optional filtering and subsampling by
vocabulary frequency (Eq. 5 of https://arxiv.org/abs/1310.4546) and batching. The pairs
come from the SkipGramGenerateCandidates op (ops/skip_gram_ops.py)."""

from __future__ import annotations

import csv
from typing import Any, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.random_seed import get_seed
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.indexing_ops import boolean_mask
from tf1compat.ops.lookup_base import InitializableLookupTableBase
from tf1compat.ops.lookup_ops import HashTable, TextFileInitializer
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.skip_gram_ops import skip_gram_generate_candidates
from tf1compat.training.queue_input import batch
from tf1compat.util.gfile import GFile

__all__ = ["skip_gram_sample", "skip_gram_sample_with_text_vocab"]


def skip_gram_sample(input_tensor: Any, min_skips: Any = 1, max_skips: Any = 5,
                     start: Any = 0, limit: Any = -1, emit_self_as_target: Any = False,
                     vocab_freq_table: Any = None, vocab_min_count: Any = None,
                     vocab_subsampling: Optional[float] = None, corpus_size: Any = None,
                     batch_size: Optional[int] = None, batch_capacity: Optional[int] = None,
                     seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """(tokens, labels): each element of the rank-1 `input_tensor` paired with its
    neighbours within a window of `min_skips`..`max_skips` drawn per token (itself too
    with `emit_self_as_target`). With `vocab_freq_table`, tokens missing from it or
    below `vocab_min_count` are dropped first and, with `vocab_subsampling` and
    `corpus_size`, frequent tokens are randomly dropped; with `batch_size`, the pairs
    come in batches of that size from a queue (start the queue runners)."""
    if vocab_freq_table is None and (vocab_min_count is not None or
                                     vocab_subsampling is not None or
                                     corpus_size is not None):
        raise ValueError(
            f"vocab_freq_table is not provided, but vocab_min_count={vocab_min_count}, "
            f"vocab_subsampling={vocab_subsampling}, or corpus_size={corpus_size} is not "
            f"None. These settings are useless without a vocab_freq_table.")
    if (vocab_subsampling is None) != (corpus_size is None):
        raise ValueError(
            f"vocab_subsampling is {vocab_subsampling} while corpus_size is {corpus_size} - "
            f"both must be provided in order for subsampling to work.")
    with name_scope(name, "skip_gram_sample",
                    [input_tensor, min_skips, max_skips, start, limit]):
        input_tensor = _filter_input(input_tensor, vocab_freq_table, vocab_min_count,
                                     vocab_subsampling, corpus_size, seed)
        seed1, seed2 = get_seed(seed)
        tokens, labels = skip_gram_generate_candidates(
            input_tensor, min_skips, max_skips, start, limit, emit_self_as_target,
            seed=seed1 or 0, seed2=seed2 or 0)
        if batch_size is not None and batch_size > 0:
            capacity = batch_capacity if batch_capacity is not None and batch_capacity > 0 \
                else 100 * batch_size
            return batch([tokens, labels], batch_size, capacity=capacity, enqueue_many=True)
        return tokens, labels


def _vocab_size_and_corpus(path: Any, token_index: int, freq_index: int, freq_dtype: Any,
                           delimiter: str) -> tuple:
    """The vocabulary file's row count and the sum of its frequencies (TF reads the file
    once in Python to size the table and the corpus)."""
    total, rows = 0.0, 0
    with GFile(path, mode="r") as f:
        for row in csv.reader(f, delimiter=delimiter):
            if token_index >= len(row) or freq_index >= len(row):
                raise ValueError(
                    f"Row in vocab file only has {len(row)} columns, so vocab_token_index="
                    f"{token_index} or vocab_freq_index={freq_index} is out of bounds. Row "
                    f"content: {row}")
            rows += 1
            freq = freq_dtype.as_numpy_dtype(row[freq_index])
            if freq < 0:
                raise ValueError(f"Row in vocab file has negative frequency of {freq}. Row "
                                 f"content: {row}")
            # Rows below vocab_min_count still count towards the corpus.
            total += freq
    return rows, total


def skip_gram_sample_with_text_vocab(input_tensor: Any, vocab_freq_file: Any,
                                     vocab_token_index: int = 0,
                                     vocab_token_dtype: Any = dtypes.string,
                                     vocab_freq_index: int = 1,
                                     vocab_freq_dtype: Any = dtypes.float64,
                                     vocab_delimiter: str = ",", vocab_min_count: Any = 0,
                                     vocab_subsampling: Optional[float] = None,
                                     corpus_size: Any = None, min_skips: Any = 1,
                                     max_skips: Any = 5, start: Any = 0, limit: Any = -1,
                                     emit_self_as_target: Any = False,
                                     batch_size: Optional[int] = None,
                                     batch_capacity: Optional[int] = None,
                                     seed: Optional[int] = None,
                                     name: Optional[str] = None) -> tuple:
    """skip_gram_sample with the frequencies read from a delimited text file (token in
    column `vocab_token_index`, count in `vocab_freq_index`); `corpus_size` defaults to
    the sum of the file's counts."""
    if vocab_token_index < 0 or vocab_freq_index < 0:
        raise ValueError(f"vocab_token_index={vocab_token_index} and vocab_freq_index="
                         f"{vocab_freq_index} must both be >= 0.")
    if vocab_token_index == vocab_freq_index:
        raise ValueError(f"vocab_token_index and vocab_freq_index should be different, but "
                         f"are both {vocab_token_index}.")
    vocab_freq_dtype = dtypes.as_dtype(vocab_freq_dtype)
    vocab_size, counted = _vocab_size_and_corpus(vocab_freq_file, vocab_token_index,
                                                 vocab_freq_index, vocab_freq_dtype,
                                                 vocab_delimiter)
    if not corpus_size:
        corpus_size = counted
    elif counted - corpus_size > 1e-6:
        raise ValueError(f"`corpus_size`={corpus_size} must be greater than or equal to the "
                         f"sum of all the frequency counts ({counted}) of `vocab_freq_file` "
                         f"({vocab_freq_file}).")
    table = HashTable(
        TextFileInitializer(filename=vocab_freq_file, key_dtype=vocab_token_dtype,
                            key_index=vocab_token_index, value_dtype=vocab_freq_dtype,
                            value_index=vocab_freq_index, vocab_size=vocab_size,
                            delimiter=vocab_delimiter),
        default_value=-1)   # tokens missing from the file: filtered out
    return skip_gram_sample(
        input_tensor, min_skips=min_skips, max_skips=max_skips, start=start, limit=limit,
        emit_self_as_target=emit_self_as_target, vocab_freq_table=table,
        vocab_min_count=vocab_min_count, vocab_subsampling=vocab_subsampling,
        corpus_size=None if vocab_subsampling is None else corpus_size,
        batch_size=batch_size, batch_capacity=batch_capacity, seed=seed, name=name)


def _filter_input(input_tensor: Any, table: Any, min_count: Any,
                  subsampling: Optional[float], corpus_size: Any, seed: Optional[int]) -> Any:
    """Drops tokens missing from `table` or rarer than `min_count`, then (with
    `subsampling`) keeps each with probability (sqrt(f / (s * N)) + 1) * s * N / f."""
    if table is None:
        return input_tensor
    if not isinstance(table, InitializableLookupTableBase):
        raise ValueError(f"vocab_freq_table must be a subclass of "
                         f"InitializableLookupTableBase (such as HashTable) instead of type "
                         f"{type(table)}.")
    with name_scope("filter_vocab", values=[table, input_tensor, min_count]):
        freq = table.lookup(input_tensor)
        mask = math_ops.not_equal(freq, table.default_value)
        if min_count is not None:
            mask = math_ops.logical_and(
                mask, math_ops.greater_equal(freq, math_ops.cast(min_count, freq.dtype)))
        input_tensor = boolean_mask(input_tensor, mask)
        freq = boolean_mask(freq, mask)
    if not subsampling:
        return input_tensor
    if subsampling < 0 or subsampling > 1:
        raise ValueError(f"Invalid vocab_subsampling={subsampling} - it should be within "
                         f"range [0, 1].")
    with name_scope("subsample_vocab", values=[input_tensor, freq, subsampling]):
        corpus = math_ops.cast(corpus_size, dtypes.float64)
        freq = math_ops.cast(freq, dtypes.float64)
        rate = math_ops.cast(subsampling, dtypes.float64)
        keep_prob = (math_ops.sqrt(freq / (rate * corpus)) + 1.0) * (rate * corpus / freq)
        draw = random_uniform(array_ops.shape(freq), minval=0, maxval=1,
                              dtype=dtypes.float64, seed=seed)
        return boolean_mask(input_tensor, math_ops.less_equal(draw, keep_prob))
