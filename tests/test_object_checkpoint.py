"""tf.train.Checkpoint / CheckpointManager beyond the goldens: optimizer slots (through the
`_slot_variables_for_checkpoint` hook, with a test-local optimizer), restore-on-create,
validation of the object graph, all-or-nothing restores, the file layout, other
processes, name-based checkpoints and the eager restore path."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization import object_graph as og
from tf1compat.serialization.bundle_writer import BundleWriter
from tf1compat.training.saving import object_checkpoint as oc
from tf1compat.training.saving import tracking
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "tf_checkpoints")


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


class Dense(tracking.AutoTrackable):
    """A minimal layer: variables made on the first call, tracked as kernel/bias."""

    def __init__(self, units: int, name: str):
        self.units = units
        self.layer_name = name
        self.built = False

    def __call__(self, x):
        if not self.built:
            with tf.variable_scope(self.layer_name):
                self.kernel = tf.get_variable("kernel", [int(x.shape[-1]), self.units])
                self.bias = tf.get_variable("bias", [self.units],
                                            initializer=tf.zeros_initializer())
            self.built = True
        return tf.matmul(x, self.kernel) + self.bias


class MomentumStandIn(tracking.AutoTrackable):
    """A test-local optimizer: one "momentum" slot per variable, a tracked step counter.

    It reports its slots through the hook object-based checkpoints use, as the real
    optimizers do: `_slot_variables_for_checkpoint() -> [(variable, slot_name, slot)]`.
    """

    def __init__(self):
        self.iterations = tf.get_variable("opt_iterations", [], tf.int64,
                                          initializer=tf.zeros_initializer(),
                                          trainable=False)
        object.__setattr__(self, "_slots", [])

    def minimize(self, loss, var_list):
        grads = tf.gradients(loss, var_list)
        updates = []
        for var, grad in zip(var_list, grads):
            with tf.variable_scope(var.op.name):
                slot = tf.get_variable("Momentum", var.shape, initializer=tf.zeros_initializer(),
                                       trainable=False)
            self._slots.append((var, "momentum", slot))
            new_slot = tf.assign(slot, 0.9 * slot + grad)
            updates.append(tf.assign_sub(var, 0.1 * new_slot))
        with tf.control_dependencies(updates):
            return tf.assign_add(self.iterations, 1)

    def _slot_variables_for_checkpoint(self):
        return list(self._slots)


def _train_graph(name="dense"):
    layer = Dense(2, name)
    x = tf.constant([[1.0, 2.0, 3.0]])
    loss = tf.reduce_sum(tf.square(layer(x)))
    opt = MomentumStandIn()
    train = opt.minimize(loss, [layer.kernel, layer.bias])
    return layer, opt, train


# -- optimizer slots ------------------------------------------------------------------------------

def test_slot_variables_are_saved_under_optimizer_slot_keys(tmp_path):
    layer, opt, train = _train_graph()
    ckpt = tf.train.Checkpoint(model=layer, optimizer=opt)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
        slots = sess.run([s for _, _, s in opt._slot_variables_for_checkpoint()])
    keys = dict(tf.train.list_variables(path))
    assert "model/kernel/.OPTIMIZER_SLOT/optimizer/momentum/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "model/bias/.OPTIMIZER_SLOT/optimizer/momentum/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "optimizer/iterations/.ATTRIBUTES/VARIABLE_VALUE" in keys
    reader = tf.train.NewCheckpointReader(path)
    np.testing.assert_array_equal(reader.get_tensor(
        "model/kernel/.OPTIMIZER_SLOT/optimizer/momentum/.ATTRIBUTES/VARIABLE_VALUE"), slots[0])
    graph = reader.object_graph()
    optimizer_node = graph["nodes"][graph["nodes"][0]["children"]["optimizer"]]
    assert [s["slot_name"] for s in optimizer_node["slot_variables"]] == ["momentum"] * 2


def test_slots_restored_when_created_after_restore(tmp_path):
    layer, opt, train = _train_graph()
    ckpt = tf.train.Checkpoint(model=layer, optimizer=opt)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
        for _ in range(2):
            sess.run(train)
        want = sess.run([layer.kernel, layer.bias])
    tf.reset_default_graph()
    layer = Dense(2, "renamed")
    opt = MomentumStandIn()
    ckpt = tf.train.Checkpoint(model=layer, optimizer=opt)
    status = ckpt.restore(path)          # nothing but the optimizer's counter exists yet
    x = tf.constant([[1.0, 2.0, 3.0]])
    train = opt.minimize(tf.reduce_sum(tf.square(layer(x))), [layer.kernel, layer.bias])
    with tf.Session() as sess:
        status.assert_consumed().run_restore_ops(sess)
        assert sess.run(opt.iterations) == 3
        for _ in range(2):
            sess.run(train)
        got = sess.run([layer.kernel, layer.bias])
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_unresolved_slots_fail_assert_consumed(tmp_path):
    layer, opt, train = _train_graph()
    ckpt = tf.train.Checkpoint(model=layer, optimizer=opt)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
    tf.reset_default_graph()
    layer = Dense(2, "dense")
    layer(tf.ones([1, 3]))
    status = tf.train.Checkpoint(model=layer, optimizer=MomentumStandIn()).restore(path)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint "
                                             "model.kernel's state 'momentum' for optimizer"):
        status.assert_consumed()
    assert len(status._restoration.pending_slots) == 2
    status.assert_existing_objects_matched()


# -- restore-on-create, statuses -------------------------------------------------------------------

def test_objects_created_after_run_restore_ops(tmp_path):
    layer = Dense(3, "first")
    layer(tf.ones([1, 2]))
    ckpt = tf.train.Checkpoint(model=layer)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(layer.bias.assign([1., 2., 3.]))
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
    tf.reset_default_graph()
    later = Dense(3, "later")
    ckpt = tf.train.Checkpoint(model=later)
    status = ckpt.restore(path)
    with tf.Session() as sess:
        status.run_restore_ops(sess)          # restores save_counter only
        assert sess.run(ckpt.save_counter) == 1
        later(tf.ones([1, 2]))                # creates kernel and bias: restore ops appear
        status.run_restore_ops(sess)
        np.testing.assert_array_equal(sess.run(later.bias), [1., 2., 3.])
        status.assert_consumed()


def test_shared_object_is_one_node(tmp_path):
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
    holder = tracking.AutoTrackable()
    holder.a = v
    holder.b = v
    ckpt = tf.train.Checkpoint(holder=holder, alias=v)
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH", "alias/.ATTRIBUTES/VARIABLE_VALUE",
                    "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    graph = tf.train.NewCheckpointReader(path).object_graph()
    holder_node = graph["nodes"][graph["nodes"][0]["children"]["holder"]]
    assert holder_node["children"]["a"] == holder_node["children"]["b"] == \
        graph["nodes"][0]["children"]["alias"]


def test_restore_is_all_or_nothing(tmp_path):
    a = tf.get_variable("a", [2], initializer=tf.constant_initializer([1., 2.]))
    b = tf.get_variable("b", [2], initializer=tf.constant_initializer([3., 4.]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Checkpoint(a=a, b=b).write(str(tmp_path / "w"), session=sess)
    tf.reset_default_graph()
    a = tf.get_variable("a", [2], initializer=tf.constant_initializer(-1.))
    b = tf.get_variable("b", [3], initializer=tf.constant_initializer(-1.))
    status = tf.train.Checkpoint(a=a, b=b).restore(path)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError):
            status.run_restore_ops(sess)
        np.testing.assert_array_equal(sess.run(a), [-1., -1.])


def _rewrite_object_graph(path, edit):
    """Rewrites the checkpoint `path` with its object graph changed by `edit` (the bytes
    given to `edit` as the plain structure, returned serialized)."""
    reader = tf.train.NewCheckpointReader(path)
    graph = reader.object_graph()
    values = {k: reader.read_torch(k) for k in reader.keys() if k != og.OBJECT_GRAPH_KEY}
    writer = BundleWriter(path)
    writer.add(og.OBJECT_GRAPH_KEY, edit(graph), tf.string)
    for key, value in values.items():
        writer.add(key, value)
    writer.finish()


@pytest.mark.parametrize("damage", ["dangling_child", "not_a_graph", "duplicate_key",
                                    "missing_value"])
def test_malformed_object_graph_restores_nothing(tmp_path, damage):
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
    ckpt = tf.train.Checkpoint(v=v)
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = ckpt.save(str(tmp_path / "ck"), session=sess)

    def edit(graph):
        # The proto is edited directly: the plain structure refuses malformed graphs.
        from tf1compat.serialization.messages import TrackableObjectGraph
        proto = TrackableObjectGraph.FromString(og.serialize_object_graph(graph))
        if damage == "not_a_graph":
            return b"\x0a\x05ab"
        if damage == "dangling_child":
            proto.nodes[0].children.add(node_id=99, local_name="w")
        elif damage == "duplicate_key":
            proto.nodes[2].attributes.add().CopyFrom(proto.nodes[1].attributes[0])
        else:
            proto.nodes[1].attributes[0].checkpoint_key = "no/such/key"
        return proto.SerializeToString()
    _rewrite_object_graph(path, edit)
    before = len(tf.get_default_graph().get_operations())
    with pytest.raises(tf.errors.DataLossError, match="object graph|names key"):
        tf.train.Checkpoint(v=v).restore(path)
    assert len(tf.get_default_graph().get_operations()) == before


def test_file_layout(tmp_path):
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
    ckpt = tf.train.Checkpoint(model=tf.train.Checkpoint(v=v))
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = ckpt.save(str(tmp_path / "ck"), session=sess)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ck-1.data-00000-of-00001",
                                           "ck-1.index"]
    from safetensors import safe_open
    with safe_open(path + ".data-00000-of-00001", framework="np") as f:
        assert sorted(f.keys()) == [og.OBJECT_GRAPH_KEY, "model/v/.ATTRIBUTES/VARIABLE_VALUE",
                                    "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
        np.testing.assert_array_equal(f.get_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE"),
                                      [1., 2.])
    graph = tf.train.NewCheckpointReader(path).object_graph()
    assert graph["nodes"][0]["children"] == {"model": 1, "save_counter": 2}


def test_round_trip_through_a_new_process(tmp_path):
    code = """
        import sys, tf1compat as tf
        from tf1compat.training.saving.tracking import AutoTrackable
        model = AutoTrackable()
        model.w = tf.get_variable(sys.argv[1], [2], initializer=tf.constant_initializer(
            [float(sys.argv[2]), 5.0]))
        ckpt = tf.train.Checkpoint(model=model)
        manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=3)
        with tf.Session() as s:
            if manager.latest_checkpoint:
                ckpt.restore(manager.latest_checkpoint).assert_consumed().run_restore_ops(s)
            else:
                ckpt.save_counter  # created before the initializer runs
                s.run(tf.global_variables_initializer())
            print(s.run(model.w).tolist(), s.run(ckpt.save_counter))
            with s.as_default():
                print(manager.save())
    """
    env = child_env()
    outs = []
    for name, value in (("first_name", "1.5"), ("other_name", "9.0")):
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code), name, value],
                              cwd=str(tmp_path), env=env, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        outs.append(proc.stdout.split("\n"))
    assert outs[0][:2] == ["[1.5, 5.0] 0", "ckpts/ckpt-1"]
    assert outs[1][:2] == ["[1.5, 5.0] 1", "ckpts/ckpt-2"]


# -- name-based checkpoints, read, eager path ------------------------------------------------------

def test_checkpoint_restores_name_based_checkpoint(tmp_path):
    # TF 2.21 fails here (it tries to restore the fresh save_counter by name); tf1compat
    # treats save_counter as optional, as TF's own assertions do.
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([7., 8.]))
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = tf.train.Saver([v]).save(sess, str(tmp_path / "nb"), write_meta_graph=False)
    tf.reset_default_graph()
    v = tf.get_variable("v", [2])
    ckpt = tf.train.Checkpoint(model=tf.train.Checkpoint(v=v))
    status = ckpt.restore(path)
    assert isinstance(status, oc.NameBasedSaverStatus)
    status.assert_consumed()
    with tf.Session() as sess:
        status.run_restore_ops(sess)
        np.testing.assert_array_equal(sess.run(v), [7., 8.])


def test_read_does_not_create_save_counter(tmp_path):
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = tf.train.Checkpoint(v=v).write(str(tmp_path / "w"), session=sess)
    tf.reset_default_graph()
    v = tf.get_variable("v", [2])
    ckpt = tf.train.Checkpoint(v=v)
    status = ckpt.read(path)
    assert ckpt._save_counter is None
    with tf.Session() as sess:
        status.assert_consumed().run_restore_ops(sess)
        np.testing.assert_array_equal(sess.run(v), [1., 2.])


def test_eager_restore_assigns_at_once():
    class FakeVariable:
        def __init__(self, dtype):
            self.dtype = dtype
            self.value = None

        def assign(self, value):
            self.value = value

    reader = tf.train.NewCheckpointReader(os.path.join(FIXTURES, "object_graph_v1", "ckpt-1"))
    kernel, bias = FakeVariable(tf.float32), FakeVariable(tf.float32)
    oc.restore_eagerly(reader, [(kernel, "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"),
                                (bias, "dense/bias/.ATTRIBUTES/VARIABLE_VALUE")])
    assert kernel.value.tolist() == [[1.0, 2.0]] and bias.value.tolist() == [3.0, 4.0]
    wrong = FakeVariable(tf.int32)
    untouched = FakeVariable(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected dtype int32"):
        oc.restore_eagerly(reader, [(untouched, "dense/bias/.ATTRIBUTES/VARIABLE_VALUE"),
                                    (wrong, "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE")])
    assert untouched.value is None


# -- CheckpointManager -----------------------------------------------------------------------------

def test_manager_keep_every_n_hours_and_recovery(tmp_path, monkeypatch):
    import tf1compat.training.saving.trackable_checkpoint as tc
    clock = {"t": 10_000.0}
    monkeypatch.setattr(tc.time, "time", lambda: clock["t"])
    v = tf.get_variable("v", [1])
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1.0)
    with tf.Session() as sess:
        sess.run(v.initializer)
        with sess.as_default():
            for hours in (0.0, 0.5, 1.5, 1.6, 3.0):
                clock["t"] = 10_000.0 + hours * 3600
                manager.save()
    kept = sorted(n for n in os.listdir(tmp_path) if n.endswith(".index"))
    # As TF: a checkpoint survives max_to_keep when it is at least an hour newer than the
    # last one preserved (the manager's creation time at first).
    assert kept == ["ckpt-3.index", "ckpt-5.index"]
    assert len([n for n in os.listdir(tmp_path) if ".data-" in n]) == 2
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-5"]
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.latest_checkpoint == str(tmp_path / "ckpt-5")
    assert again.checkpoints == [str(tmp_path / "ckpt-5")]


def test_manager_interval_and_restore_or_initialize(tmp_path):
    v = tf.get_variable("v", [1])
    step = tf.train.get_or_create_global_step()
    bump = tf.assign_add(step, 1)
    ckpt = tf.train.Checkpoint(v=v, step=step)
    calls = []
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=None,
                                         step_counter=step, checkpoint_interval=2,
                                         init_fn=lambda: calls.append("init"))
    assert manager.restore_or_initialize() is None and calls == ["init"]
    with tf.Session() as sess, sess.as_default():
        sess.run(tf.global_variables_initializer())
        saved = []
        for _ in range(5):
            saved.append(manager.save())
            sess.run(bump)
    assert [os.path.basename(p) if p else None for p in saved] == \
        ["ckpt-1", None, "ckpt-2", None, "ckpt-3"]
    with pytest.raises(ValueError, match="step_counter"):
        tf.train.CheckpointManager(ckpt, str(tmp_path), 1, checkpoint_interval=3)
