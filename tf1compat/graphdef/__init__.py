"""Graphs as TF's GraphDef protos: writing them (`graph_export`: TF1 dataflow control flow,
function libraries) and importing them (`graph_import`, `function_library`).

Above ops, variables and data (an imported node is created through their declared op
types); below training, whose savers and meta graphs use it.
"""
