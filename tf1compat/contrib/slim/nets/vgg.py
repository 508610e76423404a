"""`slim.nets.vgg`: VGG A, 16 and 19 (Simonyan & Zisserman 2014), their fully connected
layers as convolutions.

    with slim.arg_scope(vgg.vgg_arg_scope()):
        logits, end_points = vgg.vgg_16(images, num_classes=1000)
"""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.regularizers import l2_regularizer
from tf1compat.contrib.slim.nets._heads import conv_classifier, finish
from tf1compat.ops.nn_ops import relu
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["vgg_arg_scope", "vgg_a", "vgg_16", "vgg_19", "vgg_d", "vgg_e"]

_DEPTHS = (64, 128, 256, 512, 512)


def vgg_arg_scope(weight_decay: float = 0.0005) -> Dict[str, Any]:
    """ReLU, zero biases, L2 weight decay, SAME convolutions."""
    with arg_scope([layers.conv2d, layers.fully_connected], activation_fn=relu,
                   weights_regularizer=l2_regularizer(weight_decay),
                   biases_initializer=zeros_initializer()):
        with arg_scope([layers.conv2d], padding="SAME") as scope:
            return scope


def _vgg(inputs: Any, repeats: Sequence[int], num_classes: int, is_training: bool,
         dropout_keep_prob: float, spatial_squeeze: bool, scope: str, default_name: str,
         collected: Sequence[Any], collection_from_name_scope: bool
         ) -> Tuple[Any, Dict[str, Any]]:
    """Five blocks conv<i>/conv<i>_<k> (3x3, repeated) each followed by a 2x2 max pool,
    then the convolutional classifier. TF names the end-points collection after the
    scope's name scope for vgg_a/vgg_16 and after its variable scope for vgg_19."""
    with variable_scope(scope, default_name, [inputs]) as sc:
        collection = (sc.original_name_scope if collection_from_name_scope
                      else sc.name) + "_end_points"
        with arg_scope(list(collected), outputs_collections=collection):
            net = inputs
            for block, (times, depth) in enumerate(zip(repeats, _DEPTHS), start=1):
                net = layers.repeat(net, times, layers.conv2d, depth, [3, 3],
                                    scope=f"conv{block}")
                net = layers.max_pool2d(net, [2, 2], scope=f"pool{block}")
            net = conv_classifier(net, 4096, [7, 7], 4096, num_classes, is_training,
                                  dropout_keep_prob)
            return finish(net, sc.name, collection, spatial_squeeze)


def vgg_a(inputs: Any, num_classes: int = 1000, is_training: bool = True,
          dropout_keep_prob: float = 0.5, spatial_squeeze: bool = True,
          scope: str = "vgg_a") -> Tuple[Any, Dict[str, Any]]:
    """VGG "A" (11 layers): the logits and the end_points."""
    return _vgg(inputs, (1, 1, 2, 2, 2), num_classes, is_training, dropout_keep_prob,
                spatial_squeeze, scope, "vgg_a", (layers.conv2d, layers.max_pool2d), True)


def vgg_16(inputs: Any, num_classes: int = 1000, is_training: bool = True,
           dropout_keep_prob: float = 0.5, spatial_squeeze: bool = True,
           scope: str = "vgg_16") -> Tuple[Any, Dict[str, Any]]:
    """VGG "D" (16 layers): the logits and the end_points."""
    return _vgg(inputs, (2, 2, 3, 3, 3), num_classes, is_training, dropout_keep_prob,
                spatial_squeeze, scope, "vgg_16",
                (layers.conv2d, layers.fully_connected, layers.max_pool2d), True)


def vgg_19(inputs: Any, num_classes: int = 1000, is_training: bool = True,
           dropout_keep_prob: float = 0.5, spatial_squeeze: bool = True,
           scope: str = "vgg_19") -> Tuple[Any, Dict[str, Any]]:
    """VGG "E" (19 layers): the logits and the end_points."""
    return _vgg(inputs, (2, 2, 4, 4, 4), num_classes, is_training, dropout_keep_prob,
                spatial_squeeze, scope, "vgg_19",
                (layers.conv2d, layers.fully_connected, layers.max_pool2d), False)


for _net in (vgg_a, vgg_16, vgg_19):
    _net.default_image_size = 224
vgg_d = vgg_16
vgg_e = vgg_19
