"""Golden cases: TF 1.15's `tf.contrib.checkpoint` (branch contrib4). TF 2.x has no
contrib: the oracle is `scripts/oracle_contrib.py`'s `tf115_checkpoint` (the core names
TF 1.15 aliases, from TF 2.21; UniqueNameTracker and dot_graph_from_checkpoint from TF
1.15's sources). Graph mode: tf.train.Checkpoint saved and restored with a session."""

import os
import tempfile

import numpy as np

from tests.golden.harness import requires


def _cc(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.checkpoint
    import oracle_contrib
    return oracle_contrib.tf115_checkpoint(tf)


def _save(tf, sess, **objects):
    prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    return tf.train.Checkpoint(**objects).save(prefix, session=sess)


def _keys(tf, path):
    return sorted(name for name, _ in tf.train.list_variables(path))


@requires("contrib.checkpoint.List")
def case_list_and_mapping_round_trip(tf):
    """List / Mapping elements are dependencies "0", "1", ... / their keys; restored
    into new containers, including an element appended after the restore."""
    c = _cc(tf)

    def build(values):
        root = c.Checkpointable()
        root.l = c.List([tf.Variable(values[0], name="a")])
        root.m = c.Mapping(x=tf.Variable(values[1], name="b"))
        return root
    with tf.Session() as sess:
        root = build([[1.0, 2.0], 3.0])
        root.l.append(tf.Variable(4.0, name="c"))
        root.m["y"] = c.List([tf.Variable(5.0, name="d")])
        sess.run(tf.global_variables_initializer())
        path = _save(tf, sess, root=root)
    out = {"keys": _keys(tf, path), "len": [len(root.l), len(root.m)],
           "mapping_keys": sorted(root.m)}
    with tf.Graph().as_default(), tf.Session() as sess:
        new = build([[0.0, 0.0], 0.0])
        status = tf.train.Checkpoint(root=new).restore(path)
        new.l.append(tf.Variable(0.0, name="c"))
        new.m["y"] = c.List([tf.Variable(0.0, name="d")])
        status.run_restore_ops(sess)
        out["restored"] = sess.run([new.l[0], new.l[1], new.m["x"], new.m["y"][0]])
    return out


@requires("contrib.checkpoint.List")
def case_list_behaviour(tf):
    c = _cc(tf)
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(2.0, name="w")
    lst = c.List([v])
    lst += [w]
    out = {"len": len(lst), "same": [lst[0] is v, lst[1] is w],
           "add": [type(lst + [3]).__name__, len(lst + [3]), len([3] + lst)],
           "mul": len(lst * 2), "is_list": isinstance(lst, list),
           "equal_other": lst == c.List([v, w]), "equal_self": lst == lst,
           "slice": len(lst[0:1]), "index": lst.index(w), "count": lst.count(v),
           "hashable": len({lst: 1})}
    lst *= 2
    out["imul"] = len(lst)
    return out


@requires("contrib.checkpoint.List")
def case_error_list_untrackable(tf):
    _cc(tf).List([1.0])


@requires("contrib.checkpoint.List")
def case_error_list_imul_zero(tf):
    lst = _cc(tf).List([tf.Variable(1.0)])
    lst *= 0


@requires("contrib.checkpoint.Mapping")
def case_error_mapping_overwrite(tf):
    c = _cc(tf)
    m = c.Mapping(a=tf.Variable(1.0))
    m["a"] = tf.Variable(2.0)


@requires("contrib.checkpoint.Mapping")
def case_error_mapping_key(tf):
    c = _cc(tf)
    c.Mapping()[1] = tf.Variable(1.0)


@requires("contrib.checkpoint.Mapping")
def case_mapping_behaviour(tf):
    c = _cc(tf)
    v = tf.Variable(1.0, name="v")
    m = c.Mapping(b=v)
    m.update(a=tf.Variable(2.0, name="w"))
    m["b"] = v            # the same value again: allowed
    return {"keys": list(m), "len": len(m), "get": m.get("z") is None, "in": "a" in m,
            "items": [k for k, _ in m.items()], "is_dict": isinstance(m, dict),
            "equal_self": m == m}


@requires("contrib.checkpoint.UniqueNameTracker")
def case_unique_name_tracker(tf):
    c = _cc(tf)
    with tf.Session() as sess:
        tracker = c.UniqueNameTracker()
        for i in range(3):
            tracker.track(tf.Variable(float(i), name=f"x{i}"), "x")
        tracker.track(tf.Variable(9.0, name="y"), "x_1_1")
        tracker.track(tf.Variable(7.0, name="z"), "x_1")
        sess.run(tf.global_variables_initializer())
        path = _save(tf, sess, tracker=tracker)
    return {"keys": _keys(tf, path)}


@requires("contrib.checkpoint.UniqueNameTracker")
def case_error_unique_name_tracker(tf):
    _cc(tf).UniqueNameTracker().track(3, "x")


def _with_optimizer(tf):
    """A saved checkpoint of a model whose variable has Adam slots."""
    c = _cc(tf)
    root = c.Checkpointable()
    root.v = tf.Variable([1.0, 2.0], name="v")
    root.skipped = c.NoDependency(tf.Variable(5.0, name="skipped"))
    opt = tf.train.AdamOptimizer(0.1)
    step = opt.minimize(tf.reduce_sum(root.v * root.v), var_list=[root.v])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        return root, opt, _save(tf, sess, model=root, opt=opt)


@requires("contrib.checkpoint.object_metadata")
def case_object_metadata(tf):
    c = _cc(tf)
    _, _, path = _with_optimizer(tf)
    graph = c.object_metadata(path)
    return {"type": type(graph).__name__, "keys": _keys(tf, path),
            "nodes": [{"children": [(r.node_id, r.local_name) for r in n.children],
                       "attributes": [(a.name, a.full_name, a.checkpoint_key)
                                      for a in n.attributes],
                       "slots": [(s.original_variable_node_id, s.slot_name,
                                  s.slot_variable_node_id) for s in n.slot_variables]}
                      for n in graph.nodes]}


@requires("contrib.checkpoint.dot_graph_from_checkpoint")
def case_dot_graph(tf):
    _, _, path = _with_optimizer(tf)
    return _cc(tf).dot_graph_from_checkpoint(path)


@requires("contrib.checkpoint.list_objects")
def case_list_objects(tf):
    c = _cc(tf)
    root, opt, _ = _with_optimizer(tf)
    objects = c.list_objects(tf.train.Checkpoint(model=root, opt=opt))
    return {"count": len(objects),
            "variables": sorted(o.name for o in objects if isinstance(o, tf.Variable)),
            "has_root_model": any(o is root for o in objects),
            "has_optimizer": any(o is opt for o in objects)}


@requires("contrib.checkpoint.object_metadata")
def case_error_object_metadata_of_saver_checkpoint(tf):
    tf.Variable(1.0, name="v")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, os.path.join(tempfile.mkdtemp(), "model"))
    _cc(tf).object_metadata(path)


@requires("contrib.checkpoint.CheckpointableObjectGraph")
def case_object_graph_proto(tf):
    c = _cc(tf)
    graph = c.CheckpointableObjectGraph()
    node = graph.nodes.add()
    child = node.children.add()
    child.node_id, child.local_name = 1, "kernel"
    parsed = c.CheckpointableObjectGraph.FromString(graph.SerializeToString())
    return {"name": c.CheckpointableObjectGraph.DESCRIPTOR.full_name,
            "child": [parsed.nodes[0].children[0].node_id,
                      parsed.nodes[0].children[0].local_name]}


@requires("contrib.checkpoint.CheckpointManager")
def case_checkpoint_manager(tf):
    c = _cc(tf)
    directory = tempfile.mkdtemp()
    v = tf.Variable(1.0, name="v")
    ckpt = tf.train.Checkpoint(v=v)
    manager = c.CheckpointManager(ckpt, directory, max_to_keep=2)
    with tf.Session() as sess, sess.as_default():
        sess.run(tf.global_variables_initializer())
        paths = [manager.save() for _ in range(3)]
    return {"saved": [os.path.basename(p) for p in paths],
            "kept": [os.path.basename(p) for p in manager.checkpoints],
            "latest": os.path.basename(manager.latest_checkpoint)}


@requires("contrib.checkpoint.CheckpointableBase")
def case_checkpointable_base(tf):
    """A CheckpointableBase subclass declares dependencies with _track_trackable;
    Checkpointable tracks attributes (NoDependency values untracked)."""
    c = _cc(tf)

    class Holder(c.CheckpointableBase):
        def __init__(self, v):
            self._track_trackable(v, name="weights")
    with tf.Session() as sess:
        auto = c.Checkpointable()
        auto.h = Holder(tf.Variable(np.float32(3.0), name="w"))
        auto.n = c.NoDependency(tf.Variable(1.0, name="n"))
        auto.plain = 3
        sess.run(tf.global_variables_initializer())
        path = _save(tf, sess, auto=auto)
    return {"keys": _keys(tf, path), "plain": auto.plain,
            "n_is_variable": isinstance(auto.n, tf.Variable)}
