"""`tf.contrib.learn.RunConfig`: TF 1.x's contrib RunConfig (a `tf.estimator.RunConfig`
with the contrib arguments: master, num_cores, log_device_placement, gpu_memory_fraction,
evaluation_master) and `uid()`, which learn_runner uses to check the Estimator got it."""

from __future__ import annotations

import collections
from typing import Any, List, Optional

from tf1compat.estimator import run_config as core_run_config

__all__ = ["RunConfig", "Environment", "TaskType"]

_USE_DEFAULT = 0
_DEFAULT_UID_WHITE_LIST = [
    "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
    "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours", "log_step_count_steps"]


class Environment:
    """Where a contrib.learn job runs."""

    LOCAL = "local"
    CLOUD = "cloud"
    GOOGLE = "google"


TaskType = core_run_config.TaskType


class RunConfig(core_run_config.RunConfig):
    """The contrib.learn RunConfig (deprecated in TF 1.x in favour of
    tf.estimator.RunConfig, which it extends)."""

    def __init__(self, master: Optional[str] = None, num_cores: int = 0,
                 log_device_placement: bool = False, gpu_memory_fraction: float = 1,
                 tf_random_seed: Optional[int] = None, save_summary_steps: int = 100,
                 save_checkpoints_secs: Any = _USE_DEFAULT,
                 save_checkpoints_steps: Optional[int] = None, keep_checkpoint_max: int = 5,
                 keep_checkpoint_every_n_hours: float = 10000,
                 log_step_count_steps: int = 100, evaluation_master: str = "",
                 model_dir: Optional[str] = None, session_config: Any = None):
        from tf1compat.runtime.config import ConfigProto, GPUOptions
        if save_checkpoints_secs == _USE_DEFAULT:
            save_checkpoints_secs = 600 if save_checkpoints_steps is None else None
        super().__init__(model_dir=model_dir, tf_random_seed=tf_random_seed,
                         save_summary_steps=save_summary_steps,
                         save_checkpoints_steps=save_checkpoints_steps,
                         save_checkpoints_secs=save_checkpoints_secs,
                         session_config=session_config,
                         keep_checkpoint_max=keep_checkpoint_max,
                         keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                         log_step_count_steps=log_step_count_steps)
        if master is not None:
            self._master = master
        self._evaluation_master = evaluation_master or ""
        self._environment = Environment.LOCAL
        self._tf_config = ConfigProto(
            log_device_placement=log_device_placement,
            inter_op_parallelism_threads=num_cores, intra_op_parallelism_threads=num_cores,
            gpu_options=GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction))

    @property
    def tf_config(self) -> Any:
        return self._tf_config

    @property
    def environment(self) -> str:
        return self._environment

    def uid(self, whitelist: Optional[List[str]] = None) -> str:
        """A string of all settings except the whitelisted ones (TF's uid): equal for
        copies of one config."""
        if whitelist is None:
            whitelist = _DEFAULT_UID_WHITE_LIST
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("__")}
        for key in whitelist:
            state.pop("_" + key, None)
        ordered = collections.OrderedDict(sorted(state.items(), key=lambda t: t[0]))
        if "_cluster_spec" in ordered:
            ordered["_cluster_spec"] = collections.OrderedDict(
                sorted(ordered["_cluster_spec"].as_dict().items(), key=lambda t: t[0]))
        if "_tf_config" in ordered:
            ordered["_tf_config"] = repr(ordered["_tf_config"])
        return ", ".join("%s=%r" % (k, v) for k, v in ordered.items())
