"""`slim.nets.resnet_utils`: the pieces shared by ResNet v1 and v2 (He et al. 2015/2016):
`Block` (a named list of unit arguments), `subsample`, `conv2d_same` (a strided
convolution padded so its output does not depend on the input's size being even),
`stack_blocks_dense` (atrous when an `output_stride` is asked) and `resnet_arg_scope`.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from tf1compat.contrib.framework.arg_scope import add_arg_scope, arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.initializers import variance_scaling_initializer
from tf1compat.contrib.layers.regularizers import l2_regularizer
from tf1compat.contrib.layers.utils import collect_named_outputs, convert_collection_to_dict
from tf1compat.framework.graph import GraphKeys
from tf1compat.ops.nn_ops import relu
from tf1compat.ops.reduction_ops import reduce_mean
from tf1compat.ops.transform_ops import pad
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["Block", "subsample", "conv2d_same", "stack_blocks_dense", "resnet_arg_scope"]


class Block(collections.namedtuple("Block", ["scope", "unit_fn", "args"])):
    """A ResNet block: its scope name, the unit function (a bottleneck) and one dict of
    keyword arguments (depth, depth_bottleneck, stride) per unit."""


def subsample(inputs: Any, factor: int, scope: Optional[str] = None) -> Any:
    """`inputs` as is when `factor` is 1, else a 1x1 max pool of stride `factor`."""
    if factor == 1:
        return inputs
    return layers.max_pool2d(inputs, [1, 1], stride=factor, scope=scope)


def conv2d_same(inputs: Any, num_outputs: int, kernel_size: int, stride: int,
                rate: int = 1, scope: Optional[str] = None) -> Any:
    """A SAME-like convolution: stride 1 is a SAME convolution; a larger stride pads the
    input explicitly (by the dilated kernel's size - 1, split low half first) and
    convolves VALID, so the output is aligned whatever the input size."""
    if stride == 1:
        return layers.conv2d(inputs, num_outputs, kernel_size, stride=1, rate=rate,
                             padding="SAME", scope=scope)
    pad_total = kernel_size + (kernel_size - 1) * (rate - 1) - 1
    low = pad_total // 2
    inputs = pad(inputs, [[0, 0], [low, pad_total - low], [low, pad_total - low], [0, 0]])
    return layers.conv2d(inputs, num_outputs, kernel_size, stride=stride, rate=rate,
                         padding="VALID", scope=scope)


@add_arg_scope
def stack_blocks_dense(net: Any, blocks: Sequence[Block], output_stride: Optional[int] = None,
                       outputs_collections: Any = None) -> Any:
    """Runs the blocks' units in scopes <block>/unit_<i>. Once the accumulated stride
    reaches `output_stride`, later units run with stride 1 and a growing atrous rate
    instead; a stride that cannot be reached exactly raises ValueError."""
    current_stride = 1
    rate = 1
    for block in blocks:
        with variable_scope(block.scope, "block", [net]) as sc:
            for i, unit in enumerate(block.args):
                if output_stride is not None and current_stride > output_stride:
                    raise ValueError("The target output_stride cannot be reached.")
                with variable_scope("unit_%d" % (i + 1), values=[net]):
                    if output_stride is not None and current_stride == output_stride:
                        net = block.unit_fn(net, rate=rate, **dict(unit, stride=1))
                        rate *= unit.get("stride", 1)
                    else:
                        net = block.unit_fn(net, rate=1, **unit)
                        current_stride *= unit.get("stride", 1)
            net = collect_named_outputs(outputs_collections, sc.name, net)
    if output_stride is not None and current_stride != output_stride:
        raise ValueError("The target output_stride cannot be reached.")
    return net


def resnet_arg_scope(weight_decay: float = 0.0001, batch_norm_decay: float = 0.997,
                     batch_norm_epsilon: float = 1e-5, batch_norm_scale: bool = True
                     ) -> Dict[str, Any]:
    """He-initialized, L2-regularized, batch-normalized ReLU convolutions; SAME max pools."""
    batch_norm_params = {"decay": batch_norm_decay, "epsilon": batch_norm_epsilon,
                         "scale": batch_norm_scale,
                         "updates_collections": GraphKeys.UPDATE_OPS}
    with arg_scope([layers.conv2d], weights_regularizer=l2_regularizer(weight_decay),
                   weights_initializer=variance_scaling_initializer(), activation_fn=relu,
                   normalizer_fn=layers.batch_norm, normalizer_params=batch_norm_params):
        with arg_scope([layers.batch_norm], **batch_norm_params):
            with arg_scope([layers.max_pool2d], padding="SAME") as scope:
                return scope


def block_args(base_depth: int, num_units: int, stride: int) -> list:
    """The unit arguments of a standard bottleneck block: `num_units` units of depth
    4 * base_depth, the last one with `stride`."""
    unit = {"depth": base_depth * 4, "depth_bottleneck": base_depth}
    return [dict(unit, stride=1)] * (num_units - 1) + [dict(unit, stride=stride)]


# Units per block of the standard depths (v1 and v2 alike); block strides are 2, 2, 2, 1.
STANDARD_UNITS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3),
                  200: (3, 24, 36, 3)}


def standard_net(version: str, depth: int, generator: Callable[..., Any],
                 block: Callable[[str, int, int, int], Block]) -> Callable[..., Any]:
    """ResNet-`depth` of `version` ("resnet_v1", "resnet_v2"): `generator` over four
    `block`s of base depths 64, 128, 256, 512 with STANDARD_UNITS[depth] units and strides
    2, 2, 2, 1 — `resnet_v1_50` & co. with TF's signature."""
    units = STANDARD_UNITS[depth]
    name = f"{version}_{depth}"

    def net(inputs: Any, num_classes: Optional[int] = None, is_training: bool = True,
            global_pool: bool = True, output_stride: Optional[int] = None, reuse: Any = None,
            scope: str = name) -> Tuple[Any, Dict[str, Any]]:
        blocks = [block(f"block{i + 1}", base, count, stride)
                  for i, (base, count, stride) in enumerate(zip((64, 128, 256, 512), units,
                                                                (2, 2, 2, 1)))]
        return generator(inputs, blocks, num_classes, is_training, global_pool,
                         output_stride, include_root_block=True, reuse=reuse, scope=scope)
    net.__name__ = net.__qualname__ = name
    net.__doc__ = f"ResNet-{depth} {version[-2:]}: the net and its end_points."
    net.default_image_size = 224
    return net


def build_resnet(inputs: Any, blocks: Sequence[Block], unit_fn: Callable[..., Any],
                 num_classes: Optional[int], is_training: bool, global_pool: bool,
                 output_stride: Optional[int], include_root_block: bool, reuse: Any,
                 scope: Optional[str], default_name: str,
                 root_conv: Callable[[Any], Any], after_blocks: Callable[[Any], Any]
                 ) -> Tuple[Any, Dict[str, Any]]:
    """The network both versions share: an optional root (`root_conv`, then a 3x3/2 max
    pool `pool1`), the blocks, `after_blocks` (v2's post-norm), the global average pool
    `pool5`, 1x1 `logits` and the softmax `predictions` end point."""
    with variable_scope(scope, default_name, [inputs], reuse=reuse) as sc:
        collection = sc.original_name_scope + "_end_points"
        with arg_scope([layers.conv2d, unit_fn, stack_blocks_dense],
                       outputs_collections=collection):
            with arg_scope([layers.batch_norm], is_training=is_training):
                net = inputs
                if include_root_block:
                    if output_stride is not None:
                        if output_stride % 4 != 0:
                            raise ValueError("The output_stride needs to be a multiple of 4.")
                        output_stride /= 4
                    net = root_conv(net)
                    net = layers.max_pool2d(net, [3, 3], stride=2, scope="pool1")
                net = stack_blocks_dense(net, blocks, output_stride)
                net = after_blocks(net)
                if global_pool:
                    net = reduce_mean(net, [1, 2], name="pool5", keepdims=True)
                if num_classes is not None:
                    net = layers.conv2d(net, num_classes, [1, 1], activation_fn=None,
                                        normalizer_fn=None, scope="logits")
                end_points = convert_collection_to_dict(collection)
                if num_classes is not None:
                    end_points["predictions"] = layers.softmax(net, scope="predictions")
                return net, end_points
