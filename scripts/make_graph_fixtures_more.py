"""More TF-written graph fixtures (the cases of make_graph_fixtures.py's format): mutable
dense hash tables restored from a checkpoint, transposed convolutions of run-time sizes.

Run with the TensorFlow venv (never in CI):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/make_graph_fixtures_more.py [case ...]
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_graph_fixtures import Recorder, main, tf  # noqa: E402


def _sorted_export(table) -> None:
    """`export_keys`/`export_values`: a dense table's [2]-row pairs by key (the export
    order is the table's; the empty (-1) and deleted (-2) buckets dropped)."""
    keys, values = table.export()
    keys, values = tf.reshape(keys, [-1]), tf.reshape(values, [-1, 2])
    held = keys >= 0
    keys, values = tf.boolean_mask(keys, held), tf.boolean_mask(values, held)
    order = tf.nn.top_k(-keys, tf.size(keys)).indices
    tf.identity(tf.gather(keys, order), name="export_keys")
    tf.identity(tf.gather(values, order), name="export_values")


def case_dense_hash_tables(rec: Recorder) -> None:
    """tf.lookup.experimental.DenseHashTable (MutableDenseHashTableV2) of int64 keys and
    [2] float rows, and a string-valued MutableHashTable, filled and saved by a Saver; the
    test restores the checkpoint (LookupTableImportV2 of the saved keys/values), then
    finds, inserts, removes, sizes and exports (sorted: the export order is the table's).
    (The file has the SaverDef, as `Saver.save` writes it: without one, TF's
    import_meta_graph cannot build a Saver of the tables' ops.)"""
    dense = tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.float32, default_value=[-1.0, -2.0], empty_key=-1, deleted_key=-2,
        initial_num_buckets=8, name="dense")
    words = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1,
                                                     name="words")
    ids = tf.placeholder(tf.int64, [None], name="ids")
    rows = tf.placeholder(tf.float32, [None, 2], name="rows")
    gone = tf.placeholder(tf.int64, [None], name="gone")
    insert = dense.insert(ids, rows).name
    remove = dense.remove(gone).name
    insert_words = words.insert(tf.constant(["a", "bb", "ccc"]),
                                tf.constant([1, 2, 3], tf.int64)).name
    probe = tf.constant([3, 5, 7, 11, 40], tf.int64)
    tf.identity(dense.lookup(probe), name="find")
    tf.identity(dense.size(), name="size")
    tf.identity(words.lookup(tf.constant(["bb", "d", "a"])), name="words_find")
    _sorted_export(dense)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run([insert, insert_words],
                 {ids: [3, 5, 7, 9], rows: [[1, 2], [3, 4], [5, 6], [7, 8]]})
        sess.run(remove, {gone: [9]})
        # (What the test's session has after its restore.)
        rec.save_meta(sess, saver, with_saver_def=True)
        rec.run(sess, ["find:0", "size:0", "words_find:0", "export_keys:0",
                       "export_values:0"])
        rec.run(sess, ["find:0", "size:0"], {"ids:0": np.arange(10, 50, dtype=np.int64),
                                             "rows:0": np.arange(80, dtype=np.float32)
                                             .reshape(40, 2)}, targets=[insert])
        rec.run(sess, ["find:0", "size:0", "export_keys:0", "export_values:0"],
                {"gone:0": np.array([5, 11, 12], np.int64)}, targets=[remove])


# The V1 forms TF <= 1.2 wrote of the V2 ops this case builds.
_V1_FORMS = {"MutableDenseHashTableV2": "MutableDenseHashTable",
             "LookupTableInsertV2": "LookupTableInsert", "LookupTableFindV2": "LookupTableFind",
             "LookupTableSizeV2": "LookupTableSize", "LookupTableExportV2": "LookupTableExport",
             "LookupTableImportV2": "LookupTableImport"}


def case_v1_dense_hash_table(rec: Recorder) -> None:
    """A MutableDenseHashTable of TF <= 1.2 (the V1 op: a Ref(string) handle, an
    `empty_key` input and no `deleted_key`) with inserts, finds, sizes, exports and a
    Saver's checkpoint. TF 2.21 builds the V1 op but fails to run it ("Unknown input name:
    deleted_key": its kernel is the V2 op's), so TF runs the graph of the V2 ops and the
    file written is that graph with the ops renamed to their V1 forms (`deleted_key`
    dropped): the values are TF's for the same table contents."""
    table = tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.float32, default_value=[0.5, -0.5], empty_key=-1, deleted_key=-2,
        initial_num_buckets=4, name="table")
    ids = tf.placeholder(tf.int64, [None], name="ids")
    rows = tf.placeholder(tf.float32, [None, 2], name="rows")
    insert = table.insert(ids, rows).name
    tf.identity(table.lookup(tf.constant([2, 4, 6, 8, 100], tf.int64)), name="find")
    tf.identity(table.size(), name="size")
    _sorted_export(table)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(insert, {ids: [2, 4], rows: [[1, 2], [3, 4]]})
        rec.save_meta(sess, saver, with_saver_def=True)
        rec.run(sess, ["find:0", "size:0", "export_keys:0", "export_values:0"])
        rec.run(sess, ["find:0", "size:0", "export_keys:0", "export_values:0"],
                {"ids:0": np.array([4, 6, 8, 10, 12], np.int64),
                 "rows:0": np.arange(10, dtype=np.float32).reshape(5, 2)}, targets=[insert])
    from tensorflow.core.protobuf import meta_graph_pb2
    path = os.path.join(rec.dir, "graph.meta")
    meta = meta_graph_pb2.MetaGraphDef()
    with open(path, "rb") as f:
        meta.ParseFromString(f.read())
    for node in meta.graph_def.node:
        if node.op in _V1_FORMS:
            node.op = _V1_FORMS[node.op]
        if node.op == "MutableDenseHashTable":
            del node.input[1]
            shape = node.attr["_output_shapes"].list.shape[0]   # the handle: string [2]
            shape.ClearField("dim")
            shape.dim.add().size = 2
    with open(path, "wb") as f:
        f.write(meta.SerializeToString())


CASES = [case_dense_hash_tables, case_v1_dense_hash_table]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], CASES))
