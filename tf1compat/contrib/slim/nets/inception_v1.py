"""`slim.nets.inception_v1`: GoogLeNet (Szegedy et al. 2014, "Going deeper with
convolutions"), as TF-Slim builds it (its "5x5" branches use 3x3 kernels).

    with slim.arg_scope(inception_v1.inception_v1_arg_scope()):
        logits, end_points = inception_v1.inception_v1(images, num_classes=1001)
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.slim.nets._heads import trunc_normal
from tf1compat.contrib.slim.nets._inception_blocks import (Stage, conv, inception_arg_scope,
                                                           max_pool, run_stages)
from tf1compat.ops.array_ops import squeeze
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["inception_v1_base", "inception_v1", "inception_v1_arg_scope"]


def _mixed(d0: int, d1: Tuple[int, int], d2: Tuple[int, int], d3: int,
           branch2_last: str = "Conv2d_0b_3x3") -> List[List[Any]]:
    return [[conv(d0, "Conv2d_0a_1x1")],
            [conv(d1[0], "Conv2d_0a_1x1"), conv(d1[1], "Conv2d_0b_3x3")],
            [conv(d2[0], "Conv2d_0a_1x1"), conv(d2[1], branch2_last)],
            [max_pool("MaxPool_0a_3x3"), conv(d3, "Conv2d_0b_1x1")]]


_STAGES: List[Stage] = [
    ("Conv2d_1a_7x7", conv(64, "Conv2d_1a_7x7", stride=2)),
    ("MaxPool_2a_3x3", max_pool("MaxPool_2a_3x3", stride=2)),
    ("Conv2d_2b_1x1", conv(64, "Conv2d_2b_1x1")),
    ("Conv2d_2c_3x3", conv(192, "Conv2d_2c_3x3")),
    ("MaxPool_3a_3x3", max_pool("MaxPool_3a_3x3", stride=2)),
    ("Mixed_3b", _mixed(64, (96, 128), (16, 32), 32)),
    ("Mixed_3c", _mixed(128, (128, 192), (32, 96), 64)),
    ("MaxPool_4a_3x3", max_pool("MaxPool_4a_3x3", stride=2)),
    ("Mixed_4b", _mixed(192, (96, 208), (16, 48), 64)),
    ("Mixed_4c", _mixed(160, (112, 224), (24, 64), 64)),
    ("Mixed_4d", _mixed(128, (128, 256), (24, 64), 64)),
    ("Mixed_4e", _mixed(112, (144, 288), (32, 64), 64)),
    ("Mixed_4f", _mixed(256, (160, 320), (32, 128), 128)),
    ("MaxPool_5a_2x2", max_pool("MaxPool_5a_2x2", stride=2)),
    ("Mixed_5b", _mixed(256, (160, 320), (32, 128), 128, branch2_last="Conv2d_0a_3x3")),
    ("Mixed_5c", _mixed(384, (192, 384), (48, 128), 128)),
]


def inception_v1_base(inputs: Any, final_endpoint: str = "Mixed_5c",
                      scope: Any = "InceptionV1") -> Tuple[Any, Dict[str, Any]]:
    """The net from the input up to `final_endpoint` (one of the end point names
    Conv2d_1a_7x7 ... Mixed_5c) and the end_points built so far; an unknown end point
    raises ValueError."""
    end_points: Dict[str, Any] = {}
    with variable_scope(scope, "InceptionV1", [inputs]):
        with arg_scope([layers.conv2d, layers.fully_connected],
                       weights_initializer=trunc_normal(0.01)):
            with arg_scope([layers.conv2d, layers.max_pool2d], stride=1, padding="SAME"):
                net, done = run_stages(inputs, _STAGES, end_points, final_endpoint,
                                       lambda d: d)
                if done:
                    return net, end_points
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def inception_v1(inputs: Any, num_classes: int = 1000, is_training: bool = True,
                 dropout_keep_prob: float = 0.8,
                 prediction_fn: Callable[..., Any] = layers.softmax,
                 spatial_squeeze: bool = True, reuse: Any = None,
                 scope: str = "InceptionV1") -> Tuple[Any, Dict[str, Any]]:
    """The logits and end_points (with `Logits` and `Predictions`); the classifier is a
    7x7 average pool (scope MaxPool_0a_7x7, as TF names it), dropout and a 1x1 conv."""
    with variable_scope(scope, "InceptionV1", [inputs, num_classes], reuse=reuse) as sc:
        with arg_scope([layers.batch_norm, layers.dropout], is_training=is_training):
            net, end_points = inception_v1_base(inputs, scope=sc)
            with variable_scope("Logits"):
                net = layers.avg_pool2d(net, [7, 7], stride=1, scope="MaxPool_0a_7x7")
                net = layers.dropout(net, dropout_keep_prob, scope="Dropout_0b")
                logits = layers.conv2d(net, num_classes, [1, 1], activation_fn=None,
                                       normalizer_fn=None, scope="Conv2d_0c_1x1")
                if spatial_squeeze:
                    logits = squeeze(logits, [1, 2], name="SpatialSqueeze")
                end_points["Logits"] = logits
                end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v1.default_image_size = 224


def inception_v1_arg_scope(weight_decay: float = 0.00004, use_batch_norm: bool = True,
                           batch_norm_var_collection: str = "moving_vars") -> Dict[str, Any]:
    """The arg_scope the Inception v1 checkpoints were trained with."""
    return inception_arg_scope(weight_decay, batch_norm_var_collection, use_batch_norm)
