"""The TensorArray ops of TF 1.0-era graphs: the V1 family (a `Ref(string)` handle, TF
<= 0.12, plus its `TensorArrayPack`/`TensorArrayUnpack`) and the V2 family (a string
handle, TF 1.0), both without a flow output on the creating op (TF 1.0's Python started
the flow from `constant(0.0)`) and on the gradient op.

TF 2.21 still runs them in graphs of a GraphDef version that predates their removal
(16 for V1, 26 for V2), as every file those versions wrote is. The handle's run-time value
is the `TensorArrayValue` either way, so each op runs its V3 successor's kernel
(tensor_array_ops.py) and the two agree by construction. (The consumers declare a plain
string handle, as the V1 stack and queue ops: a Ref input would make the plan pass a
variable slot; the array object is what they need, and no plan aliases it.)
"""

from __future__ import annotations

from typing import Any, Callable, List

from tf1compat.framework import errors
from tf1compat.framework.op_def import REQUIRED, Type, declare, get_op_def
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops.legacy_handle_ops import declare_string_handle_form, successor_kernel
from tf1compat.ops.tensor_array_ops import TensorArrayValue

__all__: List[str] = []


def _handle_only(v3_type: str) -> Callable[[Any, Any], Callable[..., Any]]:
    """`v3_type`'s kernel, keeping its handle output (the V1/V2 ops have no flow output)."""
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        run = successor_kernel(v3_type)(node, kctx)
        return lambda *args: run(*args)[0]
    return factory


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _pack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    gather = successor_kernel("TensorArrayGatherV3")(node, kctx)

    def pack(ta: TensorArrayValue, flow: Any) -> Any:
        # TensorArrayPack: a gather of every element, 0 .. size - 1.
        return gather(ta, range(len(ta.elements)), flow)
    return pack


def _unpack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def unpack(ta: TensorArrayValue, value: Any, flow: Any) -> Any:
        # TensorArrayUnpack: value's rows written at 0 .. size - 1 (TF's legacy unpack
        # wants exactly one row per element, dynamic or not).
        if len(value.shape) == 0:
            raise _invalid("Input value must be at least a vector but received shape: []")
        if int(value.shape[0]) != len(ta.elements):
            raise _invalid(f"Input value must have first dimension equal to the array size "
                           f"({int(value.shape[0])} vs. {len(ta.elements)})")
        ta.write_rows(range(int(value.shape[0])), value)
        return flow
    return unpack


def _handle_rule(ctx: Any) -> List[TensorShape]:
    return [TensorShape([2])]


_CREATE_ATTRS = {"dtype": REQUIRED, "element_shape": unknown_shape(), "dynamic_size": False,
                 "clear_after_read": True, "tensor_array_name": ""}

for _suffix, _handle_out, _until in (("", "handle: Ref(string)", "TF <= 0.12"),
                                     ("V2", "handle: string", "TF 1.0")):
    declare(f"TensorArray{_suffix}", inputs=["size: int32"], outputs=[_handle_out],
            attrs=dict(_CREATE_ATTRS), shape=_handle_rule,
            kernel=_handle_only("TensorArrayV3"), stateful=True, grad="none",
            doc=f"TensorArrayV3 without the flow output ({_until}).")
    for _kind in ("Write", "Read", "Gather", "Scatter", "Concat", "Split", "Size", "Close"):
        declare_string_handle_form(f"TensorArray{_kind}{_suffix}", f"TensorArray{_kind}V3",
                                   f"TensorArray{_kind}V3 ({_until}).")
    declare(f"TensorArrayGrad{_suffix}", inputs=["handle: string", "flow_in: float32"],
            outputs=["grad_" + _handle_out], attrs={"source": REQUIRED}, shape=_handle_rule,
            kernel=_handle_only("TensorArrayGradV3"), stateful=True, grad="none",
            doc=f"TensorArrayGradV3 without the flow output ({_until}).")

declare("TensorArrayPack", inputs=["handle: string", "flow_in: float32"],
        outputs=["value: dtype"], attrs={"dtype": Type(), "element_shape": unknown_shape()},
        shape=get_op_def("TensorArrayGatherV3").shape, kernel=_pack_kernel, stateful=True,
        view=True, doc="TensorArray.pack (TF <= 0.12): every element stacked.")
declare("TensorArrayUnpack", inputs=["handle: string", "value: T", "flow_in: float32"],
        outputs=["flow_out: float32"], attrs={"T": Type()},
        shape=get_op_def("TensorArrayScatterV3").shape, kernel=_unpack_kernel, stateful=True,
        doc="TensorArray.unpack (TF <= 0.12): value's rows written from index 0.")
