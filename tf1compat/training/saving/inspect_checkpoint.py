"""`tensorflow.python.tools.inspect_checkpoint`: print what a checkpoint holds.

The TF guide's recipe (`from tensorflow.python.tools import inspect_checkpoint as chkp;
chkp.print_tensors_in_checkpoint_file(path, tensor_name='', all_tensors=True)`) prints
the same lines as TensorFlow for both tf1compat and TF checkpoints.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tf1compat.framework import errors
from tf1compat.serialization.checkpoint_reader import NewCheckpointReader

__all__ = ["print_tensors_in_checkpoint_file"]


def _count_total_params(reader: Any, count_exclude_pattern: str = "") -> int:
    """The number of values in the checkpoint, less tensors matching the pattern."""
    shapes = reader.get_variable_to_shape_map()
    if count_exclude_pattern:
        regex = re.compile(count_exclude_pattern)
        excluded = [k for k in shapes if regex.search(k)]
        excluded_params = sum(int(np.prod(shapes[k])) for k in excluded)
        print("# Excluding %d tensors (%d params) that match %s when counting." % (
            len(excluded), excluded_params, count_exclude_pattern))
        shapes = {k: v for k, v in shapes.items() if k not in set(excluded)}
    return int(sum(int(np.prod(v)) for v in shapes.values()))


def print_tensors_in_checkpoint_file(file_name: str, tensor_name: str, all_tensors: bool,
                                     all_tensor_names: bool = False,
                                     count_exclude_pattern: str = "") -> None:
    """Prints a checkpoint's tensors, as TF's inspect_checkpoint does.

    `all_tensors` / `all_tensor_names`: every tensor's name, dtype and shape (and value);
    else a `tensor_name` prints that tensor, and no name prints the reader's debug string.
    A total parameter count ends the output. Errors are printed, not raised (as TF).
    """
    try:
        reader = NewCheckpointReader(file_name)
        if all_tensors or all_tensor_names:
            shapes = reader.get_variable_to_shape_map()
            dtypes = reader.get_variable_to_dtype_map()
            for key, value in sorted(shapes.items()):
                print("tensor: %s (%s) %s" % (key, dtypes[key].name, value))
                if all_tensors:
                    print(reader.get_tensor(key))
        elif not tensor_name:
            print(reader.debug_string().decode("utf-8", errors="ignore"))
        else:
            if not reader.has_tensor(tensor_name):
                print("Tensor %s not found in checkpoint" % tensor_name)
                return
            shapes = reader.get_variable_to_shape_map()
            dtypes = reader.get_variable_to_dtype_map()
            print("tensor: %s (%s) %s" % (tensor_name, dtypes[tensor_name].name,
                                          shapes[tensor_name]))
            print(reader.get_tensor(tensor_name))
        print("# Total number of params: %d" % _count_total_params(
            reader, count_exclude_pattern=count_exclude_pattern))
    except (errors.OpError, ValueError, OSError) as e:
        print(str(e))
