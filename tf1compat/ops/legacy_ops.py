"""Op types of graphs written by older TensorFlow versions, which newer TF replaced.

TF 1.x-era files hold ops TF has since superseded: `BatchMatMul` (`tf.matmul` of batches
until TF 1.13: BERT's and many frozen models' graphs), `ParseExample` and
`ParseSingleExample` (every TF 1.x serving graph built by
`build_parsing_serving_input_receiver_fn`), `FusedBatchNorm`/`FusedBatchNormV2`
(`tf.layers.batch_normalization` until TF 1.13), `MaxPoolV2`, and from the earliest
releases `Gather`, `Concat`, `Reverse`, `BiasAddV1` and
`BatchNormWithGlobalNormalization`. tf1compat never builds them; importing a graph needs
them. Each runs its successor's kernel with its inputs and attrs rearranged, so the two
agree by construction.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.grad_names import SPARSE
from tf1compat.framework.op_def import InferCtx, Int, Type, TypeList, declare, get_op_def
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.grad_ops import ForwardNode, leaf, vjp
from tf1compat.ops.math_ops import FLOAT, REAL
from tf1compat.ops.parsing_ops import parse_example_function


def _successor(node: Any, kctx: Any, op_type: str, inputs: List[Any],
               **attrs: Any) -> Callable:
    """`op_type`'s kernel for a node with `node`'s attrs (plus `attrs`) whose inputs are
    `inputs` (graph tensors, or numpy arrays for values fixed by the old op's attrs)."""
    shim = ForwardNode(node, op_type)
    shim.inputs = inputs
    shim.attrs.update(attrs)
    return get_op_def(op_type).kernel(shim, kctx)


def _successor_shape(ctx: Any, op_type: str, inputs: List[Any], **attrs: Any) -> list:
    return get_op_def(op_type).shape(InferCtx(op_type, ctx.name, inputs,
                                              {**ctx.attrs, **attrs},
                                              [[i] for i in range(len(inputs))]))


# -- matmul, gather, concat, reverse, bias --------------------------------------------

def _batch_matmul_v3_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    v2 = get_op_def("BatchMatMulV2").kernel(ForwardNode(node, "BatchMatMulV2"), kctx)
    dtype = node.attrs["Tout"].torch_dtype
    return lambda x, y: v2(x.to(dtype), y.to(dtype))


_MATMUL_TYPES = (D.bfloat16, D.float16, D.float32, D.float64, D.int32, D.int64,
                 D.complex64, D.complex128)
declare("BatchMatMul", inputs=["x: T", "y: T"], outputs=["output: T"],
        attrs={"T": Type(_MATMUL_TYPES), "adj_x": False, "adj_y": False},
        shape=lambda ctx: get_op_def("BatchMatMulV2").shape(ctx),
        kernel=lambda node, kctx: get_op_def("BatchMatMulV2").kernel(
            ForwardNode(node, "BatchMatMulV2"), kctx),
        grad_names=lambda op: get_op_def("BatchMatMulV2").grad_names(op),
        doc="tf.matmul of batches until TF 1.13 (BatchMatMulV2 without broadcasting).")
declare("BatchMatMulV3", inputs=["x: Ta", "y: Tb"], outputs=["output: Tout"],
        attrs={"Ta": Type(_MATMUL_TYPES + (D.int8, D.uint8)),
               "Tb": Type(_MATMUL_TYPES + (D.int8, D.uint8)), "Tout": Type(_MATMUL_TYPES),
               "adj_x": False, "adj_y": False, "grad_x": False, "grad_y": False},
        shape=lambda ctx: get_op_def("BatchMatMulV2").shape(ctx),
        kernel=_batch_matmul_v3_kernel,
        doc="BatchMatMulV2 with operands of other types, computed in Tout.")


def _gather_v1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    gather = _successor(node, kctx, "GatherV2", node.inputs[:2] + [np.array(0, np.int32)], batch_dims=0)
    return lambda params, indices: gather(params, indices, 0)


declare("Gather", inputs=["params: Tparams", "indices: Tindices"], outputs=["output: Tparams"],
        attrs={"validate_indices": True, "Tparams": Type(),
               "Tindices": Type((D.int32, D.int64))},
        shape=lambda ctx: _successor_shape(ctx, "GatherV2", ctx.inputs + [np.array(0, np.int32)],
                                           batch_dims=0, Taxis=D.int32),
        kernel=_gather_v1_kernel, grad_names=lambda op: [SPARSE, None],
        grad_indexed_slices=True, doc="GatherV2 along axis 0 (TF 0.x graphs).")


def _concat_v1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    concat = _successor(node, kctx, "ConcatV2", node.inputs[1:] + node.inputs[:1])
    return lambda axis, *values: concat(*values, axis)


declare("Concat", inputs=["concat_dim: int32", "values: N * T"], outputs=["output: T"],
        attrs={"N": Int(2), "T": Type()},
        shape=lambda ctx: _successor_shape(ctx, "ConcatV2", ctx.inputs[1:] + ctx.inputs[:1]),
        kernel=_concat_v1_kernel, doc="ConcatV2 with the axis first (TF 0.x graphs).")


def _reverse_v1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(tensor: Any, dims: Any) -> Any:
        axes = [i for i, flag in enumerate(np.asarray(
            dims.cpu() if isinstance(dims, torch.Tensor) else dims).reshape(-1)) if flag]
        return torch.flip(tensor, axes) if axes else tensor
    return run


declare("Reverse", inputs=["tensor: T", "dims: bool"], outputs=["output: T"],
        attrs={"T": Type()}, shape=lambda ctx: [ctx.shape(0)], kernel=_reverse_v1_kernel,
        doc="ReverseV2 with the reversed axes as a bool per axis (TF 0.x graphs).")


declare("BiasAddV1", inputs=["value: T", "bias: T"], outputs=["output: T"],
        attrs={"T": Type()}, shape=lambda ctx: get_op_def("BiasAdd").shape(
            InferCtx("BiasAdd", ctx.name, ctx.inputs, {**ctx.attrs, "data_format": "NHWC"},
                     [[0], [1]])),
        kernel=lambda node, kctx: _successor(node, kctx, "BiasAdd", node.inputs,
                                             data_format="NHWC"),
        doc="BiasAdd over the last axis (TF 0.x graphs).")


# -- parsing ------------------------------------------------------------------------------------

def _parse_example_v1_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n_sparse, n_dense = node.attrs["Nsparse"], node.attrs["Ndense"]
    shim = ForwardNode(node, "ParseExampleV2")
    shim.attrs.update(num_sparse=n_sparse, Tdense=node.attrs["Tdense"],
                      sparse_types=node.attrs["sparse_types"])
    dense_keys = [constant_value(t) for t in node.inputs[2 + n_sparse:2 + n_sparse + n_dense]]
    static = None if any(k is None for k in dense_keys) else np.array(dense_keys, object)
    parse = parse_example_function(shim, static)

    def run(serialized: Any, names: Any, *rest: Any) -> Any:
        sparse_keys = np.array(rest[:n_sparse], dtype=object)
        keys = np.array(rest[n_sparse:n_sparse + n_dense], dtype=object)
        return parse(serialized, names, sparse_keys, keys, np.array([], object),
                     *rest[n_sparse + n_dense:])
    return run


def _parse_example_v1_shape(ctx: Any) -> List[TensorShape]:
    return get_op_def("ParseExampleV2").shape(InferCtx(
        "ParseExampleV2", ctx.name, ctx.inputs[:1],
        {**ctx.attrs, "num_sparse": ctx.attrs["Nsparse"]}, [[0]]))


declare("ParseExample",
        inputs=["serialized: string", "names: string", "sparse_keys: Nsparse * string",
                "dense_keys: Ndense * string", "dense_defaults: Tdense"],
        outputs=["sparse_indices: Nsparse * int64", "sparse_values: sparse_types",
                 "sparse_shapes: Nsparse * int64", "dense_values: Tdense"],
        attrs={"Nsparse": Int(0), "Ndense": Int(0), "sparse_types": TypeList(),
               "Tdense": TypeList(), "dense_shapes": []},
        shape=_parse_example_v1_shape, kernel=_parse_example_v1_kernel, grad="unregistered",
        cpu_only=True,
        doc="TF 1.x's ParseExample (keys as separate inputs): serving graphs of "
            "build_parsing_serving_input_receiver_fn.")


def _parse_single_example_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    shim = ForwardNode(node, "ParseExampleV2")
    sparse_keys = np.array([k if isinstance(k, bytes) else str(k).encode()
                            for k in node.attrs["sparse_keys"]], dtype=object)
    dense_keys = np.array([k if isinstance(k, bytes) else str(k).encode()
                           for k in node.attrs["dense_keys"]], dtype=object)
    parse = parse_example_function(shim, dense_keys)
    return lambda serialized, *defaults: parse(serialized, np.array([], object), sparse_keys,
                                               dense_keys, np.array([], object), *defaults)


declare("ParseSingleExample", inputs=["serialized: string", "dense_defaults: Tdense"],
        outputs=["sparse_indices: num_sparse * int64", "sparse_values: sparse_types",
                 "sparse_shapes: num_sparse * int64", "dense_values: Tdense"],
        attrs={"num_sparse": Int(0), "sparse_keys": [], "dense_keys": [],
               "sparse_types": TypeList(), "Tdense": TypeList(), "dense_shapes": []},
        shape=lambda ctx: get_op_def("ParseExampleV2").shape(ctx),
        kernel=_parse_single_example_kernel, grad="unregistered", cpu_only=True,
        doc="One serialized Example, keys as attrs (tf.data's parse_single_example in "
            "TF 1.x graphs).")


# -- batch normalization of TF <= 1.13 and of TF 0.x ---------------------------------------

def _fused_bn_v12_shape(ctx: Any) -> List[TensorShape]:
    return get_op_def("FusedBatchNormV3").shape(ctx)[:5]


def _fused_bn_v12_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    v3 = get_op_def("FusedBatchNormV3").kernel(ForwardNode(node, "FusedBatchNormV3"), kctx)
    return lambda *args: tuple(v3(*args))[:5]


_FUSED_BN_ATTRS = {"epsilon": 0.0001, "exponential_avg_factor": 1.0, "data_format": "NHWC",
                   "is_training": True}
_HALF_FLOAT = (D.float16, D.bfloat16, D.float32)
declare("FusedBatchNorm", inputs=["x: T", "scale: T", "offset: T", "mean: T", "variance: T"],
        outputs=["y: T", "batch_mean: T", "batch_variance: T", "reserve_space_1: T",
                 "reserve_space_2: T"],
        attrs={"T": Type((D.float32,)), **_FUSED_BN_ATTRS},
        shape=_fused_bn_v12_shape, kernel=_fused_bn_v12_kernel, grad_none_inputs=(3, 4),
        doc="TF <= 1.13's fused batch normalization (FusedBatchNormV3 without its "
            "third reserve output).")
declare("FusedBatchNormV2",
        inputs=["x: T", "scale: U", "offset: U", "mean: U", "variance: U"],
        outputs=["y: T", "batch_mean: U", "batch_variance: U", "reserve_space_1: U",
                 "reserve_space_2: U"],
        attrs={"T": Type(_HALF_FLOAT), "U": Type((D.float32,)), **_FUSED_BN_ATTRS},
        shape=_fused_bn_v12_shape, kernel=_fused_bn_v12_kernel, grad_none_inputs=(3, 4),
        doc="FusedBatchNorm with float16/bfloat16 inputs and float32 statistics.")


def _global_norm(node: Any) -> Callable[..., torch.Tensor]:
    eps = float(node.attrs["variance_epsilon"])
    scale_after = bool(node.attrs["scale_after_normalization"])

    def run(t: torch.Tensor, m: torch.Tensor, v: torch.Tensor, beta: torch.Tensor,
            gamma: torch.Tensor) -> torch.Tensor:
        factor = torch.rsqrt(v + eps)
        if scale_after:
            factor = factor * gamma
        return (t - m) * factor + beta
    return run


def _global_norm_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    norm = _global_norm(node)

    def run(t: torch.Tensor, m: torch.Tensor, v: torch.Tensor, gamma: torch.Tensor,
            backprop: torch.Tensor) -> tuple:
        with torch.enable_grad():
            leaves = [leaf(a) for a in (t, m, v)]
            beta = torch.zeros_like(m, requires_grad=True)
            g = leaf(gamma)
            out = norm(*leaves, beta, g)
            return vjp([out], leaves + [beta, g], [backprop], (t, m, v, gamma, backprop))
    return run


_GLOBAL_NORM_ATTRS = {"T": Type(FLOAT), "variance_epsilon": 0.0,
                      "scale_after_normalization": False}
declare("BatchNormWithGlobalNormalization",
        inputs=["t: T", "m: T", "v: T", "beta: T", "gamma: T"], outputs=["result: T"],
        attrs=_GLOBAL_NORM_ATTRS, shape=lambda ctx: [ctx.shape(0)],
        kernel=lambda node, kctx: _global_norm(node),
        doc="TF 0.x-1.x's batch normalization with given statistics (2015-era graphs).")
declare("BatchNormWithGlobalNormalizationGrad",
        inputs=["t: T", "m: T", "v: T", "gamma: T", "backprop: T"],
        outputs=["dx: T", "dm: T", "dv: T", "db: T", "dg: T"],
        attrs=_GLOBAL_NORM_ATTRS,
        shape=lambda ctx: [ctx.shape(0)] + [ctx.shape(1)] * 4,
        kernel=_global_norm_grad_kernel,
        doc="The gradients of BatchNormWithGlobalNormalization.")



# -- attrs and fixed values that later versions turned into inputs ------------------------------
# Each entry of a layout is either the index of one of the old op's inputs or a function of
# the old node's attrs giving the value the old op fixed (k = 0, block_size, ...).

Layout = Sequence[Union[int, Callable[[Dict[str, Any]], np.ndarray]]]


def _laid_out(layout: Layout, inputs: List[Any], attrs: Dict[str, Any]) -> List[Any]:
    return [inputs[e] if isinstance(e, int) else e(attrs) for e in layout]


def _rearranged_kernel(successor: str, layout: Layout, **attrs: Any) -> Callable:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        fixed = _laid_out(layout, node.inputs, node.attrs)
        kernel = _successor(node, kctx, successor, fixed, **attrs)
        values = [None if isinstance(e, int) else torch.as_tensor(v)
                  for e, v in zip(layout, fixed)]

        def run(*args: Any) -> Any:
            return kernel(*[args[e] if isinstance(e, int) else v
                            for e, v in zip(layout, values)])
        return run
    return factory


def _rearranged_shape(successor: str, layout: Layout, **attrs: Any) -> Callable:
    return lambda ctx: _successor_shape(ctx, successor,
                                        _laid_out(layout, ctx.inputs, ctx.attrs), **attrs)


def _declare_rearranged(op_type: str, successor: str, layout: Layout, doc: str,
                        successor_attrs: Optional[Dict[str, Any]] = None, **spec: Any) -> None:
    """Declares `op_type` as `successor` with its inputs laid out by `layout`."""
    extra = successor_attrs or {}
    declare(op_type, shape=_rearranged_shape(successor, layout, **extra),
            kernel=_rearranged_kernel(successor, layout, **extra), doc=doc, **spec)


def _scalar(value: int) -> Callable[[Dict[str, Any]], np.ndarray]:
    return lambda attrs: np.array(value, np.int32)


def _zero_of_t(attrs: Dict[str, Any]) -> np.ndarray:
    return np.zeros((), attrs["T"].as_numpy_dtype)


def _block(attrs: Dict[str, Any]) -> np.ndarray:
    return np.array([attrs["block_size"]] * 2, np.int32)


_DIAG_V1 = {"doc": "Main diagonal only; TF <= 1.15 wrote it for tf.matrix_diag & co.",
            "attrs": {"T": Type()}}
_declare_rearranged("MatrixDiag", "MatrixDiagV3", [0, _scalar(0), _scalar(-1), _scalar(-1),
                                                   _zero_of_t],
                    inputs=["diagonal: T"], outputs=["output: T"], **_DIAG_V1)
_declare_rearranged("MatrixDiagPart", "MatrixDiagPartV3", [0, _scalar(0), _zero_of_t],
                    inputs=["input: T"], outputs=["diagonal: T"], **_DIAG_V1)


def _matrix_set_diag_v1_shape(ctx: Any) -> List[TensorShape]:
    # V1's own checks, which MatrixSetDiagV3's shape rule (k known only at run time) lacks.
    matrix, diagonal = ctx.shape(0), ctx.shape(1)
    for shape, least in ((matrix, 2), (diagonal, 1)):
        if shape.rank is not None and shape.rank < least:
            raise ValueError(f"Shape must be at least rank {least} but is rank {shape.rank} "
                             f"{node_desc(ctx)}")
    if matrix.rank is not None and diagonal.rank is not None:
        rows, cols = matrix.as_list()[-2:]
        length = diagonal.as_list()[-1]
        smallest = None if rows is None or cols is None else min(rows, cols)
        if smallest is not None and length is not None and smallest != length:
            raise ValueError(f"Dimensions must be equal, but are {smallest} and {length} "
                             f"{node_desc(ctx)}")
    return [matrix]


declare("MatrixSetDiag", inputs=["input: T", "diagonal: T"], outputs=["output: T"],
        shape=_matrix_set_diag_v1_shape,
        kernel=_rearranged_kernel("MatrixSetDiagV3", [0, 1, _scalar(0)]), **_DIAG_V1)
# V2 (TF 2.0-2.1) packed every band diagonal left-aligned: V3 with align LEFT_LEFT. TF's
# gradient functions of the V2 ops call the V3 ops with their default align, RIGHT_LEFT, so
# the gradient is RIGHT_LEFT V3's (TF's own mismatch, kept: the values are V2's).

def _diag_v2_kernel(successor: str, arity: int) -> Callable:
    layout = list(range(arity))
    values = _rearranged_kernel(successor, layout, align="LEFT_LEFT")
    gradient = _rearranged_kernel(successor, layout, align="RIGHT_LEFT")

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        forward, backward = values(node, kctx), gradient(node, kctx)

        def run(*args: Any) -> Any:
            out = forward(*args)
            if not torch.is_grad_enabled() or not any(
                    isinstance(a, torch.Tensor) and a.requires_grad for a in args):
                return out
            twin = backward(*args)
            return out.detach() + (twin - twin.detach())
        return run
    return factory


for _op, _successor_type, _inputs, _output in (
        ("MatrixDiagV2", "MatrixDiagV3", ["diagonal: T", "k: int32", "num_rows: int32",
                                          "num_cols: int32", "padding_value: T"], "output"),
        ("MatrixDiagPartV2", "MatrixDiagPartV3", ["input: T", "k: int32", "padding_value: T"],
         "diagonal"),
        ("MatrixSetDiagV2", "MatrixSetDiagV3", ["input: T", "diagonal: T", "k: int32"],
         "output")):
    _first_none = 2 if _op == "MatrixSetDiagV2" else 1
    declare(_op, inputs=_inputs, outputs=[f"{_output}: T"], attrs={"T": Type()},
            shape=_rearranged_shape(_successor_type, list(range(len(_inputs))),
                                    align="LEFT_LEFT"),
            kernel=_diag_v2_kernel(_successor_type, len(_inputs)),
            grad_none_inputs=tuple(range(_first_none, len(_inputs))),
            doc=f"{_successor_type} with align=LEFT_LEFT (TF 2.0-2.1 graphs).")

_declare_rearranged("TopK", "TopKV2", [0, lambda attrs: np.array(attrs["k"], np.int32)],
                    successor_attrs={"Tk": D.int32, "index_type": D.int32},
                    inputs=["input: T"], outputs=["values: T", "indices: int32"],
                    attrs={"k": None, "sorted": True, "T": Type(REAL)},
                    doc="TopKV2 with k as an attr (TF 0.x graphs).")
_declare_rearranged("SpaceToBatch", "SpaceToBatchND", [0, _block, 1],
                    successor_attrs={"Tblock_shape": D.int32},
                    inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
                    attrs={"T": Type(), "Tpaddings": Type(D.INDEX_TYPES, default=D.int32),
                           "block_size": None},
                    doc="SpaceToBatchND over two spatial dims with one block size (TF 0.x).")
_declare_rearranged("BatchToSpace", "BatchToSpaceND", [0, _block, 1],
                    successor_attrs={"Tblock_shape": D.int32},
                    inputs=["input: T", "crops: Tidx"], outputs=["output: T"],
                    attrs={"T": Type(), "Tidx": Type(D.INDEX_TYPES, default=D.int32),
                           "block_size": None},
                    doc="BatchToSpaceND over two spatial dims with one block size (TF 0.x).")


# -- 3-D convolution gradients of TF 0.x (before GraphDef version 10) ---------------------------
# V1 takes the forward input / filter itself where V2 takes its shape. A tensor whose static
# shape is not fully known cannot be a graph-build constant, so V2's kernel never mistakes
# the stand-in for sizes it could bake in.

def _conv3d_backprop_v1_kernel(successor: str, sized: int) -> Callable:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        shape = node.inputs[sized].shape
        inputs = list(node.inputs)
        if shape.is_fully_defined():
            inputs[sized] = np.array(shape.as_list(), np.int32)
        kernel = _successor(node, kctx, successor, inputs, data_format="NDHWC",
                            Tshape=D.int32)

        def run(*args: Any) -> Any:
            args = list(args)
            args[sized] = torch.tensor(list(args[sized].shape), dtype=torch.int32)
            return kernel(*args)
        return run
    return factory


def _conv3d_backprop_v1_shape(sized: int) -> Callable:
    # TF's V1 shape function: the shape of the tensor it is given, of rank 5.
    def rule(ctx: Any) -> List[TensorShape]:
        shape = ctx.shape(sized)
        if shape.rank is not None and shape.rank != 5:
            raise ValueError(f"Shape must be rank 5 but is rank {shape.rank} "
                             f"{node_desc(ctx)}")
        return [shape if shape.rank is not None else TensorShape([None] * 5)]
    return rule


for _op, _successor_type, _sized in (("Conv3DBackpropInput", "Conv3DBackpropInputV2", 0),
                                     ("Conv3DBackpropFilter", "Conv3DBackpropFilterV2", 1)):
    declare(_op, inputs=["input: T", "filter: T", "out_backprop: T"], outputs=["output: T"],
            attrs={"T": Type((D.float16, D.float32, D.float64)), "strides": None,
                   "padding": None, "dilations": [1, 1, 1, 1, 1]},
            shape=_conv3d_backprop_v1_shape(_sized),
            kernel=_conv3d_backprop_v1_kernel(_successor_type, _sized), grad="unregistered",
            doc=f"{_successor_type} given the tensor whose shape V2 takes (TF 0.x graphs).")
