"""Golden cases: `tf.contrib.training`'s training loop (`create_train_op`, `train`,
`add_gradients_summaries`, `clip_gradient_norms(_fn)`, `multiply_gradients`).

TF 2.x has no contrib: under the oracle these are TF 1.15's own
contrib/training/python/training/training.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`)."""

import os
import tempfile

import numpy as np


def _training(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.training
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.training.python.training", ["training"])


def _model(tf):
    x = tf.constant(np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32))
    y = tf.constant(np.array([[1.0], [0.0], [2.0]], np.float32))
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.3], [-0.2]]))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y)), w, b


def case_gradient_helpers(tf):
    training = _training(tf)
    with tf.Graph().as_default() as g:
        loss, w, b = _model(tf)
        emb = tf.get_variable("emb", [4, 2], initializer=tf.ones_initializer())
        sparse_loss = tf.reduce_sum(tf.gather(emb, [1, 3, 1]) * 3.0)
        opt = tf.train.GradientDescentOptimizer(0.1)
        grads = opt.compute_gradients(loss + sparse_loss)
        clipped = training.clip_gradient_norms(grads, 0.5)
        via_fn = training.clip_gradient_norms_fn(0.5)(grads)
        scaled = training.multiply_gradients(grads, {w: 2.0, "b": 10.0})
        summaries = training.add_gradients_summaries(grads + [(None, b)])
        errors = []
        for args in [(tuple(grads), {w: 1.0}), (grads, {}), (grads, [(w, 1.0)]),
                     ([(None, w)], {w: 2.0})]:
            try:
                training.multiply_gradients(*args)
                errors.append(None)
            except ValueError as e:
                errors.append(str(e))

        def dense(pairs):
            return [tf.convert_to_tensor(gr) for gr, _ in pairs]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run({"grads": dense(grads), "clipped": dense(clipped),
                            "via_fn": dense(via_fn), "scaled": dense(scaled)})
        out["sparse"] = [isinstance(gr, tf.IndexedSlices) for gr, _ in clipped]
        out["summaries"] = [s.op.name for s in summaries]
        out["collection"] = [s.op.name for s in g.get_collection(tf.GraphKeys.SUMMARIES)]
        out["errors"] = errors
        return out


def case_create_train_op_and_train(tf):
    training = _training(tf)
    logdir = tempfile.mkdtemp()
    with tf.Graph().as_default() as g:
        loss, w, b = _model(tf)
        counter = tf.get_variable("counter", [], initializer=tf.zeros_initializer(),
                                  trainable=False)
        tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign_add(counter, 1.0))
        train_op = training.create_train_op(
            loss, tf.train.GradientDescentOptimizer(0.1), summarize_gradients=True,
            transform_grads_fn=training.clip_gradient_norms_fn(1.0))
        names = {"train_op": train_op.name,
                 "collection": [t.name for t in g.get_collection(tf.GraphKeys.TRAIN_OP)],
                 "summaries": sorted(s.op.name for s in
                                     g.get_collection(tf.GraphKeys.SUMMARIES))}
        last = training.train(train_op, logdir,
                              save_summaries_steps=None,
                              hooks=[tf.train.StopAtStepHook(num_steps=5)])
        checkpoint = tf.train.latest_checkpoint(logdir)
    with tf.Graph().as_default():
        loss, w, b = _model(tf)
        only_b = training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.5),
                                          global_step=None, variables_to_train=[b],
                                          check_numerics=False)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run(only_b) for _ in range(3)]
            trained = sess.run({"w": w, "b": b})
        try:
            training.train(only_b, None)
            no_logdir = None
        except ValueError as e:
            no_logdir = str(e)
    reader = tf.train.load_checkpoint(checkpoint)
    return {"names": names, "last": last, "losses": losses, "trained": trained,
            "no_logdir": no_logdir, "checkpoint": os.path.basename(checkpoint),
            "saved": {k: reader.get_tensor(k) for k in ("w", "b", "counter", "global_step")}}


def _bucket_ops(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.training
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.training.python.training", ["bucket_ops"])


def _drain(tf, fetches):
    """Runs `fetches` under the graph's queue runners until the input ends."""
    out = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            while True:
                out.append(sess.run(fetches))
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
            coord.join(threads)
    return out


def case_bucket_by_sequence_length(tf):
    training = _bucket_ops(tf)
    lengths = [1, 4, 2, 5, 3, 6, 2, 7, 1, 5, 3, 4]
    rows = np.zeros((len(lengths), 8), np.int32)
    for i, n in enumerate(lengths):
        rows[i, :n] = np.arange(1, n + 1) + 10 * i
    with tf.Graph().as_default() as g:
        index = tf.train.range_input_producer(len(lengths), num_epochs=1,
                                              shuffle=False).dequeue()
        length = tf.gather(tf.constant(lengths), index)
        seq = tf.gather(tf.constant(rows), index)[:length]
        out_length, out = training.bucket_by_sequence_length(
            length, {"seq": seq, "id": index}, batch_size=2, bucket_boundaries=[3, 5],
            dynamic_pad=True)
        shapes = {"length": out_length.shape.as_list(),
                  "seq": out["seq"].shape.as_list(), "id": out["id"].shape.as_list()}
        runners = [(qr.queue.name, len(qr.enqueue_ops))
                   for qr in g.get_collection(tf.GraphKeys.QUEUE_RUNNERS)]
        summaries = [s.op.name for s in g.get_collection(tf.GraphKeys.SUMMARIES)]
        # The bucket threads race: the batches' order is not fixed, their contents are.
        batches = sorted(_drain(tf, {"length": out_length, **out}),
                         key=lambda b: int(b["id"][0]))
    errors = []
    for bounds in ([3, 3], (5, 3), [], "3"):
        try:
            with tf.Graph().as_default():
                training.bucket_by_sequence_length(tf.constant(1), [tf.constant([1])], 2,
                                                   bounds)
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append([type(e).__name__, str(e)])
    return {"shapes": shapes, "runners": runners, "summaries": summaries,
            "batches": batches, "errors": errors}


def case_bucket_per_bucket_batch_sizes(tf):
    training = _bucket_ops(tf)
    with tf.Graph().as_default():
        index = tf.train.range_input_producer(20, num_epochs=1, shuffle=False).dequeue()
        which, out = training.bucket([index, tf.cast(index, tf.float32) * 0.5],
                                     which_bucket=tf.cast(index % 2, tf.int32),
                                     batch_size=[2, 3], num_buckets=2,
                                     keep_input=index < 12, name="pairs")
        shapes = [t.shape.as_list() for t in [which] + list(out)]
        names = [t.name for t in [which] + list(out)]
        batches = _drain(tf, [which] + list(out))
    errors = []
    for kwargs in ({"batch_size": [1, 2, 3]}, {"batch_size": 2, "bucket_capacities": [4]}):
        try:
            with tf.Graph().as_default():
                training.bucket([tf.constant(1)], tf.constant(0), num_buckets=2, **kwargs)
            errors.append(None)
        except ValueError as e:
            errors.append(str(e))
    return {"shapes": shapes, "names": names, "errors": errors,
            "batches": sorted(([int(b[0])] + [x.tolist() for x in b[1:]] for b in batches),
                              key=str)}



def _device_setter(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.training
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.training.python.training",
                                        ["device_setter"])


def case_ps_strategies(tf):
    training = _device_setter(tf)
    out = {}
    for kind in ("greedy", "random"):
        with tf.Graph().as_default():
            strategy = (training.GreedyLoadBalancingStrategy(3, training.byte_size_load_fn)
                        if kind == "greedy" else training.RandomStrategy(3, seed=7))
            with tf.device(tf.train.replica_device_setter(ps_tasks=3,
                                                          ps_strategy=strategy)):
                made = [tf.get_variable(f"v{i}", shape, initializer=tf.zeros_initializer())
                        for i, shape in enumerate([[100], [10, 2], [5], [40, 3], [1], [7]])]
            out[kind] = [v.device for v in made]
    with tf.Graph().as_default():
        v = tf.get_variable("bytes", [3, 4], tf.float64)
        out["bytes"] = int(training.byte_size_load_fn(v.op))
        try:
            training.byte_size_load_fn(tf.split(tf.zeros([4]), 2)[0].op)
        except ValueError as e:
            out["two_outputs"] = type(e).__name__
    return out
