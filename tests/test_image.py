"""tf.image beyond the goldens: eager values equal graph values, the shim path, missing
names, gradients TF does not define."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tests.test_eager import eager  # noqa: F401 - the eager-mode fixture

_X = np.random.RandomState(0).rand(2, 5, 7, 3).astype(np.float32)

_BUILDS = {
    "resize_bilinear": lambda t: t.image.resize_images(_X, [3, 9]),
    "resize_area": lambda t: t.image.resize_images(_X, [4, 4], method=3),
    "resize_bicubic_half": lambda t: t.image.resize_bicubic(_X, [6, 6],
                                                            half_pixel_centers=True),
    "crop_or_pad": lambda t: t.image.resize_image_with_crop_or_pad(_X, 9, 2),
    "flip": lambda t: t.image.flip_up_down(_X[0]),
    "rot90": lambda t: t.image.rot90(_X, 3),
    "standardize": lambda t: t.image.per_image_standardization(_X),
    "convert": lambda t: t.image.convert_image_dtype(_X, t.uint8, saturate=True),
    "patches": lambda t: t.extract_image_patches(_X, [1, 2, 3, 1], [1, 2, 1, 1],
                                                 [1, 1, 1, 1], "SAME"),
    "contrast": lambda t: t.image.adjust_contrast(_X, 0.3),
    "central": lambda t: t.image.central_crop(_X, 0.6),
}


@pytest.mark.parametrize("name", sorted(_BUILDS))
def test_eager_values_equal_graph_values(eager, name):  # noqa: F811
    got = _BUILDS[name](tf).numpy()
    from tf1compat.framework import context
    context.set_default_eager(False)
    try:
        with tf.Graph().as_default(), tf.Session() as sess:
            want = sess.run(_BUILDS[name](tf))
    finally:
        context.set_default_eager(True)
    np.testing.assert_array_equal(got, want)


def test_shim_path_and_missing_names():
    import importlib
    tf.install()
    try:
        mod = importlib.import_module("tensorflow.python.ops.image_ops")
        assert mod.resize_images is tf.image.resize_images
    finally:
        tf.uninstall()
    from tf1compat._tf_api_names import API_NAMES
    missing = sorted(n for n in API_NAMES["image"] if n not in vars(tf.image))
    if not missing:
        pytest.skip("every tf.image name is implemented")
    with pytest.raises(NotImplementedError, match=missing[0]):
        getattr(tf.image, missing[0])


def test_gradients_tf_does_not_define():
    with tf.Graph().as_default():
        x = tf.constant(_X)
        with pytest.raises(LookupError, match="ResizeArea"):
            tf.gradients(tf.image.resize_area(x, [2, 2]), x)
        with pytest.raises(LookupError, match="AdjustContrastv2"):
            tf.gradients(tf.image.adjust_contrast(x, 2.0), x)
