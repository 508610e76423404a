"""Golden cases: horovod.tensorflow.keras in one process. The oracle is Horovod 0.28.1's own
Keras sources run under TF 2.21 + tf-keras, over a stand-in horovod.tensorflow whose
collectives are the identity (scripts/oracle_horovod.py): DistributedOptimizer's class,
config, variable names and training, the warmup / schedule callbacks' learning rates and
momentum corrections for a reported world of 2, MetricAverageCallback's variables,
load_model's re-wrapped optimizer and the numpy collectives."""

import contextlib
import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance
from tests.golden.keras_util import data, history, mlp, weights_of


@contextlib.contextmanager
def _horovod(tf, size=1):
    """horovod.tensorflow.keras, with hvd.size() reporting `size` (the callbacks' formulas
    read it; no collective crosses processes in these cases)."""
    if not hasattr(tf, "install"):
        import oracle_horovod
        yield oracle_horovod.horovod_keras(tf, size)
        return
    tf.install()
    import horovod.tensorflow.keras as hvd
    from tf1compat.distribute import horovod_tensorflow as core
    hvd.init()
    real_size = core.size
    core.size = lambda: size
    try:
        yield hvd
    finally:
        core.size = real_size
        hvd.shutdown()


def _names(variables):
    return sorted(v.name for v in variables)


@tolerance(rtol=2e-5, atol=1e-6)
def case_distributed_optimizer_fit(tf):
    with _horovod(tf) as hvd:
        model = mlp(tf)
        opt = hvd.DistributedOptimizer(tf.keras.optimizers.SGD(0.1, momentum=0.9))
        model.compile(loss="mse", optimizer=opt)
        x, y = data(8)
        h = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
        named = hvd.DistributedOptimizer(tf.keras.optimizers.Adam(0.01), name="MyAdam")
        return {"class": type(opt).__name__,
                "is_sgd": isinstance(opt, tf.keras.optimizers.SGD),
                "config": sorted(opt.get_config().items()),
                "named_config": sorted(named.get_config().items()),
                "optimizer_variables": _names(opt.weights),
                "global_variables": _names(tf.global_variables()),
                "history": history(h), "weights": weights_of(model)}


class _Record:
    """The lr and momentum each batch runs with (after the schedule callbacks)."""

    @staticmethod
    def make(tf):
        K = tf.keras.backend

        class Record(tf.keras.callbacks.Callback):
            def __init__(self):
                super().__init__()
                self.seen = []

            def on_batch_begin(self, batch, logs=None):
                opt = self.model.optimizer
                self.seen.append([float(K.get_value(opt.lr)),
                                  float(K.get_value(opt.momentum))])
        return Record()


@tolerance(rtol=1e-6, atol=1e-7)
def case_warmup_and_schedule_callbacks(tf):
    with _horovod(tf, size=2) as hvd:
        model = mlp(tf)
        model.compile(loss="mse", optimizer=hvd.DistributedOptimizer(
            tf.keras.optimizers.SGD(0.2, momentum=0.5)))
        record = _Record.make(tf)
        x, y = data(6)
        h = model.fit(x, y, batch_size=2, epochs=5, shuffle=False, verbose=0, callbacks=[
            hvd.callbacks.LearningRateWarmupCallback(0.2, warmup_epochs=2),
            hvd.callbacks.LearningRateScheduleCallback(0.2, 0.5, start_epoch=2, end_epoch=4),
            hvd.callbacks.LearningRateScheduleCallback(
                0.2, lambda epoch: 0.1 * (epoch + 1), start_epoch=4, staircase=False,
                momentum_correction=False),
            record])
        return {"seen": record.seen, "history": history(h)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_metric_average_and_broadcast_callbacks(tf):
    with _horovod(tf) as hvd:
        model = mlp(tf)
        model.compile(loss="mse", optimizer=hvd.DistributedOptimizer(
            tf.keras.optimizers.SGD(0.1)), metrics=["mae"])
        x, y = data(8)
        h = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[
            hvd.callbacks.BroadcastGlobalVariablesCallback(0),
            hvd.callbacks.MetricAverageCallback()])
        return {"history": history(h), "weights": weights_of(model),
                "variables": [n for n in _names(tf.global_variables())
                              if n.startswith("MetricAverageCallback")]}


@tolerance(rtol=2e-5, atol=1e-6)
def case_load_model_rewraps_the_optimizer(tf):
    with _horovod(tf) as hvd, tempfile.TemporaryDirectory() as tmp:
        model = mlp(tf)
        model.compile(loss="mse", optimizer=hvd.DistributedOptimizer(
            tf.keras.optimizers.Adam(0.01)))
        x, y = data(8)
        model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
        path = os.path.join(tmp, "model.h5")
        model.save(path)
        # legacy_opts: TF1's Keras optimizers are tf-keras's legacy ones (no-op in tf1compat).
        loaded = hvd.load_model(path, legacy_opts=True)
        opt = loaded.optimizer
        return {"class": type(opt).__name__,
                "is_adam": isinstance(opt, tf.keras.optimizers.Adam),
                "has_register_local_var": hasattr(opt, "register_local_var"),
                "config": sorted(opt.get_config().items()),
                "optimizer_weights": [np.asarray(w) for w in opt.get_weights()],
                "weights": weights_of(loaded)}


def case_numpy_collectives(tf):
    with _horovod(tf) as hvd:
        values = {"allreduce": hvd.allreduce(np.array([1.0, 3.0])),
                  "allreduce_sum": hvd.allreduce([2.0, 4.0], op=hvd.Sum),
                  "allreduce_scaled": hvd.allreduce(np.float32(2.0), prescale_factor=3.0),
                  "allgather": hvd.allgather(np.array([[1, 2]], np.int32)),
                  "broadcast": hvd.broadcast(np.float64(5.0), root_rank=0)}
        return {k: {"value": np.asarray(v), "type": type(v).__name__,
                    "dtype": str(np.asarray(v).dtype)} for k, v in values.items()}
