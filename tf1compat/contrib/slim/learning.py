"""`tf.contrib.slim.learning`: building slim training ops (`create_train_op`), the
gradient helpers it uses, and `train`, slim's Supervisor-driven training loop:

    train_op = slim.learning.create_train_op(total_loss, optimizer)
    final_loss = slim.learning.train(train_op, logdir, number_of_steps=1000,
                                     save_summaries_secs=300, save_interval_secs=600)

`train` initializes (or restores from `logdir`'s latest checkpoint), runs `train_step_fn`
until it says stop (by default: the global step reached `number_of_steps`) or the input
raises OutOfRangeError, then saves `logdir/model.ckpt-<step>`; summaries and periodic
checkpoints are the Supervisor's services (tf.train.Supervisor).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tf1compat.contrib.training.training import GradsAndVars, _USE_GLOBAL_STEP, \
    clip_gradient_norms, gradient_summaries, multiply_gradients
from tf1compat.contrib.training.training import create_train_op as _create_train_op
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor

__all__ = ["create_train_op", "clip_gradient_norms", "multiply_gradients",
           "add_gradients_summaries", "train", "train_step"]

def add_gradients_summaries(grads_and_vars: GradsAndVars) -> List[Tensor]:
    """A histogram `<var>/gradient` and a scalar `<var>/gradient_norm` per gradient."""
    return gradient_summaries(grads_and_vars, "/")


def create_train_op(total_loss: Tensor, optimizer: Any, global_step: Any = _USE_GLOBAL_STEP,
                    update_ops: Optional[Sequence[Any]] = None,
                    variables_to_train: Optional[Sequence[Any]] = None,
                    clip_gradient_norm: float = 0, summarize_gradients: bool = False,
                    gate_gradients: int = 1, aggregation_method: Any = None,
                    colocate_gradients_with_ops: bool = False,
                    gradient_multipliers: Optional[Dict[Any, Any]] = None,
                    check_numerics: bool = True) -> Tensor:
    """A tensor that, when run, runs the update ops, applies one optimizer step and
    returns the loss (slim's train op, added to the TRAIN_OP collection): contrib.training's
    `create_train_op` with the multipliers and the clipping as its `transform_grads_fn`."""
    def transform_grads_fn(grads: GradsAndVars) -> GradsAndVars:
        if gradient_multipliers:
            with name_scope("multiply_grads"):
                grads = multiply_gradients(grads, gradient_multipliers)
        if clip_gradient_norm > 0:
            with name_scope("clip_grads"):
                grads = clip_gradient_norms(grads, clip_gradient_norm)
        return grads
    return _create_train_op(total_loss, optimizer, global_step=global_step,
                            update_ops=update_ops, variables_to_train=variables_to_train,
                            transform_grads_fn=transform_grads_fn,
                            summarize_gradients=summarize_gradients,
                            gate_gradients=gate_gradients,
                            aggregation_method=aggregation_method,
                            colocate_gradients_with_ops=colocate_gradients_with_ops,
                            check_numerics=check_numerics)


def _wait_for_step(sess: Any, global_step: Any, step: int) -> None:
    """Blocks (polling each second) until the global step reaches `step`."""
    from tf1compat.training.training_util import global_step as step_value
    while step_value(sess, global_step) < step:
        time.sleep(1.0)


def train_step(sess: Any, train_op: Any, global_step: Any,
               train_step_kwargs: Dict[str, Any]) -> Tuple[Any, bool]:
    """One training step: runs `train_op` and the global step, logs the loss when
    `train_step_kwargs["should_log"]` is true, and returns (loss, should_stop)."""
    from tf1compat.util import tf_logging as logging
    if "should_trace" in train_step_kwargs:
        raise NotImplementedError("tf.contrib.slim.learning.train_step: tracing "
                                  "(trace_every_n_steps / should_trace) needs TF's "
                                  "timeline, which tf1compat does not provide")
    start_time = time.time()
    total_loss, np_global_step = sess.run([train_op, global_step])
    time_elapsed = time.time() - start_time
    if "should_log" in train_step_kwargs and sess.run(train_step_kwargs["should_log"]):
        logging.info("global step %d: loss = %.4f (%.3f sec/step)", np_global_step,
                     total_loss, time_elapsed)
    should_stop = bool(sess.run(train_step_kwargs["should_stop"])) \
        if "should_stop" in train_step_kwargs else False
    return total_loss, should_stop


_USE_DEFAULT = 0


def _default_step_kwargs(global_step: Any, number_of_steps: Optional[int],
                         log_every_n_steps: int) -> Dict[str, Any]:
    """slim's default stop and log conditions, built under the name scope `train_step`."""
    from tf1compat.ops.math_ops import equal, greater_equal, mod
    with name_scope("train_step"):
        kwargs: Dict[str, Any] = {}
        kwargs["should_stop"] = greater_equal(global_step, number_of_steps) \
            if number_of_steps else constant(False)
        if log_every_n_steps > 0:
            kwargs["should_log"] = equal(mod(global_step, log_every_n_steps), 0)
    return kwargs


def train(train_op: Any, logdir: Optional[str],
          train_step_fn: Callable[..., Tuple[Any, bool]] = train_step,
          train_step_kwargs: Any = _USE_DEFAULT, log_every_n_steps: int = 1,
          graph: Any = None, master: str = "", is_chief: bool = True, global_step: Any = None,
          number_of_steps: Optional[int] = None, init_op: Any = _USE_DEFAULT,
          init_feed_dict: Any = None, local_init_op: Any = _USE_DEFAULT,
          init_fn: Optional[Callable[[Any], None]] = None, ready_op: Any = _USE_DEFAULT,
          summary_op: Any = _USE_DEFAULT, save_summaries_secs: float = 600,
          summary_writer: Any = _USE_DEFAULT, startup_delay_steps: int = 0,
          saver: Any = None, save_interval_secs: float = 600, sync_optimizer: Any = None,
          session_config: Any = None, session_wrapper: Optional[Callable[[Any], Any]] = None,
          trace_every_n_steps: Optional[int] = None, ignore_live_threads: bool = False
          ) -> Any:
    """Runs slim's training loop (see the module docstring) and returns the last loss.

    ValueError for a None train_op, a summary_op/saver/trace request without a logdir,
    a non-positive number_of_steps, or startup_delay_steps with a sync_optimizer.
    """
    from tf1compat.framework.errors import AbortedError, OutOfRangeError
    from tf1compat.framework.graph import get_default_graph
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.summary import merge_all
    from tf1compat.training.saving.saver import Saver
    from tf1compat.training.sessions.supervisor import Supervisor
    from tf1compat.training.training_util import get_or_create_global_step
    from tf1compat.util import tf_logging as logging
    from tf1compat.variables.collections import (global_variables_initializer,
                                                 local_variables_initializer,
                                                 report_uninitialized_variables,
                                                 tables_initializer)
    if train_op is None:
        raise ValueError("train_op cannot be None.")
    if logdir is None:
        if summary_op != _USE_DEFAULT:
            raise ValueError("Cannot provide summary_op because logdir=None")
        if saver is not None:
            raise ValueError("Cannot provide saver because logdir=None")
        if trace_every_n_steps is not None:
            raise ValueError("Cannot provide trace_every_n_steps because logdir=None")
    if sync_optimizer is not None and startup_delay_steps > 0:
        raise ValueError("startup_delay_steps must be zero when sync_optimizer is supplied.")
    if number_of_steps is not None and number_of_steps <= 0:
        raise ValueError("`number_of_steps` must be either None or a positive number.")
    if sync_optimizer is not None:
        raise NotImplementedError("tf.contrib.slim.learning.train(sync_optimizer=...) is not "
                                  "provided by tf1compat; run the train op in a "
                                  "tf.train.MonitoredTrainingSession with "
                                  "sync_optimizer.make_session_run_hook(is_chief)")
    graph = graph or get_default_graph()
    with graph.as_default():
        if global_step is None:
            global_step = get_or_create_global_step()
        saver = saver or Saver()
        with name_scope("init_ops"):
            if init_op == _USE_DEFAULT:
                init_op = global_variables_initializer()
            if ready_op == _USE_DEFAULT:
                ready_op = report_uninitialized_variables()
            if local_init_op == _USE_DEFAULT:
                local_init_op = group(local_variables_initializer(), tables_initializer())
        if summary_op == _USE_DEFAULT:
            summary_op = merge_all()
        if summary_writer == _USE_DEFAULT:
            summary_writer = Supervisor.USE_DEFAULT
        if train_step_kwargs == _USE_DEFAULT:
            train_step_kwargs = _default_step_kwargs(global_step, number_of_steps,
                                                     log_every_n_steps)
            if is_chief and trace_every_n_steps is not None:
                raise NotImplementedError("tf.contrib.slim.learning.train("
                                          "trace_every_n_steps=...) needs TF's timeline, "
                                          "which tf1compat does not provide")
    sv = Supervisor(graph=graph, is_chief=is_chief, logdir=logdir, init_op=init_op,
                    init_feed_dict=init_feed_dict, local_init_op=local_init_op,
                    ready_for_local_init_op=None, ready_op=ready_op, summary_op=summary_op,
                    summary_writer=summary_writer, global_step=global_step, saver=saver,
                    save_summaries_secs=save_summaries_secs,
                    save_model_secs=save_interval_secs, init_fn=init_fn)
    if summary_writer is not None:
        train_step_kwargs["summary_writer"] = sv.summary_writer
    total_loss = None
    should_retry = True
    while should_retry:
        should_retry = False
        try:
            with sv.managed_session(master, start_standard_services=False,
                                    config=session_config) as sess:
                logging.info("Starting Session.")
                if session_wrapper is not None:
                    logging.info("Wrapping session with wrapper function: %s",
                                 session_wrapper)
                    sess = session_wrapper(sess)
                # The queue runners start before the standard services: this Supervisor
                # runs its services in the training thread, and a summary of the input
                # (TF's summary thread just waits for it) would block on empty queues.
                threads = sv.start_queue_runners(sess)
                logging.info("Starting Queues.")
                if is_chief:
                    if logdir:
                        sv.start_standard_services(sess)
                elif startup_delay_steps > 0:
                    _wait_for_step(sess, global_step,
                                   min(startup_delay_steps, number_of_steps or sys.maxsize))
                try:
                    while not sv.should_stop():
                        total_loss, should_stop = train_step_fn(sess, train_op, global_step,
                                                                train_step_kwargs)
                        if should_stop:
                            logging.info("Stopping Training.")
                            sv.request_stop()
                            break
                except OutOfRangeError as e:
                    logging.info("Caught OutOfRangeError. Stopping Training. %s", e)
                if logdir and sv.is_chief:
                    logging.info("Finished training! Saving model to disk.")
                    sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
                    sv.stop(threads, close_summary_writer=True,
                            ignore_live_threads=ignore_live_threads)
        except AbortedError:
            logging.info("Retrying training!")
            should_retry = True
    return total_loss
