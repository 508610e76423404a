"""`tf.contrib.graph_editor` (TF 1.15): selecting, viewing, rewiring and copying parts of
a graph in place, as gradient-checkpointing (`memory_saving_gradients.py`), glow and
graph-surgery scripts use it.

* `select`: ops and tensors by regex, filter, boundary, forward/backward walks
  (`get_forward_walk_ops`, `get_backward_walk_ops`, `get_walks_intersection_ops`, ...);
* `subgraph`: `SubGraphView` (`ge.sgv(...)`, `ge.sgv_scope(scope, graph)`);
* `reroute`: `reroute_ts`, `swap_ts`, `swap_inputs`, `reroute_outputs`, ..., control
  inputs;
* `edit`: `detach`, `connect`, `bypass`;
* `transform`: `Transformer`, `copy`, `copy_with_input_replacements`, `graph_replace`;
* `util`: list conversions, `ControlOutputs`, the editor's placeholders (`ge.ph`).

Edits change the ops' input edges in place (`Operation._update_input`), so the next
`Session.run` builds a new plan for the edited graph.
"""

# ruff: noqa: F401
from tf1compat.contrib.graph_editor import edit, reroute, select, subgraph, transform, util
from tf1compat.contrib.graph_editor.edit import (detach_control_inputs, detach_control_outputs,
                                                 detach_inputs, detach_outputs, detach, connect,
                                                 bypass)
from tf1compat.contrib.graph_editor.reroute import (swap_ts, reroute_ts, swap_inputs,
                                                    reroute_inputs, swap_outputs, reroute_outputs,
                                                    swap_ios, reroute_ios, remove_control_inputs,
                                                    add_control_inputs)
from tf1compat.contrib.graph_editor.select import (can_be_regex, make_regex, filter_ts,
                                                   filter_ts_from_regex, filter_ops,
                                                   filter_ops_from_regex, get_name_scope_ops,
                                                   check_cios, get_ops_ios, compute_boundary_ts,
                                                   get_within_boundary_ops, get_forward_walk_ops,
                                                   get_backward_walk_ops,
                                                   get_walks_intersection_ops, get_walks_union_ops,
                                                   select_ops, select_ts, select_ops_and_ts)
from tf1compat.contrib.graph_editor.subgraph import (SubGraphView, make_view, make_view_from_scope)
from tf1compat.contrib.graph_editor.transform import (replace_t_with_placeholder_handler,
                                                      keep_t_if_possible_handler,
                                                      assign_renamed_collections_handler,
                                                      transform_op_if_inside_handler,
                                                      copy_op_handler, Transformer,
                                                      TransformerInfo, copy,
                                                      copy_with_input_replacements, graph_replace)
from tf1compat.contrib.graph_editor.util import (make_list_of_op, get_tensors, make_list_of_t,
                                                 get_generating_ops, get_consuming_ops,
                                                 ControlOutputs, placeholder_name,
                                                 make_placeholder_from_tensor,
                                                 make_placeholder_from_dtype_and_shape)

ph = util.make_placeholder_from_dtype_and_shape
sgv = subgraph.make_view
sgv_scope = subgraph.make_view_from_scope
