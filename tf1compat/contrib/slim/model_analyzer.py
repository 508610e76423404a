"""`slim.model_analyzer` (TF 1.15): sizes of a graph's op outputs and of variables.

`analyze_vars` prints each variable as `name (dtype shape) [size, bytes: n]` and the
totals, `analyze_ops` each op as `name \t-> (dtype shape), ... [size]`, both between
TF's `---------` rulers, to stdout; both return the totals.
"""

from __future__ import annotations

from typing import Any, Iterable, Tuple

__all__ = ["tensor_description", "analyze_ops", "analyze_vars"]


def tensor_description(var: Any) -> str:
    """`(float32 1x8x8x1024)`: the dtype's name and the static dims joined by 'x'."""
    sizes = var.get_shape()
    return "(" + str(var.dtype.name) + " " + "x".join(str(size) for size in sizes) + ")"


def analyze_ops(graph: Any, print_info: bool = False) -> int:
    """The number of elements of all op outputs whose shape is known (unknown: 0)."""
    if print_info:
        print("---------")
        print("Operations: name -> (type shapes) [size]")
        print("---------")
    total_size = 0
    for op in graph.get_operations():
        op_size = 0
        shapes = []
        for output in op.outputs:
            shape = output.get_shape()
            op_size += shape.num_elements() or 0
            if shape:
                shapes.append(tensor_description(output))
        if print_info:
            print(op.name, "\t->", ", ".join(shapes), "[" + str(op_size) + "]")
        total_size += op_size
    return total_size


def analyze_vars(variables: Iterable[Any], print_info: bool = False) -> Tuple[int, int]:
    """(total elements, total bytes) of `variables`."""
    if print_info:
        print("---------")
        print("Variables: name (type shape) [size]")
        print("---------")
    total_size = 0
    total_bytes = 0
    for var in variables:
        size = var.get_shape().num_elements() or 0
        nbytes = size * var.dtype.size
        total_size += size
        total_bytes += nbytes
        if print_info:
            print(var.name, tensor_description(var), "[%d, bytes: %d]" % (size, nbytes))
    if print_info:
        print("Total size of variables: %d" % total_size)
        print("Total bytes of variables: %d" % total_bytes)
    return total_size, total_bytes
