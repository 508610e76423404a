"""Graphs written by real TensorFlow (tests/fixtures/tf_graphs, made by
scripts/make_graph_fixtures.py) imported and run by tf1compat to TF's values: TF1 dataflow
control flow and its gradients, TensorArrays, dynamic_rnn training with the train op from
the file, tf.data pipelines, functional control flow and calls with a function library,
a frozen Keras application. Also import_graph_def's checks."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization.messages import GraphDef

@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")
CASES = sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
# Loose enough for a deep network's float32 reductions in another order.
TOLERANCE = {"frozen_keras_mobilenet": (2e-4, 1e-5)}


def _load(case: str):
    d = os.path.join(FIXTURES, case)
    with open(os.path.join(d, "case.json")) as f:
        spec = json.load(f)
    arrays = np.load(os.path.join(d, "expected.npz"), allow_pickle=False)
    return d, spec, arrays


def _import(d: str, spec: dict):
    path = os.path.join(d, spec["graph"])
    if path.endswith(".meta"):
        return tf.train.import_meta_graph(path)
    with open(path, "rb") as f:
        tf.import_graph_def(GraphDef.FromString(f.read()), name="")
    return None


def _fixture_paths(d: str, names: np.ndarray) -> np.ndarray:
    """File names fed relative to the fixture's directory (or a scratch one), as paths."""
    return np.vectorize(lambda n: os.path.join(d, n.decode()).encode(), otypes=[object])(names)


@pytest.mark.parametrize("fast_loops", [True, False], ids=["loops", "dataflow"])
@pytest.mark.parametrize("case", CASES)
def test_tf_graph_runs_to_tf_values(case, fast_loops, monkeypatch, tmp_path):
    """Each fixture, with simple loops run as Python loops (dataflow_loops.py) and all
    through the general dataflow executor."""
    from tf1compat.runtime import dataflow
    monkeypatch.setattr(dataflow, "FAST_LOOPS", [fast_loops])
    d, spec, arrays = _load(case)
    tf.reset_default_graph()
    saver = _import(d, spec)
    rtol, atol = TOLERANCE.get(case, (1e-5, 1e-6))
    with tf.Session() as sess:
        if spec["checkpoint"]:
            (saver or tf.train.Saver()).restore(sess, os.path.join(d, spec["checkpoint"]))
        for k, run in enumerate(spec["runs"]):
            feeds = {name: _fixture_paths(d, arrays[key]) if name in spec.get("paths", ())
                     else _fixture_paths(str(tmp_path), arrays[key])
                     if name in spec.get("scratch", ()) else arrays[key]
                     for name, key in run["feeds"].items()}
            got = sess.run(run["fetches"] + run["targets"], feeds)[:len(run["fetches"])]
            for name, key, value in zip(run["fetches"], run["values"], got):
                np.testing.assert_allclose(value, arrays[key], rtol=rtol, atol=atol,
                                           err_msg=f"{case} run {k}: {name}")


# -- minimize after importing TF's graphs ------------------------------------------------------

@pytest.mark.parametrize("case", ["cond_while_gradients", "dynamic_rnn_training",
                                  "functional_control_flow", "runtime_conv_transpose",
                                  "scan_in_loop_run_time_length",
                                  "three_level_loops_with_conds",
                                  "tensor_array_computed_indices",
                                  "tensor_array_entering_with_elements",
                                  "tensor_arrays_split_before_nested_loop",
                                  "nested_loop_cond_random_and_stop",
                                  "loop_in_cond_in_nested_loop",
                                  "loop_in_three_conds_in_loop_v2",
                                  "loop_in_cond_reading_branch_values",
                                  "loop_in_cond_reading_branch_values_without_gradient",
                                  "tensor_arrays_read_after_nested_loop",
                                  "tensor_array_read_after_unrolled_nested_loop",
                                  "tensor_array_written_in_cond_in_loop",
                                  "tensor_arrays_written_at_indices_computed_in_branches",
                                  "tensor_array_read_after_its_write_in_nested_loop",
                                  "tensor_array_read_after_its_write_in_nested_loop_not_stacked",
                                  "tensor_array_of_run_time_shape_read_in_loop_not_stacked",
                                  "tensor_array_of_run_time_shape_written_in_cond_read_in_loop",
                                  "tensor_arrays_written_at_branch_indices_in_nested_loop",
                                  "tensor_array_loops_in_cond_in_loop",
                                  "run_time_length_loops_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_reshaped_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_regrouped_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_attending_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop",
                                  "run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop",
                                  "run_time_length_birnn_outputs_in_cond_in_loop",
                                  "run_time_length_loop_result_in_cond_in_loop",
                                  "run_time_length_loop_results_in_both_branches_in_loop",
                                  "tensor_array_entering_loop_through_cond",
                                  "tensor_arrays_entering_loop_through_conds_writing_apart",
                                  "tensor_arrays_entering_loop_through_cond_in_cond",
                                  "tensor_arrays_entering_loop_through_cond_in_cond_apart",
                                  "tensor_arrays_entering_loop_through_cond_in_cond_apart_inside",
                                  "tensor_arrays_entering_loop_through_conds_read_in_body",
                                  "dynamic_size_tensor_array_read_after_its_write_in_nested_loop",
                                  "dynamic_size_tensor_array_size_after_nested_loop",
                                  "loop_in_cond_reading_outer_branch_values",
                                  "loop_gradient_penalty_training"])
def test_imported_tf_graph_trains_like_tf(case):
    """tf1compat's own optimizer on a loss of TF's imported graph (TF1 loops and conds, or
    functional If/While, transposed convolutions of run-time sizes, nested loops:
    tf.scan over a run-time length in a loop, loops three deep with conds, a loop in a
    cond in a cond in a loop, TensorArrays read at computed indices, arrays entering a
    loop with elements (one written in a tf.cond too), arrays split before a nested
    loop, random draws and gradient stops in a cond of a nested loop, a loop in a cond
    in a nested loop, a loop three conds deep in a loop in TF's control flow v2, a loop
    in a cond reading values the branch computes, arrays a nested loop writes read after
    it by read/gather/concat/size, an array written in a cond of a loop body, a
    TensorArray-writing loop and a dynamic_rnn in a cond in a loop (over a run-time
    length too), a dynamic-size array a nested loop reads after its write (and its
    size() after it), a loop in a cond in a cond reading the outer branch's values, a
    gradient penalty through a functional While: a gradient of its gradient) steps like
    TF did (the fixture's `minimize` record)."""
    d, spec, arrays = _load(case)
    minimize = spec.get("minimize")
    if minimize is None:
        pytest.skip("the fixture has no minimize record")
    tf.reset_default_graph()
    _import(d, spec)
    graph = tf.get_default_graph()
    loss = graph.get_tensor_by_name(minimize["loss"])
    train = tf.train.GradientDescentOptimizer(minimize["learning_rate"]).minimize(loss)
    feeds = {name: arrays[key] for name, key in minimize["feeds"].items()}
    with tf.Session() as sess:
        saver = tf.train.Saver(tf.global_variables())
        saver.restore(sess, os.path.join(d, spec["checkpoint"]))
        for _ in range(minimize["steps"]):
            sess.run(train, feeds)
        for name, key in zip(minimize["variables"], minimize["values"]):
            np.testing.assert_allclose(sess.run(name), arrays[key], rtol=1e-5, atol=1e-6,
                                       err_msg=f"{case}: {name}")


# -- import_graph_def's checks (TF's messages) ---------------------------------------------------

def _small_graph_def():
    with tf.Graph().as_default() as g:
        a = tf.constant(1.0, name="a")
        tf.add(a, a, name="b")
    return g.as_graph_def()._as_proto()


def _copy(graph_def):
    return GraphDef.FromString(graph_def.SerializeToString())


@pytest.mark.parametrize("edit, message", [
    (lambda gd: gd.node[1].input.__setitem__(0, "a:99"),
     "Node 'b': Connecting to invalid output 99 of source node a which has 1 outputs."),
    (lambda gd: gd.node.append(_copy(gd).node[0]), "Node 'a' is not unique"),
    (lambda gd: setattr(gd.node[1], "name", "b\n"),
     "Node 'b\n': Node name contains invalid characters"),
    (lambda gd: setattr(gd.node[1], "name", "b c"),
     "Node 'b c': Node name contains invalid characters"),
    (lambda gd: gd.node[1].input.__setitem__(0, "zz"), "Node 'b': Unknown input node 'zz'"),
    (lambda gd: gd.node[1].input.__setitem__(0, "^a"),
     "Node 'b': Control dependencies must come after regular dependencies"),
])
def test_import_graph_def_rejects_bad_graphs_like_tf_and_adds_nothing(edit, message):
    graph_def = _copy(_small_graph_def())
    edit(graph_def)
    before = [op.name for op in tf.get_default_graph().get_operations()]
    with pytest.raises(ValueError) as info:
        tf.import_graph_def(graph_def)
    assert str(info.value) == message
    assert [op.name for op in tf.get_default_graph().get_operations()] == before


def test_import_graph_def_return_elements_and_input_map_errors():
    graph_def = _small_graph_def()
    with pytest.raises(ValueError, match="^Requested return tensor 'nope:0' not found in "
                                         "graph def$"):
        tf.import_graph_def(graph_def, return_elements=["nope:0"])
    with pytest.raises(ValueError, match="^Requested return node 'nope' not found in "
                                         "graph def$"):
        tf.import_graph_def(graph_def, return_elements=["nope"])
    with pytest.raises(ValueError, match=r"^Invalid return output 3 of node 'b', which has "
                                         r"1 output\(s\)$"):
        tf.import_graph_def(graph_def, return_elements=["b:3"])
    with pytest.raises(ValueError, match=r"^Attempted to map inputs that were not found in "
                                         r"graph_def: \[zz:0\]$"):
        tf.import_graph_def(graph_def, input_map={"zz:0": tf.constant(1.0)})
    assert not [op for op in tf.get_default_graph().get_operations()
                if op.name.startswith("import")]
    b, = tf.import_graph_def(graph_def, return_elements=["b:0"])
    with tf.Session() as sess:
        assert sess.run(b) == 2.0


def test_failed_import_rolls_back_the_ops_it_added():
    """A NodeDef that fails while its op is built (here: an attr its shape rule rejects)
    leaves the graph without any of the import's ops."""
    graph_def = _copy(_small_graph_def())
    node = graph_def.node.add(name="bad", op="Reshape", input=["b", "a"])
    node.attr["T"].type = 1
    node.attr["Tshape"].type = 1
    with pytest.raises((ValueError, TypeError)):
        tf.import_graph_def(graph_def, name="imp")
    assert not tf.get_default_graph().get_operations()
    tf.import_graph_def(_small_graph_def(), name="imp")
    assert tf.get_default_graph().get_operation_by_name("imp/b").type == "AddV2"


# -- op coverage ---------------------------------------------------------------------------------

def test_graph_support_lists_unsupported_op_types(tmp_path):
    from tf1compat.training.saving import meta_graph
    meta = meta_graph.read_meta_graph_file(
        os.path.join(FIXTURES, "cond_while_gradients", "graph.meta"))
    report = tf.graph_support(os.path.join(FIXTURES, "cond_while_gradients", "graph.meta"))
    assert report.supported and report.kind == "MetaGraphDef"
    assert report.op_counts["Switch"] == sum(n.op == "Switch" for n in meta.graph_def.node)
    meta.graph_def.node.add(name="q", op="FancyOp")
    meta.graph_def.node.add(name="q2", op="FancyOp")
    path = tmp_path / "g.pb"
    path.write_bytes(meta.graph_def.SerializeToString())
    report = tf.graph_support(str(path))
    assert report.kind == "GraphDef" and report.unsupported == ["FancyOp"]
    assert "FancyOp (2 nodes)" in str(report)
    functional = tf.graph_support(os.path.join(FIXTURES, "partitioned_call", "graph.meta"))
    assert functional.function_count >= 1 and "MatMul" in functional.op_counts


def test_graph_support_command_line(tmp_path, capsys):
    from tf1compat import cli
    good = os.path.join(FIXTURES, "frozen_keras_mobilenet", "graph.pb")
    assert cli.main(["graph-support", good]) == 0
    assert "all op types are supported" in capsys.readouterr().out
    bad = GraphDef()
    bad.node.add(name="q", op="FancyOp")
    (tmp_path / "bad.pb").write_bytes(bad.SerializeToString())
    assert cli.main(["graph-support", str(tmp_path / "bad.pb")]) == 1
    assert "FancyOp" in capsys.readouterr().out
    assert cli.main(["graph-support", str(tmp_path / "missing.pb")]) == 2
