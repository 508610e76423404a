"""What alexnet, overfeat and the VGG nets share: the classifier made of convolutions
(fc6/fc7 as convolutions with dropout after each, fc8 without activation) and the
end_points dict that slim builds from the net's outputs collection."""

from __future__ import annotations

from typing import Any, Dict, Tuple

from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.utils import convert_collection_to_dict
from tf1compat.ops.array_ops import squeeze
from tf1compat.variables.init_ops import truncated_normal_initializer


def trunc_normal(stddev: float) -> Any:
    """slim's `trunc_normal`: a truncated normal initializer of mean 0."""
    return truncated_normal_initializer(0.0, stddev)


def conv_classifier(net: Any, fc6_depth: int, fc6_kernel: Any, fc7_depth: int,
                    num_classes: int, is_training: bool, dropout_keep_prob: float,
                    **fc8_kwargs: Any) -> Any:
    """fc6 (VALID) / dropout6 / fc7 (1x1) / dropout7 / fc8 (1x1 logits)."""
    net = layers.conv2d(net, fc6_depth, fc6_kernel, padding="VALID", scope="fc6")
    net = layers.dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout6")
    net = layers.conv2d(net, fc7_depth, [1, 1], scope="fc7")
    net = layers.dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout7")
    return layers.conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                         scope="fc8", **fc8_kwargs)


def finish(net: Any, scope_name: str, collection: str, spatial_squeeze: bool
           ) -> Tuple[Any, Dict[str, Any]]:
    """The logits (squeezed to [batch, classes] when asked, as `fc8/squeezed`) and the
    end_points of `collection` (the squeezed logits replace `<scope>/fc8`)."""
    end_points = convert_collection_to_dict(collection)
    if spatial_squeeze:
        net = squeeze(net, [1, 2], name="fc8/squeezed")
        end_points[scope_name + "/fc8"] = net
    return net, end_points
