"""Receptive fields of conv nets from their graphs (TF 1.15 contrib/receptive_field
receptive_field.py).

From the output node back to the input node (nodes in decreasing compute order), each
node's receptive field at its inputs follows from the one at its output: size
`stride * size + kernel - stride`, effective stride `stride * stride_out`, effective
padding `stride * padding_out + padding`. Where paths join, the largest receptive field
wins, after checking that the paths agree on the effective stride and on the center
(`(size - 1) / 2 - padding`): a graph where they differ is not aligned (ValueError). A
padding that depends on the unknown input size makes the effective padding None and skips
the checks."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import numpy as np

from tf1compat.contrib.receptive_field.compute_order import get_compute_order
from tf1compat.contrib.receptive_field.layer_parameters import get_layer_params
from tf1compat.framework.graph import Graph
from tf1compat.framework.tensor import Tensor
from tf1compat.graphdef.graph_io import as_graph_def_proto

__all__ = ["ReceptiveField", "compute_receptive_field_from_graph_def"]


class ReceptiveField:
    """A network's receptive field: `size`, effective `stride` and effective `padding`,
    each an array over the spatial directions (x, y)."""

    def __init__(self, size: Any, stride: Any, padding: Any):
        self.size = np.asarray(size)
        self.stride = np.asarray(stride)
        self.padding = np.asarray(padding)

    def _axes(self, coordinates: Any, axis: Any, what: str) -> tuple:
        axis = list(range(self.size.size) if axis is None else axis)
        coordinates = np.asarray(coordinates)
        if coordinates.shape[-1] != len(axis):
            raise ValueError("Dimensionality of the %s (%d) does not match dimensionality "
                             "of `axis` (%d)" % (what, coordinates.shape[-1], len(axis)))
        return coordinates, axis

    def compute_input_center_coordinates(self, y: Any, axis: Any = None) -> np.ndarray:
        """The input coordinates of the centers of the receptive fields of features at
        coordinates `y` (shape (..., len(axis)))."""
        y, axis = self._axes(y, axis, "feature coordinates `y`")
        return -self.padding[axis] + y * self.stride[axis] + (self.size[axis] - 1) / 2

    def compute_feature_coordinates(self, x: Any, axis: Any = None) -> np.ndarray:
        """The feature coordinates whose receptive fields are centered at input
        coordinates `x` (the inverse of compute_input_center_coordinates)."""
        x, axis = self._axes(x, axis, "input center coordinates `x`")
        return (x + self.padding[axis] + (1 - self.size[axis]) / 2) / self.stride[axis]

    def __iter__(self) -> Any:
        return iter(np.concatenate([self.size, self.stride, self.padding]))


class _Field:
    """The receptive field (per direction) at one node's output, seen from the output."""

    def __init__(self, size: Any, stride: Any, padding: Any):
        self.size, self.stride, self.padding = list(size), list(stride), list(padding)


def _check_aligned(known: _Field, new: _Field) -> None:
    for i, direction in enumerate(("horizontal", "vertical")):
        if known.stride[i] != new.stride[i]:
            raise ValueError("Graph is not aligned since effective stride from different "
                             f"paths is different in {direction} direction")
    for i, direction in enumerate(("horizontal", "vertical")):
        if (known.size[i] - 1) / 2 - known.padding[i] != \
                (new.size[i] - 1) / 2 - new.padding[i]:
            raise ValueError("Graph is not aligned since center shift from different "
                             f"paths is different in {direction} direction")


def compute_receptive_field_from_graph_def(graph_def: Any, input_node: Any, output_node: Any,
                                           stop_propagation: Optional[Sequence[str]] = None,
                                           input_resolution: Optional[Sequence[int]] = None
                                           ) -> ReceptiveField:
    """The receptive field of `output_node` with respect to `input_node` (names or
    tensors) in a Graph or GraphDef. Inputs whose names start with one of
    `stop_propagation` are not followed; `input_resolution` ([height, width]) makes
    SAME paddings exact."""
    if isinstance(graph_def, Graph):
        graph_def = graph_def.as_graph_def()
    graph_def = as_graph_def_proto(graph_def)
    if isinstance(input_node, Tensor):
        input_node = input_node.op.name
    if isinstance(output_node, Tensor):
        output_node = output_node.op.name
    stop_propagation = stop_propagation or []
    node_info, name_to_node = get_compute_order(graph_def, input_node_name=input_node,
                                                input_node_size=input_resolution)
    fields: Dict[str, _Field] = {output_node: _Field((1, 1), (1, 1), (0, 0))}
    found_output = False
    undefined_padding = False
    for _, (_, node, _, _) in sorted(node_info.items(), key=lambda item: -item[1].order):
        if not node:
            continue
        if node.name == input_node:
            break
        found_output = found_output or node.name == output_node
        if not found_output or node.name not in fields:
            continue
        kernel_x, kernel_y, stride_x, stride_y, padding_x, padding_y, _, _ = \
            get_layer_params(node, name_to_node, node_info[node.name].input_size)
        # once any padding is unknown, effective paddings stay unknown (TF's flag is
        # never reset)
        undefined_padding = undefined_padding or padding_x is None or padding_y is None
        out = fields[node.name]
        new = _Field(
            (stride_x * out.size[0] + kernel_x - stride_x,
             stride_y * out.size[1] + kernel_y - stride_y),
            (stride_x * out.stride[0], stride_y * out.stride[1]),
            (None, None) if undefined_padding else
            (stride_x * out.padding[0] + padding_x, stride_y * out.padding[1] + padding_y))
        for name in node.input:
            if any(name.startswith(stop) for stop in stop_propagation) or \
                    name.startswith("^"):
                continue
            if name not in name_to_node:
                # as TF: an input named with its output index ("concat:1") is not looked up
                raise KeyError(name)
            known = fields.get(name)
            if known is None:
                fields[name] = _Field(new.size, new.stride, new.padding)
                continue
            if not undefined_padding:
                _check_aligned(known, new)
            for i in range(2):
                if known.size[i] < new.size[i]:
                    known.size[i], known.stride[i], known.padding[i] = \
                        new.size[i], new.stride[i], new.padding[i]
    if not found_output:
        raise ValueError("Output node was not found")
    if input_node not in fields:
        raise ValueError("Input node was not found")
    field = fields[input_node]
    return ReceptiveField(field.size, field.stride, field.padding)
