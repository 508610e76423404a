"""`tf.print`: TF's print_v2 wrapper and the PrintV2 op (StringFormat is in string_ops.py).

The wrapper builds exactly TF's template: each input is flattened (dicts in sorted key
order), tensors become a placeholder that appears nowhere else, Python values stay as
they are, the structure is `pprint.pformat`ted (a top-level Python string is used as it
is) and the quotes around placeholders are dropped. One StringFormat op (`<name>_format`)
summarizes the tensors into it (first and last `summarize` elements per dimension), one
PrintV2 op writes the string to the chosen stream when it runs: in a TF1 graph only when
fetched or a control dependency, as in TF; under eager execution at once.
"""

from __future__ import annotations

import collections
import logging
import os
import pprint
import random
import sys
from typing import Any, Callable, Dict, List

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.op_def import declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.ops._shape_rules import node_desc
from tf1compat.util import nest
from tf1compat.util import tf_logging

__all__ = ["print_v2"]


def _write_console(stream_name: str) -> Callable[[str], None]:
    def write(text: str) -> None:
        # Looked up at each write: tests and notebooks replace sys.stdout/sys.stderr.
        stream = getattr(sys, stream_name)
        raw = text.encode("utf-8", "surrogateescape")
        buffer = getattr(stream, "buffer", None)
        if buffer is not None and raw != text.encode("utf-8", "replace"):
            # Bytes that are not UTF-8 go out as they are, as TF writes them.
            stream.flush()
            buffer.write(raw)
            buffer.flush()
        else:
            stream.write(text if buffer is not None else raw.decode("utf-8", "replace"))
        stream.flush()
    return write


def _stream_writer(output_stream: str) -> Callable[[str], None]:
    if output_stream in ("stderr", "stdout"):
        return _write_console(output_stream)
    levels = {"log(info)": logging.INFO, "log(warning)": logging.WARNING,
              "log(error)": logging.ERROR}
    if output_stream in levels:
        level = levels[output_stream]
        # TF logs the string without its end (LOG(INFO) adds the line break).
        return lambda text: tf_logging.get_logger().log(level, text.rstrip("\n"))
    if output_stream.startswith("file://"):
        path = output_stream[len("file://"):]

        def append(text: str) -> None:
            with open(path, "a", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
        return append
    raise ValueError(f"Unknown output stream: {output_stream}")


def _print_v2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    end = node.attrs["end"]
    write = _stream_writer(node.attrs["output_stream"])

    def print_(text: Any) -> None:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "surrogateescape")
        write(f"{text}{end}")
    return print_


def _print_v2_shape(ctx: Any) -> list:
    if ctx.rank(0) not in (None, 0):
        raise ValueError(f"input must be a scalar, but has rank: {ctx.rank(0)} "
                         f"{node_desc(ctx)}")
    return []


declare("PrintV2", inputs=["input: string"], outputs=[],
        attrs={"output_stream": "stderr", "end": "\n"},
        shape=_print_v2_shape, kernel=_print_v2_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Writes a string scalar to stderr, stdout, the log or a file.")


def _output_stream_name(output_stream: Any) -> str:
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    known: Dict[Any, str] = {sys.stdout: "stdout", sys.stderr: "stderr"}
    for name, values in (("log(info)", (tf_logging.INFO, tf_logging.info, logging.info)),
                         ("log(warning)", (tf_logging.WARN, tf_logging.warning,
                                           tf_logging.warn, logging.warning, logging.warn)),
                         ("log(error)", (tf_logging.ERROR, tf_logging.error,
                                         logging.error))):
        for value in values:
            known[value] = name
    try:
        found = known.get(output_stream)
    except TypeError:  # unhashable
        found = None
    if not found:
        raise ValueError("Unsupported output stream, logging level, or file." +
                         str(output_stream) + ". Supported streams are sys.stdout, "
                         "sys.stderr, tf.logging.info, tf.logging.warning, "
                         "tf.logging.error. File needs to be in the form of "
                         "'file://<filepath>'.")
    return found


def _placeholder_for(template: str) -> str:
    """TF's choice of a placeholder string absent from the tensor-free template."""
    placeholder = "{}"
    rng = random.Random(5)
    while placeholder in template:
        placeholder += str(rng.randint(0, 9))
    return placeholder


def _is_tensor(x: Any) -> bool:
    # Variables print their values, as TF's `tensor_util.is_tf_type` takes them for tensors.
    return isinstance(x, SparseTensor) or is_tensor(x)


def print_v2(*inputs: Any, **kwargs: Any) -> Any:
    """`tf.print`: prints tensors (summarized), structures holding them and Python values.

    Keyword arguments: `output_stream` (sys.stderr, sys.stdout, tf.logging.info/warning/
    error or "file://<path>"), `summarize` (elements shown at each end of every dimension;
    -1 or None: all), `sep`, `end`, `name`. Returns the PrintV2 op (None under eager
    execution, where it prints at once).
    """
    from tf1compat.ops.string_ops import string_format
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    if summarize is None:
        summarize = -1
    stream = _output_stream_name(output_stream)
    first = inputs[0] if len(inputs) == 1 else None
    if isinstance(first, Tensor) and first.shape.ndims == 0 and first.dtype == D.string:
        formatted = first
    else:
        ordered = [collections.OrderedDict(sorted(x.items()))
                   if isinstance(x, collections.OrderedDict) else x for x in inputs]
        free = nest.map_structure(lambda x: "" if _is_tensor(x) else x, ordered)
        placeholder = _placeholder_for(" ".join(pprint.pformat(x) for x in free))
        templates: List[str] = []
        tensors: List[Any] = []
        for item in inputs:
            marks: List[Any] = []
            for x in nest.flatten(item):
                if isinstance(x, SparseTensor):
                    tensors.extend([x.indices, x.values, x.dense_shape])
                    marks.append(f"SparseTensor(indices={placeholder}, values={placeholder},"
                                 f" shape={placeholder})")
                elif _is_tensor(x):
                    tensors.append(x)
                    marks.append(placeholder)
                else:
                    marks.append(x)
            if isinstance(item, str):
                templates.append(item)
            else:
                templates.append(pprint.pformat(nest.pack_sequence_as(item, marks)))
        template = sep.join(templates).replace(f"'{placeholder}'", placeholder)
        formatted = string_format(template, tensors, placeholder=placeholder,
                                  summarize=summarize,
                                  name=None if not name else f"{name}_format")
    op = apply_op("PrintV2", [formatted], {"output_stream": stream, "end": end}, name=name)
    return None if _context.executing_eagerly() else op
