"""`tensorflow.python.tools.strip_unused_lib`: cut a GraphDef down to inputs -> outputs.

The named input nodes become Placeholders of the given dtype (keeping their `shape` and
`_output_shapes` attrs), so whatever only fed them (a decoding or preprocessing front end)
drops out, and `extract_sub_graph` keeps what the outputs need. TF's script
`tensorflow.python.tools.strip_unused` (`tf1compat run -m ... --input_graph=g.pb
--input_binary --output_graph=s.pb --input_node_names=x --output_node_names=y`) is this
module's `run_main`.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
from typing import Any, List, Optional, Sequence, Union

from tf1compat.graphdef import graph_io
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef, parse_text, to_text
from tf1compat.training.saving.graph_util import extract_sub_graph

__all__ = ["strip_unused", "strip_unused_from_files", "run_main"]

_DT_FLOAT = 1    # DataType enum of float32, the script's default placeholder type


def strip_unused(input_graph_def: Any, input_node_names: Sequence[str],
                 output_node_names: Sequence[str],
                 placeholder_type_enum: Union[int, List[int]]) -> GraphDef:
    """The part of `input_graph_def` between `input_node_names` and `output_node_names`.

    `placeholder_type_enum` is a DataType enum (`tf.float32.as_datatype_enum`) for every
    input, or a list with one per input. ValueError when an input names a tensor
    ("x:0"), KeyError when an input is not in the graph.
    """
    for name in input_node_names:
        if ":" in name:
            raise ValueError(f"Name '{name}' appears to refer to a Tensor, not an "
                             "Operation.")
    input_graph_def = graph_io.as_graph_def_proto(input_graph_def)
    not_found = set(input_node_names)
    replaced = GraphDef()
    for node in input_graph_def.node:
        if node.name not in input_node_names:
            replaced.node.append(copy.deepcopy(node))
            continue
        not_found.discard(node.name)
        placeholder = NodeDef(name=node.name, op="Placeholder")
        dtype = placeholder_type_enum[list(input_node_names).index(node.name)] \
            if isinstance(placeholder_type_enum, list) else placeholder_type_enum
        placeholder.attr["dtype"].CopyFrom(AttrValue(type=dtype))
        for key in ("_output_shapes", "shape"):
            if key in node.attr:
                placeholder.attr[key].CopyFrom(node.attr[key])
        replaced.node.append(placeholder)
    if not_found:
        raise KeyError(f"The following input nodes were not found: {not_found}.")
    return extract_sub_graph(replaced, output_node_names)


def strip_unused_from_files(input_graph: str, input_binary: bool, output_graph: str,
                            output_binary: bool, input_node_names: str,
                            output_node_names: str,
                            placeholder_type_enum: Union[int, List[int]]) -> Any:
    """`strip_unused` on a graph file, written to `output_graph` (binary or text).

    The node lists are comma-separated. As TF's script, a missing input file or empty
    `output_node_names` prints the problem and returns -1.
    """
    if not os.path.exists(input_graph):
        print("Input graph file '" + input_graph + "' does not exist!")
        return -1
    if not output_node_names:
        print("You need to supply the name of a node to --output_node_names.")
        return -1
    if input_binary:
        with open(input_graph, "rb") as f:
            input_graph_def = GraphDef.FromString(f.read())
    else:
        with open(input_graph, "r", encoding="utf-8") as f:
            input_graph_def = parse_text(f.read(), GraphDef)
    output_graph_def = strip_unused(input_graph_def, input_node_names.split(","),
                                    output_node_names.split(","), placeholder_type_enum)
    if output_binary:
        with open(output_graph, "wb") as f:
            f.write(output_graph_def.SerializeToString())
    else:
        with open(output_graph, "w", encoding="utf-8") as f:
            f.write(to_text(output_graph_def))
    print("%d ops in the final graph." % len(output_graph_def.node))
    return None


def run_main(argv: Optional[Sequence[str]] = None) -> None:
    """`python -m tensorflow.python.tools.strip_unused --input_graph=... ...`."""
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    for flag in ("input_graph", "output_graph", "input_node_names", "output_node_names"):
        parser.add_argument("--" + flag, type=str, default="")
    parser.add_argument("--input_binary", nargs="?", const=True, type="bool", default=False)
    parser.add_argument("--output_binary", nargs="?", const=True, type="bool", default=True)
    parser.add_argument("--placeholder_type_enum", type=int, default=_DT_FLOAT)
    flags, unparsed = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if unparsed:
        raise SystemExit(f"strip_unused: unknown flags {unparsed}")
    strip_unused_from_files(flags.input_graph, flags.input_binary, flags.output_graph,
                            flags.output_binary, flags.input_node_names,
                            flags.output_node_names, flags.placeholder_type_enum)


if __name__ == "__main__":
    run_main()
