"""Golden cases: `tf.contrib.gan` training: gan_train_ops (names, update ops, the
TRAIN_OP collection, CycleGAN pairs), the sequential and joint hooks, RunTrainOpsHook and
gan_train on a MonitoredTrainingSession (variable values after some steps). Oracle: TF
1.14's contrib/gan under TF 2.21 (scripts/oracle_contrib_gan.py)."""

from tests.golden.cases_contrib_gan import build_cyclegan, build_gan, data, discriminator, \
    gan_of, generator
from tests.golden.harness import catch


def _ops(tf, gan, **kwargs):
    model = build_gan(tf, gan)
    loss = gan.gan_loss(model, add_summaries=False)
    return model, gan.gan_train_ops(model, loss, tf.train.GradientDescentOptimizer(0.1),
                                    tf.train.GradientDescentOptimizer(0.05), **kwargs)


def case_gan_train_ops(tf):
    gan = gan_of(tf)
    model, ops = _ops(tf, gan, summarize_gradients=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g_loss = sess.run(ops.generator_train_op)
        d_loss = sess.run(ops.discriminator_train_op)
        step = sess.run(ops.global_step_inc_op)
        after = sess.run(model.generator_variables + model.discriminator_variables)
        final_step = sess.run(tf.train.get_global_step())
    return {"type": type(ops).__name__, "fields": list(type(ops)._fields),
            "names": [ops.generator_train_op.op.name, ops.discriminator_train_op.op.name,
                      ops.global_step_inc_op.op.name],
            "hooks": list(ops.train_hooks), "values": [g_loss, d_loss, step, final_step],
            "after": after,
            "train_op": [t.name for t in tf.get_collection(tf.GraphKeys.TRAIN_OP)],
            "global": [v.name for v in tf.global_variables()],
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_gan_train_ops_update_ops(tf):
    gan = gan_of(tf)
    noise, real = data()

    def gen(inputs):
        out = generator(tf)(inputs)
        count = tf.get_variable("count", [], initializer=tf.zeros_initializer(),
                                trainable=False)
        tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign_add(count, 1.0))
        return out
    model = gan.gan_model(gen, discriminator(tf), tf.constant(real), tf.constant(noise))
    loss = gan.gan_loss(model, add_summaries=False)
    opt = tf.train.GradientDescentOptimizer(0.1)
    ops = gan.gan_train_ops(model, loss, opt, opt)
    stray = tf.Variable(0.0, name="stray")
    tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign_add(stray, 1.0))
    unused = catch(lambda: gan.gan_train_ops(model, loss, opt, opt))
    unchecked = gan.gan_train_ops(model, loss, opt, opt, check_for_unused_update_ops=False)
    explicit = gan.gan_train_ops(model, loss, opt, opt, update_ops=[])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(ops.generator_train_op)
        sess.run(ops.discriminator_train_op)
        sess.run(unchecked.generator_train_op)
        sess.run(explicit.generator_train_op)
        counts = sess.run(["Generator/count:0", stray])
    return {"unused": unused, "counts": counts}


def case_cyclegan_train_ops(tf):
    gan = gan_of(tf)
    model = build_cyclegan(tf, gan)
    loss = gan.cyclegan_loss(model, add_summaries=False)
    opt = tf.train.GradientDescentOptimizer(0.1)
    ops = gan.gan_train_ops(model, loss, opt, opt)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        # One train op per run: the two directions share variables through the cycle
        # loss, so running them together would race in TF.
        values = [sess.run(op) for op in ops.generator_train_op + ops.discriminator_train_op]
        sess.run(ops.global_step_inc_op)
        after = sess.run(tf.trainable_variables())
    return {"names": [t.op.name for t in ops.generator_train_op + ops.discriminator_train_op]
            + [ops.global_step_inc_op.op.name], "values": values, "after": after,
            "hooks": list(ops.train_hooks)}


def _train(tf, gan, get_hooks_fn, steps):
    model, ops = _ops(tf, gan)
    last = gan.gan_train(ops, None, get_hooks_fn=get_hooks_fn,
                         hooks=[tf.train.StopAtStepHook(num_steps=steps)],
                         save_checkpoint_secs=None, save_summaries_steps=None)
    return last, model


def case_gan_train_sequential(tf):
    gan = gan_of(tf)
    values = {}
    last, model = _train(tf, gan, gan.get_sequential_train_hooks(gan.GANTrainSteps(2, 1)),
                         3)
    values["last"] = last
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values["init"] = sess.run(model.generator_variables[0])
    return values


def case_gan_train_results(tf):
    """Variable values after gan_train, read back through a checkpointing run."""
    import tempfile
    gan = gan_of(tf)
    out = {}
    for label, hooks_fn in (("sequential", gan.get_sequential_train_hooks()),
                            ("joint", gan.get_joint_train_hooks(gan.GANTrainSteps(1, 3))),
                            ("seq_2_2", gan.get_sequential_train_hooks(
                                gan.GANTrainSteps(2, 2)))):
        with tf.Graph().as_default():
            model, ops = _ops(tf, gan)
            logdir = tempfile.mkdtemp()
            last = gan.gan_train(ops, logdir, get_hooks_fn=hooks_fn,
                                 hooks=[tf.train.StopAtStepHook(num_steps=2)],
                                 save_summaries_steps=None)
            reader = tf.train.load_checkpoint(logdir)
            out[label] = {"last": last, "step": reader.get_tensor("global_step"),
                          **{v.op.name: reader.get_tensor(v.op.name)
                             for v in model.generator_variables
                             + model.discriminator_variables}}
    return out


def case_run_train_ops_hook(tf):
    gan = gan_of(tf)
    counter = tf.Variable(0, name="counter")
    other = tf.Variable(0, name="other")
    inc, inc2 = tf.assign_add(counter, 1), tf.assign_add(other, 10)
    hooks = [gan.RunTrainOpsHook(inc, 3), gan.RunTrainOpsHook([inc, inc2], 2)]
    step = tf.train.get_or_create_global_step()
    with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
        sess.run(step)
        sess.run(step)
        values = sess.run([counter, other])
    joint = gan.get_joint_train_hooks(gan.GANTrainSteps(3, 1))(
        gan.GANTrainOps(inc, inc2, step))
    seq = gan.get_sequential_train_hooks()(gan.GANTrainOps(inc, inc2, step, ["extra"]))
    return {"values": values, "joint": [type(h).__name__ for h in joint],
            "seq": [type(h).__name__ if not isinstance(h, str) else h for h in seq]}


def case_gan_train_ops_sync_replicas(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan)
    loss = gan.gan_loss(model, add_summaries=False)
    sync = [tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                           replicas_to_aggregate=1) for _ in range(2)]
    ops = gan.gan_train_ops(model, loss, sync[0], sync[1])
    return {"hooks": [type(h).__name__ for h in ops.train_hooks],
            "global": [v.op.name for v in tf.global_variables()
                       if v.op.name.startswith("dummy")],
            "local": len(tf.local_variables())}
