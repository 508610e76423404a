"""TF's `AutoShardDataset` op: one worker's share of a dataset of global batches, as a
multi-worker strategy's input (tf.distribute's auto-sharding, then its rebatching).

`auto_shard_policy` (tf.data.experimental.AutoShardPolicy, from the dataset's options):
- FILE: the pipeline's file readers (TFRecord, text line, fixed length, CSV datasets, also
  those a `flat_map`/`interleave` opens per file name) read every `num_workers`-th file,
  starting at this worker's index; each of this worker's global batches is then cut into
  `num_workers` consecutive parts (TF's rebatching to per-replica batches, of which a
  worker's replicas take all). Fewer files than workers: TF's InvalidArgumentError on the
  workers that get a file, an empty input on the others. A source that is not a file
  reader (range, tensors, a `map(tf.io.read_file)` of file names, an interleave whose
  function opens no reader): TF's NotFoundError ("Found an unshardable source dataset").
- AUTO: FILE where every source of the pipeline is a file reader, else DATA (silently: TF
  2.15 and 2.21 log the fallback only at VLOG level 2). Where the readers were visited
  before the source that is not one (`zip`/`concatenate` of a reader then a range), TF's
  rewrite leaves them sharded by file, and DATA then applies on top; so does this.
- DATA: every worker reads everything; each global batch is cut into `num_workers` parts
  and this worker keeps its own.
- OFF: every worker keeps every global batch whole.
Parts are cut along the first dimension, larger ones first (5 rows over 2: 3 + 2).
"""

from __future__ import annotations

import copy
from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.data import _runtime as rt
from tf1compat.data._ops import ELEMENT_SPEC_ATTRS, dataset_op, scalar_int
from tf1compat.data.experimental_options import AutoShardPolicy
from tf1compat.framework import errors

__all__ = ["AutoShardValue", "auto_shard_dataset", "shard_files"]


def _reads_files(value: Any) -> bool:
    return isinstance(getattr(value, "filenames", None), list)


def _opens_files(value: Any) -> bool:
    """A flat_map / interleave whose function builds a file reader."""
    return bool(getattr(value, "opens_files", False))


def shard_files(value: Any, num_workers: int, index: int) -> Tuple[Any, bool]:
    """`value` with its file sources reading this worker's share of their files, and
    whether every source of the pipeline was such a file source. As TF's search for the
    readers, inputs are visited in order and the search stops at the first source that is
    not a file reader (a range, tensors, a generator: TF's "unshardable source"); the
    readers met before it stay sharded (what TF's AUTO policy then also cuts by DATA)."""
    if _reads_files(value):
        sharded = copy.copy(value)
        sharded.filenames = list(value.filenames)[index::num_workers]
        sharded.file_count = len(value.filenames)
        return sharded, True
    if _opens_files(value):
        sharded = copy.copy(value)
        sharded.input = _FileNamesShard(value.input, num_workers, index)
        return sharded, True
    inputs = getattr(value, "inputs", None)
    if isinstance(inputs, (list, tuple)) and inputs and all(
            isinstance(v, rt.DatasetValue) for v in inputs):
        slots = [("inputs", k) for k in range(len(inputs))]
    else:
        slots = [(attr, None) for attr in ("input", "first", "second")
                 if isinstance(getattr(value, attr, None), rt.DatasetValue)]
    if not slots:
        return value, False
    sharded = copy.copy(value)
    if slots[0][0] == "inputs":
        sharded.inputs = list(inputs)
    for attr, k in slots:
        child = getattr(value, attr) if k is None else inputs[k]
        child, found = shard_files(child, num_workers, index)
        if k is None:
            setattr(sharded, attr, child)
        else:
            sharded.inputs[k] = child
        if not found:
            return sharded, False
    if slots[0][0] == "inputs":
        sharded.inputs = type(inputs)(sharded.inputs)
    return sharded, True


def _too_few_files(files: int, num_workers: int) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(
        None, None, f"Could not apply FILE based sharding: the dataset only has {files} "
                    f"file(s), which is not enough for the required {num_workers} "
                    "shards/workers. If you are using datasets with distribution strategy, "
                    "consider setting the auto sharding policy to either DATA or OFF using "
                    "the `experimental_distribute.auto_shard_policy` option of "
                    "`tf.data.Options()`. Or, split your input files into a larger number "
                    "of small files such that number of files is greater than number of "
                    "shards/workers.")


class _FileNamesShard(rt.DatasetValue):
    """Every `num_workers`-th file name from `index` (the input of a flat_map /
    interleave that opens them); too few names fail the workers that get one."""

    def __init__(self, input_value: Any, num_workers: int, index: int):
        self.input, self.num_workers, self.index = input_value, num_workers, index

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        names: List[Any] = []
        while True:
            element = source()
            if element is None:
                break
            names.append(element)
        if self.index < len(names) < self.num_workers:
            raise _too_few_files(len(names), self.num_workers)
        mine = iter(names[self.index::self.num_workers])
        return rt._FnIter(lambda: next(mine, None))


def _file_count(value: Any) -> Optional[int]:
    """The number of files of the first file source (before sharding)."""
    if _reads_files(value):
        return getattr(value, "file_count", len(value.filenames))
    for attr in ("input", "first", "second"):
        child = getattr(value, attr, None)
        if isinstance(child, rt.DatasetValue):
            found = _file_count(child)
            if found is not None:
                return found
    return None


def _parts(element: tuple, count: int) -> List[tuple]:
    """A batch cut into `count` parts along axis 0, larger parts first."""
    rows = len(element[0])
    sizes = [(rows + count - 1 - k) // count for k in range(count)]
    starts = np.cumsum([0] + sizes)
    return [tuple(c[starts[k]:starts[k + 1]] for c in element) for k in range(count)]


class AutoShardValue(rt.DatasetValue):
    """This worker's per-step elements (see the module docstring)."""

    def __init__(self, input_value: Any, num_workers: int, index: int, policy: int):
        if num_workers <= 0 or not 0 <= index < num_workers:
            raise errors.InvalidArgumentError(
                None, None, f"Index must be between 0 and {num_workers - 1} (currently "
                            f"index = {index}).")
        self.num_workers, self.index = num_workers, index
        policy = AutoShardPolicy(policy)
        self.by_file = False
        self.input = input_value
        if policy in (AutoShardPolicy.AUTO, AutoShardPolicy.FILE) and num_workers > 1:
            sharded, self.by_file = shard_files(input_value, num_workers, index)
            if not self.by_file and policy == AutoShardPolicy.FILE:
                raise errors.NotFoundError(
                    None, None, "Found an unshardable source dataset: a source of the "
                                "pipeline is not a file reader (FILE auto-sharding needs "
                                "every source to be a TFRecord/text/fixed-length/CSV reader, "
                                "or a flat_map/interleave opening one per file name)")
            # AUTO then applies DATA, to what TF's search sharded before it failed.
            self.input = sharded
        self.whole = policy == AutoShardPolicy.OFF

    def iterator(self) -> rt.Iter:
        source = self.input.iterator().get_next
        pending: List[tuple] = []
        files = _file_count(self.input) if self.by_file else None
        checked = [files is None or files >= self.num_workers]

        def get_next() -> Optional[tuple]:
            if pending:
                return pending.pop(0)
            element = source()
            if element is None:
                return None
            if not checked[0]:
                raise _too_few_files(files, self.num_workers)
            if self.whole or self.num_workers == 1:
                return element
            parts = _parts(tuple(element), self.num_workers)
            if self.by_file:        # (a batch smaller than the workers leaves parts empty)
                pending.extend(p for p in parts[1:] if len(p[0]))
                return parts[0]
            return parts[self.index]
        return rt._FnIter(get_next)


def _auto_shard(node: Any, kctx: Any) -> Any:
    policy = int(node.attrs.get("auto_shard_policy", 0))
    return lambda ds, n, i: AutoShardValue(ds, scalar_int(n), scalar_int(i), policy)


dataset_op("AutoShardDataset", ["input_dataset: variant", "num_workers: int64",
                                "index: int64"], _auto_shard,
           {**ELEMENT_SPEC_ATTRS, "auto_shard_policy": 0, "num_replicas": 0},
           common=False)      # TF's AutoShardDataset has no `metadata` attr


def auto_shard_dataset(dataset: Any, num_workers: int, index: int, num_replicas: int) -> Any:
    """`dataset` (global batches) as worker `index` of `num_workers` reads it: TF's
    AutoShardDataset op with the policy of the dataset's options."""
    from tf1compat.data import structure
    from tf1compat.data.dataset_ops import _int64
    from tf1compat.framework.tensor_shape import TensorShape
    policy = dataset.options().experimental_distribute.auto_shard_policy

    def unknown_rows(spec: Any) -> Any:
        shape = spec.shape
        if type(spec) is not structure.TensorSpec or shape.rank is None or shape.rank == 0:
            return spec
        return type(spec)(TensorShape([None] + shape.as_list()[1:]), spec.dtype)
    spec = structure.map_structure(unknown_rows, dataset.element_spec)
    return dataset._make("AutoShardDataset",
                         [dataset._variant_tensor, _int64(num_workers, "num_workers"),
                          _int64(index, "index")],
                         {"auto_shard_policy": int(policy), "num_replicas": num_replicas},
                         spec, [dataset])
