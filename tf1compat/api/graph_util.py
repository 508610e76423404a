"""`tf.graph_util`."""

# ruff: noqa: F401
# (section: checkpoints — GraphDef utilities)
from tf1compat.graphdef.graph_import import import_graph_def
from tf1compat.training.saving.graph_util import (convert_variables_to_constants,
                                                  extract_sub_graph, must_run_on_cpu,
                                                  remove_training_nodes,
                                                  tensor_shape_from_node_def_name)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('graph_util', globals())
