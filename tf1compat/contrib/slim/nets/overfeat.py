"""`slim.nets.overfeat`: OverFeat's accurate-ish model (Sermanet et al. 2013), its fully
connected layers as convolutions.

    with slim.arg_scope(overfeat.overfeat_arg_scope()):
        logits, end_points = overfeat.overfeat(images)    # images 231x231
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.regularizers import l2_regularizer
from tf1compat.contrib.slim.nets._heads import conv_classifier, finish, trunc_normal
from tf1compat.ops.nn_ops import relu
from tf1compat.variables.init_ops import constant_initializer, zeros_initializer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["overfeat", "overfeat_arg_scope"]


def overfeat_arg_scope(weight_decay: float = 0.0005) -> Dict[str, Any]:
    """ReLU, zero biases, L2 weight decay; SAME convolutions, VALID max pools."""
    with arg_scope([layers.conv2d, layers.fully_connected], activation_fn=relu,
                   weights_regularizer=l2_regularizer(weight_decay),
                   biases_initializer=zeros_initializer()):
        with arg_scope([layers.conv2d], padding="SAME"):
            with arg_scope([layers.max_pool2d], padding="VALID") as scope:
                return scope


def overfeat(inputs: Any, num_classes: int = 1000, is_training: bool = True,
             dropout_keep_prob: float = 0.5, spatial_squeeze: bool = True,
             scope: str = "overfeat") -> Tuple[Any, Dict[str, Any]]:
    """The logits and the end_points (every conv and pool output, by scope name)."""
    with variable_scope(scope, "overfeat", [inputs]) as sc:
        collection = sc.name + "_end_points"
        with arg_scope([layers.conv2d, layers.fully_connected, layers.max_pool2d],
                       outputs_collections=collection):
            net = layers.conv2d(inputs, 64, [11, 11], 4, padding="VALID", scope="conv1")
            net = layers.max_pool2d(net, [2, 2], scope="pool1")
            net = layers.conv2d(net, 256, [5, 5], padding="VALID", scope="conv2")
            net = layers.max_pool2d(net, [2, 2], scope="pool2")
            for name, depth in (("conv3", 512), ("conv4", 1024), ("conv5", 1024)):
                net = layers.conv2d(net, depth, [3, 3], scope=name)
            net = layers.max_pool2d(net, [2, 2], scope="pool5")
            with arg_scope([layers.conv2d], weights_initializer=trunc_normal(0.005),
                           biases_initializer=constant_initializer(0.1)):
                net = conv_classifier(net, 3072, [6, 6], 4096, num_classes, is_training,
                                      dropout_keep_prob,
                                      biases_initializer=zeros_initializer())
            return finish(net, sc.name, collection, spatial_squeeze)
