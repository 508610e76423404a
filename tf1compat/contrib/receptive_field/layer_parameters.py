"""The receptive-field parameters of one GraphDef node (TF 1.15 contrib/receptive_field
parse_layer_parameters.py): kernel size, stride and padding per direction of Conv2D,
DepthwiseConv2dNative, MaxPool(V2), AvgPool and Pad nodes; element-wise ops and the like
(`UNCHANGED_RF_LAYER_OPS`) are 1x1 with stride 1 and no padding. SAME padding follows TF's
rule, which depends on the input size: without it the padding is known only for 1-wide
kernels, stride 1 and (its left part) stride 2 with even kernels; else it is None."""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Sequence, Tuple

from tf1compat.serialization.tensor_util import make_ndarray
from tf1compat.util import tf_logging as logging

__all__ = ["UNCHANGED_RF_LAYER_OPS", "get_layer_params"]

# TF's list: ops that keep each output position tied to the same input position.
UNCHANGED_RF_LAYER_OPS = [
    "Add", "AddV2", "BiasAdd", "Cast", "Ceil", "ConcatV2", "Const", "Floor",
    "FusedBatchNorm", "Identity", "Log", "Mul", "Pow", "RealDiv", "Relu", "Relu6", "Round",
    "Rsqrt", "Softplus", "Sub", "VariableV2", "LRN", "GreaterEqual"]

_VALID = ("VALID", b"VALID")
_SAME = ("SAME", b"SAME")

Params = Tuple[Any, Any, Any, Any, Any, Any, Any, Any]


def _const_input(node: Any, index: int, suffix: str, what: str,
                 name_to_node: Dict[str, Any]) -> Any:
    """The value of the Const feeding `node.input[index]`, whose name must end in
    `suffix` (MaxPoolV2's ksize/strides, Pad's paddings)."""
    name = node.input[index]
    if not name.endswith(suffix):
        raise ValueError(f"{what} name does not end with '{suffix}'")
    return name_to_node[name]


def _strides(node: Any, name_to_node: Dict[str, Any]) -> Tuple[Any, Any]:
    if node.op == "MaxPoolV2":
        strides = make_ndarray(_const_input(node, 2, "/strides", "Strides", name_to_node)
                               .attr["value"].tensor)
        return strides[2], strides[1]
    strides = node.attr["strides"].list.i
    return strides[2], strides[1]


def _conv_kernel(node: Any, name_to_node: Dict[str, Any]) -> Tuple[int, int]:
    """The filter's spatial size, read from the variable (or Const) behind the filter's
    `/read` input."""
    read_name = node.input[1]
    if not read_name.endswith("/read"):
        raise ValueError("Weight layer's name input to conv layer does not end with '/read'")
    weights_name = read_name[:-len("/read")]
    weights = name_to_node[weights_name]
    if weights.op == "VariableV2":
        dims = weights.attr["shape"].shape.dim
    elif weights.op == "Const":
        dims = weights.attr["value"].tensor.tensor_shape.dim
    else:
        raise ValueError(f"Weight layer {weights_name} is not of type VariableV2 or Const: "
                         f"{weights.op}")
    if len(dims) != 4:
        raise ValueError(f"Weight layer {weights_name} does not have rank 4. Instead, it "
                         f"has: {len(dims)}")
    return dims[1].size, dims[0].size


def _pool_kernel(node: Any, name_to_node: Dict[str, Any]) -> Tuple[Any, Any]:
    if node.op == "MaxPoolV2":
        ksize = make_ndarray(_const_input(node, 1, "/ksize", "Kernel size", name_to_node)
                             .attr["value"].tensor)
    else:
        ksize = node.attr["ksize"].list.i
    if ksize[0] != 1:
        raise ValueError("pool ksize for first dim is not 1")
    if ksize[3] != 1:
        raise ValueError("pool ksize for last dim is not 1")
    return ksize[2], ksize[1]


def _conv_pool_padding(node: Any, kernel: Any, stride: Any,
                       resolution: Optional[int]) -> Tuple[Optional[int], Optional[int]]:
    """(total padding, padding on the left/top) in one direction."""
    mode = node.attr["padding"].s
    if mode in _VALID:
        return 0, 0
    if mode not in _SAME:
        raise ValueError("Invalid padding operation %s" % mode)
    if resolution is not None:
        remainder = resolution % stride
        total = int(max(float(kernel - (stride if remainder == 0 else remainder)), 0.0))
        return total, int(math.floor(float(total) / 2))
    if kernel == 1:
        return 0, 0
    if stride == 1:
        total = kernel - 1
        return total, int(math.floor(float(total) / 2))
    if stride == 2 and kernel % 2 == 0:
        return None, int(math.floor((float(kernel) - 1) / 2))
    logging.warning("Padding depends on input size, which means that the effective padding "
                    "may be different depending on the input image dimensionality. In this "
                    "case, alignment check will be skipped. If you know the input "
                    "resolution, please set it.")
    return None, None


def _pad_layer(node: Any, name_to_node: Dict[str, Any]) -> Tuple[Any, Any, Any, Any]:
    paddings = _const_input(node, 1, "/paddings", "Padding layer", name_to_node)
    if paddings.op != "Const":
        raise ValueError("Padding op is not Const")
    t = make_ndarray(paddings.attr["value"].tensor)
    if t[0][0] != 0 or t[0][1] != 0:
        raise ValueError("padding is not zero for first tensor dim")
    if t[3][0] != 0 or t[3][1] != 0:
        raise ValueError("padding is not zero for last tensor dim")
    return t[2][0] + t[2][1], t[2][0], t[1][0] + t[1][1], t[1][0]


def get_layer_params(node: Any, name_to_node: Dict[str, Any],
                     input_resolution: Optional[Sequence[int]] = None,
                     force: bool = False) -> Params:
    """(kernel_size_x, kernel_size_y, stride_x, stride_y, padding_x, padding_y,
    total_padding_x, total_padding_y) of a NodeDef; `input_resolution` is [height,
    width] of its input. An op not understood raises ValueError, or gives all None with
    `force`."""
    height, width = (None, None) if input_resolution is None else input_resolution[:2]
    if node.op in ("Conv2D", "DepthwiseConv2dNative", "MaxPool", "MaxPoolV2", "AvgPool"):
        stride_x, stride_y = _strides(node, name_to_node)
        kernel_x, kernel_y = (_conv_kernel if node.op.startswith(("Conv", "Depthwise"))
                              else _pool_kernel)(node, name_to_node)
        total_x, padding_x = _conv_pool_padding(node, kernel_x, stride_x, width)
        total_y, padding_y = _conv_pool_padding(node, kernel_y, stride_y, height)
        return kernel_x, kernel_y, stride_x, stride_y, padding_x, padding_y, total_x, total_y
    if node.op == "Pad":
        total_x, padding_x, total_y, padding_y = _pad_layer(node, name_to_node)
        return 1, 1, 1, 1, padding_x, padding_y, total_x, total_y
    if node.op in UNCHANGED_RF_LAYER_OPS:
        return 1, 1, 1, 1, 0, 0, 0, 0
    if force:
        return (None,) * 8
    raise ValueError("Unknown layer for operation '%s': %s" % (node.name, node.op))
