"""Horovod 0.28.1's Keras layer for the TF 2.21 oracle (recording only, never in CI).

Horovod cannot be installed next to the oracle's TF (it builds C++ ops against it), but
its Keras face (`horovod/_keras`, `horovod/tensorflow/keras`) is pure Python on top of
`horovod.tensorflow`. This runs those sources, read from a Horovod 0.28.1 tree at
$HOROVOD_SRC (default /tmp/horovod-0.28.1; `git archive v0.28.1 horovod/_keras
horovod/keras horovod/tensorflow/keras | tar -x -C /tmp/horovod-0.28.1` in a clone of
github.com/horovod/horovod), under real TF 2.21 + tf-keras, with `horovod.tensorflow`
replaced by a world of `size` processes whose collectives are the identity (what they are
when every process holds the same values). So names, configs, optimizer classes, callback
schedules and Keras' behaviour are Horovod's and TF's; no collective crosses processes.
"""

import importlib.util
import os
import sys
import types


def _module(name: str, **attrs) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


def _load(name: str, path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def horovod_keras(tf, size: int = 1):
    """`horovod.tensorflow.keras` from Horovod's sources over a stub horovod.tensorflow
    reporting `size` processes (rank 0)."""
    import tf_keras
    root = os.path.join(os.environ.get("HOROVOD_SRC", "/tmp/horovod-0.28.1"), "horovod")
    world = {"size": size}

    class ProcessSet:
        process_set_id = 0

        def size(self):
            return world["size"]

    class NoneCompressor:
        @staticmethod
        def compress(tensor):
            return tensor, None

        @staticmethod
        def decompress(tensor, ctx):
            return tensor

    class Compression:
        none = NoneCompressor

    def allreduce(tensor, average=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                  compression=None, device_dense="", **_):
        return tf.identity(tensor) * (prescale_factor * postscale_factor)

    def allreduce_grads_fn(name, *args, **kwargs):
        def run(grads, variables=None):
            with tf.name_scope(name + "_Allreduce"):
                return [None if g is None else tf.identity(g) for g in grads]
        return run

    def broadcast_variables(variables, root_rank, **_):
        return tf.group(*[v.assign(v.read_value()) for v in variables])

    process_set = ProcessSet()
    hvd_names = dict(
        init=lambda *a, **k: None, shutdown=lambda: None, is_initialized=lambda: True,
        size=lambda: world["size"], local_size=lambda: world["size"], cross_size=lambda: 1,
        rank=lambda: 0, local_rank=lambda: 0, cross_rank=lambda: 0,
        start_timeline=None, stop_timeline=None, mpi_threads_supported=lambda: False,
        mpi_enabled=lambda: False, mpi_built=lambda: False, gloo_enabled=lambda: True,
        gloo_built=lambda: True, nccl_built=lambda: False, ddl_built=lambda: False,
        ccl_built=lambda: False, cuda_built=lambda: False, rocm_built=lambda: False,
        Average=1, Sum=2, Adasum=3, allreduce=allreduce,
        allgather=lambda t, **_: tf.identity(t), broadcast=lambda t, r, **_: tf.identity(t),
        broadcast_variables=broadcast_variables,
        broadcast_global_variables=lambda r: broadcast_variables(tf.global_variables(), r),
        _executing_eagerly=tf.executing_eagerly, _make_allreduce_grads_fn=allreduce_grads_fn,
        global_process_set=process_set, ProcessSet=ProcessSet, add_process_set=None,
        remove_process_set=None, Compression=Compression,
        size_op=lambda **_: tf.constant(world["size"]))
    _module("horovod", __path__=[root])
    _module("horovod.common", __path__=[])
    _module("horovod.common.util", is_version_greater_equal_than=lambda a, b: True)
    _module("horovod.tensorflow", __path__=[os.path.join(root, "tensorflow")], **hvd_names)
    _module("horovod.tensorflow.mpi_ops", **hvd_names)
    _module("horovod.tensorflow.compression", Compression=Compression)
    _module("horovod.tensorflow.gradient_aggregation", LocalGradientAggregationHelper=None)
    _module("horovod.tensorflow.gradient_aggregation_eager",
            LocalGradientAggregationHelperEager=None)
    # Horovod 0.28 imports TF1-era Keras as `keras` (TF >= 2.6): tf-keras today, whose
    # full backend module (with TF1's get_session) is tf_keras.src.backend.
    from tf_keras.src import backend as keras_backend
    _module("keras", **{k: getattr(tf_keras, k) for k in dir(tf_keras)
                        if not k.startswith("__")})
    sys.modules["keras"].backend = keras_backend
    sys.modules["keras.backend"] = keras_backend
    _module("horovod._keras", __path__=[os.path.join(root, "_keras")])
    _load("horovod._keras", os.path.join(root, "_keras", "__init__.py"))
    _load("horovod._keras.callbacks", os.path.join(root, "_keras", "callbacks.py"))
    _module("horovod.tensorflow.keras", __path__=[os.path.join(root, "tensorflow", "keras")])
    _module("horovod.tensorflow.keras.elastic")
    _load("horovod.tensorflow.keras.callbacks",
          os.path.join(root, "tensorflow", "keras", "callbacks.py"))
    return _load("horovod.tensorflow.keras",
                 os.path.join(root, "tensorflow", "keras", "__init__.py"))
