"""Eager golden cases: TF's queues and accumulators run op by op under eager execution
(each queue its own resource, as TF's eager queues)."""

from tests.golden.harness import catch


def case_fifo_queue_eager(tf):
    q = tf.FIFOQueue(3, tf.int32, shapes=[[]])
    q.enqueue(1)
    q.enqueue_many([[2, 3]])
    other = tf.FIFOQueue(3, tf.int32)
    out = {"size": q.size().numpy(), "name": q.name, "other": other.size().numpy(),
           "one": q.dequeue().numpy(), "many": q.dequeue_many(2).numpy(),
           "closed_before": q.is_closed().numpy()}
    q.close()
    out["closed"] = q.is_closed().numpy()
    out["empty"] = catch(lambda: q.dequeue())
    out["enqueue"] = catch(lambda: q.enqueue(4))
    return out


def case_queues_eager_kinds(tf):
    r = tf.RandomShuffleQueue(10, 0, tf.float32, shapes=[[]], seed=1)
    r.enqueue_many([[1.0, 2.0, 3.0]])
    r.close()
    with tf.name_scope("scope"):
        p = tf.PaddingFIFOQueue(4, [tf.int32], shapes=[[None]])
    p.enqueue([[1, 2]])
    p.enqueue([[3]])
    prio = tf.PriorityQueue(4, [tf.string], shapes=[[]])
    prio.enqueue_many([[5, 1], ["e", "a"]])
    return {"shuffled": sorted(r.dequeue_up_to(5).numpy().tolist()), "padding": p.name,
            "padded": p.dequeue_many(2).numpy(),
            "priority": [t.numpy() for t in prio.dequeue()]}


def case_conditional_accumulator_eager(tf):
    a = tf.ConditionalAccumulator(tf.float32, shape=[2])
    b = tf.ConditionalAccumulator(tf.float32, shape=[2])
    a.apply_grad([1.0, 2.0])
    a.apply_grad([3.0, 4.0])
    b.apply_grad([9.0, 9.0])
    return {"count": a.num_accumulated().numpy(), "mean": a.take_grad(2).numpy(),
            "other": b.num_accumulated().numpy(), "after": a.num_accumulated().numpy()}
