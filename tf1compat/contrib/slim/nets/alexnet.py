"""`slim.nets.alexnet`: AlexNet v2 ("One weird trick", Krizhevsky 2014), without LRN,
its fully connected layers as convolutions.

    with slim.arg_scope(alexnet.alexnet_v2_arg_scope()):
        logits, end_points = alexnet.alexnet_v2(images)   # images 224x224
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

__all__ = ["alexnet_v2", "alexnet_v2_arg_scope"]


def alexnet_v2_arg_scope(weight_decay: float = 0.0005) -> Dict[str, Any]:
    """ReLU, biases 0.1, L2 weight decay; SAME convolutions, VALID max pools."""
    with arg_scope([layers.conv2d, layers.fully_connected], activation_fn=relu,
                   biases_initializer=constant_initializer(0.1),
                   weights_regularizer=l2_regularizer(weight_decay)):
        with arg_scope([layers.conv2d], padding="SAME"):
            with arg_scope([layers.max_pool2d], padding="VALID") as scope:
                return scope


def alexnet_v2(inputs: Any, num_classes: int = 1000, is_training: bool = True,
               dropout_keep_prob: float = 0.5, spatial_squeeze: bool = True,
               scope: str = "alexnet_v2") -> Tuple[Any, Dict[str, Any]]:
    """The logits and the end_points (every conv and pool output, by scope name)."""
    with variable_scope(scope, "alexnet_v2", [inputs]) as sc:
        collection = sc.original_name_scope + "_end_points"
        with arg_scope([layers.conv2d, layers.fully_connected, layers.max_pool2d],
                       outputs_collections=[collection]):
            net = layers.conv2d(inputs, 64, [11, 11], 4, padding="VALID", scope="conv1")
            net = layers.max_pool2d(net, [3, 3], 2, scope="pool1")
            net = layers.conv2d(net, 192, [5, 5], scope="conv2")
            net = layers.max_pool2d(net, [3, 3], 2, scope="pool2")
            for name, depth in (("conv3", 384), ("conv4", 384), ("conv5", 256)):
                net = layers.conv2d(net, depth, [3, 3], scope=name)
            net = layers.max_pool2d(net, [3, 3], 2, scope="pool5")
            with arg_scope([layers.conv2d], weights_initializer=trunc_normal(0.005),
                           biases_initializer=constant_initializer(0.1)):
                net = conv_classifier(net, 4096, [5, 5], 4096, num_classes, is_training,
                                      dropout_keep_prob,
                                      biases_initializer=zeros_initializer())
            return finish(net, sc.name, collection, spatial_squeeze)


alexnet_v2.default_image_size = 224
