"""Golden cases: tf.ConditionalAccumulator and tf.SparseConditionalAccumulator — graphs,
mean/sum reduction, stale gradients, global steps, blocking take_grad, shape errors."""

import numpy as np

from tests.golden.harness import catch, describe


def case_accumulator_graph(tf):
    a = tf.ConditionalAccumulator(tf.float32, shape=[2], shared_name="acc")
    apply = a.apply_grad([1.0, 2.0], local_step=0)
    take = a.take_grad(2)
    step = a.set_global_step(3)
    s = tf.SparseConditionalAccumulator(tf.float64, shape=[4, 2])
    sapply = s.apply_grad(grad_indices=[0, 2], grad_values=[[1.0, 1.0], [2.0, 2.0]],
                          grad_shape=[4, 2])
    stake = s.take_grad(1)
    sslices = s.take_indexed_slices_grad(1)
    return {"ref": describe(a.accumulator_ref), "name": a.name, "dtype": a.dtype.name,
            "ops": [(op.name, op.type) for op in tf.get_default_graph().get_operations()],
            "apply": [apply.name, apply.type], "take": describe(take),
            "count": describe(a.num_accumulated()), "step": [step.name, step.type],
            "sref": describe(s.accumulator_ref), "sapply": [sapply.name, sapply.type],
            "has_shape": sapply.get_attr("has_known_shape"),
            "stake": [describe(t) for t in stake], "stake_fields": stake._fields
            if hasattr(stake, "_fields") else None,
            "sslices": type(sslices).__name__, "scount": describe(s.num_accumulated()),
            "bad_reduction": catch(lambda: tf.ConditionalAccumulator(
                tf.float32, reduction_type="MAX")),
            "static_shape": catch(lambda: a.apply_grad([1.0, 2.0, 3.0]))}


def case_accumulator_mean_and_steps(tf):
    a = tf.ConditionalAccumulator(tf.float32, shape=[2])
    p = tf.placeholder(tf.float32)
    ls = tf.placeholder(tf.int64)
    apply = a.apply_grad(p, local_step=ls)
    take2 = a.take_grad(2)
    take1 = a.take_grad(1)
    count = a.num_accumulated()
    with tf.Session() as sess:
        sess.run(apply, {p: [1.0, 2.0], ls: 0})
        sess.run(apply, {p: [3.0, 4.0], ls: 0})
        out = {"count": sess.run(count), "mean": sess.run(take2),
               "after": sess.run(count)}
        sess.run(apply, {p: [9.0, 9.0], ls: 0})      # stale after the take: dropped
        out["stale"] = sess.run(count)
        out["shape"] = catch(lambda: sess.run(apply, {p: [1.0, 2.0, 3.0], ls: 5}),
                             message=True)
        out["stale_bad_shape"] = catch(lambda: sess.run(apply, {p: [1.0], ls: 0}))
        out["timeout"] = catch(lambda: sess.run(take2, options=tf.RunOptions(
            timeout_in_ms=20)))
        out["zero"] = catch(lambda: sess.run(a.take_grad(0)), message=True)
        sess.run(a.set_global_step(10))
        sess.run(apply, {p: [1.0, 1.0], ls: 9})
        out["below_step"] = sess.run(count)
        sess.run(apply, {p: [1.0, 1.0], ls: 10})
        sess.run(apply, {p: [3.0, 1.0], ls: 11})
        out["mean_of_two"] = sess.run(take1)
        sess.run(a.set_global_step(2))
        sess.run(apply, {p: [5.0, 6.0], ls: 2})
        out["lowered"] = sess.run(take1)
    return out


def case_accumulator_sum_unknown_shape(tf):
    b = tf.ConditionalAccumulator(tf.float64, reduction_type="SUM")
    with tf.Session() as sess:
        sess.run(b.apply_grad(np.ones((2, 3))))
        sess.run(b.apply_grad(np.ones((2, 3)) * 2))
        return {"sum": sess.run(b.take_grad(2)), "take": describe(b.take_grad(1)),
                "mismatch": catch(lambda: sess.run([b.apply_grad(np.ones((2, 3))),
                                                    b.apply_grad(np.ones((3, 3)))]))}


def case_accumulator_take_waits_for_apply(tf):
    import threading
    a = tf.ConditionalAccumulator(tf.float32, shape=[])
    p = tf.placeholder(tf.float32, [])
    apply = a.apply_grad(p)
    take = a.take_grad(3)
    with tf.Session() as sess:
        result = {}

        def taker():
            result["value"] = sess.run(take)
        t = threading.Thread(target=taker)
        t.start()
        for v in (1.0, 2.0, 6.0):
            sess.run(apply, {p: v})
        t.join()
        return result["value"]


def case_sparse_accumulator_mean(tf):
    s = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
    a1 = s.apply_grad(grad_indices=[0, 2], grad_values=[[1.0, 1.0], [2.0, 2.0]],
                      grad_shape=[4, 2], local_step=0)
    a2 = s.apply_indexed_slices_grad(tf.IndexedSlices(
        tf.constant([[3.0, 3.0], [4.0, 4.0]]), tf.constant([2, 3], tf.int64),
        tf.constant([4, 2], tf.int64)))
    take = s.take_grad(2)
    slices = s.take_indexed_slices_grad(1)
    with tf.Session() as sess:
        sess.run(a1)
        sess.run(a2)
        first = sess.run(take)
        sess.run(s.apply_grad([3, 1], [[1.0, 2.0], [3.0, 4.0]], local_step=1))
        sess.run(s.apply_grad([1, 3], [[1.0, 1.0], [1.0, 1.0]], local_step=1))
        second = sess.run(slices)
        return {"first": list(first), "second": [second.indices, second.values,
                                                 second.dense_shape],
                "count": sess.run(s.num_accumulated())}


def case_sparse_accumulator_sum_and_errors(tf):
    s = tf.SparseConditionalAccumulator(tf.float32, reduction_type="SUM")
    t = tf.SparseConditionalAccumulator(tf.float32, shape=[3, 2])
    with tf.Session() as sess:
        sess.run(s.apply_grad([1, 3], [[1.0, 2.0], [3.0, 4.0]], grad_shape=[5, 2]))
        sess.run(s.apply_grad([3, 0], [[1.0, 1.0], [2.0, 2.0]], grad_shape=[5, 2]))
        summed = sess.run(s.take_grad(2))
        sess.run(s.apply_grad([1], [[1.0, 2.0]], local_step=1))
        no_shape = sess.run(s.take_grad(1))
        errors = {
            "values_rank": catch(lambda: sess.run(s.apply_grad([1], [[[1.0]]], local_step=5)),
                                 message=True),
            "index": catch(lambda: sess.run(t.apply_grad([4], [[1.0, 1.0]])), message=True),
            "dim": catch(lambda: sess.run(t.apply_grad([0], [[1.0, 1.0, 1.0]])),
                         message=True),
            "shape_dim": catch(lambda: sess.run(t.apply_grad([0], [[1.0, 1.0]],
                                                             grad_shape=[4, 2])),
                               message=True),
            "count": catch(lambda: sess.run(t.apply_grad([0, 1], [[1.0, 1.0]])),
                           message=True)}
        return {"summed": list(summed), "no_shape": list(no_shape), "errors": errors,
                "count": sess.run(t.num_accumulated())}


def case_sparse_accumulator_global_step(tf):
    s = tf.SparseConditionalAccumulator(tf.float64, shape=[None, 1])
    with tf.Session() as sess:
        sess.run(s.set_global_step(4))
        sess.run(s.apply_grad([0], [[1.0]], local_step=3))
        stale = sess.run(s.num_accumulated())
        sess.run(s.apply_grad([7], [[2.0]], local_step=4))
        return {"stale": stale, "taken": list(sess.run(s.take_grad(1)))}
