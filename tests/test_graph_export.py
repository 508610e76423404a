"""Graphs tf1compat writes: complete `.meta` files for conds, loops, TensorArrays, tf.data
and py_func, in the form real TF imports and runs.

The files under tests/fixtures/tf1compat_graphs were written by tf1compat and run by real
TensorFlow (scripts/check_tf_reads_graphs.py recorded TF's values, including TF training
the imported graphs with its own gradients). Here: tf1compat still writes those exact
graphs, and computes TF's values from them.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tests import graph_export_cases
from tests.gradient_export_util import case_rtol
from tf1compat.graphdef import graph_export
from tf1compat.training.saving import meta_graph
from tf1compat.serialization.messages import CondContextDef

@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf1compat_graphs")
CASES = {fn.__name__[len("case_"):]: fn for fn in graph_export_cases.CASES}


def _node_summary(graph_def):
    out = []
    for node in graph_def.node:
        attrs = {k: v.SerializeToString() for k, v in node.attr.items() if k != "_class"}
        out.append((node.name, node.op, list(node.input), node.device, attrs))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_writes_the_graph_tf_ran(case, tmp_path):
    recorded = meta_graph.read_meta_graph_file(os.path.join(FIXTURES, case, "graph.meta"))
    with tf.Graph().as_default():
        CASES[case](tf)
        meta = tf.train.export_meta_graph(str(tmp_path / "g.meta"))
    assert _node_summary(meta.graph_def) == _node_summary(recorded.graph_def)
    assert meta.graph_def.library == recorded.graph_def.library
    for key in ("cond_context", "while_context"):
        assert (key in meta.collection_def) == (key in recorded.collection_def)
        if key in meta.collection_def:
            assert meta.collection_def[key] == recorded.collection_def[key]


@pytest.mark.parametrize("case", sorted(CASES))
def test_computes_what_tf_computed_from_the_file(case):
    d = os.path.join(FIXTURES, case)
    with open(os.path.join(d, "case.json")) as f:
        spec = json.load(f)
    assert spec["tf"]["status"] == "ok", spec["tf"]["status"]
    arrays = dict(np.load(os.path.join(d, "arrays.npz")))
    got = graph_export_cases.run_case(tf, d, spec, arrays)
    rtol = case_rtol(case)
    for k, run in enumerate(spec["runs"]):
        for fetch, key, value in zip(run["fetches"], spec["tf"]["values"][k], got["values"][k]):
            np.testing.assert_allclose(value, arrays[key], rtol=rtol, atol=1e-6,
                                       err_msg=f"run {k}: {fetch}")
    for name, key, value in zip(spec.get("minimize", {}).get("variables", []),
                                spec["tf"]["minimize"], got["minimize"]):
        np.testing.assert_allclose(value, arrays[key], rtol=rtol, atol=1e-6,
                                   err_msg=f"after minimize: {name}")


# -- the dataflow form ------------------------------------------------------------------------

def test_cond_is_written_as_tf1_switch_merge_with_its_contexts():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.placeholder(tf.float32, [], name="y")
    tf.cond(x > 0, lambda: x * y, lambda: tf.constant(-1.0))
    export = graph_export.GraphExport(add_shapes=False)
    nodes = {n.name: n for n in export.graph_def.node}
    assert "cond/If" not in nodes
    assert nodes["cond/Switch"].op == "Switch" and list(nodes["cond/Switch"].input) == \
        ["Greater", "Greater"]
    assert list(nodes["cond/switch_t"].input) == ["cond/Switch:1"]
    assert list(nodes["cond/pred_id"].input) == ["Greater"]
    assert list(nodes["cond/mul"].input) == ["cond/mul/Switch:1", "cond/mul/Switch_1:1"]
    assert list(nodes["cond/mul/Switch"].input) == ["x", "cond/pred_id"]
    assert list(nodes["cond/Const"].input) == ["^cond/switch_f"]
    assert nodes["cond/Merge"].op == "Merge" and \
        list(nodes["cond/Merge"].input) == ["cond/Const", "cond/mul"]
    then_ctx, else_ctx = export.cond_contexts
    assert (then_ctx.context_name, then_ctx.pivot_name, then_ctx.branch) == \
        ("cond/cond_text", "cond/switch_t:0", 1)
    assert dict(then_ctx.values_def.external_values) == {
        "x:0": "cond/mul/Switch:1", "y:0": "cond/mul/Switch_1:1",
        "cond/pred_id:0": "cond/pred_id:0"}
    assert (else_ctx.context_name, else_ctx.pivot_name, else_ctx.branch) == \
        ("cond/cond_text_1", "cond/switch_f:0", 0)


def test_while_loop_is_written_as_tf1_frames_with_its_context():
    x = tf.placeholder(tf.float32, [], name="x")
    tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + x), [0, 0.0])
    export = graph_export.GraphExport()
    nodes = {n.name: n for n in export.graph_def.node}
    assert [nodes[n].op for n in ("while/Enter", "while/Merge", "while/LoopCond",
                                  "while/Switch", "while/Identity", "while/NextIteration",
                                  "while/Exit")] == \
        ["Enter", "Merge", "LoopCond", "Switch", "Identity", "NextIteration", "Exit"]
    assert nodes["while/Enter"].attr["frame_name"].s == b"while/while_context"
    assert list(nodes["while/Merge"].input) == ["while/Enter", "while/NextIteration"]
    assert list(nodes["while/Switch"].input) == ["while/Merge", "while/LoopCond"]
    assert list(nodes["while/Identity"].input) == ["while/Switch:1"]
    assert list(nodes["while/Exit"].input) == ["while/Switch"]
    assert list(nodes["while/add_1"].input) == ["while/Identity_1", "while/add_1/Enter"]
    assert nodes["while/add_1/Enter"].attr["is_constant"].b
    assert list(nodes["while/Less/y"].input) == ["^while/Merge"]
    assert list(nodes["while/add/y"].input) == ["^while/Identity"]
    context, = export.while_contexts
    assert (context.context_name, context.pivot_name, context.pivot_for_pred_name,
            context.pivot_for_body_name) == ("while/while_context", "while/LoopCond:0",
                                             "while/Merge:0", "while/Identity:0")
    assert list(context.loop_exit_names) == ["while/Exit:0", "while/Exit_1:0"]
    assert dict(context.values_def.external_values) == {"x:0": "while/add_1/Enter:0"}


def test_meta_graph_holds_context_collections_as_tf():
    x = tf.placeholder(tf.float32, [], name="x")
    tf.cond(x > 0, lambda: tf.while_loop(lambda i: i < x, lambda i: i + 1.0, [0.0]),
            lambda: x)
    meta = tf.train.export_meta_graph()
    conds = [CondContextDef.FromString(b)
             for b in meta.collection_def["cond_context"].bytes_list.value]
    assert [c.context_name for c in conds] == ["cond/cond_text", "cond/cond_text_1"]
    # As TF: only outermost contexts in the collections, the loop nested in its branch's.
    assert "while_context" not in meta.collection_def
    assert [n.while_ctxt.context_name for n in conds[0].nested_contexts] == \
        ["cond/while/while_context"]
    assert not conds[1].nested_contexts
    # x enters the branch through a Switch, then the loop through a constant Enter.
    nodes = {n.name: n for n in meta.graph_def.node}
    enter = nodes["cond/while/Less/Enter"]
    assert enter.attr["is_constant"].b and list(enter.input) == ["cond/while/Less/Switch:1"]
    assert list(nodes["cond/while/Less/Switch"].input) == ["x", "cond/pred_id"]
    assert list(nodes["cond/while/Const"].input) == ["^cond/switch_t"]


def test_round_trip_of_control_flow_with_gradients_and_variables(tmp_path):
    """tf1compat re-imports its own dataflow form (the gradient op runs autograd through
    the imported loop and cond) to the values of the graph it built."""
    x = tf.placeholder(tf.float32, [], name="x")
    v = tf.Variable(2.0, name="v")
    r = tf.cond(x > 0, lambda: x * v + 1.0, lambda: tf.constant(-1.0))
    _, s = tf.while_loop(lambda i, s: i < 5,
                         lambda i, s: (i + 1, s + x * tf.cast(i, tf.float32)), [0, 0.0])
    assign = tf.while_loop(lambda i: i < 3, lambda i: tf.group(tf.assign_add(v, 1.0)) and
                           i + 1, [0])
    outs = [r, s] + tf.gradients(r + s * s, [x, v])
    for t in outs:
        tf.add_to_collection("outs", t)
    path = str(tmp_path / "m.meta")
    tf.train.export_meta_graph(path)
    with tf.Session() as sess:
        sess.run(v.initializer)
        want = [sess.run(outs, {x: value}) for value in (1.5, -2.0)]
        sess.run(assign)
        want_v = sess.run(v)
    with tf.Graph().as_default():
        tf.train.import_meta_graph(path)
        with tf.Session() as sess:
            sess.run("v/Assign")
            got = [sess.run(tf.get_collection("outs"), {"x:0": value})
                   for value in (1.5, -2.0)]
            assert tf.get_default_graph().get_operation_by_name("cond/Merge").type == \
                "Merge"
    np.testing.assert_allclose(got, want)
    assert want_v == 2.0


def test_loop_body_assignments_are_seen_by_later_iterations_after_import(tmp_path):
    """A variable a loop body reads enters the loop as a reference to the variable, as
    TF1's ref variables alias their buffer: each iteration sees the previous assign."""
    v = tf.Variable(1.0, name="v")

    def body(i, acc):
        with tf.control_dependencies([tf.assign_add(v, 1.0)]):
            return i + 1, acc + v.read_value() + tf.identity(v) * 0.5
    _, total = tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])
    tf.identity(total, name="total")
    with tf.Session() as sess:
        sess.run(v.initializer)
        want = sess.run(total)
    path = str(tmp_path / "m.meta")
    tf.train.export_meta_graph(path)
    with tf.Graph().as_default():
        tf.train.import_meta_graph(path)
        with tf.Session() as sess:
            sess.run("v/Assign")
            assert sess.run("total:0") == want == 1.5 * (2.0 + 3.0 + 4.0)


def test_switch_case_is_a_functional_case_with_branch_functions():
    i = tf.placeholder(tf.int32, [], name="i")
    tf.switch_case(i, [lambda: tf.constant(1), lambda: tf.constant(2)])
    graph_def = tf.train.export_meta_graph().graph_def
    case, = [n for n in graph_def.node if n.op == "Case"]
    assert case.name == "switch_case/indexed_case"
    names = [f.name for f in case.attr["branches"].list.func]
    assert names == [f.signature.name for f in graph_def.library.function]
    assert not [n for n in graph_def.node if n.name.startswith("switch_case/indexed_case/")
                and n.op == "Const"]


def test_as_graph_def_views_write_control_flow(tmp_path):
    x = tf.placeholder(tf.float32, [], name="x")
    tf.cond(x > 0, lambda: x, lambda: -x)
    path = tf.train.write_graph(tf.get_default_graph().as_graph_def(), str(tmp_path),
                                "g.pbtxt")
    text = open(path).read()
    assert 'op: "Switch"' in text and 'op: "Merge"' in text and 'op: "If"' not in text


def test_saver_writes_the_meta_graph_of_every_graph_and_training_resumes_from_it(tmp_path):
    """Saver.save writes `.meta` for graphs with dropout/batch norm under a tensor
    `training` flag, dynamic_rnn, tf.cond, tf.while_loop and a tf.data iterator; a later
    job imports it, restores and runs the train op from the file to the same values."""
    data = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    batches = tf.data.make_one_shot_iterator(
        tf.data.Dataset.from_tensor_slices(data).repeat().batch(4))
    x = tf.identity(batches.get_next(), name="x")
    training = tf.placeholder_with_default(True, [], name="training")
    h = tf.layers.dense(x, 4, kernel_initializer=tf.constant_initializer(0.3), name="d")
    h = tf.layers.batch_normalization(h, training=training, name="bn")
    h = tf.layers.dropout(h, 0.0, training=training)
    seq = tf.reshape(tf.tile(h, [1, 2]), [4, 2, 4])
    cell = tf.nn.rnn_cell.GRUCell(3, kernel_initializer=tf.constant_initializer(0.1))
    _, state = tf.nn.dynamic_rnn(cell, seq, dtype=tf.float32)
    _, total = tf.while_loop(lambda i, acc: i < 3,
                             lambda i, acc: (i + 1, acc + tf.reduce_sum(state)), [0, 0.0])
    loss = tf.cond(training, lambda: total * total, lambda: total, name="loss")
    step = tf.train.get_or_create_global_step()
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=step)
    tf.add_to_collection("train_op", train)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        prefix = tf.train.Saver().save(sess, str(tmp_path / "model"), global_step=step)
        sess.run(train)
        want = {v.op.name: sess.run(v) for v in tf.global_variables()}
    assert os.path.exists(prefix + ".meta")
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            # The iterator restarts with the new session: feed its first batch's place.
            sess.run("x:0")
            sess.run(tf.get_collection("train_op")[0])
            got = {v.op.name: sess.run(v) for v in tf.global_variables()}
    assert set(got) == set(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_ops_of_a_loop_that_raised_are_left_out():
    """A tf.while_loop that raised after tracing its body leaves ops that never run; the
    graph around them is still written."""
    x = tf.placeholder(tf.float32, [2], name="x")
    with pytest.raises(ValueError):
        tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0, lambda v: tf.concat([v, v], 0), [x])
    tf.identity(x * 2.0, name="y")
    graph_def = tf.train.export_meta_graph().graph_def
    assert [n.name for n in graph_def.node] == ["x", "mul/y", "mul", "y"]
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0, 2.0]}), [2.0, 4.0])


def test_float_attrs_given_as_ints_are_written_as_floats():
    """TF's importer rejects an `i` value for a float attr (LSTMBlockCell's forget_bias)."""
    cell = tf.contrib.rnn.LSTMBlockCell(3, forget_bias=1)
    tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [2, 4, 3]), dtype=tf.float32)
    node, = [n for n in tf.train.export_meta_graph().graph_def.node
             if n.op == "LSTMBlockCell"]
    assert node.attr["forget_bias"].WhichOneof("value") == "f"
    assert node.attr["forget_bias"].f == 1.0


def _generator_graph():
    def gen(n):
        for i in range(n):
            yield np.float32(i), [i, i + 1]
    ds = tf.data.Dataset.from_generator(gen, (tf.float32, tf.int64), ([], [2]), args=(3,))
    x = tf.data.make_one_shot_iterator(ds.repeat(2)).get_next()
    v = tf.Variable(2.0, name="v")
    return tf.identity(x[0] * v, name="y")


def test_from_generator_is_written_as_tfs_generator_dataset_and_runs_back(tmp_path):
    prefix = str(tmp_path / "m")
    with tf.Graph().as_default():
        _generator_graph()
        gd = tf.get_default_graph().as_graph_def()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, prefix)
    assert os.path.exists(prefix + ".meta")
    functions = {f.signature.name: f for f in gd.library.function}
    assert sorted(functions) == [
        "__inference_Dataset_flat_map_flat_map_fn",
        "__inference_Dataset_from_generator_finalize_fn",
        "__inference_Dataset_from_generator_generator_next_fn",
        "__inference_Dataset_from_generator_get_iterator_id_fn",
        "_make_dataset_RepeatDataset"]
    (generator,) = functions["__inference_Dataset_flat_map_flat_map_fn"].node_def
    assert generator.op == "GeneratorDataset"
    assert {generator.attr[k].func.name for k in ("init_func", "next_func", "finalize_func")} \
        == {n for n in functions if "from_generator" in n}
    (py_func,) = functions["__inference_Dataset_from_generator_generator_next_fn"].node_def
    assert py_func.op == "PyFunc" and py_func.attr["token"].s.startswith(b"pyfunc_")
    assert [t for t in py_func.attr["Tout"].list.type] == [tf.float32.as_datatype_enum,
                                                           tf.int64.as_datatype_enum]
    # In the process that registered the generator, the imported graph runs it (as in TF).
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            assert [float(sess.run("y:0")) for _ in range(6)] == [0, 2, 4, 0, 2, 4]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run("y:0")


def test_from_generator_graph_in_another_process_restores_but_cannot_run(tmp_path):
    prefix = str(tmp_path / "m")
    with tf.Graph().as_default():
        _generator_graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, prefix)
    code = (f"import tf1compat as tf\n"
            f"saver = tf.train.import_meta_graph({prefix + '.meta'!r})\n"
            f"with tf.Session() as sess:\n"
            f"    saver.restore(sess, {prefix!r})\n"
            f"    print(sess.run('v:0'))\n"
            f"    try:\n"
            f"        sess.run('y:0')\n"
            f"    except tf.errors.InvalidArgumentError as e:\n"
            f"        print('Could not find callback' in str(e))\n")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["2.0", "True"]
