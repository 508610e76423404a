"""`slim.nets.resnet_v2`: ResNet v2 (He et al. 2016, Identity Mappings: pre-activation
bottleneck units).

    with slim.arg_scope(resnet_v2.resnet_arg_scope()):
        net, end_points = resnet_v2.resnet_v2_50(images, 1000, is_training=False)

`output_stride` (a multiple of 4; 8, 16 or 32) makes the later blocks atrous, for dense
prediction; `global_pool=False` keeps the spatial map; `num_classes=None` returns the
features before the logits.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from tf1compat.contrib.framework.arg_scope import add_arg_scope, arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.utils import collect_named_outputs, last_dimension
from tf1compat.contrib.slim.nets import resnet_utils
from tf1compat.ops.nn_ops import relu
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["bottleneck", "resnet_v2", "resnet_v2_block", "resnet_v2_50", "resnet_v2_101",
           "resnet_v2_152", "resnet_v2_200", "resnet_arg_scope"]

resnet_arg_scope = resnet_utils.resnet_arg_scope

@add_arg_scope
def bottleneck(inputs: Any, depth: int, depth_bottleneck: int, stride: int, rate: int = 1,
               outputs_collections: Any = None, scope: Optional[str] = None) -> Any:
    """Pre-activation unit: shortcut + (1x1 -> 3x3 (strided, atrous) -> 1x1) over
    relu(batch_norm(inputs)) (`preact`); the shortcut is the input (subsampled) when
    depths match, else a strided 1x1 projection of `preact`."""
    with variable_scope(scope, "bottleneck_v2", [inputs]) as sc:
        depth_in = last_dimension(inputs.get_shape(), min_rank=4)
        preact = layers.batch_norm(inputs, activation_fn=relu, scope="preact")
        if depth == depth_in:
            shortcut = resnet_utils.subsample(inputs, stride, "shortcut")
        else:
            shortcut = layers.conv2d(preact, depth, [1, 1], stride=stride, normalizer_fn=None,
                                     activation_fn=None, scope="shortcut")
        residual = layers.conv2d(preact, depth_bottleneck, [1, 1], stride=1, scope="conv1")
        residual = resnet_utils.conv2d_same(residual, depth_bottleneck, 3, stride, rate=rate,
                                            scope="conv2")
        residual = layers.conv2d(residual, depth, [1, 1], stride=1, normalizer_fn=None,
                                 activation_fn=None, scope="conv3")
        return collect_named_outputs(outputs_collections, sc.name, shortcut + residual)

def _root_conv(net: Any) -> Any:
    # The root convolution is neither normalized nor activated: the first unit's
    # `preact` does that.
    with arg_scope([layers.conv2d], activation_fn=None, normalizer_fn=None):
        return resnet_utils.conv2d_same(net, 64, 7, stride=2, scope="conv1")


def _after_blocks(net: Any) -> Any:
    return layers.batch_norm(net, activation_fn=relu, scope="postnorm")


def resnet_v2(inputs: Any, blocks: Any, num_classes: Optional[int] = None,
              is_training: bool = True, global_pool: bool = True,
              output_stride: Optional[int] = None, include_root_block: bool = True,
              reuse: Any = None, scope: Optional[str] = None) -> Tuple[Any, Dict[str, Any]]:
    """The ResNet v2 generator over `blocks` (Block list): the net and its end_points."""
    return resnet_utils.build_resnet(inputs, blocks, bottleneck, num_classes, is_training,
                                     global_pool, output_stride, include_root_block, reuse,
                                     scope, "resnet_v2", _root_conv, _after_blocks)


resnet_v2.default_image_size = 224


def resnet_v2_block(scope: str, base_depth: int, num_units: int, stride: int
                    ) -> resnet_utils.Block:
    """A block of `num_units` bottlenecks of depth 4 * base_depth, the last with `stride`."""
    return resnet_utils.Block(scope, bottleneck,
                              resnet_utils.block_args(base_depth, num_units, stride))


resnet_v2_50 = resnet_utils.standard_net("resnet_v2", 50, resnet_v2, resnet_v2_block)
resnet_v2_101 = resnet_utils.standard_net("resnet_v2", 101, resnet_v2, resnet_v2_block)
resnet_v2_152 = resnet_utils.standard_net("resnet_v2", 152, resnet_v2, resnet_v2_block)
resnet_v2_200 = resnet_utils.standard_net("resnet_v2", 200, resnet_v2, resnet_v2_block)
