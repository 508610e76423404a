"""Checkpoints of mutable lookup tables both ways between tf1compat and real TensorFlow.

    python scripts/check_tf_reads_tables.py            # record (needs /tmp/tf)
    python scripts/check_tf_reads_tables.py --tf PYTHON_OF_A_TF_VENV

A `tf.train.Saver` saves a table as `<name>-keys` and `<name>-values` (its export). For a
DenseHashTable (MutableDenseHashTableV2; the V1 MutableDenseHashTable of TF <= 1.2 has
the same saveable) that export is the table's buckets, which TF's restore adopts as they
are, so a reader must find keys where TF's open addressing put them (tf1compat's
`lookup_mutable.DenseTable` reproduces it). Under tests/fixtures/tf1compat_written/tables/:

1. (TF) `tf_written/ckpt`: TF builds `build(tf)` — an int64 -> [2] float DenseHashTable
   grown past its initial buckets with removed keys, a string -> int64 DenseHashTable
   and a string MutableHashTable — fills it (`FILL`), saves, and records its finds,
   sizes and exports in `tables.json` ("tf");
2. (tf1compat) `tf1compat_written/ckpt`: the same program under tf1compat; and
   `v1_saved/ckpt`: the V1 table of tests/fixtures/tf_graphs/v1_dense_hash_table
   imported, restored from TF's checkpoint, one more insert, saved by the file's Saver;
3. (TF) restores `tf1compat_written/ckpt` into its program and `v1_saved/ckpt` into the V2
   form of the V1 table's graph, and records what it finds ("tf_read", "tf_read_v1").

tests/test_tf_reads_tables.py replays it without TensorFlow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "tf1compat_written", "tables")
V1_GRAPH = os.path.join(ROOT, "tests", "fixtures", "tf_graphs", "v1_dense_hash_table")
TF_PYTHON = "/tmp/tf/bin/python"

# What the program inserts, then removes (the dense table grows from 4 to 16 buckets).
FILL = {"ids": [2, 4, 6, 8, 10, 11, 27, -5], "rows": np.arange(16.0).reshape(8, 2).tolist(),
        "words": ["a", "b", "cat", "dog", "eel"], "counts": [7, 9, 1, 2, 3],
        "removed_ids": [4, 27], "removed_words": ["b"]}
V1_INSERT = {"ids": [6, 8, 10, 12, 14], "rows": np.arange(10.0).reshape(5, 2).tolist()}


def build(tf: Any) -> Dict[str, Any]:
    """The tables, their fill and what is fetched of them (finds, sizes, exports)."""
    dense = tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.float32, default_value=[0.5, -0.5], empty_key=-1, deleted_key=-2,
        initial_num_buckets=4, name="dense")
    named = tf.lookup.experimental.DenseHashTable(
        tf.string, tf.int64, default_value=-7, empty_key="", deleted_key="<deleted>",
        initial_num_buckets=8, name="named")
    words = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1,
                                                    name="words")
    fill = [dense.insert(tf.constant(FILL["ids"], tf.int64), tf.constant(FILL["rows"],
                                                                         tf.float32)),
            named.insert(tf.constant(FILL["words"]), tf.constant(FILL["counts"], tf.int64)),
            words.insert(tf.constant(FILL["words"]), tf.constant(FILL["counts"], tf.int64))]
    with tf.control_dependencies(fill):
        remove = tf.group(dense.remove(tf.constant(FILL["removed_ids"], tf.int64)),
                          named.remove(tf.constant(FILL["removed_words"])))
    probe_ids = tf.constant(FILL["ids"] + [100, 3], tf.int64)
    probe_words = tf.constant(FILL["words"] + ["zz"])
    fetches = {"dense_find": dense.lookup(probe_ids), "named_find": named.lookup(probe_words),
               "words_find": words.lookup(probe_words), "dense_size": dense.size(),
               "named_size": named.size(), "words_size": words.size()}
    fetches["dense_keys"], fetches["dense_values"] = dense.export()
    fetches["named_keys"], fetches["named_values"] = named.export()
    return {"fill": [fill, remove], "fetches": fetches, "saver": tf.train.Saver()}


def v1_graph_v2(tf: Any) -> Dict[str, Any]:
    """The V2 form of the V1 table's graph (as scripts/make_graph_fixtures_more.py)."""
    table = tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.float32, default_value=[0.5, -0.5], empty_key=-1, deleted_key=-2,
        initial_num_buckets=4, name="table")
    ids = tf.constant([2, 4, 6, 8, 10, 12, 14, 100], tf.int64)
    return {"fetches": {"find": table.lookup(ids), "size": table.size()},
            "saver": tf.train.Saver()}


def _plain(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: [x.decode() if isinstance(x, bytes) else x for x in np.asarray(
        v, dtype=object).reshape(-1).tolist()] if np.asarray(v).dtype == object else
        np.asarray(v).tolist() for k, v in values.items()}


def run_program(tf: Any, restore: str = "", save: str = "") -> Dict[str, Any]:
    """Builds the program, fills it (or restores `restore`), saves to `save`, fetches."""
    tf.reset_default_graph()
    program = build(tf)
    with tf.Session() as sess:
        if restore:
            program["saver"].restore(sess, restore)
        else:
            sess.run(program["fill"])
        if save:
            program["saver"].save(sess, save, write_meta_graph=False, write_state=False)
        return _plain(sess.run(program["fetches"]))


def write_tf1compat() -> None:
    """Step 2, under tf1compat."""
    sys.path.insert(0, ROOT)
    import tf1compat as tf
    run_program(tf, save=os.path.join(OUT, "tf1compat_written", "ckpt"))
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(os.path.join(V1_GRAPH, "graph.meta"))
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(V1_GRAPH, "ckpt"))
        sess.run("table_lookup_table_insert/LookupTableInsertV2", {
            "ids:0": np.array(V1_INSERT["ids"], np.int64),
            "rows:0": np.array(V1_INSERT["rows"], np.float32)})
        saver.save(sess, os.path.join(OUT, "v1_saved", "ckpt"), write_meta_graph=False,
                   write_state=False)
    tf.reset_default_graph()


def tf_side(step: str) -> None:
    """Steps 1 and 3, under real TF."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    path = os.path.join(OUT, "tables.json")
    record = json.load(open(path)) if os.path.exists(path) else {}
    if step == "write":
        record["tf"] = run_program(tf, save=os.path.join(OUT, "tf_written", "ckpt"))
    else:
        record["tf_read"] = run_program(tf, restore=os.path.join(OUT, "tf1compat_written",
                                                                 "ckpt"))
        tf.reset_default_graph()
        program = v1_graph_v2(tf)
        with tf.Session() as sess:
            program["saver"].restore(sess, os.path.join(OUT, "v1_saved", "ckpt"))
            record["tf_read_v1"] = _plain(sess.run(program["fetches"]))
    with open(path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)


def main(argv: list) -> int:
    if argv[:1] == ["--tf-side"]:
        tf_side(argv[1])
        return 0
    tf_python = argv[argv.index("--tf") + 1] if "--tf" in argv else TF_PYTHON
    os.makedirs(OUT, exist_ok=True)
    subprocess.run([tf_python, __file__, "--tf-side", "write"], check=True)
    write_tf1compat()
    subprocess.run([tf_python, __file__, "--tf-side", "read"], check=True)
    record = json.load(open(os.path.join(OUT, "tables.json")))
    same = record["tf_read"] == record["tf"]
    print(f"TF reads tf1compat's tables as it wrote them: {same}")
    print(f"TF reads the V1 table tf1compat saved: {record['tf_read_v1']}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
