"""TF 1.x's raw Operation protocol as Edward's `ed.copy` uses it (TF before its C API:
an input-less `tf.Operation(node_def, ...)`, `_add_input`, `set_shapes_for_outputs`).
TF >= 1.5 no longer has the input-less form, so these are not golden cases; the
all-inputs form is pinned against TF in tests/golden/cases_thirdparty_realcode_ii.py."""

import copy

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.internal.framework_ops import set_shapes_for_outputs


def _copy_op(op, name, g):
    node = copy.deepcopy(op.node_def)
    node.name = name
    return tf.Operation(node, g, [], op._output_types[:], [], [], None,
                        copy.deepcopy(op.op_def))


def test_input_less_op_takes_inputs_then_infers_shapes():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([[1.0, 2.0]])
        b = tf.placeholder(tf.float32, [None, 2])
        c = tf.add(a, b, name="c")
        op = _copy_op(c.op, "copied/c", g)
        assert op.outputs[0].shape.dims is None and op.inputs == []
        g._add_op(op)                        # Edward adds it again: nothing changes
        assert g.get_operations().count(op) == 1
        op._add_input(a)
        with pytest.raises(TypeError, match="Cannot convert a tensor of type float32"):
            op._add_input(a, tf.int32)
        op._add_input(a * 3.0)
        set_shapes_for_outputs(op)
        assert op.outputs[0].shape.as_list() == [1, 2]
        assert a.consumers().count(op) == 1
        with tf.Session(graph=g) as sess:
            np.testing.assert_allclose(sess.run(op.outputs[0]), [[4.0, 8.0]])


def test_shapes_need_all_inputs_and_names_are_unique():
    g = tf.Graph()
    with g.as_default():
        c = tf.add(tf.constant(1.0), tf.constant(2.0), name="c")
        op = _copy_op(c.op, "copied/c", g)
        with pytest.raises(ValueError, match="has 0 inputs"):
            set_shapes_for_outputs(op)
        with pytest.raises(ValueError, match="Duplicate node name in graph: 'copied/c'"):
            _copy_op(c.op, "copied/c", g)
        with pytest.raises(ValueError, match="is not a valid node name"):
            _copy_op(c.op, "copied/c>", g)


def test_op_seen_by_control_dependencies_gets_none_and_passes_none_on():
    """As TF: the raw op takes only the control inputs it is given; once recorded as seen
    by the open `control_dependencies` blocks, ops reading it inside them need none."""
    g = tf.Graph()
    with g.as_default():
        first = tf.no_op(name="first")
        c = tf.identity(tf.constant(1.0), name="c")
        with g.control_dependencies([first]):
            unseen = _copy_op(c.op, "copied/unseen", g)
            unseen._add_input(c)
            op = _copy_op(c.op, "copied/c", g)
            op._add_input(c)
            g._record_op_seen_by_control_dependencies(op)
            after_unseen = tf.identity(unseen.outputs[0])
            after_seen = tf.identity(op.outputs[0])
        assert op.control_inputs == [] and unseen.control_inputs == []
        assert after_unseen.op.control_inputs == [first]
        assert after_seen.op.control_inputs == []


def test_traced_control_flow_is_not_rebuilt_from_a_node_def():
    g = tf.Graph()
    with g.as_default():
        out = tf.scan(lambda acc, x: acc + x, tf.constant([2.0, 3.0]))
        loop = next(o for o in g.get_operations() if o.type == "While")
        with pytest.raises(NotImplementedError, match="cannot rebuild it from a NodeDef"):
            _copy_op(loop, "copied/while", g)
        assert out.shape.as_list() == [2]
