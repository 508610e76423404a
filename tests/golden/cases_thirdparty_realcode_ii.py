"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ii).

* blei-lab/edward 1.3.5 (tag 1.3.5, on PYTHONPATH from its sources): `ed.copy` rebuilds
  graph ops through TF 1.x's raw Operation protocol: `deepcopy(op.node_def)`, a new name
  and `node_def.attr['seed2'].i`, `tf.Operation(node_def, graph, [], op._output_types, [],
  [], original_op, deepcopy(op.op_def))`, `graph._add_op`, then `op._add_input(t)` per
  input, `tensorflow.python.framework.ops.set_shapes_for_outputs(op)`,
  `graph._record_op_seen_by_control_dependencies` and `graph._apply_device_functions`.
  tf1compat offered none of it (the last session stopped at the import of
  set_shapes_for_outputs); all of it is there now (framework/raw_operation.py). Edward's
  own tests then run on tf1compat: see the report of session realcode-ii for the counts.
  Not compared with TF: Edward 1.3.5 needs `tf.contrib.distributions` (absent from the
  TF 2.x oracles) and the input-less constructor plus `_add_input` /
  `set_shapes_for_outputs`, which TF removed with its C API (TF 1.5+); the case below
  pins the part TF 2.21 still has, `Operation.from_node_def` with all inputs given.
"""

import copy

import numpy as np


def case_edward_copy_op_from_edited_node_def(tf):
    """ed.copy's op copy: an op's NodeDef deep-copied, renamed and given a new `seed2`,
    rebuilt with `Operation.from_node_def` (TF 1.x: `tf.Operation(...)`) on new inputs;
    the copy is in the graph under its name, infers its output shape and computes."""
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3), name="a")
        b = tf.placeholder(tf.float32, [None, 3], name="b")
        c = tf.add(a, b, name="c")
        tf.random_uniform([2, 3], seed=5, name="u")
        u = g.get_operation_by_name("u/RandomUniform")
        node = copy.deepcopy(c.op.node_def)
        node.name = "copied/c"
        c2 = tf.Operation.from_node_def(node, g, [a, a * 2.0], c.op._output_types[:])
        node = copy.deepcopy(u.node_def)
        node.name = "copied/u"
        node.attr["seed2"].i = 9
        u2 = tf.Operation.from_node_def(node, g, [u.inputs[0]], u._output_types)
        with tf.Session(graph=g) as sess:
            vals = sess.run([c2.outputs[0], u2.outputs[0], u.outputs[0]])
    return {"names": [c2.name, u2.name, g.get_operation_by_name("copied/u") is u2],
            "types": [c2.type, u2.type, list(c2._output_types)],
            "shapes": [str(c.shape), str(c2.outputs[0].shape), str(u2.outputs[0].shape)],
            "seed2": [u.get_attr("seed2"), u2.get_attr("seed2")],
            "inputs": [t.name for t in c2.inputs], "c2": vals[0],
            "u2_shape": list(vals[1].shape), "u2_in_range": bool(np.all(vals[1] < 1.0)),
            "u2_differs": bool(np.any(vals[1] != vals[2]))}
