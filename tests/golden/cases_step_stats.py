"""Golden cases: a traced Session.run's RunMetadata.step_stats and timeline.Timeline's
Chrome trace, compared by structure (devices, node names, fields, labels, outputs, event
layout), never by times. TF records its executor's own nodes too (_SOURCE, _Arg,
_retval, constants, variables); the cases compare the nodes of the graph's computing ops.
TF's oneDNN build renames MatMul to _MklMatMul in labels, so only its inputs are kept;
`memory` (allocation records, which TF writes only where a kernel allocated instead of
forwarding its input's buffer) is not recorded by tf1compat and left out."""

import json

import numpy as np

_NODES = ("mm", "add", "out", "s")


def _traced_run(tf):
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Graph().as_default():
        x = tf.placeholder_with_default(tf.constant(np.arange(6.0, dtype=np.float32)
                                                    .reshape(2, 3)), [2, 3], name="x")
        w = tf.Variable(tf.ones([3, 4]), name="w")
        y = tf.matmul(x, w, name="mm")
        z = tf.nn.relu(y + 1.0, name="out")
        s = tf.reduce_sum(z, name="s")
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            untraced = tf.RunMetadata()
            sess.run(s, run_metadata=untraced)
            md = tf.RunMetadata()
            value = sess.run(s,
                             options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                             run_metadata=md)
    return value, md, untraced


def _timeline_module(tf):
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.training.profiler import timeline
        return timeline
    from tensorflow.python.client import timeline
    return timeline


def case_step_stats_structure(tf):
    value, md, untraced = _traced_run(tf)
    nodes = {}
    for dev in md.step_stats.dev_stats:
        for ns in dev.node_stats:
            if ns.node_name not in _NODES:
                continue
            name, _, call = ns.timeline_label.partition(" = ")
            nodes[ns.node_name] = {
                "device": dev.device,
                "fields": sorted(f.name for f, _ in ns.ListFields()
                                 if not f.name.endswith(("_micros", "_nanos"))
                                 and f.name != "memory"),
                "has_times": ns.all_start_micros > 0 and ns.all_end_rel_micros >= 0,
                "label_name": name,
                "label_inputs": call[call.index("("):] if ns.node_name == "mm" else call,
                "outputs": [{"slot": o.slot, "dtype": o.tensor_description.dtype,
                             "shape": [d.size for d in o.tensor_description.shape.dim],
                             "bytes": o.tensor_description.allocation_description
                             .requested_bytes} for o in ns.output],
            }
    return {"value": value, "nodes": nodes,
            "devices": sorted({d.device for d in md.step_stats.dev_stats}),
            "untraced_empty": not untraced.HasField("step_stats")}


def case_timeline_chrome_trace(tf):
    _, md, _ = _traced_run(tf)
    timeline = _timeline_module(tf)
    out = {}
    for dataflow, memory in ((True, False), (False, True), (False, False)):
        text = timeline.Timeline(md.step_stats).generate_chrome_trace_format(
            show_dataflow=dataflow, show_memory=memory)
        events = json.loads(text)["traceEvents"]
        kept = []
        for e in events:
            if e["ph"] == "M":
                kept.append({"ph": "M", "pid": e["pid"], "args": e["args"]})
            elif e["ph"] == "X" and e["args"]["name"] in _NODES:
                args = dict(e["args"])
                if e["args"]["name"] == "mm":
                    args.pop("op")
                kept.append({"ph": "X", "cat": e["cat"], "pid": e["pid"],
                             "keys": sorted(e), "args": args})
            elif e["ph"] in ("N", "O", "D") and e["name"] in _NODES:
                kept.append({"ph": e["ph"], "cat": e["cat"], "name": e["name"],
                             "pid": e["pid"], "keys": sorted(e)})
            elif e["ph"] == "C" and not any(k["ph"] == "C" for k in kept):
                kept.append({"ph": "C", "cat": e["cat"], "pid": e["pid"],
                             "keys": sorted(e)})
        out[f"dataflow={dataflow},memory={memory}"] = {
            "starts_with": text[:22], "events": kept}
    return out
