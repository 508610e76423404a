"""`tf.train.init_from_checkpoint`, `load_checkpoint`, `load_variable`, `list_variables`,
`checkpoints_iterator`: TF's checkpoint_utils, over serialization/checkpoint_reader.py.

`init_from_checkpoint` initializes variables from a checkpoint's values:

Each mapped variable's initializer is replaced by a RestoreV2 + assign of the checkpoint
tensor (and its initial value by the restored tensor), as TF does, so
`tf.global_variables_initializer()` loads the checkpoint into the mapped variables and
initializes the others as usual. Works with tf1compat's checkpoints and TF's own.

Assignment maps, as TF:
  * `{"ckpt/name": "var/name" or variable or [partitions]}`: one tensor;
  * `{"old_scope/": "new_scope/"}`: every variable of `tf.get_variable`'s store under
    `new_scope` from the tensor of the same name under `old_scope`;
  * `{"/": "scope/"}` / `{"scope/": "/"}`: the checkpoint's root to a scope and back.
"""

from __future__ import annotations

import os
import time
from collections import abc
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from tf1compat.util import tf_logging
from tf1compat.framework.graph import device
from tf1compat.serialization.checkpoint_reader import CheckpointReader, NewCheckpointReader
from tf1compat.training.saving import checkpoint_state

__all__ = ["init_from_checkpoint", "load_checkpoint", "load_variable", "list_variables",
           "wait_for_new_checkpoint", "checkpoints_iterator"]


def _is_variable(x: Any) -> bool:
    from tf1compat.variables.variables import Variable
    return isinstance(x, Variable)


def _checkpoint_filename(ckpt_dir_or_file: Any) -> Optional[str]:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        return checkpoint_state.latest_checkpoint(path)
    return path


def _collect_partitioned_variable(name: str, all_vars: Dict[str, Any]) -> Optional[List[Any]]:
    if name + "/part_0" in all_vars:
        out = []
        i = 0
        while f"{name}/part_{i}" in all_vars:
            out.append(all_vars[f"{name}/part_{i}"])
            i += 1
        return out
    return None


def _set_checkpoint_initializer(variable: Any, ckpt_file: str, tensor_name: str,
                                slice_spec: str, name: str = "checkpoint_initializer") -> None:
    from tf1compat.ops import io_ops
    from tf1compat.training.saving import saveable
    base_type = variable.dtype.base_dtype
    with device(variable.device), device("/cpu:0"):
        restore_op = io_ops.restore_v2(ckpt_file, [tensor_name], [slice_spec], [base_type],
                                       name=name)[0]
        names_to_saveables = saveable.op_list_to_dict([variable])
        saveables = [s for n, op in names_to_saveables.items()
                     for s in saveable.saveable_objects_for_op(op, n)]
        assert len(saveables) == 1
    init_op = saveables[0].restore([restore_op], restored_shapes=None)
    variable._initializer_op = init_op   # as TF: the Assign tensor for a ref variable
    restore_op.set_shape(variable.shape)
    variable._initial_value = restore_op


def _set_variable_or_list_initializer(variable_or_list: Any, ckpt_file: str,
                                      tensor_name: str) -> None:
    if isinstance(variable_or_list, (list, tuple)):
        slice_name = None
        for v in variable_or_list:
            info = v._get_save_slice_info()
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError(f"Slices must all be from the same tensor: {slice_name} != "
                                 f"{info.full_name}")
            _set_checkpoint_initializer(v, ckpt_file, tensor_name, info.spec)
    else:
        _set_checkpoint_initializer(variable_or_list, ckpt_file, tensor_name, "")


def init_from_checkpoint(ckpt_dir_or_file: Any, assignment_map: Any) -> None:
    """Replaces the initializers of mapped variables by loads from the checkpoint.

    Raises ValueError (as TF) for a tensor missing from the checkpoint, a shape
    mismatch, or a scope mapping that does not map to a scope.
    """
    from tf1compat.variables.partitioned import PartitionedVariable
    from tf1compat.variables.variable_scope import _get_default_variable_store
    ckpt_file = _checkpoint_filename(ckpt_dir_or_file)
    reader = load_checkpoint(ckpt_dir_or_file)
    variable_map = reader.get_variable_to_shape_map()
    if isinstance(assignment_map, abc.Mapping):
        assignment_map = assignment_map.items()
    store_vars = _get_default_variable_store()._vars
    for tensor_name_in_ckpt, current in sorted(assignment_map, key=lambda pair: pair[0]):
        var = None
        if isinstance(current, PartitionedVariable):
            current = list(current)
        if _is_variable(current) or (isinstance(current, list) and
                                     all(_is_variable(v) for v in current)):
            var = current
        else:
            var = store_vars.get(current)
            if var is None:
                var = _collect_partitioned_variable(current, store_vars)
        if var is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError(f"Tensor {tensor_name_in_ckpt} is not found in "
                                 f"{ckpt_dir_or_file} checkpoint {variable_map}")
            if _is_variable(var):
                if not var.get_shape().is_compatible_with(variable_map[tensor_name_in_ckpt]):
                    raise ValueError(
                        f"Shape of variable {var.name} ({var.get_shape()}) doesn't match with "
                        f"shape of tensor {tensor_name_in_ckpt} "
                        f"({variable_map[tensor_name_in_ckpt]}) from checkpoint reader.")
                var_name = var.name
            else:
                var_name = ",".join(v.name for v in var)
            _set_variable_or_list_initializer(var, ckpt_file, tensor_name_in_ckpt)
            tf_logging.debug("Initialize variable %s from checkpoint %s with %s", var_name,
                             ckpt_dir_or_file, tensor_name_in_ckpt)
            continue
        scopes = ""
        if "/" in current:
            scopes = current[:current.rindex("/")]
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scopes} should map to "
                             f"scope only {tensor_name_in_ckpt}. Should be 'scope/': "
                             "'other_scope/'.")
        scope_variables = set()
        for var_name in store_vars:
            if not scopes or var_name.startswith(scopes + "/"):
                if "/part_" in var_name:
                    var_name = var_name[:var_name.index("/part_")]
                scope_variables.add(var_name)
        for var_name in sorted(scope_variables):
            full_tensor_name = var_name[len(scopes):]
            if current != "/":
                full_tensor_name = full_tensor_name[1:]
            if tensor_name_in_ckpt != "/":
                full_tensor_name = tensor_name_in_ckpt + full_tensor_name
            if full_tensor_name.endswith("/"):
                full_tensor_name = full_tensor_name[:-1]
            if full_tensor_name not in variable_map:
                raise ValueError(f"Tensor {full_tensor_name} "
                                 f"({var_name[len(scopes) + 1:]} in {tensor_name_in_ckpt}) is "
                                 f"not found in {ckpt_dir_or_file} checkpoint")
            var = store_vars.get(var_name)
            if var is None:
                var = _collect_partitioned_variable(var_name, store_vars)
            _set_variable_or_list_initializer(var, ckpt_file, full_tensor_name)
            tf_logging.debug("Initialize variable %s from checkpoint %s with %s", var_name,
                             ckpt_dir_or_file, full_tensor_name)


def load_checkpoint(ckpt_dir_or_file: Any) -> CheckpointReader:
    """`tf.train.load_checkpoint`: a reader for a checkpoint prefix, or a directory's latest.

    Raises:
      ValueError: if a directory has no state file or its latest checkpoint is missing.
    """
    filename = _checkpoint_filename(ckpt_dir_or_file)
    if filename is None:
        raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory "
                         f"{ckpt_dir_or_file}")
    return NewCheckpointReader(filename)


def load_variable(ckpt_dir_or_file: Any, name: str) -> Any:
    """`tf.train.load_variable`: one tensor's value (a trailing ":0" is ignored)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file: Any) -> List[Tuple[str, List[int]]]:
    """`tf.train.list_variables`: sorted (name, shape) pairs of a checkpoint."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def wait_for_new_checkpoint(checkpoint_dir: str, last_checkpoint: Optional[str] = None,
                            seconds_to_sleep: float = 1, timeout: Optional[float] = None
                            ) -> Optional[str]:
    """Polls `checkpoint_dir` until its latest checkpoint differs from `last_checkpoint`.

    Returns the new checkpoint's prefix, or None after `timeout` seconds.
    """
    tf_logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = checkpoint_state.latest_checkpoint(checkpoint_dir)
        if path is None or path == last_checkpoint:
            if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
                return None
            time.sleep(seconds_to_sleep)
        else:
            tf_logging.info("Found new checkpoint at %s", path)
            return path


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0,
                         timeout: Optional[float] = None,
                         timeout_fn: Optional[Callable[[], bool]] = None) -> Iterator[str]:
    """`tf.train.checkpoints_iterator`: yields each new checkpoint as it appears.

    Stops after `timeout` seconds without a new checkpoint, unless `timeout_fn` returns
    False (keep waiting).
    """
    checkpoint_path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_path is None:
            if not timeout_fn:
                tf_logging.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        checkpoint_path = new_path
        yield checkpoint_path
        remaining = start + min_interval_secs - time.time()
        if remaining > 0:
            time.sleep(remaining)
