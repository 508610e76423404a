"""Golden cases: queue-based input pipelines — input producers (num_epochs, shuffle, seeds),
batching (batch, shuffle_batch, *_join, maybe_*, dynamic_pad, allow_smaller_final_batch,
enqueue_many, SparseTensors), QueueRunner / start_queue_runners / Coordinator, and
MonitoredSession / Supervisor running queue runners. Outputs that depend on thread timing
are recorded sorted; single-thread pipelines are recorded in order."""

import numpy as np

from tests.golden.harness import catch, describe


def _ops(tf):
    return [(op.name, op.type) for op in tf.get_default_graph().get_operations()]


def _drain(tf, sess, fetch, limit=100):
    """Runs `fetch` until OutOfRangeError: the values and the end's error class."""
    values = []
    for _ in range(limit):
        try:
            values.append(sess.run(fetch))
        except tf.errors.OutOfRangeError as e:
            return values, type(e).__name__
    return values, None


def _run_pipeline(tf, fetch, limit=100):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        values, end = _drain(tf, sess, fetch, limit)
        coord.request_stop()
        coord.join(threads)
        return values, end, len(threads)


def _sorted_rows(batches):
    rows = [r.tolist() if isinstance(r, np.ndarray) else r for b in batches for r in b]
    return sorted(rows)


# -- producers -------------------------------------------------------------------------------

def case_string_input_producer_graph(tf):
    q = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False)
    runners = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
    qr = runners[0]
    return {"ops": _ops(tf), "name": q.name, "shapes": [str(s) for s in q.shapes],
            "local": [v.name for v in tf.local_variables()],
            "summaries": [s.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "runner": [qr.name, [op.name for op in qr.enqueue_ops], qr.close_op.name,
                       qr.cancel_op.name,
                       [c.__name__ for c in qr.queue_closed_exception_types]],
            "dequeue": describe(q.dequeue())}


def case_string_input_producer_epochs(tf):
    q = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False,
                                       capacity=4)
    values, end, threads = _run_pipeline(tf, q.dequeue())
    return {"values": values, "end": end, "threads": threads}


def case_string_input_producer_shuffled_seed(tf):
    tf.set_random_seed(1)
    q = tf.train.string_input_producer([f"f{i}" for i in range(6)], num_epochs=3, seed=9)
    values, end, _ = _run_pipeline(tf, q.dequeue())
    return {"values": values, "end": end}


def case_string_input_producer_errors(tf):
    out = {"empty_list": catch(lambda: tf.train.string_input_producer([])),
           "zero_epochs": catch(lambda: tf.train.string_input_producer(["a"], num_epochs=0))}
    p = tf.placeholder(tf.string, [None])
    q = tf.train.string_input_producer(p, num_epochs=1, shuffle=False)
    qr = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        # (Only the failure: whether TF's epoch counter moved too depends on op order.)
        out["empty_feed"] = catch(lambda: sess.run(qr.enqueue_ops[0], {p: []}))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(qr.enqueue_ops[0], {p: ["x", "y"]})
        out["again"] = catch(lambda: sess.run(qr.enqueue_ops[0], {p: ["z"]}))
        out["size"] = sess.run(q.size())
    return out


def case_range_input_producer(tf):
    q = tf.train.range_input_producer(5, num_epochs=2, shuffle=False)
    values, end, _ = _run_pipeline(tf, q.dequeue())
    return {"values": values, "end": end, "name": q.name, "ops": _ops(tf)}


def case_range_input_producer_shuffled(tf):
    q = tf.train.range_input_producer(7, num_epochs=2, seed=4)
    values, end, _ = _run_pipeline(tf, q.dequeue())
    return {"values": values, "end": end}


def case_slice_input_producer(tf):
    images = tf.constant([[1, 1], [2, 2], [3, 3]])
    labels = tf.constant(["one", "two", "three"])
    image, label = tf.train.slice_input_producer([images, labels], num_epochs=2,
                                                 shuffle=False)
    values, end, threads = _run_pipeline(tf, [image, label])
    return {"values": values, "end": end, "image": describe(image), "label": describe(label),
            "threads": threads, "ops": _ops(tf)}


def case_slice_input_producer_shuffled(tf):
    tf.set_random_seed(3)
    xs = tf.constant(np.arange(10, dtype=np.float32))
    x, = tf.train.slice_input_producer([xs], num_epochs=2)
    values, end, _ = _run_pipeline(tf, x)
    return {"values": values, "end": end}


def case_input_producer_element_shape(tf):
    q = tf.train.input_producer(tf.constant([[1, 2], [3, 4], [5, 6]]), num_epochs=1,
                                shuffle=False)
    p = tf.placeholder(tf.int32)
    values, end, _ = _run_pipeline(tf, q.dequeue())
    return {"values": values, "end": end, "q": q.name, "ops": _ops(tf),
            "unknown": catch(lambda: tf.train.input_producer(p)),
            "given": tf.train.input_producer(p, element_shape=[2]).shapes[0].as_list()}


def case_limit_epochs(tf):
    t = tf.train.limit_epochs(tf.constant([1, 2]), num_epochs=2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        values, end = _drain(tf, sess, t)
    return {"values": values, "end": end, "t": describe(t),
            "same": tf.train.limit_epochs(t) is t, "ops": _ops(tf)}


def case_match_filenames_once(tf):
    import os
    import tempfile
    d = tempfile.mkdtemp()
    for name in ("b.txt", "a.txt", "c.csv"):
        open(os.path.join(d, name), "w").close()
    files = tf.train.match_filenames_once(os.path.join(d, "*.txt"))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        found = [os.path.basename(f) for f in sess.run(files)]
    return {"found": found, "name": files.name, "local": [v.name for v in tf.local_variables()],
            "io": tf.io.match_filenames_once is tf.train.match_filenames_once}


# -- batching ----------------------------------------------------------------------------------

def case_batch_graph(tf):
    x = tf.constant([1.0, 2.0])
    y = tf.constant("s")
    bx, by = tf.train.batch([x, y], batch_size=4, num_threads=2, capacity=10)
    qr = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
    return {"ops": _ops(tf), "bx": describe(bx), "by": describe(by),
            "runner": [qr.name, [op.name for op in qr.enqueue_ops]],
            "summaries": [s.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_batch_single_thread(tf):
    q = tf.train.range_input_producer(10, num_epochs=1, shuffle=False)
    i = q.dequeue()
    b = tf.train.batch([i, tf.cast(i, tf.float32) * 2.0], batch_size=3)
    values, end, threads = _run_pipeline(tf, b)
    return {"values": values, "end": end, "threads": threads}


def case_batch_allow_smaller_final_batch(tf):
    q = tf.train.range_input_producer(10, num_epochs=1, shuffle=False)
    b = tf.train.batch([q.dequeue()], batch_size=4, allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"values": values, "end": end, "b": describe(b)}


def case_batch_enqueue_many(tf):
    data = tf.constant(np.arange(12).reshape(6, 2), dtype=tf.int64)
    limited = tf.train.limit_epochs(data, num_epochs=1)
    b = tf.train.batch([limited], batch_size=4, enqueue_many=True,
                       allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"values": values, "end": end, "b": describe(b)}


def case_batch_dict_and_single(tf):
    q = tf.train.range_input_producer(4, num_epochs=1, shuffle=False)
    i = q.dequeue()
    d = tf.train.batch({"x": i, "y": i * 10}, batch_size=2)
    one = tf.train.batch({"only": i}, batch_size=2)
    return {"d": {k: describe(v) for k, v in d.items()},
            "one": {k: describe(v) for k, v in one.items()},
            "single_list": describe(tf.train.batch([i], batch_size=2))}


def case_batch_dynamic_pad(tf):
    q = tf.train.range_input_producer(5, num_epochs=1, shuffle=False)
    i = q.dequeue()
    seq = tf.range(i)
    b = tf.train.batch([seq, i], batch_size=2, dynamic_pad=True,
                       allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"values": values, "end": end, "b": [describe(t) for t in b],
            "queue": [op.type for op in tf.get_default_graph().get_operations()
                      if op.type.endswith("QueueV2")]}


def case_batch_shape_errors(tf):
    p = tf.placeholder(tf.float32)
    return {"unknown_rank": catch(lambda: tf.train.batch([p], batch_size=2)),
            "given": describe(tf.train.batch([p], batch_size=2, shapes=[[3]])),
            "empty": catch(lambda: tf.train.batch([], batch_size=2)),
            "keep_vector": catch(lambda: tf.train.maybe_batch([tf.constant(1)],
                                                              keep_input=[True],
                                                              batch_size=1))}


def case_batch_many_threads_sorted(tf):
    q = tf.train.range_input_producer(40, num_epochs=1, shuffle=False, capacity=8)
    i = q.dequeue()
    b = tf.train.batch([i], batch_size=5, num_threads=4, capacity=12)
    values, end, threads = _run_pipeline(tf, b)
    return {"rows": _sorted_rows(values), "batches": len(values), "end": end,
            "threads": threads}


def case_shuffle_batch_sorted(tf):
    q = tf.train.range_input_producer(30, num_epochs=2, shuffle=False)
    i = q.dequeue()
    b = tf.train.shuffle_batch([i, tf.cast(i, tf.float32)], batch_size=6, capacity=20,
                               min_after_dequeue=5, num_threads=3, seed=1,
                               allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    pairs = sorted((int(a), float(c)) for x, y in values for a, c in zip(x, y))
    return {"pairs": pairs, "end": end, "b": [describe(t) for t in b],
            "summaries": [s.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "too_small": catch(lambda: tf.train.shuffle_batch([i], 2, capacity=5,
                                                              min_after_dequeue=5))}


def case_shuffle_batch_graph(tf):
    x = tf.constant([1, 2, 3])
    b = tf.train.shuffle_batch([x], batch_size=8, capacity=50, min_after_dequeue=10,
                               num_threads=2, seed=5)
    rsq = [op for op in tf.get_default_graph().get_operations()
           if op.type == "RandomShuffleQueueV2"][0]
    return {"ops": _ops(tf), "b": describe(b),
            "attrs": [rsq.get_attr("capacity"), rsq.get_attr("min_after_dequeue"),
                      rsq.get_attr("seed"), rsq.get_attr("seed2")]}


def case_batch_join_sorted(tf):
    q1 = tf.train.range_input_producer(6, num_epochs=1, shuffle=False, name="p1")
    q2 = tf.train.range_input_producer(4, num_epochs=1, shuffle=False, name="p2")
    a = q1.dequeue()
    c = q2.dequeue() + 100
    b = tf.train.batch_join([[a], [c]], batch_size=3, allow_smaller_final_batch=True)
    values, end, threads = _run_pipeline(tf, b)
    qr = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[-1]
    return {"rows": _sorted_rows(values), "end": end, "threads": threads,
            "enqueue_ops": [op.name for op in qr.enqueue_ops], "b": describe(b),
            "types": catch(lambda: tf.train.batch_join([[a], [tf.cast(c, tf.float32)]], 2))}


def case_shuffle_batch_join_sorted(tf):
    q1 = tf.train.range_input_producer(8, num_epochs=1, shuffle=False)
    q2 = tf.train.range_input_producer(8, num_epochs=1, shuffle=False)
    b = tf.train.shuffle_batch_join([{"v": q1.dequeue()}, {"v": q2.dequeue() + 50}],
                                    batch_size=4, capacity=10, min_after_dequeue=2, seed=3,
                                    allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"rows": sorted(int(v) for batch in values for v in batch["v"]), "end": end,
            "keys": sorted(b)}


def case_maybe_batch_scalar_keep(tf):
    q = tf.train.range_input_producer(10, num_epochs=1, shuffle=False)
    i = q.dequeue()
    b = tf.train.maybe_batch([i], keep_input=tf.equal(i % 2, 0), batch_size=2,
                             allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"values": values, "end": end}


def case_maybe_batch_vector_keep(tf):
    data = tf.train.limit_epochs(tf.constant([1, 2, 3, 4, 5, 6]), num_epochs=1)
    keep = tf.train.limit_epochs(tf.constant([True, False, True, True, False, True]),
                                 num_epochs=1, name="keep_epochs")
    b = tf.train.maybe_batch([data], keep_input=keep, batch_size=2, enqueue_many=True,
                             allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"values": values, "end": end}


def case_maybe_shuffle_batch_constant_keep(tf):
    q = tf.train.range_input_producer(12, num_epochs=1, shuffle=False)
    b = tf.train.maybe_shuffle_batch([q.dequeue()], batch_size=4, capacity=10,
                                     min_after_dequeue=2, keep_input=True, seed=2,
                                     allow_smaller_final_batch=True)
    values, end, _ = _run_pipeline(tf, b)
    return {"rows": _sorted_rows(values), "end": end}


def case_batch_sparse(tf):
    q = tf.train.range_input_producer(4, num_epochs=1, shuffle=False)
    i = tf.cast(q.dequeue(), tf.int64)
    sp = tf.SparseTensor(indices=[[0], [2]], values=tf.stack([i, i * 10]), dense_shape=[3])
    b = tf.train.batch([sp, i], batch_size=2)
    values, end, _ = _run_pipeline(tf, b)
    out = [[v[0].indices, v[0].values, v[0].dense_shape, v[1]] for v in values]
    return {"values": out, "end": end, "types": type(b[0]).__name__,
            "ops": sorted({op.type for op in tf.get_default_graph().get_operations()
                           if "Sparse" in op.type})}


def case_batch_sparse_names(tf):
    """The tensors batch returns for SparseTensors: a lone SparseTensor (a one-component
    queue) comes straight from TakeManySparseFromTensorsMap, a list goes through
    control_dependency identities."""
    sp = tf.SparseTensor(indices=[[0], [2]], values=[1, 2], dense_shape=[3])
    names = {}
    for label, tensors in (("alone", sp), ("list_of_one", [sp]),
                           ("with_dense", [sp, tf.constant(1)])):
        try:
            out = tf.train.batch(tensors, batch_size=2)
        except TypeError as e:
            names[label] = type(e).__name__
            continue
        flat = out if isinstance(out, list) else [out]
        names[label] = [[t.indices.name, t.values.name, t.dense_shape.name]
                        if isinstance(t, tf.SparseTensor) else t.name for t in flat]
    return names


def case_batch_sparse_enqueue_many(tf):
    sp = tf.SparseTensor(indices=[[0, 0], [0, 2], [1, 1], [2, 0]], values=[1.0, 2.0, 3.0, 4.0],
                         dense_shape=[3, 4])
    b = tf.train.batch([sp], batch_size=2, enqueue_many=True, allow_smaller_final_batch=True)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        first = sess.run(b)
        second = sess.run(b)
        coord.request_stop()
        sess.run(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0].cancel_op)
        coord.join(threads)
    return [[v.indices, v.values, v.dense_shape] for v in (first, second)]


# -- QueueRunner, Coordinator --------------------------------------------------------------------

def case_queue_runner_manual(tf):
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    counter = tf.Variable(0)
    inc = tf.assign_add(counter, 1)
    limited = tf.train.limit_epochs(inc, num_epochs=5)
    # (+ 0: TF's queue would keep views of the variable's buffer, all reading its last value)
    enq = q.enqueue(limited + 0)
    qr = tf.train.QueueRunner(q, [enq])
    dq = q.dequeue()
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        threads = qr.create_threads(sess, start=True)
        for t in threads:
            t.join()
        values, end = _drain(tf, sess, dq)
        return {"values": sorted(values), "end": end, "threads": len(threads),
                "errors": qr.exceptions_raised, "closed": sess.run(q.is_closed()),
                "again": len(qr.create_threads(sess))}


def case_queue_runner_errors(tf):
    q = tf.FIFOQueue(10, tf.int32)
    return {"no_ops": catch(lambda: tf.train.QueueRunner(q, [])),
            "types": catch(lambda: tf.train.QueueRunner(q, [q.enqueue(1)],
                                                        queue_closed_exception_types=[1])),
            "custom": [c.__name__ for c in tf.train.QueueRunner(
                q, [q.enqueue(1)], queue_closed_exception_types=(
                    tf.errors.OutOfRangeError, tf.errors.CancelledError)
            ).queue_closed_exception_types]}


def case_queue_runner_failure_reaches_coordinator(tf):
    q = tf.FIFOQueue(10, tf.float32, shapes=[[]])
    x = tf.constant(-1.0)
    bad = tf.debugging.check_numerics(tf.sqrt(x), "bad value")
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(bad)]))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        coord.wait_for_stop()
        return {"join": catch(lambda: coord.join(threads)), "stopped": coord.should_stop()}


def case_start_queue_runners_checks(tf):
    return {"no_session": catch(lambda: tf.train.start_queue_runners()),
            "not_session": catch(lambda: tf.train.start_queue_runners(sess=object())),
            "none": tf.train.start_queue_runners(sess=tf.Session())}


def case_queue_runner_meta_graph_roundtrip(tf):
    q = tf.train.string_input_producer(["a", "b"], num_epochs=1, shuffle=False)
    meta = tf.train.export_meta_graph()
    runners = meta.collection_def["queue_runners"].bytes_list.value
    tf.reset_default_graph()
    tf.train.import_meta_graph(meta)
    imported = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
    qr = imported[0]
    dq = tf.get_default_graph().get_tensor_by_name("input_producer:0")
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        values, end = _drain(tf, sess, tf.QueueBase(dtypes=[tf.string], shapes=[[]],
                                                    names=None, queue_ref=dq).dequeue())
        coord.request_stop()
        coord.join(threads)
    return {"n": len(runners), "name": qr.name, "enqueue": [op.name for op in qr.enqueue_ops],
            "close": qr.close_op.name, "cancel": qr.cancel_op.name,
            "types": [c.__name__ for c in qr.queue_closed_exception_types],
            "values": values, "end": end}


# -- sessions that run queue runners -----------------------------------------------------------

def case_monitored_session_runs_queue_runners(tf):
    q = tf.train.range_input_producer(6, num_epochs=1, shuffle=False)
    b = tf.train.batch([q.dequeue()], batch_size=2)
    values = []
    with tf.train.MonitoredSession() as sess:
        while not sess.should_stop():
            values.append(sess.run(b))
        stopped = sess.should_stop()
    return {"values": values, "stopped": stopped}


def case_monitored_training_session_queue(tf):
    tf.train.create_global_step()
    q = tf.train.range_input_producer(8, num_epochs=1, shuffle=False)
    b = tf.train.batch([tf.cast(q.dequeue(), tf.float32)], batch_size=4)
    total = tf.Variable(0.0)
    step = tf.group(tf.assign_add(total, tf.reduce_sum(b)),
                    tf.assign_add(tf.train.get_global_step(), 1))
    with tf.train.MonitoredTrainingSession() as sess:
        n = 0
        while not sess.should_stop():
            sess.run(step)
            n += 1
    return {"steps": n}


def case_supervisor_managed_session_queue(tf):
    import tempfile
    q = tf.train.range_input_producer(6, num_epochs=1, shuffle=False)
    b = tf.train.batch([q.dequeue()], batch_size=3)
    sv = tf.train.Supervisor(logdir=tempfile.mkdtemp(), save_summaries_secs=0,
                             save_model_secs=0, local_init_op=tf.local_variables_initializer())
    values = []
    with sv.managed_session() as sess:
        while not sv.should_stop():
            try:
                values.append(sess.run(b))
            except tf.errors.OutOfRangeError:
                sv.request_stop()
    return {"values": values}
