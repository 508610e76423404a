"""`horovod.tensorflow.elastic` (`hvd.elastic`): state objects and the `run` decorator.

    state = hvd.elastic.TensorFlowState(session=sess, epoch=0)   # or ObjectState / KerasState

    @hvd.elastic.run
    def train(state):
        for state.epoch in range(state.epoch, epochs):
            ... sess.run(train_op) ...
            state.commit()

    train(state)

What works as in Horovod: `run` first syncs the state from rank 0 (variables broadcast,
Python attributes through `broadcast_object`), so every process starts from rank 0's values;
`commit()` saves a copy in memory (and checks for host updates: with no elastic driver
there never are any, though the check is still the collective Horovod's is);
`restore()` returns to the last commit; `register_reset_callbacks`.

What does not: re-forming the job after a process fails or hosts are added. Horovod's
elastic driver (`horovodrun --min-np ... --host-discovery-script`) hands the survivors a
new rendezvous; torch.distributed under torchrun has no such driver for a running process
group (`torchrun --max-restarts` restarts every process instead, so in-memory state is
lost and training resumes from checkpoints). So when a collective fails inside `run`, the
state is restored to its last commit and NotImplementedError says so, with the collective's
error as its cause.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.distribute import horovod_tensorflow as _hvd
from tf1compat.framework import context as _context
from tf1compat.framework import errors
from tf1compat.framework.tensor import get_default_session
from tf1compat.variables import collections as _var_collections

__all__ = ["run", "State", "ObjectState", "TensorFlowState", "TensorFlowKerasState",
           "HorovodInternalError", "HostsUpdatedInterrupt"]


class HorovodInternalError(RuntimeError):
    """A Horovod collective failed (a process died or left): a reset event in Horovod."""


class HostsUpdatedInterrupt(RuntimeError):
    """The job's hosts changed (never raised without an elastic driver)."""

    def __init__(self, skip_sync: bool):
        super().__init__(skip_sync)
        self.skip_sync = skip_sync


class State:
    """In-memory training state kept consistent across processes (Horovod's base class)."""

    def __init__(self, bcast_object: Callable[[Any], Any], get_rank: Callable[[], int]):
        self._bcast_object = bcast_object
        self._rank = get_rank
        self._last_updated_timestamp = 0
        self._reset_callbacks: List[Callable[[], None]] = []

    def register_reset_callbacks(self, callbacks: Sequence[Callable[[], None]]) -> None:
        """Functions to call after a reset event (a change of the job's processes)."""
        self._reset_callbacks.extend(callbacks)

    def on_reset(self) -> None:
        self.reset()
        for callback in self._reset_callbacks:
            callback()

    def commit(self) -> None:
        """Saves the state in memory, then checks for host updates."""
        self.save()
        self.check_host_updates()

    def check_host_updates(self) -> None:
        """Agrees with rank 0 on the last host update (none without an elastic driver);
        raises HostsUpdatedInterrupt when there was a new one, as Horovod."""
        previous = self._last_updated_timestamp
        previous, self._last_updated_timestamp, removed = self._bcast_object(
            (previous, self._last_updated_timestamp, False))
        if self._last_updated_timestamp > previous:
            raise HostsUpdatedInterrupt(bool(removed))

    def save(self) -> None:
        raise NotImplementedError()

    def restore(self) -> None:
        raise NotImplementedError()

    def sync(self) -> None:
        raise NotImplementedError()

    def reset(self) -> None:
        """Called after a reset event, before the state is synced."""


class ObjectState(State):
    """Picklable Python attributes (the keyword arguments), synced from rank 0."""

    def __init__(self, bcast_object: Callable[[Any], Any], get_rank: Callable[[], int],
                 **kwargs: Any):
        self._saved_state: Dict[str, Any] = kwargs
        self._set_attrs()
        super().__init__(bcast_object=bcast_object, get_rank=get_rank)

    def save(self) -> None:
        self._saved_state = {attr: getattr(self, attr) for attr in self._saved_state}

    def restore(self) -> None:
        self._set_attrs()

    def sync(self) -> None:
        if self._saved_state:
            self._saved_state = self._bcast_object(self._saved_state)
            self._set_attrs()

    def _set_attrs(self) -> None:
        for attr, value in self._saved_state.items():
            setattr(self, attr, value)


def _broadcast_object(obj: Any) -> Any:
    return _hvd.broadcast_object(obj, root_rank=0)


class _ModelState(ObjectState):
    """An ObjectState that also commits and restores a model's values (`_save_model`,
    `_load_model` of the subclass)."""

    def save(self) -> None:
        self._save_model()
        super().save()

    def restore(self) -> None:
        self._load_model()
        super().restore()

    def _save_model(self) -> None:
        raise NotImplementedError

    def _load_model(self) -> None:
        raise NotImplementedError


class TensorFlowState(_ModelState):
    """A list of variables (default: the global variables) plus keyword attributes. In a
    graph the variables are read and broadcast through `session` (default: the default
    session); eagerly through the variables themselves."""

    def __init__(self, variables: Optional[Sequence[Any]] = None, session: Any = None,
                 **kwargs: Any):
        self.variables = list(variables or _var_collections.global_variables())
        self.session = session or (None if _context.executing_eagerly()
                                   else get_default_session())
        self._eager = _context.executing_eagerly()
        self._bcast_op = None if self._eager else \
            _hvd.broadcast_variables(self.variables, root_rank=0)
        self._values: List[np.ndarray] = []
        self._save_model()
        super().__init__(bcast_object=_broadcast_object, get_rank=_hvd.rank, **kwargs)

    def sync(self) -> None:
        if self._eager:
            for v in self.variables:
                v.assign(_hvd.broadcast(v, 0))
        elif self.session is not None:
            self.session.run(self._bcast_op)
        self._save_model()
        super().sync()

    def _save_model(self) -> None:
        if self._eager:
            self._values = [v.numpy() for v in self.variables]
        elif self.session is not None:
            self._values = self.session.run(self.variables)

    def _load_model(self) -> None:
        for v, value in zip(self.variables, self._values):
            if self._eager:
                v.assign(value)
            else:
                v.load(value, self.session)


class TensorFlowKerasState(_ModelState):
    """A Keras model and its optimizer (weights synced from rank 0) plus attributes."""

    def __init__(self, model: Any, optimizer: Any = None, backend: Any = None, **kwargs: Any):
        self.model = model
        if hasattr(model, "build") and not model.built:
            raise ValueError("Model must be built first. Run `model.build(input_shape)`.")
        self.optimizer = optimizer or model.optimizer
        self.backend = backend
        self._saved_model_state: List[np.ndarray] = []
        self._saved_optimizer_state: List[np.ndarray] = []
        self._save_model()
        super().__init__(bcast_object=_broadcast_object, get_rank=_hvd.rank, **kwargs)

    def sync(self) -> None:
        self.model.set_weights(_broadcast_object(self.model.get_weights()))
        optimizer_weights = _broadcast_object(self.optimizer.get_weights())
        if optimizer_weights and len(optimizer_weights) == len(self.optimizer.get_weights()):
            self.optimizer.set_weights(optimizer_weights)
        self._save_model()
        super().sync()

    def _save_model(self) -> None:
        self._saved_model_state = self.model.get_weights()
        self._saved_optimizer_state = self.optimizer.get_weights() if self.optimizer else []

    def _load_model(self) -> None:
        self.model.set_weights(self._saved_model_state)
        if self._saved_optimizer_state:
            self.optimizer.set_weights(self._saved_optimizer_state)


def _collective_failure(error: errors.UnknownError) -> bool:
    message = str(error)
    return any(op in message for op in ("HorovodAllreduce", "HorovodAllgather",
                                         "HorovodBroadcast", "HorovodGroupedAllreduce"))


def run(func: Callable[..., Any]) -> Callable[..., Any]:
    """Horovod's `hvd.elastic.run`: syncs `state` (the first argument) from rank 0, then
    calls `func(state, ...)`. A failed collective restores the last commit and raises
    NotImplementedError (re-forming the job needs Horovod's elastic driver)."""

    @functools.wraps(func)
    def wrapper(state: State, *args: Any, **kwargs: Any) -> Any:
        state.sync()
        try:
            return func(state, *args, **kwargs)
        except (errors.UnknownError, HorovodInternalError) as e:
            if isinstance(e, errors.UnknownError) and not _collective_failure(e):
                raise
            state.restore()
            raise NotImplementedError(
                "hvd.elastic.run: a collective failed (a process died or left) and the state "
                "was restored to its last commit, but re-forming the job with the remaining "
                "processes needs Horovod's elastic driver (horovodrun --min-np/--host-"
                "discovery-script), which tf1compat does not provide; restart the job "
                "(e.g. torchrun --max-restarts) from a checkpoint") from e
    return wrapper
