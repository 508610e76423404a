"""`tf.compat.v1.estimator.tpu.TPUConfig`, `InputPipelineConfig`, `RunConfig` (also
`tf.contrib.tpu.*`): TPU settings carried by a RunConfig. On CPU/GPU (`use_tpu=False`)
only their validation and values matter."""

from __future__ import annotations

import collections
import json
import os
import re
from typing import Any, Optional

import numpy as np

from tf1compat.estimator import run_config as run_config_lib

__all__ = ["InputPipelineConfig", "TPUConfig", "RunConfig", "check_positive_integer",
           "parse_iterations_per_loop"]

_ITERATIONS_RE = re.compile(r"^(?P<value>[1-9]\d*)((?P<suffix>[s|m|h])$|$)")
IterationsPerLoopCounter = collections.namedtuple("IterationsPerLoopCounter",
                                                  ["value", "unit"])


def check_positive_integer(value: Any, name: str) -> None:
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be int, got {type(value)}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")


def parse_iterations_per_loop(iterations_per_loop: Any) -> IterationsPerLoopCounter:
    """`N` steps or `N<s|m|h>` seconds."""
    m = _ITERATIONS_RE.match(str(iterations_per_loop))
    if m is None:
        raise ValueError(
            "Invalid TPUConfig `iterations_per_loop` value. Value must be positive integer "
            "value or time-based value `<N><s|m|h>` where <N> is anypositive integer and `s`, "
            "`m`, `h` are unit of time in seconds, minutes, hours respectively. Examples of "
            "valid values: `3600s`, `60m`, `1h`.")
    value = int(m.group("value")) * {"m": 60, "h": 3600}.get(m.group("suffix"), 1)
    unit = "seconds" if m.group("suffix") in ("h", "m", "s") else "count"
    return IterationsPerLoopCounter(value, unit)


class InputPipelineConfig:
    """How TPU input pipelines are deployed (ignored on CPU/GPU)."""

    PER_SHARD_V1 = 1
    PER_HOST_V1 = 2
    PER_HOST_V2 = 3
    BROADCAST = 4
    SLICED = 5


def _tpu_job_name_from_tf_config() -> Optional[str]:
    service = json.loads(os.environ.get("TF_CONFIG", "{}")).get("service", {})
    return service.get("tpu_worker_job_name")


class TPUConfig(collections.namedtuple("TPUConfig", [
        "iterations_per_loop", "num_shards", "num_cores_per_replica",
        "per_host_input_for_training", "tpu_job_name", "initial_infeed_sleep_secs",
        "input_partition_dims", "eval_training_input_configuration",
        "experimental_host_call_every_n_steps",
        "experimental_allow_per_host_v2_parallel_get_next", "experimental_feed_hook"])):
    """TPU-specific configuration (TF's checks)."""

    def __new__(cls, iterations_per_loop: Any = 2, num_shards: Optional[int] = None,
                num_cores_per_replica: Optional[int] = None,
                per_host_input_for_training: Any = True, tpu_job_name: Optional[str] = None,
                initial_infeed_sleep_secs: Optional[int] = None,
                input_partition_dims: Any = None,
                eval_training_input_configuration: int = InputPipelineConfig.PER_HOST_V1,
                experimental_host_call_every_n_steps: int = 1,
                experimental_allow_per_host_v2_parallel_get_next: bool = False,
                experimental_feed_hook: Any = None):
        parse_iterations_per_loop(iterations_per_loop)
        if num_shards is not None:
            check_positive_integer(num_shards, "TPUConfig num_shards")
        if input_partition_dims is not None:
            if len(input_partition_dims) not in (1, 2):
                raise ValueError("input_partition_dims must be a list/tuple with one or two "
                                 "elements.")
            if per_host_input_for_training is not InputPipelineConfig.PER_HOST_V2:
                raise ValueError("input_partition_dims is only supported in PER_HOST_V2 "
                                 "mode.")
            if num_cores_per_replica is None:
                raise ValueError("input_partition_dims requires setting "
                                 "num_cores_per_replica.")
        if num_cores_per_replica is not None and \
                num_cores_per_replica not in (1, 2, 4, 8, 16, 32, 64, 128):
            raise ValueError("num_cores_per_replica must be 1, 2, 4, 8, 16, 32, 64, 128; got "
                             f"{num_cores_per_replica}")
        if eval_training_input_configuration not in (InputPipelineConfig.PER_HOST_V1,
                                                     InputPipelineConfig.SLICED):
            raise ValueError("eval_training_input_configuration must be PER_HOST_V1 or "
                             f"SLICED; got {eval_training_input_configuration}")
        if per_host_input_for_training is False:
            per_host_input_for_training = InputPipelineConfig.PER_SHARD_V1
        elif per_host_input_for_training is True:
            per_host_input_for_training = InputPipelineConfig.PER_HOST_V1
        if initial_infeed_sleep_secs:
            check_positive_integer(initial_infeed_sleep_secs,
                                   "TPUConfig initial_infeed_sleep_secs")
        return super().__new__(
            cls, iterations_per_loop=iterations_per_loop, num_shards=num_shards,
            num_cores_per_replica=num_cores_per_replica,
            per_host_input_for_training=per_host_input_for_training,
            tpu_job_name=tpu_job_name or _tpu_job_name_from_tf_config(),
            initial_infeed_sleep_secs=initial_infeed_sleep_secs,
            input_partition_dims=input_partition_dims,
            eval_training_input_configuration=eval_training_input_configuration,
            experimental_host_call_every_n_steps=experimental_host_call_every_n_steps,
            experimental_allow_per_host_v2_parallel_get_next=(
                experimental_allow_per_host_v2_parallel_get_next),
            experimental_feed_hook=experimental_feed_hook)


class RunConfig(run_config_lib.RunConfig):
    """A RunConfig with a `tpu_config` (and TPU master/cluster settings)."""

    def __init__(self, tpu_config: Optional[TPUConfig] = None,
                 evaluation_master: Optional[str] = None, master: Optional[str] = None,
                 cluster: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        self._tpu_config = tpu_config or TPUConfig()
        self._cluster = cluster
        if master is not None:
            if cluster is not None:
                raise ValueError("Both master and cluster are set.")
            self._master = master
        elif cluster:
            raise NotImplementedError("tf.contrib.tpu.RunConfig(cluster=...): TPU cluster "
                                      "resolvers are not supported by tf1compat.")
        if evaluation_master is not None:
            self._evaluation_master = evaluation_master
        elif not self._evaluation_master and \
                self.task_type != run_config_lib.TaskType.EVALUATOR:
            self._evaluation_master = self._master

    @property
    def tpu_config(self) -> TPUConfig:
        return self._tpu_config

    @property
    def cluster(self) -> Any:
        return self._cluster

    def replace(self, **kwargs: Any) -> "RunConfig":
        if "tpu_config" not in kwargs:
            return super().replace(**kwargs)
        tpu_config = kwargs.pop("tpu_config")
        new = super().replace(**kwargs)
        new._tpu_config = tpu_config
        return new
