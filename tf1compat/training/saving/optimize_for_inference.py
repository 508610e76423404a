"""`tensorflow.python.tools.optimize_for_inference_lib`: slim a frozen graph for serving.

`optimize_for_inference(graph_def, inputs, outputs, placeholder_type_enum)` runs TF's
passes in TF's order: the validity check, `keras_learning_phase` (and named)
PlaceholderWithDefault -> Const, `strip_unused`, `remove_training_nodes` (Identity and
CheckNumerics out), `fuse_decomposed_batch_norm` (a batch norm written as
x * scale + (beta - mean * scale) of constants after an NHWC convolution becomes one
FusedBatchNorm), then `fold_batch_norms`: a Conv2D / DepthwiseConv2dNative (optionally
followed by a constant bias add) feeding BatchNormWithGlobalNormalization, FusedBatchNorm
or FusedBatchNormV3 with constant statistics becomes the convolution with scaled weights
plus a BiasAdd; last (unless `toco_compatible`) `fuse_resize_and_conv`: a Conv2D reading a
MirrorPad or ResizeBilinear becomes TF's FusedPadConv2D / FusedResizeAndPadConv2D
(ops/nn_conv_fused.py), and the nodes nothing reads any more leave (one level, as TF's
reference counts do).

`tensorflow.python.tools.optimize_for_inference` (TF's script, `tf1compat run -m ...
--input=frozen.pb --output=opt.pb --input_names=x --output_names=y`) is this module's
`run_main`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.graphdef import graph_io
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef, parse_text
from tf1compat.serialization.tensor_util import make_ndarray, make_tensor_proto
from tf1compat.training.saving.graph_util import remove_training_nodes, write_graph
from tf1compat.training.saving.strip_unused import strip_unused
from tf1compat.util import tf_logging

__all__ = ["optimize_for_inference", "ensure_graph_is_valid", "node_name_from_input",
           "node_from_map", "values_from_const", "fold_batch_norms", "strtobool",
           "parse_entry", "parse_nodes_dict", "convert_placeholder_to_const",
           "fuse_resize_and_conv", "fuse_decomposed_batch_norm", "get_const_dim_count",
           "scale_after_normalization", "INPUT_ORDER", "EPSILON_ATTR",
           "PLACEHOLDER_WITH_DEFAULT_LIST", "main", "run_main"]

# The batch-norm ops' input order, and where their epsilon is.
INPUT_ORDER = {
    "BatchNormWithGlobalNormalization": ["conv_op", "mean_op", "var_op", "beta_op",
                                         "gamma_op"],
    "FusedBatchNorm": ["conv_op", "gamma_op", "beta_op", "mean_op", "var_op"],
    "FusedBatchNormV3": ["conv_op", "gamma_op", "beta_op", "mean_op", "var_op"],
}
EPSILON_ATTR = {"BatchNormWithGlobalNormalization": "variance_epsilon",
                "FusedBatchNorm": "epsilon", "FusedBatchNormV3": "epsilon"}
# PlaceholderWithDefault nodes (matched by name substring) turned into bool Consts.
PLACEHOLDER_WITH_DEFAULT_LIST = {"keras_learning_phase": "False"}

_CONVS = ("Conv2D", "DepthwiseConv2dNative")


def optimize_for_inference(input_graph_def: Any, input_node_names: Sequence[str],
                           output_node_names: Sequence[str], placeholder_type_enum: Any,
                           toco_compatible: bool = False,
                           placeholder_to_const_names: Optional[Sequence[str]] = None
                           ) -> GraphDef:
    """The inference passes on a frozen graph (see the module docstring).

    `placeholder_type_enum` is the inputs' DataType enum (or one per input);
    `placeholder_to_const_names` adds "name=True|False" entries for bool placeholders.
    `toco_compatible=True` skips `fuse_resize_and_conv` (and so its pruning), as in TF.
    """
    graph_def = graph_io.as_graph_def_proto(input_graph_def)
    ensure_graph_is_valid(graph_def)
    optimized = convert_placeholder_to_const(graph_def, placeholder_to_const_names)
    optimized = strip_unused(optimized, input_node_names, output_node_names,
                             placeholder_type_enum)
    optimized = remove_training_nodes(optimized, output_node_names)
    optimized = fuse_decomposed_batch_norm(optimized)
    optimized = fold_batch_norms(optimized)
    if not toco_compatible:
        optimized = fuse_resize_and_conv(optimized, output_node_names)
    ensure_graph_is_valid(optimized)
    return optimized


def strtobool(val_str: str) -> bool:
    """"True"/"true" -> True, anything else False (with a warning unless "False"/"false")."""
    if val_str in ("True", "true"):
        return True
    if val_str not in ("False", "false"):
        tf_logging.warning("Wrong string values.       Supports False/false or True/true "
                           "only. val_str = %s", val_str)
    return False


def parse_entry(entry: str) -> Tuple[Optional[str], Optional[str]]:
    """"key=value" -> (key, value); no "=" -> (None, None)."""
    items = entry.split("=")
    if len(items) > 1:
        return items[0].strip(), items[1]
    return None, None


def parse_nodes_dict(nodes: Optional[Sequence[str]]) -> Dict[str, str]:
    """"key=value" entries as a dict (entries without "=" are dropped)."""
    out = {}
    for node in nodes or ():
        key, value = parse_entry(node)
        if key is not None:
            out[key] = value
    return out


def _node_map(graph_def: GraphDef) -> Dict[str, NodeDef]:
    node_map: Dict[str, NodeDef] = {}
    for node in graph_def.node:
        if node.name in node_map:
            raise ValueError("Duplicate node names detected for ", node.name)
        node_map[node.name] = node
    return node_map


def ensure_graph_is_valid(graph_def: Any) -> None:
    """ValueError for duplicate node names or an input naming a missing node."""
    graph_def = graph_io.as_graph_def_proto(graph_def)
    node_map = _node_map(graph_def)
    for node in graph_def.node:
        for input_name in node.input:
            if node_name_from_input(input_name) not in node_map:
                raise ValueError("Input for ", node.name, " not found: ", input_name)


def node_name_from_input(node_name: str) -> str:
    """The node an input refers to ("^a" and "a:1" -> "a")."""
    if node_name.startswith("^"):
        node_name = node_name[1:]
    m = re.search(r"(.*):\d+$", node_name)
    return m.group(1) if m else node_name


def node_from_map(node_map: Mapping[str, NodeDef], name: str) -> NodeDef:
    """`node_map`'s node for an input name; ValueError when absent."""
    stripped = node_name_from_input(name)
    if stripped not in node_map:
        raise ValueError("No node named '%s' found in map." % name)
    return node_map[stripped]


def values_from_const(node_def: NodeDef) -> np.ndarray:
    """A Const NodeDef's value as a numpy array (ValueError for other ops)."""
    if node_def.op != "Const":
        raise ValueError("Can not extract constant value from a node that is not Const. "
                         f"Got:\n{node_def}")
    return make_ndarray(node_def.attr["value"].tensor)


def scale_after_normalization(node: NodeDef) -> bool:
    if node.op == "BatchNormWithGlobalNormalization":
        return node.attr["scale_after_normalization"].b
    return True


def convert_placeholder_to_const(input_graph_def: Any,
                                 nodes_to_convert: Optional[Sequence[str]] = None
                                 ) -> GraphDef:
    """Bool Placeholder(WithDefault) nodes whose name contains a listed key become Consts
    of the listed value ("keras_learning_phase" -> False always, plus "name=value"
    entries of `nodes_to_convert`); the graph is returned as it is when none is listed."""
    input_graph_def = graph_io.as_graph_def_proto(input_graph_def)
    node_map = _node_map(input_graph_def)
    to_change = dict(PLACEHOLDER_WITH_DEFAULT_LIST)
    to_change.update(parse_nodes_dict(nodes_to_convert))
    # TF's condition (`not name and name not in map`) skips only empty names.
    if not [key for key in to_change if key or key in node_map]:
        return input_graph_def
    out = GraphDef()
    for node in input_graph_def.node:
        new = NodeDef()
        keys = [key for key in to_change if key in node.name] \
            if node.op in ("PlaceholderWithDefault", "Placeholder") else []
        if keys and node.attr["dtype"].type == dtypes.bool.as_datatype_enum:
            new.op = "Const"
            new.name = node.name
            new.attr["dtype"].CopyFrom(node.attr["dtype"])
            new.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(
                strtobool(to_change[keys[0]]), dtype=dtypes.bool, shape=[])))
        else:
            if keys:
                tf_logging.warning("Not converting %s: only bool placeholders are "
                                   "supported, got dtype %s", node.name, node.attr["dtype"])
            new.CopyFrom(node)
        out.node.append(new)
    return out


def _const_input(node_map: Mapping[str, NodeDef], node: NodeDef, role: str,
                 channels: int) -> Optional[np.ndarray]:
    """The batch norm's `role` input when it is a Const of shape [channels], else None
    (with TF's warning)."""
    op = node_from_map(node_map, node.input[INPUT_ORDER[node.op].index(role)])
    what = role[:-3]
    if op.op != "Const":
        tf_logging.warning("Didn't find expected %s Constant input to '%s', found %s "
                           "instead. Maybe because freeze_graph wasn't run first?",
                           what, node.name, op)
        return None
    value = values_from_const(op)
    if value.shape != (channels,):
        tf_logging.warning("Incorrect shape for %s, found %s, expected %s, for node %s",
                           what, value.shape, (channels,), node.name)
        return None
    return value


def _fold_one(node_map: Dict[str, NodeDef], node: NodeDef
              ) -> Optional[Tuple[List[str], List[NodeDef]]]:
    """The nodes one batch norm's folding removes and the ones it adds; None when its
    pattern does not match."""
    bias = add_op = None
    conv_op = node_from_map(node_map, node.input[INPUT_ORDER[node.op].index("conv_op")])
    if conv_op.op in ("BiasAdd", "Add", "AddV2"):
        add_op = conv_op
        conv_op = node_from_map(node_map, add_op.input[0])
        bias = node_from_map(node_map, add_op.input[1])
        if conv_op.op not in _CONVS:
            conv_op = node_from_map(node_map, add_op.input[1])
            bias = node_from_map(node_map, add_op.input[0])
    if bias is not None and bias.op != "Const":
        tf_logging.warning("The bias %s after the conv %s was not a constant. Maybe "
                           "because freeze_graph wasn't run first?", bias.name, conv_op.name)
        return None
    if conv_op.op not in _CONVS:
        tf_logging.warning("Didn't find expected Conv2D or DepthwiseConv2dNative input to "
                           "'%s'", node.name)
        return None
    weights_op = node_from_map(node_map, conv_op.input[1])
    if weights_op.op != "Const":
        tf_logging.warning("Didn't find expected conv Constant input to '%s', found %s "
                           "instead. Maybe because freeze_graph wasn't run first?",
                           conv_op.name, weights_op)
        return None
    weights = values_from_const(weights_op)
    channels = weights.shape[3] if conv_op.op == "Conv2D" \
        else weights.shape[2] * weights.shape[3]
    values = {}
    for role in ("mean_op", "var_op", "beta_op", "gamma_op"):
        values[role] = _const_input(node_map, node, role, channels)
        if values[role] is None:
            return None
        if role == "mean_op" and bias is not None:
            values[role] = values[role] - values_from_const(bias)
    mean_op = node_from_map(node_map, node.input[INPUT_ORDER[node.op].index("mean_op")])
    epsilon = node.attr[EPSILON_ATTR[node.op]].f
    # TF computes the scale in float64 through math.sqrt, then multiplies in float32.
    scale = 1.0 / np.sqrt((values["var_op"] + epsilon).astype(np.float64))
    if scale_after_normalization(node):
        scale = scale * values["gamma_op"]
    offset = (-values["mean_op"] * scale) + values["beta_op"]
    # Conv2D weights are [h, w, in, out]; depthwise [h, w, in, multiplier] with output
    # channel in * multiplier + m: both scale along the flattened last two axes.
    flat = weights.reshape(weights.shape[:2] + (-1,)) if conv_op.op != "Conv2D" \
        else weights
    scaled = (flat * scale).astype(weights.dtype).reshape(weights.shape)
    scaled_weights = NodeDef(name=conv_op.name + "_weights", op="Const")
    scaled_weights.attr["dtype"].CopyFrom(weights_op.attr["dtype"])
    scaled_weights.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(
        scaled, weights.dtype, weights.shape)))
    new_conv = NodeDef()
    new_conv.CopyFrom(conv_op)
    for i, name in enumerate(new_conv.input):
        if name == weights_op.name:
            new_conv.input[i] = scaled_weights.name
    offset_op = NodeDef(name=conv_op.name + "_bn_offset", op="Const")
    offset_op.attr["dtype"].CopyFrom(mean_op.attr["dtype"])
    offset_value = offset.astype(values["mean_op"].dtype)
    offset_op.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(
        offset_value, offset_value.dtype, offset_value.shape)))
    bias_add = NodeDef(name=node.name, op="BiasAdd", input=[new_conv.name, offset_op.name])
    bias_add.attr["T"].CopyFrom(conv_op.attr["T"])
    bias_add.attr["data_format"].CopyFrom(conv_op.attr["data_format"])
    skipped = [node.name, weights_op.name, conv_op.name]
    if add_op is not None:
        skipped.append(add_op.name)
    return skipped, [scaled_weights, new_conv, offset_op, bias_add]


def fold_batch_norms(input_graph_def: Any) -> GraphDef:
    """Folds constant batch norms into the convolutions before them (module docstring).

    The folded nodes leave the graph (so do control inputs on them); the new weights,
    convolution, offset and BiasAdd (named as the batch norm) come at the end.
    """
    return _replace_matches(graph_io.as_graph_def_proto(input_graph_def),
                            lambda node: node.op in INPUT_ORDER, _fold_one)


def _replace_matches(input_graph_def: GraphDef, candidate: Callable[[NodeDef], bool],
                     rewrite: Callable[[Dict[str, NodeDef], NodeDef],
                                       Optional[Tuple[List[str], List[NodeDef]]]]
                     ) -> GraphDef:
    """The graph with every `rewrite(node_map, node)` of a `candidate` node applied: the
    names it returns leave the graph (so do control inputs on them), the nodes it returns
    come at the end, as TF's passes order them."""
    node_map = _node_map(input_graph_def)
    skip: Dict[str, bool] = {}
    new_ops: List[NodeDef] = []
    for node in input_graph_def.node:
        if candidate(node):
            replaced = rewrite(node_map, node)
            if replaced is not None:
                skip.update(dict.fromkeys(replaced[0], True))
                new_ops.extend(replaced[1])
    out = GraphDef()
    for node in input_graph_def.node:
        if node.name in skip:
            continue
        new = NodeDef()
        new.CopyFrom(node)
        new.input[:] = [i for i in node.input if not i.startswith("^") or i[1:] not in skip]
        out.node.append(new)
    out.node.extend(new_ops)
    out.versions.CopyFrom(input_graph_def.versions)
    return out


def fuse_resize_and_conv(input_graph_def: Any, output_node_names: Sequence[str]) -> GraphDef:
    """Fuses a Conv2D reading a MirrorPad (of a ResizeBilinear) or a ResizeBilinear into
    one FusedPadConv2D / FusedResizeAndPadConv2D named as the convolution, as TF does
    (a resize without a pad gets a zero "<conv>_dummy_paddings" Const and mode REFLECT;
    the resize's half_pixel_centers is not carried, as in TF). The replaced nodes that
    nothing else reads leave the graph (one level, as TF's reference counts); the new
    nodes come at the end."""
    input_graph_def = graph_io.as_graph_def_proto(input_graph_def)
    node_map = _node_map(input_graph_def)
    references: Dict[str, int] = {}
    for node in input_graph_def.node:
        for input_name in node.input:
            name = node_name_from_input(input_name)
            references[name] = references.get(name, 0) + 1
    for name in output_node_names:
        references[name] = references.get(name, 0) + 1
    new_ops: List[NodeDef] = []
    for conv in input_graph_def.node:
        if conv.op != "Conv2D":
            continue
        fused = _fuse_one(node_map, conv, references)
        if fused is not None:
            new_ops.extend(fused)
    out = GraphDef()
    for node in input_graph_def.node:
        if references.get(node.name, 0) >= 1:
            new = NodeDef()
            new.CopyFrom(node)
            out.node.append(new)
    out.node.extend(new_ops)
    return out


def _fuse_one(node_map: Mapping[str, NodeDef], conv: NodeDef,
              references: Dict[str, int]) -> Optional[List[NodeDef]]:
    """The nodes replacing Conv2D `conv` (its reference counts updated), or None when no
    MirrorPad or ResizeBilinear feeds it."""
    input_op = node_from_map(node_map, conv.input[0])
    mirror_pad = resize = None
    if input_op.op == "MirrorPad":
        mirror_pad = input_op
        resize = node_from_map(node_map, mirror_pad.input[0])
        if resize.op != "ResizeBilinear":
            resize = None
    elif input_op.op == "ResizeBilinear":
        resize = input_op
    if mirror_pad is None and resize is None:
        return None
    references[conv.name] = 0
    for replaced in (mirror_pad, resize):
        if replaced is not None:
            references[replaced.name] = references.get(replaced.name, 0) - 1
    new_ops = []
    fused = NodeDef(name=conv.name,
                    op="FusedResizeAndPadConv2D" if resize is not None else "FusedPadConv2D")
    if mirror_pad is not None:
        paddings_name = mirror_pad.input[1]
        mode = mirror_pad.attr["mode"]
    else:
        paddings = NodeDef(name=conv.name + "_dummy_paddings", op="Const")
        paddings.attr["dtype"].CopyFrom(AttrValue(type=dtypes.int32.as_datatype_enum))
        paddings.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(
            [0] * 8, dtypes.int32, [4, 2])))
        new_ops.append(paddings)
        paddings_name = paddings.name
        mode = AttrValue(s=b"REFLECT")
    if resize is not None:
        fused.input.extend([resize.input[0], resize.input[1], paddings_name, conv.input[1]])
        fused.attr["resize_align_corners"].CopyFrom(resize.attr["align_corners"])
    else:
        fused.input.extend([mirror_pad.input[0], paddings_name, conv.input[1]])
    fused.attr["T"].CopyFrom(conv.attr["T"])
    fused.attr["mode"].CopyFrom(mode)
    fused.attr["strides"].CopyFrom(conv.attr["strides"])
    fused.attr["padding"].CopyFrom(conv.attr["padding"])
    new_ops.append(fused)
    return new_ops


def get_const_dim_count(node_def: NodeDef) -> int:
    """The rank of a Const NodeDef's value."""
    return values_from_const(node_def).ndim


def _const_rank(node: NodeDef, rank: int) -> bool:
    return node.op == "Const" and get_const_dim_count(node) == rank


def fuse_decomposed_batch_norm(input_graph_def: Any) -> GraphDef:
    """TF's pass: Add(Mul(x, scale), Sub(beta, Mul(mean, scale))) (either order of the
    Add's inputs), scale = Mul(Rsqrt(Add(variance, epsilon)), gamma) or the Rsqrt alone,
    of 1-D Consts and a scalar epsilon, where x is or reads an NHWC Conv2D /
    DepthwiseConv2dNative, becomes one FusedBatchNorm (is_training False) named as the Add;
    without gamma a Const of ones "<scale's scope>/gamma" is made. Only the "Add" op type
    matches (TF 1.x graphs), not AddV2. The replaced nodes (and control inputs on them)
    leave; the new ones come at the end."""
    return _replace_matches(graph_io.as_graph_def_proto(input_graph_def),
                            lambda node: node.op == "Add", _fuse_decomposed)


def _conv_data_format(node_map: Mapping[str, NodeDef], data: NodeDef) -> Optional[AttrValue]:
    """The data_format of the convolution that is, or is an input of, `data`."""
    if data.op in _CONVS:
        return data.attr["data_format"]
    for name in data.input:
        source = node_from_map(node_map, name)
        if source.op in _CONVS:
            return source.attr["data_format"]
    return None


def _fuse_decomposed(node_map: Mapping[str, NodeDef], add: NodeDef
                     ) -> Optional[Tuple[List[str], List[NodeDef]]]:
    """The nodes one decomposed batch norm's fusion removes and the ones it adds; None
    when `add` is not one (TF's checks, in TF's order)."""
    first, second = (node_from_map(node_map, name) for name in add.input[:2])
    if first.op == "Mul" and second.op == "Sub":
        data_mul, sub = first, second
    elif first.op == "Sub" and second.op == "Mul":
        sub, data_mul = first, second
    else:
        return None
    data = node_from_map(node_map, data_mul.input[0])
    scale = node_from_map(node_map, data_mul.input[1])
    data_format = _conv_data_format(node_map, data)
    if data_format is None or data_format.s != b"NHWC":
        return None
    gamma: Optional[NodeDef] = None
    if scale.op == "Rsqrt":
        rsqrt = scale
    elif scale.op == "Mul":
        rsqrt = node_from_map(node_map, scale.input[0])
        gamma = node_from_map(node_map, scale.input[1])
        if rsqrt.op != "Rsqrt" or not _const_rank(gamma, 1):
            return None
    else:
        return None
    beta = node_from_map(node_map, sub.input[0])
    mean_mul = node_from_map(node_map, sub.input[1])
    if mean_mul.op != "Mul" or not _const_rank(beta, 1):
        return None
    if scale != node_from_map(node_map, mean_mul.input[1]):
        return None
    mean = node_from_map(node_map, mean_mul.input[0])
    if not _const_rank(mean, 1):
        return None
    variance_add = node_from_map(node_map, rsqrt.input[0])
    if variance_add.op != "Add":
        return None
    variance = node_from_map(node_map, variance_add.input[0])
    epsilon = node_from_map(node_map, variance_add.input[1])
    if not _const_rank(epsilon, 0) or not _const_rank(variance, 1):
        return None
    skipped = [add.name, data_mul.name, sub.name, mean_mul.name, scale.name]
    if scale.op != "Rsqrt":
        skipped.append(rsqrt.name)
    skipped.append(variance_add.name)
    new_ops = []
    if gamma is None:
        scope = re.search(r"(.*)/(.*)", scale.name)
        gamma = NodeDef(name=(scope.group(1) if scope else scale.name) + "/gamma",
                        op="Const")
        gamma.attr["dtype"].CopyFrom(beta.attr["dtype"])
        beta_value = values_from_const(beta)
        gamma.attr["value"].CopyFrom(AttrValue(tensor=make_tensor_proto(
            1, beta_value.dtype.type, beta_value.shape, allow_broadcast=True)))
        new_ops.append(gamma)
    fused = NodeDef(name=add.name, op="FusedBatchNorm",
                    input=[data.name, gamma.name, beta.name, mean.name, variance.name])
    fused.attr["T"].CopyFrom(add.attr["T"])
    fused.attr["is_training"].CopyFrom(AttrValue(b=False))
    fused.attr["epsilon"].CopyFrom(AttrValue(f=float(values_from_const(epsilon))))
    fused.attr["data_format"].CopyFrom(data_format)
    new_ops.append(fused)
    return skipped, new_ops


def _parse_placeholder_types(values: str) -> Any:
    types = [int(value) for value in values.split(",")]
    return types if len(types) > 1 else types[0]


def main(flags: argparse.Namespace) -> int:
    """The script's body; -1 (after printing why) when the input file is missing."""
    if not os.path.exists(flags.input):
        print("Input graph file '" + flags.input + "' does not exist!")
        return -1
    with open(flags.input, "rb") as f:
        data = f.read()
    input_graph_def = GraphDef.FromString(data) if flags.frozen_graph \
        else parse_text(data.decode("utf-8"), GraphDef)
    output_graph_def = optimize_for_inference(
        input_graph_def, flags.input_names.split(","), flags.output_names.split(","),
        _parse_placeholder_types(flags.placeholder_type_enum), flags.toco_compatible,
        flags.placeholder_to_const_names.split(","))
    if flags.frozen_graph:
        with open(flags.output, "wb") as f:
            f.write(output_graph_def.SerializeToString())
    else:
        write_graph(output_graph_def, os.path.dirname(flags.output),
                    os.path.basename(flags.output))
    return 0


def run_main(argv: Optional[Sequence[str]] = None) -> int:
    """`python -m tensorflow.python.tools.optimize_for_inference --input=... ...`."""
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    for flag in ("input", "output", "input_names", "output_names",
                 "placeholder_to_const_names"):
        parser.add_argument("--" + flag, type=str, default="")
    parser.add_argument("--frozen_graph", nargs="?", const=True, type="bool", default=True)
    parser.add_argument("--placeholder_type_enum", type=str,
                        default=str(dtypes.float32.as_datatype_enum))
    # TF declares it type=bool: any non-empty value (even "False") is True.
    parser.add_argument("--toco_compatible", type=bool, default=False)
    flags, unparsed = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if unparsed:
        raise SystemExit(f"optimize_for_inference: unknown flags {unparsed}")
    return main(flags)


if __name__ == "__main__":
    sys.exit(run_main())
