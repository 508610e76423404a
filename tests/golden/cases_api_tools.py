"""Golden cases for TF's tool namespaces (issue 12): tf.resource_loader,
tf.nondifferentiable_batch_function, tf.profiler, the cluster protos."""

from __future__ import annotations

import inspect
import os
import sys

import numpy as np

from tests.golden.harness import catch


def case_resource_loader(tf):
    rl = tf.resource_loader
    here = os.path.dirname(inspect.getfile(sys._getframe(0)))
    library = os.path.dirname(inspect.getfile(rl.load_resource))
    return {"data_files_path": rl.get_data_files_path() == here,
            "datafile": rl.get_path_to_datafile("sub/x.txt") == os.path.join(here, "sub/x.txt"),
            "root_is_library_dir": rl.get_root_dir_with_all_resources() == library,
            "readahead": rl.readahead_file_path("/some/file", readahead="1M"),
            "missing": catch(lambda: rl.load_resource("no_such_resource_file.bin"))}


def _batch_run(tf, decorator, fn, feeds, *args):
    def go():
        out = decorator(fn)(*args)
        with tf.Session() as sess:
            return sess.run(out, feeds)
    return catch(go)


def case_batch_function_outputs(tf):
    batch = tf.nondifferentiable_batch_function
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 2])
    c = tf.constant([5.0, 6.0])

    @batch(1, 4, 10)
    def layer(a, b):
        return tf.matmul(a, a) + b, a * c

    out = layer(x, y)
    xv = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    with tf.Session() as sess:
        values = sess.run(out, {x: xv, y: np.ones((2, 2), np.float32)})
    structured = batch(1, 4, 10)(lambda a: {"u": a + 1, "v": [a - 1]})(x)
    with tf.Session() as sess:
        struct_values = sess.run(structured, {x: xv})
    return {"type": type(out).__name__, "names": [t.name for t in out],
            "op_type": out[0].op.type, "ranks": [t.shape.ndims for t in out],
            "values": list(values), "structured": struct_values,
            "empty": _batch_run(tf, batch(1, 4, 10), lambda a: a + 1,
                                {x: np.ones((0, 2))}, x),
            "padded_sizes": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[2, 4]),
                                       lambda a: a * 2, {x: xv[:1]}, x),
            "gradient": catch(lambda: tf.gradients(out[1], x))}


def case_batch_function_errors(tf):
    batch = tf.nondifferentiable_batch_function
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 2])
    s = tf.placeholder(tf.float32, [])
    ones = np.ones((3, 2), np.float32)
    return {
        "not_tensor": catch(lambda: batch(1, 4, 10)(lambda a: a)(ones), message=True),
        "no_args": catch(lambda: batch(1, 4, 10)(lambda: tf.constant([1]))()),
        "too_big": _batch_run(tf, batch(1, 2, 10), lambda a: a, {x: ones}, x),
        "limit": _batch_run(tf, batch(1, 0, 10), lambda a: a, {x: ones}, x),
        "not_increasing": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[3, 2]),
                                     lambda a: a, {x: ones}, x),
        "final_entry": _batch_run(tf, batch(1, 4, 10, allowed_batch_sizes=[2, 3],
                                            enable_large_batch_splitting=False),
                                  lambda a: a, {x: ones}, x),
        "scalar_input": _batch_run(tf, batch(1, 4, 10), lambda a: a + 1, {s: 1.0}, s),
        "unequal": _batch_run(tf, batch(1, 4, 10), lambda a, b: a + 1,
                              {x: ones, y: ones[:2]}, x, y),
        "scalar_output": _batch_run(tf, batch(1, 4, 10), tf.reduce_sum, {x: ones}, x),
        "rows_output": _batch_run(tf, batch(1, 4, 10), lambda a: a[:1], {x: ones}, x),
    }


def _free_address():
    import socket
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return f"localhost:{s.getsockname()[1]}"


def _tasks(spec):
    """as_dict() with sparse task maps as sorted (index, address) pairs (JSON keys are
    strings)."""
    return {job: tasks if isinstance(tasks, list) else sorted(tasks.items())
            for job, tasks in spec.as_dict().items()}


def case_cluster_protos(tf):
    spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": {3: "p3:1"},
                                 "chief": ["c:1"]})
    cluster_def = spec.as_cluster_def()
    job = tf.train.JobDef(name="ps", tasks={0: "a:1", 2: "b:2"})
    server_def = tf.train.ServerDef(cluster=tf.train.ClusterDef(job=[job]), job_name="ps",
                                    task_index=2, protocol="grpc")
    server_def.default_session_config.intra_op_parallelism_threads = 3
    config = tf.ConfigProto(cluster_def=cluster_def)
    return {
        "types": [type(cluster_def).__name__, tf.train.ClusterDef.DESCRIPTOR.full_name,
                  tf.train.JobDef.DESCRIPTOR.full_name,
                  tf.train.ServerDef.DESCRIPTOR.full_name],
        "text": str(cluster_def),
        "bytes": np.frombuffer(cluster_def.SerializeToString(deterministic=True), np.uint8),
        "round_trip": _tasks(tf.train.ClusterSpec(cluster_def)),
        "job_def": _tasks(tf.train.ClusterSpec(tf.train.ClusterDef(job=[job]))),
        "server_def": str(server_def),
        "server_def_bytes": np.frombuffer(server_def.SerializeToString(deterministic=True),
                                          np.uint8),
        "config_cluster": str(config.cluster_def) == str(cluster_def),
        "bad_job": catch(lambda: tf.train.ClusterSpec({1: ["a:1"]}).as_cluster_def()),
        "bad_address": catch(lambda: tf.train.ClusterSpec({"a": [3]}).as_cluster_def()),
        "bad_cluster": catch(lambda: tf.train.ClusterSpec(["a:1"]), message=True),
    }


def case_server_def_of_server(tf):
    address = _free_address()
    server_def = tf.train.ServerDef(
        cluster=tf.train.ClusterSpec({"local": [address]}).as_cluster_def(),
        job_name="local", task_index=0, protocol="grpc")
    server = tf.train.Server(server_def, start=False)
    made = server.server_def
    expected = tf.train.ServerDef()
    expected.CopyFrom(server_def)
    expected.default_session_config.intra_op_parallelism_threads = 2
    cluster_made = tf.train.Server(
        {"local": [_free_address()]}, config=tf.ConfigProto(intra_op_parallelism_threads=2),
        start=False).server_def
    return {"same": made == server_def, "type": type(made).__name__,
            "job": [made.job_name, made.task_index, made.protocol],
            "from_cluster": [cluster_made.job_name, cluster_made.task_index,
                             cluster_made.protocol,
                             cluster_made.default_session_config.intra_op_parallelism_threads,
                             len(cluster_made.cluster.job)],
            "no_job": catch(lambda: tf.train.Server({"a": ["x:1"], "b": ["y:1"]},
                                                    start=False), message=True),
            "no_task": catch(lambda: tf.train.Server({"a": ["x:1", "y:1"]}, start=False),
                             message=True),
            "bad": catch(lambda: tf.train.Server(3, start=False), message=True)}


def _profiled_model(tf):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [8, 28, 28, 1], name="x")
        with tf.variable_scope("conv1"):
            w = tf.get_variable("w", [5, 5, 1, 4])
            b = tf.get_variable("b", [4])
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b))
        p = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        d = tf.nn.depthwise_conv2d(p, tf.ones([3, 3, 4, 2]), [1, 1, 1, 1], "VALID")
        flat = tf.reshape(p, [8, -1])
        with tf.variable_scope("fc"):
            weights = tf.get_variable("W", [14 * 14 * 4, 10])
            c = tf.get_variable("c", [10], trainable=False)
            logits = tf.matmul(flat, weights) + c
        dense = tf.layers.dense(logits, 5, name="dense")
        loss = tf.reduce_mean(tf.square(dense)) + tf.reduce_sum(d) + tf.nn.l2_loss(logits)
        soft = tf.nn.softmax(logits)
        tf.argmax(soft, 1)
        u = tf.placeholder(tf.float32, [None, 3])
        tf.maximum(u * 2.0, 1.0)
        tf.add_n([logits, logits, logits])
        tf.rsqrt(tf.abs(logits) + 1.0)
        tf.identity(loss, name="loss")
    # No tf.gradients: TF adds one op per backward step (Conv2DBackpropFilter, ...), whose
    # flops it counts; tf1compat's gradient is one SymbolicGradient op (docs/training.md).
    return graph


def _profile_report(tf, graph, path, cmd, options):
    builder = tf.profiler.ProfileOptionBuilder
    options = builder(options).with_file_output(path).build()
    result = tf.profiler.profile(graph, cmd=cmd, options=options)
    with open(path) as f:
        text = f.read()
    return {"type": type(result).__name__, "proto": str(result), "text": text}


def case_profiler_flops_and_params(tf):
    import tempfile
    graph = _profiled_model(tf)
    builder = tf.profiler.ProfileOptionBuilder
    path = os.path.join(tempfile.mkdtemp(), "report.txt")
    flops = tf.profiler.profile(graph, options=builder(builder.float_operation())
                                .with_empty_output().build())
    params = tf.profiler.profile(graph, options=builder(
        builder.trainable_variables_parameter()).with_empty_output().build())
    return {"total_float_ops": flops.total_float_ops,
            "total_parameters": params.total_parameters,
            "scope_flops": _profile_report(tf, graph, path, "scope", builder.float_operation()),
            "scope_params": _profile_report(tf, graph, path, "scope",
                                            builder.trainable_variables_parameter()),
            "op_flops": _profile_report(tf, graph, path, "op", builder.float_operation()),
            "op_params": _profile_report(tf, graph, path, "op",
                                         builder.trainable_variables_parameter())}


def case_profiler_options(tf):
    import tempfile
    graph = _profiled_model(tf)
    builder = tf.profiler.ProfileOptionBuilder
    path = os.path.join(tempfile.mkdtemp(), "report.txt")
    depth = builder(builder.trainable_variables_parameter()).with_max_depth(1).build()
    hidden = builder(builder.float_operation()).with_node_names(
        hide_name_regexes=[".*Initializer.*"]).order_by("name").build()
    shown = builder(builder.float_operation()).with_node_names(
        show_name_regexes=["conv1.*"]).account_displayed_op_only(False).build()
    types = builder(builder.trainable_variables_parameter()).select(
        ["params", "op_types", "occurrence"]).build()
    min_params = builder(builder.trainable_variables_parameter()).with_min_parameters(
        200).build()
    op_columns = builder(builder.float_operation()).account_displayed_op_only(
        False).with_min_float_operations(100).select(
        ["float_ops", "params", "micros", "occurrence", "bytes", "op_types"]).build()
    every_column = builder(builder.trainable_variables_parameter()).select(
        ["occurrence", "tensor_value", "input_shapes", "op_types", "device", "cpu_micros",
         "accelerator_micros", "micros", "output_bytes", "residual_bytes", "peak_bytes",
         "bytes", "float_ops", "params"]).build()
    presets = [builder().build(), builder.float_operation(),
               builder.trainable_variables_parameter(), builder.time_and_memory()]
    return {"depth": _profile_report(tf, graph, path, "scope", depth),
            "hidden": _profile_report(tf, graph, path, "scope", hidden),
            "shown": _profile_report(tf, graph, path, "scope", shown),
            "types": _profile_report(tf, graph, path, "scope", types),
            "min_params": _profile_report(tf, graph, path, "scope", min_params),
            "op_columns": _profile_report(tf, graph, path, "op", op_columns),
            "every_column": _profile_report(tf, graph, path, "scope", every_column),
            "default_options": str(tf.profiler.profile(graph, options=builder(
                builder.trainable_variables_parameter()).with_empty_output().build())
                == tf.profiler.profile(graph)),
            "presets": [sorted([k, v] for k, v in p.items()) for p in presets],
            "bad_cmd": catch(lambda: tf.profiler.profile(graph, cmd="nope"))}


def case_profiler_class_and_op_log(tf):
    import tempfile
    graph = _profiled_model(tf)
    builder = tf.profiler.ProfileOptionBuilder
    profiler = tf.profiler.Profiler(graph)
    quiet = builder(builder.float_operation()).with_empty_output().build()
    scope = profiler.profile_name_scope(quiet)
    ops = profiler.profile_operations(quiet)
    log = tf.profiler.OpLogProto()
    entry = log.log_entries.add()
    entry.name = "fc/MatMul"
    entry.float_ops = 7
    entry.types.append("my_type")
    mine = tf.profiler.profile(graph, op_log=log, options=builder(builder.float_operation())
                               .with_accounted_types(["my_type"]).with_empty_output().build())
    log_dir = tempfile.mkdtemp()
    tf.profiler.write_op_log(graph, log_dir, op_log=log, add_trace=False)
    with open(os.path.join(log_dir, "tfprof_log"), "rb") as f:
        written = tf.profiler.OpLogProto.FromString(f.read())
    entries = sorted([e.name, e.float_ops, list(e.types)] for e in written.log_entries)
    return {"scope_total": scope.total_float_ops, "ops_total": ops.total_float_ops,
            "scope_type": type(scope).__name__, "ops_type": type(ops).__name__,
            "op_log_total": mine.total_float_ops, "entries": entries,
            "protos": [tf.profiler.GraphNodeProto.DESCRIPTOR.full_name,
                       tf.profiler.MultiGraphNodeProto.DESCRIPTOR.full_name,
                       tf.profiler.AdviceProto.DESCRIPTOR.full_name,
                       tf.profiler.OpLogProto.DESCRIPTOR.full_name]}


def case_profiler_flops_per_op_type(tf):
    """Every op type TF has a flops statistic for, through the op view's per-type sums."""
    graph = tf.Graph()
    raw = tf.raw_ops
    with graph.as_default():
        x = tf.ones([2, 6, 6, 3])
        v = tf.ones([4, 5])
        w = tf.Variable(tf.ones([4, 5]))
        tf.assign_add(w, v)
        tf.assign_sub(w, v)
        for fn in (tf.reciprocal, tf.square, tf.rsqrt, tf.log, tf.negative, tf.nn.l2_loss,
                   tf.nn.softmax):
            fn(v)
        for fn in (tf.add, tf.subtract, tf.multiply, tf.realdiv, tf.maximum, tf.minimum,
                   tf.pow, tf.greater_equal, tf.greater, tf.less_equal, tf.less, tf.equal,
                   tf.not_equal, tf.squared_difference):
            fn(v, tf.ones([5]))
        raw.Add(x=v, y=v)
        raw.RsqrtGrad(y=v, dy=v)
        tf.reduce_mean(v, 1)
        tf.reduce_sum(v)
        tf.argmax(v, 0)
        tf.argmin(v, 1)
        raw.BiasAddGrad(out_backprop=x)
        tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        pooled = tf.nn.max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        raw.AvgPoolGrad(orig_input_shape=[2, 6, 6, 3], grad=tf.ones([2, 3, 3, 3]),
                        ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
        raw.MaxPoolGrad(orig_input=x, orig_output=pooled, grad=pooled, ksize=[1, 3, 3, 1],
                        strides=[1, 2, 2, 1], padding="SAME")
        kernel = tf.ones([3, 3, 3, 4])
        conv = tf.nn.conv2d(x, kernel, [1, 2, 2, 1], "SAME")
        raw.Conv2DBackpropInput(input_sizes=[2, 6, 6, 3], filter=kernel, out_backprop=conv,
                                strides=[1, 2, 2, 1], padding="SAME")
        raw.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, 3, 4], out_backprop=conv,
                                 strides=[1, 2, 2, 1], padding="SAME")
        tf.add_n([v, v, v, v])
        tf.matmul(v, tf.ones([4, 5]), transpose_a=True)
        tf.matmul(tf.ones([3, 2, 4]), tf.ones([3, 4, 5]))
        tf.matmul(tf.ones([3, 4, 2]), tf.ones([3, 4, 5]), adjoint_a=True)
        tf.nn.conv3d(tf.ones([1, 4, 5, 6, 2]), tf.ones([2, 2, 3, 2, 3]), [1, 1, 1, 1, 1],
                     "VALID")
        tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 3, 2]), [1, 1, 1, 1], "SAME")
        tf.nn.bias_add(x, tf.ones([3]))
        tf.nn.dilation2d(x, tf.ones([2, 2, 3]), [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
        tf.nn.conv2d(tf.ones([1, 3, 5, 5]), tf.ones([2, 2, 3, 1]), [1, 1, 1, 1], "VALID",
                     data_format="NCHW")
        unknown = tf.placeholder(tf.float32, [None, 5])
        tf.matmul(unknown, tf.ones([5, 2]))
        tf.square(unknown)
    builder = tf.profiler.ProfileOptionBuilder
    result = tf.profiler.profile(graph, cmd="op", options=builder(
        builder.float_operation()).with_min_float_operations(0).with_empty_output().build())
    per_type = {}
    node = result
    while node.children:
        node = node.children[0]
        per_type[node.name] = {g.name: g.float_ops for g in node.graph_nodes}
    return {"per_type": per_type, "total": result.total_float_ops}
