"""Golden cases: `tf.data.experimental` (TF 2.21's compat.v1 names) in TF1 graph mode.

Element values (dtypes and shapes included), element specs, op names and types, seeded
draw orders (sample_from_datasets, RandomDataset, rejection_resample) and the errors
(class and kernel message) of CSV parsing, cardinality assertions and friends.
"""

import gzip
import os
import sqlite3
import tempfile

import numpy as np

from tests.golden.data_util import drain, legacy, new_ops, run_all, spec_text
from tests.golden.harness import catch


def _next(tf, ds):
    return tf.data.make_one_shot_iterator(ds).get_next()


def _kernel_message(e):
    """The kernel's message of a Session.run error (the line after "Node: ...")."""
    lines = [line for line in e.message.split("\n") if line]
    for i, line in enumerate(lines[:-1]):
        if line.startswith("Node:"):
            return lines[i + 1]
    return lines[0]


def _drain_errors(tf, fetch, limit=60, init=None):
    """Every run's value or [error class, kernel message] until the end of the data."""
    out = []
    with tf.Session() as sess:
        if init is not None:
            sess.run(init)
        for _ in range(limit):
            try:
                out.append(sess.run(fetch))
            except tf.errors.OutOfRangeError:
                out.append("end")
                break
            except tf.errors.OpError as e:
                out.append([type(e).__name__, _kernel_message(e)])
    return out


def _write(name, text, mode="w"):
    path = os.path.join(tempfile.mkdtemp(), name)
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, mode) as f:
        f.write(text)
    return path


_IRIS = ("120,4,setosa,versicolor,virginica\n6.4,2.8,5.6,2.2,2\n5.0,2.3,3.3,1.0,1\n"
         "4.9,2.5,4.5,1.7,2\n4.9,3.1,1.5,0.1,0\n5.7,3.8,1.7,0.3,0\n")

# -- CsvDataset --------------------------------------------------------------------------------


def case_csv_dataset_types(tf):
    path = _write("f.csv", 'a,b,c,d\n1,2.5,x,7\n3,,"y,z",8\r\n5,4.0,"say ""hi""",9\n'
                           '-2, 1e3 ,NA,10')
    ds = tf.data.experimental.CsvDataset(path, [tf.int32, [0.0], ["dflt"], tf.int64],
                                         header=True, na_value="NA")
    nx = _next(tf, ds)
    return {"legacy": legacy(tf, ds), "values": _drain_errors(tf, nx), "ops": new_ops(tf),
            "class": type(ds).__name__}


def case_csv_dataset_select_cols(tf):
    path = _write("g.csv", '1,"a""b",3\r\n,x,\n7,"q\nr",9\n5,,6')
    ds = tf.data.experimental.CsvDataset(path, [[0], [-1.5]], select_cols=[0, 2])
    ds2 = tf.data.experimental.CsvDataset(path, [[0], ["d"], [-1]], field_delim=",",
                                          use_quote_delim=True)
    return {"select": _drain_errors(tf, _next(tf, ds)),
            "all": _drain_errors(tf, _next(tf, ds2)), "legacy": legacy(tf, ds)}


def case_csv_dataset_bad_records(tf):
    path = _write("bad.csv", '1,2\n1,2,3\nz,1\n8,"bad"x\n,4\n3,4\n5,"open\n')
    ds = tf.data.experimental.CsvDataset(path, [tf.int32, [0]])
    return _drain_errors(tf, _next(tf, ds))


def case_csv_dataset_ignore_errors_and_files(tf):
    a = _write("a.csv", "h1|h2\n1|x\nq|y\n3|z\n")
    b = _write("b.csv", "h1|h2\n4|w\n")
    ds = tf.data.experimental.CsvDataset([a, b], [[0], [""]], header=True, field_delim="|")
    ds = ds.apply(tf.data.experimental.ignore_errors())
    return run_all(tf, _next(tf, ds))


def case_csv_dataset_no_quotes_and_gzip(tf):
    path = _write("q.csv", 'a"b,c\n"d",e\n')
    ds = tf.data.experimental.CsvDataset(path, ["", ""], use_quote_delim=False)
    gz = _write("z.csv.gz", b"1,2\n3,4\n", mode="wb")
    ds2 = tf.data.experimental.CsvDataset(gz, [[0], [0]], compression_type="GZIP")
    return {"raw": run_all(tf, _next(tf, ds)), "gzip": run_all(tf, _next(tf, ds2))}


def case_csv_dataset_missing_file(tf):
    ds = tf.data.experimental.CsvDataset("/nonexistent/x.csv", [[0]])
    return [v if isinstance(v, str) else v[0] for v in _drain_errors(tf, _next(tf, ds))]


# -- make_csv_dataset --------------------------------------------------------------------------


def case_make_csv_dataset_iris(tf):
    path = _write("iris.csv", _IRIS)
    names = ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]
    ds = tf.data.experimental.make_csv_dataset(path, 2, column_names=names,
                                               label_name="species", num_epochs=1,
                                               shuffle=False)
    return {"spec": spec_text(ds.element_spec), "values": run_all(tf, _next(tf, ds)),
            "ops": new_ops(tf), "shapes": spec_text(tf.data.get_output_shapes(ds))}


def case_make_csv_dataset_inference(tf):
    path = _write("t.csv", "i,big,f,d,s,n,e\n1,3000000000,1.5,1e39,x,NA,\n"
                           "2,4,2,3,7,NA,\n-3,5,nan,4,y,NA,\n")
    ds = tf.data.experimental.make_csv_dataset(path, 3, num_epochs=1, shuffle=False,
                                               na_value="NA")
    return {"spec": spec_text(ds.element_spec), "values": run_all(tf, _next(tf, ds))}


def case_make_csv_dataset_select_shuffle_repeat(tf):
    path = _write("f.csv", "a,b,c,d\n1,2.5,x,7\n3,,y,8\n5,4.0,w,9\n6,1,v,2\n")
    ds = tf.data.experimental.make_csv_dataset(path, 3, num_epochs=2, shuffle=True,
                                               shuffle_seed=4, select_columns=["a", "c"])
    ds2 = tf.data.experimental.make_csv_dataset(path, 2, shuffle=False,
                                                column_defaults=[[0], [0.0], tf.string, [1]],
                                                label_name="a")
    nx2 = _next(tf, ds2)
    with tf.Session() as sess:
        forever = [sess.run(nx2) for _ in range(3)]
    return {"spec": spec_text(ds.element_spec), "values": run_all(tf, _next(tf, ds)),
            "spec2": spec_text(ds2.element_spec), "forever": forever}


def case_make_csv_dataset_errors(tf):
    path = _write("f.csv", "a,b\n1,2\n")
    mk = tf.data.experimental.make_csv_dataset
    return [catch(lambda: mk(path, 2, label_name="z"), message=True),
            catch(lambda: mk(path, 2, select_columns=["a", "a"]), message=True),
            catch(lambda: mk(path, 2, select_columns=["q"]), message=True),
            catch(lambda: mk(path + ".none", 2)),
            catch(lambda: mk(path, 2, header=False), message=True),
            catch(lambda: mk(path, 2, column_names=["x", "x"]), message=True)]


# -- sampling and choosing ---------------------------------------------------------------------


def case_sample_from_datasets_seeded(tf):
    E = tf.data.experimental
    ds = E.sample_from_datasets([tf.data.Dataset.range(5), tf.data.Dataset.range(10, 15)],
                                seed=5)
    ops = new_ops(tf)
    ds2 = E.sample_from_datasets([tf.data.Dataset.range(5), tf.data.Dataset.range(10, 15),
                                  tf.data.Dataset.range(20, 23)], weights=[0.2, 0.5, 0.3],
                                 seed=7)
    ds3 = E.sample_from_datasets([tf.data.Dataset.range(4), tf.data.Dataset.range(10, 14)],
                                 weights=[0.5, 0.5], seed=1, stop_on_empty_dataset=True)
    return {"uniform": run_all(tf, _next(tf, ds)), "weighted": run_all(tf, _next(tf, ds2)),
            "stop": run_all(tf, _next(tf, ds3)), "ops": ops, "legacy": legacy(tf, ds)}


def case_sample_from_datasets_weights_dataset_and_graph_seed(tf):
    E = tf.data.experimental
    tf.set_random_seed(11)
    weights = tf.data.Dataset.from_tensors([0.9, 0.1]).repeat()
    ds = E.sample_from_datasets([tf.data.Dataset.range(6), tf.data.Dataset.range(100, 106)],
                                weights=weights)
    zero = E.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(9, 12)],
                                  weights=[0.0, 1.0], seed=2)
    return {"values": run_all(tf, _next(tf, ds)), "zero": run_all(tf, _next(tf, zero)),
            "errors": [catch(lambda: E.sample_from_datasets([]), message=True),
                       catch(lambda: E.sample_from_datasets(
                           [tf.data.Dataset.range(2)] * 2, weights=[1.0]), message=True),
                       catch(lambda: E.sample_from_datasets(
                           [tf.data.Dataset.range(2), tf.data.Dataset.from_tensors("a")]))]}


def case_choose_from_datasets(tf):
    E = tf.data.experimental
    choice = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 0, 0], np.int64))
    ds = E.choose_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)],
                                choice)
    ops = new_ops(tf)
    stop = E.choose_from_datasets([tf.data.Dataset.range(1), tf.data.Dataset.range(10, 12)],
                                  choice, stop_on_empty_dataset=True)
    bad = E.choose_from_datasets([tf.data.Dataset.range(3)],
                                 tf.data.Dataset.from_tensor_slices(np.array([0, 4],
                                                                             np.int64)))
    return {"values": run_all(tf, _next(tf, ds)), "ops": ops,
            "stop": run_all(tf, _next(tf, stop)), "bad": _drain_errors(tf, _next(tf, bad)),
            "type_error": catch(lambda: E.choose_from_datasets(
                [tf.data.Dataset.range(3)], tf.data.Dataset.range(2).map(
                    lambda x: tf.cast(x, tf.int32))), message=True)}


def case_random_dataset(tf):
    ds = tf.data.experimental.RandomDataset(3).take(5)
    ops = new_ops(tf)
    tf.set_random_seed(8)
    ds2 = tf.data.experimental.RandomDataset().take(3)
    nx2 = _next(tf, ds2.repeat(2))
    return {"values": run_all(tf, _next(tf, ds)), "ops": ops, "legacy": legacy(tf, ds),
            "graph_seed_twice": run_all(tf, nx2)}


# -- transformations ---------------------------------------------------------------------------


def case_scan_and_counter(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.range(6).apply(E.scan(np.int64(0), lambda s, x: (s + x, s * 10)))
    ops = new_ops(tf)
    grow = tf.data.Dataset.range(3).apply(E.scan(
        tf.constant([1], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), tf.size(s))))
    count = E.Counter(3, 2).take(4)
    count_ops = new_ops(tf, len(tf.get_default_graph().get_operations()) - 7)
    return {"scan": run_all(tf, _next(tf, ds)), "ops": ops, "grow": run_all(tf, _next(tf, grow)),
            "grow_spec": spec_text(grow.element_spec), "counter": run_all(tf, _next(tf, count)),
            "counter_ops": count_ops, "counter_float": run_all(
                tf, _next(tf, E.Counter(0.5, 0.25, tf.float32).take(3))),
            "bad": catch(lambda: tf.data.Dataset.range(3).apply(
                E.scan(np.int64(0), lambda s, x: s + x)))}


def case_take_while_unique(tf):
    E = tf.data.experimental
    tw = tf.data.Dataset.range(6).apply(E.take_while(lambda x: x < 3))
    u = tf.data.Dataset.from_tensor_slices([1, 2, 1, 3, 2, 5]).apply(E.unique())
    us = tf.data.Dataset.from_tensor_slices(["a", "b", "a"]).apply(E.unique())
    return {"take_while": run_all(tf, _next(tf, tw)), "unique": run_all(tf, _next(tf, u)),
            "unique_str": run_all(tf, _next(tf, us)), "ops": new_ops(tf),
            "errors": [catch(lambda: tf.data.Dataset.range(3).apply(E.take_while(
                lambda x: x)), message=True),
                catch(lambda: tf.data.Dataset.from_tensor_slices([1.5]).apply(E.unique()),
                      message=True)]}


def case_group_by_window(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.range(10).apply(E.group_by_window(lambda x: x % 3,
                                                            lambda k, d: d.batch(2), 2))
    ops = new_ops(tf)
    ds2 = tf.data.Dataset.range(9).apply(E.group_by_window(
        lambda x: x % 2, lambda k, d: d.batch(4).map(lambda b: (k, b)),
        window_size_func=lambda k: k + 2))
    return {"values": run_all(tf, _next(tf, ds)), "ops": ops,
            "sized": run_all(tf, _next(tf, ds2)), "spec2": spec_text(ds2.element_spec),
            "errors": [catch(lambda: tf.data.Dataset.range(3).apply(E.group_by_window(
                lambda x: x, lambda k, d: d)), message=True),
                catch(lambda: tf.data.Dataset.range(3).apply(E.group_by_window(
                    lambda x: tf.cast(x, tf.int32), lambda k, d: d, 2)))]}


def case_bucket_by_sequence_length(tf):
    E = tf.data.experimental
    lengths = [1, 5, 2, 7, 3, 4, 2, 8, 1]
    ds = tf.data.Dataset.from_tensor_slices(lengths).map(lambda n: tf.fill([n], n))
    b = ds.apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2, 3]))
    p = ds.apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 9], [2, 2, 3],
                                             pad_to_bucket_boundary=True,
                                             padding_values=-1))
    n = tf.data.Dataset.from_tensor_slices(lengths).apply(E.bucket_by_sequence_length(
        lambda x: x, [3], [2, 3], no_padding=True, drop_remainder=True))
    return {"padded": run_all(tf, _next(tf, b)), "boundary": run_all(tf, _next(tf, p)),
            "no_padding": run_all(tf, _next(tf, n)), "spec": spec_text(b.element_spec),
            "error": catch(lambda: tf.data.Dataset.range(3).apply(
                E.bucket_by_sequence_length(lambda x: x, [3], [2])), message=True)}


def case_group_by_reducer(tf):
    E = tf.data.experimental
    reducer = E.Reducer(lambda k: np.int64(0), lambda s, x: s + x, lambda s: s * 10)
    ds = tf.data.Dataset.from_tensor_slices(np.array([5, 2, 8, 3, 4, 9], np.int64)).apply(
        E.group_by_reducer(lambda x: x % 3, reducer))
    concat = E.Reducer(lambda k: tf.zeros([0], tf.int64),
                       lambda s, x: tf.concat([s, [x]], 0), lambda s: (s, tf.size(s)))
    ds2 = tf.data.Dataset.range(7).apply(E.group_by_reducer(lambda x: x % 2, concat))
    return {"sums": run_all(tf, _next(tf, ds)), "lists": run_all(tf, _next(tf, ds2)),
            "spec2": spec_text(ds2.element_spec), "types": [
                [op.type for op in tf.get_default_graph().get_operations()
                 if "GroupBy" in op.type]]}


def case_dense_to_sparse_batch(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x)).apply(
        E.dense_to_sparse_batch(2, [5]))
    var = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x, 2], x)).apply(
        E.dense_to_sparse_batch(3, [None, 2]))
    bad = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).apply(
        E.dense_to_sparse_batch(2, [2]))
    return {"values": run_all(tf, _next(tf, ds)), "legacy": legacy(tf, ds),
            "var": run_all(tf, _next(tf, var)), "var_spec": spec_text(var.element_spec),
            "bad": _drain_errors(tf, _next(tf, bad)), "ops": new_ops(tf)[:12]}


def case_cardinality(tf):
    E = tf.data.experimental
    r = tf.data.Dataset.range
    dss = [r(10), r(10).batch(3), r(10).batch(3, drop_remainder=True), r(10).repeat(),
           r(10).repeat(3), r(0).repeat(), r(10).filter(lambda x: x > 2),
           r(10).map(lambda x: x), r(10).take(4), r(10).repeat().take(4), r(10).skip(3),
           r(10).skip(20), r(10).shard(3, 1), tf.data.Dataset.zip((r(4), r(6))),
           r(4).concatenate(r(3)), r(3).concatenate(r(2).repeat()),
           tf.data.Dataset.from_tensors(1), tf.data.Dataset.from_tensor_slices([1, 2, 3]),
           r(5).shuffle(3).prefetch(1).cache(), r(7).apply(E.assert_cardinality(7)),
           r(8).apply(E.enumerate_dataset()), E.Counter(), r(5).apply(E.unique()),
           r(5).apply(E.take_while(lambda x: x < 2)),
           r(6).apply(E.scan(np.int64(0), lambda s, x: (s, x))),
           r(9).apply(E.map_and_batch(lambda x: x, 4)), r(5).flat_map(
               lambda x: tf.data.Dataset.from_tensors(x)),
           E.sample_from_datasets([r(3), r(4)], seed=1),
           E.sample_from_datasets([r(3), r(4).repeat()], seed=1)]
    cards = [E.cardinality(d) for d in dss]
    with tf.Session() as sess:
        values = sess.run(cards)
    return {"values": values, "consts": [E.INFINITE_CARDINALITY, E.UNKNOWN_CARDINALITY],
            "op": [cards[0].op.type, cards[0].dtype.name, cards[0].shape.as_list()]}


def case_assert_cardinality(tf):
    E = tf.data.experimental
    short = tf.data.Dataset.range(3).apply(E.assert_cardinality(5))
    long = tf.data.Dataset.range(9).apply(E.assert_cardinality(4))
    ok = tf.data.Dataset.range(2).apply(E.assert_cardinality(2))
    return {"short": _drain_errors(tf, _next(tf, short)),
            "long": _drain_errors(tf, _next(tf, long)), "ok": run_all(tf, _next(tf, ok)),
            "ops": new_ops(tf)[:6]}


def case_get_single_element(tf):
    E = tf.data.experimental
    x = E.get_single_element(tf.data.Dataset.from_tensors((1, {"s": "a", "v": [1.5, 2.5]})))
    empty = E.get_single_element(tf.data.Dataset.range(0))
    many = E.get_single_element(tf.data.Dataset.range(2))
    out = {"ops": new_ops(tf)}
    with tf.Session() as sess:
        out["value"] = sess.run(x)
        for key, t in (("empty", empty), ("many", many)):
            try:
                sess.run(t)
            except tf.errors.OpError as e:
                out[key] = [type(e).__name__, _kernel_message(e)]
    out["type_error"] = catch(lambda: E.get_single_element([1]))
    return out


def case_enumerate_and_from_list(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).apply(E.enumerate_dataset(5))
    fl = E.from_list([(1, "a"), (2, "b")])
    return {"enumerate": run_all(tf, _next(tf, ds)), "legacy": legacy(tf, ds),
            "from_list": run_all(tf, _next(tf, fl)), "from_list_spec": spec_text(
                fl.element_spec), "ops": new_ops(tf)}


def case_pad_to_cardinality(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.from_tensor_slices({"x": [1, 2], "y": [[1.5, 2.5], [3.5, 4.5]]})
    padded = ds.apply(E.pad_to_cardinality(4))
    return {"values": run_all(tf, _next(tf, padded)), "spec": spec_text(padded.element_spec),
            "error": catch(lambda: tf.data.Dataset.range(3).apply(E.pad_to_cardinality(5)),
                           message=True)}


def case_rejection_resample(tf):
    E = tf.data.experimental
    data = np.array([0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0] * 4, np.int64)
    ds = tf.data.Dataset.from_tensor_slices(data)
    given = ds.apply(E.rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.75, 0.25],
                                          seed=3))
    estimated = ds.apply(E.rejection_resample(lambda x: x, [0.5, 0.5], seed=3))
    same = ds.apply(E.rejection_resample(lambda x: x, [0.75, 0.25], initial_dist=[0.75, 0.25],
                                         seed=3))
    return {"given": run_all(tf, _next(tf, given), limit=30),
            "estimated": run_all(tf, _next(tf, estimated), limit=30),
            "same": run_all(tf, _next(tf, same), limit=5), "spec": spec_text(given.element_spec)}


def case_get_next_as_optional(tf):
    it = tf.data.make_initializable_iterator(tf.data.Dataset.range(2).map(lambda x: (x, "s")))
    opt = tf.data.experimental.get_next_as_optional(it)
    has, value = opt.has_value(), opt.get_value()
    out = []
    with tf.Session() as sess:
        sess.run(it.initializer)
        for _ in range(2):
            out.append(sess.run([has, value]))
        out.append(sess.run(has))
        try:
            sess.run(value)
        except tf.errors.OpError as e:
            out.append([type(e).__name__, _kernel_message(e)])
    return {"values": out, "spec": spec_text(opt.element_spec),
            "ops": [op.type for op in tf.get_default_graph().get_operations()][-3:]}


def case_tables_from_dataset(tf):
    E = tf.data.experimental
    index = E.index_table_from_dataset(tf.data.Dataset.from_tensor_slices(["a", "b", "c"]))
    table = E.table_from_dataset(tf.data.Dataset.from_tensor_slices((["a", "b"], [5, 6])),
                                 default_value=-1)
    oov = E.index_table_from_dataset(tf.data.Dataset.from_tensor_slices(["a", "b"]),
                                     num_oov_buckets=3)
    ops = new_ops(tf)
    lookups = [index.lookup(tf.constant(["b", "z", "c"])), table.lookup(tf.constant(["a", "q"])),
               oov.lookup(tf.constant(["a", "zz", "qq"]))]
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        values = sess.run(lookups)
    return {"values": values, "ops": ops, "errors": [
        catch(lambda: E.table_from_dataset(tf.data.Dataset.range(3)), message=True),
        catch(lambda: E.table_from_dataset(tf.data.Dataset.from_tensor_slices(
            (["a"], ["b"]))), message=True)]}


def case_sql_dataset(tf):
    path = os.path.join(tempfile.mkdtemp(), "db.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("create table t (a int, b text, c real, d int)")
    conn.executemany("insert into t values (?, ?, ?, ?)",
                     [(1, "x", 1.5, 0), (2, "y", 2.5, 1), (3, "z", -1.0, 1)])
    conn.commit()
    conn.close()
    ds = tf.data.experimental.SqlDataset("sqlite", path, "SELECT a, b, c, d FROM t ORDER BY a",
                                         (tf.int32, tf.string, tf.float64, tf.bool))
    return {"values": run_all(tf, _next(tf, ds)), "legacy": legacy(tf, ds), "ops": new_ops(tf)}


def case_tfrecord_writer(tf):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "out.tfrecord")
    write = tf.data.experimental.TFRecordWriter(path).write(
        tf.data.Dataset.from_tensor_slices([b"p", b"qq", b""]))
    gz = os.path.join(d, "out.gz")
    write_gz = tf.data.experimental.TFRecordWriter(gz, "GZIP").write(
        tf.data.Dataset.from_tensors("zz"))
    ops = new_ops(tf)
    with tf.Session() as sess:
        sess.run([write, write_gz])
    with open(path, "rb") as f:
        raw = list(f.read())
    back = run_all(tf, _next(tf, tf.data.TFRecordDataset(gz, "GZIP")))
    return {"bytes": raw, "gzip": back, "ops": ops, "error": catch(
        lambda: tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.range(2)))}


def case_make_batched_features_dataset(tf):
    d = tempfile.mkdtemp()
    for n in range(2):
        with tf.python_io.TFRecordWriter(os.path.join(d, f"f{n}.tfrecord")) as w:
            for i in range(3):
                ex = tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i + 10.0 * n])),
                    "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2]))}))
                w.write(ex.SerializeToString())
    features = {"x": tf.FixedLenFeature([1], tf.float32), "y": tf.FixedLenFeature([], tf.int64)}
    ds = tf.data.experimental.make_batched_features_dataset(
        os.path.join(d, "*.tfrecord"), 4, features, label_key="y", num_epochs=1, shuffle=False)
    parsed = tf.data.TFRecordDataset(os.path.join(d, "f0.tfrecord")).batch(2).apply(
        tf.data.experimental.parse_example_dataset(features))
    return {"values": run_all(tf, _next(tf, ds)), "spec": spec_text(ds.element_spec),
            "parsed": run_all(tf, _next(tf, parsed))}


def case_options_schema(tf):
    E = tf.data.experimental
    o = tf.data.Options()
    o.experimental_optimization.map_fusion = True
    o.experimental_distribute.auto_shard_policy = E.AutoShardPolicy.DATA
    o2 = tf.data.Options()
    o2.deterministic = False
    merged = o.merge(o2)
    errors = [catch(lambda: setattr(o, "foo", 1), message=True),
              catch(lambda: setattr(o, "deterministic", 3), message=True),
              catch(lambda: setattr(o.experimental_distribute, "auto_shard_policy", 3),
                    message=True)]
    ds = tf.data.Dataset.range(3).with_options(o)
    return {"errors": errors,
            "defaults": [str(tf.data.Options().experimental_distribute.auto_shard_policy),
                         tf.data.Options().autotune.enabled, tf.data.Options().deterministic,
                         tf.data.Options() == tf.data.Options(), o == tf.data.Options()],
            "merged": [merged.deterministic, merged.experimental_optimization.map_fusion],
            "enums": [int(E.AutoShardPolicy.HINT), E.AutotuneAlgorithm.HILL_CLIMB.value,
                      E.ExternalStatePolicy.FAIL.value, E.SHARD_HINT],
            "values": run_all(tf, _next(tf, ds))}


def case_dataset_methods(tf):
    ds = tf.data.Dataset.range(8)
    tw = ds.take_while(lambda x: x < 4)
    u = tf.data.Dataset.from_tensor_slices([3, 3, 1]).unique()
    sc = ds.scan(np.int64(1), lambda s, x: (s * 2, s + x))
    card = ds.batch(3).cardinality()
    g = ds.group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), 3)
    with tf.Session() as sess:
        c = sess.run(card)
    return {"take_while": run_all(tf, _next(tf, tw)), "unique": run_all(tf, _next(tf, u)),
            "scan": run_all(tf, _next(tf, sc)), "cardinality": c,
            "group": run_all(tf, _next(tf, g))}


def case_drain_helpers_end_message(tf):
    """The end-of-sequence error after a CsvDataset, as drain() records it."""
    path = _write("e.csv", "1\n2\n")
    nx = _next(tf, tf.data.experimental.CsvDataset(path, [[0]]))
    with tf.Session() as sess:
        return drain(tf, sess, nx)


def case_csv_dataset_numbers(tf):
    """TF's number parsing: float32 overflow to inf, hex floats, padded whitespace, ints
    out of range."""
    path = _write("n.csv", "a\n1e39\n-1e40\n0x1p3\n 7 \n3000000000\n1.5\n")
    out = {}
    for t in (tf.float32, tf.float64, tf.int32, tf.int64):
        ds = tf.data.experimental.CsvDataset(path, [t], header=True)
        out[t.name] = _drain_errors(tf, _next(tf, ds))
    return out
