"""Golden cases: the rest of `tf.contrib.lookup` (the `string_to_index*` /
`index_to_string` helpers, contrib's `mapping=` table builders, the hasher specs, the
TextFile*TableInitializers, the mutable tables and the base classes).

TF 2.x has no contrib: under the oracle the module is TF 1.15's own
contrib/lookup/lookup_ops.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`)."""

import os
import tempfile


def _lookup(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.lookup
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.lookup", ["lookup_ops"])


def case_string_to_index_and_back(tf):
    lookup = _lookup(tf)
    with tf.Graph().as_default():
        words = tf.constant(["b", "zz", "a", "c"])
        ids = lookup.string_to_index(words, mapping=["a", "b", "c"], default_value=-5)
        table = lookup.string_to_index_table_from_tensor(["a", "b", "c"], num_oov_buckets=2)
        oov = table.lookup(words)
        strong = lookup.index_table_from_tensor(
            mapping=["a", "b"], num_oov_buckets=3,
            hasher_spec=lookup.StrongHashSpec([7, 11])).lookup(words)
        legacy = lookup.index_table_from_tensor(
            mapping=["a"], num_oov_buckets=5,
            hasher_spec=lookup.HasherSpec("legacy", None)).lookup(words)
        back = lookup.index_to_string(tf.constant([2, 0, 7], tf.int64),
                                      mapping=["x", "y", "z"])
        table_back = lookup.index_to_string_table_from_tensor(mapping=["x", "y"],
                                                              default_value="?")
        names = [ids.name, oov.name, back.name]
        errors = []
        for fn in (lambda: lookup.string_to_index_table_from_tensor([1, 2]),
                   lambda: lookup.index_table_from_tensor(None),
                   lambda: lookup.index_to_string_table_from_tensor(None),
                   lambda: lookup.StrongHashSpec([1]),
                   lambda: lookup.StrongHashSpec([1.0, 2])):
            try:
                fn()
                errors.append(None)
            except (TypeError, ValueError) as e:
                errors.append([type(e).__name__, str(e)])
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            out = sess.run({"ids": ids, "oov": oov, "strong": strong, "legacy": legacy,
                            "back": back, "table_back": table_back.lookup(
                                tf.constant([1, 5], tf.int64)),
                            "size": table.size()})
    out.update(names=names, errors=errors, fast=list(lookup.FastHashSpec),
               strong_spec=list(lookup.StrongHashSpec([3, 4])))
    return out


def case_text_file_initializers(tf):
    lookup = _lookup(tf)
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("apple\t10\nbanana\t20\ncherry\t30\n")
    with tf.Graph().as_default():
        ids = lookup.HashTable(lookup.TextFileIdTableInitializer(path, key_column_index=0),
                               -1)
        strings = lookup.HashTable(lookup.TextFileStringTableInitializer(
            path, value_column_index=1, vocab_size=2), "none")
        from_file = lookup.string_to_index_table_from_file(path, num_oov_buckets=1)
        inits = [lookup.TextFileIdTableInitializer(path), lookup.TextFileStringTableInitializer(
            path)]
        kinds = {"ids": isinstance(ids, lookup.InitializableLookupTableBase),
                 "iface": isinstance(from_file, lookup.LookupInterface),
                 "init": [isinstance(i, lookup.TableInitializerBase) for i in inits],
                 "dtypes": [[i.key_dtype.name, i.value_dtype.name] for i in inits]}
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            out = sess.run({
                "ids": ids.lookup(tf.constant(["banana", "apple", "kiwi"])),
                "strings": strings.lookup(tf.constant([0, 1, 2], tf.int64)),
                "from_file": from_file.lookup(tf.constant(["cherry\t30", "nope"]))})
    out["kinds"] = kinds
    return out


def case_mutable_tables(tf):
    lookup = _lookup(tf)
    with tf.Graph().as_default():
        table = lookup.MutableHashTable(tf.string, tf.int64, default_value=-1)
        insert = table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
        dense = lookup.MutableDenseHashTable(tf.int64, tf.float32, default_value=0.5,
                                             empty_key=-1, deleted_key=-2)
        dense_insert = dense.insert(tf.constant([3, 9], tf.int64), tf.constant([1.5, 2.5]))
        kinds = [isinstance(t, lookup.LookupInterface) for t in (table, dense)]
        with tf.Session() as sess:
            sess.run([insert, dense_insert])
            out = sess.run({"found": table.lookup(tf.constant(["b", "x"])),
                            "size": table.size(),
                            "dense": dense.lookup(tf.constant([9, 4], tf.int64))})
    out["kinds"] = kinds
    return out
