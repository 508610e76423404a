"""`tf.keras.preprocessing.image`: `ImageDataGenerator` (real-time augmentation and
standardization as tf-keras 2.21 does it), its iterators and the image helpers.

`get_random_transform` draws from numpy's global generator in tf-keras's order
(rotation, height shift, width shift, shear, zoom pair, horizontal flip, vertical flip,
channel shift, brightness), so with the same seed the same images come out; the
resampling is scipy's `affine_transform` reimplemented in `affine.py` (interpolation
orders 0 and 1; tf-keras's default is 1).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Sequence

import numpy as np

from tf1compat.keras.backend_core import floatx, image_data_format
from tf1compat.keras.preprocessing.image_dataframe import DataFrameIterator
from tf1compat.keras.preprocessing.image_iterators import (DirectoryIterator, Iterator,
                                                           NumpyArrayIterator)
from tf1compat.keras.preprocessing.image_utils import (
    apply_affine_transform, apply_brightness_shift, apply_channel_shift, flip_axis,
    random_brightness, random_channel_shift, random_rotation, random_shear, random_shift,
    random_zoom)
from tf1compat.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img

__all__ = ["ImageDataGenerator", "Iterator", "NumpyArrayIterator", "DirectoryIterator",
           "apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
           "array_to_img", "img_to_array", "load_img", "save_img", "random_brightness",
           "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom"]

_NOT_FIT = ("This ImageDataGenerator specifies `{}`, but it hasn't been fit on any "
            "training data. Fit it first by calling `.fit(numpy_data)`.")


def _shift_draw(shift_range: Any, size: int) -> float:
    """A shift in pixels: a random choice among the values of an int or list range (with
    a random sign), or uniform in [-range, range]; fractions (< 1) scale by `size`."""
    try:
        shift = np.random.choice(shift_range)
        shift *= np.random.choice([-1, 1])
    except ValueError:
        # A float range: np.random.choice rejects it before drawing anything.
        shift = np.random.uniform(-shift_range, shift_range)
    if np.max(shift_range) < 1:
        shift *= size
    return shift


class ImageDataGenerator:
    """Batches of augmented, standardized images from arrays or folders."""

    def __init__(self, featurewise_center: bool = False, samplewise_center: bool = False,
                 featurewise_std_normalization: bool = False,
                 samplewise_std_normalization: bool = False, zca_whitening: bool = False,
                 zca_epsilon: float = 1e-6, rotation_range: float = 0,
                 width_shift_range: Any = 0.0, height_shift_range: Any = 0.0,
                 brightness_range: Optional[Sequence[float]] = None, shear_range: float = 0.0,
                 zoom_range: Any = 0.0, channel_shift_range: float = 0.0,
                 fill_mode: str = "nearest", cval: float = 0.0, horizontal_flip: bool = False,
                 vertical_flip: bool = False, rescale: Optional[float] = None,
                 preprocessing_function: Any = None, data_format: Optional[str] = None,
                 validation_split: float = 0.0, interpolation_order: int = 1,
                 dtype: Optional[str] = None):
        data_format = data_format or image_data_format()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype or floatx()
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row '
                             'and column) or `"channels_first"` (channel before row and '
                             f"column). Received: {data_format}")
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (
            (3, 1, 2) if data_format == "channels_last" else (1, 2, 3))
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  "
                             f"Received: {validation_split}")
        self._validation_split = validation_split
        self.mean: Optional[np.ndarray] = None
        self.std: Optional[np.ndarray] = None
        self.zca_whitening_matrix: Optional[np.ndarray] = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two "
                             f"floats. Received: {zoom_range}")
        self._resolve_normalization()
        if brightness_range is not None and (
                not isinstance(brightness_range, (tuple, list)) or len(brightness_range) != 2):
            raise ValueError("`brightness_range should be tuple or list of two floats. "
                             f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def _resolve_normalization(self) -> None:
        """The implied settings tf-keras turns on or off (with its warnings)."""
        if self.zca_whitening:
            if not self.featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which "
                              "overrides setting of `featurewise_center`.")
            if self.featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which "
                              "overrides setting of`featurewise_std_normalization`.")
        if self.featurewise_std_normalization and not self.featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies "
                          "`featurewise_std_normalization`, which overrides setting of "
                          "`featurewise_center`.")
        if self.samplewise_std_normalization and not self.samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                          "which overrides setting of `samplewise_center`.")

    def flow(self, x: Any, y: Any = None, batch_size: int = 32, shuffle: bool = True,
             sample_weight: Any = None, seed: Optional[int] = None,
             save_to_dir: Optional[str] = None, save_prefix: str = "",
             save_format: str = "png", ignore_class_split: bool = False,
             subset: Optional[str] = None) -> NumpyArrayIterator:
        """Augmented batches of the arrays `x` (and `y`, `sample_weight`)."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed,
                                  data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset,
                                  dtype=self.dtype)

    def flow_from_directory(self, directory: str, target_size: Sequence[int] = (256, 256),
                            color_mode: str = "rgb", classes: Optional[list] = None,
                            class_mode: Optional[str] = "categorical", batch_size: int = 32,
                            shuffle: bool = True, seed: Optional[int] = None,
                            save_to_dir: Optional[str] = None, save_prefix: str = "",
                            save_format: str = "png", follow_links: bool = False,
                            subset: Optional[str] = None, interpolation: str = "nearest",
                            keep_aspect_ratio: bool = False) -> DirectoryIterator:
        """Augmented batches of the images in the class folders of `directory`."""
        return DirectoryIterator(directory, self, target_size=target_size,
                                 color_mode=color_mode, keep_aspect_ratio=keep_aspect_ratio,
                                 classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir,
                                 save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def flow_from_dataframe(self, dataframe: Any, directory: Optional[str] = None,
                            x_col: str = "filename", y_col: Any = "class",
                            weight_col: Optional[str] = None,
                            target_size: Sequence[int] = (256, 256), color_mode: str = "rgb",
                            classes: Optional[list] = None,
                            class_mode: Optional[str] = "categorical", batch_size: int = 32,
                            shuffle: bool = True, seed: Optional[int] = None,
                            save_to_dir: Optional[str] = None, save_prefix: str = "",
                            save_format: str = "png", subset: Optional[str] = None,
                            interpolation: str = "nearest", validate_filenames: bool = True,
                            **kwargs: Any) -> DataFrameIterator:
        """Augmented batches of the image files a pandas DataFrame lists."""
        for old, why in (("has_ext", "has_ext is deprecated, filenames in the dataframe "
                                     "have to match the exact filenames in disk."),
                         ("sort", "sort is deprecated, batches will be created in thesame "
                                  "order than the filenames provided if shuffleis set to "
                                  "False."),
                         ("drop_duplicates", "drop_duplicates is deprecated, you can drop "
                                             "duplicates by using the pandas.DataFrame."
                                             "drop_duplicates method.")):
            if old in kwargs:
                warnings.warn(why, DeprecationWarning)
        if class_mode == "other":
            warnings.warn('`class_mode` "other" is deprecated, please use `class_mode` "raw".',
                          DeprecationWarning)
            class_mode = "raw"
        return DataFrameIterator(dataframe, directory, self, x_col=x_col, y_col=y_col,
                                 weight_col=weight_col, target_size=target_size,
                                 color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format,
                                 batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, subset=subset,
                                 interpolation=interpolation,
                                 validate_filenames=validate_filenames, dtype=self.dtype)

    def standardize(self, x: np.ndarray) -> np.ndarray:
        """The normalization settings applied to `x` (in place where tf-keras does)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn(_NOT_FIT.format("featurewise_center"))
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn(_NOT_FIT.format("featurewise_std_normalization"))
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat = x.reshape(-1, np.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
            else:
                warnings.warn(_NOT_FIT.format("zca_whitening"))
        return x

    def get_random_transform(self, img_shape: Sequence[int], seed: Optional[int] = None
                             ) -> Dict[str, Any]:
        """The parameters of one random transform of an image of `img_shape`."""
        if seed is not None:
            np.random.seed(seed)
        theta = (np.random.uniform(-self.rotation_range, self.rotation_range)
                 if self.rotation_range else 0)
        tx = (_shift_draw(self.height_shift_range, img_shape[self.row_axis - 1])
              if self.height_shift_range else 0)
        ty = (_shift_draw(self.width_shift_range, img_shape[self.col_axis - 1])
              if self.width_shift_range else 0)
        shear = (np.random.uniform(-self.shear_range, self.shear_range)
                 if self.shear_range else 0)
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = None
        if self.channel_shift_range != 0:
            channel_shift = np.random.uniform(-self.channel_shift_range,
                                              self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    def apply_transform(self, x: np.ndarray, transform_parameters: Dict[str, Any]
                        ) -> np.ndarray:
        """`x` (one image, no batch axis) transformed by `transform_parameters`."""
        row_axis, col_axis = self.row_axis - 1, self.col_axis - 1
        channel_axis = self.channel_axis - 1
        p = transform_parameters
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0),
                                   p.get("shear", 0), p.get("zx", 1), p.get("zy", 1),
                                   row_axis=row_axis, col_axis=col_axis,
                                   channel_axis=channel_axis, fill_mode=self.fill_mode,
                                   cval=self.cval, order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channel_axis)
        if p.get("flip_horizontal", False):
            x = flip_axis(x, col_axis)
        if p.get("flip_vertical", False):
            x = flip_axis(x, row_axis)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x: np.ndarray, seed: Optional[int] = None) -> np.ndarray:
        """`x` with a random transform applied."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x: Any, augment: bool = False, rounds: int = 1,
            seed: Optional[int] = None) -> None:
        """Computes the featurewise mean and std and the ZCA matrix from sample images."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: "
                             + str(x.shape))
        if x.shape[self.channel_axis] not in {1, 3, 4}:
            warnings.warn("Expected input to be images (as Numpy array) following the data "
                          f'format convention "{self.data_format}" (channels on axis '
                          f"{self.channel_axis}), i.e. expected either 1, 3 or 4 channels on "
                          f"axis {self.channel_axis}. However, it was passed an array with "
                          f"shape {x.shape} ({x.shape[self.channel_axis]} channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            augmented = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    augmented[i + r * x.shape[0]] = self.random_transform(x[i])
            x = augmented
        per_channel = [1, 1, 1]
        per_channel[self.channel_axis - 1] = x.shape[self.channel_axis]
        axes = (0, self.row_axis, self.col_axis)
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=axes), per_channel)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=axes), per_channel)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            self.zca_whitening_matrix = (u * (np.sqrt(n) / (s + self.zca_epsilon))).dot(u.T)
