"""`tf.train.Saver`: name-keyed checkpoints, built from TF's graph of save/restore ops.

The Saver adds TF's ops under the `save` name scope (`save/filename`, `save/Const`,
`save/SaveV2`, `save/control_dependency`, `save/RestoreV2`, `save/Assign`, ...,
`save/restore_all`; the sharded layout with ShardedFilename / MergeV2Checkpoints), so
op names, `as_saver_def()` and running `saver_def.restore_op_name` by hand behave as in
TF. The ops' kernels (ops/io_ops.py) write checkpoints in TF's layout (`<prefix>.index` +
`<prefix>.data-00000-of-00001`, a data shard that is also a safetensors file) atomically,
and read those, TF's own, and earlier tf1compat `.safetensors` files. `write_version=V1`
writes TF's V1 file instead (`save/save`, a SaveSlices op: ops/io_ops_v1.py; one file per
shard when sharded), which RestoreV2 reads as TF's does.

`save` runs the save tensor, records the checkpoint (`last_checkpoints`), rewrites the
`checkpoint` state file and deletes checkpoints beyond `max_to_keep` (keeping one every
`keep_checkpoint_every_n_hours`), then exports the `.meta` graph. `restore` runs the
restore op; it is all-or-nothing: RestoreV2 reads and checks every tensor before any
Assign runs, and if an Assign still fails (a shape mismatch) the session's variables are
put back as they were. An object-based checkpoint restores through its object graph's
full names, as TF's Saver falls back to.
"""

from __future__ import annotations

import collections
import os
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.framework import context as _context
from tf1compat.framework import errors
from tf1compat.framework.device_spec import canonical_name
from tf1compat.framework.graph import (control_dependencies, device, get_default_graph,
                                       name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.graph_scopes import prepend_name_scope, strip_name_scope
from tf1compat.ops import io_ops, io_ops_v1
from tf1compat.training.saving import checkpoint_state, saveable
from tf1compat.serialization.messages import SaverDef

__all__ = ["Saver", "BaseSaverBuilder", "BulkSaverBuilder", "SaverDef",
           "object_graph_key_mapping", "saver_from_object_based_checkpoint"]


# -- builders -----------------------------------------------------------------------------------

class BaseSaverBuilder:
    """Adds the save and restore ops of a Saver (TF's BaseSaverBuilder)."""

    SaveSpec = saveable.SaveSpec
    SaveableObject = saveable.SaveableObject
    VariableSaveable = saveable.ReferenceVariableSaveable
    ResourceVariableSaveable = saveable.ResourceVariableSaveable

    def __init__(self, write_version: int = SaverDef.V2):
        self._write_version = write_version

    def save_op(self, filename_tensor: Tensor, saveables: Sequence[Any]) -> Any:
        tensor_names, tensors, tensor_slices = [], [], []
        for item in saveables:
            for spec in item.specs:
                tensor_names.append(spec.name)
                tensors.append(spec.tensor)
                tensor_slices.append(spec.slice_spec)
        if self._write_version == SaverDef.V2:
            return io_ops.save_v2(filename_tensor, tensor_names, tensor_slices, tensors)
        if self._write_version == SaverDef.V1:
            # TF's V1 checkpoint file (ops/io_ops_v1.py); RestoreV2 reads it back.
            return io_ops_v1.save_slices(filename_tensor, tensor_names, tensor_slices,
                                         tensors)
        raise RuntimeError(f"Unexpected write_version: {self._write_version}")

    def bulk_restore(self, filename_tensor: Tensor, saveables: Sequence[Any],
                     preferred_shard: int, restore_sequentially: bool) -> List[Tensor]:
        all_tensors = []
        for item in saveables:
            dev = saveable.set_cpu0(item.device) if item.device else None
            with device(dev):
                all_tensors.extend(self.restore_op(filename_tensor, item, preferred_shard))
        return all_tensors

    def restore_op(self, filename_tensor: Tensor, item: Any,
                   preferred_shard: int) -> List[Tensor]:
        return [io_ops.restore_v2(filename_tensor, [spec.name], [spec.slice_spec],
                                  [spec.dtype])[0] for spec in item.specs]

    def sharded_filename(self, filename_tensor: Tensor, shard: int, num_shards: Tensor
                         ) -> Tensor:
        return io_ops.sharded_filename(filename_tensor, shard, num_shards)

    def _AddSaveOps(self, filename_tensor: Tensor,  # noqa: N802
                    saveables: Sequence[Any]) -> Tensor:
        from tf1compat.ops.control_flow_ops import with_dependencies
        save = self.save_op(filename_tensor, saveables)
        return with_dependencies([save], filename_tensor)

    def _AddShardedSaveOpsForV2(self, checkpoint_prefix: Tensor,  # noqa: N802
                                per_device: List[Tuple[str, List[Any]]]) -> Tensor:
        from tf1compat.framework.constant_op import constant
        from tf1compat.ops.array_ops import identity
        from tf1compat.ops.indexing_ops import where
        with device("CPU"):
            # Shards are written next to the prefix, then merged into it.
            suffix = where(io_ops.regex_full_match(checkpoint_prefix, "^s3://.*"),
                           constant(".part"), constant(os.path.normpath("_temp/part")))
            tmp_prefix = io_ops.string_join([checkpoint_prefix, suffix])
        num_shards = len(per_device)
        sharded_saves, sharded_prefixes = [], []
        num_shards_tensor = constant(num_shards, name="num_shards")
        last_device = None
        for shard, (dev, items) in enumerate(per_device):
            last_device = dev
            with device(saveable.set_cpu0(dev)):
                filename = self.sharded_filename(tmp_prefix, shard, num_shards_tensor)
                sharded_prefixes.append(filename)
                sharded_saves.append(self._AddSaveOps(filename, items))
        with control_dependencies([x.op for x in sharded_saves]):
            with device(saveable.set_cpu0(last_device)):
                merge = io_ops.merge_v2_checkpoints(sharded_prefixes, checkpoint_prefix,
                                                    delete_old_dirs=True)
                with control_dependencies([merge]):
                    return identity(checkpoint_prefix)

    def _AddShardedSaveOps(self, filename_tensor: Tensor,  # noqa: N802
                           per_device: List[Tuple[str, List[Any]]]) -> Tensor:
        if self._write_version == SaverDef.V2:
            return self._AddShardedSaveOpsForV2(filename_tensor, per_device)
        # V1: one file per shard, `<prefix>-0000k-of-0000n`; the save returns the pattern
        # of them all (what restore reads), as TF's.
        from tf1compat.framework.constant_op import constant
        num_shards = constant(len(per_device), name="num_shards")
        saves = []
        for shard, (dev, items) in enumerate(per_device):
            with device(dev):
                filename = self.sharded_filename(filename_tensor, shard, num_shards)
                saves.append(self._AddSaveOps(filename, items))
        with control_dependencies([x.op for x in saves]):
            return io_ops.sharded_filespec(filename_tensor, num_shards)

    def _AddRestoreOps(self, filename_tensor: Tensor, saveables: Sequence[Any],  # noqa: N802
                       restore_sequentially: bool, reshape: bool, preferred_shard: int = -1,
                       name: str = "restore_all") -> Any:
        from tf1compat.ops.array_ops import shape as shape_of
        from tf1compat.ops.control_flow_ops import group
        all_tensors = self.bulk_restore(filename_tensor, saveables, preferred_shard,
                                        restore_sequentially)
        assign_ops = []
        idx = 0
        for item in saveables:
            shapes = None
            if reshape:
                shapes = []
                for spec in item.specs:
                    v = spec.tensor
                    shape = v.get_shape()
                    shapes.append(shape if shape.is_fully_defined() else shape_of(v))
            tensors = all_tensors[idx:idx + len(item.specs)]
            idx += len(item.specs)
            assign_ops.append(item.restore(tensors, shapes))
        return group(*assign_ops, name=name)

    def _AddShardedRestoreOps(self, filename_tensor: Tensor,  # noqa: N802
                              per_device: List[Tuple[str, List[Any]]],
                              restore_sequentially: bool, reshape: bool) -> Any:
        from tf1compat.ops.control_flow_ops import group
        restores = []
        for shard, (dev, items) in enumerate(per_device):
            with device(dev):
                restores.append(self._AddRestoreOps(filename_tensor, items,
                                                    restore_sequentially, reshape,
                                                    preferred_shard=shard,
                                                    name="restore_shard"))
        return group(*restores, name="restore_all")

    @staticmethod
    def _GroupByDevices(saveables: Sequence[Any]) -> List[Tuple[str, List[Any]]]:  # noqa: N802
        per_device: Dict[str, List[Any]] = collections.defaultdict(list)
        for item in saveables:
            devices = {canonical_name(spec.device) for spec in item.specs}
            if len(devices) != 1:
                raise ValueError("All tensors of a saveable object must be on the same "
                                 f"device: {item.name}")
            per_device[devices.pop()].append(item)
        return sorted(per_device.items(), key=lambda t: t[0])

    def build(self, names_to_saveables: Any, reshape: bool = False, sharded: bool = False,
              max_to_keep: int = 5, keep_checkpoint_every_n_hours: float = 10000.0,
              name: Optional[str] = None, restore_sequentially: bool = False,
              filename: str = "model") -> SaverDef:
        """Adds the ops; returns the SaverDef naming them."""
        return self._build_internal(names_to_saveables, reshape, sharded, max_to_keep,
                                    keep_checkpoint_every_n_hours, name,
                                    restore_sequentially, filename)

    def _build_internal(self, names_to_saveables: Any, reshape: bool = False,
                        sharded: bool = False, max_to_keep: Optional[int] = 5,
                        keep_checkpoint_every_n_hours: float = 10000.0,
                        name: Optional[str] = None, restore_sequentially: bool = False,
                        filename: Optional[str] = "model") -> SaverDef:
        from tf1compat.ops.array_ops import placeholder_with_default
        if not isinstance(names_to_saveables, dict):
            names_to_saveables = saveable.op_list_to_dict(names_to_saveables)
        saveables = saveable.validate_and_slice_inputs(names_to_saveables)
        if max_to_keep is None:
            max_to_keep = 0
        with name_scope(name, "save", [s.op for s in saveables
                                       if isinstance(s.op, Tensor)]) as scope:
            filename_tensor = placeholder_with_default(filename or "model", shape=(),
                                                       name="filename")
            filename_tensor = placeholder_with_default(filename_tensor, shape=(),
                                                       name="Const")
            if sharded:
                per_device = self._GroupByDevices(saveables)
                save_tensor = self._AddShardedSaveOps(filename_tensor, per_device)
                restore_op = self._AddShardedRestoreOps(filename_tensor, per_device,
                                                        restore_sequentially, reshape)
            else:
                save_tensor = self._AddSaveOps(filename_tensor, saveables)
                restore_op = self._AddRestoreOps(filename_tensor, saveables,
                                                 restore_sequentially, reshape)
        del scope
        # As TF: partitioned variables kept in collections get their concatenation op.
        from tf1compat.variables.partitioned import PartitionedVariable
        graph = get_default_graph()
        for key in graph.get_all_collection_keys():
            for element in graph.get_collection(key):
                if isinstance(element, PartitionedVariable):
                    try:
                        graph.get_operation_by_name(element.name)
                    except KeyError:
                        element.as_tensor()
        return SaverDef(filename_tensor_name=filename_tensor.name,
                        save_tensor_name=save_tensor.name, restore_op_name=restore_op.name,
                        max_to_keep=max_to_keep, sharded=sharded,
                        keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                        version=self._write_version)


class BulkSaverBuilder(BaseSaverBuilder):
    """Restores every tensor with one RestoreV2 op on the CPU (TF's default builder)."""

    def bulk_restore(self, filename_tensor: Tensor, saveables: Sequence[Any],
                     preferred_shard: int, restore_sequentially: bool) -> List[Tensor]:
        specs = [(spec.name, spec.slice_spec, spec.dtype)
                 for item in saveables for spec in item.specs]
        names, slices, dtypes = zip(*specs)
        with device("cpu:0"):
            return io_ops.restore_v2(filename_tensor, names, slices, dtypes)


# -- the Saver ----------------------------------------------------------------------------------

def _wrap_restore_error(err: errors.OpError, verbiage: str) -> errors.OpError:
    message = ("Restoring from checkpoint failed. This is most likely due to "
               f"{verbiage} from the checkpoint. Please ensure that you have not altered "
               "the graph expected based on the checkpoint. Original error:\n\n"
               f"{err.message}")
    return type(err)(err.node_def, err.op, message)


class Saver:
    """`tf.train.Saver`: saves and restores variables by name (see the module docstring)."""

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False,
                 max_to_keep: Optional[int] = 5,
                 keep_checkpoint_every_n_hours: float = 10000.0, name: Optional[str] = None,
                 restore_sequentially: bool = False, saver_def: Optional[SaverDef] = None,
                 builder: Optional[BaseSaverBuilder] = None, defer_build: bool = False,
                 allow_empty: bool = False, write_version: int = SaverDef.V2,
                 pad_step_number: bool = False, save_relative_paths: bool = False,
                 filename: Optional[str] = None):
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. "
                             "Either set defer_build=False or var_list=None.")
        if _context.executing_eagerly():
            tf_logging.warning(
                "Saver is deprecated, please switch to tf.train.Checkpoint or "
                "tf.keras.Model.save_weights for training checkpoints. When executing "
                "eagerly variables do not necessarily have unique names, and so the "
                "variable.name-based lookups Saver performs are error-prone.")
            if var_list is None:
                raise RuntimeError("When eager execution is enabled, `var_list` must specify "
                                   "a list or dict of variables to save")
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._name = name
        self._restore_sequentially = restore_sequentially
        self.saver_def = saver_def
        self._builder = builder
        self._is_built = False
        self._allow_empty = allow_empty
        self._is_empty: Optional[bool] = None
        self._write_version = write_version
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._last_checkpoints: List[Tuple[str, float]] = []
        self._checkpoints_to_be_deleted: List[Tuple[str, float]] = []
        if _context.executing_eagerly():
            raise NotImplementedError("tf.train.Saver in eager mode is not supported by "
                                      "tf1compat; use tf.train.Checkpoint")
        if not defer_build:
            self.build()
        if self.saver_def:
            self._check_saver_def()
            self._write_version = self.saver_def.version
        self._save_relative_paths = save_relative_paths
        self._object_restore_saver: Optional["Saver"] = None
        self._meta_cache: Optional[Tuple[tuple, bytes]] = None

    # -- building -------------------------------------------------------------------------
    def build(self) -> None:
        """Adds the save/restore ops (done by the constructor unless `defer_build`)."""
        if _context.executing_eagerly():
            raise RuntimeError("Use save/restore instead of build in eager mode.")
        self._build(self._filename)

    def _build(self, checkpoint_path: Optional[str]) -> None:
        if self._is_built:
            return
        self._is_built = True
        if not self.saver_def:
            if self._builder is None:
                self._builder = BulkSaverBuilder(self._write_version)
            if self._var_list is None:
                self._var_list = saveable.all_saveable_objects()
            if not self._var_list:
                if self._allow_empty:
                    self._is_empty = True
                    return
                raise ValueError("No variables to save")
            self._is_empty = False
            self.saver_def = self._builder._build_internal(
                self._var_list, reshape=self._reshape, sharded=self._sharded,
                max_to_keep=self._max_to_keep,
                keep_checkpoint_every_n_hours=self._keep_checkpoint_every_n_hours,
                name=self._name, restore_sequentially=self._restore_sequentially,
                filename=checkpoint_path)
        elif self._name:
            self.saver_def.filename_tensor_name = prepend_name_scope(
                self.saver_def.filename_tensor_name, self._name)
            self.saver_def.save_tensor_name = prepend_name_scope(
                self.saver_def.save_tensor_name, self._name)
            self.saver_def.restore_op_name = prepend_name_scope(
                self.saver_def.restore_op_name, self._name)
        self._check_saver_def()
        self._next_checkpoint_time = time.time() + \
            self.saver_def.keep_checkpoint_every_n_hours * 3600

    def _check_saver_def(self) -> None:
        if not isinstance(self.saver_def, SaverDef):
            raise ValueError(f"saver_def must be a saver_pb2.SaverDef: {self.saver_def}")
        if not self.saver_def.save_tensor_name:
            raise ValueError(f"saver_def must specify the save_tensor_name: {self.saver_def}")
        if not self.saver_def.restore_op_name:
            raise ValueError(f"saver_def must specify the restore_op_name: {self.saver_def}")

    # -- the SaverDef ------------------------------------------------------------------------
    def as_saver_def(self) -> SaverDef:
        """The SaverDef naming this saver's ops."""
        return self.saver_def

    def to_proto(self, export_scope: Optional[str] = None) -> Optional[SaverDef]:
        """The SaverDef with `export_scope` stripped from its names (None if outside it)."""
        if export_scope is None:
            return self.saver_def
        names = (self.saver_def.filename_tensor_name, self.saver_def.save_tensor_name,
                 self.saver_def.restore_op_name)
        if not all(n.startswith(export_scope) for n in names):
            return None
        out = SaverDef()
        out.CopyFrom(self.saver_def)
        out.filename_tensor_name = strip_name_scope(out.filename_tensor_name, export_scope)
        out.save_tensor_name = strip_name_scope(out.save_tensor_name, export_scope)
        out.restore_op_name = strip_name_scope(out.restore_op_name, export_scope)
        return out

    @staticmethod
    def from_proto(saver_def: SaverDef, import_scope: Optional[str] = None) -> "Saver":
        return Saver(saver_def=saver_def, name=import_scope)

    # -- the list of kept checkpoints ------------------------------------------------------------
    @property
    def last_checkpoints(self) -> List[str]:
        """Checkpoints not yet deleted, oldest first."""
        return [p[0] for p in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints: List[str]) -> None:
        """DEPRECATED: use set_last_checkpoints_with_time."""
        assert isinstance(last_checkpoints, list)
        self._last_checkpoints = [(s, float("inf")) for s in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time:
                                       List[Tuple[str, float]]) -> None:
        """Sets the kept checkpoints as (prefix, timestamp) pairs."""
        assert isinstance(last_checkpoints_with_time, list)
        self._last_checkpoints = last_checkpoints_with_time

    def recover_last_checkpoints(self, checkpoint_paths: Sequence[str]) -> None:
        """After a restart: the kept checkpoints are those of `checkpoint_paths` that
        exist, timestamped with their files' modification times."""
        found = []
        for path in checkpoint_paths:
            mtimes = checkpoint_state.get_checkpoint_mtimes([path])
            if mtimes:
                found.append((path, mtimes[0]))
        self.set_last_checkpoints_with_time(found)

    def _RecordLastCheckpoint(self, latest_save_path: str) -> None:  # noqa: N802
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints
                                  if p[0] != latest_save_path]
        self._last_checkpoints.append((latest_save_path, time.time()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _MaybeDeleteOldCheckpoints(self, meta_graph_suffix: str = "meta") -> None:  # noqa: N802
        if not self._checkpoints_to_be_deleted:
            return
        path, stamp = self._checkpoints_to_be_deleted.pop(0)
        # One checkpoint every keep_checkpoint_every_n_hours survives max_to_keep.
        if stamp > self._next_checkpoint_time:
            self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
            return
        try:
            checkpoint_state.remove_checkpoint(path, self.saver_def.version,
                                               meta_graph_suffix)
        except Exception as e:  # noqa: BLE001 - as TF: deletion failures are only logged
            tf_logging.warning("Ignoring: %s", str(e))

    # -- save --------------------------------------------------------------------------------
    def save(self, sess: Any, save_path: str, global_step: Any = None,
             latest_filename: Optional[str] = None, meta_graph_suffix: str = "meta",
             write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False
             ) -> Optional[str]:
        """Saves the variables to `save_path[-global_step]`; returns that prefix.

        Writes `<prefix>.index` and its data shard, updates the state file (unless
        `write_state` is False), deletes checkpoints beyond max_to_keep, and writes
        `<prefix>.meta` (unless
        `write_meta_graph` is False; a graph with ops that cannot be serialized, such as
        py_func, is logged and its .meta skipped).
        """
        from tf1compat.runtime.session import BaseSession
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if isinstance(save_path, bytes):
            save_path = save_path.decode("utf-8")
        if global_step is not None:
            # Python and numpy integers are step numbers (TF's compat.integral_types);
            # anything else is a tensor or variable to evaluate.
            if not isinstance(global_step, (int, np.integer)) or isinstance(global_step, bool):
                from tf1compat.training.training_util import global_step as step_value
                global_step = step_value(sess, global_step)
            checkpoint_file = "%s-%d" % (save_path, global_step)
            if self._pad_step_number:
                checkpoint_file = "%s-%s" % (save_path, "{:08d}".format(global_step))
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError(f"'latest_filename' collides with 'save_path': "
                                 f"'{latest_filename}' and '{save_path}'")
        if not isinstance(sess, BaseSession):
            raise TypeError(f"'sess' must be a Session; {sess}")
        save_path_parent = os.path.dirname(save_path)
        model_checkpoint_path = None
        if not self._is_empty:
            try:
                model_checkpoint_path = sess.run(
                    self.saver_def.save_tensor_name,
                    {self.saver_def.filename_tensor_name: checkpoint_file})
                if isinstance(model_checkpoint_path, bytes):
                    model_checkpoint_path = model_checkpoint_path.decode("utf-8")
                if write_state:
                    self._RecordLastCheckpoint(model_checkpoint_path)
                    checkpoint_state.update_checkpoint_state_internal(
                        save_dir=save_path_parent,
                        model_checkpoint_path=model_checkpoint_path,
                        all_model_checkpoint_paths=self.last_checkpoints,
                        latest_filename=latest_filename,
                        save_relative_paths=self._save_relative_paths)
                    self._MaybeDeleteOldCheckpoints(meta_graph_suffix=meta_graph_suffix)
            except (errors.FailedPreconditionError, errors.NotFoundError) as exc:
                if not os.path.isdir(save_path_parent or "."):
                    raise ValueError(f"Parent directory of {save_path} doesn't exist, can't "
                                     "save.") from None
                raise exc
        if write_meta_graph:
            meta_path = checkpoint_state.meta_graph_filename(checkpoint_file,
                                                             meta_graph_suffix)
            self._write_meta_graph(sess.graph, meta_path)
        return None if self._is_empty else model_checkpoint_path

    def _write_meta_graph(self, graph: Any, path: str) -> None:
        """Writes the `.meta` file of a save; unchanged graphs reuse the last bytes."""
        from tf1compat.serialization.atomic_files import atomic_write_bytes
        from tf1compat.training.saving import meta_graph
        key = _graph_fingerprint(graph)
        if self._meta_cache is not None and self._meta_cache[0] == key:
            data = self._meta_cache[1]
        else:
            with graph.as_default():
                try:
                    data = self.export_meta_graph().SerializeToString(deterministic=True)
                except meta_graph.UnserializableGraphError as e:
                    # The checkpoint itself is complete; only the graph cannot be written.
                    tf_logging.warning("Not writing %s: %s", path, e)
                    return
            self._meta_cache = (key, data)
        atomic_write_bytes(path, data)

    def export_meta_graph(self, filename: Optional[str] = None,
                          collection_list: Optional[Sequence[str]] = None,
                          as_text: bool = False, export_scope: Optional[str] = None,
                          clear_devices: bool = False, clear_extraneous_savers: bool = False,
                          strip_default_attrs: bool = False, save_debug_info: bool = False
                          ) -> Any:
        """Writes the default graph with this saver's SaverDef as a MetaGraphDef."""
        from tf1compat.training.saving import meta_graph
        return meta_graph.export_meta_graph(
            filename=filename, saver_def=self.saver_def, collection_list=collection_list,
            as_text=as_text, export_scope=export_scope, clear_devices=clear_devices,
            clear_extraneous_savers=clear_extraneous_savers,
            strip_default_attrs=strip_default_attrs)

    # -- restore ------------------------------------------------------------------------------
    def restore(self, sess: Any, save_path: Optional[str]) -> None:
        """Restores the variables from the checkpoint `save_path` (ours or TF's).

        Raises ValueError for a None or missing checkpoint, NotFoundError (naming the key)
        when a variable is not in it, InvalidArgumentError for a shape or dtype mismatch;
        on any error the session's variables are left as they were.
        """
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        prefix = os.fspath(save_path)
        if isinstance(prefix, bytes):
            prefix = prefix.decode("utf-8")
        if not checkpoint_state.checkpoint_exists_internal(prefix):
            raise ValueError("The passed save_path is not a valid checkpoint: " + prefix)
        tf_logging.info("Restoring parameters from %s", prefix)
        snapshot = _snapshot_state(sess)
        try:
            try:
                sess.run(self.saver_def.restore_op_name,
                         {self.saver_def.filename_tensor_name: prefix})
            except errors.NotFoundError as err:
                try:
                    names_to_keys = object_graph_key_mapping(prefix)
                except errors.NotFoundError:
                    raise _wrap_restore_error(
                        err, "a Variable name or other graph key that is missing") from None
                tf_logging.warning(
                    "Restoring an object-based checkpoint using a name-based saver. This may "
                    "be somewhat fragile, and will re-build the Saver. Instead, consider "
                    "loading object-based checkpoints using tf.train.Checkpoint().")
                self._object_restore_saver = saver_from_object_based_checkpoint(
                    prefix, var_list=self._var_list, builder=self._builder,
                    names_to_keys=names_to_keys, cached_saver=self._object_restore_saver)
                self._object_restore_saver.restore(sess=sess, save_path=prefix)
            except errors.InvalidArgumentError as err:
                raise _wrap_restore_error(
                    err, "a mismatch between the current graph and the graph") from None
        except BaseException:
            _rollback_state(sess, snapshot)
            raise

    @staticmethod
    def _add_collection_def(meta_graph_def: Any, key: str,
                            export_scope: Optional[str] = None) -> None:
        from tf1compat.training.saving import meta_graph
        meta_graph.add_collection_def(meta_graph_def, key, export_scope=export_scope)


def _graph_fingerprint(graph: Any) -> tuple:
    """What a meta graph depends on: the ops (ids only grow; edits bump the structure
    version) and the collections' members."""
    collections_state = tuple((key, tuple(id(x) for x in items))
                              for key, items in graph._collections.items())
    return (id(graph), graph._next_id, graph._structure_version, collections_state)


def _snapshot_state(sess: Any) -> Optional[Dict[str, Any]]:
    """The session's variable values (cheap: stored tensors are never mutated in place)."""
    runtime = getattr(sess, "_runtime", None)
    return None if runtime is None else dict(runtime.state)


def _rollback_state(sess: Any, snapshot: Optional[Dict[str, Any]]) -> None:
    if snapshot is None:
        return
    state = sess._runtime.state
    state.clear()
    state.update(snapshot)


# -- object-based checkpoints through a name-based Saver ------------------------------------------

def object_graph_key_mapping(checkpoint_path: str) -> Dict[str, str]:
    """{variable full name: checkpoint key} of an object-based checkpoint.

    Raises NotFoundError for a name-based checkpoint (it has no object graph).
    """
    from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
    from tf1compat.serialization.object_graph import OBJECT_GRAPH_KEY
    reader = NewCheckpointReader(checkpoint_path)
    graph = reader.object_graph()
    if graph is None:
        raise errors.NotFoundError(None, None, f"Key {OBJECT_GRAPH_KEY} not found in "
                                               "checkpoint")
    names_to_keys = {}
    for node in graph["nodes"]:
        for attribute in node["attributes"]:
            names_to_keys[attribute["full_name"]] = attribute["checkpoint_key"]
    return names_to_keys


def saver_from_object_based_checkpoint(checkpoint_path: str, var_list: Any = None,
                                       builder: Optional[BaseSaverBuilder] = None,
                                       names_to_keys: Optional[Dict[str, str]] = None,
                                       cached_saver: Optional[Saver] = None) -> Saver:
    """A Saver reading an object-based checkpoint by the variables' full names."""
    if names_to_keys is None:
        try:
            names_to_keys = object_graph_key_mapping(checkpoint_path)
        except errors.NotFoundError:
            raise ValueError(f"Checkpoint in {checkpoint_path} not an object-based "
                             "checkpoint.") from None
    if var_list is None:
        var_list = saveable.all_saveable_objects()
    if not isinstance(var_list, dict):
        var_list = saveable.op_list_to_dict(var_list)
    saveables = saveable.validate_and_slice_inputs(var_list)
    current = {spec.name for item in saveables for spec in item.specs}
    previous = set(names_to_keys)
    missing = current - previous
    if missing:
        extra = previous - current
        raise errors.NotFoundError(
            None, None,
            "\n\nExisting variables not in the checkpoint: %s\n\nVariables names when this "
            "checkpoint was written which don't exist now: %s\n\n(%d variable name(s) did "
            "match)\n\nCould not find some variables in the checkpoint (see names above). "
            "Saver was attempting to load an object-based checkpoint (saved using "
            "tf.train.Checkpoint or tf.keras.Model.save_weights) using variable names. If "
            "the checkpoint was written with eager execution enabled, it's possible that "
            "variable names have changed (for example missing a '_1' suffix). It's also "
            "possible that there are new variables which did not exist when the checkpoint "
            "was written. You can construct a Saver(var_list=...) with only the variables "
            "which previously existed, and if variable names have changed you may need to "
            "make this a dictionary with the old names as keys."
            % (", ".join(sorted(missing)), ", ".join(sorted(extra)),
               len(previous & current)))
    for item in saveables:
        for spec in item.specs:
            spec.name = names_to_keys[spec.name]
    if cached_saver is None:
        return Saver(saveables)
    return cached_saver
