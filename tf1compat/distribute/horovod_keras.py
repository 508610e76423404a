"""`horovod.keras` and `horovod.tensorflow.keras` on torch.distributed: Horovod's Keras
face, what a TF1 Keras script gets from `import horovod.keras as hvd` (or
`horovod.tensorflow.keras`) once `tf1compat.install()` / `tf1compat run` is active.

    hvd.init()
    opt = hvd.DistributedOptimizer(tf.keras.optimizers.SGD(0.01 * hvd.size()))
    model.compile(loss=..., optimizer=opt)
    model.fit(x, y, callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(0),
                               hvd.callbacks.MetricAverageCallback()], ...)

`DistributedOptimizer` makes, as Horovod does, a subclass of the Keras optimizer's class
with the same class name (so a saved model loads without Horovod), built from the
optimizer's config, whose gradients are averaged across processes before they are applied:
in `get_gradients` (graph-mode `fit`), in `_compute_gradients` (`minimize`), or, when
`apply_gradients` receives gradients that did not come through either (eager `fit`, a
custom loop with `tape.gradient`), in `apply_gradients` (what Horovod does with TF's
`_aggregate_gradients`). The callbacks live in `horovod_keras_callbacks.py`.

Keras-level `allreduce`/`allgather`/`broadcast` take and return numpy values (evaluated in
Keras' session in graph mode). Both Horovod paths resolve to this one module; it has the
larger `horovod.tensorflow.keras` signatures; `elastic` is horovod_keras_elastic.py.
`backward_passes_per_step > 1` accumulates gradients as horovod.tensorflow does
(gradient_aggregation.py: in the graph, or under eager execution with Horovod's eager
helper's order). Not provided (NotImplementedError naming it): `op=Adasum` (Horovod's
Keras refuses it too).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Type

from tf1compat.distribute import horovod_tensorflow as _hvd
from tf1compat.distribute import horovod_keras_callbacks as callbacks
from tf1compat.distribute import horovod_keras_elastic as elastic
from tf1compat.distribute.gradient_aggregation import (EagerGradientAggregation,
                                                      LocalGradientAggregation)
from tf1compat.distribute.horovod_tensorflow import (  # noqa: F401  (Horovod's re-exports)
    Adasum, Average, Compression, ProcessSet, Sum, add_process_set, ccl_built, cross_rank,
    cross_size, cuda_built, ddl_built, global_process_set, gloo_built, gloo_enabled, init,
    is_initialized, local_rank, local_size, mpi_built, mpi_enabled, mpi_threads_supported,
    nccl_built, rank, remove_process_set, rocm_built, shutdown, size, start_timeline,
    stop_timeline)
from tf1compat.framework import context as _context
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.keras import backend as K
from tf1compat.keras.models import load_model as _keras_load_model
from tf1compat.keras.optimizers import OptimizerV2
from tf1compat.framework.constant_op import constant
from tf1compat.training.optimizers.optimizer import Optimizer as _TrainOptimizer

__all__ = [
    "init", "shutdown", "is_initialized", "size", "local_size", "cross_size", "rank",
    "local_rank", "cross_rank", "mpi_threads_supported", "mpi_enabled", "mpi_built",
    "gloo_enabled", "gloo_built", "nccl_built", "ddl_built", "ccl_built", "cuda_built",
    "rocm_built", "start_timeline", "stop_timeline", "Average", "Sum", "Adasum",
    "Compression", "ProcessSet", "global_process_set", "add_process_set",
    "remove_process_set", "DistributedOptimizer", "PartialDistributedOptimizer",
    "broadcast_global_variables", "allreduce", "allgather", "broadcast", "reducescatter",
    "load_model", "callbacks", "elastic",
]


class _DistributedKerasOptimizer:
    """Mixed in before a Keras optimizer class: gradients are allreduced before they are
    applied (see the module docstring for where)."""

    _hvd_allreduce: Callable[[List[Any], List[Any]], List[Any]]

    def _hvd_setup(self, name: Optional[str], allreducer_args: Tuple[Any, ...],
                   scale_local_gradients: bool, backward_passes_per_step: int = 1,
                   average_aggregated_gradients: bool = False) -> None:
        # Horovod names the optimizer (its name scopes) Distributed<Class>.
        base = next(c for c in type(self).__mro__[1:]
                    if not issubclass(c, _DistributedKerasOptimizer))
        self._name = name or f"Distributed{base.__name__}"
        self._hvd_allreduce = _hvd.GradientAllreducer(self._name, *allreducer_args)
        self._hvd_local_vars: Dict[int, Any] = {}
        self._hvd_scale_local = scale_local_gradients
        # True between a get_gradients/_compute_gradients and the apply_gradients after it.
        self._hvd_aggregated = False
        self._hvd_aggregation: Any = None
        if backward_passes_per_step > 1:
            sparse_as_dense = allreducer_args[3]
            if _context.executing_eagerly():
                self._hvd_aggregation = EagerGradientAggregation(
                    backward_passes_per_step, self._allreduce, sparse_as_dense,
                    average_aggregated_gradients)
                return
            self._hvd_aggregation = LocalGradientAggregation(
                backward_passes_per_step, self._allreduce, sparse_as_dense,
                average_aggregated_gradients, rank(), keras_session=True)

    def _reduce_or_accumulate(self, grads: List[Any], variables: List[Any]) -> List[Any]:
        if self._hvd_aggregation is None:
            return self._allreduce(grads, variables)
        self._hvd_aggregated = True
        return self._hvd_aggregation.compute_gradients(grads, variables)

    def register_local_var(self, var: Any) -> None:
        """Keeps `var`'s gradient local: it is not allreduced (only divided by size() when
        `scale_local_gradients`)."""
        self._hvd_local_vars[id(var)] = var

    def _allreduce(self, grads: Sequence[Any], variables: Sequence[Any]) -> List[Any]:
        self._hvd_aggregated = True
        grads, variables = list(grads), list(variables)
        shared = [i for i, v in enumerate(variables) if id(v) not in self._hvd_local_vars]
        out = list(grads)
        reduced = self._hvd_allreduce([grads[i] for i in shared],
                                      [variables[i] for i in shared])
        for i, g in zip(shared, reduced):
            out[i] = g
        if self._hvd_scale_local and self._hvd_local_vars:
            for i, (g, v) in enumerate(zip(grads, variables)):
                if g is not None and id(v) in self._hvd_local_vars:
                    out[i] = _scaled(g, 1.0 / size())
        return out

    def get_gradients(self, loss: Any, params: Any) -> List[Any]:
        """The gradients of `loss`, averaged across processes (graph-mode `fit`)."""
        grads = super().get_gradients(loss, params)  # type: ignore[misc]
        from tf1compat.util import nest
        return self._reduce_or_accumulate(list(grads), nest.flatten(params))

    def _compute_gradients(self, loss: Any, var_list: Any, grad_loss: Any = None,
                           tape: Any = None) -> List[Tuple[Any, Any]]:
        grads_and_vars = super()._compute_gradients(  # type: ignore[misc]
            loss, var_list, grad_loss=grad_loss, tape=tape)
        grads = [g for g, _ in grads_and_vars]
        variables = [v for _, v in grads_and_vars]
        return list(zip(self._reduce_or_accumulate(grads, variables), variables))

    def compute_gradients(self, loss: Any, var_list: Any, tape: Any = None
                          ) -> List[Tuple[Any, Any]]:
        """`(gradient, variable)` pairs, the gradients averaged across processes."""
        return self._compute_gradients(loss, var_list, None, tape)

    def apply_gradients(self, grads_and_vars: Any, name: Optional[str] = None,
                        experimental_aggregate_gradients: bool = True) -> Any:
        """Applies the gradients; ones that were not averaged yet are allreduced first."""
        grads_and_vars = list(grads_and_vars)
        if not self._hvd_aggregated and experimental_aggregate_gradients:
            variables = [v for _, v in grads_and_vars]
            grads = self._reduce_or_accumulate([g for g, _ in grads_and_vars], variables)
            grads_and_vars = list(zip(grads, variables))
        self._hvd_aggregated = False
        base = super(_DistributedKerasOptimizer, self)

        def apply() -> Any:
            return base.apply_gradients(  # type: ignore[attr-defined]
                grads_and_vars, name=name,
                experimental_aggregate_gradients=experimental_aggregate_gradients)
        if self._hvd_aggregation is None:
            return apply()
        return self._hvd_aggregation.apply_gradients(
            apply, [g for g, _ in grads_and_vars],
            iterations=self.iterations)  # type: ignore[attr-defined]


def _scaled(grad: Any, factor: float) -> Any:
    if isinstance(grad, IndexedSlices):
        return IndexedSlices(grad.values * factor, grad.indices, grad.dense_shape)
    return grad * factor


_DISTRIBUTED_CLASSES: Dict[type, type] = {}


def _distributed_class(cls: Type[OptimizerV2]) -> type:
    """The Horovod subclass of `cls`: same class name, so saved configs name `cls`."""
    if issubclass(cls, _DistributedKerasOptimizer):
        return cls
    if cls not in _DISTRIBUTED_CLASSES:
        _DISTRIBUTED_CLASSES[cls] = type(cls.__name__, (_DistributedKerasOptimizer, cls),
                                         {"__module__": cls.__module__})
    return _DISTRIBUTED_CLASSES[cls]


def DistributedOptimizer(optimizer: Any, name: Optional[str] = None,  # noqa: N802
                         device_dense: str = "", device_sparse: str = "",
                         compression: Any = Compression.none, sparse_as_dense: bool = False,
                         gradient_predivide_factor: float = 1.0, op: int = Average,
                         backward_passes_per_step: int = 1,
                         average_aggregated_gradients: bool = False, num_groups: int = 0,
                         groups: Any = None, process_set: Any = global_process_set,
                         scale_local_gradients: bool = True) -> Any:
    """A Keras optimizer like `optimizer` (a new instance made from its config, of a
    subclass of its class with the same name) whose gradients are averaged (op=Average)
    or summed (op=Sum) across processes before they are applied.

    A `tf.train.Optimizer` is wrapped by horovod.tensorflow's DistributedOptimizer
    instead (Keras' `compile` accepts either)."""
    if op not in (Average, Sum):
        raise ValueError("op currently only supports Average and Sum")
    _hvd._check_process_set(process_set)
    groups = _hvd.check_optimizer_options(op, gradient_predivide_factor,
                                          backward_passes_per_step, num_groups, groups)
    if isinstance(optimizer, _TrainOptimizer):
        return _hvd.DistributedOptimizer(
            optimizer, name=name, device_dense=device_dense, device_sparse=device_sparse,
            compression=compression, sparse_as_dense=sparse_as_dense, op=op,
            gradient_predivide_factor=gradient_predivide_factor, groups=groups,
            process_set=process_set, backward_passes_per_step=backward_passes_per_step,
            average_aggregated_gradients=average_aggregated_gradients)
    if not isinstance(optimizer, OptimizerV2):
        raise ValueError(f"Provided optimizer doesn't inherit from either legacy TensorFlow "
                         f"or Keras optimizer: {optimizer}")
    cls = _distributed_class(type(optimizer))
    wrapped = cls.from_config(optimizer.get_config())
    wrapped._hvd_setup(name, (device_dense, device_sparse, compression, sparse_as_dense, op,
                              gradient_predivide_factor, groups, process_set),
                       scale_local_gradients, backward_passes_per_step,
                       average_aggregated_gradients)
    return wrapped


def PartialDistributedOptimizer(optimizer: Any, name: Optional[str] = None,  # noqa: N802
                                device_dense: str = "", device_sparse: str = "",
                                compression: Any = Compression.none,
                                sparse_as_dense: bool = False,
                                gradient_predivide_factor: float = 1.0, op: int = Average,
                                groups: Any = None, process_set: Any = global_process_set,
                                local_layers: Any = None,
                                scale_local_gradients: bool = True) -> Any:
    """DistributedOptimizer whose `local_layers`' gradients stay local (not allreduced)."""
    from tf1compat.keras.engine.base_layer import Layer
    if local_layers is None:
        local_layers = []
    elif isinstance(local_layers, Layer):
        local_layers = [local_layers]
    elif not all(isinstance(layer, Layer) for layer in local_layers):
        raise ValueError("All local layers must be of tf.keras.layers.Layer type.")
    wrapped = DistributedOptimizer(optimizer, name=name, device_dense=device_dense,
                                   device_sparse=device_sparse, compression=compression,
                                   sparse_as_dense=sparse_as_dense,
                                   gradient_predivide_factor=gradient_predivide_factor, op=op,
                                   groups=groups, process_set=process_set,
                                   scale_local_gradients=scale_local_gradients)
    for layer in local_layers:
        for var in layer.trainable_weights:
            wrapped.register_local_var(var)
    return wrapped


# -- Keras-level collectives: numpy in, numpy out ----------------------------------------------

def _evaluate(op_or_tensor: Any) -> Any:
    """The value now: eagerly, or run in Keras' session (graph mode)."""
    if _context.executing_eagerly():
        return op_or_tensor.numpy() if hasattr(op_or_tensor, "numpy") else op_or_tensor
    return K.get_session().run(op_or_tensor)


def _in_keras_graph(build: Callable[[], Any]) -> Any:
    if _context.executing_eagerly():
        return _evaluate(build())
    with K.get_graph().as_default():
        return _evaluate(build())


def broadcast_global_variables(root_rank: int) -> Any:
    """Sets every global variable of Keras' graph to `root_rank`'s value (run in Keras'
    session)."""
    return _in_keras_graph(lambda: _hvd.broadcast_global_variables(root_rank))


def allreduce(value: Any, name: Optional[str] = None, average: Optional[bool] = None,
              prescale_factor: float = 1.0, postscale_factor: float = 1.0,
              op: Optional[int] = None, compression: Any = Compression.none) -> Any:
    """`value` (anything `tf.constant` takes) reduced across processes, as numpy."""
    return _in_keras_graph(lambda: _hvd.allreduce(
        constant(value, name=name), average=average, prescale_factor=prescale_factor,
        postscale_factor=postscale_factor, op=op, compression=compression))


def allgather(value: Any, name: Optional[str] = None) -> Any:
    """Every process's `value` concatenated on dimension 0 in rank order, as numpy."""
    return _in_keras_graph(lambda: _hvd.allgather(constant(value, name=name)))


def broadcast(value: Any, root_rank: int, name: Optional[str] = None) -> Any:
    """`root_rank`'s `value` on every process, as numpy."""
    return _in_keras_graph(lambda: _hvd.broadcast(constant(value, name=name), root_rank))


def reducescatter(value: Any, name: Optional[str] = None, op: int = Average) -> Any:
    """This rank's share (dimension 0) of the processes' reduction of `value`, as numpy."""
    return _in_keras_graph(lambda: _hvd.reducescatter(constant(value, name=name), op=op))


# -- loading --------------------------------------------------------------------------------------

def _keras_optimizer_classes() -> Iterable[type]:
    """Every public Keras optimizer class (subclasses of OptimizerV2, at any depth)."""
    pending = list(OptimizerV2.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not cls.__name__.startswith("_") and \
                not issubclass(cls, _DistributedKerasOptimizer):
            yield cls


def load_model(filepath: Any, custom_optimizers: Optional[Sequence[type]] = None,
               custom_objects: Optional[Dict[str, Any]] = None,
               compression: Any = Compression.none, legacy_opts: bool = False) -> Any:
    """`tf.keras.models.load_model` whose optimizer comes back wrapped in
    DistributedOptimizer (with its saved state), for any Keras optimizer and those in
    `custom_optimizers`."""
    def wrap(cls: type) -> Callable[..., Any]:
        return lambda **kwargs: DistributedOptimizer(cls(**kwargs), compression=compression)

    objects: Dict[str, Any] = {cls.__name__.lower(): wrap(cls)
                               for cls in _keras_optimizer_classes()}
    objects.update({cls.__name__: wrap(cls) for cls in custom_optimizers or ()})
    objects.update(custom_objects or {})
    return _keras_load_model(filepath, custom_objects=objects)
