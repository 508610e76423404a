"""`tf.contrib.model_pruning.train` (TF 1.15 learning.py): slim's training loop
(`tf.contrib.slim.learning.train`) with the pruning mask update run after each training
step.

TF 1.15 unpacks the loss slim's loop returns into two names, so a scalar loss (every
loss slim trains) raises TypeError once training has finished and its final checkpoint
is written; tf1compat does the same."""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

from tf1compat.contrib.slim import learning as slim_learning

__all__ = ["train"]

_USE_DEFAULT = slim_learning._USE_DEFAULT


def train(train_op: Any, logdir: Optional[str], mask_update_op: Any,
          train_step_fn: Callable[..., Tuple[Any, bool]] = slim_learning.train_step,
          train_step_kwargs: Any = _USE_DEFAULT, log_every_n_steps: int = 1,
          graph: Any = None, master: str = "", is_chief: bool = True, global_step: Any = None,
          number_of_steps: Optional[int] = None, init_op: Any = _USE_DEFAULT,
          init_feed_dict: Any = None, local_init_op: Any = _USE_DEFAULT,
          init_fn: Optional[Callable[[Any], None]] = None, ready_op: Any = _USE_DEFAULT,
          summary_op: Any = _USE_DEFAULT, save_summaries_secs: float = 600,
          summary_writer: Any = _USE_DEFAULT, startup_delay_steps: int = 0,
          saver: Any = None, save_interval_secs: float = 600, sync_optimizer: Any = None,
          session_config: Any = None, trace_every_n_steps: Optional[int] = None) -> Any:
    """Runs `tf.contrib.slim.learning.train` with `mask_update_op` run after each call of
    `train_step_fn`; the other arguments are slim's."""
    def train_step_with_pruning(sess: Any, op: Any, step: Any, kwargs: Any
                                ) -> Tuple[Any, bool]:
        total_loss, should_stop = train_step_fn(sess, op, step, kwargs)
        sess.run(mask_update_op)
        return total_loss, should_stop

    result = slim_learning.train(
        train_op, logdir, train_step_fn=train_step_with_pruning,
        train_step_kwargs=train_step_kwargs, log_every_n_steps=log_every_n_steps,
        graph=graph, master=master, is_chief=is_chief, global_step=global_step,
        number_of_steps=number_of_steps, init_op=init_op, init_feed_dict=init_feed_dict,
        local_init_op=local_init_op, init_fn=init_fn, ready_op=ready_op,
        summary_op=summary_op, save_summaries_secs=save_summaries_secs,
        summary_writer=summary_writer, startup_delay_steps=startup_delay_steps, saver=saver,
        save_interval_secs=save_interval_secs, sync_optimizer=sync_optimizer,
        session_config=session_config, trace_every_n_steps=trace_every_n_steps)
    # TF's own unpacking (see the module docstring): TypeError for a scalar loss.
    total_loss, _ = result
    return total_loss
