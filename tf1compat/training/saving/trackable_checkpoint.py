"""`tf.train.Checkpoint` (TF1's CheckpointV1) and `tf.train.CheckpointManager`.

A Checkpoint is an AutoTrackable whose keyword arguments are its named dependencies
(sorted by name, as TF adds them). `save(prefix)` increments the tracked `save_counter`
variable and writes `prefix-<n>` plus the `checkpoint` state file; `write(prefix)` writes
without numbering or state. The checkpoint has TF's layout (`<prefix>.index` + data
shard) holding every value under its object-path key and the serialized object graph
under `_CHECKPOINTABLE_OBJECT_GRAPH` (object_checkpoint.py), as TF's. `restore(path)`
accepts these, TF's object-based checkpoints and earlier tf1compat `.safetensors` ones,
or name-based checkpoints (matched by variable name), and returns a load status.

In graph mode saving runs a SaveV2 op fed with the object graph (built once per set of
objects), and restoring creates restore ops that `status.run_restore_ops(session)` runs.
With eager execution values are read and assigned at once.
"""

from __future__ import annotations

import collections
import glob
import os
import time
from typing import Any, List, Optional, Tuple

from tf1compat.util import tf_logging
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import device, get_default_graph
from tf1compat.framework.tensor import get_default_session
from tf1compat.serialization import object_graph as og
from tf1compat.serialization.safetensors_checkpoint import checkpoint_file as legacy_file
from tf1compat.training.saving import checkpoint_state, tracking
from tf1compat.training.saving import object_checkpoint as oc

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions"]


class CheckpointOptions:
    """`tf.train.CheckpointOptions` (accepted; device and async options have no effect)."""

    def __init__(self, experimental_io_device: Optional[str] = None,
                 experimental_enable_async_checkpoint: bool = False,
                 experimental_write_callbacks: Optional[List[Any]] = None,
                 enable_async: bool = False, **kwargs: Any):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async


def _session_for(session: Any) -> Any:
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Either session argument should be provided or default session "
                             "should be established")
    return session


class _SaveOps:
    """The graph-mode save of one set of values: SaveV2 fed with prefix and object graph."""

    def __init__(self, values: List[Tuple[str, Any]]):
        from tf1compat.framework.constant_op import constant
        from tf1compat.ops import io_ops
        from tf1compat.ops.control_flow_ops import with_dependencies
        from tf1compat.variables.variables import init_scope
        graph = values[0][1].graph if values else get_default_graph()
        with graph.as_default(), init_scope(), device("/cpu:0"):
            # As TF: constants the run feeds (the file prefix and the serialized graph).
            self.prefix = constant("model")
            self.object_graph = constant("", dtype=D.string)
            names = [og.OBJECT_GRAPH_KEY] + [k for k, _ in values]
            tensors = [self.object_graph] + [_value_tensor(v) for _, v in values]
            save = io_ops.save_v2(self.prefix, names, [""] * len(names), tensors)
            self.output = with_dependencies([save], self.prefix)


def _value_tensor(var: Any) -> Any:
    if getattr(var, "_is_resource_variable", False):
        return var._graph_element if var._graph_element is not None else var.read_value()
    return var._ref()


def _eager_value(var: Any) -> Any:
    value = var.read_value() if hasattr(var, "read_value") else var
    return value.numpy() if hasattr(value, "numpy") else value


class Checkpoint(tracking.AutoTrackable):
    """`tf.train.Checkpoint(**trackables)`: an object-based checkpoint of its arguments."""

    _no_tracking = ("_save_counter", "_save_ops", "_save_assign_op", "_saver_restorations")

    def __init__(self, **kwargs: Any):
        super().__init__()
        object.__setattr__(self, "_save_counter", None)
        object.__setattr__(self, "_save_ops", {})
        object.__setattr__(self, "_save_assign_op", None)
        for k, v in sorted(kwargs.items(), key=lambda item: item[0]):
            # As TF's AutoTrackable: any list or dict becomes a tracked container.
            if isinstance(v, list) and not isinstance(v, tracking.ListWrapper):
                v = tracking.ListWrapper(v)
            elif isinstance(v, dict) and not isinstance(v, tracking.DictWrapper):
                v = tracking.DictWrapper(v)
            setattr(self, k, v)
            if not tracking.is_trackable(getattr(self, k)):
                raise ValueError(
                    "`Checkpoint` was expecting a trackable object (an object derived from "
                    f"`Trackable`), got {v}. If you believe this object should be trackable "
                    "(i.e. it is part of the TensorFlow Python API and manages state), please "
                    "open an issue.")

    # -- save counter ------------------------------------------------------------------------
    def _maybe_create_save_counter(self) -> None:
        if self._save_counter is not None:
            return
        from tf1compat.variables.variables import Variable, init_scope
        with init_scope(), device("/cpu:0"):
            counter = Variable(lambda: 0, dtype=D.int64, trainable=False,
                               name="save_counter", use_resource=True)
        object.__setattr__(self, "_save_counter", counter)
        self._track_trackable(counter, "save_counter", overwrite=True)

    @property
    def save_counter(self) -> Any:
        """An int64 variable incremented by each `save` (tracked as "save_counter")."""
        self._maybe_create_save_counter()
        return self._save_counter

    # -- writing ----------------------------------------------------------------------------
    def write(self, file_prefix: str, session: Any = None, options: Any = None) -> str:
        """Writes the checkpoint to `file_prefix` (no numbering, no state file)."""
        return self._write(file_prefix, session, options)

    def _write(self, file_prefix: str, session: Any = None, options: Any = None) -> str:
        return write_object_graph(self, file_prefix, session, options, self._save_ops)

    def save(self, file_prefix: str, session: Any = None, options: Any = None) -> str:
        """Increments save_counter, writes `file_prefix-<n>`, updates the state file."""
        file_prefix = os.fspath(file_prefix)
        if _context.executing_eagerly():
            self.save_counter.assign_add(1)
            number = int(_eager_value(self.save_counter))
        else:
            session = _session_for(session)
            if self._save_counter is None:
                session.run(self.save_counter.initializer)
            if self._save_assign_op is None:
                from tf1compat.framework.graph import colocate_with
                with colocate_with(self.save_counter):
                    object.__setattr__(self, "_save_assign_op",
                                       self.save_counter.assign_add(1, read_value=True))
            number = int(session.run(self._save_assign_op))
        path = self._write(f"{file_prefix}-{number}", session=session, options=options)
        checkpoint_state.update_checkpoint_state_internal(
            save_dir=os.path.dirname(file_prefix), model_checkpoint_path=path,
            all_model_checkpoint_paths=[path], save_relative_paths=True)
        return path

    # -- reading ----------------------------------------------------------------------------
    def restore(self, save_path: Optional[str]) -> Any:
        """Restores from `save_path`; returns a load status (see object_checkpoint.py).

        Values of objects that do not exist yet are restored when they are tracked. None
        gives a status that only initializes.
        """
        status = self._restore(save_path)
        # As TF: the counter exists from here on, restored with the rest when graph building.
        self._maybe_create_save_counter()
        if isinstance(status, oc.NameBasedSaverStatus):
            status.add_to_optionally_restored(self.save_counter)
        return status

    def read(self, save_path: str, options: Any = None) -> Any:
        """Restores without creating save_counter (TF2's `Checkpoint.read`)."""
        return self._restore(save_path)

    def _restore(self, save_path: Optional[str]) -> Any:
        return restore_object_graph(self, save_path)


# -- any object as the root (Checkpoint, Keras save_weights) ----------------------------------

def write_object_graph(root: Any, file_prefix: str, session: Any = None, options: Any = None,
                       save_ops: Optional[dict] = None) -> str:
    """Writes the object graph rooted at `root` to `file_prefix` (graph mode: through save
    ops cached in `save_ops`, run in `session`)."""
    file_prefix = os.fspath(file_prefix)
    gathered = oc.gather_object_graph(root)
    structure = gathered.proto_structure()
    if _context.executing_eagerly():
        from tf1compat.ops.io_ops import write_checkpoint
        values = {k: _eager_value(v) for k, v in gathered.values}
        kinds = {k: v.dtype.base_dtype for k, v in gathered.values}
        write_checkpoint(file_prefix, values, kinds, object_graph=structure)
    else:
        session = _session_for(session)
        graph = gathered.values[0][1].graph if gathered.values else get_default_graph()
        key = (id(graph),) + tuple((k, id(v)) for k, v in gathered.values)
        cache = save_ops if save_ops is not None else {}
        ops = cache.get(key)
        if ops is None:
            ops = cache[key] = _SaveOps(gathered.values)
        session.run(ops.output, {ops.prefix: file_prefix,
                                 ops.object_graph: og.serialize_object_graph(structure)})
    callbacks = getattr(options, "experimental_write_callbacks", None) or []
    for callback in callbacks:
        callback(file_prefix)
    return file_prefix


def restore_object_graph(root: Any, save_path: Optional[str]) -> Any:
    """A load status restoring `save_path` into the object graph rooted at `root`."""
    if save_path is None:
        return oc.InitializationOnlyStatus(root)
    save_path = os.fspath(save_path)
    reader, graph = oc.open_object_checkpoint(save_path)
    if graph is None:
        return oc.NameBasedSaverStatus(save_path, reader, root)
    restoration = oc.Restoration(save_path, reader, graph)
    restoration.match_root(root)
    return oc.CheckpointLoadStatus(restoration, root)


# -- CheckpointManager -----------------------------------------------------------------------------

def _delete_checkpoint_files(prefix: str) -> None:
    for pattern in (legacy_file(prefix), prefix + ".index",
                    prefix + ".data-?????-of-?????"):
        for path in glob.glob(pattern):
            try:
                os.remove(path)
            except FileNotFoundError:
                pass


class CheckpointManager:
    """`tf.train.CheckpointManager`: numbered saves of a Checkpoint, keeping the newest."""

    def __init__(self, checkpoint: Checkpoint, directory: str, max_to_keep: Optional[int],
                 keep_checkpoint_every_n_hours: Optional[float] = None,
                 checkpoint_name: str = "ckpt", step_counter: Any = None,
                 checkpoint_interval: Optional[int] = None, init_fn: Any = None,
                 last_checkpoint_step: Optional[int] = None):
        self._checkpoint = checkpoint
        self._save_counter_assign = None
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        directory = os.fspath(directory)
        self._directory = directory
        self._checkpoint_prefix = os.path.join(directory, checkpoint_name)
        self._init_fn = init_fn
        if checkpoint_interval is not None:
            if step_counter is None:
                raise ValueError("`step_counter` should be passed if `checkpoint_interval` "
                                 "is not None.")
            self._last_checkpoint_step = last_checkpoint_step
            self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        recovered = checkpoint_state.get_checkpoint_state(directory)
        now = time.time()
        self._maybe_delete: "collections.OrderedDict[str, float]" = collections.OrderedDict()
        if recovered is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now - 1.0
        else:
            self._latest_checkpoint = recovered.model_checkpoint_path
            self._last_preserved_timestamp = recovered.last_preserved_timestamp
            if now < self._last_preserved_timestamp:
                tf_logging.warning("time.time() returned a value %f seconds behind the last "
                                   "preserved checkpoint timestamp.",
                                   self._last_preserved_timestamp - now)
                self._last_preserved_timestamp = now
            stamps = list(recovered.all_model_checkpoint_timestamps)
            paths = list(recovered.all_model_checkpoint_paths)
            if not stamps:
                stamps = [self._last_preserved_timestamp] * len(paths)
            for filename, stamp in zip(paths, stamps):
                stamp = min(stamp, now)
                if stamp > self._last_preserved_timestamp:
                    self._maybe_delete[filename] = stamp

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint_interval(self) -> Optional[int]:
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self) -> Optional[str]:
        """The newest checkpoint's prefix (None before the first save)."""
        return self._latest_checkpoint

    @property
    def checkpoints(self) -> List[str]:
        """The checkpoints kept, oldest first."""
        return list(self._maybe_delete)

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    def _sweep(self) -> None:
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            filename, stamp = self._maybe_delete.popitem(last=False)
            if self._keep_checkpoint_every_n_hours and \
                    stamp - self._keep_checkpoint_every_n_hours * 3600.0 >= \
                    self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            _delete_checkpoint_files(filename)

    def _record_state(self) -> None:
        filenames, stamps = zip(*self._maybe_delete.items())
        checkpoint_state.update_checkpoint_state_internal(
            self._directory, model_checkpoint_path=self.latest_checkpoint,
            all_model_checkpoint_paths=list(filenames),
            all_model_checkpoint_timestamps=list(stamps),
            last_preserved_timestamp=self._last_preserved_timestamp,
            save_relative_paths=True)

    def save(self, checkpoint_number: Any = None, check_interval: bool = True,
             options: Any = None) -> Optional[str]:
        """Saves `<directory>/<checkpoint_name>-<n>` (n: `checkpoint_number` or the
        checkpoint's save_counter after incrementing it), then deletes old checkpoints."""
        from tf1compat.training.training_util import global_step
        session = None
        if self._checkpoint_interval is not None:
            current = int(_evaluate(self._step_counter))
            if self._last_checkpoint_step is not None:
                if current == self._last_checkpoint_step:
                    return None
                if check_interval and current < (self._last_checkpoint_step +
                                                 self._checkpoint_interval):
                    return None
            self._last_checkpoint_step = current
        if _context.executing_eagerly():
            save_counter = self._checkpoint.save_counter
            save_counter.assign_add(1)
        else:
            session = get_default_session()
            if session is None:
                raise ValueError("CheckpointManager.save needs a default session when graph "
                                 "building (use `with session.as_default():`)")
            fresh = self._checkpoint._save_counter is None
            save_counter = self._checkpoint.save_counter
            if fresh:
                session.run(save_counter.initializer)
            if self._save_counter_assign is None:
                self._save_counter_assign = save_counter.assign_add(1, read_value=False)
            session.run(self._save_counter_assign)
        if checkpoint_number is None:
            checkpoint_number = save_counter
        if not isinstance(checkpoint_number, int) or isinstance(checkpoint_number, bool):
            if _context.executing_eagerly():
                checkpoint_number = int(_eager_value(checkpoint_number))
            else:
                checkpoint_number = global_step(session, checkpoint_number)
        prefix = "%s-%d" % (self._checkpoint_prefix, checkpoint_number)
        save_path = self._checkpoint._write(prefix, session=session, options=options)
        stamp = time.time()
        self._maybe_delete.pop(save_path, None)
        self._maybe_delete[save_path] = stamp
        self._latest_checkpoint = save_path
        self._record_state()
        self._sweep()
        self._record_state()
        return save_path

    def restore_or_initialize(self) -> Optional[str]:
        """Restores the latest checkpoint if there is one, else runs `init_fn`."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(_evaluate(self._step_counter))
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self) -> None:
        """Waits for asynchronous writes (tf1compat writes synchronously)."""


def _evaluate(value: Any) -> Any:
    if _context.executing_eagerly():
        return _eager_value(value)
    session = get_default_session()
    if session is None:
        raise ValueError("Evaluating the step counter needs a default session")
    return session.run(value)
