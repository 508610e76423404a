"""`tf.contrib.learn.datasets.base` (TF 1.15): CSV datasets and downloads.

`Dataset(data, target)` / `Datasets(train, validation, test)`; `load_csv_with_header`
(the first row gives the sample and feature counts, as TF's iris_training.csv) and
`load_csv_without_header`; `load_iris` / `load_boston` read the CSV files TF 1.15 ships
(copied in `data/`); `maybe_download` fetches a URL into a folder once, retrying timed-out
connections as TF does.
"""

from __future__ import annotations

import collections
import csv
import os
import random
import time
import urllib.request
from typing import Any, Callable, Iterator, Optional

import numpy as np

from tf1compat.util import gfile

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header",
           "shrink_csv", "load_iris", "load_boston", "retry", "urlretrieve_with_retry",
           "maybe_download"]

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])

_DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load_csv_with_header(filename: str, target_dtype: Any, features_dtype: Any,
                         target_column: int = -1) -> Dataset:
    """A Dataset from a CSV file whose header row starts with the number of samples and
    of features; column `target_column` of each row is the target."""
    with gfile.Open(filename) as csv_file:
        rows = csv.reader(csv_file)
        header = next(rows)
        n_samples, n_features = int(header[0]), int(header[1])
        data = np.zeros((n_samples, n_features), dtype=features_dtype)
        target = np.zeros((n_samples,), dtype=target_dtype)
        for i, row in enumerate(rows):
            target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
            data[i] = np.asarray(row, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename: str, target_dtype: Any, features_dtype: Any,
                            target_column: int = -1) -> Dataset:
    """A Dataset from a CSV file without header; column `target_column` is the target."""
    with gfile.Open(filename) as csv_file:
        data, target = [], []
        for row in csv.reader(csv_file):
            target.append(row.pop(target_column))
            data.append(np.asarray(row, dtype=features_dtype))
    return Dataset(data=np.array(data), target=np.array(target, dtype=target_dtype))


def shrink_csv(filename: str, ratio: int) -> None:
    """Writes every `ratio`-th row of `filename` to `<name>_small.<ext>` (the name with
    its first "." replaced, as TF)."""
    small = filename.replace(".", "_small.")
    with gfile.Open(small, "w") as out, gfile.Open(filename) as src:
        writer = csv.writer(out)
        for i, row in enumerate(csv.reader(src)):
            if i % ratio == 0:
                writer.writerow(row)


def load_iris(data_path: Optional[str] = None) -> Dataset:
    """The iris dataset (150 samples, 4 float64 features, int64 classes 0-2)."""
    return load_csv_with_header(data_path or os.path.join(_DATA_DIR, "iris.csv"),
                                target_dtype=np.int_, features_dtype=np.float64)


def load_boston(data_path: Optional[str] = None) -> Dataset:
    """The Boston housing dataset (506 samples, 13 float64 features, float64 prices)."""
    return load_csv_with_header(
        data_path or os.path.join(_DATA_DIR, "boston_house_prices.csv"),
        target_dtype=np.float64, features_dtype=np.float64)


def retry(initial_delay: float, max_delay: float, factor: float = 2.0, jitter: float = 0.25,
          is_retriable: Optional[Callable[[Exception], bool]] = None) -> Callable:
    """A decorator retrying its function with exponential back-off: delays from
    `initial_delay` growing by `factor` up to `max_delay`, each scaled by a random
    factor in [1 - jitter, 1 + jitter]; exceptions `is_retriable` rejects propagate at
    once; without `is_retriable` every exception is retried (without waiting). The last
    try's exception propagates."""
    if factor < 1:
        raise ValueError(f"factor must be >= 1; was {factor:f}")
    if jitter >= 1:
        raise ValueError(f"jitter must be < 1; was {jitter:f}")

    def delays() -> Iterator[float]:
        delay = initial_delay
        while delay <= max_delay:
            yield delay * random.uniform(1 - jitter, 1 + jitter)
            delay *= factor

    def wrap(fn: Callable) -> Callable:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            for delay in delays():
                try:
                    return fn(*args, **kwargs)
                except Exception as e:  # noqa: BLE001 - is_retriable decides
                    if is_retriable is None:
                        continue
                    if not is_retriable(e):
                        raise
                    time.sleep(delay)
            return fn(*args, **kwargs)
        return wrapped
    return wrap


def _timed_out(e: Exception) -> bool:
    return isinstance(e, OSError) and e.errno == 110   # connection timed out


@retry(initial_delay=1.0, max_delay=16.0, is_retriable=_timed_out)
def urlretrieve_with_retry(url: str, filename: Optional[str] = None) -> Any:
    """`urllib.request.urlretrieve`, retried on connection time-outs."""
    return urllib.request.urlretrieve(url, filename)


def maybe_download(filename: str, work_directory: str, source_url: str) -> str:
    """`work_directory/filename`, downloaded from `source_url` if it is not there yet."""
    if not gfile.Exists(work_directory):
        gfile.MakeDirs(work_directory)
    filepath = os.path.join(work_directory, filename)
    if not gfile.Exists(filepath):
        try:
            temp_file_name, _ = urlretrieve_with_retry(source_url)
        except OSError as e:
            raise OSError(f"Could not download {source_url} to {filepath}: {e}. Without "
                          f"network access, place the file at that path.") from e
        gfile.Copy(temp_file_name, filepath)
        print("Successfully downloaded", filename, os.path.getsize(filepath), "bytes.")
    return filepath
