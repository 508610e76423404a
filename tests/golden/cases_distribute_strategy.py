"""Golden cases: tf.distribute's TF1 API (MirroredStrategy, OneDeviceStrategy, replica
contexts, reduce, merge_call, input splitting, optimizers and Keras under a strategy).

Two replicas need two devices: the CPU is split into two logical devices, as TF's own
tests do. TF allows that only before its runtime starts, so this module is recorded in a
process of its own: `/tmp/tf/bin/python scripts/record_goldens.py cases_distribute_strategy`.
"""

import numpy as np

from tests.golden.harness import catch
from tests.golden.two_cpus import on_two_cpus


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 3).astype(np.float32)
    y = (x @ np.array([[1.], [-2.], [0.5]], np.float32) + 0.3).astype(np.float32)
    return x, y


@on_two_cpus
def case_strategy_properties(tf, devices):
    out = {}
    for name, make in (("mirrored1", lambda: tf.distribute.MirroredStrategy(devices[:1])),
                       ("mirrored2", lambda: tf.distribute.MirroredStrategy(devices)),
                       ("one_device", lambda: tf.distribute.OneDeviceStrategy("/cpu:0")),
                       ("central", lambda: tf.distribute.experimental.CentralStorageStrategy(
                           devices))):
        s = make()
        r = {"replicas": s.num_replicas_in_sync,
             "worker_devices": list(s.extended.worker_devices),
             "outside": [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(),
                         tf.distribute.get_replica_context() is not None]}
        with s.scope():
            r["scope"] = [tf.distribute.has_strategy(),
                          tf.distribute.in_cross_replica_context(),
                          tf.distribute.get_replica_context() is None,
                          tf.distribute.get_strategy() is s]

            def replica_fn():
                ctx = tf.distribute.get_replica_context()
                return [tf.distribute.in_cross_replica_context(), ctx.num_replicas_in_sync,
                        tf.get_default_graph().get_name_scope()]
            r["in_replica"] = s.experimental_local_results(
                s.extended.call_for_each_replica(replica_fn))
        out[name] = r
    out["default_replicas"] = tf.distribute.get_strategy().num_replicas_in_sync
    out["reduce_op"] = [str(tf.distribute.ReduceOp.SUM), tf.distribute.ReduceOp.MEAN.value]
    return out


@on_two_cpus
def case_custom_loop_mirrored(tf, devices):
    x, y = _data()
    out = {}
    for n in (1, 2):
        with tf.Graph().as_default():
            s = tf.distribute.MirroredStrategy(devices[:n])
            with s.scope():
                ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()
                it = s.make_dataset_iterator(ds)
                gs = tf.train.get_or_create_global_step()

                def step(inputs):
                    xx, yy = inputs
                    w = tf.get_variable("w", [3, 1], initializer=tf.ones_initializer())
                    b = tf.Variable(0.5, name="b")
                    loss = tf.losses.mean_squared_error(yy, tf.matmul(xx, w) + b)
                    train = tf.train.MomentumOptimizer(0.02, 0.9).minimize(loss,
                                                                           global_step=gs)
                    with tf.control_dependencies([train]):
                        return tf.identity(loss), replica_id_of(tf)
                losses, ids = s.experimental_run(step, it)
                mean = s.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)
                total = s.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)
                r = {"variables": sorted(v.name for v in tf.global_variables()),
                     # (not tf.trainable_variables(): TF leaves replica 1's component of
                     # a tf.Variable made in the replica function there, "b/replica_1:0")
                     "loss_names": [t.name for t in s.experimental_local_results(losses)]}
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(it.initialize())
                    r["steps"] = [sess.run([mean, total, gs]) for _ in range(3)]
                    r["ids"] = sess.run(list(s.experimental_local_results(ids)))
                    r["values"] = sess.run({v.op.name: v for v in tf.global_variables()})
            out[str(n)] = r
    return out


def replica_id_of(tf):
    return tf.distribute.get_replica_context().replica_id_in_sync_group


@on_two_cpus
def case_reduce_and_merge(tf, devices):
    s = tf.distribute.MirroredStrategy(devices)
    out = {}
    with s.scope():
        def values():
            rid = tf.cast(replica_id_of(tf), tf.float32)
            return tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) * (rid + 1.)
        per = s.run(values)
        reduced = {
            "sum": s.reduce("SUM", per, axis=None),
            "mean": s.reduce(tf.distribute.ReduceOp.MEAN, per, axis=None),
            "sum_axis0": s.reduce(tf.distribute.ReduceOp.SUM, per, axis=0),
            "mean_axis0": s.reduce(tf.distribute.ReduceOp.MEAN, per, axis=0),
            "mean_axis01": s.reduce(tf.distribute.ReduceOp.MEAN, per, axis=[0, 1]),
        }

        def all_reduce():
            ctx = tf.distribute.get_replica_context()
            v = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.
            return ctx.all_reduce(tf.distribute.ReduceOp.SUM, v), \
                ctx.all_reduce(tf.distribute.ReduceOp.MEAN, [v, 2. * v])

        summed, means = s.run(all_reduce)
        merged_args = []

        def with_merge():
            ctx = tf.distribute.get_replica_context()
            v = tf.cast(ctx.replica_id_in_sync_group, tf.float32) * 10.

            def merge_fn(strategy, value):
                merged_args.append([type(value).__name__,
                                    len(strategy.experimental_local_results(value)),
                                    tf.distribute.in_cross_replica_context()])
                return strategy.reduce(tf.distribute.ReduceOp.SUM, value, axis=None)
            return ctx.merge_call(merge_fn, args=(v,))
        merged = s.run(with_merge)
        with tf.Session() as sess:
            out["reduced"] = sess.run(reduced)
            out["all_reduce"] = sess.run([list(s.experimental_local_results(summed)),
                                          [list(s.experimental_local_results(m))
                                           for m in means]])
            out["merged"] = sess.run(list(s.experimental_local_results(merged)))
        out["merge_args"] = merged_args
        out["group_type"] = s.group(per).type

        def reduce_in_replica():
            return s.reduce(tf.distribute.ReduceOp.SUM, tf.constant(1.), axis=None)
        out["reduce_in_replica"] = catch(lambda: s.run(reduce_in_replica), message=True)
        out["non_distributed_sum"] = catch(
            lambda: s.reduce(tf.distribute.ReduceOp.SUM, tf.constant(1.), axis=None))
        with tf.Session() as sess:
            out["non_distributed_mean"] = sess.run(
                s.reduce(tf.distribute.ReduceOp.MEAN, tf.constant(3.), axis=None))
    out["duplicate_devices"] = catch(
        lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:0"]), message=True)
    other = tf.distribute.OneDeviceStrategy("/cpu:0")

    def nested():
        with s.scope(), other.scope():
            pass
    out["mixed_scopes"] = catch(nested)
    return out


@on_two_cpus
def case_input_splitting(tf, devices):
    s = tf.distribute.MirroredStrategy(devices)
    out = {}
    with s.scope():
        ds = tf.data.Dataset.range(11).batch(5)
        it = s.make_dataset_iterator(ds)
        nxt = s.experimental_local_results(it.get_next())
        it2 = s.experimental_distribute_dataset(
            tf.data.Dataset.range(8).batch(4)).make_initializable_iterator()
        nxt2 = s.experimental_local_results(it2.get_next())
        contexts = []

        def input_fn(ctx):
            contexts.append([ctx.num_replicas_in_sync, ctx.input_pipeline_id,
                             ctx.num_input_pipelines, ctx.get_per_replica_batch_size(8)])
            return tf.data.Dataset.range(12).batch(3)
        it3 = s.make_input_fn_iterator(input_fn)
        nxt3 = s.experimental_local_results(it3.get_next())
        with tf.Session() as sess:
            sess.run(it.initialize())
            out["split"] = [[v.tolist() for v in sess.run(list(nxt))] for _ in range(3)]
            sess.run(it2.initialize())
            out["distribute_dataset"] = [v.tolist() for v in sess.run(list(nxt2))]
            sess.run(it3.initialize())
            out["input_fn"] = [[v.tolist() for v in sess.run(list(nxt3))] for _ in range(2)]
        out["contexts"] = contexts
        out["indivisible"] = catch(
            lambda: tf.distribute.InputContext(1, 0, 2).get_per_replica_batch_size(5),
            message=True)
    return out


@on_two_cpus
def case_keras_under_scope(tf, devices):
    x, y = _data()
    out = {}
    for n in (1, 2):
        tf.keras.backend.clear_session()
        s = tf.distribute.MirroredStrategy(devices[:n])
        with s.scope():
            model = tf.keras.Sequential([
                tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,),
                                      kernel_initializer="ones"),
                tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(
                    0.1))])
            model.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
        history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        out[str(n)] = {"weights": [w.name for w in model.weights],
                  "history": history.history,
                  "evaluate": model.evaluate(x, y, batch_size=4, verbose=0),
                  "predict": model.predict(x[:3]),
                  "final": model.get_weights()}
    return out


@on_two_cpus
def case_batch_norm_moving_averages(tf, devices):
    """Moving statistics updated in replicas (tf.layers.batch_normalization): TF keeps
    MEAN-aggregated per-replica copies."""
    x, y = _data()
    out = {}
    for n in (1, 2):
        with tf.Graph().as_default():
            s = tf.distribute.MirroredStrategy(devices[:n])
            with s.scope():
                it = s.make_dataset_iterator(
                    tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat())

                def step(inputs):
                    xx, yy = inputs
                    h = tf.layers.batch_normalization(tf.layers.dense(
                        xx, 2, kernel_initializer=tf.ones_initializer()), training=True)
                    loss = tf.reduce_mean(tf.square(tf.reduce_sum(h, 1, keepdims=True) - yy))
                    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
                    with tf.control_dependencies([train]):
                        return tf.identity(loss)
                loss = s.reduce("MEAN", s.experimental_run(step, it), axis=None)
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    sess.run(it.initialize())
                    losses = [sess.run(loss) for _ in range(3)]
                    out[str(n)] = {"losses": losses, "values": sess.run(
                        {v.op.name: v for v in tf.global_variables()})}
    return out
