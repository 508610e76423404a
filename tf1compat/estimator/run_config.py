"""`tf.estimator.RunConfig`: where an Estimator writes and how often it saves/logs.

The distribution fields (`TF_CONFIG` cluster, task type/id, master, number of replicas,
the device filters of a cluster task's default session config) are read as TF reads them;
`train_and_evaluate` runs each task of such a cluster (estimator/distributed_training.py).
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any, Dict, Iterable, Optional

from tf1compat.util import tf_logging
from tf1compat.estimator.collective_training import between_graph_mode
from tf1compat.estimator.util import fn_args

__all__ = ["RunConfig", "TaskType", "get_default_session_config"]

_USE_DEFAULT = object()
_SAVE_CKPT_ERR = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
_FROM_TF_CONFIG = ("\n\nNote that these values may be coming from the TF_CONFIG environment "
                   "variable.")
_REPLACEABLE = (
    "model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
    "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute", "device_fn",
    "protocol", "eval_distribute", "experimental_distribute",
    "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
    "checkpoint_save_graph_def")


class TaskType:
    """Task types of a `TF_CONFIG` cluster."""

    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


def get_default_session_config() -> Any:
    """TF's default session config for Estimators: soft placement, one meta-optimizer
    iteration."""
    from tf1compat.runtime.config import ConfigProto, GraphOptions, RewriterConfig
    rewrite = RewriterConfig(meta_optimizer_iterations=RewriterConfig.ONE)
    return ConfigProto(allow_soft_placement=True,
                       graph_options=GraphOptions(rewrite_options=rewrite))


def _distributed_session_config(task_type: str, task_id: int) -> Any:
    """TF's default session config for a between-graph cluster task: the default one plus
    device filters so trainers talk only to the ps tasks (None for other task types)."""
    filters = {TaskType.MASTER: ["/job:ps", "/job:master"],
               TaskType.CHIEF: ["/job:ps", "/job:chief"],
               TaskType.WORKER: ["/job:ps", "/job:worker/task:%d" % task_id],
               TaskType.PS: ["/job:ps", "/job:worker", "/job:chief", "/job:master"]}
    if task_type not in filters:
        return None
    config = get_default_session_config()
    config.device_filters.extend(filters[task_type])
    return config


def path_to_str(path: Any) -> Any:
    """`os.PathLike` paths as strings (TF accepts pathlib paths for model_dir)."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def _model_dir_from(tf_config: Dict[str, Any], model_dir: Optional[str]) -> Optional[str]:
    if model_dir == "":
        raise ValueError("model_dir should be non-empty.")
    in_config = tf_config.get("model_dir")
    if in_config == "":
        raise ValueError("model_dir in TF_CONFIG should be non-empty.")
    if in_config:
        if model_dir and in_config != model_dir:
            raise ValueError(
                "`model_dir` provided in RunConfig construct, if set, must have the same "
                "value as the model_dir in TF_CONFIG. model_dir: {}\nTF_CONFIG[\"model_dir\"]: "
                "{}.\n".format(model_dir, in_config))
        tf_logging.info("Using model_dir in TF_CONFIG: %s", in_config)
    return model_dir or in_config


def _check(value: Any, ok: bool, message: str) -> None:
    if value is not None and not ok:
        raise ValueError(message)


class RunConfig:
    """`tf.estimator.RunConfig`: model directory, seeds, checkpoint/summary/log cadence,
    session config. Immutable: `replace()` returns a modified copy."""

    def __init__(self, model_dir: Optional[str] = None, tf_random_seed: Optional[int] = None,
                 save_summary_steps: int = 100, save_checkpoints_steps: Any = _USE_DEFAULT,
                 save_checkpoints_secs: Any = _USE_DEFAULT, session_config: Any = None,
                 keep_checkpoint_max: int = 5, keep_checkpoint_every_n_hours: float = 10000,
                 log_step_count_steps: int = 100, train_distribute: Any = None,
                 device_fn: Any = None, protocol: Optional[str] = None,
                 eval_distribute: Any = None, experimental_distribute: Any = None,
                 experimental_max_worker_delay_secs: Optional[int] = None,
                 session_creation_timeout_secs: int = 7200,
                 checkpoint_save_graph_def: bool = True):
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, 600
        elif save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_secs = None
        elif save_checkpoints_steps is _USE_DEFAULT:
            save_checkpoints_steps = None
        elif save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError(_SAVE_CKPT_ERR)
        tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
        if tf_config:
            tf_logging.info("TF_CONFIG environment variable: %s", tf_config)
        model_dir = _model_dir_from(tf_config, path_to_str(model_dir))
        RunConfig._replace(
            self, _REPLACEABLE, model_dir=model_dir, tf_random_seed=tf_random_seed,
            save_summary_steps=save_summary_steps,
            save_checkpoints_steps=save_checkpoints_steps,
            save_checkpoints_secs=save_checkpoints_secs, session_config=session_config,
            keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            log_step_count_steps=log_step_count_steps, train_distribute=train_distribute,
            device_fn=device_fn, protocol=protocol, eval_distribute=eval_distribute,
            experimental_distribute=experimental_distribute,
            experimental_max_worker_delay_secs=experimental_max_worker_delay_secs,
            session_creation_timeout_secs=session_creation_timeout_secs,
            checkpoint_save_graph_def=checkpoint_save_graph_def)
        if experimental_distribute is not None:
            raise NotImplementedError("RunConfig(experimental_distribute=DistributeConfig): "
                                      "tf.contrib.distribute.DistributeConfig is not "
                                      "provided; pass train_distribute= / eval_distribute=")
        self._distribute_coordinator_mode = between_graph_mode(self, tf_config)
        if self._distribute_coordinator_mode:
            return
        self._init_cluster(tf_config)
        if (train_distribute is not None or eval_distribute is not None) and \
                self._cluster_spec and "master" not in self._cluster_spec.jobs:
            raise NotImplementedError("RunConfig(train_distribute=) of an in-graph strategy "
                                      "with a TF_CONFIG cluster (TF's distribute "
                                      "coordinator running it per worker) is not provided "
                                      "by tf1compat: across workers use "
                                      "tf.distribute.experimental."
                                      "MultiWorkerMirroredStrategy")
        if self._session_config is None and self._cluster_spec:
            self._session_config = _distributed_session_config(self._task_type,
                                                               self._task_id)

    # -- TF_CONFIG ----------------------------------------------------------------------------
    def _init_cluster(self, tf_config: Dict[str, Any]) -> None:
        from tf1compat.training.device_setter import ClusterSpec
        service = tf_config.get("service")
        if service is not None and not isinstance(service, dict):
            raise TypeError("If \"service\" is set in TF_CONFIG, it must be a dict. Given "
                            f"{type(service)}")
        self._service = service
        self._cluster_spec = ClusterSpec(tf_config.get("cluster", {}))
        task = tf_config.get("task", {})
        # Only an evaluator task takes `eval_session_master` (TF's rule).
        self._evaluation_master = tf_config.get("eval_session_master", "") \
            if task.get("type") == TaskType.EVALUATOR else ""
        if self._cluster_spec.jobs:
            self._init_from_cluster(task, tf_config)
            return
        self._task_type = task.get("type", TaskType.WORKER)
        self._task_id = int(task.get("index", 0))
        if self._task_type != TaskType.WORKER:
            raise ValueError("If \"cluster\" is not set in TF_CONFIG, task type must be "
                             "WORKER.")
        if self._task_id != 0:
            raise ValueError("If \"cluster\" is not set in TF_CONFIG, task index must be 0.")
        self._master = tf_config.get("session_master", "")
        self._global_id_in_cluster = 0
        self._is_chief = True
        self._num_ps_replicas = 0
        self._num_worker_replicas = 1

    def _init_from_cluster(self, task: Dict[str, Any], tf_config: Dict[str, Any]) -> None:
        jobs = self._cluster_spec.jobs
        chief = TaskType.MASTER if TaskType.MASTER in jobs else TaskType.CHIEF
        if chief == TaskType.MASTER and TaskType.CHIEF in jobs:
            raise ValueError("If `master` node exists in `cluster`, job `chief` is not "
                             "supported.")
        if chief not in jobs:
            raise ValueError(f"If \"cluster\" is set in TF_CONFIG, it must have one "
                             f"\"{chief}\" node.")
        if len(self._cluster_spec.job_tasks(chief)) > 1:
            raise ValueError(f"The \"cluster\" in TF_CONFIG must have only one \"{chief}\" "
                             "node.")
        task_type, task_id = task.get("type"), task.get("index")
        if not task_type:
            raise ValueError("If \"cluster\" is set in TF_CONFIG, task type must be set.")
        if task_id is None:
            raise ValueError("If \"cluster\" is set in TF_CONFIG, task index must be set.")
        task_id = int(task_id)
        if task_id < 0:
            raise ValueError("Task index must be non-negative number.")
        self._task_type, self._task_id = task_type, task_id
        if task_type == TaskType.EVALUATOR:
            from tf1compat.training.device_setter import ClusterSpec
            self._cluster_spec = ClusterSpec({})
            self._master = ""
            self._num_ps_replicas = self._num_worker_replicas = 0
            self._global_id_in_cluster = None
            self._is_chief = False
            return
        if task_type not in jobs:
            raise ValueError(f"{task_type} is not a valid task_type in the cluster_spec:\n"
                             f"{self._cluster_spec}{_FROM_TF_CONFIG}")
        addresses = self._cluster_spec.job_tasks(task_type)
        if not 0 <= task_id < len(addresses):
            raise ValueError(f"{task_id} is not a valid task_id for task_type {task_type} "
                             f"in the cluster_spec:\n{self._cluster_spec}{_FROM_TF_CONFIG}")
        if "session_master" in tf_config:
            self._master = tf_config["session_master"]
        elif len(jobs) == 1 and len(self._cluster_spec.job_tasks(jobs[0])) == 1:
            self._master = ""
        else:
            self._master = "grpc://" + addresses[task_id]
        as_dict = self._cluster_spec.as_dict()
        self._num_ps_replicas = len(as_dict.get(TaskType.PS, []))
        self._num_worker_replicas = len(as_dict.get(TaskType.WORKER, [])) + \
            len(as_dict.get(chief, []))
        order = [chief] + [t for t in sorted(jobs) if t not in (chief, TaskType.PS)]
        if TaskType.PS in jobs:
            order.append(TaskType.PS)
        next_id = 0
        for t in order:
            if t == task_type:
                self._global_id_in_cluster = next_id + task_id
                break
            next_id += len(self._cluster_spec.job_tasks(t))
        self._is_chief = task_type == chief

    # -- properties ---------------------------------------------------------------------------
    cluster_spec = property(lambda self: self._cluster_spec)
    device_fn = property(lambda self: self._device_fn)
    evaluation_master = property(lambda self: self._evaluation_master)
    is_chief = property(lambda self: self._is_chief)
    master = property(lambda self: self._master)
    num_ps_replicas = property(lambda self: self._num_ps_replicas)
    num_worker_replicas = property(lambda self: self._num_worker_replicas)
    task_id = property(lambda self: self._task_id)
    task_type = property(lambda self: self._task_type)
    global_id_in_cluster = property(lambda self: self._global_id_in_cluster)
    experimental_max_worker_delay_secs = property(
        lambda self: self._experimental_max_worker_delay_secs)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    save_checkpoints_steps = property(lambda self: self._save_checkpoints_steps)
    session_config = property(lambda self: self._session_config)
    checkpoint_save_graph_def = property(lambda self: self._checkpoint_save_graph_def)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(lambda self: self._keep_checkpoint_every_n_hours)
    session_creation_timeout_secs = property(lambda self: self._session_creation_timeout_secs)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    model_dir = property(lambda self: self._model_dir)
    service = property(lambda self: self._service)
    train_distribute = property(lambda self: self._train_distribute)
    eval_distribute = property(lambda self: self._eval_distribute)
    experimental_distribute = property(lambda self: self._experimental_distribute)
    protocol = property(lambda self: self._protocol)

    def replace(self, **kwargs: Any) -> "RunConfig":
        """A copy with the given properties replaced (`model_dir`, `tf_random_seed`,
        `save_*`, `session_config`, `keep_checkpoint_*`, `log_step_count_steps`, ...)."""
        return RunConfig._replace(copy.deepcopy(self), _REPLACEABLE, **kwargs)

    @staticmethod
    def _replace(config: "RunConfig", allowed: Iterable[str], **kwargs: Any) -> "RunConfig":
        allowed = list(allowed)
        for key, value in kwargs.items():
            if key not in allowed:
                raise ValueError(f"Replacing {key} is not supported. Allowed properties are "
                                 f"{allowed}.")
            setattr(config, "_" + key, value)
        steps, secs = config._save_checkpoints_steps, config._save_checkpoints_secs
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" in kwargs:
            if steps is not None and secs is not None:
                raise ValueError(_SAVE_CKPT_ERR)
        elif "save_checkpoints_steps" in kwargs and steps is not None:
            config._save_checkpoints_secs = None
        elif "save_checkpoints_secs" in kwargs and secs is not None:
            config._save_checkpoints_steps = None
        _validate(config)
        return config


def _validate(config: RunConfig) -> None:
    from tf1compat.runtime.config import ConfigProto
    _check(config._save_summary_steps, config._save_summary_steps is None or
           config._save_summary_steps >= 0, "save_summary_steps should be >= 0")
    _check(config._save_checkpoints_steps, config._save_checkpoints_steps is None or
           config._save_checkpoints_steps >= 0, "save_checkpoints_steps should be >= 0")
    _check(config._save_checkpoints_secs, config._save_checkpoints_secs is None or
           config._save_checkpoints_secs >= 0, "save_checkpoints_secs should be >= 0")
    _check(config._session_config, isinstance(config._session_config, ConfigProto),
           "session_config must be instance of ConfigProto")
    _check(config._keep_checkpoint_max, config._keep_checkpoint_max is None or
           config._keep_checkpoint_max >= 0, "keep_checkpoint_max should be >= 0")
    _check(config._keep_checkpoint_every_n_hours, config._keep_checkpoint_every_n_hours is
           None or config._keep_checkpoint_every_n_hours > 0,
           "keep_checkpoint_every_n_hours should be > 0")
    _check(config._log_step_count_steps, config._log_step_count_steps is None or
           config._log_step_count_steps > 0, "log_step_count_steps should be > 0")
    _check(config._tf_random_seed, isinstance(config._tf_random_seed, int),
           "tf_random_seed must be integer.")
    _check(config._experimental_max_worker_delay_secs,
           isinstance(config._experimental_max_worker_delay_secs, int),
           "experimental_max_worker_delay_secs must be an integer if set.")
    _check(config._session_creation_timeout_secs, config._session_creation_timeout_secs is
           None or config._session_creation_timeout_secs > 0,
           "session_creation_timeout_secs should be > 0")
    _check(config._device_fn, callable(config._device_fn) and
           set(fn_args(config._device_fn)) == {"op"},
           "device_fn must be callable with exactly one argument \"op\".")
    _check(config._protocol, config._protocol in (None, "grpc", "grpc+verbs"),
           "protocol should be grpc or grpc+verbs")
