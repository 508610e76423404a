"""`hvd.DistributedGradientTape` / `hvd.PartialDistributedGradientTape` of horovod.tensorflow.

    with tf.GradientTape() as tape:
        loss = loss_fn(model(x))
    tape = hvd.DistributedGradientTape(tape)
    grads = tape.gradient(loss, variables)   # averaged across the processes

The wrapper is an instance of a subclass of the wrapped tape's own class (as Horovod builds
it, so `isinstance(tape, tf.GradientTape)` holds) sharing what the wrapped tape recorded;
its `gradient` computes the local gradients, then allreduces those of the sources not
registered as local (`register_local_source`) with horovod_tensorflow's
`GradientAllreducer` (the same fused collectives as DistributedOptimizer), and with
`scale_local_gradients` divides the local sources' gradients by the process set's size, as
Horovod does.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from tf1compat.distribute import horovod_tensorflow as _hvd
from tf1compat.framework.indexed_slices import IndexedSlices

__all__ = ["DistributedGradientTape", "PartialDistributedGradientTape"]


class _DistributedGradientTapeMixin:
    """The methods Horovod's tape adds to (or overrides in) the wrapped tape's class."""

    _allreduce_grads: _hvd.GradientAllreducer
    process_set: Any
    scale_local_gradients: bool
    _local_sources: dict

    def register_local_source(self, source: Any) -> None:
        """Makes `source` worker-local: its gradient is not reduced across processes."""
        self._local_sources[id(source)] = source

    def _is_local(self, source: Any) -> bool:
        return id(source) in self._local_sources

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 use_generic_names: bool = False) -> List[Any]:
        """The tape's gradients of `target`, the global sources' ones reduced across the
        process set (`use_generic_names` only names the collectives in Horovod)."""
        sources = list(sources)
        gradients = list(super().gradient(target, sources, output_gradients))  # type: ignore[misc]
        global_index = [i for i, s in enumerate(sources) if not self._is_local(s)]
        reduced = self._allreduce_grads([gradients[i] for i in global_index],
                                        [sources[i] for i in global_index])
        for i, g in zip(global_index, reduced):
            gradients[i] = g
        if self.scale_local_gradients and self._local_sources:
            scale = float(_hvd._set_size(self.process_set))
            for i, (s, g) in enumerate(zip(sources, gradients)):
                if g is None or not self._is_local(s):
                    continue
                gradients[i] = (IndexedSlices(g.values / scale, g.indices, g.dense_shape)
                                if isinstance(g, IndexedSlices) else g / scale)
        return gradients

    def get_local_and_global_gradients(self, target: Any, sources: Any,
                                       output_gradients: Any = None,
                                       use_generic_names: bool = False
                                       ) -> Tuple[List[Tuple[Any, Any]], List[Tuple[Any, Any]]]:
        """`gradient`'s (source, gradient) pairs split into the local and the global ones."""
        sources = list(sources)
        gradients = self.gradient(target, sources, output_gradients, use_generic_names)
        local, global_ = [], []
        for s, g in zip(sources, gradients):
            (local if self._is_local(s) else global_).append((s, g))
        return local, global_


def DistributedGradientTape(gradtape: Any, device_dense: str = "",  # noqa: N802
                            device_sparse: str = "", compression: Any = None,
                            sparse_as_dense: bool = False, op: int = _hvd.Average,
                            gradient_predivide_factor: float = 1.0, num_groups: int = 0,
                            groups: Any = None, process_set: Any = None,
                            scale_local_gradients: bool = True) -> Any:
    """A tape wrapping `gradtape` whose `gradient` allreduces the gradients (see the module
    docstring); Horovod's arguments and checks."""
    process_set = _hvd.global_process_set if process_set is None else process_set
    compression = _hvd.Compression.none if compression is None else compression
    _hvd._check_process_set(process_set)
    if gradient_predivide_factor != 1.0 and op != _hvd.Average:
        raise ValueError("gradient_predivide_factor not supported with op != Average")
    if num_groups != 0 and groups is None:
        groups = num_groups
    if groups is not None and not (isinstance(groups, list) or groups > 0):
        raise ValueError("groups should be a non-negative integer or a list of list of "
                         "tf.Variable.")
    base = type(gradtape)
    if issubclass(base, _DistributedGradientTapeMixin):
        # Wrapping a wrapper wraps what it wraps (its own reduction is replaced).
        base = next(c for c in base.__mro__[1:]
                    if not issubclass(c, _DistributedGradientTapeMixin))
    cls = type(base.__name__, (_DistributedGradientTapeMixin, base), {})
    tape = cls.__new__(cls)
    # The new tape shares what `gradtape` recorded (Horovod hands it the same C tape).
    tape.__dict__.update(gradtape.__dict__)
    tape._allreduce_grads = _hvd.GradientAllreducer(
        "DistributedGradientTape", device_dense, device_sparse, compression, sparse_as_dense,
        op, gradient_predivide_factor, groups, process_set)
    tape.process_set = process_set
    tape.scale_local_gradients = scale_local_gradients
    tape._local_sources = {}
    return tape


def PartialDistributedGradientTape(gradtape: Any, device_dense: str = "",  # noqa: N802
                                   device_sparse: str = "", compression: Any = None,
                                   sparse_as_dense: bool = False, op: int = _hvd.Average,
                                   gradient_predivide_factor: float = 1.0,
                                   num_groups: int = 0, groups: Any = None,
                                   process_set: Any = None,
                                   local_layers: Optional[Sequence[Any]] = None,
                                   scale_local_gradients: bool = True) -> Any:
    """DistributedGradientTape whose `local_layers`' trainable weights stay local."""
    tape = DistributedGradientTape(gradtape, device_dense, device_sparse, compression,
                                   sparse_as_dense, op, gradient_predivide_factor, num_groups,
                                   groups, process_set, scale_local_gradients)
    if local_layers is None:
        local_layers = []
    elif not isinstance(local_layers, (list, tuple)):
        local_layers = [local_layers]
    # A Keras layer is what has trainable weights (keras sits above this package).
    if not all(hasattr(layer, "trainable_weights") for layer in local_layers):
        raise ValueError("All local layers must be of tf.keras.layers.Layer type.")
    for layer in local_layers:
        for weight in layer.trainable_weights:
            tape.register_local_source(weight)
    return tape
