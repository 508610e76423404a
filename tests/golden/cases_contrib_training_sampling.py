"""Golden cases: `tf.contrib.training`'s samplers (`resample_at_rate`, `weighted_resample`,
`rejection_sample`, `stratified_sample`).

TF 2.x has no contrib: under the oracle these are TF 1.15's own
contrib/training/python/training/{resample,sampling_ops}.py run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`). The graphs are
TF's op for op, so with a graph seed (and one thread per queue) the draws and batches
are TF's own."""

import numpy as np


def _training(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.training
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.training.python.training",
                                        ["resample", "sampling_ops"])


def _shape(t):
    return None if t.shape.ndims is None else t.shape.as_list()


def _run_queues(tf, fetches, steps):
    """`steps` runs of `fetches` with the queue runners started (then stopped)."""
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        out = [sess.run(fetches) for _ in range(steps)]
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
    return out


def case_resample_at_rate(tf):
    training = _training(tf)
    tf.set_random_seed(3)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = tf.constant([10, 20, 30])
    out = training.resample_at_rate([x, ids], tf.constant([1.0, 2.0, 0.5]), seed=5)
    none = training.resample_at_rate([ids], tf.constant([0.0, 0.0, 0.0]))
    rates = tf.placeholder(tf.float32, [None])
    fed = training.resample_at_rate([tf.range(tf.size(rates))], rates, scope="fed")
    with tf.Session() as sess:
        runs = [sess.run(out) for _ in range(4)]
        many = sess.run(fed, {rates: np.full([50], 3.0, np.float32)})[0]
        empty = sess.run(none)
    return {"runs": runs, "empty": empty, "many_len": len(many),
            "many_sorted": bool(np.all(np.diff(many) >= 0)),
            "names": [t.name for t in out + none + fed],
            "shapes": [_shape(t) for t in out + fed],
            "dtypes": [t.dtype.name for t in out]}


def case_resample_back_prop(tf):
    training = _training(tf)
    tf.set_random_seed(1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    (y,) = training.resample_at_rate([x], [2.0, 1.0], seed=2, back_prop=True)
    grad = tf.gradients(tf.reduce_sum(y * y), x)[0]
    with tf.Session() as sess:
        return sess.run({"y": y, "grad": tf.convert_to_tensor(grad)})


def case_weighted_resample(tf):
    training = _training(tf)
    tf.set_random_seed(7)
    weights = tf.constant([1.0, 4.0, 0.5, 2.0])
    data = tf.constant([[0, 1], [2, 3], [4, 5], [6, 7]])
    (resampled,), rates = training.weighted_resample([data], weights, 2.0, seed=11)
    local = [v.op.name for v in tf.local_variables()]
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        runs = [sess.run({"data": resampled, "rates": rates}) for _ in range(3)]
    return {"runs": runs, "local": local, "names": [resampled.name, rates.name],
            "shapes": [_shape(resampled), _shape(rates)],
            "global": [v.op.name for v in tf.global_variables()]}


def case_rejection_sample(tf):
    training = _training(tf)
    tf.set_random_seed(5)
    values = tf.range(10)
    batch = training.rejection_sample(
        [values, tf.cast(values, tf.float32) * 0.5],
        lambda t: tf.cast(t[0], tf.float32) / 10.0, batch_size=4, enqueue_many=True)
    names = [t.name for t in batch]
    shapes = [t.shape.as_list() for t in batch]
    runners = [r.name for r in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)]
    return {"batches": _run_queues(tf, batch, 5), "names": names, "shapes": shapes,
            "runners": runners}


def case_rejection_sample_single(tf):
    training = _training(tf)
    tf.set_random_seed(2)
    example = tf.constant([1.0, 2.0, 3.0])
    batch = training.rejection_sample([example], lambda t: tf.constant(0.5), batch_size=3,
                                      runtime_checks=True, name="single")
    return {"batches": _run_queues(tf, batch, 2), "names": [t.name for t in batch],
            "shapes": [t.shape.as_list() for t in batch]}


def case_rejection_sample_bad_probability(tf):
    training = _training(tf)
    prob = tf.Variable(1.5)
    batch = training.rejection_sample([tf.constant([1.0])], lambda t: prob.read_value(),
                                      batch_size=1, runtime_checks=True)
    out = {}
    with tf.Session() as sess:
        sess.run(prob.initializer)
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        try:
            sess.run(batch)
        except tf.errors.OutOfRangeError:
            out["dequeue"] = "OutOfRangeError"
        coord.request_stop()
        try:
            coord.join(threads, stop_grace_period_secs=5)
        except tf.errors.InvalidArgumentError:
            out["enqueue"] = "InvalidArgumentError"
    return out


def case_stratified_sample(tf):
    training = _training(tf)
    tf.set_random_seed(9)
    data = tf.reshape(tf.range(24, dtype=tf.float32), [12, 2])
    labels = tf.constant([0, 1, 2, 0, 0, 1, 0, 2, 0, 0, 1, 0])
    (batch,), label = training.stratified_sample(
        [data], labels, [0.2, 0.4, 0.4], batch_size=6,
        init_probs=[0.5, 0.25, 0.25], enqueue_many=True)
    return {"batches": _run_queues(tf, [batch, label], 4),
            "names": [batch.name, label.name],
            "shapes": [batch.shape.as_list(), label.shape.as_list()],
            "dtypes": [batch.dtype.name, label.dtype.name]}


def case_stratified_sample_estimated(tf):
    training = _training(tf)
    tf.set_random_seed(4)
    example = tf.constant([1, 2])
    label = tf.constant(1)
    (batch,), labels = training.stratified_sample([example], label, [0.5, 0.5], batch_size=2,
                                                  name="est")
    counts = [v.op.name for v in tf.global_variables()]
    return {"batches": _run_queues(tf, [batch, labels], 2), "variables": counts,
            "shapes": [batch.shape.as_list(), labels.shape.as_list()]}


def case_stratified_sample_errors(tf):
    training = _training(tf)
    errors = []
    attempts = [
        lambda: training.stratified_sample([tf.constant([1])], tf.constant(0),
                                           [0.5, 0.5], 1, init_probs=[1.0]),
        lambda: training.stratified_sample([tf.constant([1])], tf.constant([[0]]),
                                           [1.0], 1, init_probs=[1.0]),
        lambda: training.stratified_sample([tf.constant([1])], tf.constant(0),
                                           tf.placeholder(tf.float32, [None]), 1),
        lambda: training.stratified_sample([tf.constant([1, 2])], tf.constant([0, 0, 0]),
                                           [1.0], 1, enqueue_many=True, init_probs=[1.0]),
    ]
    for attempt in attempts:
        try:
            attempt()
            errors.append(None)
        except (ValueError, TypeError) as e:
            errors.append(type(e).__name__)
    return errors
