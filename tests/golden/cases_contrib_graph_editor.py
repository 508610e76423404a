"""Golden cases: `tf.contrib.graph_editor` (TF 1.15). TF 2.x ships no contrib, so the
recording runs TF 1.15's own graph_editor sources (its pure-Python package, from
`$TF115_SRC`, default /tmp/tf115src/tensorflow_core) on TF 2.21's graphs, with the two
adaptations TF 2.21 needs (`ops.Tensor` moved to `tensor.Tensor`; an op is created with
`Operation.from_node_def`). Under tf1compat the same cases use `tf.contrib.graph_editor`.

The walks return sets in TF (their order follows Python's set iteration), so their op
names are compared sorted; every other list is compared in order."""

import os
import re
import sys
import types

import numpy as np

from tests.golden.harness import catch


def _load_tf115_graph_editor(tf):
    """TF 1.15's graph_editor package running on the TF the oracle imports."""
    if "tensorflow.contrib.graph_editor" in sys.modules:
        return sys.modules["tensorflow.contrib.graph_editor"]
    from tensorflow.python.framework import ops as real_ops
    from tensorflow.python.framework import tensor as tensor_lib
    real_ops.Tensor = tensor_lib.Tensor
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    contrib = types.ModuleType("tensorflow.contrib")
    contrib.__path__ = [os.path.join(root, "contrib")]
    sys.modules["tensorflow.contrib"] = contrib
    import tensorflow.contrib.graph_editor as ge
    from tensorflow.contrib.graph_editor import transform

    class _OperationType(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, real_ops.Operation)

    class _Operation(metaclass=_OperationType):
        """TF 1.15's `Operation(node_def, g, inputs, ...)` constructor call."""

        def __new__(cls, node_def, g, inputs=None, output_types=None, control_inputs=None,
                    input_types=None, original_op=None, op_def=None):
            return real_ops.Operation.from_node_def(
                node_def, g, inputs=inputs, output_types=output_types,
                control_inputs=control_inputs, input_types=input_types,
                original_op=original_op, op_def=op_def)

    proxy = types.ModuleType("tf_ops_for_graph_editor")
    proxy.__dict__.update(vars(real_ops))
    proxy.Operation = _Operation
    transform.tf_ops = proxy
    return ge


def _ge(tf):
    if hasattr(tf, "contrib"):
        return tf.contrib.graph_editor
    return _load_tf115_graph_editor(tf)


def _names(items):
    return [x.name for x in items]


def _sorted_names(items):
    return sorted(x.name for x in items)


def _run(tf, fetches, feed=None):
    """Runs in a new session: TF's sessions do not see edits of ops they already ran."""
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _diamond(tf):
    """x -> (a, b) -> c -> d, with a control edge a -> e and a side branch s."""
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.constant([2.0, 3.0], name="w")
    a = tf.multiply(x, w, name="a")
    b = tf.add(x, 1.0, name="b")
    c = tf.add(a, b, name="c")
    d = tf.tanh(c, name="d")
    with tf.control_dependencies([a]):
        e = tf.identity(d, name="e")
    s = tf.square(b, name="s")
    return x, w, a, b, c, d, e, s


def case_walks(tf):
    ge = _ge(tf)
    x, w, a, b, c, d, e, s = _diamond(tf)
    g = tf.get_default_graph()
    cos = ge.ControlOutputs(g)
    within = [a.op, b.op, c.op, d.op]
    return {
        "forward": _sorted_names(ge.get_forward_walk_ops([x.op])),
        "forward_from_ts": _sorted_names(ge.get_forward_walk_ops([b])),
        "forward_exclusive": _sorted_names(ge.get_forward_walk_ops(x.op, inclusive=False)),
        "forward_within": _sorted_names(ge.get_forward_walk_ops([x.op, b.op],
                                                               within_ops=within)),
        "forward_within_fn": _sorted_names(ge.get_forward_walk_ops(
            [x.op], within_ops_fn=lambda op: op.type != "Square")),
        "forward_stop": _sorted_names(ge.get_forward_walk_ops([x.op], stop_at_ts=[b])),
        "forward_control": _sorted_names(ge.get_forward_walk_ops([a.op],
                                                                control_outputs=cos)),
        "backward": _sorted_names(ge.get_backward_walk_ops([e.op])),
        "backward_control": _sorted_names(ge.get_backward_walk_ops([e.op],
                                                                  control_inputs=True)),
        "backward_stop": _sorted_names(ge.get_backward_walk_ops([d], stop_at_ts=[a, w])),
        "backward_within": _sorted_names(ge.get_backward_walk_ops(
            [d.op], inclusive=False, within_ops=within)),
        "intersection": _sorted_names(ge.get_walks_intersection_ops([a.op], [e.op])),
        "intersection_ios": _sorted_names(ge.get_walks_intersection_ops(
            [x], [e], control_ios=ge.ControlOutputs(g))),
        "union": _sorted_names(ge.get_walks_union_ops([c.op], [a.op])),
        "within_boundary": _names(ge.get_within_boundary_ops(g, [c.op],
                                                            boundary_ops=[x.op, d.op])),
        "within_boundary_exclusive": _names(ge.get_within_boundary_ops(
            g, [c.op], boundary_ops=[x.op, d.op], inclusive=False)),
        "ops_ios": _names(ge.get_ops_ios([c.op])),
        "ops_ios_control": _names(ge.get_ops_ios([a.op], control_ios=ge.ControlOutputs(g))),
        "boundary": [_names(part) for part in ge.compute_boundary_ts([a.op, b.op, c.op])],
        "control_outputs": _names(cos.get(a.op)),
        "empty_seeds": _names(ge.get_forward_walk_ops([])),
    }


def case_select(tf):
    ge = _ge(tf)
    x, w, a, b, c, d, e, s = _diamond(tf)
    g = tf.get_default_graph()
    with tf.name_scope("block"):
        p = tf.add(d, 1.0, name="p")
        q = tf.multiply(p, p, name="q")
    ops, ts = ge.select_ops_and_ts("^block/", "(?#ts)^[ab]:", graph=g)
    return {
        "select_regex": _names(ge.select_ops("^[a-c]$", graph=g)),
        "select_mixed": _names(ge.select_ops(re.compile("^block/"), [x.op, b], a.op, graph=g)),
        "select_filter": _names(ge.select_ops("^block/", "^d$", graph=g,
                                              positive_filter=lambda op: op.type != "Mul")),
        "select_ts": _names(ge.select_ts("^b", [x], graph=g)),
        "select_ops_and_ts": [_names(ops), _names(ts)],
        "filter_ts": _names(ge.filter_ts([c.op, d.op], True)),
        "filter_ts_fn": _names(ge.filter_ts([c.op, d.op], lambda t: t.op.type == "Add")),
        "filter_ts_regex": _names(ge.filter_ts_from_regex([a.op, c.op], "^[xc]")),
        "filter_ops_regex": _names(ge.filter_ops_from_regex(g, "^block")),
        "scope_ops": _names(ge.get_name_scope_ops(g, "block/")),
        "list_of_op": _names(ge.make_list_of_op(g)),
        "list_of_t": _names(ge.make_list_of_t([a, b])),
        "tensors": _names(ge.get_tensors(g)),
        "consuming": _names(ge.get_consuming_ops([b, p])),
        "generating": _names(ge.get_generating_ops([q, p, q])),
        "placeholder_names": [ge.placeholder_name(q), ge.placeholder_name(q, scope="new"),
                              ge.placeholder_name(), ge.placeholder_name(scope="top/")],
        "ph": [ge.ph(tf.float32, [3]).name, ge.ph(tf.int32, scope="top").name],
        "placeholder_from_tensor": [ge.make_placeholder_from_tensor(p).name,
                                    ge.make_placeholder_from_tensor(p).shape.as_list()],
        "can_be_regex": [ge.can_be_regex("a"), ge.can_be_regex(a)],
    }


def case_subgraph_view(tf):
    ge = _ge(tf)
    x, w, a, b, c, d, e, s = _diamond(tf)
    g = tf.get_default_graph()
    view = ge.sgv(a.op, b.op, c.op)
    with_pass = ge.sgv([c.op, s], graph=g)
    remapped = view.remap_inputs([1, 0])
    scoped = ge.sgv_scope("d", g)
    by_regex = ge.sgv("^[ab]$", graph=g)
    return {
        "ops": _names(view.ops),
        "inputs": _names(view.inputs),
        "outputs": _names(view.outputs),
        "passthroughs": [_names(with_pass.passthroughs), _names(with_pass.inputs),
                         _names(with_pass.outputs)],
        "connected": [_names(with_pass.connected_inputs),
                      _names(with_pass.connected_outputs)],
        "remap_inputs": _names(remapped.inputs),
        "remap_outputs": _names(ge.sgv(a.op, b.op).remap_outputs([1, 1, 0]).outputs),
        "remap": [_names(part) for part in (view.remap([x], []).inputs,
                                            view.remap(None, [0, 0]).outputs)],
        "remap_default": _names(remapped.remap_default().inputs),
        "outputs_to_consumers": _names(ge.sgv(b.op).remap_outputs_to_consumers().outputs),
        "outputs_make_unique": _names(ge.sgv(a.op).remap_outputs([0, 0])
                                      .remap_outputs_make_unique().outputs),
        "remove_unused": _names(view.remap_outputs([]).remap_inputs([0])
                                .remove_unused_ops().ops),
        "consumers": _names(view.consumers()),
        "indices": [view.input_index(x), view.output_index(c)],
        "find": view.find_op_by_name("b").name,
        "find_missing": catch(lambda: view.find_op_by_name("nothing")),
        "op0": view.op(0).name,
        "scope": _names(scoped.ops),
        "regex": _names(by_regex.ops),
        "empty": [bool(ge.sgv()), bool(view), ge.sgv().graph is None],
        "is_passthrough": [with_pass.is_passthrough(s), with_pass.is_passthrough(c)],
        "bad_remap": catch(lambda: view.remap_inputs([0, 0])),
        "out_of_range": catch(lambda: view.remap_outputs([5])),
    }


def case_reroute(tf):
    ge = _ge(tf)
    x, w, a, b, c, d, e, s = _diamond(tf)
    y = tf.placeholder(tf.float32, [2], name="y")
    v = tf.constant([10.0, 20.0], name="v")
    feed = {x: [1.0, 2.0], y: [0.5, -0.5]}
    out = {"before": _run(tf, [c, d, s], feed)}
    out["n_reroute"] = ge.reroute_ts([y], [x], can_modify=[a.op])
    out["after_reroute"] = _run(tf, [a, b, c], feed)
    out["a_inputs"] = _names(a.op.inputs)
    out["n_swap"] = ge.swap_ts([a, v], [b, w], cannot_modify=[s.op])
    out["after_swap"] = _run(tf, [c, s], feed)
    out["c_inputs"] = _names(c.op.inputs)
    ge.add_control_inputs(s.op, [d.op, e.op])
    out["control_add"] = _names(s.op.control_inputs)
    ge.remove_control_inputs(s.op, d.op)
    out["control_remove"] = _names(s.op.control_inputs)
    out["control_missing"] = catch(lambda: ge.remove_control_inputs(s.op, [c.op]),
                                   message=True)
    out["control_twice"] = catch(lambda: ge.add_control_inputs(s.op, [e.op]), message=True)
    out["size_mismatch"] = catch(lambda: ge.reroute_ts([x, y], [a]), message=True)
    n = tf.constant([1, 2], name="n")
    out["dtype_mismatch"] = catch(lambda: ge.reroute_ts([n], [a]))
    out["shape_mismatch"] = catch(lambda: ge.reroute_ts([tf.zeros([3])], [a]))
    out["final"] = _run(tf, [c, d, s], feed)
    return out


def case_reroute_subgraphs(tf):
    ge = _ge(tf)
    i0 = tf.placeholder(tf.float32, [], name="i0")
    i1 = tf.placeholder(tf.float32, [], name="i1")
    with tf.name_scope("f"):
        f = tf.multiply(i0, 2.0, name="out")
    with tf.name_scope("h"):
        h = tf.add(i1, 100.0, name="out")
    u = tf.identity(f, name="use_f")
    z = tf.identity(h, name="use_h")
    feed = {i0: 3.0, i1: 5.0}
    vf, vh = ge.sgv_scope("f", tf.get_default_graph()), ge.sgv_scope("h", tf.get_default_graph())
    out = {"before": _run(tf, [u, z], feed)}
    ge.swap_inputs(vf, vh)
    out["swapped_inputs"] = _run(tf, [u, z], feed)
    out["views_after_swap"] = [_names(vf.inputs), _names(vh.inputs)]
    ge.swap_outputs(vf, vh)
    out["swapped_outputs"] = _run(tf, [u, z], feed)
    ge.reroute_outputs(vf, vh)
    out["rerouted_outputs"] = _run(tf, [u, z], feed)
    ge.reroute_inputs(vh, vf)
    out["rerouted_inputs"] = _run(tf, [u, z], feed)
    ge.swap_ios(vf, vh)
    out["swap_ios"] = _run(tf, [u, z], feed)
    out["z_input"] = _names(z.op.inputs)
    return out


def case_edit(tf):
    ge = _ge(tf)
    x = tf.placeholder(tf.float32, [2], name="x")
    a = tf.add(x, 1.0, name="a")
    b = tf.multiply(a, 3.0, name="b")
    c = tf.subtract(b, 2.0, name="c")
    k = tf.identity(b, name="k")
    out = {}
    view, ins, outs = ge.detach(ge.sgv(b.op))
    out["detached_inputs"] = [[t.name, t.shape.as_list() if t.shape.dims is not None
                               else None] for t in ins]
    out["detached_outputs"] = [[t.name, t.shape.as_list()] for t in outs]
    out["view_inputs"] = _names(view.inputs)
    out["c_input"] = _names(c.op.inputs)
    out["detached_run"] = _run(tf, [b, c, k], {ins[0]: [1.0, 2.0], ins[1]: 4.0,
                                               outs[0]: [7.0, 8.0]})
    ge.connect(ge.sgv(a.op), ge.sgv(b.op).remap_inputs([0]))
    out["connected_b_inputs"] = _names(b.op.inputs)
    ge.connect(ge.sgv(b.op), ge.sgv(c.op).remap_inputs([0]))
    out["connected_run"] = _run(tf, [b, c], {x: [1.0, 2.0], ins[1]: 4.0})
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [2], name="x")
    a = tf.add(x, 1.0, name="a")
    b = tf.negative(a, name="b")
    c = tf.multiply(b, 2.0, name="c")
    view, ins = ge.bypass(ge.sgv(b.op))
    out["bypass_inputs"] = _names(ins)
    out["bypass_c_input"] = _names(c.op.inputs)
    out["bypass_run"] = _run(tf, c, {x: [1.0, 2.0]})
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [], name="x")
    g0 = tf.add(x, 1.0, name="g0")
    with tf.control_dependencies([g0]):
        g1 = tf.multiply(x, 2.0, name="g1")
    g2 = tf.identity(g1, name="g2")
    ge.detach_control_inputs(ge.sgv(g1.op))
    out["detach_control_inputs"] = _names(g1.op.control_inputs)
    with tf.control_dependencies([g2]):
        g3 = tf.identity(x, name="g3")
    ge.detach_control_outputs(ge.sgv(g2.op), ge.ControlOutputs(tf.get_default_graph()))
    out["detach_control_outputs"] = _names(g3.op.control_inputs)
    out["bad_type"] = catch(lambda: ge.detach_control_outputs(ge.sgv(g2.op), [g3.op]))
    return out


def case_copy(tf):
    ge = _ge(tf)
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.placeholder(tf.float32, [2], name="y")
    with tf.name_scope("net"):
        a = tf.multiply(x, 2.0, name="a")
        b = tf.add(a, y, name="b")
        c = tf.concat([a, b], 0, name="c")
        with tf.control_dependencies([a]):
            d = tf.identity(c, name="d")
    tf.add_to_collection("mine", b)
    tf.add_to_collection(tf.GraphKeys.ACTIVATIONS, c)
    g = tf.get_default_graph()
    feed = {x: [1.0, 2.0], y: [10.0, 20.0]}
    out = {}
    view = ge.sgv_scope("net", g)
    copied, info = ge.copy(view, dst_scope="copy")
    out["copied_ops"] = _names(copied.ops)
    out["copied_inputs"] = [[t.name, t.op.type] for t in copied.inputs]
    out["placeholders"] = [[t.name, t.op.type, t.shape.as_list()]
                           for t in info.transformed(b.op).inputs]
    out["copied_outputs"] = _names(copied.outputs)
    out["control"] = _names(info.transformed(d.op).control_inputs)
    out["transformed"] = _names(info.transformed([a, b]))
    out["original"] = info.original(info.transformed(b)).name
    out["missing"] = info.transformed(x) is None
    out["collections"] = [_names(g.get_collection("mine")), _names(g.get_collection("copy/mine")),
                          _names(g.get_collection(tf.GraphKeys.ACTIVATIONS))]
    out["shapes"] = [t.shape.as_list() for t in copied.outputs]
    second, _ = ge.copy(view, dst_scope="copy")
    out["second_scope"] = _names(second.ops)[:2]
    replaced, rinfo = ge.copy_with_input_replacements(view, {x: y})
    out["replaced_ops"] = _names(replaced.ops)
    out["replaced_inputs"] = _names(rinfo.transformed(a.op).inputs)
    # Copying with a source scope renames user collections out of it: TF's ValueError.
    out["src_scope_collection"] = catch(lambda: ge.copy(view, tf.Graph(), "x", "net"),
                                        message=True)
    g2 = tf.Graph()
    other, oinfo = ge.copy(view, g2, "imported")
    out["other_graph"] = [_names(other.ops), _names(oinfo.transformed(b.op).inputs),
                          _names(g2.get_collection("imported/mine"))]
    with tf.Session() as sess:
        # The copy's view lists no inputs (TF maps only inputs that were copied), so the
        # placeholders standing for x and y are found on the copied ops.
        ph = [info.transformed(a.op).inputs[0], info.transformed(b.op).inputs[1]]
        out["copy_run"] = sess.run(info.transformed(d), {ph[0]: [1.0, 2.0], ph[1]: [3.0, 4.0]})
        out["replaced_run"] = sess.run(rinfo.transformed(d), feed)
        out["original_run"] = sess.run(d, feed)
    with tf.Session(graph=g2) as sess:
        ins = [oinfo.transformed(a.op).inputs[0], oinfo.transformed(b.op).inputs[1]]
        out["other_run"] = sess.run(oinfo.transformed(d), {ins[0]: [1.0, 1.0],
                                                           ins[1]: [0.0, 1.0]})
    return out


def case_graph_replace(tf):
    ge = _ge(tf)
    x = tf.placeholder(tf.float32, [3], name="x")
    h = tf.tanh(x, name="h")
    k = tf.multiply(h, 2.0, name="k")
    y = tf.reduce_sum(k, name="y")
    other = tf.constant(7.0, name="other")
    z = tf.constant([0.5, -1.0, 2.0], name="z")
    new_y = ge.graph_replace(y, {h: z})
    nested = ge.graph_replace({"y": y, "pair": (k, other)}, {h: z}, dst_scope="re")
    with tf.Session() as sess:
        return {
            "name": new_y.name,
            "nested_names": [nested["y"].name, nested["pair"][0].name,
                             nested["pair"][1].name],
            "values": sess.run([y, new_y, nested["y"]], {x: [1.0, 2.0, 3.0]}),
            "not_connected": catch(lambda: ge.graph_replace(other, {h: z}), message=True),
        }


def case_errors(tf):
    ge = _ge(tf)
    x = tf.placeholder(tf.float32, [2], name="x")
    a = tf.add(x, 1.0, name="a")
    g = tf.get_default_graph()
    g2 = tf.Graph()
    with g2.as_default():
        other = tf.constant(1.0, name="other")
    return {
        "regex_without_graph": catch(lambda: ge.select_ops("a"), message=True),
        "bad_keyword": catch(lambda: ge.select_ops("a", grap=g), message=True),
        "graph_not_allowed": catch(lambda: ge.make_list_of_op(g, allow_graph=False),
                                   message=True),
        "tensor_as_op": catch(lambda: ge.make_list_of_op([a])),
        "two_graphs": catch(lambda: ge.make_list_of_op([a.op, other.op])),
        "empty_unique": catch(lambda: ge.util.get_unique_graph([]), message=True),
        "bad_regex_type": catch(lambda: ge.make_regex(3)),
        "cios": catch(lambda: ge.check_cios(control_outputs=True)),
        "cios_both": catch(lambda: ge.check_cios(control_outputs=ge.ControlOutputs(g),
                                                 control_ios=ge.ControlOutputs(g)),
                           message=True),
        "sgv_graph_mismatch": catch(lambda: ge.sgv(a.op, graph=g2), message=True),
        "copy_bad_graph": catch(lambda: ge.copy(ge.sgv(a.op), dst_graph="g")),
        "control_input_type": catch(lambda: ge.add_control_inputs(a, [x.op])),
        "placeholder_name_type": catch(lambda: ge.placeholder_name(a.op)),
    }


def case_checkpointed_gradients(tf):
    """The rewrite gradient checkpointing does (memory_saving_gradients.py): recompute the
    forward from a stop-gradient checkpoint, then chain tf.gradients through it."""
    ge = _ge(tf)
    rng = np.random.RandomState(0)
    w0 = tf.constant(rng.randn(4, 4).astype(np.float32) * 0.5, name="w0")
    w1 = tf.constant(rng.randn(4, 4).astype(np.float32) * 0.5, name="w1")
    x = tf.constant(rng.randn(3, 4).astype(np.float32), name="x")
    h0 = tf.tanh(tf.matmul(x, w0), name="h0")
    h1 = tf.tanh(tf.matmul(h0, w1), name="h1")
    h2 = tf.sigmoid(tf.matmul(h1, w0), name="h2")
    loss = tf.reduce_sum(h2 * h2, name="loss")
    reference = tf.gradients(loss, [w0, w1])
    fwd = ge.get_forward_walk_ops([w0.op, w1.op], within_ops=ge.get_backward_walk_ops(
        [loss.op], inclusive=True))
    fwd = [op for op in fwd if op.inputs]
    checkpoint = h1
    checkpoint_sg = tf.stop_gradient(checkpoint, name="h1_sg")
    to_copy = [op for op in ge.get_backward_walk_ops([loss.op], stop_at_ts=[checkpoint])
               if op in fwd and op is not checkpoint.op]
    _, info = ge.copy_with_input_replacements(ge.sgv(to_copy), {})
    n_rerouted = ge.reroute_ts([checkpoint_sg], [checkpoint],
                               can_modify=list(info._transformed_ops.values()))
    copied_loss = info._transformed_ops[loss.op].outputs[0]
    d_top = tf.gradients(copied_loss, [checkpoint_sg, w0, w1])
    below = [op for op in ge.get_backward_walk_ops([checkpoint.op]) if op in fwd]
    _, info2 = ge.copy_with_input_replacements(ge.sgv(below), {})
    boundary = info2._transformed_ops[checkpoint.op].outputs[0]
    d_below = tf.gradients(boundary, [w0, w1], grad_ys=[d_top[0]])
    grads = [d_top[1] + d_below[0], d_below[1]]
    with tf.Session() as sess:
        ref, got = sess.run([reference, grads])
    return {"copied": sorted(info._transformed_ops[op].name for op in to_copy),
            "n_rerouted": n_rerouted, "top_w1_is_none": d_top[2] is None,
            "reference": ref, "checkpointed": got}
