"""Gathers of variables in while-loop bodies (graphdef/loop_gradient_slices.py): a
resource variable's tf.gather is TF's ResourceGather there too, and the backward loop of
the file tf1compat writes accumulates the gathers' slices as TF 1.x does (`b_acc`
indices and values, concatenated per iteration), without the one-hot product a gather
in the body's function would need. What real TF computes from those files is recorded
by scripts/check_tf_reads_graphs.py (tests/graph_loop_sparse_cases.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tests import graph_loop_sparse_cases
from tests.golden.cases_loop_slices import mixed_body_gradients
from tests.gradient_export_util import (check_recorded_training_case,  # noqa: F401
                                         export_with_warnings, fresh_graph,
                                         replay_the_written_train_op)

CASES = graph_loop_sparse_cases.LOOP_SPARSE_CASES


@pytest.mark.parametrize("case", CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_tf_trains_from_the_file_to_its_own_graphs_values(case, caplog):
    # the body's function holds no gather (nor the one-hot product replacing one)
    check_recorded_training_case(case, caplog, {"GatherV2", "ResourceGather", "Equal"})


@pytest.mark.parametrize("case", CASES, ids=lambda fn: fn.__name__[len("case_"):])
def test_the_written_train_op_runs_in_tf1compat_too(case):
    replay_the_written_train_op(case)


def test_the_backward_loop_accumulates_indices_and_values(caplog):
    graph_loop_sparse_cases.case_train_loop_gathers_resource_variable(tf)
    graph = tf.get_default_graph()
    gathers = [o for o in graph.get_operations() if o.type in ("GatherV2", "ResourceGather")]
    assert [o.type for o in gathers] == ["ResourceGather"] * 3
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    nodes = {n.name: n for n in gd.node}
    frame = "gradients/SymbolicGradient/while_grad/while_context"
    enters = [n for n in gd.node if n.op == "Enter" and "/b_acc" in n.input[0]]
    assert len(enters) == 6 and all(n.attr["frame_name"].s == frame.encode() for n in enters)
    nexts = [n for n in gd.node if n.op == "NextIteration" and
             nodes[n.input[0].split(":")[0]].op == "ConcatV2" and "b_acc" in n.input[0]]
    assert len(nexts) == 6
    sums = [n for n in gd.node if n.op == "UnsortedSegmentSum"]
    assert len(sums) == 3 and all("sparse_grad" in n.name for n in sums)
    # the gathered rows and their run-time indices are pushed by the forward loop
    pushed = {nodes[n.input[1]].op for n in gd.node if n.op == "StackPushV2"}
    assert {"ResourceGather", "StridedSlice"} <= pushed


def test_gathers_in_nested_loops_and_conds_read_the_variable_first():
    """Only directly in a loop in no other loop is a resource variable's gather a
    ResourceGather; in a nested loop or a tf.cond of a body it gathers from the read
    value (the export's function gathers it). The gradient is the same as gathering
    from the variable's value everywhere."""
    grads = mixed_body_gradients(tf)
    types = {o.name: o.type for o in tf.get_default_graph().get_operations()
             if o.type in ("GatherV2", "ResourceGather") and o.name.startswith("while/")}
    assert sorted(types.values()) == ["GatherV2", "GatherV2", "ResourceGather"]
    assert types["while/Gather"] == "ResourceGather"
    # Both are TF's IndexedSlices accumulated over the loops (compared as the rows they sum to).
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    grads = [tf.convert_to_tensor(g) for g in grads]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, expected = sess.run(grads)
    assert np.all(expected[:3] != 0)
    np.testing.assert_allclose(got, expected, rtol=1e-6)
