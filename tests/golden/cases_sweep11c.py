"""Golden cases: a third sweep of TF1 API corners (session 11): tf.data transformations,
variable scopes and partitioners, gradients through control flow, random ops with seeds."""

import numpy as np


def _drain(tf, dataset, limit=50):
    it = tf.data.make_one_shot_iterator(dataset)
    nxt = it.get_next()
    out = []
    with tf.Session() as sess:
        try:
            for _ in range(limit):
                out.append(sess.run(nxt))
        except tf.errors.OutOfRangeError:
            out.append("end")
    return out


def case_dataset_transformations(tf):
    ds = tf.data.Dataset.range(10)
    out = {
        "window": _drain(tf, ds.window(3, shift=2, drop_remainder=True).flat_map(
            lambda w: w.batch(3))),
        "padded": _drain(tf, tf.data.Dataset.from_tensor_slices([1, 3, 2]).map(
            lambda n: tf.fill([n], n)).padded_batch(2, padded_shapes=[4], padding_values=-1)),
        "interleave": _drain(tf, tf.data.Dataset.range(3).interleave(
            lambda x: tf.data.Dataset.from_tensors(x).repeat(x + 1), cycle_length=2,
            block_length=2)),
        "zip_take_skip": _drain(tf, tf.data.Dataset.zip((ds, ds.skip(3))).take(4)),
        "filter_enum": _drain(tf, ds.filter(lambda x: x % 3 > 0).apply(
            tf.data.experimental.enumerate_dataset(start=5))),
        "scan": _drain(tf, ds.apply(tf.data.experimental.scan(
            tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))),
        "group_by_window": _drain(tf, ds.apply(tf.data.experimental.group_by_window(
            lambda x: x % 2, lambda k, w: w.batch(3), window_size=3))),
        "bucket": _drain(tf, tf.data.Dataset.from_tensor_slices([1, 5, 2, 6, 3, 7, 8]).map(
            lambda n: tf.fill([n], n)).apply(
            tf.data.experimental.bucket_by_sequence_length(
                lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2]))),
        "unbatch": _drain(tf, ds.batch(4).apply(tf.data.experimental.unbatch())),
        "dict": _drain(tf, tf.data.Dataset.from_tensor_slices(
            {"a": [1, 2], "b": [[1.0, 2.0], [3.0, 4.0]]}).map(
            lambda d: {"sum": d["a"] + tf.cast(tf.reduce_sum(d["b"]), tf.int32)})),
        "shuffle_seeded": _drain(tf, ds.shuffle(4, seed=7).batch(5)),
        "reduce": None,
        "concat_repeat": _drain(tf, ds.take(2).concatenate(ds.skip(8)).repeat(2)),
        "rejection": _drain(tf, tf.data.Dataset.from_tensor_slices(
            ([0, 1, 1, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0])).shard(2, 1)),
        "prefetch_cache": _drain(tf, ds.map(lambda x: x * x).cache().prefetch(2)),
        "sparse": _drain(tf, tf.data.Dataset.from_tensors(
            tf.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])).repeat(2)),
    }
    out["reduce"] = None
    it = tf.data.Dataset.range(5).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)
    with tf.Session() as sess:
        out["reduce"] = sess.run(it)
    out["shapes"] = str(tf.data.get_output_shapes(ds.batch(3)))
    out["types"] = str(tf.data.get_output_types(ds.batch(3)))
    return out


def case_initializable_iterators(tf):
    x = tf.placeholder(tf.float32, [None])
    ds = tf.data.Dataset.from_tensor_slices(x).batch(2)
    it = tf.data.make_initializable_iterator(ds)
    nxt = it.get_next()
    handle_ph = tf.placeholder(tf.string, [])
    feedable = tf.data.Iterator.from_string_handle(handle_ph, tf.data.get_output_types(ds),
                                                   tf.data.get_output_shapes(ds))
    other = tf.data.make_one_shot_iterator(tf.data.Dataset.range(3).map(
        lambda v: tf.cast(v, tf.float32)).batch(2))
    reinit = tf.data.Iterator.from_structure(tf.data.get_output_types(ds),
                                             tf.data.get_output_shapes(ds))
    init_a = reinit.make_initializer(ds)
    out = {}
    with tf.Session() as sess:
        sess.run(it.initializer, {x: [1.0, 2.0, 3.0]})
        out["first"] = [sess.run(nxt), sess.run(nxt)]
        sess.run(it.initializer, {x: [9.0]})
        out["again"] = sess.run(nxt)
        h = sess.run(other.string_handle())
        out["feedable"] = sess.run(feedable.get_next(), {handle_ph: h})
        sess.run(init_a, {x: [5.0, 6.0, 7.0]})
        out["reinit"] = sess.run(reinit.get_next())
    out["names"] = [nxt.name, feedable.get_next().name]
    return out


def case_variable_scopes(tf):
    with tf.variable_scope("outer", reuse=tf.AUTO_REUSE,
                           partitioner=tf.fixed_size_partitioner(3)):
        emb = tf.get_variable("emb", [10, 4], initializer=tf.constant_initializer(0.5))
        again = tf.get_variable("emb", [10, 4])
    with tf.variable_scope("min_slice", partitioner=tf.min_max_variable_partitioner(
            max_partitions=4, min_slice_size=32)):
        mm = tf.get_variable("w", [20, 8])
    with tf.variable_scope("var_part", partitioner=tf.variable_axis_size_partitioner(
            max_shard_bytes=64)):
        vp = tf.get_variable("w", [12, 3])
    with tf.variable_scope("custom", custom_getter=lambda getter, name, *a, **k:
                           getter(name + "_x", *a, **k) * 2.0):
        cg = tf.get_variable("v", [], initializer=tf.ones_initializer())
    with tf.variable_scope("dt", dtype=tf.float64):
        f64 = tf.get_variable("v", [2])
    with tf.name_scope("ns"):
        with tf.variable_scope("vs") as vs:
            inside = tf.get_variable("v", [1])
            op = tf.add(inside, 1.0, name="op")
        with tf.variable_scope(vs, auxiliary_name_scope=False):
            op2 = tf.add(inside, 2.0, name="op2")
    lookup = tf.nn.embedding_lookup(emb, [0, 4, 9])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run({"lookup": lookup, "cg": cg})
    values["names"] = sorted(v.name for v in tf.global_variables())
    values["shapes"] = sorted((v.name, v.shape.as_list()) for v in tf.global_variables())
    values["same"] = emb is again
    values["partitions"] = [len(list(emb)), len(list(mm)), len(list(vp))]
    values["ops"] = [op.name, op2.name, f64.dtype.name, cg.name]
    return values


def case_gradients_through_control_flow(tf):
    x = tf.placeholder(tf.float32, [])
    w = tf.Variable(2.0)
    _, loop = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a * x + w),
                            [0, tf.constant(1.0)])
    branch = tf.cond(x > 1.0, lambda: tf.square(x) * w, lambda: tf.sin(x))
    scanned = tf.scan(lambda a, e: a * e + w, tf.stack([x, x * 2, x * 3]),
                      initializer=tf.constant(1.0))
    mapped = tf.map_fn(lambda e: e * e * w, tf.stack([x, x + 1]))
    stopped = tf.stop_gradient(x * 3) * x
    total = loop + branch + tf.reduce_sum(scanned) + tf.reduce_sum(mapped) + stopped
    grads = tf.gradients(total, [x, w])
    # (tf.hessians(loop, x) raises ValueError in TF: second-order v1 loop gradients; tf1compat
    # computes it, tested in tests/test_gradients*.py)
    aggregated = tf.gradients(total, x, aggregation_method=tf.AggregationMethod.ADD_N)
    with tf.Session() as sess:
        sess.run(w.initializer)
        return {f"at_{v}": sess.run({"grads": grads, "agg": aggregated,
                                     "total": total}, {x: v}) for v in (0.5, 1.5)}


def case_seeded_random_ops(tf):
    tf.set_random_seed(11)
    ops = {
        "uniform": tf.random_uniform([3], seed=1),
        "normal": tf.random_normal([3], seed=2),
        "truncated": tf.truncated_normal([3], seed=3),
        "shuffle": tf.random_shuffle(tf.range(6), seed=4),
        "multinomial": tf.multinomial([[0.0, 1.0, 2.0]], 5, seed=5),
        "gamma": tf.random_gamma([3], 2.0, seed=6),
        "poisson": tf.random_poisson(3.0, [4], seed=7),
        "crop": tf.random_crop(tf.reshape(tf.range(16), [4, 4]), [2, 2], seed=8),
        "no_op_seed": tf.random_uniform([2]),
        "uniform_int": tf.random_uniform([4], 0, 10, dtype=tf.int32, seed=9),
        "dropout": tf.nn.dropout(tf.ones([6]), keep_prob=0.5, seed=10),
        "glorot": tf.glorot_uniform_initializer(seed=12)([2, 3]),
        "variance_scaling": tf.variance_scaling_initializer(2.0, "fan_avg", "normal",
                                                            seed=13)([3, 2]),
        "orthogonal": tf.orthogonal_initializer(seed=14)([3, 3]),
    }
    with tf.Session() as sess:
        first = sess.run(ops)
        second = sess.run(ops["uniform"])
    first["second_uniform"] = second
    return first
