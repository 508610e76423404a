"""The batch iterators of `tf.keras.preprocessing.image`: `Iterator` (a Keras `Sequence`
that is also a Python iterator), `NumpyArrayIterator` (`ImageDataGenerator.flow`) and
`DirectoryIterator` (`flow_from_directory`).

The random draws follow tf-keras 2.21: with a `seed`, numpy's global generator is
reseeded with `seed + batches seen so far` before each batch, the shuffled order is
`np.random.permutation(n)` at the start of each pass, and each image's transform is drawn
in turn; so a seeded tf1compat run yields tf-keras's batches.
"""

from __future__ import annotations

import os
import threading
import warnings
from typing import Any, Iterator as IteratorType, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.keras.backend_core import floatx, image_data_format
from tf1compat.keras.utils.image_utils import array_to_img, img_to_array, load_img
from tf1compat.keras.utils.data_utils import Sequence as KerasSequence

__all__ = ["Iterator", "NumpyArrayIterator", "ImageFilesIterator", "DirectoryIterator"]


class Iterator(KerasSequence):
    """Batches of indices into `n` samples, by index (`it[i]`) or by `next(it)`."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n: int, batch_size: int, shuffle: bool, seed: Optional[int]):
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array: Optional[np.ndarray] = None
        self.index_generator = self._flow_index()

    def _set_index_array(self) -> None:
        self.index_array = (np.random.permutation(self.n) if self.shuffle
                            else np.arange(self.n))

    def _reseed(self) -> None:
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)

    def __getitem__(self, idx: int) -> Any:
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has "
                             f"length {len(self)}")
        self._reseed()
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        indices = self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)]
        return self._get_batches_of_transformed_samples(indices)

    def __len__(self) -> int:
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self) -> None:
        self._set_index_array()

    def reset(self) -> None:
        """Starts the next `next()` at the first batch of a new pass."""
        self.batch_index = 0

    def _flow_index(self) -> IteratorType[np.ndarray]:
        self.reset()
        while True:
            self._reseed()
            if self.batch_index == 0:
                self._set_index_array()
            current = 0 if self.n == 0 else self.batch_index * self.batch_size % self.n
            # The last (possibly short) batch of a pass ends it.
            self.batch_index = self.batch_index + 1 if self.n > current + self.batch_size \
                else 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self) -> "Iterator":
        return self

    def __next__(self) -> Any:
        return self.next()

    def next(self) -> Any:
        """The next batch (an endless stream of passes over the samples)."""
        with self.lock:
            indices = next(self.index_generator)
        return self._get_batches_of_transformed_samples(indices)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        raise NotImplementedError


def _save_batch(batch_x: np.ndarray, index_array: np.ndarray, data_format: str,
                directory: str, prefix: str, file_format: str, hash_range: float) -> None:
    """Writes each augmented image as `{prefix}_{index}_{random}.{format}` (tf-keras's
    names; the random part is drawn from numpy's generator)."""
    for i, j in enumerate(index_array):
        img = array_to_img(batch_x[i], data_format, scale=True)
        name = f"{prefix}_{j}_{np.random.randint(hash_range)}.{file_format}"
        img.save(os.path.join(directory, name))


class NumpyArrayIterator(Iterator):
    """Augmented batches of a rank-4 image array `x` (with labels `y`, extra inputs in
    `x = (images, other arrays)` and `sample_weight`)."""

    def __init__(self, x: Any, y: Any, image_data_generator: Any, batch_size: int = 32,
                 shuffle: bool = False, sample_weight: Any = None, seed: Optional[int] = None,
                 data_format: Optional[str] = None, save_to_dir: Optional[str] = None,
                 save_prefix: str = "", save_format: str = "png",
                 subset: Optional[str] = None, ignore_class_split: bool = False,
                 dtype: Optional[str] = None):
        data_format = data_format or image_data_format()
        self.dtype = dtype or floatx()
        if isinstance(x, (tuple, list)):
            extra = x[1] if isinstance(x[1], list) else [x[1]]
            x_misc = [np.asarray(a) for a in extra]
            x = x[0]
            for a in x_misc:
                if len(x) != len(a):
                    raise ValueError("All of the arrays in `x` should have the same length. "
                                     f"Found a pair with: len(x[0]) = {len(x)}, "
                                     f"len(x[?]) = {len(a)}")
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, y.shape = "
                             f"{np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, "
                             f"sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError("Invalid subset name:", subset,
                                 '; expected "training" or "validation".')
            cut = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split and
                    not np.array_equal(np.unique(y[:cut]), np.unique(y[cut:]))):
                raise ValueError("Training and validation subsets have different number of "
                                 "classes after the split. If your numpy arrays are sorted "
                                 "by the label, you might want to shuffle them.")
            part = slice(None, cut) if subset == "validation" else slice(cut, None)
            x = x[part]
            x_misc = [np.asarray(a[part]) for a in x_misc]
            if y is not None:
                y = y[part]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You "
                             "passed an array with shape", self.x.shape)
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention '
                          f'"{data_format}" (channels on axis {channels_axis}), i.e. expected '
                          f'either 1, 3, or 4 channels on axis {channels_axis}. However, it '
                          f'was passed an array with shape {self.x.shape} '
                          f'({self.x.shape[channels_axis]} channels).')
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        generator = self.image_data_generator
        for i, j in enumerate(index_array):
            image = self.x[j]
            params = generator.get_random_transform(image.shape)
            image = generator.apply_transform(image.astype(self.dtype), params)
            batch_x[i] = generator.standardize(image)
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir,
                        self.save_prefix, self.save_format, 1e4)
        misc = [a[index_array] for a in self.x_misc]
        inputs = [batch_x] + misc if misc else batch_x
        if self.y is None:
            return inputs
        if self.sample_weight is None:
            return inputs, self.y[index_array]
        return inputs, self.y[index_array], self.sample_weight[index_array]


def _image_files(directory: str, follow_links: bool) -> List[Tuple[str, str]]:
    """(folder, file) of the image files under `directory`, folders and files sorted."""
    found = []
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause '
                              "distortion. Please verify your output.")
            if name.lower().endswith(Iterator.white_list_formats):
                found.append((root, name))
    return found


class ImageFilesIterator(Iterator):
    """What the iterators over image files share (tf-keras's BatchFromFilesMixin): target
    size and colour mode, the validation split, and batches of loaded, augmented images
    with labels by `class_mode`. Subclasses set `filepaths`, `classes`, `class_indices`,
    `labels` and `sample_weight`."""

    def _set_processing_attrs(self, image_data_generator: Any, target_size: Sequence[int],
                              color_mode: str, data_format: Optional[str],
                              save_to_dir: Optional[str], save_prefix: str,
                              save_format: str, subset: Optional[str], interpolation: str,
                              keep_aspect_ratio: bool) -> None:
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}
        if color_mode not in channels:
            raise ValueError("Invalid color mode:", color_mode,
                             '; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        self.image_shape = (self.target_size + (channels[color_mode],)
                            if data_format == "channels_last"
                            else (channels[color_mode],) + self.target_size)
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        self.interpolation = interpolation
        self.split: Optional[Tuple[float, float]] = None
        if subset is not None:
            fraction = image_data_generator._validation_split
            if subset == "validation":
                self.split = (0, fraction)
            elif subset == "training":
                self.split = (fraction, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset};expected "training" or '
                                 '"validation"')
        self.subset = subset

    @property
    def filepaths(self) -> List[str]:
        """The image files, in sample order."""
        return self._filepaths

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        generator = self.image_data_generator
        for i, j in enumerate(index_array):
            img = load_img(self._filepaths[j], color_mode=self.color_mode,
                           target_size=self.target_size, interpolation=self.interpolation,
                           keep_aspect_ratio=self.keep_aspect_ratio)
            image = img_to_array(img, data_format=self.data_format)
            img.close()
            if generator:
                params = generator.get_random_transform(image.shape)
                image = generator.standardize(generator.apply_transform(image, params))
            batch_x[i] = image
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir,
                        self.save_prefix, self.save_format, 1e7)
        if self.class_mode == "input":
            batch_y: Any = batch_x.copy()
        elif self.class_mode in {"binary", "sparse"}:
            batch_y = np.empty(len(batch_x), dtype=self.dtype)
            for i, n in enumerate(index_array):
                batch_y[i] = self.classes[n]
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            for i, n in enumerate(index_array):
                batch_y[i, self.classes[n]] = 1.0
        elif self.class_mode == "multi_output":
            batch_y = [output[index_array] for output in self.labels]
        elif self.class_mode == "raw":
            batch_y = self.labels[index_array]
        else:
            return batch_x
        if self.sample_weight is None:
            return batch_x, batch_y
        return batch_x, batch_y, self.sample_weight[index_array]


class DirectoryIterator(ImageFilesIterator):
    """Augmented batches of the images in `directory/<class>/...`; labels by
    `class_mode` ("categorical", "binary", "sparse", "input" or None)."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory: str, image_data_generator: Any,
                 target_size: Sequence[int] = (256, 256), color_mode: str = "rgb",
                 classes: Optional[List[str]] = None, class_mode: Optional[str] = "categorical",
                 batch_size: int = 32, shuffle: bool = True, seed: Optional[int] = None,
                 data_format: Optional[str] = None, save_to_dir: Optional[str] = None,
                 save_prefix: str = "", save_format: str = "png", follow_links: bool = False,
                 subset: Optional[str] = None, interpolation: str = "nearest",
                 keep_aspect_ratio: bool = False, dtype: Optional[str] = None):
        self.dtype = dtype or floatx()
        self._set_processing_attrs(image_data_generator, target_size, color_mode,
                                   data_format or image_data_format(), save_to_dir,
                                   save_prefix, save_format, subset, interpolation,
                                   keep_aspect_ratio)
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: "
                             f"{self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [d for d in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames: List[str] = []
        labels: List[int] = []
        for name in classes:
            class_dir = os.path.join(directory, name)
            files = _image_files(class_dir, follow_links)
            if self.split:
                files = files[int(self.split[0] * len(files)):int(self.split[1] * len(files))]
            for root, fname in files:
                labels.append(self.class_indices[name])
                self.filenames.append(os.path.join(
                    name, os.path.relpath(os.path.join(root, fname), class_dir)))
        self.samples = len(self.filenames)
        self.classes = np.array(labels, dtype="int32").reshape((self.samples,))
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def labels(self) -> np.ndarray:
        """The class index of each sample."""
        return self.classes

    @property
    def sample_weight(self) -> None:
        return None
