"""`tensorflow.python.tools.inspect_checkpoint`: print what a checkpoint holds.

The TF guide's recipe (`from tensorflow.python.tools import inspect_checkpoint as chkp;
chkp.print_tensors_in_checkpoint_file(path, tensor_name='', all_tensors=True)`) prints
the same lines as TensorFlow for both tf1compat and TF checkpoints; `tf1compat run -m
tensorflow.python.tools.inspect_checkpoint --file_name=... [--tensor_name=...]
[--all_tensors] [--all_tensor_names] [--count_exclude_pattern=...] [--printoptions k=v]`
is TF's script.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.framework import errors
from tf1compat.serialization.checkpoint_reader import NewCheckpointReader

__all__ = ["print_tensors_in_checkpoint_file", "parse_numpy_printoption", "main", "run_main"]


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


def _parse_bool(text: str) -> bool:
    """absl's boolean flag values."""
    lowered = text.lower()
    if lowered in ("true", "t", "1"):
        return True
    if lowered in ("false", "f", "0"):
        return False
    raise ValueError(f"Non-boolean argument to boolean flag: {text!r}")


def parse_numpy_printoption(kv_str: str) -> None:
    """Sets one numpy print option from "key=value" (argparse.ArgumentTypeError if the
    key is unknown, not settable from a string, or the text is not "k=v")."""
    k_v = kv_str.split("=", 1)
    if len(k_v) != 2 or not k_v[0]:
        raise argparse.ArgumentTypeError("'%s' is not in the form k=v." % kv_str)
    key, value_str = k_v
    printoptions = np.get_printoptions()
    if key not in printoptions:
        raise argparse.ArgumentTypeError("'%s' is not a valid printoption." % key)
    value_type = type(printoptions[key])
    if value_type is type(None):
        raise argparse.ArgumentTypeError(
            "Setting '%s' from the command line is not supported." % key)
    try:
        value = _parse_bool(value_str) if value_type is bool else value_type(value_str)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    np.set_printoptions(**{key: value})


def main(flags: argparse.Namespace) -> None:
    """The script's body: the usage line (exit status 1) without --file_name."""
    if not flags.file_name:
        print("Usage: inspect_checkpoint --file_name=checkpoint_file_name "
              "[--tensor_name=tensor_to_print] [--all_tensors] [--all_tensor_names] "
              "[--count_exclude_pattern] [--printoptions]")
        sys.exit(1)
    print_tensors_in_checkpoint_file(flags.file_name, flags.tensor_name, flags.all_tensors,
                                     flags.all_tensor_names,
                                     count_exclude_pattern=flags.count_exclude_pattern)


def run_main(argv: Optional[Sequence[str]] = None) -> None:
    """`python -m tensorflow.python.tools.inspect_checkpoint --file_name=...`."""
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    for flag in ("file_name", "tensor_name", "count_exclude_pattern"):
        parser.add_argument("--" + flag, type=str, default="")
    for flag in ("all_tensors", "all_tensor_names"):
        parser.add_argument("--" + flag, nargs="?", const=True, type="bool", default=False)
    parser.add_argument("--printoptions", nargs="*", type=parse_numpy_printoption)
    flags, unparsed = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if unparsed:
        raise SystemExit(f"inspect_checkpoint: unknown flags {unparsed}")
    main(flags)


if __name__ == "__main__":
    run_main()
