"""Golden cases: TF's queues (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue,
PriorityQueue) driven from one thread: graphs (op types, names, static shapes), contents,
seeded shuffle orders, closing, and TF's errors. Queue names in run-time messages are
made deterministic with `shared_name` (TF numbers unnamed queues per process)."""

from tests.golden.harness import catch, describe


def _ops(tf):
    return [(op.name, op.type) for op in tf.get_default_graph().get_operations()]


def _timeout(tf, ms=20):
    return tf.RunOptions(timeout_in_ms=ms)


def case_fifo_graph(tf):
    q = tf.FIFOQueue(3, [tf.int32, tf.float32], shapes=[[], [2]])
    enq = q.enqueue([1, [1.0, 2.0]])
    enqm = q.enqueue_many([[1, 2], [[1.0, 2.0], [3.0, 4.0]]])
    d = q.dequeue()
    dm = q.dequeue_many(2)
    du = q.dequeue_up_to(2)
    c1, c2 = q.close(), q.close(cancel_pending_enqueues=True)
    attrs = q.queue_ref.op
    return {"ops": _ops(tf), "name": q.name, "ref": describe(q.queue_ref),
            "dtypes": [d.name for d in q.dtypes], "shapes": [str(s) for s in q.shapes],
            "names": q.names, "enq_inputs": [t.name for t in enq.inputs],
            "enqm": enqm.name, "d": [describe(t) for t in d], "dm": [describe(t) for t in dm],
            "du": [describe(t) for t in du], "close": [c1.name, c2.name],
            "cancel": c2.get_attr("cancel_pending_enqueues"),
            "size": describe(q.size()), "closed": describe(q.is_closed()),
            "capacity": attrs.get_attr("capacity"),
            "component_types": [t.name for t in attrs.get_attr("component_types")],
            "device": q.queue_ref.device}


def case_fifo_run(tf):
    q = tf.FIFOQueue(10, [tf.int32, tf.string], shapes=[[], []], shared_name="fifo")
    enq = q.enqueue([7, "seven"])
    enqm = q.enqueue_many([[1, 2, 3], ["a", "b", "c"]])
    with tf.Session() as sess:
        sess.run(enq)
        sess.run(enqm)
        size = sess.run(q.size())
        one = sess.run(q.dequeue())
        many = sess.run(q.dequeue_many(2))
        closed_before = sess.run(q.is_closed())
        sess.run(q.close())
        return {"size": size, "one": one, "many": many, "closed": [closed_before,
                                                                  sess.run(q.is_closed())],
                "enqueue_closed": catch(lambda: sess.run(enq), message=True),
                "many_short": catch(lambda: sess.run(q.dequeue_many(2)), message=True),
                "up_to": sess.run(q.dequeue_up_to(5)),
                "empty": catch(lambda: sess.run(q.dequeue()), message=True),
                "up_to_empty": catch(lambda: sess.run(q.dequeue_up_to(3)), message=True),
                "close_again": catch(lambda: sess.run(q.close()), message=True),
                "cancel_again": catch(lambda: sess.run(q.close(True)))}


def case_fifo_blocking_deadline(tf):
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]], shared_name="deadline")
    with tf.Session() as sess:
        empty = catch(lambda: sess.run(q.dequeue(), options=_timeout(tf)), message=True)
        sess.run(q.enqueue_many([[1.0, 2.0]]))
        full = catch(lambda: sess.run(q.enqueue(3.0), options=_timeout(tf)), message=True)
        config_timeout = tf.ConfigProto(operation_timeout_in_ms=20)
    with tf.Session(config=config_timeout) as sess2:
        by_config = catch(lambda: sess2.run(q.dequeue()))
    return {"empty": empty, "full": full, "config": by_config}


def case_fifo_dequeue_many_waits_for_elements(tf):
    """A dequeue_many larger than the capacity completes: it takes elements as they come."""
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]], shared_name="small")
    p = tf.placeholder(tf.int32, [None])
    enq = q.enqueue_many(p)
    dm = q.dequeue_many(4)
    import threading
    with tf.Session() as sess:
        result = {}

        def consume():
            result["value"] = sess.run(dm)
        t = threading.Thread(target=consume)
        t.start()
        sess.run(enq, {p: [1, 2, 3, 4]})
        t.join()
        return {"value": result["value"], "size": sess.run(q.size())}


def case_fifo_unshaped(tf):
    q = tf.FIFOQueue(5, tf.int32, shared_name="unshaped")
    p = tf.placeholder(tf.int32)
    with tf.Session() as sess:
        sess.run(q.enqueue(p), {p: [1, 2]})
        sess.run(q.enqueue(p), {p: 3})
        return {"d": describe(q.dequeue()), "first": sess.run(q.dequeue()),
                "second": sess.run(q.dequeue()),
                "many": catch(lambda: sess.run(q.dequeue_many(1)), message=True),
                "up_to": catch(lambda: sess.run(q.dequeue_up_to(1)), message=True)}


def case_fifo_shape_errors(tf):
    q = tf.FIFOQueue(3, tf.int32, shapes=[[2]], shared_name="shapes")
    p = tf.placeholder(tf.int32)
    out = {"static": catch(lambda: q.enqueue([1, 2, 3])),
           "static_many": catch(lambda: q.enqueue_many([[1, 2, 3]])),
           "rank0_many": catch(lambda: q.enqueue_many(5)),
           "dtype": catch(lambda: q.enqueue(["a", "b"])),
           "count": catch(lambda: q.enqueue([[1, 2], [3, 4]]))}
    with tf.Session() as sess:
        out["run"] = catch(lambda: sess.run(q.enqueue(p), {p: [1, 2, 3]}), message=True)
        out["run_many"] = catch(lambda: sess.run(q.enqueue_many(p), {p: [[1, 2, 3]]}),
                                message=True)
        out["negative"] = catch(lambda: sess.run(q.dequeue_many(-1)), message=True)
        out["zero"] = sess.run(q.dequeue_many(0))
        out["size"] = sess.run(q.size())
    return out


def case_fifo_names(tf):
    q = tf.FIFOQueue(4, [tf.int32, tf.float32], shapes=[[], []], names=["a", "b"])
    enq = q.enqueue({"a": 1, "b": 2.0})
    d = q.dequeue()
    dm = q.dequeue_many(1)
    errors = {"list": catch(lambda: q.enqueue([1, 2.0])),
              "keys": catch(lambda: q.enqueue({"a": 1, "c": 2.0})),
              "nameless": catch(lambda: tf.FIFOQueue(2, tf.int32).enqueue({"a": 1})),
              "bad_names": catch(lambda: tf.FIFOQueue(2, [tf.int32], names=["a", "b"]))}
    with tf.Session() as sess:
        sess.run(enq)
        sess.run(enq)
        return {"d": sorted(d), "one": sess.run(d), "many": sess.run(dm), "errors": errors,
                "keys": sorted(dm)}


def case_fifo_constructor_errors(tf):
    return {"partial": catch(lambda: tf.FIFOQueue(2, tf.int32, shapes=[[None]])),
            "shapes_len": catch(lambda: tf.FIFOQueue(2, [tf.int32, tf.int32], shapes=[[1]])),
            "shape_type": catch(lambda: tf.FIFOQueue(2, tf.int32, shapes=5)),
            "padding_none": catch(lambda: tf.PaddingFIFOQueue(2, tf.int32, shapes=None)),
            "padding_scalar": catch(lambda: tf.PaddingFIFOQueue(2, tf.int32, shapes=[None])),
            "shuffle_shapes": catch(lambda: tf.RandomShuffleQueue(5, 1, tf.int32,
                                                                   shapes=[[None]]))}


def case_padding_fifo(tf):
    q = tf.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], []],
                            shared_name="padding")
    p = tf.placeholder(tf.int32, [None])
    s = tf.placeholder(tf.string, [])
    enq = q.enqueue([p, s])
    dm = q.dequeue_many(2)
    du = q.dequeue_up_to(3)
    with tf.Session() as sess:
        for value, text in (([1], "a"), ([1, 2, 3], "bb"), ([4, 5], "c"), ([], "d")):
            sess.run(enq, {p: value, s: text})
        first = sess.run(dm)
        sess.run(q.close())
        rest = sess.run(du)
        return {"ops": [op.type for op in tf.get_default_graph().get_operations()],
                "dm": [describe(t) for t in dm], "du": [describe(t) for t in du],
                "one": describe(q.dequeue()[0]), "first": first, "rest": rest,
                "zero": sess.run(q.dequeue_many(0))}


def case_padding_fifo_2d_strings(tf):
    q = tf.PaddingFIFOQueue(5, [tf.string], shapes=[[None, 2]], shared_name="pad2d")
    p = tf.placeholder(tf.string, [None, 2])
    with tf.Session() as sess:
        sess.run(q.enqueue([p]), {p: [["a", "b"]]})
        sess.run(q.enqueue([p]), {p: [["c", "d"], ["e", "f"], ["g", "h"]]})
        return {"batch": sess.run(q.dequeue_many(2)),
                "mismatch": catch(lambda: sess.run(q.enqueue([p]), {p: [["a", "b", "c"]]}))}


def case_priority_queue(tf):
    q = tf.PriorityQueue(6, [tf.string, tf.float32], shapes=[[], [2]], shared_name="prio")
    enq = q.enqueue_many([[30, 10, 20], ["c", "a", "b"], [[3, 3], [1, 1], [2, 2]]])
    one = q.enqueue([5, "e", [5.0, 5.0]])
    with tf.Session() as sess:
        sess.run(enq)
        sess.run(one)
        first = sess.run(q.dequeue())
        many = sess.run(q.dequeue_many(2))
        sess.run(q.close())
        # (TF's PriorityQueue raises OutOfRangeError for a dequeue_up_to larger than what
        # is left in a closed queue, and drops what was left: not recorded.)
        return {"dtypes": [d.name for d in q.dtypes], "shapes": [str(s) for s in q.shapes],
                "op": q.queue_ref.op.type, "first": first, "many": many,
                "up_to": sess.run(q.dequeue_up_to(1)),
                "empty": catch(lambda: sess.run(q.dequeue()), message=True),
                "static_priority": catch(lambda: q.enqueue([[1], "x", [1.0, 1.0]]))}


def case_priority_queue_priority_not_scalar(tf):
    q = tf.PriorityQueue(3, [tf.int32], shapes=[[]], shared_name="prio_scalar")
    p = tf.placeholder(tf.int64)
    with tf.Session() as sess:
        return catch(lambda: sess.run(q.enqueue([p, 1]), {p: [1, 2]}))


def case_random_shuffle_seeded(tf):
    tf.set_random_seed(7)
    q = tf.RandomShuffleQueue(20, 5, tf.int32, shapes=[[]], seed=3, shared_name="rsq")
    attrs = q.queue_ref.op
    with tf.Session() as sess:
        sess.run(q.enqueue_many([list(range(10))]))
        first = sess.run(q.dequeue_many(5))
        blocked = catch(lambda: sess.run(q.dequeue(), options=_timeout(tf)))
        sess.run(q.close())
        return {"seeds": [attrs.get_attr("seed"), attrs.get_attr("seed2")],
                "min": attrs.get_attr("min_after_dequeue"), "first": first,
                "blocked": blocked, "three": sess.run(q.dequeue_many(3)),
                "up_to": sess.run(q.dequeue_up_to(3)),
                "end": catch(lambda: sess.run(q.dequeue_many(3)), message=True),
                "enqueue_closed": catch(lambda: sess.run(q.enqueue(1)), message=True)}


def case_random_shuffle_seeds(tf):
    op_only = tf.RandomShuffleQueue(10, 0, tf.int32, seed=11).queue_ref.op
    tf.set_random_seed(5)
    graph_only = tf.RandomShuffleQueue(10, 0, tf.int32).queue_ref.op
    shared = tf.RandomShuffleQueue(10, 0, tf.int32, shared_name="shq").queue_ref.op
    return [[op.get_attr("seed"), op.get_attr("seed2")] for op in
            (op_only, graph_only, shared)]


def case_random_shuffle_order_one_by_one(tf):
    q = tf.RandomShuffleQueue(50, 0, [tf.int32, tf.string], shapes=[[], []], seed=42,
                              shared_name="rsq_order")
    with tf.Session() as sess:
        sess.run(q.enqueue_many([list(range(20)), [str(i) for i in range(20)]]))
        out = [sess.run(q.dequeue()) for _ in range(8)]
        sess.run(q.enqueue_many([list(range(100, 105)), ["x"] * 5]))
        sess.run(q.close())
        rest = sess.run(q.dequeue_up_to(50))
        return {"out": out, "rest": rest}


def case_random_shuffle_closed_insufficient(tf):
    q = tf.RandomShuffleQueue(10, 3, tf.int32, shapes=[[]], seed=1, shared_name="rsq_short")
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2]]))
        sess.run(q.close())
        return {"many": catch(lambda: sess.run(q.dequeue_many(5)), message=True),
                "size": sess.run(q.size()),
                "up_to": sorted(sess.run(q.dequeue_up_to(5)).tolist())}


def case_queue_from_list(tf):
    q1 = tf.FIFOQueue(5, tf.int32, shapes=[[2]])
    q2 = tf.FIFOQueue(5, tf.int32, shapes=[[3]])
    index = tf.placeholder(tf.int32, [])
    q = tf.QueueBase.from_list(index, [q1, q2])
    d = q.dequeue()
    with tf.Session() as sess:
        sess.run(q1.enqueue([[1, 2]]))
        sess.run(q2.enqueue([[3, 4, 5]]))
        return {"shapes": [str(s) for s in q.shapes], "ref": describe(q.queue_ref),
                "ref_op": q.queue_ref.op.type, "d": describe(d),
                "first": sess.run(d, {index: 1}), "second": sess.run(d, {index: 0}),
                "types": catch(lambda: tf.QueueBase.from_list(
                    0, [q1, tf.FIFOQueue(2, tf.float32)])),
                "not_list": catch(lambda: tf.QueueBase.from_list(0, q1))}


def case_queue_namespaces(tf):
    a = tf.queue.FIFOQueue(2, tf.int32)
    b = tf.io.RandomShuffleQueue(4, 1, tf.float32)
    c = tf.queue.PaddingFIFOQueue(2, tf.int64, shapes=[[None]])
    d = tf.io.PriorityQueue(2, [tf.int32], shapes=[[]])
    return [(type(q).__name__, q.name, q.queue_ref.op.type,
             isinstance(q, tf.queue.QueueBase)) for q in (a, b, c, d)]


def case_queue_in_name_scope_and_control_deps(tf):
    x = tf.constant(1)
    with tf.name_scope("inputs"), tf.control_dependencies([x]):
        q = tf.FIFOQueue(2, tf.int32, name="my_queue")
        r = tf.RandomShuffleQueue(4, 0, tf.int32)
        enq = q.enqueue(3)
    return {"q": q.name, "q_ctrl": [c.name for c in q.queue_ref.op.control_inputs],
            "r": r.name, "r_ctrl": [c.name for c in r.queue_ref.op.control_inputs],
            "enq": enq.name, "enq_ctrl": [c.name for c in enq.control_inputs],
            "internal": q._name}


def case_queue_cancel_pending_enqueues(tf):
    """An enqueue blocked on a full queue, or one arriving after the close: both fail
    with CancelledError."""
    import threading
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]], shared_name="cancel")
    enqueue = q.enqueue(2)
    with tf.Session() as sess:
        sess.run(q.enqueue(1))
        outcome = {}

        def blocked():
            outcome["enqueue"] = catch(lambda: sess.run(enqueue))
        t = threading.Thread(target=blocked)
        t.start()
        sess.run(q.close(cancel_pending_enqueues=True))
        t.join()
        return {"enqueue": outcome["enqueue"], "left": sess.run(q.dequeue_up_to(5)),
                "closed": sess.run(q.is_closed())}
