"""One declaration per op: TF op type, signature, attrs, shape rule, torch kernel, gradient.

An op is declared once with `declare(...)` using TF's op type name and TF's argument and
attr names, written in TF's REGISTER_OP notation:

    declare("MatMul",
            inputs=["a: T", "b: T"], outputs=["product: T"],
            attrs={"transpose_a": False, "transpose_b": False, "T": Type(NUMBER)},
            shape=_matmul_shape, kernel=_matmul_kernel)

* argument specs: ``"x: T"`` (one tensor whose dtype is type attr T), ``"values: N * T"``
  (N tensors of type T), ``"args: Tin"`` (a list whose dtypes are the type-list attr
  Tin), ``"shape: int32"`` (a fixed dtype), ``"ref: Ref(T)"`` (a variable reference;
  the kernel receives the variable's key in the session's variable store instead of a
  value), ``"weights: N * Ref(float)"`` (a list of references: the op's only input).
* ``shape(ctx) -> list[TensorShape]``: the static shape rule, one shape per output. It
  sees only static information (`ctx.shape(i)`, `ctx.const(i)`, attrs) and raises
  ValueError for incompatible inputs, as TF's shape functions do at graph build.
* ``kernel(node, kctx) -> callable``: builds the torch implementation once per plan.
  `node` is the Operation (attrs are decoded here, once); the returned callable takes
  the input values positionally and returns one value, or a tuple for several outputs.
  `kctx` is the run-time context (device, variable store, random state) of the session.
* gradient facts, all here so an op's gradient behaviour is read in one place:

  - ``grad``: "autograd" (TF's gradient exists and torch autograd of the kernel computes
    it), "none" (TF's NotDifferentiable: gradients stop here), "unregistered" (TF has no
    gradient function: `tf.gradients` raises LookupError when the op is on a gradient
    path with an incoming gradient);
  - ``grad_names``: what TF's gradient function returns per input — None, a
    pass-through, IndexedSlices, or the name of the tensor it creates — so
    `tf.gradients` returns TF's None-ness and names (`framework/grad_names.py`);
  - ``grad_none_inputs``: inputs whose TF gradient is always None although they may be
    float (PadV2's constant value);
  - ``grad_formula``: `(node, kernel, kctx) -> kernel or None`: the kernel with TF's
    gradient formula where torch's differs (ties of Maximum, 0 ** 0 of Pow, the order
    a broadcast gradient is summed in, ...);
  - ``grad_indexed_slices``: under eager execution the gradient w.r.t. the gathered
    params is an IndexedSlices, as TF's gather gradients.
* ``static_value(tensor) -> ndarray or None``: the output's value when it is known at
  graph build without running the kernel (the Shape of a static shape, a Pack of
  constants, ...), for `framework/constant_value.constant_value` as TF's
  `tensor_util.constant_value` does; other small pure subgraphs are folded by running
  their kernels.
* ``shape_value(tensor) -> TensorShape or None``: the partially known shape a 1-D
  shape tensor describes (TF's `constant_value_as_shape`: `tf.stack([tf.shape(x)[0], 3])`
  is `[?, 3]`).
* ``foldable=False``: never evaluated at graph build or plan build although pure
  (ops with side effects on the outside world: Print, Assert; PlaceholderWithDefault,
  which can be fed). Stateful, constant, CPU-only, ref-input, variable and gradient ops
  are never folded either (`OpDef.foldable`).
* run-time facts the plan reads (runtime/plan.py): ``stateful`` (side effects: random,
  assign, py_func), ``cpu_only`` (runs on the CPU), ``constant`` (the factory returns the
  value itself, evaluated once per plan), ``view`` (the output may share storage with an
  input: fetches of it are copied), ``keeps_devices`` (control flow: inputs pass without
  device transfers), ``state_alias(node) -> key`` (the outputs alias a variable-store
  slot: VariableV2), ``forwards_alias`` (the output aliases whatever variable input 0
  aliases: TF1's Identity of a ref variable forwards its buffer, so `v/read` reads the
  variable where each consumer runs), ``must_feed`` (no kernel: running it unfed is
  InvalidArgumentError naming it, as a Placeholder), ``grad_sources(node) -> tensors``
  (those tensors must be autograd sources in any plan containing the op: the gradient
  op), ``value_only(node) -> (inputs, reads, through)`` (the gradient op: the ancestors
  of those inputs run for autograd only, without their control inputs and, unless among
  the ops ``through`` which autograd differentiates, without their effects, where nothing
  else needs them; ``reads`` are the forward tensors TF's backward reads, run in full),
  ``autograd_only_kernel`` (the kernel factory for a run for autograd only, where no
  gradient function reads the op's output so TF's backward never runs the op: Print
  passes its input on without printing, CheckNumerics checks only the gradient).
* ``reads_only``: a stateful op that only reads the variables it takes (ReadVariableOp,
  ResourceGather, VariableShape, IsVariableInitialized): a run orders it as a read of
  them, never as an update.
* ``only_checks(node) -> bool``: the op's one effect is an error when its inputs fail a
  check (Assert, and an If that only asserts: `tf.Assert`'s AssertGuard); nothing reads
  its outputs' values. A compiled training step runs it after its compiled forward
  segment and before any update (runtime/compiled_steps.py).
* ``is_variable``: the op is a variable (VariableV2's ref, VarHandleOp's handle): the
  variables a `tf.custom_gradient` function reads are found by it.
* ``grad_error(op) -> LookupError``: what `tf.gradients` raises through this op (TF's
  gradient function refuses with a reason: PreventGradient).
* serialization: ``not_one_node`` (why the op is not written to a GraphDef as one NodeDef
  of its own: a traced control-flow construct that graph export writes in TF1's dataflow
  form, or an op whose state is Python of this process; graphdef/graph_io.py).
* ``rank_follows_data``: the kernel's output rank may differ from the static shape's, as
  TF's kernel's does: the image decoders share one kernel (a PNG given to DecodeWebP gives
  a 3-D image, an animation given to DecodePng a 4-D one), and FusedBatchNormGrad(V2)'s
  reserve outputs are 0-d where their static shape is [0]. runtime/interpreter.py's
  checking mode allows it.
* ``flops(op) -> int``: the float operations TF's profiler counts for the op (TF's
  RegisterStatistics("flops"); rules in ops/_flops_rules.py); ValueError where the
  shapes it needs are not fully known. Ops without the fact count no flops, as in TF.

Registration checks the declaration (signature, attr kinds, defaults) at import time.
"""

from __future__ import annotations

import numbers
import os
import re
import sys
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, List, Mapping, MutableMapping, Optional, Protocol,
                    Sequence, Tuple)

import numpy as np

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__ = [
    "REQUIRED", "Type", "TypeList", "Int", "ArgSpec", "OpDef", "InferCtx", "declare",
    "get_op_def", "registered_op_types", "unknown_shapes", "FOLD_ELEMENT_LIMIT",
    "KernelNode", "KernelContext", "single_output", "make_float", "make_int",
]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED = _Required()


@dataclass(frozen=True)
class Type:
    """A type attr (TF `T: {float, int32}`); inferred from the inputs that use it."""
    allowed: Optional[Tuple[_dtypes.DType, ...]] = None
    default: Any = REQUIRED


@dataclass(frozen=True)
class TypeList:
    """A list-of-types attr (TF `Tin: list(type)`)."""
    default: Any = REQUIRED


@dataclass(frozen=True)
class Int:
    """An int attr that counts list inputs (TF `N: int >= 1`)."""
    minimum: int = 0
    default: Any = REQUIRED


_ARG_RE = re.compile(r"^\s*(\w+)\s*:\s*(?:(\w+)\s*\*\s*)?(Ref\((\w+)\)|\w+)\s*$")


@dataclass(frozen=True)
class ArgSpec:
    """One input or output argument of an op signature."""
    name: str
    type_attr: Optional[str] = None       # "T": dtype taken from / written to attr T
    fixed_dtype: Optional[_dtypes.DType] = None
    number_attr: Optional[str] = None     # "N": a list of N tensors
    type_list_attr: Optional[str] = None  # "Tin": a list typed by a list attr
    is_ref: bool = False

    @property
    def is_list(self) -> bool:
        return self.number_attr is not None or self.type_list_attr is not None


def _parse_arg(spec: str, attrs: Dict[str, Any], op_type: str) -> ArgSpec:
    match = _ARG_RE.match(spec)
    if not match:
        raise ValueError(f"{op_type}: cannot parse argument spec {spec!r}")
    name, number, type_text, ref_inner = match.groups()
    is_ref = ref_inner is not None
    type_name = ref_inner if is_ref else type_text
    if number is not None and not isinstance(attrs.get(number), Int):
        raise ValueError(f"{op_type}: {spec!r} counts by {number!r}, which is not an Int attr")
    kind = attrs.get(type_name)
    if isinstance(kind, Type):
        return ArgSpec(name, type_attr=type_name, number_attr=number, is_ref=is_ref)
    if isinstance(kind, TypeList):
        if number is not None:
            raise ValueError(f"{op_type}: {spec!r} mixes a count with a type list")
        return ArgSpec(name, type_list_attr=type_name, is_ref=is_ref)
    try:
        dtype = _dtypes.as_dtype(type_name)
    except TypeError:
        raise ValueError(f"{op_type}: {spec!r} names {type_name!r}, which is neither a "
                         "declared type attr nor a dtype") from None
    return ArgSpec(name, fixed_dtype=dtype, number_attr=number, is_ref=is_ref)


class KernelNode(Protocol):
    """What kernel factories, gradient formulas and name rules read of an op.

    Graph Operations (framework/operation.py), eager nodes (runtime/eager_runtime.py)
    and constant folding all provide it, so one kernel serves the three.
    """
    type: str                     # TF op type
    name: str
    attrs: Mapping[str, Any]      # attr values by TF attr name, as Python values
    inputs: Sequence[Any]         # input tensors (static dtype and shape; constant_value)
    outputs: Sequence[Any]        # output tensors (static dtype and shape)
    device: str


class KernelContext(Protocol):
    """What a kernel factory may use at run time (`kctx`): runtime/plan.PlanKernelContext
    in a session, runtime/eager_runtime.EagerKernelContext under eager execution."""
    device: Any                   # the torch.device the op runs on
    node: KernelNode
    runtime: Any                  # the session's or the program's eager runtime

    @property
    def state(self) -> MutableMapping[str, Any]:
        """The variable store (key -> torch tensor)."""

    def ref_key(self, t: Any) -> str:
        """The store key of a `Ref(T)` or resource input."""

    def input_may_alias(self, t: Any) -> bool:
        """Whether input `t`'s value may share storage that a kernel must not keep."""

    def op_resource(self, factory: Callable[[], Any]) -> Any:
        """State of this op that outlives one run (random streams, readers, tables)."""

    def compile_function(self, inputs: Sequence[Any], outputs: Sequence[Any],
                         context: Any = None) -> Callable[..., tuple]:
        """Compiles a region (cond branch, loop body, dataset function) to a function."""


ShapeRule = Callable[["InferCtx"], Sequence[Any]]
KernelFactory = Callable[[KernelNode, KernelContext], Callable[..., Any]]


@dataclass(eq=False)
class OpDef:
    """The single declaration of one TF op type."""
    type: str
    inputs: Tuple[ArgSpec, ...]
    outputs: Tuple[ArgSpec, ...]
    attrs: Dict[str, Any]
    shape: ShapeRule
    kernel: Optional[KernelFactory]
    grad: str = "autograd"
    grad_names: Optional[Callable[[Any], List[Any]]] = None
    grad_none_inputs: Tuple[int, ...] = ()
    grad_formula: Optional[Callable[[Any, Callable[..., Any], Any],
                                    Optional[Callable[..., Any]]]] = None
    grad_indexed_slices: bool = False
    stateful: bool = False
    cpu_only: bool = False
    constant: bool = False        # kernel(node, kctx) returns the value itself, once per plan
    view: bool = False            # outputs may alias an input's storage (reshape, identity ...)
    doc: str = ""
    ref_input_indices: Tuple[int, ...] = field(default=())
    # node -> variable-store key its outputs alias (VariableV2), see runtime/plan.py.
    state_alias: Optional[Callable[[Any], Optional[str]]] = None
    # node -> tensors that must be autograd sources when this op is in a plan (gradients).
    grad_sources: Optional[Callable[[Any], Sequence[Any]]] = None
    # Control flow (If, While): inputs are passed on without device transfers and the
    # outputs' devices are unknown to the plan (they are wherever the region left them).
    keeps_devices: bool = False
    forwards_alias: bool = False
    must_feed: bool = False
    can_fold: bool = True
    static_value: Optional[Callable[[Any], Any]] = None
    shape_value: Optional[Callable[[Any], Any]] = None
    not_one_node: str = ""
    grad_error: Optional[Callable[[Any], Exception]] = None
    is_variable: bool = False
    flops: Optional[Callable[[Any], int]] = None
    rank_follows_data: bool = False
    # node -> (inputs computed for autograd only, forward tensors read in full, ops
    # differentiated by autograd) or None.
    value_only: Optional[Callable[[Any], Any]] = None
    # The kernel where the op runs for autograd only, without its forward effect.
    autograd_only_kernel: Optional[KernelFactory] = None
    # Where it was declared: "tf1compat/ops/math_ops.py:170" (docs/ops.md, error messages).
    source: str = ""
    # The op's one input is a list of refs (SdcaShrinkL1's weights): every input is a ref.
    ref_list: bool = False
    # (op, input values) -> TF's message for the kernel's failure on those inputs, or None
    # to keep the kernel's own (ops/_kernel_errors.py). Asked only after the kernel raised.
    kernel_error: Optional[Callable[[Any, Sequence[Any]], Optional[str]]] = None
    # The graph function a TF 1.x function call op runs (its type is the function's name:
    # `function.Defun`, FunctionDefs of imported libraries); None for builtin op types.
    function: Any = None
    # Stateful only because it reads variables (ReadVariableOp, ResourceGather): the plan
    # never orders it as an update of the variables it takes.
    reads_only: bool = False
    # node -> whether the op only checks its inputs (raises, or does nothing): see the
    # module docstring's `only_checks`.
    only_checks: Optional[Callable[[Any], bool]] = None

    def ref_positions(self, n_inputs: int) -> Tuple[int, ...]:
        """The positions of the ref inputs among an op's `n_inputs` inputs (the kernel
        receives their store keys through `kctx.ref_key`, not their values)."""
        return tuple(range(n_inputs)) if self.ref_list else self.ref_input_indices

    @property
    def has_list_outputs(self) -> bool:
        return any(arg.is_list for arg in self.outputs)

    @property
    def foldable(self) -> bool:
        """Whether the op may run at graph or plan build when its inputs are constants:
        pure, with a kernel, and touching no variable, device placement or gradient."""
        return (self.can_fold and self.kernel is not None and not self.stateful
                and not self.constant and not self.cpu_only and not self.keeps_devices
                and not self.ref_input_indices and self.state_alias is None
                and self.grad_sources is None)

    def output_dtypes(self, attrs: Dict[str, Any]) -> List[_dtypes.DType]:
        out: List[_dtypes.DType] = []
        for arg in self.outputs:
            if arg.type_list_attr is not None:
                out.extend(_dtypes.as_dtype(d) for d in attrs[arg.type_list_attr])
                continue
            dtype = arg.fixed_dtype if arg.type_attr is None else attrs[arg.type_attr]
            dtype = _dtypes.as_dtype(dtype)
            if arg.is_ref:
                dtype = dtype._as_ref
            n = attrs[arg.number_attr] if arg.number_attr is not None else 1
            out.extend([dtype] * n)
        return out


_REGISTRY: Dict[str, OpDef] = {}
# Call ops of graph functions, by function name (the latest function of a name): found by
# `get_op_def` but not builtin op types (`registered_op_types`, docs/ops.md).
_FUNCTION_OPS: Dict[str, OpDef] = {}

# The largest value (in elements) constant folding produces, at graph build (shape
# inference, framework/constant_value.py) and at plan build (runtime/plan.py).
FOLD_ELEMENT_LIMIT = 1024

_GRAD_POLICIES = ("autograd", "none", "unregistered")


def declare(op_type: str, *, inputs: Sequence[str] = (), outputs: Sequence[str] = (),
            attrs: Optional[Dict[str, Any]] = None, shape: ShapeRule,
            kernel: Optional[KernelFactory], grad: str = "autograd",
            grad_names: Optional[Callable[[Any], List[Any]]] = None,
            grad_none_inputs: Sequence[int] = (),
            grad_formula: Optional[Callable[[Any, Callable[..., Any], Any],
                                            Optional[Callable[..., Any]]]] = None,
            grad_indexed_slices: bool = False, stateful: bool = False,
            cpu_only: bool = False, constant: bool = False, view: bool = False,
            doc: str = "", state_alias: Optional[Callable[[Any], Optional[str]]] = None,
            grad_sources: Optional[Callable[[Any], Sequence[Any]]] = None,
            keeps_devices: bool = False, forwards_alias: bool = False,
            must_feed: bool = False, foldable: bool = True,
            static_value: Optional[Callable[[Any], Any]] = None,
            shape_value: Optional[Callable[[Any], Any]] = None,
            not_one_node: str = "",
            grad_error: Optional[Callable[[Any], Exception]] = None,
            is_variable: bool = False,
            flops: Optional[Callable[[Any], int]] = None,
            rank_follows_data: bool = False,
            value_only: Optional[Callable[[Any], Any]] = None,
            autograd_only_kernel: Optional[KernelFactory] = None,
            kernel_error: Optional[Callable[[Any, Sequence[Any]], Optional[str]]] = None,
            function: Any = None, reads_only: bool = False,
            only_checks: Optional[Callable[[Any], bool]] = None) -> OpDef:
    """Declares and registers an op type; raises at import time if inconsistent.

    With `function` (a graph function), the declaration is that function's call op: it
    replaces an earlier function's of the same name, and is no builtin op type."""
    attrs = dict(attrs or {})
    if op_type in _REGISTRY:
        raise ValueError(f"op type {op_type!r} is declared twice")
    if grad not in _GRAD_POLICIES:
        raise ValueError(f"{op_type}: grad must be one of {_GRAD_POLICIES}, got {grad!r}")
    if not callable(shape):
        raise ValueError(f"{op_type}: a shape rule is required")
    if kernel is not None and not callable(kernel):
        raise ValueError(f"{op_type}: kernel must be a factory function")
    in_specs = tuple(_parse_arg(s, attrs, op_type) for s in inputs)
    out_specs = tuple(_parse_arg(s, attrs, op_type) for s in outputs)
    names = [a.name for a in in_specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{op_type}: duplicate input names {names}")
    used = {a.type_attr for a in in_specs + out_specs} | {
        a.number_attr for a in in_specs + out_specs} | {
        a.type_list_attr for a in in_specs + out_specs}
    for name, kind in attrs.items():
        if isinstance(kind, (Type, TypeList, Int)) and name not in used and \
                kind.default is REQUIRED:
            raise ValueError(f"{op_type}: attr {name!r} is required but no argument uses it")
    ref_indices = tuple(i for i, a in enumerate(in_specs) if a.is_ref)
    ref_list = any(in_specs[i].is_list for i in ref_indices)
    if ref_list and len(in_specs) != 1:
        # Inputs are located by argument index elsewhere; a list ref is only unambiguous
        # as the op's one input (SdcaShrinkL1).
        raise ValueError(f"{op_type}: a list ref input must be the op's only input")
    if must_feed and kernel is not None:
        raise ValueError(f"{op_type}: an op that must be fed has no kernel")
    if grad != "autograd" and (grad_formula is not None or grad_none_inputs):
        raise ValueError(f"{op_type}: grad_formula/grad_none_inputs need grad='autograd'")
    if any(not 0 <= i < len(in_specs) for i in grad_none_inputs):
        raise ValueError(f"{op_type}: grad_none_inputs {tuple(grad_none_inputs)} out of range")
    if autograd_only_kernel is not None and kernel is None:
        raise ValueError(f"{op_type}: an autograd_only_kernel needs a kernel")
    if reads_only and not stateful:
        raise ValueError(f"{op_type}: reads_only describes a stateful op")
    op_def = OpDef(op_type, in_specs, out_specs, attrs, shape, kernel, grad, grad_names,
                   tuple(grad_none_inputs), grad_formula, grad_indexed_slices, stateful,
                   cpu_only, constant, view, doc, ref_indices, state_alias, grad_sources,
                   keeps_devices, forwards_alias, must_feed, foldable, static_value,
                   shape_value, not_one_node, grad_error, is_variable, flops,
                   rank_follows_data, value_only, autograd_only_kernel,
                   _declaration_site(), ref_list, kernel_error, function, reads_only,
                   only_checks)
    (_REGISTRY if function is None else _FUNCTION_OPS)[op_type] = op_def
    return op_def


_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _declaration_site() -> str:
    """The module-level statement that declared the op, directly or through a factory
    (`unary("Tanh", ...)`), as "tf1compat/ops/math_ops.py:170"; outside the package the
    file's own path."""
    frame = sys._getframe(2)
    site = frame
    while frame is not None:
        if frame.f_code.co_name == "<module>":
            site = frame
            break
        frame = frame.f_back
    path = os.path.abspath(site.f_code.co_filename)
    if path.startswith(_PACKAGE_PARENT + os.sep):
        path = os.path.relpath(path, _PACKAGE_PARENT).replace(os.sep, "/")
    return f"{path}:{site.f_lineno}"


def get_op_def(op_type: str) -> OpDef:
    try:
        return _REGISTRY[op_type]
    except KeyError:
        if op_type in _FUNCTION_OPS:
            return _FUNCTION_OPS[op_type]
        raise NotImplementedError(
            f"Op type {op_type!r} is not implemented by tf1compat") from None


def registered_op_types() -> List[str]:
    return sorted(_REGISTRY)


def is_registered(op_type: str) -> bool:
    """Whether `op_type` is a declared builtin op type (graph functions' call ops are not)."""
    return op_type in _REGISTRY


class InferCtx:
    """What a shape rule may look at: static input shapes/dtypes, attrs, constant inputs."""

    __slots__ = ("op_type", "name", "inputs", "attrs", "_groups")

    def __init__(self, op_type: str, name: str, inputs: list, attrs: dict, groups: list):
        self.op_type = op_type
        self.name = name
        self.inputs = inputs          # flat list of input Tensors
        self.attrs = attrs
        self._groups = groups         # per signature argument: list of flat indices

    def shape(self, i: int) -> TensorShape:
        return self.inputs[i].shape

    def dtype(self, i: int) -> _dtypes.DType:
        return self.inputs[i].dtype

    @property
    def shapes(self) -> List[TensorShape]:
        return [t.shape for t in self.inputs]

    def group(self, arg_index: int) -> list:
        """The flat input indices of signature argument `arg_index` (for list args)."""
        return self._groups[arg_index]

    def const(self, i: int) -> Optional[np.ndarray]:
        """The input's value if it is known at graph build (TF's constant_value)."""
        from tf1compat.framework.constant_value import constant_value
        return constant_value(self.inputs[i])

    def const_shape(self, i: int) -> TensorShape:
        """A shape-valued input as a (partial) static shape (TF's constant_value_as_shape)."""
        from tf1compat.framework.constant_value import constant_value_as_shape
        return constant_value_as_shape(self.inputs[i])

    def attr(self, name: str) -> Any:
        return self.attrs[name]

    def rank(self, i: int) -> Optional[int]:
        return self.inputs[i].shape.rank


def single_output(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """A list-output kernel for an op that has exactly one output tensor (`Split` with
    num_split=1): the value itself, where such kernels return a sequence of one."""
    def run(*args: Any) -> Any:
        out = kernel(*args)
        # (Exact types: a value may itself be a tuple subclass, e.g. a sparse component.)
        return out[0] if type(out) in (tuple, list) and len(out) == 1 else out
    return run


def make_float(value: Any, arg: str) -> float:
    """A float attr as TF's generated wrappers check it: any real number, else TypeError."""
    if not isinstance(value, (numbers.Real, np.integer, np.floating)):
        raise TypeError(f"Expected float for argument '{arg}' not {value!r}.")
    return float(value)


def make_int(value: Any, arg: str) -> int:
    """An int attr as TF's generated wrappers check it: what int() takes (2.5 -> 2), but
    not a string; else TypeError."""
    try:
        if isinstance(value, str):
            raise TypeError(value)
        return int(value)
    except (TypeError, ValueError):
        raise TypeError(f"Expected int for argument '{arg}' not {value!r}.") from None


def no_kernel(node: Any, attrs: str) -> Exception:
    """TF's run-time error for a declared op with no kernel for these attrs."""
    from tf1compat.framework import errors
    return errors.op_error(
        errors.InvalidArgumentError, node,
        f"No OpKernel was registered to support Op '{node.type}' used by "
        f"{{{{node {node.name}}}}} with these attrs: [{attrs}]")


def unknown_shapes(ctx: InferCtx) -> List[TensorShape]:
    """Shape rule for ops whose outputs have no static shape."""
    n = len(_REGISTRY[ctx.op_type].output_dtypes(ctx.attrs))
    return [unknown_shape() for _ in range(n)]

