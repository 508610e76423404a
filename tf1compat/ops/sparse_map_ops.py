"""SparseTensors through queues: TF's AddSparseToTensorsMap, AddManySparseToTensorsMap and
TakeManySparseFromTensorsMap ops, and the helpers `tf.train.batch` & co. use with them.

A queue holds dense tensors only, so a SparseTensor is stored in a per-session map
(a resource named by the add op's `shared_name`, else its node name) and an int64
handle travels through the queue in its place; after `dequeue_many` the take op turns
the batch of handles back into one SparseTensor with a leading batch dimension (each
dimension the largest of the batch's), removing them from the map.
"""

from __future__ import annotations

import itertools
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, colocate_with
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import Dimension, TensorShape, dimension_value
from tf1compat.util.gil_lock import GilLock

__all__ = ["add_sparse_to_tensors_map", "add_many_sparse_to_tensors_map",
           "take_many_sparse_from_tensors_map", "store_sparse_tensors",
           "store_sparse_tensors_join", "restore_sparse_tensors"]

_Entry = Tuple[torch.Tensor, Any, Tuple[int, ...]]


class SparseTensorsMap:
    """One session's map: handle -> (indices, values, dense shape)."""

    def __init__(self, name: str):
        self.name = name
        self._entries: Dict[int, _Entry] = {}
        self._ids = itertools.count(1)
        self._lock = GilLock()     # shared by batching threads (util/gil_lock.py)

    def add(self, entry: _Entry) -> int:
        with self._lock:
            handle = next(self._ids)
            self._entries[handle] = entry
            return handle

    def take(self, handles: List[int]) -> List[_Entry]:
        with self._lock:
            for h in handles:
                if h not in self._entries:
                    raise errors.InvalidArgumentError(
                        None, None, f"Unable to find SparseTensor: {h} in map: {self.name}")
            return [self._entries.pop(h) for h in handles]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _map_of(node: Any, kctx: Any) -> SparseTensorsMap:
    name = _text(node.attrs["shared_name"]) or node.name
    key = ("sparse_tensors_map", _text(node.attrs["container"]), name)
    return kctx.runtime.op_resource(key, lambda: SparseTensorsMap(name))


def _check_sparse(indices: torch.Tensor, values: Any, shape: torch.Tensor) -> None:
    if indices.dim() != 2:
        raise errors.InvalidArgumentError(
            None, None, f"Input indices should be a matrix but received shape "
                        f"{list(indices.shape)}")
    if shape.dim() != 1:
        raise errors.InvalidArgumentError(
            None, None, f"Input shape should be a vector but received shape {list(shape.shape)}")


def _add_kernel(node: Any, kctx: Any) -> Any:
    sparse_map = _map_of(node, kctx)

    def add(indices: torch.Tensor, values: Any, shape: torch.Tensor) -> torch.Tensor:
        _check_sparse(indices, values, shape)
        handle = sparse_map.add((indices.clone(), _copy(values),
                                 tuple(int(d) for d in shape.tolist())))
        return torch.tensor(handle, dtype=torch.int64)
    return add


def _add_many_kernel(node: Any, kctx: Any) -> Any:
    sparse_map = _map_of(node, kctx)

    def add_many(indices: torch.Tensor, values: Any, shape: torch.Tensor) -> torch.Tensor:
        _check_sparse(indices, values, shape)
        dims = tuple(int(d) for d in shape.tolist())
        if len(dims) < 2:
            raise errors.InvalidArgumentError(
                None, None, f"Rank of input SparseTensor should be > 1, but saw rank: "
                            f"{len(dims)}")
        rows = indices[:, 0]
        handles = []
        for b in range(dims[0]):
            picked = torch.nonzero(rows == b).reshape(-1)
            sub_values = values[picked.numpy()] if not isinstance(values, torch.Tensor) \
                else values[picked]
            handles.append(sparse_map.add((indices[picked][:, 1:].clone(), _copy(sub_values),
                                           dims[1:])))
        return torch.tensor(handles, dtype=torch.int64)
    return add_many


def _copy(values: Any) -> Any:
    return values.clone() if isinstance(values, torch.Tensor) else values.copy()


def _take_many_kernel(node: Any, kctx: Any) -> Any:
    sparse_map = _map_of(node, kctx)
    dtype = node.attrs["dtype"]

    def take_many(handles: torch.Tensor) -> tuple:
        if handles.dim() != 1:
            raise errors.InvalidArgumentError(
                None, None, "sparse_handles should be a vector but received shape "
                            f"{list(handles.shape)}")
        entries = sparse_map.take([int(h) for h in handles.tolist()])
        rank = len(entries[0][2]) if entries else 0
        for i, (_, _, dims) in enumerate(entries):
            if len(dims) != rank:
                raise errors.InvalidArgumentError(
                    None, None, f"Inconsistent rank across SparseTensors: rank prior to "
                                f"SparseTensor[{i}] was: {rank} but rank of SparseTensor[{i}] "
                                f"is: {len(dims)}")
        indices = [torch.cat([torch.full((e[0].shape[0], 1), b, dtype=torch.int64),
                              e[0].long()], dim=1) for b, e in enumerate(entries)]
        shape = [len(entries)] + [max((e[2][k] for e in entries), default=0)
                                  for k in range(rank)]
        out_indices = torch.cat(indices) if indices else torch.zeros((0, rank + 1),
                                                                       dtype=torch.int64)
        if dtype == D.string:
            import numpy as np
            parts = [np.asarray(e[1], dtype=object).reshape(-1) for e in entries]
            out_values: Any = np.concatenate(parts) if parts else np.empty(0, dtype=object)
        else:
            out_values = torch.cat([e[1] for e in entries]) if entries else \
                torch.zeros(0, dtype=dtype.torch_dtype)
        return out_indices, out_values, torch.tensor(shape, dtype=torch.int64)
    return take_many


_MAP_ATTRS = {"container": "", "shared_name": ""}

declare("AddSparseToTensorsMap",
        inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
        outputs=["sparse_handle: int64"], attrs={"T": Type(), **_MAP_ATTRS},
        shape=lambda ctx: [TensorShape([])], kernel=_add_kernel, grad="none",
        stateful=True, cpu_only=True, doc="Stores a SparseTensor; returns its handle.")
declare("AddManySparseToTensorsMap",
        inputs=["sparse_indices: int64", "sparse_values: T", "sparse_shape: int64"],
        outputs=["sparse_handles: int64"], attrs={"T": Type(), **_MAP_ATTRS},
        shape=lambda ctx: [TensorShape([None])], kernel=_add_many_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="Stores each minibatch entry of a SparseTensor; returns their handles.")
declare("TakeManySparseFromTensorsMap", inputs=["sparse_handles: int64"],
        outputs=["sparse_indices: int64", "sparse_values: dtype", "sparse_shape: int64"],
        attrs={"dtype": Type(), **_MAP_ATTRS},
        shape=lambda ctx: [TensorShape([None, None]), TensorShape([None]),
                           TensorShape([None])],
        kernel=_take_many_kernel, grad="none", stateful=True, cpu_only=True,
        doc="The SparseTensors of `sparse_handles`, concatenated as one minibatch.")


# -- wrappers (TF's sparse_ops._add_sparse_to_tensors_map & co.) ----------------------------------

def add_sparse_to_tensors_map(sp_input: SparseTensor, container: Optional[str] = None,
                              shared_name: Optional[str] = None,
                              name: Optional[str] = None) -> Tensor:
    return apply_op("AddSparseToTensorsMap",
                    [sp_input.indices, sp_input.values, sp_input.dense_shape],
                    {"container": container or "", "shared_name": shared_name or ""},
                    name=name).outputs[0]


def add_many_sparse_to_tensors_map(sp_input: SparseTensor, container: Optional[str] = None,
                                   shared_name: Optional[str] = None,
                                   name: Optional[str] = None) -> Tensor:
    return apply_op("AddManySparseToTensorsMap",
                    [sp_input.indices, sp_input.values, sp_input.dense_shape],
                    {"container": container or "", "shared_name": shared_name or ""},
                    name=name).outputs[0]


def take_many_sparse_from_tensors_map(sparse_map_op: Any, sparse_handles: Any,
                                      rank: Optional[int] = None,
                                      name: Optional[str] = None) -> SparseTensor:
    """The SparseTensor batch of `sparse_handles`, from the map of `sparse_map_op`."""
    if sparse_map_op.type not in ("AddSparseToTensorsMap", "AddManySparseToTensorsMap"):
        raise TypeError("sparse_map_op must be one of AddSparseToTensorsMap or "
                        f"AddSparseToTensorsMap. Instead, found `{sparse_map_op.type}`.")
    with colocate_with(sparse_map_op):
        shared_name = sparse_map_op.get_attr("shared_name") or sparse_map_op.name
        op = apply_op("TakeManySparseFromTensorsMap", [sparse_handles],
                      {"dtype": sparse_map_op.get_attr("T"),
                       "container": sparse_map_op.get_attr("container"),
                       "shared_name": shared_name}, name=name)
    indices, values, shape = op.outputs
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)


# -- storing the SparseTensors of a batch (TF's input.py helpers) -------------------------------

class _SparseMetaData:
    """Whether a batched component is sparse, and then its map op and rank."""

    def __init__(self, sparse: bool, map_op: Any, rank: Any):
        self.sparse = sparse
        self.map_op = map_op
        self.rank = Dimension(rank) if not isinstance(rank, Dimension) else rank

    def __eq__(self, other: Any) -> bool:
        if self.sparse != other.sparse:
            return False
        if not self.sparse:
            return True
        if (self.map_op is not None) != (other.map_op is not None):
            return False
        return self.map_op == other.map_op and self.rank.is_compatible_with(other.rank)

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __str__(self) -> str:
        return f"[SparseMetaData({self.sparse}, {getattr(self.map_op, 'name', None)}, " \
               f"{self.rank})]"

    def merge_with(self, other: "_SparseMetaData") -> "_SparseMetaData":
        if self != other:
            raise ValueError(f"SparseMetaData objects are incompatible: {self} vs. {other}")
        if self.sparse:
            self.rank.merge_with(other.rank)
        return self


def store_sparse_tensors(tensor_list: Sequence[Any], enqueue_many: bool, keep_input: Tensor,
                         shared_map_ops: Optional[Sequence[Any]] = None
                         ) -> Tuple[List[Any], List[_SparseMetaData]]:
    """Replaces each SparseTensor of `tensor_list` by its map handle(s) (a [1] or [N, 1]
    int64 tensor); returns the new list and what `restore_sparse_tensors` needs."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.array_ops import expand_dims, shape
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.indexing_ops import gather
    from tf1compat.ops.cond import smart_cond
    from tf1compat.ops.sparse_math import sparse_retain
    shared = list(shared_map_ops or [None] * len(tensor_list))

    def store(t: Any, shared_map_op: Any) -> Any:
        if not isinstance(t, SparseTensor):
            return t
        map_name = shared_map_op.name if shared_map_op is not None else None
        if keep_input.shape.ndims == 1:
            t = sparse_retain(t, gather(keep_input, t.indices[:, 0]))
            return add_many_sparse_to_tensors_map(t, shared_name=map_name)
        if enqueue_many:
            out = smart_cond(keep_input,
                             lambda: add_many_sparse_to_tensors_map(t, shared_name=map_name),
                             lambda: -1 * ones(shape(t)[0:1], D.int64))
            out.set_shape([None])
            return out
        return smart_cond(keep_input,
                          lambda: add_sparse_to_tensors_map(t, shared_name=map_name),
                          lambda: constant(-1, D.int64))

    stored = [store(t, m) for t, m in zip(tensor_list, shared)]

    def storing_op(value: Any) -> Any:
        for inp in value.op.inputs:
            if inp.op.type in ("AddSparseToTensorsMap", "AddManySparseToTensorsMap"):
                return inp.op
        return value.op

    infos = []
    for t, value, shared_map_op in zip(tensor_list, stored, shared):
        if not isinstance(t, SparseTensor):
            infos.append(_SparseMetaData(False, None, None))
            continue
        rank = t.dense_shape.shape.with_rank(1).dims[0]
        if enqueue_many:
            rank -= 1
        infos.append(_SparseMetaData(True, shared_map_op or storing_op(value), rank))
    stored = [expand_dims(s, [-1]) if info.sparse else s for s, info in zip(stored, infos)]
    return stored, infos


def store_sparse_tensors_join(tensor_list_list: Sequence[Sequence[Any]], enqueue_many: bool,
                              keep_input: Tensor) -> Tuple[List[List[Any]], List[Any]]:
    """`store_sparse_tensors` for batch_join: every list shares the first list's maps."""
    first, infos = store_sparse_tensors(tensor_list_list[0], enqueue_many, keep_input)
    stored_list_list = [first]
    for tensor_list in tensor_list_list[1:]:
        stored, candidate = store_sparse_tensors(tensor_list, enqueue_many, keep_input,
                                                 [info.map_op for info in infos])
        if infos != candidate:
            raise ValueError(f"Inconsistent SparseTensors list: {tensor_list_list[0]} vs. "
                             f"{tensor_list}")
        infos = [info.merge_with(c) for info, c in zip(infos, candidate)]
        stored_list_list.append(stored)
    return stored_list_list, infos


def restore_sparse_tensors(stored_list: Any, infos: Sequence[_SparseMetaData]) -> Any:
    """The dequeued batch with SparseTensors taken back out of their maps."""
    from tf1compat.ops.array_ops import squeeze
    from tf1compat.ops.control_flow_ops import with_dependencies
    received_sequence = isinstance(stored_list, (list, tuple))
    if not received_sequence:
        stored_list = (stored_list,)
    tensors = [take_many_sparse_from_tensors_map(
        sparse_map_op=info.map_op, sparse_handles=squeeze(s, [1]),
        rank=dimension_value(info.rank + 1)) if info.sparse else s
        for s, info in zip(stored_list, infos)]
    if any(isinstance(x, SparseTensor) for x in tensors):
        values = [x.values if isinstance(x, SparseTensor) else x for x in tensors]

        def with_deps(x: Tensor) -> Tensor:
            return with_dependencies(values, x)
        ensured = [SparseTensor(indices=with_deps(x.indices), values=with_deps(x.values),
                                dense_shape=with_deps(x.dense_shape))
                   if isinstance(x, SparseTensor) else with_deps(x) for x in tensors]
    else:
        ensured = tensors
    # As TF: a one-component queue's dequeue is a lone tensor, and then the restored
    # tensor itself is returned (the dependency identities stay unused in the graph).
    return ensured if received_sequence else tensors[0]
