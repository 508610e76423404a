"""More TF-written graph fixtures (the cases of make_graph_fixtures.py's format): mutable
dense hash tables restored from a checkpoint, transposed convolutions of run-time sizes,
`function.Defun` graph functions with their gradients.

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


def case_runtime_conv_transpose(rec: Recorder) -> None:
    """conv2d_transpose (Conv2DBackpropInput) and conv3d_transpose (Conv3DBackpropInputV2)
    whose `input_sizes` are known only at run time (the batch from Shape, the spatial
    sizes fed: 'SAME' with stride 2 gives two output sizes for one input size), trained
    with GradientDescent from the file (TF's Conv2D/Conv2DBackpropFilter/Conv3D/
    Conv3DBackpropFilterV2 gradients of run-time shapes); then both output sizes fed; and
    TF's minimize of the imported graph (the gradients of the transposed convolutions)."""
    rng = np.random.RandomState(31)
    x = tf.placeholder(tf.float32, [None, 3, 3, 2], name="x")
    v = tf.placeholder(tf.float32, [None, 2, 3, 2, 1], name="v")
    height = tf.placeholder(tf.int32, [], name="height")
    width = tf.placeholder(tf.int32, [], name="width")
    depth = tf.placeholder(tf.int32, [], name="depth")
    k2 = tf.Variable(rng.randn(3, 3, 4, 2).astype(np.float32) * 0.3, name="k2")
    k3 = tf.Variable(rng.randn(2, 3, 2, 3, 1).astype(np.float32) * 0.3, name="k3")
    batch = tf.shape(x)[0]
    y2 = tf.nn.conv2d_transpose(x, k2, tf.stack([batch, height, width, 4]),
                                [1, 2, 2, 1], "SAME")
    y2v = tf.nn.conv2d_transpose(x, k2, tf.stack([batch, height + 2, 7, 4]),
                                 [1, 2, 2, 1], "VALID")
    y3 = tf.nn.conv3d_transpose(v, k3, tf.stack([tf.shape(v)[0], depth, 6, 4, 3]),
                                [1, 2, 2, 2, 1], "SAME")
    tf.identity(y2, name="y2")
    tf.identity(y2v, name="y2v")
    tf.identity(y3, name="y3")
    loss = tf.identity(tf.reduce_sum(tf.square(y2)) + tf.reduce_sum(tf.sin(y2v)) +
                       tf.reduce_sum(tf.square(y3)), name="loss")
    feed = {"x:0": rng.randn(2, 3, 3, 2).astype(np.float32),
            "v:0": rng.randn(2, 2, 3, 2, 1).astype(np.float32),
            "height:0": np.int32(6), "width:0": np.int32(5), "depth:0": np.int32(4)}
    rec.train_from_file(loss, tf.train.GradientDescentOptimizer(0.01), [x, v, k2, k3], feed,
                        ["k2:0", "k3:0"])
    with tf.Session() as sess:
        saver = tf.train.Saver()
        saver.restore(sess, os.path.join(rec.dir, "ckpt"))
        for _ in range(2):                # the test's session has trained two steps
            sess.run(tf.get_collection("train_op"), feed)
        for sizes in ((5, 6, 3), (6, 5, 4)):
            rec.run(sess, ["y2:0", "y2v:0", "y3:0"],
                    {**feed, "height:0": np.int32(sizes[0]), "width:0": np.int32(sizes[1]),
                     "depth:0": np.int32(sizes[2])})
    rec.minimize("loss:0", feed, ["k2:0", "k3:0"], learning_rate=0.01)


def case_defun_functions(rec: Recorder) -> None:
    """TF 1.x `function.Defun` graph functions: call ops whose type is the function's name
    (a hashed name, a `func_name`, an overloaded one), a nested call, a captured variable
    value, a `grad_func` (the library's GradientDef) and a pass-through op with a
    `python_grad_func`; TF's SymbolicGradient ops of the functions in a GradientDescent
    train op, run from the file."""
    from tensorflow.python.framework import function

    @function.Defun(tf.float32, tf.float32)
    def ScaleGrad(x, dy):
        return dy * 0.5

    @function.Defun(tf.float32, grad_func=ScaleGrad, func_name="Scale")
    def scale(x):
        return x * 3.0

    @function.Defun(tf.float32, python_grad_func=lambda op, dy: dy * 2.0)
    def PassThrough(x):
        return tf.identity(x)

    w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    wv = w.read_value() if hasattr(w, "read_value") else tf.identity(w)

    @function.Defun(tf.float32, func_name="Layer")
    def layer(x):
        return tf.tanh(tf.matmul(x, wv))

    @function.Defun(tf.float32, tf.float32, func_name="Head")
    def head(h, y):
        return tf.reduce_mean(tf.square(layer(h) - y))

    @function.Defun()
    def Twice(a):
        return a + a

    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 4], name="y")
    h = layer(scale(PassThrough(x)))
    tf.identity(h, name="h")
    loss = tf.identity(head(tf.slice(h, [0, 0], [-1, 3]), y), name="loss")
    tf.identity(Twice(tf.constant([1, 2])), name="twice")
    gx = tf.identity(tf.gradients(tf.reduce_sum(h), x)[0], name="grad_x")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    tf.add_to_collection("train_op", train)
    saver = tf.train.Saver()
    feeds = {"x:0": np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3),
             "y:0": np.linspace(0, 1, 8, dtype=np.float32).reshape(2, 4)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["h:0", "loss:0", "twice:0", gx.name], feeds)
        rec.run(sess, ["loss:0", "w:0"], feeds, targets=[train.name])


def case_defun_python_gradients(rec: Recorder) -> None:
    """`function.Defun` calls with a `grad_func` and `python_grad_func`s on the way to a
    loss (the graph tf1compat writes in tests/graph_export_cases.py's
    `case_defun_gradients`): TF writes the Python gradients' ops into the graph and a
    SymbolicGradient for the `grad_func`; the gradients and the train op run from the
    file, and TF's gradients of the imported calls train the loss (minimize)."""
    from tensorflow.python.framework import function
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.graph_export_cases import X, defun_gradient_graph
    train = defun_gradient_graph(tf, function)
    saver = tf.train.Saver()
    feeds = {"x:0": X}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rec.save_meta(sess, saver)
        rec.run(sess, ["loss:0", "grad_x:0", "grad_w:0"], feeds)
        rec.run(sess, [], feeds, targets=[train.name])
        rec.run(sess, ["loss:0", "w:0"], feeds)
    rec.minimize("loss:0", feeds, ["w:0"])

CASES = [case_dense_hash_tables, case_v1_dense_hash_table, case_runtime_conv_transpose,
         case_defun_functions, case_defun_python_gradients]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], CASES))
