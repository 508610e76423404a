"""`tf.train.SessionManager`: creates sessions that are restored from the latest
checkpoint or initialized, and checks that the model is ready (no uninitialized
variables) before handing them out."""

from __future__ import annotations

import time
from typing import Any, Optional, Tuple

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.framework.graph import get_default_graph
from tf1compat.runtime.session import Session
from tf1compat.training.saving import checkpoint_state

__all__ = ["SessionManager"]


def _maybe_name(obj: Any) -> Any:
    if obj is None:
        return None
    return getattr(obj, "name", f"<no name for {type(obj).__name__}>")


def _ready(op: Any, sess: Any, msg: str) -> Tuple[bool, Optional[str]]:
    """(True, None) when `op` (a report of uninitialized variables) is empty."""
    if op is None:
        return True, None
    try:
        value = sess.run(op)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            tf_logging.warning("%s : error [%s]", msg, str(e))
            raise
        return False, str(e)
    if value is None or value.dtype == np.int32 or value.size == 0:
        return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in value)
    return False, "Variables not initialized: " + names


class SessionManager:
    """Creates a Session, restores it from a checkpoint or runs the init ops, runs the
    local init op and checks readiness (TF's `tf.train.SessionManager`)."""

    def __init__(self, local_init_op: Any = None, ready_op: Any = None,
                 ready_for_local_init_op: Any = None, graph: Any = None,
                 recovery_wait_secs: float = 30, local_init_run_options: Any = None,
                 local_init_feed_dict: Any = None):
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._target: Optional[str] = None
        self._local_init_run_options = local_init_run_options
        self._local_init_feed_dict = local_init_feed_dict
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a "
                             f"local_init_op , ready_for_local_init_op "
                             f"[{ready_for_local_init_op}]")

    def _restore_checkpoint(self, master: str, saver: Any = None,
                            checkpoint_dir: Optional[str] = None,
                            checkpoint_filename_with_path: Optional[str] = None,
                            wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                            config: Any = None) -> Tuple[Any, bool]:
        self._target = master
        sess = Session(self._target, graph=self._graph, config=config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            self._restore(sess, saver, checkpoint_filename_with_path)
            return sess, True
        waited = 0.0
        ckpt = checkpoint_state.get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if not (wait_for_checkpoint and waited < max_wait_secs):
                return sess, False
            tf_logging.info("Waiting for checkpoint to be available.")
            time.sleep(self._recovery_wait_secs)
            waited += self._recovery_wait_secs
            ckpt = checkpoint_state.get_checkpoint_state(checkpoint_dir)
        self._restore(sess, saver, ckpt.model_checkpoint_path)
        saver.recover_last_checkpoints(list(ckpt.all_model_checkpoint_paths))
        return sess, True

    def _restore(self, sess: Any, saver: Any, path: str) -> None:
        init_ops = self._graph.get_collection("saved_model_initializers")
        if init_ops:
            sess.run(init_ops)
        saver.restore(sess, path)

    def prepare_session(self, master: str, init_op: Any = None, saver: Any = None,
                        checkpoint_dir: Optional[str] = None,
                        checkpoint_filename_with_path: Optional[str] = None,
                        wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                        config: Any = None, init_feed_dict: Any = None,
                        init_fn: Any = None) -> Any:
        """A session restored from the latest checkpoint of `checkpoint_dir` (or
        `checkpoint_filename_with_path`), else initialized with `init_op` / `init_fn`;
        raises RuntimeError if the model is still not ready."""
        sess, loaded = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        if not loaded:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        ok, msg = self._try_run_local_init_op(sess)
        if not ok:
            raise RuntimeError("Init operations did not make model ready for local_init.  "
                               f"Init op: {_maybe_name(init_op)}, init fn: {init_fn}, "
                               f"error: {msg}")
        ready, msg = self._model_ready(sess)
        if not ready:
            raise RuntimeError("Init operations did not make model ready.  "
                               f"Init op: {_maybe_name(init_op)}, init fn: {init_fn}, "
                               f"local_init_op: {self._local_init_op}, error: {msg}")
        return sess

    def recover_session(self, master: str, saver: Any = None,
                        checkpoint_dir: Optional[str] = None,
                        checkpoint_filename_with_path: Optional[str] = None,
                        wait_for_checkpoint: bool = False, max_wait_secs: float = 7200,
                        config: Any = None) -> Tuple[Any, bool]:
        """(session, restored): a session restored from a checkpoint if there is one."""
        sess, loaded = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
            config=config)
        ok, msg = self._try_run_local_init_op(sess)
        if not loaded:
            return sess, False
        source = checkpoint_dir or checkpoint_filename_with_path
        if not ok:
            tf_logging.info("Restoring model from %s did not make model ready for local "
                            "init: %s", source, msg)
            return sess, False
        ready, msg = self._model_ready(sess)
        if not ready:
            tf_logging.info("Restoring model from %s did not make model ready: %s",
                            source, msg)
            return sess, False
        tf_logging.info("Restored model from %s", source)
        return sess, True

    def wait_for_session(self, master: str, config: Any = None,
                         max_wait_secs: Optional[float] = float("Inf")) -> Any:
        """A session once the model is ready (initialized by a chief)."""
        self._target = master
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        start = time.time()
        while True:
            sess = Session(self._target, graph=self._graph, config=config)
            ready_msg = None
            ok, local_msg = self._try_run_local_init_op(sess)
            if ok:
                ready, ready_msg = self._model_ready(sess)
                if ready:
                    return sess
            try:
                sess.close()
            except Exception:  # noqa: BLE001 - closing a half-made session is best effort
                pass
            remaining = max_wait_secs - (time.time() - start) - self._recovery_wait_secs
            if remaining < 0:
                raise errors.DeadlineExceededError(
                    None, None, "Session was not ready after waiting %d secs."
                    % (max_wait_secs,))
            tf_logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, "
                            "ready: %s", local_msg, ready_msg)
            time.sleep(self._recovery_wait_secs)

    def _model_ready(self, sess: Any) -> Tuple[bool, Optional[str]]:
        return _ready(self._ready_op, sess, "Model not ready")

    def _model_ready_for_local_init(self, sess: Any) -> Tuple[bool, Optional[str]]:
        return _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")

    def _try_run_local_init_op(self, sess: Any) -> Tuple[bool, Optional[str]]:
        if self._local_init_op is None:
            return True, None
        ready, msg = self._model_ready_for_local_init(sess)
        if not ready:
            return False, msg
        tf_logging.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
                 options=self._local_init_run_options)
        tf_logging.info("Done running local_init_op.")
        return True, None
