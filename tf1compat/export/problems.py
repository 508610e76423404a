"""Why torch.export cannot capture an exported graph, in terms of the graph's ops.

torch.export records torch operations on fake tensors; it cannot record Python side
effects or values that live outside torch. The op declarations say which ops have them:

* `cpu_only` ops run in Python/numpy on the CPU: string tensors (numpy object arrays),
  `tf.py_func`, tf.data iterators, summaries, lookup tables, file ops;
* `stateful` ops other than control flow (If, While: traced through) and variable or
  TensorArray state (reads and assignments, which become parameter reads and buffer
  updates) have side effects or hidden state: random ops (TF's Philox streams, kept in
  Python), `tf.Print`, `tf.Assert`, the clock.

A traced kernel that needs input values to decide shapes or control flow (a
`tf.while_loop` whose trip count depends on the data, `tf.boolean_mask`, `tf.unique`)
fails inside torch's tracer; `explain_trace_failure` names the op it failed in.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from tf1compat.export.random_ops import TORCH_SAMPLERS
from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.runtime.codegen import op_for_traceback

__all__ = ["ExportError", "problem_reason", "export_problem", "graph_problems",
           "explain_trace_failure"]


class ExportError(RuntimeError):
    """torch.export cannot capture the exported graph; `problems` says why, per op."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("torch.export cannot capture this TF graph:\n  " +
                         "\n  ".join(self.problems))


# What an op type's name says about its side effect, for the message only.
_KINDS = (
    (("PyFunc",), "calls Python (tf.py_func / tf.numpy_function)"),
    (("Print",), "prints (tf.Print / tf.print)"),
    (("Summary",), "writes a summary (tf.summary)"),
    (("Iterator", "Dataset"), "reads a tf.data input pipeline"),
    (("Table",), "uses a lookup table (a Python object)"),
    (("Random", "Multinomial", "TruncatedNormal", "CandidateSampler", "Shuffle"),
     "draws random numbers from TF's Philox stream, which lives in Python (dropout, "
     "sampling; to_module(..., random_ops='torch') samples from torch's generator)"),
    (("Save", "Restore", "File", "Checkpoint"), "reads or writes files"),
    (("Timestamp",), "reads the clock"),
)


def _touches_state(op: Operation) -> bool:
    """Variable and TensorArray ops: their state becomes module state or run-local lists."""
    od = op._op_def
    if od.ref_input_indices or od.state_alias is not None:
        return True
    return any(t.dtype.base_dtype == D.resource or t.dtype._is_ref_dtype
               for t in list(op._inputs) + list(op._outputs))


# Checks whose kernels validate through ops/_kernels.any_true, which becomes a run-time
# assertion of the traced program.
_ASSERTIONS = ("Assert",)


def problem_reason(op: Operation, torch_random: bool = False) -> Optional[str]:
    """Why torch.export cannot capture `op` (None when it can); `torch_random`: random
    ops sample from torch's generator (export/random_ops.py)."""
    od = op._op_def
    if op.type in _ASSERTIONS or (torch_random and op.type in TORCH_SAMPLERS):
        return None
    if od.cpu_only:
        kind = _kind(op.type)
        return kind or ("works on string tensors (numpy object arrays), which torch does "
                        "not have")
    if od.stateful and not od.keeps_devices and not _touches_state(op):
        return _kind(op.type) or "has side effects or hidden state outside torch"
    return None


def _kind(op_type: str) -> Optional[str]:
    for words, text in _KINDS:
        if any(w in op_type for w in words):
            return text
    return None


def _site(op: Operation) -> str:
    tb = op.traceback
    if not tb:
        return ""
    filename, lineno = tb[-1][:2]
    return f", defined at {filename}:{lineno}"


def export_problem(op: Operation, reason: str) -> str:
    """One line naming the op, where it was created and the reason."""
    return f"{op.type} op {op.name!r}{_site(op)}: {reason}"


def graph_problems(ops: Sequence[Operation], torch_random: bool = False) -> List[str]:
    """The problems of `ops` (those a run may execute), one line per op."""
    out = []
    for op in ops:
        reason = problem_reason(op, torch_random)
        if reason is not None:
            out.append(export_problem(op, reason))
    return out


def explain_trace_failure(error: BaseException) -> Optional[ExportError]:
    """torch's tracing error, named after the op whose kernel raised it (None when the
    failure is not in an op's kernel)."""
    op = op_for_traceback(error.__traceback__)
    if op is None:
        return None
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    reason = ("its kernel needs input values to decide a shape or control flow (data-"
              "dependent), which torch.export cannot trace: " + first)
    return ExportError([export_problem(op, reason)])
