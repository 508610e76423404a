"""Golden cases: a read of a variable that nothing orders against an update of it in the
same run (issue 14: BERT's and ELECTRA's optimizers group `global_step.assign(gs + 1)`
with the weight update while the learning rate reads the global step unordered).

Which value such a read sees in TF depends on its executor's cost model, not on the graph
(docs/ARCHITECTURE.md, "Unordered reads and writes"): for roughly the first 90-100 runs
of a callable its CPU kernels count as expensive, so when an op makes several ops ready
all but the last go to the inter-op pool while the last runs inline, depth first; the
increment then usually wins and the read sees the new step (with several inter-op
threads it is a race: single runs flip). Once the measured costs have decayed below the
threshold the cheap ops run inline in ready order and every read runs before the
increment. Only that settled regime is deterministic, so the cases record runs 200..209
of 210: the step each run's read saw minus the run's index (0 = read before the update).
"""

from tests.golden.harness import requires

RUNS = 210
RECORDED = range(200, 210)


def _gs(tf, shape=()):
    return tf.get_variable("gs", shape, tf.int64, initializer=tf.zeros_initializer(),
                           trainable=False, use_resource=True)


def _w(tf, use_resource=True):
    return tf.get_variable("w", [], initializer=tf.zeros_initializer(),
                           use_resource=use_resource)


def _seen(tf, train, w, decode=lambda d, i: d):
    """Runs `train` RUNS times; the recorded runs' (step the read saw - run index), the
    step recovered from how much w fell."""
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        prev = 0.0
        for i in range(RUNS):
            sess.run(train)
            cur = float(sess.run(w))
            if i in RECORDED:
                out.append(int(round(decode(prev - cur, i))) - i)
            prev = cur
    return out


@requires("get_variable")
def case_resource_step_assign(tf):
    """w += -cast(gs) grouped with gs.assign(gs + 1): the lead's repro."""
    step, w = _gs(tf), _w(tf)
    train = tf.group(tf.assign_add(w, -tf.cast(step, tf.float32)), [step.assign(step + 1)])
    return _seen(tf, train, w)


@requires("get_variable")
def case_ref_step_assign(tf):
    """The same with ref variables (an Identity read that aliases the buffer)."""
    step = tf.get_variable("gs", [], tf.int64, initializer=tf.zeros_initializer(),
                           trainable=False, use_resource=False)
    w = _w(tf, use_resource=False)
    train = tf.group(tf.assign_add(w, -tf.cast(step, tf.float32)), [step.assign(step + 1)])
    return _seen(tf, train, w)


@requires("get_variable")
def case_increment_created_first(tf):
    """The increment is created before the read."""
    step, w = _gs(tf), _w(tf)
    inc = step.assign(step + 1)
    train = tf.group(tf.assign_add(w, -tf.cast(step, tf.float32)), [inc])
    return _seen(tf, train, w)


@requires("get_variable")
def case_assign_add_increment(tf):
    """gs.assign_add(1) (AssignAddVariableOp) as the increment."""
    step, w = _gs(tf), _w(tf)
    train = tf.group(tf.assign_add(w, -tf.cast(step, tf.float32)), [step.assign_add(1)])
    return _seen(tf, train, w)


@requires("get_variable", "scatter_add")
def case_scatter_increment(tf):
    """The step is element 0 of a vector that a scatter_add increments."""
    step, w = _gs(tf, [2]), _w(tf)
    train = tf.group(tf.assign_add(w, -tf.cast(step[0], tf.float32)),
                     [tf.scatter_add(step, [0], tf.constant([1], tf.int64))])
    return _seen(tf, train, w)


@requires("get_variable")
def case_two_reads(tf):
    """Two reads feed the update, one through a longer chain."""
    step, w = _gs(tf), _w(tf)
    s1 = tf.cast(step, tf.float32)
    s2 = tf.cast(step.read_value(), tf.float32) * 2. + 0.
    train = tf.group(tf.assign_add(w, -(s1 + s2) / 3.), [step.assign(step + 1)])
    return _seen(tf, train, w)


@requires("get_variable", "cond")
def case_read_in_cond(tf):
    """The read happens inside a tf.cond branch."""
    step, w = _gs(tf), _w(tf)
    lr = tf.cond(tf.constant(True), lambda: -tf.cast(step, tf.float32),
                 lambda: tf.constant(0.))
    train = tf.group(tf.assign_add(w, lr), [step.assign(step + 1)])
    return _seen(tf, train, w)


@requires("get_variable")
def case_read_fetched(tf):
    """The read is fetched next to the increment (what a session hook fetches)."""
    step = _gs(tf)
    train = tf.group(step.assign(step + 1))
    read = step.read_value()
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(RUNS):
            _, v = sess.run([train, read])
            if i in RECORDED:
                out.append(int(v) - i)
    return out


@requires("train.get_or_create_global_step", "train.polynomial_decay")
def case_bert_lr_schedule(tf):
    """BERT's optimization.py: get_or_create_global_step, polynomial_decay with a linear
    warmup through tf.where, the update grouped with global_step.assign(gs + 1)."""
    step = tf.train.get_or_create_global_step()
    w = _w(tf)
    lr = tf.train.polynomial_decay(1.0, step, 1000, end_learning_rate=0.0, power=1.0)
    gsi = tf.cast(step, tf.int32)
    lr = tf.where(gsi < 10, tf.cast(gsi, tf.float32) / 10., lr)
    train = tf.group(tf.assign_sub(w, lr), [step.assign(step + 1)])
    # past the warmup lr = 1 - gs / 1000
    return _seen(tf, train, w, lambda d, i: (1.0 - d) * 1000.0)
