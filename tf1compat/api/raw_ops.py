"""`tf.raw_ops`: every declared op by its TF op type, called with TF's keyword arguments.

    tf.raw_ops.MatMul(a=x, b=y, transpose_b=True)       # one output: a Tensor
    tf.raw_ops.Unique(x=v).idx                          # several: a namedtuple (y, idx)
    tf.raw_ops.Split(axis=0, value=x, num_split=2)      # one list output: a list
    tf.raw_ops.NoOp()                                   # none: the Operation (eager: None)

The functions are generated on first access (this module's `__getattr__`) from the op
declarations and TF 2.21's recorded raw op table by `_raw_op_builder.py`, and cached
here. They work in graph and eager mode, with TF's signatures. As TF's:

* arguments are keyword-only (a positional one is TF's TypeError), missing or unknown
  keywords raise Python's TypeError naming TF's Python function (`mat_mul()`);
* attr values are checked as TF's op helper checks them (TypeError for a wrong kind,
  ValueError for a string not allowed or a value under its minimum);
* an attr left out takes TF's default; an attr tf1compat does not declare is accepted at
  TF's default (and ignored where TF requires it and tf1compat derives it, as a
  dataset's output_shapes) and raises NotImplementedError otherwise.

A TF op tf1compat does not declare raises UnimplementedAPIError (an AttributeError and a
NotImplementedError, so `hasattr(tf.raw_ops, ...)` feature checks work); so do TF's ops
whose attrs are functions (`If`, `While`, dataset transformations), which tf1compat builds
from Python functions instead (`tf.cond`, `tf.while_loop`, `tf.data`). tf1compat's
internal op types (`_Arg`, `GradientInput`, ...) are not TF raw ops and are not here.
"""

from tf1compat.api import _raw_op_builder as _builder


def __getattr__(name: str) -> object:  # noqa: N807 - module protocol: builds it once
    if name.startswith("__"):
        raise AttributeError(name)
    function = globals()[name] = _builder.raw_op(name)
    return function


def __dir__() -> list:  # noqa: N807 - module protocol
    return _builder.callable_types()
