"""Op types of TF 0.x / early 1.x graphs whose handles were strings, before TF made them
resources: the V1 lookup tables (`HashTable`, `MutableHashTable(OfTensors)`,
`MutableDenseHashTable` of a `Ref(string)` handle, `InitializeTable(FromTextFile)`,
`LookupTableFind/Insert/Import/Size/Export`) that graphs written before the V2 ops hold
(`tf.contrib.lookup` vocabularies);
`declare_string_handle_form` also gives the V1 readers (data/reader_ops.py) and the
TensorArray V1/V2 ops (tensor_array_legacy.py).

The handle's run-time value is the same Python object as the resource op's (the table,
the reader), so each op runs its resource successor's kernel with the same attrs and the
two agree by construction. The consumers declare a plain string handle, as the V1 stack
and queue ops: a Ref input would make the plan pass a variable slot; the object is what
they need, and no plan aliases it.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.op_def import ArgSpec, OpDef, declare, get_op_def
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import lookup_mutable, lookup_ops  # noqa: F401  (the successors)
from tf1compat.ops.grad_ops import ForwardNode

__all__ = ["declare_string_handle_form", "successor_kernel"]


def successor_kernel(successor: str) -> Callable[[Any, Any], Callable[..., Any]]:
    """The kernel factory of `successor` for a node of an older op type with the same
    inputs and attrs (the node's attrs plus the successor's defaults)."""
    return lambda node, kctx: get_op_def(successor).kernel(ForwardNode(node, successor), kctx)


def _arg_text(arg: ArgSpec, handle: str) -> str:
    """An argument of a resource op in declare()'s notation, a resource as `handle`."""
    if arg.fixed_dtype == D.resource:
        return f"{arg.name}: {handle}"
    dtype = arg.type_attr or arg.type_list_attr or arg.fixed_dtype.name
    return f"{arg.name}: {arg.number_attr} * {dtype}" if arg.number_attr else \
        f"{arg.name}: {dtype}"


def declare_string_handle_form(op_type: str, successor: str, doc: str, *,
                               handle_output: str = "Ref(string)",
                               kernel: Optional[Callable[..., Any]] = None,
                               without_attrs: Sequence[str] = (),
                               without_inputs: Sequence[str] = ()) -> OpDef:
    """Declares `op_type`, the string-handle form of the resource op `successor`: the
    same signature, attrs (less `without_attrs`, which the successor added: its kernel
    gets their defaults; less the inputs `without_inputs`, which `kernel` then stands
    for), shape rule and kernel, resource inputs as `string`, resource
    outputs as `handle_output` (TF's V1 ops: `Ref(string)`) of shape [2] (TF's
    container/name pair)."""
    op = get_op_def(successor)
    outputs = [_arg_text(a, handle_output) for a in op.outputs]
    creates = any(a.fixed_dtype == D.resource for a in op.outputs)

    def handle_rule(ctx: Any) -> List[TensorShape]:
        return [TensorShape([2])] * len(outputs)
    return declare(op_type, inputs=[_arg_text(a, "string") for a in op.inputs
                                    if a.name not in without_inputs],
                   outputs=outputs,
                   attrs={k: v for k, v in op.attrs.items() if k not in without_attrs},
                   shape=handle_rule if creates else op.shape,
                   kernel=kernel or successor_kernel(successor), grad=op.grad,
                   stateful=True, cpu_only=op.cpu_only, constant=op.constant, view=op.view,
                   doc=doc)


for _v1 in ("HashTable", "MutableHashTable", "MutableHashTableOfTensors",
            "InitializeTable", "InitializeTableFromTextFile", "LookupTableFind",
            "LookupTableInsert", "LookupTableImport", "LookupTableSize", "LookupTableExport"):
    declare_string_handle_form(_v1, _v1 + "V2", f"{_v1}V2 of a Ref(string) handle "
                                                "(TF <= 1.2 graphs).")


def _dense_table_v1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """MutableDenseHashTable (V1) had an empty key only: TF <= 1.2's tables never removed
    keys. (TF 2.21 fails to run it, "Unknown input name: deleted_key": its kernel is the
    V2 op's; this runs it as TF 1.x did.)"""
    dense = successor_kernel("MutableDenseHashTableV2")(node, kctx)
    return lambda empty_key: dense(empty_key)


declare_string_handle_form("MutableDenseHashTable", "MutableDenseHashTableV2",
                           "MutableDenseHashTableV2 of a Ref(string) handle and no "
                           "deleted_key (TF <= 1.2 graphs).",
                           kernel=_dense_table_v1_kernel, without_inputs=("deleted_key",))
