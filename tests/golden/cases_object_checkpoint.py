"""Golden cases: tf.train.Checkpoint (object-based) and tf.train.CheckpointManager.

Layers and models are test-local stand-ins built on each side's AutoTrackable (TF's
`tensorflow.python.trackable.autotrackable`, tf1compat's `training.tracking`), so the
object-graph protocol is checked without Keras; `case_seed_keras_dense` is the same seed
with the real `tf.keras.layers.Dense` and runs once tf1compat has it.
"""

import os
import re
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch, requires

FIXTURES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "fixtures",
                                        "tf_checkpoints"))


def _auto_trackable(tf):
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.training.saving.tracking import AutoTrackable
    else:
        from tensorflow.python.trackable.autotrackable import AutoTrackable
    return AutoTrackable


def _dense_class(tf):
    """A minimal Dense layer: variables created on first call (deferred build)."""
    base = _auto_trackable(tf)

    class Dense(base):
        def __init__(self, units, name):
            super().__init__()
            self.units = units
            self.layer_name = name
            self.built = False

        def __call__(self, x):
            if not self.built:
                with tf.variable_scope(self.layer_name):
                    self.kernel = tf.get_variable("kernel", [int(x.shape[-1]), self.units],
                                                  initializer=tf.zeros_initializer())
                    self.bias = tf.get_variable("bias", [self.units],
                                                initializer=tf.zeros_initializer())
                self.built = True
            return tf.matmul(x, self.kernel) + self.bias

    return Dense


class _TmpDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp()
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


def _scrub(value, tmp):
    if isinstance(value, str):
        value = value.replace(FIXTURES, "<fixtures>")
        return value.replace(tmp, "<tmp>") if tmp else value
    if isinstance(value, (list, tuple)):
        return [_scrub(v, tmp) for v in value]
    return value


def _files(directory):
    prefixes, other = set(), []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".index") or name.endswith(".safetensors"):
            prefixes.add(name.rsplit(".", 1)[0])
        elif ".data-" not in name:
            other.append(name)
    return {"prefixes": sorted(prefixes), "other": other}


def _state(directory):
    with open(os.path.join(directory, "checkpoint")) as f:
        text = f.read()
    return re.sub(r"(timestamps?: )[0-9.e+]+", r"\1<time>", text)


def _assertion(fn, chars=70):
    """An assertion's class and the start of its message (object lists are unordered)."""
    out = catch(fn, message=True)
    if "message" in out:
        out["message"] = out["message"][:chars]
    return out


# -- the seed examples -----------------------------------------------------------------------------

def case_seed_name_based_vs_object_based(tf):
    Dense = _dense_class(tf)
    with _TmpDir() as tmp:
        dense = Dense(2, "dense")
        dense(tf.ones([1, 1]))
        ckpt = tf.train.Checkpoint(dense=dense)
        saver = tf.train.Saver([dense.kernel, dense.bias])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([dense.kernel.assign([[1., 2.]]), dense.bias.assign([3., 4.])])
            object_path = ckpt.save(os.path.join(tmp, "obj"), session=sess)
            name_path = saver.save(sess, os.path.join(tmp, "names"), write_meta_graph=False)
        out = {"object_keys": tf.train.list_variables(object_path),
               "name_keys": tf.train.list_variables(name_path)}
        # A second Dense: its variables are dense_1/kernel, dense_1/bias.
        dense2 = Dense(2, "dense_1")
        status = tf.train.Checkpoint(dense=dense2).restore(object_path)
        y = dense2(tf.ones([1, 1]))
        out["names"] = [dense2.kernel.name, dense2.bias.name]
        with tf.Session() as sess:
            status.run_restore_ops(sess)
            out["restored"] = sess.run([dense2.kernel, dense2.bias, y])
            out["consumed"] = _assertion(lambda: status.assert_consumed())
            sess.run(tf.global_variables_initializer())
            out["name_based"] = catch(lambda: tf.train.Saver([dense2.kernel, dense2.bias])
                                      .restore(sess, name_path), message=True)
            out["after_failed"] = sess.run(dense2.kernel)
        return out


@requires("keras.layers.Dense")
def case_seed_keras_dense(tf):
    with _TmpDir() as tmp:
        dense = tf.keras.layers.Dense(2)
        dense(tf.ones([1, 1]))
        ckpt = tf.train.Checkpoint(dense=dense)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([dense.variables[0].assign([[1., 2.]]), dense.variables[1].assign([3., 4.])])
            path = ckpt.save(os.path.join(tmp, "ckpt"), session=sess)
        dense2 = tf.keras.layers.Dense(2)
        status = tf.train.Checkpoint(dense=dense2).restore(path)
        y = dense2(tf.ones([1, 1]))
        with tf.Session() as sess:
            status.run_restore_ops(sess)
            return {"keys": tf.train.list_variables(path),
                    "names": [v.name for v in dense2.variables],
                    "kernel": sess.run(dense2.variables[0]), "y": sess.run(y)}


# -- saving ----------------------------------------------------------------------------------------

def case_checkpoint_save_keys_and_numbering(tf):
    base = _auto_trackable(tf)
    with _TmpDir() as tmp:
        v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
        r = tf.get_variable("r", [], tf.int64, use_resource=True,
                            initializer=tf.constant_initializer(5))
        w = tf.Variable([[3.]], name="w")
        model = base()
        model.inner = base()
        model.inner.w = w
        model.items = [v, {"x": r}]
        ckpt = tf.train.Checkpoint(model=model, nested=tf.train.Checkpoint(v=v),
                                   **{"odd/name.x": r})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            paths = [ckpt.save(os.path.join(tmp, "ck"), session=sess) for _ in range(3)]
            counter = sess.run(ckpt.save_counter)
            written = ckpt.write(os.path.join(tmp, "plain"), session=sess)
        reader = tf.train.NewCheckpointReader(paths[-1])
        return {"paths": _scrub(paths, tmp), "written": _scrub(written, tmp),
                "counter": counter, "keys": tf.train.list_variables(paths[-1]),
                "values": {k: reader.get_tensor(k) for k, _ in tf.train.list_variables(paths[-1])
                           if k != "_CHECKPOINTABLE_OBJECT_GRAPH"},
                "object_graph": reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"),
                "state": _state(tmp), "files": _files(tmp),
                "save_counter_var": [ckpt.save_counter.name, ckpt.save_counter.dtype.name,
                                     ckpt.save_counter in tf.global_variables()]}


def case_checkpoint_constructor_errors(tf):
    return {"int": catch(lambda: tf.train.Checkpoint(a=3), message=True),
            "list_of_ints": catch(lambda: tf.train.Checkpoint(a=[1, 2]) is not None)}


# -- restoring -------------------------------------------------------------------------------------

def case_checkpoint_restore_round_trip(tf):
    base = _auto_trackable(tf)
    with _TmpDir() as tmp:
        with tf.Graph().as_default():
            model = base()
            model.a = tf.get_variable("a", [2], initializer=tf.constant_initializer([1., 2.]))
            model.b = tf.get_variable("b", [], tf.int32, use_resource=True,
                                      initializer=tf.constant_initializer(3))
            ckpt = tf.train.Checkpoint(model=model)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(model.a.assign([10., 20.]))
                path = ckpt.save(os.path.join(tmp, "ck"), session=sess)
                ckpt.save(os.path.join(tmp, "ck"), session=sess)
        out = {}
        with tf.Graph().as_default():
            model = base()
            model.a = tf.get_variable("other_a", [2])
            model.b = tf.get_variable("other_b", [], tf.int32, use_resource=True)
            ckpt = tf.train.Checkpoint(model=model)
            status = ckpt.restore(path)
            out["status"] = type(status).__name__
            with tf.Session() as sess:
                status.assert_consumed().run_restore_ops(sess)
                out["values"] = sess.run([model.a, model.b, ckpt.save_counter])
                out["next"] = _scrub(ckpt.save(os.path.join(tmp, "again"), session=sess), tmp)
                out["latest"] = _scrub(tf.train.latest_checkpoint(tmp), tmp)
        return out


def case_checkpoint_statuses(tf):
    with _TmpDir() as tmp:
        v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1., 2.]))
        ck = tf.train.Checkpoint(v=v)
        out = {}
        with tf.Session() as sess:
            sess.run(v.initializer)
            path = ck.write(os.path.join(tmp, "w"), session=sess)
            status = ck.restore(None)
            out["none"] = [type(status).__name__,
                           _assertion(lambda: status.assert_consumed()),
                           _assertion(lambda: status.run_restore_ops(sess))]
            status.initialize_or_restore(sess)
            status = ck.restore(path)
            out["own"] = [_assertion(lambda: status.assert_consumed()),
                          _assertion(lambda: status.assert_existing_objects_matched()),
                          _assertion(lambda: status.assert_nontrivial_match())]
            ck2 = tf.train.Checkpoint(v=v, w=tf.Variable(3.0, name="w"))
            status = ck2.restore(path)
            out["extra_object"] = [_assertion(lambda: status.assert_consumed()),
                                   _assertion(lambda: status.assert_nontrivial_match()),
                                   type(status.expect_partial()).__name__]
            ck3 = tf.train.Checkpoint(other=tf.Variable(3.0, name="o"))
            status = ck3.restore(path)
            out["unrelated"] = [_assertion(lambda: status.assert_nontrivial_match()),
                                _assertion(lambda: status.assert_existing_objects_matched())]
            status = tf.train.Checkpoint().restore(path)
            out["empty_root"] = _assertion(lambda: status.assert_nontrivial_match())
        with tf.Graph().as_default():
            big = tf.get_variable("v", [3])
            status = tf.train.Checkpoint(v=big).restore(path)
            with tf.Session() as sess:
                sess.run(big.initializer)
                before = sess.run(big)
                out["shape_mismatch"] = catch(lambda: status.run_restore_ops(sess))
                out["unchanged"] = bool(np.array_equal(before, sess.run(big)))
        with tf.Graph().as_default():
            a = tf.get_variable("v", [2])
            b = tf.get_variable("fresh", [], initializer=tf.constant_initializer(4.))
            status = tf.train.Checkpoint(v=a, fresh=b).restore(path)
            with tf.Session() as sess:
                status.initialize_or_restore(sess)
                out["initialize_or_restore"] = sess.run([a, b])
        out["missing_file"] = catch(lambda: ck.restore("/nonexistent/ck"), message=True)
        return out


def case_restore_tf_object_graph_fixture(tf):
    Dense = _dense_class(tf)
    dense = Dense(2, "anything")
    ckpt = tf.train.Checkpoint(dense=dense)
    status = ckpt.restore(os.path.join(FIXTURES, "object_graph_v1", "ckpt-1"))
    y = dense(tf.ones([1, 1]))
    with tf.Session() as sess:
        status.run_restore_ops(sess)
        return {"kernel": sess.run(dense.kernel), "y": sess.run(y),
                "counter": sess.run(ckpt.save_counter),
                "consumed": _assertion(lambda: status.assert_consumed())}


def case_restore_tf2_keras_fixture(tf):
    """TF2 eager Keras + Adam checkpoint, restored into stand-in objects with its edges."""
    base = _auto_trackable(tf)

    def layer(prefix, kernel, bias):
        obj = base()
        obj.kernel = tf.get_variable(prefix + "_k", kernel)
        obj.bias = tf.get_variable(prefix + "_b", bias)
        return obj

    model = base()
    d1, d2 = layer("d1", [2, 3], [3]), layer("d2", [3, 1], [1])
    model._track_trackable(d1, "layer_with_weights-0")
    model._track_trackable(d2, "layer_with_weights-1")
    optimizer = base()
    optimizer._iterations = tf.get_variable("it", [], tf.int64)
    optimizer._learning_rate = tf.get_variable("lr", [])
    slots = [tf.get_variable(f"slot{i}", s) for i, s in
             enumerate([[2, 3], [2, 3], [3], [3], [3, 1], [3, 1], [1], [1]])]
    optimizer._variables = [optimizer._iterations] + slots
    extra = tf.get_variable("extra", [3])
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer, extra=extra)
    status = ckpt.restore(os.path.join(FIXTURES, "object_tf2", "ckpt-1"))
    with tf.Session() as sess:
        status.run_restore_ops(sess)
        return {"model": sess.run([d1.kernel, d1.bias, d2.kernel, d2.bias]),
                "optimizer": sess.run([optimizer._iterations, optimizer._learning_rate] +
                                      slots),
                "extra": sess.run(extra), "counter": sess.run(ckpt.save_counter),
                "existing": _assertion(lambda: status.assert_existing_objects_matched())}


def case_restore_before_variables_exist(tf):
    """Restore-on-create for nested objects created after restore()."""
    Dense = _dense_class(tf)
    base = _auto_trackable(tf)
    with _TmpDir() as tmp:
        with tf.Graph().as_default():
            model = base()
            model.first = Dense(2, "first")
            model.second = Dense(1, "second")
            y = model.second(model.first(tf.ones([1, 3])))
            ckpt = tf.train.Checkpoint(model=model)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run([model.first.kernel.assign(np.ones([3, 2]) * 0.5),
                          model.first.bias.assign([1., -1.]),
                          model.second.kernel.assign([[2.], [3.]]),
                          model.second.bias.assign([0.25])])
                want = sess.run(y)
                path = ckpt.save(os.path.join(tmp, "ck"), session=sess)
        with tf.Graph().as_default():
            model = base()
            ckpt = tf.train.Checkpoint(model=model)
            status = ckpt.restore(path)
            model.first = Dense(2, "a")
            model.second = Dense(1, "b")
            y = model.second(model.first(tf.ones([1, 3])))
            with tf.Session() as sess:
                status.run_restore_ops(sess)
                return {"want": want, "got": sess.run(y),
                        "consumed": _assertion(lambda: status.assert_consumed())}


# -- CheckpointManager -----------------------------------------------------------------------------

def case_checkpoint_manager(tf):
    with _TmpDir() as tmp:
        v = tf.get_variable("v", [], initializer=tf.constant_initializer(1.))
        ckpt = tf.train.Checkpoint(v=v)
        manager = tf.train.CheckpointManager(ckpt, tmp, max_to_keep=2)
        out = {"initial": [manager.latest_checkpoint, manager.checkpoints],
               "bad_max": catch(lambda: tf.train.CheckpointManager(ckpt, tmp, max_to_keep=0),
                                message=True)}
        with tf.Session() as sess:
            sess.run(v.initializer)
            saved = [manager.save() for _ in range(3)]
            saved.append(manager.save(checkpoint_number=100))
            step = tf.Variable(7, dtype=tf.int64, name="step")
            sess.run(step.initializer)
            saved.append(manager.save(checkpoint_number=step))
            out["saved"] = _scrub(saved, tmp)
            out["latest"] = _scrub(manager.latest_checkpoint, tmp)
            out["kept"] = _scrub(manager.checkpoints, tmp)
            out["files"] = _files(tmp)
            out["state"] = _state(tmp)
            out["counter"] = sess.run(ckpt.save_counter)
        named = tf.train.CheckpointManager(ckpt, tmp, max_to_keep=None,
                                           checkpoint_name="named")
        out["recovered_latest"] = _scrub(named.latest_checkpoint, tmp)
        out["recovered_kept"] = _scrub(named.checkpoints, tmp)
        with tf.Session() as sess:
            status = ckpt.restore(named.latest_checkpoint)
            status.run_restore_ops(sess)
            out["named_save"] = _scrub(named.save(), tmp)
        return out


# -- with TF1's optimizers (replayed once tf1compat has them) --------------------------------------

@requires("train.AdamOptimizer")
def case_adam_slots_round_trip(tf):
    """Slot variables of tf.train.AdamOptimizer: keys, and restoring before they exist."""
    def build(name):
        w = tf.get_variable(name, [2], initializer=tf.constant_initializer([1., -2.]))
        opt = tf.train.AdamOptimizer(0.1)
        train = opt.minimize(tf.reduce_sum(tf.square(w)))
        return w, opt, train

    with _TmpDir() as tmp:
        with tf.Graph().as_default():
            w, opt, train = build("w")
            ckpt = tf.train.Checkpoint(w=w, optimizer=opt)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                path = ckpt.save(os.path.join(tmp, "ck"), session=sess)
                sess.run(train)
                want = sess.run(w)
        out = {"keys": tf.train.list_variables(path)}
        with tf.Graph().as_default():
            w = tf.get_variable("other", [2])
            opt = tf.train.AdamOptimizer(0.1)
            ckpt = tf.train.Checkpoint(w=w, optimizer=opt)
            status = ckpt.restore(path)
            train = opt.minimize(tf.reduce_sum(tf.square(w)))
            with tf.Session() as sess:
                status.run_restore_ops(sess)
                out["consumed"] = _assertion(lambda: status.assert_consumed())
                sess.run(train)
                out["same_next_step"] = bool(np.allclose(sess.run(w), want, rtol=1e-6))
        return out
