"""`horovod.tensorflow` on torch.distributed: what `import horovod.tensorflow as hvd` gives
a TF1 script once `tf1compat.install()` (or `tf1compat run`) is active.

    hvd.init()
    config.gpu_options.visible_device_list = str(hvd.local_rank())
    opt = hvd.DistributedOptimizer(tf.train.AdamOptimizer(0.001 * hvd.size()))
    hooks = [hvd.BroadcastGlobalVariablesHook(0), tf.train.StopAtStepHook(...)]

Processes come from `torchrun` / `tf1compat run --nproc-per-node N` (process_group.py).
The ops are Horovod's (`collective_ops.py`). `DistributedOptimizer` averages gradients
across processes before the wrapped optimizer applies them; dense gradients of one dtype
travel in one fused buffer (a HorovodGroupedAllreduce, as Horovod's tensor fusion packs
them; HOROVOD_FUSION_THRESHOLD=0 gives one HorovodAllreduce per gradient), sparse
gradients (IndexedSlices) as two allgathers, as Horovod does.

Also Horovod's process sets (`process_sets.py`), `join` (`negotiation.py`), Adasum
(`adasum.py`; `DistributedOptimizer(op=hvd.Adasum)` combines the processes' model deltas),
`alltoall` and `reducescatter` (`scatter_ops.py`), `hvd.elastic` (`horovod_elastic.py`),
`backward_passes_per_step` (`gradient_aggregation.py`) and `DistributedGradientTape`
(`horovod_gradient_tape.py`). Not provided (NotImplementedError naming them): timelines
and MPI communicators.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

import torch
import torch.distributed as dist

from tf1compat.distribute import adasum as _adasum
from tf1compat.distribute import collective_ops as ops
from tf1compat.distribute import process_group as pg
from tf1compat.distribute import process_sets as _process_sets
from tf1compat.distribute import scatter_ops as _scatter
from tf1compat.distribute.gradient_aggregation import LocalGradientAggregation
from tf1compat.distribute.process_sets import (ProcessSet, add_process_set,
                                               global_process_set, remove_process_set)
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.graph import device as _device
from tf1compat.framework.graph import get_default_graph, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.control_flow_ops import group
from tf1compat.ops.math_ops import cast
from tf1compat.ops.state_ops import assign, assign_add
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.training.sessions.session_run_hook import SessionRunHook
from tf1compat.variables import collections as _var_collections

__all__ = [
    "init", "shutdown", "is_initialized", "size", "local_size", "cross_size", "rank",
    "local_rank", "cross_rank", "is_homogeneous", "mpi_threads_supported", "mpi_enabled",
    "mpi_built", "gloo_enabled", "gloo_built", "nccl_built", "ddl_built", "ccl_built",
    "cuda_built", "rocm_built", "start_timeline", "stop_timeline",
    "Average", "Sum", "Adasum", "Min", "Max", "Product",
    "allreduce", "grouped_allreduce", "allgather", "broadcast", "broadcast_variables",
    "broadcast_global_variables", "BroadcastGlobalVariablesHook", "DistributedOptimizer",
    "Compression", "Compressor", "NoneCompressor", "FP16Compressor",
    "size_op", "rank_op", "local_size_op", "local_rank_op", "ProcessSet",
    "global_process_set", "add_process_set", "remove_process_set", "allgather_object",
    "broadcast_object", "join", "alltoall", "reducescatter", "grouped_reducescatter",
    "grouped_allgather", "process_set_included_op", "DistributedGradientTape",
    "PartialDistributedGradientTape",
]

Average, Sum, Adasum, Min, Max, Product = (ops.AVERAGE, ops.SUM, ops.ADASUM, ops.MIN, ops.MAX,
                                           ops.PRODUCT)
size_op, rank_op = ops.size_op, ops.rank_op
process_set_included_op = ops.process_set_included_op
local_size_op, local_rank_op = ops.local_size_op, ops.local_rank_op


# -- basics ----------------------------------------------------------------------------------

def __getattr__(name: str) -> Any:
    # `hvd.elastic` (horovod_elastic.py builds on this module, so it loads on first use).
    if name == "elastic":
        import importlib
        return importlib.import_module("tf1compat.distribute.horovod_elastic")
    # The tapes (horovod_gradient_tape.py) build on this module too.
    if name in ("DistributedGradientTape", "PartialDistributedGradientTape"):
        import importlib
        return getattr(importlib.import_module("tf1compat.distribute.horovod_gradient_tape"),
                       name)
    raise AttributeError(f"module 'horovod.tensorflow' has no attribute '{name}'")


def init(comm: Any = None, process_sets: Any = None) -> None:
    """Joins the job started by torchrun / `tf1compat run --nproc-per-node N` (a world of
    one process without it)."""
    if comm is not None:
        raise NotImplementedError("hvd.init(comm=...): MPI communicators are not supported by "
                                  "tf1compat; processes come from torchrun")
    pg.init()
    _process_sets.setup(process_sets)


def shutdown() -> None:
    """Leaves the job (collectives raise until `init()` is called again)."""
    _process_sets.reset()
    pg.shutdown()


def is_initialized() -> bool:
    return pg.is_initialized()


def size() -> int:
    """The number of processes in the job."""
    return pg.world().size


def local_size() -> int:
    """The number of processes on this machine."""
    return pg.world().local_size


def cross_size() -> int:
    """The number of machines."""
    return pg.world().cross_size


def rank() -> int:
    """This process's rank in [0, size())."""
    return pg.world().rank


def local_rank() -> int:
    """This process's rank on its machine (the GPU it should use)."""
    return pg.world().local_rank


def cross_rank() -> int:
    """The rank of this process's machine."""
    return pg.world().cross_rank


def is_homogeneous() -> bool:
    """Whether every machine runs the same number of processes (torchrun's nproc-per-node)."""
    return True


def mpi_threads_supported() -> bool:
    pg.world()
    return False


def mpi_enabled() -> bool:
    return False


def mpi_built() -> bool:
    return False


def gloo_enabled() -> bool:
    return dist.is_gloo_available()


def gloo_built() -> bool:
    return dist.is_gloo_available()


def nccl_built() -> bool:
    return bool(torch.cuda.is_available() and dist.is_nccl_available())


def ddl_built() -> bool:
    return False


def ccl_built() -> bool:
    return False


def cuda_built() -> bool:
    return torch.version.cuda is not None


def rocm_built() -> bool:
    return getattr(torch.version, "hip", None) is not None


def _unsupported(what: str, instead: str = "") -> NotImplementedError:
    return NotImplementedError(f"horovod.tensorflow.{what} is not supported by tf1compat"
                               + (f"; {instead}" if instead else ""))


def start_timeline(file_path: str, mark_cycles: bool = False) -> None:
    raise _unsupported("start_timeline", "profile with torch.profiler")


def stop_timeline() -> None:
    raise _unsupported("stop_timeline", "profile with torch.profiler")


def join(device: str = "") -> Any:
    """Horovod's `join`: this process has no more data; until every process has joined it
    contributes zeros to the others' allreduces. An int32 scalar tensor: the last rank that
    joined (in a graph: run it in a session)."""
    with _device(device):
        return ops.join_op()


def _check_process_set(process_set: Any) -> None:
    if process_set is None or process_set.process_set_id is None:
        raise ValueError(f"{process_set} is not registered: pass it to hvd.init(process_sets="
                         "...) or hvd.add_process_set first")


def _set_size(process_set: Any) -> int:
    return _process_sets.members(process_set.process_set_id).size


# -- compression ------------------------------------------------------------------------------

class Compressor:
    """Compresses a tensor for the wire and restores it afterwards."""

    @staticmethod
    def compress(tensor: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def decompress(tensor: Any, ctx: Any) -> Any:
        raise NotImplementedError


class NoneCompressor(Compressor):
    """No compression (the default)."""

    @staticmethod
    def compress(tensor: Any) -> Any:
        return tensor, None

    @staticmethod
    def decompress(tensor: Any, ctx: Any) -> Any:
        return tensor


class FP16Compressor(Compressor):
    """Floating-point tensors travel as float16 and come back in their own dtype."""

    @staticmethod
    def compress(tensor: Any) -> Any:
        if tensor.dtype.is_floating:
            return cast(tensor, D.float16), tensor.dtype
        return tensor, tensor.dtype

    @staticmethod
    def decompress(tensor: Any, ctx: Any) -> Any:
        if ctx.is_floating:
            return cast(tensor, ctx)
        return tensor


class Compression:
    """`hvd.Compression.none` / `hvd.Compression.fp16`."""
    none = NoneCompressor
    fp16 = FP16Compressor


# -- collectives ------------------------------------------------------------------------------

def _reduce_op(op: Optional[int], average: Optional[bool]) -> int:
    """Horovod's handling of the deprecated `average` argument next to `op`."""
    if op is not None and average is not None:
        raise ValueError("The op parameter supersedes average. Please provide only one of them.")
    if average is not None:
        return Average if average else Sum
    return Average if op is None else op


def _sparse_allreduce(tensor: IndexedSlices, op: int, prescale_factor: float,
                      postscale_factor: float, ignore_name_scope: bool,
                      process_set: Any) -> IndexedSlices:
    if op == Adasum:
        raise NotImplementedError("The Adasum reduction does not currently support sparse "
                                  "tensors. As a workaround please pass sparse_as_dense=True "
                                  "to DistributedOptimizer")
    if op not in (Sum, Average):
        raise NotImplementedError("Only Sum and Average ops are supported with tf.IndexedSlices")
    if prescale_factor != 1.0 or postscale_factor != 1.0:
        raise NotImplementedError("Pre/postscale_factor are not supported with tf.IndexedSlices")
    values = ops.allgather_op(tensor.values, ignore_name_scope=ignore_name_scope,
                              process_set=process_set)
    indices = ops.allgather_op(tensor.indices, ignore_name_scope=ignore_name_scope,
                               process_set=process_set)
    if op == Average:
        values = values / cast(_set_size(process_set), values.dtype)
    return IndexedSlices(values, indices, dense_shape=tensor.dense_shape)


def allreduce(tensor: Any, average: Optional[bool] = None, device_dense: str = "",
              device_sparse: str = "", compression: Any = Compression.none,
              op: Optional[int] = None, prescale_factor: float = 1.0,
              postscale_factor: float = 1.0, name: Optional[str] = None,
              process_set: Any = global_process_set, ignore_name_scope: bool = False) -> Any:
    """Reduces `tensor` (a Tensor, Variable or IndexedSlices) across all processes;
    `op` is Average by default (IndexedSlices: allgathers of values and indices)."""
    _check_process_set(process_set)
    op = _reduce_op(op, average)
    if isinstance(tensor, IndexedSlices):
        with _device(device_sparse):
            return _sparse_allreduce(tensor, op, prescale_factor, postscale_factor,
                                     ignore_name_scope, process_set)
    if op == Adasum:
        _check_adasum(process_set)
    with _device(device_dense):
        tensor = convert_to_tensor(tensor)
        compressed, ctx = compression.compress(tensor)
        reduced = ops.allreduce_op(compressed, name=name, op=op,
                                   prescale_factor=prescale_factor,
                                   postscale_factor=postscale_factor,
                                   ignore_name_scope=ignore_name_scope,
                                   process_set=process_set)
        return compression.decompress(reduced, ctx)


def _check_adasum(process_set: Any) -> None:
    """Horovod's build-time refusals for Adasum on CPU."""
    if process_set.process_set_id != 0:
        raise NotImplementedError("Adasum does not support non-global process sets yet.")
    if not _adasum.is_power_of_2(size()):
        raise NotImplementedError("Running Adasum with non-power of 2 ranks is not supported "
                                  "yet.")


def grouped_allreduce(tensors: Sequence[Any], average: Optional[bool] = None,
                      device_dense: str = "", device_sparse: str = "",
                      compression: Any = Compression.none, op: Optional[int] = None,
                      prescale_factor: float = 1.0, postscale_factor: float = 1.0,
                      process_set: Any = global_process_set, ignore_name_scope: bool = False,
                      name: Optional[str] = None) -> List[Any]:
    """Reduces several tensors at once: dense ones of one dtype share one fused buffer."""
    _check_process_set(process_set)
    if not tensors:
        return list(tensors)
    op = _reduce_op(op, average)
    out: List[Any] = [None] * len(tensors)
    dense: Dict[Any, List[int]] = {}
    compressed: Dict[int, Any] = {}
    contexts: Dict[int, Any] = {}
    for i, t in enumerate(tensors):
        if isinstance(t, IndexedSlices):
            with _device(device_sparse):
                out[i] = _sparse_allreduce(t, op, prescale_factor, postscale_factor,
                                           ignore_name_scope, process_set)
            continue
        with _device(device_dense):
            compressed[i], contexts[i] = compression.compress(convert_to_tensor(t))
        dense.setdefault(compressed[i].dtype.base_dtype, []).append(i)
    if op == Adasum and dense:
        _check_adasum(process_set)
    with _device(device_dense):
        for k, indices in enumerate(dense.values()):
            group_name = name if name is None or len(dense) == 1 else f"{name}_{k}"
            reduced = ops.grouped_allreduce_op([compressed[i] for i in indices],
                                               name=group_name, op=op,
                                               prescale_factor=prescale_factor,
                                               postscale_factor=postscale_factor,
                                               ignore_name_scope=ignore_name_scope,
                                               process_set=process_set)
            for i, r in zip(indices, reduced):
                out[i] = compression.decompress(r, contexts[i])
    return out


def allgather(tensor: Any, name: Optional[str] = None, ignore_name_scope: bool = False,
              process_set: Any = global_process_set) -> Any:
    """Concatenates every process's `tensor` on dimension 0, in rank order."""
    _check_process_set(process_set)
    return ops.allgather_op(tensor, name=name, ignore_name_scope=ignore_name_scope,
                            process_set=process_set)


def grouped_allgather(tensors: Sequence[Any], name: Optional[str] = None,
                      ignore_name_scope: bool = False,
                      process_set: Any = global_process_set) -> List[Any]:
    """Allgathers of several tensors of one dtype in one operation."""
    _check_process_set(process_set)
    return ops.grouped_allgather_op([convert_to_tensor(t) for t in tensors], name=name,
                                    ignore_name_scope=ignore_name_scope,
                                    process_set=process_set)


def alltoall(tensor: Any, splits: Any = None, name: Optional[str] = None,
             ignore_name_scope: bool = False, process_set: Any = global_process_set) -> Any:
    """Sends rows `splits[k]` of `tensor` to rank k (equal shares without `splits`) and
    concatenates what every rank sent this one; with `splits` also the received splits."""
    _check_process_set(process_set)
    tensor = convert_to_tensor(tensor)
    if splits is not None:
        splits = convert_to_tensor(splits, dtype=D.int32)
    return _scatter.alltoall_op(tensor, splits, name=name,
                                ignore_name_scope=ignore_name_scope, process_set=process_set)


def reducescatter(tensor: Any, device_dense: str = "", compression: Any = Compression.none,
                  op: int = Average, name: Optional[str] = None,
                  process_set: Any = global_process_set, ignore_name_scope: bool = False,
                  prescale_factor: float = 1.0, postscale_factor: float = 1.0) -> Any:
    """The processes' sum (or average) of `tensor`, of which this rank keeps its share of
    dimension 0 (`d0 // size` rows, one more on the first `d0 % size` ranks)."""
    _check_process_set(process_set)
    with _device(device_dense):
        compressed, ctx = compression.compress(convert_to_tensor(tensor))
        reduced = _scatter.reducescatter_op(compressed, name=name, op=op,
                                            ignore_name_scope=ignore_name_scope,
                                            process_set=process_set,
                                            prescale_factor=prescale_factor,
                                            postscale_factor=postscale_factor)
        return compression.decompress(reduced, ctx)


def grouped_reducescatter(tensors: Sequence[Any], device_dense: str = "",
                          compression: Any = Compression.none, op: int = Average,
                          process_set: Any = global_process_set, prescale_factor: float = 1.0,
                          postscale_factor: float = 1.0) -> List[Any]:
    """Reducescatters of several tensors of one dtype in one operation."""
    _check_process_set(process_set)
    if not tensors:
        return tensors
    with _device(device_dense):
        compressed = [compression.compress(convert_to_tensor(t)) for t in tensors]
        reduced = _scatter.grouped_reducescatter_op(
            [c for c, _ in compressed], op=op, process_set=process_set,
            prescale_factor=prescale_factor, postscale_factor=postscale_factor)
        return [compression.decompress(r, ctx) for r, (_, ctx) in zip(reduced, compressed)]


def broadcast(tensor: Any, root_rank: int, name: Optional[str] = None,
              ignore_name_scope: bool = False, process_set: Any = global_process_set) -> Any:
    """`root_rank`'s value of `tensor` on every process."""
    _check_process_set(process_set)
    return ops.broadcast_op(tensor, root_rank, name=name, ignore_name_scope=ignore_name_scope,
                            process_set=process_set)


def broadcast_variables(variables: Sequence[Any], root_rank: int,
                        process_set: Any = global_process_set, inplace: bool = False) -> Any:
    """One op assigning every variable `root_rank`'s value."""
    _check_process_set(process_set)
    return group(*[assign(v, broadcast(v, root_rank, process_set=process_set))
                   for v in variables])


def broadcast_global_variables(root_rank: int) -> Any:
    """`broadcast_variables(tf.global_variables(), root_rank)` (graph mode)."""
    if _context.executing_eagerly():
        raise RuntimeError("hvd.broadcast_global_variables() does not support eager execution. "
                           "Please use `hvd.broadcast_variables(<model/optimizer variables>)` "
                           "instead.")
    return broadcast_variables(_var_collections.global_variables(), root_rank)


def allgather_object(obj: Any, session: Any = None, name: Optional[str] = None,
                     process_set: Any = global_process_set) -> List[Any]:
    """Every process's picklable `obj`, in rank order."""
    _check_process_set(process_set)
    members = _process_sets.members(process_set.process_set_id, "allgather_object")
    if members.size == 1:
        return [obj]
    out: List[Any] = [None] * members.size
    pg.collective("allgather_object",
                  lambda: dist.all_gather_object(out, obj, group=members.group))
    return out


def broadcast_object(obj: Any, root_rank: int = 0, session: Any = None,
                     name: Optional[str] = None,
                     process_set: Any = global_process_set) -> Any:
    """`root_rank`'s picklable `obj` on every process."""
    _check_process_set(process_set)
    members = _process_sets.members(process_set.process_set_id, "broadcast_object")
    if members.size == 1:
        return obj
    box = [obj]
    pg.collective("broadcast_object", lambda: dist.broadcast_object_list(
        box, src=root_rank, group=members.group))
    return box[0]


class BroadcastGlobalVariablesHook(SessionRunHook):
    """Broadcasts every global variable from `root_rank` once the session is created
    (after initialization or a restore), so all processes start from the same values."""

    def __init__(self, root_rank: int, device: str = ""):
        super().__init__()
        self.root_rank = root_rank
        self.bcast_op: Any = None
        self.device = device

    def begin(self) -> None:
        if not self.bcast_op or self.bcast_op.graph is not get_default_graph():
            with _device(self.device):
                self.bcast_op = broadcast_global_variables(self.root_rank)

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self.bcast_op)


# -- DistributedOptimizer -------------------------------------------------------------------------

def _fusion_enabled() -> bool:
    # Horovod's HOROVOD_FUSION_THRESHOLD=0 turns tensor fusion off.
    return os.environ.get("HOROVOD_FUSION_THRESHOLD", "") not in ("0",)


class GradientAllreducer:
    """Averages (or sums) a list of gradients across processes, as Horovod's
    `_make_allreduce_grads_fn`: one fused collective for all dense gradients (Horovod's
    tensor fusion), Horovod's `groups`, or one each (HOROVOD_FUSION_THRESHOLD=0); sparse
    gradients as allgathers unless `sparse_as_dense`."""

    def __init__(self, name: str, device_dense: str = "", device_sparse: str = "",
                 compression: Any = Compression.none, sparse_as_dense: bool = False,
                 op: int = Average, gradient_predivide_factor: float = 1.0,
                 groups: Any = None, process_set: Any = global_process_set):
        self._name = name
        self._process_set = process_set
        self._device_dense = device_dense
        self._device_sparse = device_sparse
        self._compression = compression
        self._sparse_as_dense = sparse_as_dense
        self._op = op
        # Average splits its scaling around the sum: 1/f before, f/size after.
        self._prescale = 1.0 / gradient_predivide_factor if op == Average else 1.0
        self._postscale = gradient_predivide_factor if op == Average else 1.0
        self._groups = groups

    def __call__(self, grads: List[Any], variables: List[Any]) -> List[Any]:
        with name_scope(self._name + "_Allreduce"):
            if self._sparse_as_dense:
                grads = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g
                         for g in grads]
            present = [i for i, g in enumerate(grads) if g is not None]
            out = list(grads)
            options = dict(device_dense=self._device_dense,
                           device_sparse=self._device_sparse, compression=self._compression,
                           op=self._op, prescale_factor=self._prescale,
                           postscale_factor=self._postscale, process_set=self._process_set)
            for members in self._group_indices(present, variables):
                if len(members) > 1 or self._groups is not None:
                    reduced = grouped_allreduce([grads[i] for i in members], **options)
                else:
                    reduced = [allreduce(grads[members[0]], **options)]
                for i, r in zip(members, reduced):
                    out[i] = r
            return out

    def _group_indices(self, present: List[int], variables: List[Any]) -> List[List[int]]:
        """Which gradients share a collective: Horovod's `groups`, else all of them (tensor
        fusion), else one each (HOROVOD_FUSION_THRESHOLD=0)."""
        groups = self._groups
        if isinstance(groups, list):
            by_name = {variables[i].name: i for i in present}
            out = []
            for member_vars in groups:
                members = [by_name.pop(v.name) for v in member_vars if v.name in by_name]
                if members:
                    out.append(members)
            return out + [[i] for i in present if i in by_name.values()]
        if isinstance(groups, int) and groups > 0:
            per = -(-len(present) // groups)
            return [present[k:k + per] for k in range(0, len(present), per)]
        if _fusion_enabled() and present:
            return [present]
        return [[i] for i in present]


def check_optimizer_options(op: int, gradient_predivide_factor: float,
                            backward_passes_per_step: int, num_groups: int,
                            groups: Any) -> Any:
    """Validates DistributedOptimizer's options as Horovod does (the unsupported ones raise
    NotImplementedError); returns the effective `groups`."""
    if gradient_predivide_factor != 1.0 and op != Average:
        raise ValueError("gradient_predivide_factor not supported with op != Average")
    if backward_passes_per_step <= 0:
        raise ValueError("backward_passes_per_step must be > 0")
    if num_groups and groups is None:
        groups = num_groups
    if groups is not None and not (isinstance(groups, list) or groups > 0):
        raise ValueError("groups should be a non-negative integer or a list of list of "
                         "tf.Variable.")
    return groups


class _DistributedOptimizer(Optimizer):
    """Wraps a tf.train optimizer: gradients are allreduced before they are applied."""

    def __init__(self, optimizer: Optimizer, name: Optional[str] = None,
                 use_locking: bool = False, device_dense: str = "", device_sparse: str = "",
                 compression: Any = Compression.none, sparse_as_dense: bool = False,
                 op: int = Average, gradient_predivide_factor: float = 1.0,
                 groups: Any = None, process_set: Any = global_process_set,
                 backward_passes_per_step: int = 1,
                 average_aggregated_gradients: bool = False):
        if name is None:
            name = f"Distributed{type(optimizer).__name__}"
        super().__init__(name=name, use_locking=use_locking)
        self._optimizer = optimizer
        self._process_set = process_set
        self._allreduce_grads = GradientAllreducer(name, device_dense, device_sparse,
                                                    compression, sparse_as_dense, op,
                                                    gradient_predivide_factor, groups,
                                                    process_set)
        self._aggregation: Optional[LocalGradientAggregation] = None
        if backward_passes_per_step > 1:
            if _context.executing_eagerly():
                raise ValueError("backward_passes_per_step > 1 is not yet supported for "
                                 "_LegacyOptimizer with eager execution.")
            self._aggregation = LocalGradientAggregation(
                backward_passes_per_step, self._allreduce_grads, sparse_as_dense,
                average_aggregated_gradients, rank(), name)

    def compute_gradients(self, *args: Any, **kwargs: Any) -> List[Any]:
        """The wrapped optimizer's gradients, averaged (allreduced) across processes
        (with `backward_passes_per_step`: accumulated, see gradient_aggregation.py)."""
        gradients = self._optimizer.compute_gradients(*args, **kwargs)
        grads, variables = zip(*gradients)
        if self._aggregation is not None:
            reduced = self._aggregation.compute_gradients(list(grads), list(variables))
        elif _set_size(self._process_set) == 1:
            return gradients
        else:
            reduced = self._allreduce_grads(list(grads), list(variables))
        return list(zip(reduced, variables))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        if self._aggregation is not None:
            grads_and_vars = list(grads_and_vars)
            return self._aggregation.apply_gradients(
                lambda: self._optimizer.apply_gradients(grads_and_vars,
                                                        global_step=global_step, name=name),
                [g for g, _ in grads_and_vars], global_step=global_step)
        return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                               name=name)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> List[str]:
        return self._optimizer.get_slot_names(*args, **kwargs)

    def variables(self, *args: Any, **kwargs: Any) -> list:
        return self._optimizer.variables(*args, **kwargs)


def DistributedOptimizer(optimizer: Optimizer, name: Optional[str] = None,  # noqa: N802
                         use_locking: bool = False, device_dense: str = "",
                         device_sparse: str = "", compression: Any = Compression.none,
                         sparse_as_dense: bool = False, backward_passes_per_step: int = 1,
                         op: int = Average, gradient_predivide_factor: float = 1.0,
                         average_aggregated_gradients: bool = False, num_groups: int = 0,
                         groups: Any = None, process_set: Any = global_process_set,
                         scale_local_gradients: bool = True) -> Optimizer:
    """Horovod's DistributedOptimizer for a tf.train optimizer (see the module docstring)."""
    _check_process_set(process_set)
    groups = check_optimizer_options(op, gradient_predivide_factor, backward_passes_per_step,
                                     num_groups, groups)
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"Provided optimizer doesn't inherit from either legacy TensorFlow "
                         f"or Keras optimizer: {optimizer}")
    if op == Adasum:
        if average_aggregated_gradients:
            raise ValueError("Adasum does not support average_aggregated_gradients == True")
        if process_set.process_set_id != 0:
            raise NotImplementedError("Adasum does not support process sets yet")
        return _DistributedAdasumOptimizer(optimizer, name, use_locking, device_dense,
                                           device_sparse, compression)
    return _DistributedOptimizer(optimizer, name, use_locking, device_dense, device_sparse,
                                 compression, sparse_as_dense, op, gradient_predivide_factor,
                                 groups, process_set, backward_passes_per_step,
                                 average_aggregated_gradients)


class _DistributedAdasumOptimizer(Optimizer):
    """Horovod's delta optimizer for `op=hvd.Adasum`: each process applies its own
    gradients with the wrapped optimizer, then the processes' model deltas (new value minus
    the value at the step's start, kept in a `delta_start` slot) are combined with Adasum
    and every process sets `start + combined delta`. (Horovod 0.28's TF1 class forwards
    `apply_gradients` straight to the wrapped optimizer, so its deltas are never combined;
    this applies the combination its docstring and `_apply_shared` describe.)"""

    def __init__(self, optimizer: Optimizer, name: Optional[str], use_locking: bool,
                 device_dense: str, device_sparse: str, compression: Any):
        if name is None:
            name = f"DistributedDelta{type(optimizer).__name__}"
        super().__init__(name=name, use_locking=use_locking)
        self._optimizer = optimizer
        self._device_dense = device_dense
        self._device_sparse = device_sparse
        self._compression = compression

    def compute_gradients(self, *args: Any, **kwargs: Any) -> List[Any]:
        """The wrapped optimizer's (local) gradients."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        grads_and_vars = list(grads_and_vars)
        variables = [v for g, v in grads_and_vars if g is not None]
        if not variables:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[str(v) for _, v in grads_and_vars]}.")
        with name_scope(self._name):
            starts = [self._zeros_slot(v, "delta_start", self._name) for v in variables]
            began = [assign(s, v, use_locking=self._use_locking)
                     for s, v in zip(starts, variables)]
        with control_dependencies(began):
            update = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                                     name=name)
        with control_dependencies([update]), name_scope(self._name + "_Adasum"):
            deltas = [v - s for v, s in zip(variables, starts)]
            combined = grouped_allreduce(deltas, device_dense=self._device_dense,
                                         device_sparse=self._device_sparse,
                                         compression=self._compression, op=Adasum) \
                if size() > 1 else deltas
            ends = [assign(v, assign_add(s, d, use_locking=self._use_locking),
                           use_locking=self._use_locking)
                    for v, s, d in zip(variables, starts, combined)]
        return group(*ends, name=name)

    def get_slot(self, var: Any, name: str) -> Any:
        mine = super().get_slot(var, name)
        return mine if mine is not None else self._optimizer.get_slot(var, name)

    def get_slot_names(self) -> List[str]:
        return super().get_slot_names() + self._optimizer.get_slot_names()

    def variables(self, *args: Any, **kwargs: Any) -> list:
        return self._optimizer.variables(*args, **kwargs)
