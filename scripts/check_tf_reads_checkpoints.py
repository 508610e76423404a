"""tf1compat writes checkpoints, real TensorFlow reads them: the round trip, recorded.

    python scripts/check_tf_reads_checkpoints.py            # record (needs /tmp/tf)
    python scripts/check_tf_reads_checkpoints.py --tf PYTHON_OF_A_TF_VENV

Step 1 (this interpreter, tf1compat): `write_checkpoints(DIR)` builds small TF1 programs
and saves them with tf1compat into tests/fixtures/tf1compat_written/:

* `name_based/model.ckpt-1`: `tf.train.Saver` over variables of every common dtype
  (ref and resource, strings included), Adam slots after one step, and a partitioned
  variable (`fixed_size_partitioner(3)`);
* `sharded/model.ckpt`: `Saver(sharded=True)` over variables on two parameter-server
  tasks (`replica_device_setter`), a partitioned variable spread over both shards, so
  MergeV2Checkpoints joins data files that hold TF's stored slices;
* `object_based/ckpt-1`: graph-mode `tf.train.Checkpoint(model=..., optimizer=Adam,
  step=...)` after one step (slot variables in the object graph);
* `saved_model/`: `tf.saved_model.simple_save` of y = x W + b;
* `keras/weights`: `tf.keras` `Model.save_weights` of a two-layer Sequential.

Step 2 (the TF venv, `--tf-read DIR` in a subprocess): real TF 2.21 reads each of them
the way TF1 users do — `tf.train.load_checkpoint` / `NewCheckpointReader` (every tensor),
`tf.train.Saver.restore` into the same graph, `tf.train.Checkpoint.restore(...)
.assert_consumed().run_restore_ops()`, `tf.saved_model.loader.load` and a run of the
signature, tf-keras `Model.load_weights` and a prediction, and in a second (eager, TF2)
process `tf.train.Checkpoint.restore` into TF2 variables — and records what it got in
`tf_read.json`. It also re-saves the restored
name-based variables with TF's own Saver (`tf_resaved/`), so the tests can compare TF's
index entries (dtype, shape, byte size, CRC-32C) with tf1compat's.

tests/test_tf_reads_checkpoints.py replays all of it without TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "tf1compat_written")
TF_PYTHON = "/tmp/tf/bin/python"

# Every dtype a TF1 Saver commonly stores: name -> (dtype name, value).
PLAIN_VALUES = {
    "f32": ("float32", np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5),
    "f64": ("float64", np.array([1.0 / 3.0, -2.5e300], dtype=np.float64)),
    "f16": ("float16", np.array([0.5, -1.25, 65504.0], dtype=np.float16)),
    "bf16": ("bfloat16", np.array([1.5, -2.0, 3.0e38], dtype=np.float32)),
    "i8": ("int8", np.array([-128, 0, 127], dtype=np.int8)),
    "i16": ("int16", np.array([-32768, 7], dtype=np.int16)),
    "i32": ("int32", np.array([[1, -2], [3, 2 ** 31 - 1]], dtype=np.int32)),
    "i64": ("int64", np.array(2 ** 40 + 3, dtype=np.int64)),
    "u8": ("uint8", np.array([0, 200, 255], dtype=np.uint8)),
    "flag": ("bool", np.array([True, False, True])),
    "c64": ("complex64", np.array([1 + 2j, -3.5j], dtype=np.complex64)),
    "c128": ("complex128", np.array([[1e-300 + 1j]], dtype=np.complex128)),
    "words": ("string", np.array([b"alpha", b"", b"\x00\xffbytes", "\u00e9".encode()],
                                 dtype=object)),
    "word": ("string", np.array(b"scalar", dtype=object)),
}
EMBEDDING = np.arange(40, dtype=np.float32).reshape(10, 4) / 4.0


def _variables(tf: Any) -> Dict[str, Any]:
    """The plain variables (ref ones, and a resource variable), created in the default
    graph; identical code under tf1compat and TensorFlow."""
    out = {}
    for name, (dtype, value) in PLAIN_VALUES.items():
        out[name] = tf.Variable(tf.constant(value.tolist(), dtype=getattr(tf, dtype)),
                                name=name)
    out["res"] = tf.get_variable("res", initializer=tf.constant([[0.25, -4.0]]),
                                 use_resource=True)
    return out


def build_name_based(tf: Any) -> Dict[str, Any]:
    """Plain variables, Adam slots and a partitioned embedding; returns {name: var/op}."""
    out = _variables(tf)
    w = tf.get_variable("w", initializer=tf.constant([[1.0, -2.0], [0.5, 3.0]]))
    emb = tf.get_variable("emb", [10, 4], tf.float32, partitioner=tf.fixed_size_partitioner(3))
    step = tf.train.get_or_create_global_step()
    loss = tf.reduce_sum(w * w) + tf.reduce_sum(tf.nn.embedding_lookup(emb, [1, 8]))
    out["train"] = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=step)
    out["w"], out["emb"], out["global_step"] = w, emb, step
    return out


def build_sharded(tf: Any, on_ps_tasks: bool = True) -> Dict[str, Any]:
    """Variables on two parameter-server tasks, a partitioned one spread over both (the
    reading side builds them without devices: a local session has no ps tasks)."""
    with tf.device(tf.train.replica_device_setter(ps_tasks=2) if on_ps_tasks else None):
        a = tf.get_variable("a", initializer=tf.constant([1.0, 2.0, 3.0]))
        b = tf.get_variable("b", initializer=tf.constant([[4, 5]], dtype=tf.int64))
        table = tf.get_variable("table", [6, 2], tf.float32,
                                partitioner=tf.fixed_size_partitioner(2))
    return {"a": a, "b": b, "table": table}


def build_object_based(tf: Any) -> Dict[str, Any]:
    """tf.train.Checkpoint(model=Checkpoint(w, b), optimizer=Adam, step) in graph mode."""
    w = tf.get_variable("model_w", initializer=tf.constant([[0.5, -1.0, 2.0]]))
    b = tf.get_variable("model_b", initializer=tf.constant([0.25]))
    step = tf.train.get_or_create_global_step()
    opt = tf.train.AdamOptimizer(0.05)
    loss = tf.reduce_sum(tf.matmul(w, tf.ones([3, 1])) + b)
    train = opt.minimize(loss, global_step=step, var_list=[w, b])
    ckpt = tf.train.Checkpoint(model=tf.train.Checkpoint(w=w, b=b), optimizer=opt, step=step)
    return {"w": w, "b": b, "step": step, "train": train, "ckpt": ckpt, "opt": opt}


KERAS_WEIGHTS = [np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32),
                 np.array([0.1, 0.2, 0.3], np.float32),
                 np.array([[1.0], [-2.0], [0.5]], np.float32), np.array([0.25], np.float32)]
KERAS_INPUT = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)


def build_keras(tf: Any) -> Any:
    """A Sequential of two Dense layers (named, so the object graphs match)."""
    return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,), name="d1"),
                                tf.keras.layers.Dense(1, name="d2")])


def _assign_partitions(sess: Any, var: Any, value: np.ndarray) -> None:
    """Each partition of a partitioned variable gets its rows of `value`."""
    start = 0
    for part in var:
        rows = part.get_shape().as_list()[0]
        sess.run(part.assign(value[start:start + rows]))
        start += rows


# -- step 1: tf1compat writes ------------------------------------------------------------------

def write_checkpoints(out_dir: str) -> None:
    """Saves the four programs' state with tf1compat under `out_dir`."""
    import tf1compat as tf
    for part in ("name_based", "sharded", "object_based", "saved_model", "keras",
                 "tf_resaved"):
        shutil.rmtree(os.path.join(out_dir, part), ignore_errors=True)
    os.makedirs(out_dir, exist_ok=True)
    tf.reset_default_graph()
    model = build_name_based(tf)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        _assign_partitions(sess, model["emb"], EMBEDDING)
        sess.run(model["train"])
        tf.train.Saver(save_relative_paths=True).save(
            sess, os.path.join(out_dir, "name_based", "model.ckpt"),
            global_step=model["global_step"])
    tf.reset_default_graph()
    model = build_sharded(tf)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        _assign_partitions(sess, model["table"], np.arange(12, dtype=np.float32).reshape(6, 2))
        os.makedirs(os.path.join(out_dir, "sharded"))   # (a sharded save, as TF's, needs it)
        tf.train.Saver(sharded=True, save_relative_paths=True).save(
            sess, os.path.join(out_dir, "sharded", "model.ckpt"), write_meta_graph=False)
    tf.reset_default_graph()
    model = build_object_based(tf)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(model["train"])
        model["ckpt"].save(os.path.join(out_dir, "object_based", "ckpt"), session=sess)
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], name="W")
    b = tf.Variable([0.5, 0.0, -0.5], name="b")
    y = tf.nn.bias_add(tf.matmul(x, w), b, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, os.path.join(out_dir, "saved_model"),
                                   inputs={"x": x}, outputs={"y": y})
    tf.reset_default_graph()
    model = build_keras(tf)
    model.set_weights(KERAS_WEIGHTS)
    model.save_weights(os.path.join(out_dir, "keras", "weights"))
    tf.keras.backend.clear_session()
    tf.reset_default_graph()


# -- step 2: TensorFlow reads ------------------------------------------------------------------

def _json_value(value: Any) -> Any:
    """A JSON form of a value TF returned: nested lists; bytes as latin-1 strings,
    complex as [re, im], bfloat16 as float, all tagged with the numpy dtype."""
    arr = np.asarray(value)
    dtype = str(arr.dtype)
    if arr.dtype == object or arr.dtype.kind == "S":
        flat = [bytes(v).decode("latin-1") for v in arr.reshape(-1)]
        return {"dtype": "bytes", "shape": list(arr.shape), "values": flat}
    if arr.dtype.kind == "c":
        flat = [[float(v.real), float(v.imag)] for v in arr.reshape(-1)]
    else:
        flat = [v.item() if hasattr(v, "item") else v for v in
                arr.astype(np.float64 if dtype == "bfloat16" else arr.dtype).reshape(-1)]
    return {"dtype": dtype, "shape": list(arr.shape), "values": flat}


def tf_read(directory: str) -> Dict[str, Any]:
    """What real TF reads from the checkpoints in `directory` (run under TensorFlow)."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    result: Dict[str, Any] = {"tensorflow": tf.__version__}

    def reader_dump(prefix: str) -> Dict[str, Any]:
        reader = tf.train.load_checkpoint(prefix)
        shapes = reader.get_variable_to_shape_map()
        dtypes = reader.get_variable_to_dtype_map()
        return {key: dict(_json_value(reader.get_tensor(key)), tf_dtype=dtypes[key].name,
                          tf_shape=list(shapes[key])) for key in sorted(shapes)}

    name_based = os.path.join(directory, "name_based", "model.ckpt-1")
    result["name_based.reader"] = reader_dump(name_based)
    result["name_based.list_variables"] = [[n, list(s)] for n, s in
                                           tf.train.list_variables(name_based)]
    graph = tf.Graph()
    with graph.as_default():
        model = build_name_based(tf)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, name_based)
            variables = {v.op.name: v for v in tf.global_variables()}
            result["name_based.saver_restore"] = {
                name: _json_value(sess.run(var)) for name, var in sorted(variables.items())}
            result["name_based.emb_full"] = _json_value(sess.run(tf.concat(list(model["emb"]),
                                                                           0)))
            tf.train.Saver().save(sess, os.path.join(directory, "tf_resaved", "model.ckpt"),
                                  global_step=1, write_meta_graph=False, write_state=False)
    sharded = os.path.join(directory, "sharded", "model.ckpt")
    result["sharded.reader"] = reader_dump(sharded)
    with tf.Graph().as_default():
        model = build_sharded(tf, on_ps_tasks=False)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, sharded)
            result["sharded.saver_restore"] = {
                "a": _json_value(sess.run(model["a"])), "b": _json_value(sess.run(model["b"])),
                "table": _json_value(sess.run(tf.concat(list(model["table"]), 0)))}
    object_based = tf.train.latest_checkpoint(os.path.join(directory, "object_based"))
    result["object_based.prefix"] = os.path.relpath(object_based, directory)
    result["object_based.reader"] = reader_dump(object_based)
    with tf.Graph().as_default():
        model = build_object_based(tf)
        with tf.Session() as sess:
            status = model["ckpt"].restore(object_based)
            status.assert_consumed()
            status.run_restore_ops(sess)
            slots = {f"{name}/{var.op.name}": model["opt"].get_slot(var, name)
                     for var in (model["w"], model["b"]) for name in ("m", "v")}
            fetch = {"w": model["w"], "b": model["b"], "step": model["step"],
                     "save_counter": model["ckpt"].save_counter, **slots}
            result["object_based.restore"] = {k: _json_value(sess.run(v))
                                              for k, v in sorted(fetch.items())}
    with tf.Graph().as_default():
        with tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"],
                                              os.path.join(directory, "saved_model"))
            signature = meta.signature_def["serving_default"]
            out = sess.run(signature.outputs["y"].name,
                           {signature.inputs["x"].name: [[1.0, 1.0], [2.0, -1.0]]})
            result["saved_model.y"] = _json_value(out)
    with tf.Graph().as_default():
        model = build_keras(tf)
        model.load_weights(os.path.join(directory, "keras", "weights"))
        result["keras.predict"] = _json_value(model.predict(KERAS_INPUT))
    return result


def tf_read_eager(directory: str) -> Dict[str, Any]:
    """TF2 (eager) `tf.train.Checkpoint.restore` of the object-based checkpoint."""
    import tensorflow as tf
    w = tf.Variable(tf.zeros([1, 3]))
    b = tf.Variable(tf.zeros([1]))
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=tf.train.Checkpoint(w=w, b=b), step=step)
    status = ckpt.restore(tf.train.latest_checkpoint(os.path.join(directory, "object_based")))
    status.assert_existing_objects_matched()
    return {"object_based.eager_restore": {"w": _json_value(w.numpy()),
                                           "b": _json_value(b.numpy()),
                                           "step": _json_value(step.numpy())}}


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf", default=TF_PYTHON, help="python of a TensorFlow venv")
    parser.add_argument("--out", default=FIXTURES, help="where to write (the fixtures)")
    parser.add_argument("--tf-read", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--tf-read-eager", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.tf_read:               # step 2, inside the TF venv
        json.dump(tf_read(args.tf_read), sys.stdout, sort_keys=True)
        return 0
    if args.tf_read_eager:
        json.dump(tf_read_eager(args.tf_read_eager), sys.stdout, sort_keys=True)
        return 0
    sys.path.insert(0, ROOT)
    write_checkpoints(args.out)
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
    record: Dict[str, Any] = {}
    for mode in ("--tf-read", "--tf-read-eager"):
        proc = subprocess.run([args.tf, os.path.abspath(__file__), mode, args.out],
                              capture_output=True, text=True, env=env)
        if proc.returncode:
            sys.stderr.write(proc.stderr[-5000:])
            return proc.returncode
        record.update(json.loads(proc.stdout))
    with open(os.path.join(args.out, "tf_read.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"TensorFlow {record['tensorflow']} read every checkpoint; recorded "
          f"{os.path.join(args.out, 'tf_read.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
