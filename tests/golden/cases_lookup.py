"""Golden cases: lookup tables (tf.lookup, tensorflow.python.ops.lookup_ops /
tf.contrib.lookup): values, names, uninitialized tables, text-file vocabularies."""

import os
import tempfile

from tests.golden.harness import catch, describe


def _lookup_ops(tf):
    if hasattr(tf, "contrib"):
        return tf.contrib.lookup
    from tensorflow.python.ops import lookup_ops
    return lookup_ops


def _vocab():
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write("x\ny\nz\n")
    return path


def case_static_hash_table(tf):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2], key_dtype=tf.string,
                                               value_dtype=tf.int64)
    t = tf.lookup.StaticHashTable(init, -1)
    found = t.lookup(tf.constant([["a", "c"], ["b", "b"]]))
    size = t.size()
    t2 = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2], tf.int64), [0.5, 1.5]), -1.0)
    f2 = t2.lookup(tf.constant([1, 3], tf.int64))
    keys, values = t2.export()
    out = {"names": [found.name, size.name, f2.name, t.resource_handle.name,
                     keys.name, values.name],
           "types": [t.resource_handle.op.type, found.op.type, size.op.type],
           "desc": [describe(x) for x in (found, size, f2)],
           "inits": [op.name for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)],
           "wrong_key": catch(lambda: t.lookup(tf.constant([1, 2])))}
    with tf.Session() as sess:
        out["uninit"] = catch(lambda: sess.run(found))
        sess.run(tf.tables_initializer())
        out["vals"] = sess.run([found, size, f2])
        k, v = sess.run([keys, values])
        out["export"] = sorted(zip(k.tolist(), v.tolist()))
        sess.run(tf.tables_initializer())      # a second initialization is harmless
        out["again"] = sess.run(size)
    with tf.Session() as sess:                 # each session has its own tables
        out["fresh"] = catch(lambda: sess.run(size))
    return out


def case_index_tables(tf):
    lk = _lookup_ops(tf)
    path = _vocab()
    try:
        a = lk.index_table_from_tensor(["x", "y", "z"], default_value=-1)
        b = lk.index_to_string_table_from_tensor(["x", "y", "z"])
        c = lk.index_table_from_file(path)
        d = lk.index_to_string_table_from_file(path, default_value="UNK")
        ints = lk.index_table_from_tensor(tf.constant([10, 20, 30], tf.int64), dtype=tf.int64)
        la = a.lookup(tf.constant(["y", "q"]))
        lb = b.lookup(tf.constant([1, 5], tf.int64))
        lc = c.lookup(tf.constant(["z", "q"]))
        ld = d.lookup(tf.constant([0, 7], tf.int64))
        li = ints.lookup(tf.constant([30, 11], tf.int64))
        sp = a.lookup(tf.SparseTensor([[0, 0], [1, 2]], ["z", "w"], [2, 3]))
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            vals = sess.run([la, lb, lc, ld, li, sp, c.size()])
        return {"vals": vals, "names": [t.name for t in (la, lb, lc, ld, li)],
                "handles": [t.resource_handle.name for t in (a, b, c, d)],
                "inits": [op.name for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)],
                "desc": [describe(t) for t in (la, lb, lc, ld)]}
    finally:
        os.remove(path)


def case_text_file_initializer(tf):
    fd, path = tempfile.mkstemp(suffix=".tsv")
    with os.fdopen(fd, "w") as f:
        f.write("apple\t3\nbanana\t7\ncherry\t-1\n")
    try:
        init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, 1)
        t = tf.lookup.StaticHashTable(init, 0)
        by_line = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(path, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
                                          tf.string, 0), "?")
        missing = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(path + ".missing", tf.string,
                                          tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                          tf.lookup.TextFileIndex.LINE_NUMBER), -1)
        with tf.Session() as sess:
            sess.run([t.initializer, by_line.initializer])
            vals = sess.run([t.lookup(tf.constant(["banana", "kiwi", "cherry"])),
                             by_line.lookup(tf.constant([2, 0, 9], tf.int64))])
            err = catch(lambda: sess.run(missing.initializer))
        return {"vals": vals, "missing": err}
    finally:
        os.remove(path)


def case_oov_buckets(tf):
    lookup = _lookup_ops(tf)
    t = lookup.index_table_from_tensor(tf.constant(["a", "b", "c"]), num_oov_buckets=3)
    ids = t.lookup(tf.constant(["a", "zz", "c", "qq", "hello", ""]))
    t2 = lookup.index_table_from_tensor([10, 20], num_oov_buckets=2, dtype=tf.int64)
    ids2 = t2.lookup(tf.constant([10, 5, 20, 7, -3], tf.int64))
    sp = t.lookup(tf.SparseTensor([[0, 0], [1, 2]], tf.constant(["b", "nope"]), [2, 3]))
    t3 = lookup.index_table_from_file(_vocab(), num_oov_buckets=4)
    ids3 = t3.lookup(tf.constant(["y", "w", "x", "unknown"]))
    names = sorted(op.name for op in tf.get_default_graph().get_operations())
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        return {"type": type(t).__name__, "names": [t.name, ids.name, ids2.name, t.size().name],
                "ops": names,
                "values": sess.run([ids, ids2, t.size(), t2.size(), sp.values, ids3])}


def case_static_vocabulary_table(tf):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [0, 1, 2],
                                               value_dtype=tf.int64)
    table = tf.lookup.StaticVocabularyTable(init, 5)
    ids = table.lookup(tf.constant(["a", "c", "zz", "q", "b", "hello"]))
    ints = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        [7, 9], [0, 1], key_dtype=tf.int64, value_dtype=tf.int64), 3)
    int_ids = ints.lookup(tf.constant([9, 100, 7, 5], tf.int64))
    sparse = table.lookup(tf.SparseTensor([[0, 0], [1, 1]], ["b", "x"], [2, 2]))
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        vals = sess.run([ids, table.size(), int_ids, ints.size(), sparse])
    return {"vals": vals, "shapes": [describe(t) for t in (ids, int_ids, sparse.values)],
            "facts": [table.name, table.key_dtype.name, table.value_dtype.name],
            "zero": catch(lambda: tf.lookup.StaticVocabularyTable(init, 0), message=True),
            "dtype": catch(lambda: table.lookup(tf.constant([1])), message=True)}
