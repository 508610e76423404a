"""tf.train.Saver beyond the goldens: other processes, crashes, corruption, all-or-nothing
restores, TF's fixtures, meta graphs and the file-level pieces (io_ops, protos)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization import atomic_files, bundle_writer
from tf1compat.serialization import safetensors_checkpoint as cf
from tf1compat.serialization.messages import MetaGraphDef, NodeDef, SaverDef, parse_text
from tf1compat.graphdef import graph_export, graph_io
from tf1compat.training.saving import meta_graph
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "tf_checkpoints")


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _run_python(code: str, cwd: str) -> str:
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _small_model():
    a = tf.get_variable("a", [2, 3], initializer=tf.constant_initializer(1.5))
    b = tf.get_variable("b", [3], tf.int64, initializer=tf.constant_initializer(4))
    return a, b


# -- processes, crashes, corruption ---------------------------------------------------------------

def test_round_trip_through_a_new_process(tmp_path):
    _run_python("""
        import numpy as np, tf1compat as tf
        v = tf.get_variable("v", [2, 2], initializer=tf.constant_initializer(
            np.array([[1., 2.], [3., 4.]])))
        r = tf.get_variable("r", [3], use_resource=True, initializer=tf.ones_initializer())
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(r.assign([7., 8., 9.]))
            tf.train.Saver().save(s, "model", global_step=5)
    """, str(tmp_path))
    out = _run_python("""
        import tf1compat as tf
        v = tf.get_variable("v", [2, 2])
        r = tf.get_variable("r", [3], use_resource=True)
        with tf.Session() as s:
            tf.train.Saver().restore(s, tf.train.latest_checkpoint("."))
            print(s.run(v).tolist(), s.run(r).tolist())
    """, str(tmp_path))
    assert out.strip() == "[[1.0, 2.0], [3.0, 4.0]] [7.0, 8.0, 9.0]"
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model-5.data-00000-of-00001",
                                           "model-5.index", "model-5.meta"]


def test_crash_during_save_leaves_previous_checkpoint(tmp_path, monkeypatch):
    a, b = _small_model()
    saver = tf.train.Saver()
    prefix = str(tmp_path / "m")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = saver.save(sess, prefix, global_step=1)
        state_before = (tmp_path / "checkpoint").read_text()
        sess.run(a.assign(tf.zeros([2, 3])))
        calls = {"n": 0}
        real = bundle_writer._write_payload

        def crash(f, array):
            calls["n"] += 1
            if calls["n"] == 2:
                raise OSError("disk unplugged")
            real(f, array)
        monkeypatch.setattr(bundle_writer, "_write_payload", crash)
        with pytest.raises(Exception, match="disk unplugged"):
            saver.save(sess, prefix, global_step=2)
        monkeypatch.undo()
    # Nothing of the failed save is visible; the state file still names the old one.
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-1.data-00000-of-00001",
                                           "m-1.index", "m-1.meta"]
    assert (tmp_path / "checkpoint").read_text() == state_before
    assert saver.last_checkpoints == [first]
    # A hard kill leaves a hidden temp file, which matches no checkpoint name...
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    leftover = os.path.basename(atomic_files.temp_path(str(tmp_path / "m-2.index")))
    leftover = leftover.replace(f"tmp-{os.getpid()}-", f"tmp-{dead}-")
    (tmp_path / leftover).write_bytes(b"partial")
    assert tf.train.latest_checkpoint(str(tmp_path)) == first
    with tf.Session() as sess:
        saver.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))
        np.testing.assert_array_equal(sess.run(a), np.full([2, 3], 1.5, np.float32))
        # ... and the next save to the directory removes it (its writer is gone).
        saver.save(sess, prefix, global_step=3)
    assert not (tmp_path / leftover).exists()


def _saved(tmp_path):
    a, b = _small_model()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"), write_meta_graph=False)
    return a, b, saver, path


@pytest.mark.parametrize("damage", ["flip_data", "truncate", "flip_index"])
def test_corrupted_checkpoint_restores_nothing(tmp_path, damage):
    a, b, saver, path = _saved(tmp_path)
    file = path + (".index" if damage == "flip_index" else ".data-00000-of-00001")
    data = bytearray(open(file, "rb").read())
    header_len = struct.unpack("<Q", data[:8])[0]
    if damage == "flip_data":
        data[8 + header_len + 3] ^= 0xFF
    elif damage == "truncate":
        data = data[:len(data) - 5]
    else:
        data[20] ^= 0xFF     # inside the index's data block: its checksum fails
    open(file, "wb").write(bytes(data))
    with tf.Session() as sess:
        sess.run([a.assign(tf.fill([2, 3], -1.0)), b.assign(tf.constant([-1, -1, -1], tf.int64))])
        with pytest.raises(tf.errors.DataLossError):
            saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(a), np.full([2, 3], -1.0, np.float32))
        assert sess.run(b).tolist() == [-1, -1, -1]


def test_restore_is_all_or_nothing_on_shape_mismatch(tmp_path):
    _, _, _, path = _saved(tmp_path)
    tf.reset_default_graph()
    a = tf.get_variable("a", [2, 3], initializer=tf.constant_initializer(9.0))
    b = tf.get_variable("b", [5], tf.int64, initializer=tf.constant_initializer(9))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="lhs shape= \\[5\\]"):
            tf.train.Saver().restore(sess, path)
        # `a` restores first in the graph, yet is rolled back with the failure.
        np.testing.assert_array_equal(sess.run(a), np.full([2, 3], 9.0, np.float32))


def test_resource_variable_takes_the_saved_shape(tmp_path):
    # As TF: AssignVariableOp (validate_shape=False) lets a resource variable declared
    # [3] hold the checkpoint's [2] values (ref variables fail; see the goldens).
    _, _, _, path = _saved(tmp_path)
    tf.reset_default_graph()
    a = tf.get_variable("a", [3], use_resource=True)
    b = tf.get_variable("b", [3], tf.int64, use_resource=True)
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, path)
        np.testing.assert_array_equal(sess.run(a), np.full([2, 3], 1.5, np.float32))


def test_restore_op_can_be_run_by_hand(tmp_path):
    a, b, saver, path = _saved(tmp_path)
    sd = saver.as_saver_def()
    with tf.Session() as sess:
        sess.run(sd.restore_op_name, {sd.filename_tensor_name: path})
        assert sess.run(b).tolist() == [4, 4, 4]
        out = sess.run(sd.save_tensor_name, {sd.filename_tensor_name: str(tmp_path / "x")})
        assert out == str(tmp_path / "x").encode()
    assert os.path.exists(tmp_path / "x.index")


def test_keep_checkpoint_every_n_hours(tmp_path, monkeypatch):
    import tf1compat.training.saving.saver as saver_module
    clock = {"t": 1000.0}
    monkeypatch.setattr(saver_module.time, "time", lambda: clock["t"])
    tf.get_variable("v", [1])
    saver = tf.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step, hours in enumerate([0.0, 0.5, 1.2, 1.4, 2.5, 2.6]):
            clock["t"] = 1000.0 + hours * 3600
            saver.save(sess, str(tmp_path / "m"), global_step=step, write_meta_graph=False)
    kept = sorted(n[:-len(".index")] for n in os.listdir(tmp_path) if n.endswith(".index"))
    # One checkpoint per hour survives max_to_keep: steps 2 (1.2h) and 4 (2.5h), plus the last.
    assert kept == ["m-2", "m-4", "m-5"]


# -- TF's checkpoints ---------------------------------------------------------------------------

def _fixture_net():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    with tf.variable_scope("net"):
        with tf.variable_scope("hidden"):
            k1, b1 = tf.get_variable("kernel", [4, 8]), tf.get_variable("bias", [8])
        with tf.variable_scope("logits"):
            k2, b2 = tf.get_variable("kernel", [8, 3]), tf.get_variable("bias", [3])
    logits = tf.nn.bias_add(tf.matmul(tf.nn.relu(tf.nn.bias_add(tf.matmul(x, k1), b1)), k2),
                            b2)
    return x, logits


def test_name_based_fixture_reproduces_probe_logits():
    d = os.path.join(FIXTURES, "name_based")
    x, logits = _fixture_net()
    expected = np.load(os.path.join(d, "expected.npz"))
    meta = json.load(open(os.path.join(d, "expected.json")))
    # Every variable of the fixture, Adam slots included, restored by name.
    others = {}
    for key, info in meta.items():
        if key.startswith("net/") and "/Adam" not in key:
            continue
        others[key] = tf.get_variable(key, info["shape"], tf.as_dtype(info["dtype"]))
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, "model.ckpt-3"))
        got = sess.run(logits, {x: np.load(os.path.join(d, "probe_input.npy"))})
        np.testing.assert_allclose(got, np.load(os.path.join(d, "probe_logits.npy")),
                                   rtol=1e-6, atol=1e-6)
        for key, var in others.items():
            np.testing.assert_array_equal(sess.run(var), expected[key])


def test_partitioned_fixture_restores_into_other_partitioning():
    d = os.path.join(FIXTURES, "partitioned")
    want = np.load(os.path.join(d, "expected.npz"))["big"]
    big = tf.get_variable("big", [10, 3], partitioner=tf.fixed_size_partitioner(4))
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(d, "part.ckpt"))
        np.testing.assert_array_equal(np.concatenate(sess.run(list(big))), want)


def test_tf_training_graph_imports_restores_and_steps_like_tf():
    """A TF-written .meta (with TF's explicit gradient ops: ReluGrad, BiasAddGrad, ApplyAdam)
    imports, restores model.ckpt-2 and, run one Adam step on the fixture's batch, lands on
    the values TF saved as model.ckpt-3."""
    d = os.path.join(FIXTURES, "name_based")
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(os.path.join(d, "model.ckpt-2.meta"))
    graph = tf.get_default_graph()
    train_op = tf.get_collection("train_op")[0]
    rng = np.random.RandomState(0)           # the batch make_tf_checkpoints.py trained on
    xs, ys = rng.randn(16, 4).astype(np.float32), rng.randint(0, 3, 16)
    expected = np.load(os.path.join(d, "expected.npz"))
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(d, "model.ckpt-2"))
        sess.run(train_op, {graph.get_tensor_by_name("x:0"): xs,
                            graph.get_tensor_by_name("y:0"): ys})
        for name in ("net/hidden/kernel", "net/hidden/bias", "net/logits/kernel",
                     "net/logits/bias", "net/hidden/kernel/Adam", "net/logits/kernel/Adam_1",
                     "beta1_power", "beta2_power", "global_step"):
            value = sess.run(graph.get_tensor_by_name(name + ":0"))
            np.testing.assert_allclose(value, expected[name], rtol=1e-6, atol=1e-7,
                                       err_msg=name)


def test_import_meta_with_unknown_op_names_it_and_adds_nothing():
    meta = meta_graph.read_meta_graph_file(os.path.join(FIXTURES, "name_based",
                                                        "model.ckpt-3.meta"))
    meta.graph_def.node.append(NodeDef(name="mystery", op="NoSuchTFOp"))
    tf.reset_default_graph()
    with pytest.raises(NotImplementedError, match="NoSuchTFOp"):
        tf.train.import_meta_graph(meta)
    assert tf.get_default_graph().get_operations() == []    # nothing half-imported


def test_tf_meta_graph_parses_with_collections():
    meta = meta_graph.read_meta_graph_file(os.path.join(FIXTURES, "name_based",
                                                        "model.ckpt-3.meta"))
    assert meta.saver_def.restore_op_name == "save/restore_all"
    assert meta.saver_def.max_to_keep == 2
    assert set(meta.collection_def) >= {"variables", "trainable_variables", "train_op"}
    assert meta.collection_def["train_op"].node_list.value[0] == "Adam"
    names = {n.name for n in meta.graph_def.node}
    assert {"x", "net/hidden/kernel", "save/RestoreV2"} <= names
    # Re-serializing the parsed message keeps every field we model.
    again = MetaGraphDef.FromString(meta.SerializeToString())
    assert again == meta


# -- meta graphs of tf1compat graphs -------------------------------------------------------------

def test_export_rejects_custom_gradients_and_saver_skips_meta(tmp_path, monkeypatch):
    import tf1compat.training.saving.saver as saver_module
    warnings = []
    monkeypatch.setattr(saver_module.tf_logging, "warning",
                        lambda msg, *args: warnings.append(msg % args))

    @tf.custom_gradient
    def clip(a):
        return tf.identity(a, name="clipped"), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)
    x = tf.placeholder(tf.float32, [2], name="x")
    tf.gradients(clip(x), x)
    v = tf.get_variable("v", [2])
    with pytest.raises(graph_io.UnserializableGraphError, match="custom"):
        tf.train.export_meta_graph(str(tmp_path / "g.meta"))
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m.data-00000-of-00001", "m.index"]
    assert any("custom" in w and "m.meta" in w for w in warnings)
    assert path == str(tmp_path / "m")


def test_py_func_is_written_as_tf_pyfunc_and_runs_in_the_same_process(tmp_path):
    """As TF: the PyFunc node keeps its token; importing in the process that registered
    the function runs it (the function lives as long as the graph that made it)."""
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.py_func(lambda a: a * 2, [x], tf.float32, name="doubler")
    meta = tf.train.export_meta_graph(str(tmp_path / "g.meta"))
    node = next(n for n in meta.graph_def.node if n.name == "doubler")
    assert node.op == "PyFunc" and node.attr["token"].s.decode().startswith("pyfunc_")
    keep = tf.get_default_graph()
    with tf.Graph().as_default():
        tf.train.import_meta_graph(str(tmp_path / "g.meta"))
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run("doubler:0", {"x:0": [1.0, 2.0]}),
                                          [2.0, 4.0])
    assert y.graph is keep


def test_meta_graph_text_format_round_trip(tmp_path):
    x = tf.placeholder(tf.string, [2], name="x")
    tf.constant(["a\n\"b", "\u00e9"], name="s")
    tf.get_variable("v", [2, 2], initializer=tf.constant_initializer([[1, 2], [3, 4]]))
    saver = tf.train.Saver(max_to_keep=3, keep_checkpoint_every_n_hours=0.25)
    meta = saver.export_meta_graph(str(tmp_path / "t.meta"), as_text=True)
    parsed = parse_text((tmp_path / "t.meta").read_text(), MetaGraphDef)
    assert parsed == meta
    assert x.name == "x:0"


def test_saver_def_proto():
    sd = SaverDef(filename_tensor_name="save/Const:0", save_tensor_name="save/Identity:0",
                  restore_op_name="save/restore_all", max_to_keep=3, sharded=True,
                  keep_checkpoint_every_n_hours=0.5, version=SaverDef.V2)
    again = SaverDef.FromString(sd.SerializeToString())
    assert again == sd and again.sharded and again.keep_checkpoint_every_n_hours == 0.5
    assert str(sd).splitlines()[-1] == "version: V2"
    assert tf.train.SaverDef is SaverDef


def test_import_graph_def_input_map_and_scope():
    a = tf.placeholder(tf.float32, [2], name="a")
    tf.multiply(a, 3.0, name="out")
    graph_def = graph_export.graph_to_graph_def()
    tf.reset_default_graph()
    feed = tf.constant([1.0, 2.0], name="feed")
    out, = tf.import_graph_def(graph_def, input_map={"a:0": feed}, return_elements=["out:0"],
                               name="imported")
    assert out.name == "imported/out:0"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(out), [3.0, 6.0])


# -- the ops' file layer ---------------------------------------------------------------------------

def test_merge_combines_partial_slices(tmp_path):
    from tf1compat.framework import dtypes
    from tf1compat.ops import io_ops
    full = np.arange(12, dtype=np.float32).reshape(4, 3)
    kinds = [dtypes.float32]
    os.makedirs(tmp_path / "m_temp")
    parts = []
    for shard, (spec, rows) in enumerate([("4 3 0,2:0,3", full[:2]),
                                          ("4 3 2,2:0,3", full[2:])]):
        part = str(tmp_path / "m_temp" / f"part-{shard:05d}-of-00002")
        io_ops.write_tensors(part, ["p"], [spec], [rows], kinds)
        parts.append(part)
    # A shard alone refuses to hand out the slice it does not hold (TF's message).
    with pytest.raises(tf.errors.InvalidArgumentError, match="Does not have sufficient slices"):
        io_ops.read_checkpoint_tensors(parts[0], ["p"], ["4 3 2,2:0,3"], kinds)
    np.testing.assert_array_equal(
        io_ops.read_checkpoint_tensors(parts[0], ["p"], ["4 3 0,2:0,3"], kinds)[0], full[:2])
    bundle_writer.merge_bundles(parts, str(tmp_path / "merged"))
    # As TF: the data files are renamed, the shard directory goes once empty.
    assert sorted(os.listdir(tmp_path)) == ["merged.data-00000-of-00002",
                                           "merged.data-00001-of-00002", "merged.index"]
    np.testing.assert_array_equal(tf.train.load_variable(str(tmp_path / "merged"), "p"), full)
    np.testing.assert_array_equal(
        io_ops.read_checkpoint_tensors(str(tmp_path / "merged"), ["p"], ["4 3 1,2:0,3"],
                                       kinds)[0], full[1:3])


def test_bench_checkpoint_smoke():
    """The benchmark runs on a small model (timings are not checked here)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "bench_checkpoint", os.path.join(ROOT, "scripts", "bench_checkpoint.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.bench_checkpoint(params=200_000, rounds=1, variables=2)
    assert result["params"] == 200_000
    assert all(result[k] > 0 for k in ("saver_save", "saver_restore", "st_save", "st_load"))


def test_graph_def_views_are_accepted():
    """`Graph.as_graph_def()` gives NodeDef views; export and import take them too."""
    a = tf.placeholder(tf.float32, [2], name="a")
    tf.add(a, tf.constant([1.0, 2.0]), name="out")
    view = tf.get_default_graph().as_graph_def()
    meta = tf.train.export_meta_graph(graph_def=view)
    assert [n.name for n in meta.graph_def.node] == [n.name for n in view.node]
    tf.reset_default_graph()
    out, = tf.import_graph_def(view, return_elements=["out:0"])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(out, {"import/a:0": [1.0, 1.0]}), [2.0, 3.0])


def test_meta_graph_rewritten_only_when_the_graph_changes(tmp_path, monkeypatch):
    v = tf.get_variable("v", [2])
    saver = tf.train.Saver()
    exports = []
    real = saver.export_meta_graph
    monkeypatch.setattr(saver, "export_meta_graph", lambda *a, **k: exports.append(1) or
                        real(*a, **k))
    with tf.Session() as sess:
        sess.run(v.initializer)
        saver.save(sess, str(tmp_path / "m"), global_step=1)
        saver.save(sess, str(tmp_path / "m"), global_step=2)
        assert len(exports) == 1
        assert (tmp_path / "m-1.meta").read_bytes() == (tmp_path / "m-2.meta").read_bytes()
        tf.add_to_collection("extra", 3)
        saver.save(sess, str(tmp_path / "m"), global_step=3)
        tf.identity(v, name="new_op")
        saver.save(sess, str(tmp_path / "m"), global_step=4)
    assert len(exports) == 3
    meta = meta_graph.read_meta_graph_file(str(tmp_path / "m-4.meta"))
    assert "new_op" in {n.name for n in meta.graph_def.node}
    assert list(meta.collection_def["extra"].int64_list.value) == [3]


def test_checksums_can_be_turned_off(tmp_path, monkeypatch):
    """TF1COMPAT_CHECKPOINT_VERIFY=0: restores skip the checksum and map the data file."""
    from tf1compat.ops import io_ops
    a, b, saver, path = _saved(tmp_path)
    data_file = path + ".data-00000-of-00001"
    data = bytearray(open(data_file, "rb").read())
    header_len = struct.unpack("<Q", data[:8])[0]
    data[8 + header_len] ^= 0x01         # the first stored byte (of `b`, the int64s)
    open(data_file, "wb").write(bytes(data))
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="Checksum does not match"):
            saver.restore(sess, path)
    monkeypatch.setattr(io_ops, "VERIFY_CHECKSUMS", False)
    with tf.Session() as sess:
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(a), np.full([2, 3], 1.5, np.float32))
        assert sess.run(b).tolist()[1:] == [4, 4]


def test_threaded_restore_of_earlier_safetensors_files(tmp_path, monkeypatch):
    """On machines with cores to spare RestoreV2 reads `.safetensors` files on threads."""
    rng = np.random.RandomState(3)
    values = [rng.standard_normal((64, 50)).astype(np.float32) for _ in range(12)]
    vs = [tf.get_variable(f"t{i}", [64, 50], initializer=tf.constant_initializer(v))
          for i, v in enumerate(values)]
    saver = tf.train.Saver()
    path = str(tmp_path / "m")
    cf.save_tensors(path, {f"t{i}": v for i, v in enumerate(values)})
    monkeypatch.setattr(cf, "_PARALLEL_BYTES", 1)
    monkeypatch.setattr(cf.os, "cpu_count", lambda: 8)
    for _ in range(3):
        with tf.Session() as sess:
            saver.restore(sess, path)
            for var, want in zip(vs, values):
                np.testing.assert_array_equal(sess.run(var), want)
    file = cf.checkpoint_file(path)
    data = bytearray(open(file, "rb").read())
    data[-7] ^= 0x55
    open(file, "wb").write(bytes(data))
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
            saver.restore(sess, path)
