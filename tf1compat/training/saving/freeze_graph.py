"""`tensorflow.python.tools.freeze_graph`: a graph plus a checkpoint -> one frozen GraphDef.

TF1 deployment recipes run `freeze_graph(...)` (or `python -m
tensorflow.python.tools.freeze_graph --input_graph=... --input_checkpoint=...`): the graph
(GraphDef text or binary, a MetaGraphDef, or a SavedModel) is imported into the default
graph, the checkpoint restored in a Session, and `convert_variables_to_constants` keeps
what the output nodes need with every variable replaced by a Const of its value.
Arguments and their string forms ("a,b" lists, "serve" tag sets) follow TF's.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, List, Optional, Sequence, Type, TypeVar

from tf1compat.framework.graph import get_default_graph
from tf1compat.graphdef import graph_io
from tf1compat.graphdef.graph_import import import_graph_def
from tf1compat.runtime.session import Session
from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
from tf1compat.serialization.messages import (GraphDef, Message, MetaGraphDef, SaverDef,
                                              parse_text)
from tf1compat.training.saved_model import loader, tag_constants
from tf1compat.training.saved_model.saved_model_utils import get_meta_graph_def
from tf1compat.training.saving.checkpoint_state import checkpoint_exists
from tf1compat.training.saving.graph_util import convert_variables_to_constants
from tf1compat.training.saving.meta_graph import import_meta_graph
from tf1compat.training.saving.saver import Saver

__all__ = ["freeze_graph", "freeze_graph_with_def_protos", "main", "run_main"]

_M = TypeVar("_M", bound=Message)


def _has_no_variables(sess: Session) -> bool:
    return not any(op.type.startswith("Variable") or op.type.endswith("VariableOp")
                   for op in sess.graph.get_operations())


def _names(csv: Optional[str]) -> Optional[List[str]]:
    """TF's comma-separated flag lists ("a, b" -> ["a", "b"]); "" or None -> None."""
    return csv.replace(" ", "").split(",") if csv else None


def _restore_from_checkpoint_names(sess: Session, input_checkpoint: str,
                                   checkpoint_version: int) -> None:
    """Restores every checkpoint key that names a tensor of the graph (TF's fallback when
    no SaverDef, MetaGraphDef or SavedModel says how)."""
    graph = sess.graph
    reader = NewCheckpointReader(input_checkpoint)
    # Heuristic as in TF: tensors under "/part_<n>/" belong to partitioned variables.
    partition_names = [t.name.split(":")[0] for op in graph.get_operations()
                       for t in op.outputs if re.search(r"/part_\d+/", t.name)]
    var_list = {}
    has_partition_var = False
    for key in reader.get_variable_to_shape_map():
        try:
            tensor = graph.get_tensor_by_name(key + ":0")
        except KeyError:
            continue  # housekeeping entries such as global_step absent from this graph
        if any(key in name for name in partition_names):
            has_partition_var = True
        var_list[key] = tensor
    try:
        saver = Saver(var_list=var_list, write_version=checkpoint_version)
    except (TypeError, ValueError) as e:
        if has_partition_var:
            raise ValueError("Models containing partition variables cannot be converted "
                             "from checkpoint files. Please pass in a SavedModel using "
                             "the flag --input_saved_model_dir.") from None
        if _has_no_variables(sess):
            raise ValueError("No variables were found in this model. It is likely the "
                             "model was frozen previously. You cannot freeze a graph "
                             "twice.") from None
        raise e
    saver.restore(sess, input_checkpoint)


def freeze_graph_with_def_protos(input_graph_def: Optional[GraphDef],
                                 input_saver_def: Optional[SaverDef],
                                 input_checkpoint: Optional[str],
                                 output_node_names: str,
                                 restore_op_name: Optional[str],
                                 filename_tensor_name: Optional[str],
                                 output_graph: Optional[str],
                                 clear_devices: bool,
                                 initializer_nodes: str,
                                 variable_names_whitelist: str = "",
                                 variable_names_blacklist: str = "",
                                 input_meta_graph_def: Optional[MetaGraphDef] = None,
                                 input_saved_model_dir: Optional[str] = None,
                                 saved_model_tags: Optional[Sequence[str]] = None,
                                 checkpoint_version: int = SaverDef.V2,
                                 variable_names_denylist: Optional[str] = None) -> GraphDef:
    """Freezes a graph given as protos; returns the frozen GraphDef.

    The graph is imported into the default graph and restored in a new Session from
    `input_checkpoint` (V1 or V2 prefix) through the SaverDef, the MetaGraphDef's saver,
    the SavedModel, or else by matching checkpoint keys to graph tensors.
    `output_node_names` and the variable lists are comma-separated strings;
    `restore_op_name` / `filename_tensor_name` are unused, as in TF. With `output_graph`
    the binary GraphDef is also written there. `variable_names_denylist` is TF 2's name for
    `variable_names_blacklist`.
    """
    del restore_op_name, filename_tensor_name  # unused by TF's loading code too
    if variable_names_denylist is not None:
        variable_names_blacklist = variable_names_denylist
    if not input_saved_model_dir and not checkpoint_exists(input_checkpoint):
        raise ValueError(f"Input checkpoint '{input_checkpoint}' doesn't exist!")
    if not output_node_names:
        raise ValueError("You need to supply the name of a node to --output_node_names.")
    if input_graph_def is not None:     # also `Graph.as_graph_def()`'s views
        input_graph_def = graph_io.as_graph_def_proto(input_graph_def)
    if clear_devices:
        target = input_meta_graph_def.graph_def if input_meta_graph_def else input_graph_def
        for node in target.node if target else ():
            node.device = ""
    # loader.load imports the SavedModel's graph itself; TF imports it twice (the second
    # copy under uniquified names, unused), tf1compat's importer does not uniquify.
    if input_graph_def and not input_saved_model_dir:
        import_graph_def(input_graph_def, name="")
    with Session(graph=get_default_graph()) as sess:
        if input_saver_def:
            Saver(saver_def=input_saver_def,
                  write_version=checkpoint_version).restore(sess, input_checkpoint)
        elif input_meta_graph_def:
            import_meta_graph(input_meta_graph_def,
                              clear_devices=True).restore(sess, input_checkpoint)
            if initializer_nodes:
                sess.run(_names(initializer_nodes))
        elif input_saved_model_dir:
            loader.load(sess, list(saved_model_tags or []), input_saved_model_dir)
        else:
            _restore_from_checkpoint_names(sess, input_checkpoint, checkpoint_version)
            if initializer_nodes:
                sess.run(_names(initializer_nodes))
        source = input_meta_graph_def.graph_def if input_meta_graph_def else input_graph_def
        output_graph_def = convert_variables_to_constants(
            sess, source, _names(output_node_names),
            variable_names_whitelist=_names(variable_names_whitelist),
            variable_names_blacklist=_names(variable_names_blacklist))
    if output_graph:
        with open(output_graph, "wb") as f:
            f.write(output_graph_def.SerializeToString(deterministic=True))
    return output_graph_def


def _parse_proto(path: str, binary: bool, cls: Type[_M], what: str) -> _M:
    if not os.path.exists(path):
        raise IOError(f"Input {what} file '{path}' does not exist!")
    if binary:
        with open(path, "rb") as f:
            return cls.FromString(f.read())
    with open(path, "r", encoding="utf-8") as f:
        return parse_text(f.read(), cls)


def freeze_graph(input_graph: Optional[str], input_saver: Optional[str], input_binary: bool,
                 input_checkpoint: Optional[str], output_node_names: str,
                 restore_op_name: Optional[str], filename_tensor_name: Optional[str],
                 output_graph: Optional[str], clear_devices: bool, initializer_nodes: str,
                 variable_names_whitelist: str = "", variable_names_blacklist: str = "",
                 input_meta_graph: Any = None, input_saved_model_dir: Optional[str] = None,
                 saved_model_tags: str = tag_constants.SERVING,
                 checkpoint_version: int = SaverDef.V2,
                 variable_names_denylist: Optional[str] = None) -> GraphDef:
    """Freezes the graph in the file `input_graph` (or the SavedModel) with the checkpoint.

    `input_binary` says whether `input_graph`, `input_meta_graph` and `input_saver` are
    binary protos (else text format); `saved_model_tags` is a comma-separated tag set.
    The remaining arguments are `freeze_graph_with_def_protos`'s.
    """
    input_graph_def = None
    if input_saved_model_dir:
        input_graph_def = get_meta_graph_def(input_saved_model_dir,
                                             saved_model_tags).graph_def
    elif input_graph:
        input_graph_def = _parse_proto(input_graph, input_binary, GraphDef, "graph")
    input_meta_graph_def = None
    if input_meta_graph:
        input_meta_graph_def = _parse_proto(input_meta_graph, input_binary, MetaGraphDef,
                                            "meta graph")
        print("Loaded meta graph file '" + input_meta_graph)
    input_saver_def = None
    if input_saver:
        input_saver_def = _parse_proto(input_saver, input_binary, SaverDef, "saver")
    return freeze_graph_with_def_protos(
        input_graph_def, input_saver_def, input_checkpoint, output_node_names,
        restore_op_name, filename_tensor_name, output_graph, clear_devices,
        initializer_nodes, variable_names_whitelist, variable_names_blacklist,
        input_meta_graph_def, input_saved_model_dir,
        [tag for tag in saved_model_tags.replace(" ", "").split(",") if tag],
        checkpoint_version=checkpoint_version,
        variable_names_denylist=variable_names_denylist)


def main(unused_args: Any, flags: argparse.Namespace) -> None:
    """The command line's body: freezes with the parsed `flags`."""
    if flags.checkpoint_version == 1:
        checkpoint_version = SaverDef.V1
    elif flags.checkpoint_version == 2:
        checkpoint_version = SaverDef.V2
    else:
        raise ValueError("Invalid checkpoint version (must be '1' or '2'): %d"
                         % flags.checkpoint_version)
    freeze_graph(flags.input_graph, flags.input_saver, flags.input_binary,
                 flags.input_checkpoint, flags.output_node_names, flags.restore_op_name,
                 flags.filename_tensor_name, flags.output_graph, flags.clear_devices,
                 flags.initializer_nodes, flags.variable_names_whitelist,
                 flags.variable_names_blacklist, flags.input_meta_graph,
                 flags.input_saved_model_dir, flags.saved_model_tags, checkpoint_version)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    for flag, default in (("input_graph", ""), ("input_saver", ""),
                          ("input_checkpoint", ""), ("output_graph", ""),
                          ("output_node_names", ""), ("restore_op_name", "save/restore_all"),
                          ("filename_tensor_name", "save/Const:0"),
                          ("initializer_nodes", ""), ("variable_names_whitelist", ""),
                          ("input_meta_graph", ""), ("input_saved_model_dir", ""),
                          ("saved_model_tags", tag_constants.SERVING)):
        parser.add_argument("--" + flag, type=str, default=default)
    # TF 1.x spelled it blacklist, TF 2.x denylist; both fill the same flag.
    parser.add_argument("--variable_names_blacklist", "--variable_names_denylist",
                        dest="variable_names_blacklist", type=str, default="")
    parser.add_argument("--checkpoint_version", type=int, default=2)
    parser.add_argument("--input_binary", nargs="?", const=True, type="bool", default=False)
    parser.add_argument("--clear_devices", nargs="?", const=True, type="bool", default=True)
    return parser


def run_main(argv: Optional[Sequence[str]] = None) -> None:
    """`python -m tensorflow.python.tools.freeze_graph --flag=value ...`."""
    flags, unparsed = _parser().parse_known_args(sys.argv[1:] if argv is None else argv)
    if unparsed:
        raise SystemExit(f"freeze_graph: unknown flags {unparsed}")
    main(unparsed, flags)


if __name__ == "__main__":
    run_main()
