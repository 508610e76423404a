"""Records TF's raw op table (`tf.raw_ops`) into tf1compat/api/_tf_raw_ops.py.

    /tmp/tf/bin/python scripts/record_raw_ops.py

For every public name of TF 2.21's `tf.raw_ops` it records the Python function's name
(used in TF's messages, e.g. `mat_mul only takes keyword args`), its keyword parameters
in order, each mapped to the OpDef argument or attr it sets (TF's Python API renames a
few: `Sum(axis=...)` sets `reduction_indices`), the attrs' defaults and types, the attrs TF infers
from the inputs, and the output arguments. `tf1compat.api.raw_ops` builds its functions
from this table and the op declarations; `tests/test_raw_ops.py` checks the declarations
against it (argument names, attr names and defaults).
"""

from __future__ import annotations

import inspect
import math
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tf1compat", "api", "_tf_raw_ops.py")

HEADER = '''"""TensorFlow 2.21's raw ops, recorded by scripts/record_raw_ops.py (do not edit).

RAW_OPS[op type] = (python name, inputs, attrs, inferred attrs, outputs):

* inputs: the keyword names of the op's inputs in order; "axis=reduction_indices" where
  TF's Python API renames the OpDef argument, a trailing "*" for a list input;
* attrs: (keyword name, default, TF attr type) in signature order, `...` for a required
  attr; a dtype default is ("dtype", name), a tensor default ("tensor", dtype, shape,
  values); the type as TF's OpDef writes it ("bool", "list(int)", "func", ...); a fourth
  item where the OpDef constrains the value: the minimum (an int, or a list's length)
  or the allowed strings;
* inferred attrs: attrs TF infers from the inputs (types, list lengths);
* outputs: output argument names, a trailing "*" for a list output.

REMOVED[op type] = (GraphDef version, explanation): ops TF no longer builds (a call
raises NotImplementedError); GRAPH_DEF_VERSION is the recording TF's.
"""

# flake8: noqa: E501
RAW_OPS = {
'''


def _default(value) -> str:
    from tensorflow.python.framework import dtypes, tensor_util
    if value is inspect.Parameter.empty:
        return "..."
    if isinstance(value, dtypes.DType):
        return repr(("dtype", value.name))
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if isinstance(value, (bool, int, float, str, type(None))):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_default(v) for v in value) + "]"
    if hasattr(value, "tensor_shape"):       # a TensorProto default (ImageSummary)
        array = tensor_util.MakeNdarray(value)
        return repr(("tensor", dtypes.as_dtype(value.dtype).name, list(array.shape),
                     array.reshape(-1).tolist()))
    raise TypeError(f"unexpected default {value!r}")


def _entry(tf, op_type: str) -> str:
    from tensorflow.python.framework import op_def_registry
    fn = getattr(tf.raw_ops, op_type)
    op_def = op_def_registry.get(op_type)
    params = [p for p in inspect.signature(fn).parameters.values() if p.name != "name"]
    inputs = []
    for arg, param in zip(op_def.input_arg, params):
        text = param.name if param.name == arg.name else f"{param.name}={arg.name}"
        inputs.append(text + ("*" if arg.number_attr or arg.type_list_attr else ""))
    inferred = set()
    for arg in op_def.input_arg:
        inferred.update(a for a in (arg.type_attr, arg.number_attr, arg.type_list_attr) if a)
    attr_params = params[len(op_def.input_arg):]
    named = {p.name for p in attr_params}
    # A renamed attr (Squeeze's `axis` sets `squeeze_dims`) takes the next OpDef attr
    # that is neither inferred nor given by name.
    spare = [a.name for a in op_def.attr if a.name not in inferred and a.name not in named]
    attr_defs = {a.name: a for a in op_def.attr}
    attrs = []
    for param in attr_params:
        target = param.name if param.name in {a.name for a in op_def.attr} else spare.pop(0)
        key = param.name if target == param.name else f"{param.name}={target}"
        attr = attr_defs[target]
        constraint = ""
        if attr.has_minimum:
            constraint = f", {attr.minimum}"
        elif attr.type == "string" and attr.allowed_values.list.s:
            constraint = f", {tuple(v.decode() for v in attr.allowed_values.list.s)!r}"
        attrs.append(f"({key!r}, {_default(param.default)}, {attr.type!r}{constraint})")
    inferred_attrs = [a.name for a in op_def.attr if a.name in inferred]
    outputs = [a.name + ("*" if a.number_attr or a.type_list_attr else "")
               for a in op_def.output_arg]

    def tup(items):
        return "(" + "".join(f"{i}, " for i in items).rstrip(" ") + ")"
    return (f"    {op_type!r}: ({fn.__name__!r}, {tup(repr(i) for i in inputs)}, "
            f"{tup(attrs)}, {tup(repr(a) for a in inferred_attrs)}, "
            f"{tup(repr(o) for o in outputs)}),\n")


def main() -> int:
    import tensorflow.compat.v1 as tf
    names = sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))
    from tensorflow.python.framework import op_def_registry, versions
    with open(OUT, "w") as f:
        f.write(HEADER)
        for name in names:
            f.write(_entry(tf, name))
        f.write("}\n\n")
        f.write(f"GRAPH_DEF_VERSION = {versions.GRAPH_DEF_VERSION}\n\n")
        f.write("REMOVED = {\n")
        for name in names:
            op_def = op_def_registry.get(name)
            if op_def.HasField("deprecation") and \
                    op_def.deprecation.version <= versions.GRAPH_DEF_VERSION:
                f.write(f"    {name!r}: ({op_def.deprecation.version}, "
                        f"{op_def.deprecation.explanation!r}),\n")
        f.write("}\n")
    print(f"{len(names)} raw ops -> {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
