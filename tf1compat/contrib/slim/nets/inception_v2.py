"""`slim.nets.inception_v2`: Inception with batch normalization (Ioffe & Szegedy 2015).

    with slim.arg_scope(inception_v2.inception_v2_arg_scope()):
        logits, end_points = inception_v2.inception_v2(images, num_classes=1001)

`depth_multiplier` scales every convolution's depth (never below `min_depth`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.separable import separable_conv2d
from tf1compat.contrib.slim.nets._heads import trunc_normal
from tf1compat.contrib.slim.nets._inception_blocks import (Stage, avg_pool, conv,
                                                           depth_function,
                                                           inception_arg_scope, logits_head,
                                                           max_pool, run_stages)
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["inception_v2_base", "inception_v2", "inception_v2_arg_scope"]


def _mixed(d0: int, d1: Tuple[int, int], d2: Tuple[int, int, int], d3: int,
           pool: str = "avg") -> List[List[Any]]:
    pooling = avg_pool("AvgPool_0a_3x3") if pool == "avg" else max_pool("MaxPool_0a_3x3")
    return [[conv(d0, "Conv2d_0a_1x1")],
            [conv(d1[0], "Conv2d_0a_1x1", stddev=0.09), conv(d1[1], "Conv2d_0b_3x3")],
            [conv(d2[0], "Conv2d_0a_1x1", stddev=0.09), conv(d2[1], "Conv2d_0b_3x3"),
             conv(d2[2], "Conv2d_0c_3x3")],
            [pooling, conv(d3, "Conv2d_0b_1x1", stddev=0.1)]]


def _reduction(d0: Tuple[int, int], d1: Tuple[int, int, int]) -> List[List[Any]]:
    return [[conv(d0[0], "Conv2d_0a_1x1", stddev=0.09),
             conv(d0[1], "Conv2d_1a_3x3", stride=2)],
            [conv(d1[0], "Conv2d_0a_1x1", stddev=0.09), conv(d1[1], "Conv2d_0b_3x3"),
             conv(d1[2], "Conv2d_1a_3x3", stride=2)],
            [max_pool("MaxPool_1a_3x3", stride=2)]]


# After Conv2d_1a_7x7 (a separable convolution, built apart).
_STAGES: List[Stage] = [
    ("MaxPool_2a_3x3", max_pool("MaxPool_2a_3x3", stride=2)),
    ("Conv2d_2b_1x1", conv(64, "Conv2d_2b_1x1", stddev=0.1)),
    ("Conv2d_2c_3x3", conv(192, "Conv2d_2c_3x3")),
    ("MaxPool_3a_3x3", max_pool("MaxPool_3a_3x3", stride=2)),
    ("Mixed_3b", _mixed(64, (64, 64), (64, 96, 96), 32)),
    ("Mixed_3c", _mixed(64, (64, 96), (64, 96, 96), 64)),
    ("Mixed_4a", _reduction((128, 160), (64, 96, 96))),
    ("Mixed_4b", _mixed(224, (64, 96), (96, 128, 128), 128)),
    ("Mixed_4c", _mixed(192, (96, 128), (96, 128, 128), 128)),
    ("Mixed_4d", _mixed(160, (128, 160), (128, 160, 160), 96)),
    ("Mixed_4e", _mixed(96, (128, 192), (160, 192, 192), 96)),
    ("Mixed_5a", _reduction((128, 192), (192, 256, 256))),
    ("Mixed_5b", _mixed(352, (192, 320), (160, 224, 224), 128)),
    ("Mixed_5c", _mixed(352, (192, 320), (192, 224, 224), 128, pool="max")),
]


def inception_v2_base(inputs: Any, final_endpoint: str = "Mixed_5c", min_depth: int = 16,
                      depth_multiplier: float = 1.0, scope: Optional[Any] = None
                      ) -> Tuple[Any, Dict[str, Any]]:
    """The net from the input up to `final_endpoint` and the end_points built so far;
    an unknown end point raises ValueError, a depth_multiplier <= 0 too."""
    end_points: Dict[str, Any] = {}
    depth = depth_function(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV2", [inputs]):
        with arg_scope([layers.conv2d, layers.max_pool2d, layers.avg_pool2d,
                        separable_conv2d], stride=1, padding="SAME"):
            # A depthwise-separable 7x7 first layer: its depthwise multiplier keeps the
            # depthwise output near 64 channels for RGB input.
            net = separable_conv2d(inputs, depth(64), [7, 7],
                                   depth_multiplier=min(int(depth(64) / 3), 8), stride=2,
                                   weights_initializer=trunc_normal(1.0),
                                   scope="Conv2d_1a_7x7")
            end_points["Conv2d_1a_7x7"] = net
            if final_endpoint == "Conv2d_1a_7x7":
                return net, end_points
            net, done = run_stages(net, _STAGES, end_points, final_endpoint, depth)
            if done:
                return net, end_points
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def inception_v2(inputs: Any, num_classes: int = 1000, is_training: bool = True,
                 dropout_keep_prob: float = 0.8, min_depth: int = 16,
                 depth_multiplier: float = 1.0,
                 prediction_fn: Callable[..., Any] = layers.softmax,
                 spatial_squeeze: bool = True, reuse: Any = None,
                 scope: str = "InceptionV2") -> Tuple[Any, Dict[str, Any]]:
    """The logits and end_points (with `Logits` and `Predictions`)."""
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    with variable_scope(scope, "InceptionV2", [inputs, num_classes], reuse=reuse) as sc:
        with arg_scope([layers.batch_norm, layers.dropout], is_training=is_training):
            net, end_points = inception_v2_base(inputs, scope=sc, min_depth=min_depth,
                                                depth_multiplier=depth_multiplier)
            logits = logits_head(net, num_classes, dropout_keep_prob, spatial_squeeze,
                                 [7, 7], end_points)
            end_points["Logits"] = logits
            end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v2.default_image_size = 224


def inception_v2_arg_scope(weight_decay: float = 0.00004,
                           batch_norm_var_collection: str = "moving_vars") -> Dict[str, Any]:
    """The arg_scope the Inception v2 checkpoints were trained with."""
    return inception_arg_scope(weight_decay, batch_norm_var_collection)
