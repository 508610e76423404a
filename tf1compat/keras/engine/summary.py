"""`Model.summary()`: tf-keras's table of layers, output shapes and parameter counts.

Sequential-like models (one node per depth, one input per node) get three columns;
other functional models add "Connected to". Cells too wide for their column wrap onto
continuation lines (at "),"-style breaks where possible), and the totals show the
weights' memory size, as tf-keras prints them.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from tf1compat.util import nest


def count_params(weights: Sequence[Any]) -> int:
    """The number of scalars in the (distinct) weights; unknown dimensions count 0."""
    unique = {id(w): w for w in weights}.values()
    return int(sum(np.prod([d or 0 for d in w.shape.as_list()]) for w in unique
                   if hasattr(w, "shape")))


def weight_memory_size(weights: Sequence[Any]) -> int:
    """Bytes taken by the (distinct, fully defined) weights."""
    total = 0
    for w in {id(w): w for w in weights}.values():
        if not hasattr(w, "shape") or None in w.shape.as_list():
            continue
        total += int(np.prod(w.shape.as_list())) * w.dtype.size
    return total


def readable_memory_size(size: float) -> str:
    for unit in ("Byte", "KB", "MB", "GB", "TB", "PB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _is_sequential_like(model: Any) -> bool:
    if type(model).__name__ == "Sequential" or not model._is_graph_network:
        return True
    nodes: List[Any] = []
    for depth_nodes in model._nodes_by_depth.values():
        if len(depth_nodes) > 1 or (len(depth_nodes) == 1 and
                                    len(nest.flatten(depth_nodes[0].keras_inputs)) > 1):
            return False
        nodes += depth_nodes
    for layer in model.layers:
        if sum(1 for node in layer._inbound_nodes if node in nodes) > 1:
            return False
    return True


def _print_row(fields: Sequence[Any], positions: Sequence[int],
               print_fn: Callable[[str], Any]) -> None:
    left = [str(x) for x in fields]
    while any(left):
        line = ""
        for col in range(len(left)):
            start = positions[col - 1] if col > 0 else 0
            end = positions[col]
            last = col == len(positions) - 1
            space = 0 if last else 2
            cutoff = end - start - space - (0 if last else 1)
            fit = left[col][:cutoff]
            # Prefer breaking a long cell right after a "),"-style separator.
            breaks = [fit.find(sep) + len(sep) for sep in ("),", "},", "],", "',")
                      if fit.find(sep) >= 0]
            if breaks:
                cutoff = min(breaks)
                fit = fit[:cutoff]
            if col == 0:
                line += " "
            line += fit + " " * space
            left[col] = left[col][cutoff:]
            line += " " * (positions[col] - len(line))
        print_fn(line)


def _shape_text(layer: Any) -> Any:
    try:
        return layer.output_shape
    except AttributeError:
        return "multiple"
    except RuntimeError:
        return "?"


def print_summary(model: Any, line_length: Optional[int] = None, positions: Any = None,
                  print_fn: Optional[Callable[[str], Any]] = None) -> None:
    """Prints `model`'s summary table (tf-keras's layout)."""
    print_fn = print_fn or print
    sequential_like = _is_sequential_like(model)
    if sequential_like:
        line_length = line_length or 65
        positions = list(positions or [0.45, 0.85, 1.0])
        header = ["Layer (type)", "Output Shape", "Param #"]
        relevant_nodes: List[Any] = []
    else:
        line_length = line_length or 98
        positions = list(positions or [0.3, 0.6, 0.70, 1.0])
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        relevant_nodes = [n for nodes in model._nodes_by_depth.values() for n in nodes]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _print_row(header, positions, print_fn)
    print_fn("=" * line_length)
    layers = model.layers
    for index, layer in enumerate(layers):
        name = f"{layer.name} ({_class_name(layer)})"
        if sequential_like:
            if not layer.built and not getattr(layer, "_is_graph_network", False):
                params: Any = "0 (unused)"
            else:
                params = layer.count_params()
            fields = [name, _shape_text(layer), params]
        else:
            connections = []
            for node in layer._inbound_nodes:
                if relevant_nodes and node not in relevant_nodes:
                    continue
                for inbound_layer, node_index, tensor_index, _ in node.iterate_inbound():
                    connections.append(f"{inbound_layer.name}[{node_index}][{tensor_index}]")
            fields = [name, _shape_text(layer), layer.count_params(), connections]
        _print_row(fields, positions, print_fn)
        if index != len(layers) - 1 or True:
            print_fn(" " * line_length)
    print_fn("=" * line_length)
    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    trainable_size = weight_memory_size(trainable)
    non_trainable_size = weight_memory_size(non_trainable)
    trainable_count, non_trainable_count = count_params(trainable), count_params(non_trainable)
    print_fn(f"Total params: {trainable_count + non_trainable_count} "
             f"({readable_memory_size(trainable_size + non_trainable_size)})")
    print_fn(f"Trainable params: {trainable_count} ({readable_memory_size(trainable_size)})")
    print_fn(f"Non-trainable params: {non_trainable_count} "
             f"({readable_memory_size(non_trainable_size)})")
    print_fn("_" * line_length)


def _class_name(layer: Any) -> str:
    """The class a summary row names: a `Model(inputs, outputs)` is tf-keras's
    `Functional` instance (Model's `__new__` makes one); subclasses keep their names."""
    from tf1compat.keras.engine.training import Model
    if type(layer) is Model and getattr(layer, "_is_graph_network", False):
        return "Functional"
    return type(layer).__name__
