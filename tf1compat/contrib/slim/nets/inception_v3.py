"""`slim.nets.inception_v3`: Inception v3 (Szegedy et al. 2015, "Rethinking the Inception
Architecture"), with its auxiliary classifier on Mixed_6e.

    with slim.arg_scope(inception_v3.inception_v3_arg_scope()):
        logits, end_points = inception_v3.inception_v3(images, num_classes=1001)

`depth_multiplier` scales every convolution's depth (never below `min_depth`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.slim.nets._heads import trunc_normal
from tf1compat.contrib.slim.nets._inception_blocks import (Fork, Stage, avg_pool, conv,
                                                           depth_function,
                                                           inception_arg_scope, logits_head,
                                                           max_pool,
                                                           reduced_kernel_size_for_small_input,
                                                           run_stages)
from tf1compat.framework.graph import GraphKeys
from tf1compat.ops.array_ops import squeeze
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["inception_v3_base", "inception_v3", "inception_v3_arg_scope"]

_VALID = {"stride": 2, "padding": "VALID"}

# The stem, under VALID padding by default.
_STEM: List[Stage] = [
    ("Conv2d_1a_3x3", conv(32, "Conv2d_1a_3x3", stride=2)),
    ("Conv2d_2a_3x3", conv(32, "Conv2d_2a_3x3")),
    ("Conv2d_2b_3x3", conv(64, "Conv2d_2b_3x3", padding="SAME")),
    ("MaxPool_3a_3x3", max_pool("MaxPool_3a_3x3", stride=2)),
    ("Conv2d_3b_1x1", conv(80, "Conv2d_3b_1x1")),
    ("Conv2d_4a_3x3", conv(192, "Conv2d_4a_3x3")),
    ("MaxPool_5a_3x3", max_pool("MaxPool_5a_3x3", stride=2)),
]


def _mixed_35(pool_depth: int, branch1_names: Tuple[str, str] = ("Conv2d_0a_1x1",
                                                                  "Conv2d_0b_5x5")
              ) -> List[List[Any]]:
    """The 35x35 blocks (Mixed_5b-d); Mixed_5c's 5x5 branch carries TF's odd names."""
    return [[conv(64, "Conv2d_0a_1x1")],
            [conv(48, branch1_names[0]), conv(64, branch1_names[1], kernel=(5, 5))],
            [conv(64, "Conv2d_0a_1x1"), conv(96, "Conv2d_0b_3x3"), conv(96, "Conv2d_0c_3x3")],
            [avg_pool("AvgPool_0a_3x3"), conv(pool_depth, "Conv2d_0b_1x1")]]


def _mixed_17(inner: int) -> List[List[Any]]:
    """The 17x17 blocks (Mixed_6b-e): factorized 7x7 convolutions of `inner` channels."""
    return [[conv(192, "Conv2d_0a_1x1")],
            [conv(inner, "Conv2d_0a_1x1"), conv(inner, "Conv2d_0b_1x7"),
             conv(192, "Conv2d_0c_7x1")],
            [conv(inner, "Conv2d_0a_1x1"), conv(inner, "Conv2d_0b_7x1"),
             conv(inner, "Conv2d_0c_1x7"), conv(inner, "Conv2d_0d_7x1"),
             conv(192, "Conv2d_0e_1x7")],
            [avg_pool("AvgPool_0a_3x3"), conv(192, "Conv2d_0b_1x1")]]


def _mixed_8(branch1_second: str) -> List[List[Any]]:
    """The 8x8 blocks (Mixed_7b-c): 1x3 and 3x1 convolutions side by side."""
    return [[conv(320, "Conv2d_0a_1x1")],
            [conv(384, "Conv2d_0a_1x1"),
             Fork((conv(384, "Conv2d_0b_1x3"), conv(384, branch1_second)))],
            [conv(448, "Conv2d_0a_1x1"), conv(384, "Conv2d_0b_3x3"),
             Fork((conv(384, "Conv2d_0c_1x3"), conv(384, "Conv2d_0d_3x1")))],
            [avg_pool("AvgPool_0a_3x3"), conv(192, "Conv2d_0b_1x1")]]


# The Inception blocks, under SAME padding by default. TF names Mixed_6a's 3x3
# reductions "Conv2d_1a_1x1".
_BLOCKS: List[Stage] = [
    ("Mixed_5b", _mixed_35(32)),
    ("Mixed_5c", _mixed_35(64, ("Conv2d_0b_1x1", "Conv_1_0c_5x5"))),
    ("Mixed_5d", _mixed_35(64)),
    ("Mixed_6a", [[conv(384, "Conv2d_1a_1x1", kernel=(3, 3), **_VALID)],
                  [conv(64, "Conv2d_0a_1x1"), conv(96, "Conv2d_0b_3x3"),
                   conv(96, "Conv2d_1a_1x1", kernel=(3, 3), **_VALID)],
                  [max_pool("MaxPool_1a_3x3", **_VALID)]]),
    ("Mixed_6b", _mixed_17(128)),
    ("Mixed_6c", _mixed_17(160)),
    ("Mixed_6d", _mixed_17(160)),
    ("Mixed_6e", _mixed_17(192)),
    ("Mixed_7a", [[conv(192, "Conv2d_0a_1x1"), conv(320, "Conv2d_1a_3x3", **_VALID)],
                  [conv(192, "Conv2d_0a_1x1"), conv(192, "Conv2d_0b_1x7"),
                   conv(192, "Conv2d_0c_7x1"), conv(192, "Conv2d_1a_3x3", **_VALID)],
                  [max_pool("MaxPool_1a_3x3", **_VALID)]]),
    ("Mixed_7b", _mixed_8("Conv2d_0b_3x1")),
    ("Mixed_7c", _mixed_8("Conv2d_0c_3x1")),
]

_POOLS_AND_CONVS = [layers.conv2d, layers.max_pool2d, layers.avg_pool2d]


def inception_v3_base(inputs: Any, final_endpoint: str = "Mixed_7c", min_depth: int = 16,
                      depth_multiplier: float = 1.0, scope: Optional[Any] = None
                      ) -> Tuple[Any, Dict[str, Any]]:
    """The net from the input up to `final_endpoint` and the end_points built so far;
    an unknown end point raises ValueError, a depth_multiplier <= 0 too."""
    end_points: Dict[str, Any] = {}
    depth = depth_function(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV3", [inputs]):
        net = inputs
        for padding, stages in (("VALID", _STEM), ("SAME", _BLOCKS)):
            with arg_scope(_POOLS_AND_CONVS, stride=1, padding=padding):
                net, done = run_stages(net, stages, end_points, final_endpoint, depth)
                if done:
                    return net, end_points
    raise ValueError("Unknown final endpoint %s" % final_endpoint)


def _aux_logits(net: Any, num_classes: int, depth: Callable[[int], int],
                spatial_squeeze: bool) -> Any:
    with variable_scope("AuxLogits"):
        net = layers.avg_pool2d(net, [5, 5], stride=3, padding="VALID",
                                scope="AvgPool_1a_5x5")
        net = layers.conv2d(net, depth(128), [1, 1], scope="Conv2d_1b_1x1")
        kernel = reduced_kernel_size_for_small_input(net, [5, 5])
        net = layers.conv2d(net, depth(768), kernel, weights_initializer=trunc_normal(0.01),
                            padding="VALID", scope="Conv2d_2a_{}x{}".format(*kernel))
        net = layers.conv2d(net, num_classes, [1, 1], activation_fn=None,
                            normalizer_fn=None, weights_initializer=trunc_normal(0.001),
                            scope="Conv2d_2b_1x1")
        if spatial_squeeze:
            net = squeeze(net, [1, 2], name="SpatialSqueeze")
    return net


def inception_v3(inputs: Any, num_classes: int = 1000, is_training: bool = True,
                 dropout_keep_prob: float = 0.8, min_depth: int = 16,
                 depth_multiplier: float = 1.0,
                 prediction_fn: Callable[..., Any] = layers.softmax,
                 spatial_squeeze: bool = True, reuse: Any = None,
                 scope: str = "InceptionV3") -> Tuple[Any, Dict[str, Any]]:
    """The logits and end_points (with `AuxLogits`, `PreLogits`, `Logits` and
    `Predictions`)."""
    depth = depth_function(depth_multiplier, min_depth)
    with variable_scope(scope, "InceptionV3", [inputs, num_classes], reuse=reuse) as sc:
        with arg_scope([layers.batch_norm, layers.dropout], is_training=is_training):
            net, end_points = inception_v3_base(inputs, scope=sc, min_depth=min_depth,
                                                depth_multiplier=depth_multiplier)
            with arg_scope(_POOLS_AND_CONVS, stride=1, padding="SAME"):
                end_points["AuxLogits"] = _aux_logits(end_points["Mixed_6e"], num_classes,
                                                      depth, spatial_squeeze)
            logits = logits_head(net, num_classes, dropout_keep_prob, spatial_squeeze,
                                 [8, 8], end_points, record_pre_logits=True)
            end_points["Logits"] = logits
            end_points["Predictions"] = prediction_fn(logits, scope="Predictions")
    return logits, end_points


inception_v3.default_image_size = 299


def inception_v3_arg_scope(weight_decay: float = 0.00004,
                           batch_norm_var_collection: str = "moving_vars",
                           batch_norm_decay: float = 0.9997, batch_norm_epsilon: float = 0.001,
                           updates_collections: Any = GraphKeys.UPDATE_OPS,
                           use_fused_batchnorm: bool = True) -> Dict[str, Any]:
    """The arg_scope the Inception v3 checkpoints were trained with."""
    return inception_arg_scope(weight_decay, batch_norm_var_collection,
                               decay=batch_norm_decay, epsilon=batch_norm_epsilon,
                               updates_collections=updates_collections,
                               fused=use_fused_batchnorm)
