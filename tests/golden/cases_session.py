"""Golden cases: Session.run fetch structures, feeds, results, errors, eval/run helpers."""

import collections

import numpy as np

from tests.golden.harness import catch

Pair = collections.namedtuple("Pair", ["a", "b"])


def case_fetch_structures(tf):
    a = tf.constant(1.5, name="a")
    b = tf.constant([1, 2], name="b")
    op = tf.no_op()
    with tf.Session() as sess:
        out = {
            "single": sess.run(a), "list": sess.run([a, b]), "tuple": sess.run((a, b)),
            "dict": sess.run({"x": a, "y": [b, a]}), "nested": sess.run([a, (b, {"k": a})]),
            "op": sess.run(op), "op_in_list": sess.run([op, a]), "by_name": sess.run("a:0"),
            "op_by_name": sess.run("a"), "dup": sess.run([a, a, b]),
            "namedtuple": tuple(sess.run(Pair(a, b))), "nt_type": type(sess.run(Pair(a, b))).__name__,
            "ordered": list(sess.run(collections.OrderedDict([("z", a), ("a", b)])).keys()),
            "empty_list": sess.run([]), "empty_dict": sess.run({}),
        }
        out["none"] = catch(lambda: sess.run(None))
        out["int"] = catch(lambda: sess.run(3))
        out["missing_name"] = catch(lambda: sess.run("nope:0"))
        out["type_list"] = type(sess.run([a])).__name__
        out["type_tuple"] = type(sess.run((a,))).__name__
    return out


def case_result_types(tf):
    with tf.Session() as sess:
        vals = sess.run([tf.constant(1.5), tf.constant(2), tf.constant(True), tf.constant("hi"),
                         tf.constant(["a", "bc"]), tf.constant(2.0, tf.float64),
                         tf.constant([1.0]), tf.constant(np.int64(7)), tf.constant(1, tf.uint8),
                         tf.constant([[1.0, 2.0]], tf.float16)])
    return {"values": vals, "types": [type(v).__name__ for v in vals]}


def case_feeds(tf):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = x * 2
    i = tf.placeholder(tf.int32, name="i")
    c = tf.constant([1.0, 2.0])
    d = c + 1
    s = tf.placeholder(tf.string, [])
    with tf.Session() as sess:
        out = {
            "list_feed": sess.run(y, {x: [[1, 2]]}),
            "np_feed": sess.run(y, feed_dict={x: np.ones((3, 2), np.float64)}),
            "by_name": sess.run(y, {"x:0": [[3, 4]]}),
            "feed_nonplaceholder": sess.run(d, {c: [10.0, 20.0]}),
            "feed_intermediate": sess.run(y * 3, {y: [[1.0, 1.0]]}),
            "scalar_int": sess.run(i + 1, {i: 41}),
            "string": sess.run(s, {s: "text"}),
            "bool_to_int": sess.run(i, {i: True}),
            "float_to_int": sess.run(i, {i: 2.7}),
        }
        out["shape_mismatch"] = catch(lambda: sess.run(y, {x: [1, 2]}), message=True)
        out["shape_mismatch2"] = catch(lambda: sess.run(y, {x: np.ones((2, 3))}), message=True)
        out["tensor_value"] = catch(lambda: sess.run(y, {x: tf.constant([[1.0, 2.0]])}))
        out["unfed"] = catch(lambda: sess.run(y))
        out["bad_key"] = catch(lambda: sess.run(y, {"nope:0": 1}))
        out["bad_key_op"] = catch(lambda: sess.run(y, {"x": 1}))
        out["int_overflow"] = catch(lambda: sess.run(tf.placeholder(tf.int8), {
            tf.get_default_graph().get_tensor_by_name("Placeholder:0") if False else i: 2**40}))
        out["wrong_type"] = catch(lambda: sess.run(i, {i: "abc"}))
    return out


def case_unfed_message(tf):
    x = tf.placeholder(tf.float32, [None, 3], name="inputs")
    y = tf.placeholder(tf.int64, name="labels")
    with tf.Session() as sess:
        try:
            sess.run(x * 2)
        except tf.errors.InvalidArgumentError as e:
            msg1 = [line for line in e.message.split("\n") if "must feed" in line]
            op1 = e.op.name
        try:
            sess.run(y)
        except tf.errors.InvalidArgumentError as e:
            msg2 = [line for line in e.message.split("\n") if "must feed" in line]
    return {"msg": msg1, "op": op1, "msg2": msg2}


def case_results_do_not_alias(tf):
    c = tf.constant([1.0, 2.0])
    x = tf.placeholder(tf.float32, [2])
    feed = np.array([5.0, 6.0], np.float32)
    with tf.Session() as sess:
        r1 = sess.run(c)
        r1[0] = 100.0
        r2 = sess.run(c)
        fx = sess.run(x, {x: feed})
        fx[0] = -1.0
        r3 = sess.run(tf.identity(x), {x: feed})
    return {"r2": r2, "feed_after": feed, "r3": r3}


def case_session_lifecycle(tf):
    a = tf.constant(1)
    sess = tf.Session()
    first = sess.run(a)
    sess.close()
    out = {"first": first, "closed": catch(lambda: sess.run(a), message=True),
           "empty_graph": catch(lambda: tf.Session(graph=tf.Graph()).run([]), message=True),
           "bad_graph": catch(lambda: tf.Session(graph=3))}
    with tf.Session() as s2:
        out["default"] = tf.get_default_session() is s2
        out["eval"] = (a + 1).eval()
        out["op_run"] = tf.no_op().run()
    out["default_after"] = tf.get_default_session() is None
    out["eval_nodefault"] = catch(lambda: a.eval())
    return out


def case_interactive_and_as_default(tf):
    a = tf.constant([1, 2])
    sess = tf.InteractiveSession()
    v = (a * 2).eval()
    same = tf.get_default_session() is sess
    sess.close()
    s = tf.Session()
    with s.as_default():
        w = a.eval()
        inner = tf.get_default_session() is s
    s.close()
    return {"v": v, "same": same, "w": w, "inner": inner,
            "after": tf.get_default_session() is None}


def case_make_callable(tf):
    x = tf.placeholder(tf.float32, [None])
    y = tf.placeholder(tf.float32, [None])
    z = x * y + 1.0
    with tf.Session() as sess:
        f = sess.make_callable([z, x], feed_list=[y, x])
        g = sess.make_callable(z, [x, y])
        return {"f": f([2.0, 3.0], [10.0, 20.0]), "g": g([1.0], [5.0])}


def case_two_graphs_sessions(tf):
    g1 = tf.Graph()
    with g1.as_default():
        a = tf.constant(1, name="a")
    g2 = tf.Graph()
    with g2.as_default():
        b = tf.constant(2, name="a")
    s1 = tf.Session(graph=g1)
    s2 = tf.Session(graph=g2)
    out = {"a": s1.run(a), "b": s2.run(b), "cross": catch(lambda: s1.run(b)),
           "names": [a.name, b.name]}
    s1.close()
    s2.close()
    return out


def case_config(tf):
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    config.gpu_options.allow_growth = True
    config.gpu_options.per_process_gpu_memory_fraction = 0.5
    config2 = tf.ConfigProto(device_count={"GPU": 0}, intra_op_parallelism_threads=1,
                             inter_op_parallelism_threads=1,
                             gpu_options=tf.GPUOptions(allow_growth=True))
    with tf.device("/gpu:0"):
        a = tf.constant([1.0, 2.0]) * 3
    out = {}
    with tf.Session(config=config) as sess:
        opts = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
        meta = tf.RunMetadata()
        out["soft"] = sess.run(a, options=opts, run_metadata=meta)
    # (TF places the whole graph, so the GPU op above would fail under config2 on a
    # CPU-only machine; tf1compat soft-places it instead: see docs/ARCHITECTURE.md)
    with tf.Graph().as_default():
        b = tf.constant([1.0, 2.0]) * 4
        with tf.Session(config=config2) as sess:
            out["cpu"] = sess.run(b)
    out["bad_field"] = catch(lambda: tf.ConfigProto(no_such_field=1))
    out["allow_growth"] = config.gpu_options.allow_growth
    return out


def case_fetch_intermediate_and_order(tf):
    a = tf.constant(2.0)
    b = a * 3
    c = b + 1
    with tf.Session() as sess:
        return {"both": sess.run([c, b]), "b_fed": sess.run([c, b], {b: 10.0}),
                "a_fed": sess.run(c, {a: 0.0})}


def case_error_during_run(tf):
    x = tf.placeholder(tf.int32, [None])
    g = tf.gather(tf.constant([1, 2, 3]), x, name="my_gather")
    with tf.Session() as sess:
        try:
            sess.run(g, {x: [0, 7]})
            return "no error"
        except tf.errors.OpError as e:
            return {"class": type(e).__name__, "op": e.op.name, "code": e.error_code,
                    "is_op_error": isinstance(e, tf.errors.OpError),
                    "node_line": [line for line in e.message.split("\n") if "{{node" in line]}


def case_reads_run_before_unordered_updates(tf):
    """A fetch nothing orders after a train op's update reads the value from before it (TF's
    executor runs each op once its inputs are ready; the update waits for its gradient)."""
    out = {}
    for resource in (True, False):
        with tf.Graph().as_default():
            w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]),
                                use_resource=resource)
            loss = tf.reduce_sum(w * w)
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                fetched = {"sum": sess.run([w + 0.0, train])[0],
                           "loss": sess.run([loss, train])[0],
                           "after": sess.run(w)}
                if resource:       # a ref variable's read aliases the updated buffer in TF
                    fetched["read_value"] = sess.run([w.read_value(), train])[0]
                    fetched["identity"] = sess.run([tf.identity(w), train])[0]
                out["resource" if resource else "ref"] = fetched
    return out
