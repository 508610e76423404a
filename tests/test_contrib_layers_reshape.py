"""tf.contrib.layers' deprecated target columns refuse clearly (their values, and those
of unit_norm, maxout, images_to_sequence, sequence_to_images and elu, are checked against
TF 1.15's code in tests/golden/cases_contrib_layers_reshape.py)."""

from __future__ import annotations

import pytest

import tf1compat as tf
from tf1compat.framework.missing import UnimplementedAPIError


@pytest.mark.parametrize("name", ["regression_target", "multi_class_target"])
def test_deprecated_target_columns_refuse_with_the_replacement(name):
    with pytest.raises(UnimplementedAPIError, match="deprecated it.*regression_head"):
        getattr(tf.contrib.layers, name)


def test_maxout_under_arg_scope():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6])
        with tf.contrib.framework.arg_scope([tf.contrib.layers.maxout], num_units=3):
            y = tf.contrib.layers.maxout(x)
    assert y.shape.as_list() == [None, 3]
