"""`ImageDataGenerator.flow_from_dataframe`: augmented batches of the image files a pandas
DataFrame lists (`x_col`), with labels from `y_col` by `class_mode` and optional sample
weights (`weight_col`), as tf-keras 2.21 reads them.

The DataFrame is only used through its own methods (pandas is not imported here: whoever
passes a DataFrame has it).
"""

from __future__ import annotations

import collections
import os
import warnings
from typing import Any, List, Optional, Sequence

import numpy as np

from tf1compat.keras.preprocessing.image_iterators import ImageFilesIterator

__all__ = ["DataFrameIterator"]

_UNLABELLED = ("input", "multi_output", "raw", None)


def _valid_image_file(path: str, formats: Sequence[str]) -> bool:
    return path.lower().endswith(tuple(formats)) and os.path.isfile(path)


class DataFrameIterator(ImageFilesIterator):
    """Batches of the images named in a DataFrame column."""

    allowed_class_modes = {"binary", "categorical", "input", "multi_output", "raw",
                           "sparse", None}

    def __init__(self, dataframe: Any, directory: Optional[str] = None,
                 image_data_generator: Any = None, x_col: str = "filename",
                 y_col: Any = "class", weight_col: Optional[str] = None,
                 target_size: Sequence[int] = (256, 256), color_mode: str = "rgb",
                 classes: Optional[List[str]] = None, class_mode: Optional[str] = "categorical",
                 batch_size: int = 32, shuffle: bool = True, seed: Optional[int] = None,
                 data_format: str = "channels_last", save_to_dir: Optional[str] = None,
                 save_prefix: str = "", save_format: str = "png",
                 subset: Optional[str] = None, interpolation: str = "nearest",
                 keep_aspect_ratio: bool = False, dtype: str = "float32",
                 validate_filenames: bool = True):
        self._set_processing_attrs(image_data_generator, target_size, color_mode,
                                   data_format, save_to_dir, save_prefix, save_format,
                                   subset, interpolation, keep_aspect_ratio)
        df = dataframe.copy()
        self.directory = directory or ""
        self.class_mode = class_mode
        self.dtype = dtype
        self._check_params(df, x_col, y_col, weight_col, classes)
        if validate_filenames:
            df = self._valid_rows(df, x_col)
        if class_mode not in _UNLABELLED:
            df, classes = self._filter_classes(df, y_col, classes)
            self.class_indices = dict(zip(classes, range(len(classes))))
        if self.split:
            start, stop = (int(self.split[0] * len(df)), int(self.split[1] * len(df)))
            df = df.iloc[start:stop, :]
        if class_mode not in _UNLABELLED:
            self.classes = [[self.class_indices[c] for c in label]
                            if isinstance(label, (list, tuple)) else self.class_indices[label]
                            for label in df[y_col]]
        self.filenames = df[x_col].tolist()
        self._sample_weight = df[weight_col].values if weight_col else None
        if class_mode == "multi_output":
            self._targets: Any = [np.array(df[col].tolist()) for col in y_col]
        if class_mode == "raw":
            self._targets = df[y_col].values
        self.samples = len(self.filenames)
        checked = "validated" if validate_filenames else "non-validated"
        if class_mode in _UNLABELLED:
            print(f"Found {self.samples} {checked} image filenames.")
        else:
            print(f"Found {self.samples} {checked} image filenames belonging to "
                  f"{len(classes)} classes.")
        self._filepaths = [os.path.join(self.directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _check_params(self, df: Any, x_col: str, y_col: Any, weight_col: Optional[str],
                      classes: Optional[List[str]]) -> None:
        mode = self.class_mode
        if mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {mode}; expected one of: "
                             f"{self.allowed_class_modes}")
        if mode == "multi_output" and not isinstance(y_col, list):
            raise TypeError(f'If class_mode="{mode}", y_col must be a list. Received '
                            f"{type(y_col).__name__}.")
        if not all(isinstance(v, str) for v in df[x_col]):
            raise TypeError(f"All values in column x_col={x_col} must be strings.")
        if mode in {"binary", "sparse"} and not all(isinstance(v, str) for v in df[y_col]):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be '
                            "strings.")
        if mode == "binary":
            if classes:
                if len(set(classes)) != 2:
                    raise ValueError('If class_mode="binary" there must be 2 classes. '
                                     f"{len(set(classes))} class/es were given.")
            elif df[y_col].nunique() != 2:
                raise ValueError('If class_mode="binary" there must be 2 classes. Found '
                                 f"{df[y_col].nunique()} classes.")
        if mode == "categorical" and not all(isinstance(v, (str, list, tuple))
                                             for v in df[y_col]):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be '
                            "type string, list or tuple.")
        if classes and mode in _UNLABELLED:
            warnings.warn(f'`classes` will be ignored given the class_mode="{mode}"')
        if weight_col and not issubclass(df[weight_col].dtype.type, np.number):
            raise TypeError(f"Column weight_col={weight_col} must be numeric.")

    @staticmethod
    def _filter_classes(df: Any, y_col: str, classes: Optional[List[str]]) -> Any:
        """(rows with a label among `classes`, the class list: given, else sorted)."""
        df = df.copy()

        def kept(labels: Any) -> Any:
            if isinstance(labels, (list, tuple)):
                return [c for c in labels if c in classes] or None
            if isinstance(labels, str):
                return labels if labels in classes else None
            raise TypeError(f"Expect string, list or tuple but found {type(labels)} in "
                            f"{y_col} column ")
        if classes:
            classes = list(collections.OrderedDict.fromkeys(classes).keys())
            df[y_col] = df[y_col].apply(kept)
        else:
            found: set = set()
            for value in df[y_col]:
                if isinstance(value, (list, tuple)):
                    found.update(value)
                else:
                    found.add(value)
            classes = sorted(found)
        return df.dropna(subset=[y_col]), classes

    def _valid_rows(self, df: Any, x_col: str) -> Any:
        paths = df[x_col].map(lambda name: os.path.join(self.directory, name))
        mask = paths.apply(_valid_image_file, args=(self.white_list_formats,))
        invalid = int((~mask).sum())
        if invalid:
            warnings.warn(f'Found {invalid} invalid image filename(s) in x_col="{x_col}". '
                          "These filename(s) will be ignored.")
        return df[mask]

    @property
    def labels(self) -> Any:
        """The targets ("raw", "multi_output") or class indices of the samples."""
        return self._targets if self.class_mode in {"multi_output", "raw"} else self.classes

    @property
    def sample_weight(self) -> Any:
        return self._sample_weight
