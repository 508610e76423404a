"""Golden cases: tf.data datasets and their transformations in TF1 graph mode.

Each case checks element values (dtype and shape included), the legacy output
types/shapes/classes, element_spec, op names and types, and the end-of-data error.
"""

import numpy as np

from tests.golden.data_util import drain, legacy, new_ops, run_all, spec_text
from tests.golden.harness import catch, describe


def _one_shot(tf, ds):
    return tf.data.make_one_shot_iterator(ds).get_next()


# -- sources -----------------------------------------------------------------------------------

def case_slices_tuple(tf):
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    ds = tf.data.Dataset.from_tensor_slices((x, tf.constant([1, 2, 3])))
    it = ds.make_one_shot_iterator()
    nx = it.get_next()
    with tf.Session() as sess:
        out = drain(tf, sess, nx)
    return {"legacy": legacy(tf, ds), "out": out, "nx": [describe(t) for t in nx],
            "ops": new_ops(tf), "type": type(ds).__name__ in ("DatasetV1Adapter", "DatasetV1"),
            "it_types": spec_text(it.output_types), "it_shapes": spec_text(it.output_shapes)}


def case_slices_python_values(tf):
    ds1 = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    ds2 = tf.data.Dataset.from_tensor_slices([[1.5, 2.5], [3.5, 4.5]])
    ds3 = tf.data.Dataset.from_tensor_slices({"a": np.arange(4, dtype=np.int64),
                                              "b": np.array([b"w", b"x", b"y", b"z"])})
    ds4 = tf.data.Dataset.from_tensor_slices((np.arange(3), (np.ones((3, 2), np.float32),
                                                             [True, False, True])))
    nxs = [_one_shot(tf, d) for d in (ds1, ds2, ds3, ds4)]
    return {"legacy": [legacy(tf, d) for d in (ds1, ds2, ds3, ds4)],
            "values": [run_all(tf, n) for n in nxs], "ops": new_ops(tf)}


def case_slices_mismatch(tf):
    return catch(lambda: tf.data.Dataset.from_tensor_slices(
        (tf.constant([1, 2, 3]), tf.constant([1, 2]))))


def case_from_tensors(tf):
    ds = tf.data.Dataset.from_tensors((tf.constant([1, 2, 3]), "s"))
    nx = _one_shot(tf, ds)
    return {"legacy": legacy(tf, ds), "values": run_all(tf, nx), "ops": new_ops(tf)}


def case_range(tf):
    dss = [tf.data.Dataset.range(5), tf.data.Dataset.range(2, 8),
           tf.data.Dataset.range(2, 9, 3), tf.data.Dataset.range(5, 0, -2),
           tf.data.Dataset.range(0)]
    nxs = [_one_shot(tf, d) for d in dss]
    return {"legacy": legacy(tf, dss[0]), "values": [run_all(tf, n) for n in nxs],
            "ops": new_ops(tf)[:8]}


def case_zip_concatenate(tf):
    a = tf.data.Dataset.range(4)
    b = tf.data.Dataset.from_tensor_slices(np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    z = tf.data.Dataset.zip((a, (b, a)))
    c1 = tf.data.Dataset.from_tensors(tf.constant([1, 2]))
    c2 = tf.data.Dataset.from_tensors(tf.constant([3, 4, 5]))
    c = c1.concatenate(c2)
    nz, nc = _one_shot(tf, z), _one_shot(tf, c)
    bad = catch(lambda: a.concatenate(b))
    return {"zip": legacy(tf, z), "concat": legacy(tf, c), "zv": run_all(tf, nz),
            "cv": run_all(tf, nc), "bad": bad, "ops": new_ops(tf)}


# -- map and filter ----------------------------------------------------------------------------

def case_map_basic(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(4, dtype=np.float32),
                                             np.arange(4, dtype=np.int32)))
    scale = tf.constant(10.0)
    m = ds.map(lambda x, y: (x * scale, tf.cast(y, tf.int64) + 1, [y, y]))
    m2 = m.map(lambda a, b, c: {"sum": a + tf.cast(b, tf.float32), "c": c})
    m3 = m2.map(lambda d: d["sum"], num_parallel_calls=4)
    nx2, nx3 = _one_shot(tf, m2), _one_shot(tf, m3)
    return {"legacy": [legacy(tf, d) for d in (m, m2, m3)], "v2": run_all(tf, nx2),
            "v3": run_all(tf, nx3), "ops": new_ops(tf)}


def case_map_single_tuple_arg(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.arange(3, dtype=np.int32))
    m = ds.map(lambda x: (x, x * 2))
    m2 = m.map(lambda *args: args[0] + args[1])
    m3 = ds.map(lambda x: 7)
    m4 = ds.map(lambda x: np.float32(0.5) * tf.cast(x, tf.float32))
    return {"legacy": [legacy(tf, d) for d in (m2, m3, m4)],
            "values": [run_all(tf, _one_shot(tf, d)) for d in (m2, m3, m4)]}


def case_map_control_flow_and_py_func(tf):
    ds = tf.data.Dataset.range(6)

    def f(x):
        y = tf.cond(tf.equal(x % 2, 0), lambda: x * 10, lambda: -x)
        z = tf.py_func(lambda v: np.float32(v) / 4, [x], tf.float32)
        z.set_shape([])
        return y, z
    nx = _one_shot(tf, ds.map(f))
    return run_all(tf, nx)


def case_map_random_seeded(tf):
    ds = tf.data.Dataset.range(4).map(
        lambda x: tf.random_uniform([2], seed=3) + tf.cast(x, tf.float32))
    return [v.shape for v in run_all(tf, _one_shot(tf, ds))]


def case_map_errors(tf):
    ds = tf.data.Dataset.range(3)
    return {"none": catch(lambda: ds.map(lambda x: None)),
            "args": catch(lambda: ds.map(lambda x, y: x))}


def _checked_sqrt(tf, x):
    def check(v):
        if v < 0:
            raise ValueError("negative input")
        return np.sqrt(v).astype(np.float32)
    y = tf.py_func(check, [x], tf.float32)
    y.set_shape([])
    return y


def case_map_runtime_error(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.array([1., 2., -1., 3.], np.float32))
    ds = ds.map(lambda x: _checked_sqrt(tf, x))
    nx = _one_shot(tf, ds)
    out = []
    with tf.Session() as sess:
        for _ in range(6):
            try:
                out.append(float(sess.run(nx)))
            except tf.errors.OpError as e:
                out.append(type(e).__name__)
    return out


def case_filter(tf):
    ds = tf.data.Dataset.range(10).filter(lambda x: tf.equal(x % 3, 0))
    ds2 = tf.data.Dataset.from_tensor_slices((np.arange(5), np.arange(5) * 2)).filter(
        lambda a, b: a + b > 4)
    bad = catch(lambda: tf.data.Dataset.range(3).filter(lambda x: x))
    bad2 = catch(lambda: tf.data.Dataset.range(3).filter(lambda x: tf.fill([2], True)))
    return {"v": run_all(tf, _one_shot(tf, ds)), "v2": run_all(tf, _one_shot(tf, ds2)),
            "legacy": legacy(tf, ds2), "bad": bad, "bad2": bad2, "ops": new_ops(tf)[:8]}


# -- batching ----------------------------------------------------------------------------------

def case_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(10, dtype=np.float32).reshape(5, 2),
                                             np.array([b"a", b"b", b"c", b"d", b"e"])))
    b = ds.batch(2)
    bd = ds.batch(2, drop_remainder=True)
    b_big = ds.batch(8)
    return {"legacy": [legacy(tf, d) for d in (b, bd)],
            "v": [run_all(tf, _one_shot(tf, d)) for d in (b, bd, b_big)],
            "ops": new_ops(tf)}


def case_batch_mismatched_shapes(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda i: tf.fill([i], i)).batch(2)
    with tf.Session() as sess:
        nx = _one_shot(tf, ds)
        return {"legacy": legacy(tf, ds), "err": catch(lambda: sess.run(nx))}


def case_padded_batch(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda i: (tf.fill([i], i), tf.fill([2, i], 0.5)))
    pb = ds.padded_batch(2, padded_shapes=([None], [2, 6]), padding_values=(
        tf.constant(-1, tf.int64), 9.0))
    pb2 = ds.padded_batch(3, padded_shapes=([6], [None, None]), drop_remainder=True)
    pb3 = ds.padded_batch(2)
    return {"legacy": [legacy(tf, d) for d in (pb, pb2, pb3)],
            "v": [run_all(tf, _one_shot(tf, d)) for d in (pb, pb2, pb3)],
            "ops": new_ops(tf)[-12:]}


def case_padded_batch_strings(tf):
    # scalar strings batch to a vector of bytes; string vectors pad with "" or the value
    words = tf.data.Dataset.from_tensor_slices(["a", "bc", "def"])
    ds = words.map(lambda w: (w, tf.string_split([w], "").values))
    pb = ds.padded_batch(2, padded_shapes=([], [None]))
    pb2 = ds.padded_batch(3, padded_shapes=([], [4]), padding_values=("?", "-"))
    return {"v": [run_all(tf, _one_shot(tf, d)) for d in (pb, pb2)]}


def case_padded_batch_too_small(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda i: tf.fill([i], i)).padded_batch(
        2, padded_shapes=[3])
    nx = _one_shot(tf, ds)
    with tf.Session() as sess:
        return [catch(lambda: sess.run(nx).tolist()) for _ in range(3)]


def case_unbatch(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.arange(12).reshape(3, 2, 2)).unbatch()
    ds2 = tf.data.Dataset.range(7).batch(3).apply(tf.data.experimental.unbatch())
    return {"legacy": legacy(tf, ds), "v": run_all(tf, _one_shot(tf, ds)),
            "v2": run_all(tf, _one_shot(tf, ds2))}


# -- shuffling and repetition ------------------------------------------------------------------

def case_shuffle_seeded(tf):
    ds = tf.data.Dataset.range(10).shuffle(4, seed=1)
    ds_rep = tf.data.Dataset.range(10).shuffle(4, seed=1).repeat(2)
    ds_fixed = tf.data.Dataset.range(10).shuffle(4, seed=1, reshuffle_each_iteration=False
                                                 ).repeat(2)
    ds_big = tf.data.Dataset.range(20).shuffle(100, seed=12345)
    return {"v": [run_all(tf, _one_shot(tf, d)) for d in (ds, ds_rep, ds_fixed, ds_big)],
            "ops": new_ops(tf)[:14]}


def case_shuffle_graph_seed(tf):
    tf.set_random_seed(42)
    x = tf.constant(np.arange(8))
    ds = tf.data.Dataset.from_tensor_slices(x).shuffle(8)
    ds2 = tf.data.Dataset.range(8).shuffle(3).repeat(2)
    return [run_all(tf, _one_shot(tf, d)) for d in (ds, ds2)]


def case_shuffle_reinitialize(tf):
    ds = tf.data.Dataset.range(6).shuffle(6, seed=7)
    it = tf.data.make_initializable_iterator(ds)
    nx = it.get_next()
    out = []
    for _ in range(2):
        with tf.Session() as sess:
            for _ in range(2):
                sess.run(it.initializer)
                out.append(drain(tf, sess, nx)["values"])
    return out


def case_shuffle_and_repeat(tf):
    ds = tf.data.Dataset.range(5).apply(tf.data.experimental.shuffle_and_repeat(3, 2, seed=4))
    return run_all(tf, _one_shot(tf, ds))


def case_repeat_take_skip(tf):
    r = tf.data.Dataset.range(4)
    dss = [r.repeat(2), r.repeat().take(10), r.take(2), r.take(-1), r.take(0), r.skip(1),
           r.skip(10), r.skip(-1), r.skip(2).repeat(3), r.repeat(0)]
    return {"v": [run_all(tf, _one_shot(tf, d)) for d in dss], "ops": new_ops(tf)[:10]}


def case_prefetch_cache(tf):
    r = tf.data.Dataset.range(5)
    p = r.prefetch(2)
    p2 = r.map(lambda x: x * 2).prefetch(tf.data.experimental.AUTOTUNE)
    c = r.shuffle(5, seed=3).cache().repeat(2)
    return {"v": [run_all(tf, _one_shot(tf, d)) for d in (p, p2, c)],
            "autotune": tf.data.experimental.AUTOTUNE, "ops": new_ops(tf)[-6:]}


def case_cache_file(tf):
    import tempfile
    import os
    d = tempfile.mkdtemp()
    path = os.path.join(d, "cache")
    ds = tf.data.Dataset.range(4).map(lambda x: x * 3).cache(path)
    nx = _one_shot(tf, ds)
    first = run_all(tf, nx)
    files = sorted(f.split(".")[-1] for f in os.listdir(d))
    tf.reset_default_graph()
    ds2 = tf.data.Dataset.range(100).cache(path)
    second = run_all(tf, _one_shot(tf, ds2))
    return {"first": first, "second": second, "has_index": "index" in files}


# -- nested datasets ---------------------------------------------------------------------------

def case_flat_map_interleave(tf):
    r = tf.data.Dataset.range(1, 4)
    fm = r.flat_map(lambda i: tf.data.Dataset.from_tensors(i).repeat(i))
    il = r.interleave(lambda i: tf.data.Dataset.from_tensors(i).repeat(4), cycle_length=2,
                      block_length=2)
    il2 = tf.data.Dataset.range(1, 6).interleave(
        lambda i: tf.data.Dataset.range(i * 10, i * 10 + i), cycle_length=3)
    il3 = r.interleave(lambda i: tf.data.Dataset.range(i), cycle_length=2,
                       num_parallel_calls=2)
    return {"legacy": legacy(tf, fm),
            "v": [run_all(tf, _one_shot(tf, d)) for d in (fm, il, il2, il3)],
            "ops": new_ops(tf)[:12]}


def case_flat_map_tuple_and_error(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(3) * 10))
    fm = ds.flat_map(lambda a, b: tf.data.Dataset.from_tensor_slices(tf.stack([a, b])))
    bad = catch(lambda: ds.flat_map(lambda a, b: a))
    return {"v": run_all(tf, _one_shot(tf, fm)), "bad": bad}


def case_shard_enumerate_window(tf):
    r = tf.data.Dataset.range(10)
    sh = r.shard(3, 1)
    en = tf.data.Dataset.from_tensor_slices(np.array([b"a", b"b", b"c"])).enumerate(start=5)
    w = r.window(4, shift=3, drop_remainder=False).flat_map(lambda w: w.batch(4))
    w2 = r.window(3, shift=2, stride=2, drop_remainder=True).flat_map(lambda w: w.batch(3))
    return {"legacy": [legacy(tf, en)], "v": [run_all(tf, _one_shot(tf, d))
                                             for d in (sh, en, w, w2)],
            "bad": catch(lambda: run_all(tf, _one_shot(tf, r.shard(2, 3))))}


def case_apply_and_experimental(tf):
    r = tf.data.Dataset.range(7)
    mb = r.apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 3))
    mb2 = r.apply(tf.data.experimental.map_and_batch(lambda x: x, 3, drop_remainder=True))
    chained = r.apply(lambda d: d.filter(lambda x: x > 3))
    bad = catch(lambda: r.apply(lambda d: 3))
    return {"legacy": [legacy(tf, mb), legacy(tf, mb2)],
            "v": [run_all(tf, _one_shot(tf, d)) for d in (mb, mb2, chained)], "bad": bad}


def case_ignore_errors(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.array([1., -1., 4., -2., 9.], np.float32))
    ds = ds.map(lambda x: _checked_sqrt(tf, x)).apply(tf.data.experimental.ignore_errors())
    return run_all(tf, _one_shot(tf, ds))


def case_from_generator(tf):
    def gen():
        for i in range(4):
            yield i, [float(i)] * (i + 1)
    ds = tf.data.Dataset.from_generator(gen, (tf.int64, tf.float32),
                                        (tf.TensorShape([]), tf.TensorShape([None])))
    ds2 = tf.data.Dataset.from_generator(lambda: iter([b"x", b"yy"]), tf.string)

    def gen_args(n, s):
        for i in range(n):
            yield s * i
    ds3 = tf.data.Dataset.from_generator(gen_args, tf.int32, tf.TensorShape([]), args=(3, 5))
    ds4 = tf.data.Dataset.from_generator(gen, (tf.int64, tf.float32)).padded_batch(
        2, padded_shapes=([], [None]))
    return {"legacy": [legacy(tf, d) for d in (ds, ds2, ds3)],
            "v": [run_all(tf, _one_shot(tf, d)) for d in (ds, ds2, ds3, ds4)]}


def case_from_generator_bad_value(tf):
    def gen():
        yield [1, 2]
        yield [1, 2, 3]
    ds = tf.data.Dataset.from_generator(gen, tf.int32, tf.TensorShape([2]))
    nx = _one_shot(tf, ds)
    with tf.Session() as sess:
        first = sess.run(nx)
        err = catch(lambda: sess.run(nx))
    return {"first": first, "err": err}


def case_list_files(tf):
    import os
    import tempfile
    d = tempfile.mkdtemp()
    for name in ("b.txt", "a.txt", "c.dat", "d.txt"):
        open(os.path.join(d, name), "w").close()
    ds = tf.data.Dataset.list_files(os.path.join(d, "*.txt"), shuffle=False)
    ds2 = tf.data.Dataset.list_files([os.path.join(d, "c.*"), os.path.join(d, "a*")],
                                     shuffle=False)
    values = [[os.path.basename(v.decode()) for v in run_all(tf, _one_shot(tf, x))]
              for x in (ds, ds2)]
    shuffled = sorted(os.path.basename(v.decode()) for v in run_all(
        tf, _one_shot(tf, tf.data.Dataset.list_files(os.path.join(d, "*.txt"), seed=1))))
    empty = tf.data.make_initializable_iterator(
        tf.data.Dataset.list_files(os.path.join(d, "*.none")))
    with tf.Session() as sess:
        err = catch(lambda: sess.run(empty.initializer), message=True)
    return {"legacy": legacy(tf, ds), "values": values, "shuffled": shuffled, "err": err}


def case_with_options(tf):
    options = tf.data.Options()
    options.threading.private_threadpool_size = 2
    options.threading.max_intra_op_parallelism = 1
    threading = tf.data.ThreadingOptions()
    threading.max_intra_op_parallelism = 3
    ds = tf.data.Dataset.range(4).map(lambda x: x * 2).with_options(options)
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        vals = [sess.run(nxt) for _ in range(4)]
    return {"vals": vals, "spec": str(ds.element_spec),
            "threading": [options.threading.private_threadpool_size,
                          options.threading.max_intra_op_parallelism,
                          threading.max_intra_op_parallelism,
                          threading.private_threadpool_size]}
