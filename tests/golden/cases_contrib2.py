"""Golden cases: TF 1.15 contrib modules of branch contrib2 — `tf.contrib.nn`'s
`rank_sampled_softmax_loss` and `sampled_sparse_softmax_loss`. TF 2.x has no contrib: the
oracle is TF 1.15's contrib/nn/python/ops/sampling_ops.py run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`): losses and their
gradients for given and default-sampled candidates, num_true > 1, weights split in
"div" and "mod" shards, the resampling temperature, and the argument errors."""

import numpy as np

from tests.golden.harness import catch


def _nn(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.nn
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.nn.python.ops", ["sampling_ops"])


def _problem(batch=4, dim=3, classes=12, num_true=1, seed=0):
    rng = np.random.RandomState(seed)
    weights = rng.randn(classes, dim).astype(np.float32)
    biases = rng.randn(classes).astype(np.float32)
    inputs = rng.randn(batch, dim).astype(np.float32)
    labels = rng.randint(0, classes, (batch, num_true)).astype(np.int64)
    return weights, biases, inputs, labels


def _sampled(tf, ids, num_true=1):
    """Given candidates with their expected counts (a fixed sampler's output)."""
    ids = np.asarray(ids, np.int64)
    return (tf.constant(ids), tf.constant(np.full([4, num_true], 0.3, np.float32)),
            tf.constant(np.linspace(0.1, 0.9, len(ids)).astype(np.float32)))


def _run_default_sampled(tf, make_loss, wanted_ops):
    """The loss `make_loss()` builds under graph seed 7, run once, and which of
    `wanted_ops` its graph holds."""
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        loss = make_loss()
        with tf.Session() as sess:
            value = sess.run(loss)
        ops = {op.type for op in tf.get_default_graph().get_operations()}
        return value, loss.shape.as_list(), sorted(ops & set(wanted_ops))


def _run_with_grads(tf, loss, wrt):
    # Gathered weights get IndexedSlices gradients: compare them dense.
    grads = [tf.convert_to_tensor(g) for g in tf.gradients(tf.reduce_sum(loss), wrt)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run([loss] + grads)
    return {"loss": out[0], "shape": loss.shape.as_list(), "dtype": loss.dtype.name,
            "grads": out[1:]}


def case_rank_sampled_given_candidates(tf):
    nn = _nn(tf)
    w, b, x, y = _problem()
    with tf.Graph().as_default():
        wt, bt, xt = tf.constant(w), tf.constant(b), tf.constant(x)
        loss = nn.rank_sampled_softmax_loss(
            wt, bt, tf.constant(y), xt, num_sampled=6, num_resampled=3, num_classes=12,
            num_true=1, sampled_values=_sampled(tf, [0, 3, 5, 7, 9, 11]),
            resampling_temperature=1.0, remove_accidental_hits=True,
            partition_strategy="mod")
        return _run_with_grads(tf, loss, [wt, bt, xt])


def case_rank_sampled_num_true_temperature(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(num_true=2, seed=1)
    with tf.Graph().as_default():
        wt, bt, xt = tf.constant(w), tf.constant(b), tf.constant(x)
        loss = nn.rank_sampled_softmax_loss(
            wt, bt, tf.constant(y), xt, num_sampled=8, num_resampled=4, num_classes=12,
            num_true=2, sampled_values=_sampled(tf, [1, 2, 4, 6, 8, 9, 10, 11], 2),
            resampling_temperature=0.25, remove_accidental_hits=False,
            partition_strategy="div", name="ranked")
        return _run_with_grads(tf, loss, [wt, xt])


def case_rank_sampled_sharded(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(classes=10, seed=2)
    out = {}
    for strategy in ("div", "mod"):
        with tf.Graph().as_default():
            shards = ([tf.constant(w[:4]), tf.constant(w[4:7]), tf.constant(w[7:])]
                      if strategy == "div" else
                      [tf.constant(w[0::3]), tf.constant(w[1::3]), tf.constant(w[2::3])])
            xt = tf.constant(x)
            loss = nn.rank_sampled_softmax_loss(
                shards, tf.constant(b), tf.constant(y), xt, num_sampled=5, num_resampled=2,
                num_classes=10, num_true=1, sampled_values=_sampled(tf, [0, 2, 5, 8, 9]),
                resampling_temperature=2.0, remove_accidental_hits=True,
                partition_strategy=strategy)
            out[strategy] = _run_with_grads(tf, loss, shards + [xt])
    return out


def case_rank_sampled_default_sampler(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(seed=3)
    value, shape, ops = _run_default_sampled(tf, lambda: nn.rank_sampled_softmax_loss(
        tf.constant(w), tf.constant(b), tf.constant(y), tf.constant(x), num_sampled=6,
        num_resampled=3, num_classes=12, num_true=1, sampled_values=None,
        resampling_temperature=1.0, remove_accidental_hits=True, partition_strategy="mod"),
        ["LearnedUnigramCandidateSampler", "TopKV2"])
    # Only the losses' form is compared (written when tf1compat's learned unigram sampler
    # did not draw TF's ids; its draws are TF's since cases_thirdparty_realcode_ss).
    return {"finite_non_negative": bool(np.all(np.isfinite(value) & (value >= 0))),
            "shape": shape, "run_shape": list(value.shape), "ops": ops}


def case_rank_sampled_argument_errors(tf):
    nn = _nn(tf)
    w, b, x, y = _problem()

    def call(**kwargs):
        with tf.Graph().as_default():
            args = {"weights": tf.constant(w), "biases": tf.constant(b),
                    "labels": tf.constant(y), "inputs": tf.constant(x), "num_sampled": 6,
                    "num_resampled": 3, "num_classes": 12, "num_true": 1,
                    "sampled_values": None, "resampling_temperature": 1.0,
                    "remove_accidental_hits": True, "partition_strategy": "mod"}
            args.update(kwargs)
            return nn.rank_sampled_softmax_loss(**args).shape.as_list()
    return {"missing_arguments": catch(lambda: nn.rank_sampled_softmax_loss(
                w, b, y, x, num_sampled=6, num_resampled=3, num_classes=12)),
            "too_many_sampled": catch(lambda: call(num_sampled=13), message=True),
            "resampled_not_fewer": catch(lambda: call(num_resampled=6), message=True),
            "bad_strategy": catch(lambda: call(partition_strategy="x"), message=True)}


def case_sampled_sparse_given_candidates(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(seed=4)
    out = {}
    for remove in (True, False):
        with tf.Graph().as_default():
            wt, bt, xt = tf.constant(w), tf.constant(b), tf.constant(x)
            loss = nn.sampled_sparse_softmax_loss(
                wt, bt, tf.constant(y), xt, num_sampled=5, num_classes=12,
                sampled_values=_sampled(tf, [int(y[0, 0]), 1, 4, 6, 10]),
                remove_accidental_hits=remove)
            out[str(remove)] = _run_with_grads(tf, loss, [wt, bt, xt])
    return out


def case_sampled_sparse_sharded_int32_labels(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(classes=9, seed=5)
    with tf.Graph().as_default():
        shards = [tf.constant(w[:5]), tf.constant(w[5:])]
        xt = tf.constant(x)
        loss = nn.sampled_sparse_softmax_loss(
            shards, tf.constant(b), tf.constant(y.astype(np.int32)), xt, num_sampled=4,
            num_classes=9, sampled_values=_sampled(tf, [0, 3, 6, 8]),
            partition_strategy="div")
        return _run_with_grads(tf, loss, shards + [xt])


def case_sampled_sparse_default_sampler(tf):
    nn = _nn(tf)
    w, b, x, y = _problem(seed=6)
    value, shape, ops = _run_default_sampled(tf, lambda: nn.sampled_sparse_softmax_loss(
        tf.constant(w), tf.constant(b), tf.constant(y), tf.constant(x), num_sampled=5,
        num_classes=12), ["LogUniformCandidateSampler"])
    return {"loss": value, "shape": shape, "sampler": ops}


# -- tf.contrib.copy_graph ---------------------------------------------------------------------

def _copy_graph(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.copy_graph
    import oracle_contrib
    return oracle_contrib.tf115_copy_graph(tf)


def _source_graph(tf):
    """x -> relu(x @ w + b) with w trainable, b not, y in a collection of its own."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable([[1.0], [-2.0]], name="w")
        b = tf.Variable([0.5], trainable=False, name="b", collections=[
            tf.GraphKeys.GLOBAL_VARIABLES, "biases"])
        with tf.device("/cpu:0"):
            pre = tf.add(tf.matmul(x, w), b, name="pre")
        with tf.control_dependencies([x.op]):
            y = tf.nn.relu(pre, name="y")
        tf.add_to_collection("outputs", y)
    return graph, x, w, b, y


def _describe(graph):
    return {"ops": [(op.name, op.type, [t.name for t in op.inputs],
                     sorted(c.name for c in op.control_inputs)) for op in graph.get_operations()],
            "collections": {k: sorted(getattr(v, "name", str(v)) for v in graph.get_collection(k))
                            for k in sorted(graph.get_all_collection_keys())
                            if isinstance(k, str)}}


def case_copy_graph_scoped_copy(tf):
    cg = _copy_graph(tf)
    _, _, w, b, y = _source_graph(tf)
    to_graph = tf.Graph()
    w2 = cg.copy_variable_to_graph(w, to_graph, "copied")
    b2 = cg.copy_variable_to_graph(b, to_graph, "copied")
    y2 = cg.copy_op_to_graph(y, to_graph, [w2, b2], "copied")
    again = cg.copy_op_to_graph(y, to_graph, [w2, b2], "copied")
    found_op = cg.get_copied_op(y.op, to_graph, "copied")
    found_tensor = cg.get_copied_op(y, to_graph, "copied")
    pre2 = to_graph.get_operation_by_name("copied/pre")
    with to_graph.as_default(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(y2, {to_graph.get_tensor_by_name("copied/x:0"):
                              np.array([[1.0, 0.25], [-1.0, 2.0]], np.float32)})
    return {"variables": [(v.name, v.dtype.name, str(v.shape)) for v in (w2, b2)],
            "trainable": [v.name for v in to_graph.get_collection(
                tf.GraphKeys.TRAINABLE_VARIABLES)],
            "y": (y2.name, y2.dtype.name, str(y2.shape)), "value": value,
            "same_again": again is y2, "found": (found_op.name, found_tensor.name),
            "pre_device": pre2.device, "graph": _describe(to_graph)}


def case_copy_graph_unscoped_copy(tf):
    cg = _copy_graph(tf)
    graph, x, w, b, y = _source_graph(tf)
    with graph.as_default(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign(w, [[3.0], [4.0]]))
    to_graph = tf.Graph()
    copied = [cg.copy_variable_to_graph(v, to_graph) for v in (w, b)]
    x2 = cg.copy_op_to_graph(x.op, to_graph, copied)
    y2 = cg.copy_op_to_graph(y, to_graph, copied)
    with to_graph.as_default(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(y2, {x2.outputs[0]: np.array([[2.0, 0.5]], np.float32)})
    return {"x": (x2.name, x2.type), "value": value, "graph": _describe(to_graph)}


def case_copy_graph_errors(tf):
    cg = _copy_graph(tf)
    _, x, _, _, y = _source_graph(tf)
    to_graph = tf.Graph()
    return {"not_a_variable": catch(lambda: cg.copy_variable_to_graph(y, to_graph, "s")),
            "missing_copy": catch(lambda: cg.get_copied_op(y.op, to_graph, "s")),
            "not_copyable": catch(lambda: cg.copy_op_to_graph(
                tf.IndexedSlices(y, x), to_graph, [], "s"))}
