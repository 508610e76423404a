"""`tf.keras.utils.model_to_dot` / `plot_model`: a model's layer graph as a pydot graph
and an image drawn by Graphviz.

pydot (or its forks pydot_ng / pydotplus, preferred in that order as tf-keras does) and
Graphviz are optional: tf1compat does not depend on them. Without pydot, `model_to_dot`
raises tf-keras's ImportError, and `plot_model` without pydot or without Graphviz's `dot`
program raises its ImportError (in an IPython session it prints the message and returns
None instead). With them the graph is tf-keras's: one record-shaped node per layer
(named by the layer's id, labelled `name|Class`, with shapes, dtypes, activations and
trainability on request), an edge per connection, nested models as dashed clusters
with `expand_nested`.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Any, Dict, List, Optional

from tf1compat.keras.utils.io_utils import print_msg

__all__ = ["model_to_dot", "plot_model"]

_PYDOT_MESSAGE = "You must install pydot (`pip install pydot`) for model_to_dot to work."
_GRAPHVIZ_MESSAGE = ("You must install pydot (`pip install pydot`) and install graphviz (see "
                     "instructions at https://graphviz.gitlab.io/download/) for plot_model to "
                     "work.")


def _pydot() -> Any:
    """The first of pydot_ng, pydotplus and pydot that imports, else None."""
    for name in ("pydot_ng", "pydotplus", "pydot"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def _graphviz_works(pydot: Any) -> bool:
    """Whether Graphviz can render (an empty graph), as tf-keras checks."""
    try:
        pydot.Dot.create(pydot.Dot())
        return True
    except (OSError, FileNotFoundError):
        return False
    except Exception as e:  # noqa: BLE001 - pydot_ng's InvocationException
        if type(e).__name__ == "InvocationException":
            return False
        raise


def _check_built(model: Any) -> None:
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")


def _layer_index_bounds(model: Any, layer_range: Any) -> List[int]:
    """[first, last + 1] of the layers whose names match the two patterns."""
    if len(layer_range) != 2:
        raise ValueError("layer_range must be of shape (2,). Received: layer_range = "
                         f"{layer_range} of length {len(layer_range)}")
    if not isinstance(layer_range[0], str) or not isinstance(layer_range[1], str):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    names = [layer.name for layer in model.layers]
    lower = [i for i, name in enumerate(names) if re.match(layer_range[0], name)]
    upper = [i for i, name in enumerate(names) if re.match(layer_range[1], name)]
    if not lower or not upper:
        raise ValueError("Passed layer_names do not match the layer names in the model. "
                         f"Received: {layer_range}")
    if min(lower) > max(upper):
        bounds = [min(upper), max(lower) + 1]
    else:
        bounds = [min(lower), max(upper) + 1]
    if bounds[0] < 0 or bounds[1] > len(model.layers):
        raise ValueError(f"Both values in layer_range should be in range (0, "
                         f"{len(model.layers)}. Received: {bounds}")
    return bounds


def _format_shape(shape: Any) -> str:
    return str(shape).replace("{", r"\{").replace("}", r"\}")


def _label(layer: Any, name: str, class_name: str, show_shapes: bool, show_dtype: bool,
           show_layer_names: bool, show_layer_activations: bool, show_trainable: bool) -> str:
    """A layer's record label: fields added in tf-keras's order."""
    label = class_name
    activation = getattr(layer, "activation", None) if show_layer_activations else None
    if activation is not None:
        activation_name = getattr(activation, "name", None) or getattr(
            activation, "__name__", None) or str(activation)
        label = "{%s|%s}" % (label, activation_name)
    if show_layer_names:
        label = f"{name}|{label}"
    if show_dtype:
        label = f"{label}|{'?' if layer.dtype is None else layer.dtype}"
    if show_shapes:
        try:
            outputs = _format_shape(layer.output_shape)
        except AttributeError:
            outputs = "?"
        try:
            inputs = _format_shape(layer.input_shape)
        except AttributeError:
            inputs = "?"
        label = "{%s}|{input:|output:}|{{%s}|{%s}}" % (label, inputs, outputs)
    if show_trainable:
        label = f"{'T' if layer.trainable else 'NT'}|{label}"
    return label


def _is_functional(layer: Any) -> bool:
    return bool(getattr(layer, "_is_graph_network", False))


def _wrapped_model(layer: Any) -> bool:
    from tf1compat.keras.layers.wrappers import Wrapper
    return isinstance(layer, Wrapper) and _is_functional(layer.layer)


def model_to_dot(model: Any, show_shapes: bool = False, show_dtype: bool = False,
                 show_layer_names: bool = True, rankdir: str = "TB",
                 expand_nested: bool = False, dpi: int = 96, subgraph: bool = False,
                 layer_range: Any = None, show_layer_activations: bool = False,
                 show_trainable: bool = False) -> Any:
    """The model's layer graph as a `pydot.Dot` (a `pydot.Cluster` with `subgraph`)."""
    from tf1compat.keras.engine.sequential import Sequential
    from tf1compat.keras.layers.wrappers import Wrapper
    from tf1compat.keras.saving.model_config import _class_name
    _check_built(model)
    pydot = _pydot()
    if pydot is None:
        raise ImportError(_PYDOT_MESSAGE)
    if subgraph:
        dot = pydot.Cluster(style="dashed", graph_name=model.name)
        dot.set("label", model.name)
        dot.set("labeljust", "l")
    else:
        dot = pydot.Dot()
        dot.set("rankdir", rankdir)
        dot.set("concentrate", True)
        dot.set("dpi", dpi)
        dot.set_node_defaults(shape="record")
    bounds = _layer_index_bounds(model, layer_range) if layer_range is not None else None
    if not _is_functional(model) and not isinstance(model, Sequential):
        dot.add_node(pydot.Node(str(id(model)), label=model.name))
        return dot
    layers = model.layers
    if isinstance(model, Sequential):
        layers = list(model._flatten_layers(include_self=False, recursive=False))
    nested = dict(show_shapes=show_shapes, show_dtype=show_dtype,
                  show_layer_names=show_layer_names, rankdir=rankdir,
                  expand_nested=expand_nested, subgraph=True,
                  show_layer_activations=show_layer_activations,
                  show_trainable=show_trainable)
    first: Dict[str, Any] = {}
    last: Dict[str, Any] = {}
    for i, layer in enumerate(layers):
        if bounds and (i < bounds[0] or i >= bounds[1]):
            continue
        name, class_name = layer.name, _class_name(layer)
        if isinstance(layer, Wrapper):
            if expand_nested and _is_functional(layer.layer):
                cluster = model_to_dot(layer.layer, **nested)
                nodes = cluster.get_nodes()
                first[layer.layer.name], last[layer.layer.name] = nodes[0], nodes[-1]
                dot.add_subgraph(cluster)
            else:
                name = f"{name}({layer.layer.name})"
                class_name = f"{class_name}({_class_name(layer.layer)})"
        if expand_nested and _is_functional(layer):
            cluster = model_to_dot(layer, **nested)
            nodes = cluster.get_nodes()
            first[layer.name], last[layer.name] = nodes[0], nodes[-1]
            dot.add_subgraph(cluster)
            continue
        dot.add_node(pydot.Node(str(id(layer)), label=_label(
            layer, name, class_name, show_shapes, show_dtype, show_layer_names,
            show_layer_activations, show_trainable)))
    _add_edges(pydot, dot, model, layers, bounds, expand_nested, first, last)
    return dot


def _add_edges(pydot: Any, dot: Any, model: Any, layers: List[Any], bounds: Any,
               expand_nested: bool, first: Dict[str, Any], last: Dict[str, Any]) -> None:
    """An edge from each inbound layer of each of the model's nodes (into or out of a
    nested model's cluster when it is expanded)."""
    def add_edge(src: str, dst: str) -> None:
        if not dot.get_edge(src, dst):
            dot.add_edge(pydot.Edge(src, dst))
    for i, layer in enumerate(layers):
        if bounds and (i <= bounds[0] or i >= bounds[1]):
            continue
        layer_id = str(id(layer))
        for index, node in enumerate(layer._inbound_nodes):
            if (layer.name, index) not in model._network_nodes:
                continue
            for inbound, _, _, _ in node.iterate_inbound():
                inbound_id = str(id(inbound))
                if not expand_nested or (not _is_functional(inbound) and
                                         not _wrapped_model(inbound)):
                    if expand_nested and _is_functional(layer):
                        add_edge(inbound_id, first[layer.name].get_name())
                    elif expand_nested and _wrapped_model(layer):
                        add_edge(inbound_id, layer_id)
                        add_edge(layer_id, first[layer.layer.name].get_name())
                    else:
                        add_edge(inbound_id, layer_id)
                elif _is_functional(inbound):
                    target = first[layer.name].get_name() if _is_functional(layer) \
                        else layer_id
                    add_edge(last[inbound.name].get_name(), target)
                else:
                    add_edge(last[inbound.layer.name].get_name(), layer_id)


def plot_model(model: Any, to_file: Any = "model.png", show_shapes: bool = False,
               show_dtype: bool = False, show_layer_names: bool = True, rankdir: str = "TB",
               expand_nested: bool = False, dpi: int = 96, layer_range: Any = None,
               show_layer_activations: bool = False, show_trainable: bool = False
               ) -> Optional[Any]:
    """Draws the model's graph to `to_file` (format from its extension, png without one);
    returns an IPython Image when IPython is installed (not for pdf)."""
    _check_built(model)
    pydot = _pydot()
    if pydot is None or not _graphviz_works(pydot):
        if "IPython.core.magics.namespace" in sys.modules:
            print_msg(_GRAPHVIZ_MESSAGE)
            return None
        raise ImportError(_GRAPHVIZ_MESSAGE)
    dot = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                       show_layer_names=show_layer_names, rankdir=rankdir,
                       expand_nested=expand_nested, dpi=dpi, layer_range=layer_range,
                       show_layer_activations=show_layer_activations,
                       show_trainable=show_trainable)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    dot.write(to_file, format=extension)
    if extension == "pdf":
        return None
    try:
        from IPython import display
    except ImportError:
        return None
    return display.Image(filename=to_file)
