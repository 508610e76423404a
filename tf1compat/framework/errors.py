"""`tf.errors`: TF's run-time exception classes, codes and message format.

Run-time failures inside `Session.run` are re-raised as an `OpError` subclass whose
message names the failing node and where the user created it, in TF's own layout:

    Graph execution error:

    Detected at node 'x' defined at (most recent call last):
      File "train.py", line 7, in <module>
    Node: 'x'
    You must feed a value for placeholder tensor 'x' ...
    \t [[{{node x}}]]
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
    "DeadlineExceededError", "NotFoundError", "AlreadyExistsError",
    "PermissionDeniedError", "UnauthenticatedError", "ResourceExhaustedError",
    "FailedPreconditionError", "AbortedError", "OutOfRangeError", "UnimplementedError",
    "InternalError", "UnavailableError", "DataLossError",
    "OperatorNotAllowedInGraphError", "error_code_from_exception_type",
    "from_python_exception", "kernel_error_message",
    "exception_type_from_error_code", "raise_exception_on_not_ok_status",
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
    "UNAVAILABLE", "DATA_LOSS",
]

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
UNAUTHENTICATED = 16
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15


class OpError(Exception):
    """Base class of TF's run-time errors; `op` is the failing Operation when known."""

    def __init__(self, node_def: Any, op: Any, message: str, error_code: int = UNKNOWN, *args: Any):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code
        self._experimental_payloads = args[0] if args else {}

    @property
    def message(self) -> str:
        return self._message

    @property
    def op(self) -> Any:
        return self._op

    @property
    def node_def(self) -> Any:
        return self._node_def

    @property
    def error_code(self) -> int:
        return self._error_code

    @property
    def experimental_payloads(self) -> dict:
        return self._experimental_payloads

    def __reduce__(self):
        return _rebuild_error, (type(self), self._message, self._error_code)

    def __str__(self) -> str:
        if self._op is None:
            return self._message
        lines = [f"{self._message}\n\nOriginal stack trace for {self._op.name!r}:\n"]
        lines.extend(_format_site(frame) for frame in (self._op.traceback or []))
        return "".join(lines)


def _rebuild_error(cls, message, code):
    err = cls.__new__(cls)
    OpError.__init__(err, None, None, message, code)
    return err


def _format_site(frame: Any) -> str:
    filename, lineno, name = frame[0], frame[1], frame[2]
    return f'  File "{filename}", line {lineno}, in {name}\n'


def _make_error_class(name: str, code: int, doc: str) -> type:
    def __init__(self, node_def: Any, op: Any, message: str, *args: Any):
        OpError.__init__(self, node_def, op, message, code, *args)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc,
                                   "__module__": __name__})


CancelledError = _make_error_class("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _make_error_class("UnknownError", UNKNOWN, "Unknown error.")
InvalidArgumentError = _make_error_class(
    "InvalidArgumentError", INVALID_ARGUMENT, "An operation received an invalid argument.")
DeadlineExceededError = _make_error_class(
    "DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired before the operation could complete.")
NotFoundError = _make_error_class("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _make_error_class(
    "AlreadyExistsError", ALREADY_EXISTS, "An entity that we attempted to create already exists.")
PermissionDeniedError = _make_error_class(
    "PermissionDeniedError", PERMISSION_DENIED, "The caller does not have permission.")
UnauthenticatedError = _make_error_class(
    "UnauthenticatedError", UNAUTHENTICATED, "The request does not have valid credentials.")
ResourceExhaustedError = _make_error_class(
    "ResourceExhaustedError", RESOURCE_EXHAUSTED, "Some resource has been exhausted.")
FailedPreconditionError = _make_error_class(
    "FailedPreconditionError", FAILED_PRECONDITION,
    "The system is not in a state to execute an operation (e.g. an uninitialized variable).")
AbortedError = _make_error_class("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _make_error_class(
    "OutOfRangeError", OUT_OF_RANGE, "An operation iterated past the valid input range.")
UnimplementedError = _make_error_class(
    "UnimplementedError", UNIMPLEMENTED, "The operation is not implemented.")
InternalError = _make_error_class("InternalError", INTERNAL, "An internal invariant was broken.")
UnavailableError = _make_error_class(
    "UnavailableError", UNAVAILABLE, "The runtime is currently unavailable.")
DataLossError = _make_error_class("DataLossError", DATA_LOSS, "Unrecoverable data loss.")


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operator (bool(), iteration) was applied to a symbolic graph tensor."""


class InaccessibleTensorError(ValueError):
    """A tensor defined inside a cond branch or loop body was fetched from outside it."""


_CODE_TO_CLASS = {
    CANCELLED: CancelledError, UNKNOWN: UnknownError, INVALID_ARGUMENT: InvalidArgumentError,
    DEADLINE_EXCEEDED: DeadlineExceededError, NOT_FOUND: NotFoundError,
    ALREADY_EXISTS: AlreadyExistsError, PERMISSION_DENIED: PermissionDeniedError,
    UNAUTHENTICATED: UnauthenticatedError, RESOURCE_EXHAUSTED: ResourceExhaustedError,
    FAILED_PRECONDITION: FailedPreconditionError, ABORTED: AbortedError,
    OUT_OF_RANGE: OutOfRangeError, UNIMPLEMENTED: UnimplementedError, INTERNAL: InternalError,
    UNAVAILABLE: UnavailableError, DATA_LOSS: DataLossError,
}
_CLASS_TO_CODE = {cls: code for code, cls in _CODE_TO_CLASS.items()}


def exception_type_from_error_code(error_code: int) -> type:
    return _CODE_TO_CLASS[error_code]


def error_code_from_exception_type(cls: type) -> int:
    return _CLASS_TO_CODE.get(cls, UNKNOWN)


class raise_exception_on_not_ok_status:  # noqa: N801 - TF's name
    """Legacy context manager from TF1's C API era; kept for imports that name it."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> bool:
        return False


def graph_execution_message(op: Any, message: str) -> str:
    """TF's layout for an error raised while running `op` in a Session."""
    site = ""
    if op is not None and op.traceback:
        filename, lineno, name = op.traceback[-1][:3]
        site = f'    File "{filename}", line {lineno}, in {name}\n'
    node = op.name if op is not None else "?"
    return (f"Graph execution error:\n\nDetected at node {node!r} defined at "
            f"(most recent call last):\n{site}Node: {node!r}\n{message}\n\t [[{{{{node {node}}}}}]]")


def op_error(cls: type, op: Optional[Any], message: str) -> OpError:
    """An OpError of class `cls` for a failure of `op` at run time, in TF's layout."""
    return cls(None, op, graph_execution_message(op, message))


def from_python_exception(e: BaseException) -> "tuple[type, str]":
    """The TF error class and message for a Python exception raised by a kernel.

    The one mapping shared by sessions and the eager executor: out-of-memory is
    ResourceExhaustedError, NotImplementedError UnimplementedError, StopIteration
    OutOfRangeError, anything else InvalidArgumentError; ValueError/IndexError messages
    are kept as they are, others are prefixed with the exception's class name.
    """
    message = str(e)
    cls: type = InvalidArgumentError
    if isinstance(e, MemoryError) or "out of memory" in message.lower():
        cls = ResourceExhaustedError
    elif isinstance(e, NotImplementedError):
        cls = UnimplementedError
    elif isinstance(e, StopIteration):
        cls = OutOfRangeError
    text = message if isinstance(e, (ValueError, IndexError)) else \
        f"{type(e).__name__}: {message}"
    return cls, text


def kernel_error_message(op_def: Any, node: Any, args: Any) -> Optional[str]:
    """TF's message for the kernel of `node` (an op of type `op_def`) failing on the input
    values `args`, from the declaration's `kernel_error` rule (ops/_kernel_errors.py);
    None where the op has no rule or the rule finds nothing TF would refuse."""
    rule = getattr(op_def, "kernel_error", None)
    if rule is None:
        return None
    try:
        return rule(node, args)
    except Exception:  # noqa: BLE001 - a message rule must never hide the kernel's error
        return None
