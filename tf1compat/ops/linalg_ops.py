"""Matrix products: MatMul, BatchMatMulV2, Einsum; `tf.matmul`, `tf.tensordot`, `tf.einsum`."""

from __future__ import annotations

import re
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._onednn_matmul import matmul as onednn_matmul
from tf1compat.ops._shape_rules import broadcast_shapes, node_desc
from tf1compat.ops.math_ops import COMPLEX, FLOAT, conj
from tf1compat.ops import _flops_rules as flops
from tf1compat.ops._kernel_errors import batch_matmul_error, matmul_error

MATMUL_TYPES = FLOAT + (D.int32, D.int64, D.int8, D.int16, D.uint8) + COMPLEX


def _mm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_cuda and not (a.is_floating_point() or a.is_complex()):
        # CUDA has no integer GEMM; float64 is exact for |values| < 2**53.
        return torch.matmul(a.double(), b.double()).to(a.dtype)
    return torch.matmul(a, b)


def _mm2(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """MatMul's product: float32 CPU matrices on oneDNN (ops/_onednn_matmul.py)."""
    if a.dtype == torch.float32 and a.device.type == "cpu":
        return onednn_matmul(a, b)
    return _mm(a, b)


def _matmul_kernel(node: Any, kctx: Any) -> Callable[..., torch.Tensor]:
    ta, tb = node.attrs["transpose_a"], node.attrs["transpose_b"]
    if not ta and not tb:
        return _mm2
    return lambda a, b: _mm2(a.t() if ta else a, b.t() if tb else b)


def _matmul_shape(ctx: Any) -> List[TensorShape]:
    a, b = ctx.shape(0), ctx.shape(1)
    for s in (a, b):
        if s.rank is not None and s.rank != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {s.rank} {node_desc(ctx)}")
    if a.rank is None or b.rank is None:
        m = a.as_list()[1 if ctx.attrs["transpose_a"] else 0] if a.rank else None
        n = b.as_list()[0 if ctx.attrs["transpose_b"] else 1] if b.rank else None
        return [TensorShape([m, n])]
    (a0, a1), (b0, b1) = a.as_list(), b.as_list()
    m, k1 = (a1, a0) if ctx.attrs["transpose_a"] else (a0, a1)
    k2, n = (b1, b0) if ctx.attrs["transpose_b"] else (b0, b1)
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"Dimensions must be equal, but are {k1} and {k2} {node_desc(ctx)}")
    return [TensorShape([m, n])]


declare("MatMul", inputs=["a: T", "b: T"], outputs=["product: T"],
        attrs={"transpose_a": False, "transpose_b": False, "T": Type(MATMUL_TYPES),
               "grad_a": False, "grad_b": False},
        shape=_matmul_shape, kernel=_matmul_kernel, grad_names=names("MatMul", "MatMul_1"),
        flops=flops.matmul, kernel_error=matmul_error)


def _batch_matmul_kernel(node: Any, kctx: Any) -> Callable[..., torch.Tensor]:
    adj_x, adj_y = node.attrs["adj_x"], node.attrs["adj_y"]

    def adjoint(t: torch.Tensor) -> torch.Tensor:
        t = t.transpose(-1, -2)
        return t.conj() if t.is_complex() else t

    if not adj_x and not adj_y:
        return _mm
    return lambda x, y: _mm(adjoint(x) if adj_x else x, adjoint(y) if adj_y else y)


def _batch_matmul_shape(ctx: Any) -> List[TensorShape]:
    a, b = ctx.shape(0), ctx.shape(1)
    for s in (a, b):
        if s.rank is not None and s.rank < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
    if a.rank is None or b.rank is None:
        return [unknown_shape()]
    a_dims, b_dims = a.as_list(), b.as_list()
    m, k1 = a_dims[-2:] if not ctx.attrs["adj_x"] else a_dims[-2:][::-1]
    k2, n = b_dims[-2:] if not ctx.attrs["adj_y"] else b_dims[-2:][::-1]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"Dimensions must be equal, but are {k1} and {k2} {node_desc(ctx)}")
    batch = broadcast_shapes(TensorShape(a_dims[:-2]), TensorShape(b_dims[:-2]), ctx)
    return [batch.concatenate([m, n])]


def _batch_matmul_grad_names(op: Any) -> List[Any]:
    xs, ys = op.inputs[0].shape, op.inputs[1].shape
    may_batch = (xs.rank is None or xs.rank > 2) or (ys.rank is None or ys.rank > 2)
    if xs.rank is not None and ys.rank is not None:
        bx, by = xs[:-2], ys[:-2]
        if bx.is_fully_defined() and by.is_fully_defined() and bx == by:
            may_batch = False
    return ["Reshape", "Reshape_1"] if may_batch else ["MatMul", "MatMul_1"]


declare("BatchMatMulV2", inputs=["x: T", "y: T"], outputs=["output: T"],
        attrs={"T": Type(MATMUL_TYPES), "adj_x": False, "adj_y": False,
               "grad_x": False, "grad_y": False},
        shape=_batch_matmul_shape, kernel=_batch_matmul_kernel,
        grad_names=_batch_matmul_grad_names, flops=flops.batch_matmul,
        kernel_error=batch_matmul_error)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, output_type: Any = None,
           name: Optional[str] = None) -> Tensor:
    """`tf.matmul`: MatMul for matrices, BatchMatMulV2 when either side may be batched."""
    if _context._state["eager"] and type(a) is type(b) and \
            getattr(a, "_is_eager_tensor", False) and not (adjoint_a or adjoint_b):
        va, vb = a._value, b._value
        if type(va) is torch.Tensor and type(vb) is torch.Tensor and va.dim() == 2 and \
                vb.dim() == 2:
            # Two eager matrices: no scope or conversion to do.
            return apply_op1("MatMul", [a, b], {"transpose_a": transpose_a,
                                                 "transpose_b": transpose_b})
    with name_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of `transpose_a` and `adjoint_a` can be True. "
                             f"Received `transpose_a`={transpose_a}, `adjoint_a`={adjoint_a}.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of `transpose_b` and `adjoint_b` can be True. "
                             f"Received `transpose_b`={transpose_b}, `adjoint_b`={adjoint_b}.")
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, dtype_hint=a.dtype.base_dtype, name="b")
        batched = a.shape.rank is None or a.shape.rank > 2 or b.shape.rank is None or \
            b.shape.rank > 2
        if batched:
            if transpose_a:
                a, adjoint_a = conj(a), True
            if transpose_b:
                b, adjoint_b = conj(b), True
            return apply_op1("BatchMatMulV2", [a, b], {"adj_x": adjoint_a, "adj_y": adjoint_b},
                             name=scope)
        if adjoint_a:
            a, transpose_a = conj(a), True
        if adjoint_b:
            b, transpose_b = conj(b), True
        return apply_op1("MatMul", [a, b], {"transpose_a": transpose_a,
                                             "transpose_b": transpose_b}, name=scope)


# -- einsum -----------------------------------------------------------------------------

def _einsum_shape(ctx: Any) -> List[TensorShape]:
    equation = ctx.attrs["equation"].replace(" ", "")
    if "->" in equation:
        lhs, out = equation.split("->")
    else:
        lhs = equation
        letters = lhs.replace(",", "").replace(".", "")
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    terms = lhs.split(",")
    if len(terms) != len(ctx.inputs):
        raise ValueError(f"Expected {len(terms)} inputs for equation {equation!r}, got "
                         f"{len(ctx.inputs)}")
    if "." in equation and any(shape.rank is None for shape in ctx.shapes):
        return [unknown_shape()]
    sizes: dict = {}
    ellipsis_dims: List[Any] = []       # the broadcast shape "..." stands for
    for term, shape in zip(terms, ctx.shapes):
        if shape.rank is None:
            continue
        dims = shape.as_list()
        if "..." in term:
            pre, post = term.split("...")
            n = len(dims) - len(pre) - len(post)
            if n < 0:
                raise ValueError(f"Expected input of rank at least {len(pre) + len(post)} for "
                                 f"subscripts {term!r} in equation {equation!r}, got shape "
                                 f"{shape}")
            ellipsis_dims = _broadcast_dims(ellipsis_dims, dims[len(pre):len(pre) + n])
            term, dims = pre + post, dims[:len(pre)] + dims[len(pre) + n:]
        if len(dims) != len(term):
            raise ValueError(f"Expected input of rank {len(term)} for subscripts {term!r} in "
                             f"equation {equation!r}, got shape {shape}")
        for letter, dim in zip(term, dims):
            known = sizes.get(letter)
            if dim is not None and known is not None and known != dim and 1 not in (dim, known):
                raise ValueError(f"Expected dimension {known} at axis for subscript "
                                 f"{letter!r}, got {dim} in equation {equation!r}")
            if dim is not None and (known is None or known == 1):
                sizes[letter] = dim
    if "..." not in out and ellipsis_dims:
        raise ValueError(f"Shape must be at most rank 0 but is rank {len(ellipsis_dims)} for "
                         f"einsum equation '{lhs}->{out}' without ellipsis (...) in the "
                         "output subscripts where input(s) have non-empty broadcasting shape")
    if "..." in out:
        pre, post = out.split("...")
        return [TensorShape([sizes.get(c) for c in pre] + ellipsis_dims +
                            [sizes.get(c) for c in post])]
    return [TensorShape([sizes.get(c) for c in out])]


def _broadcast_dims(a: List[Any], b: List[Any]) -> List[Any]:
    """Right-aligned broadcast of two partial shapes (None where unknown)."""
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(y if x is None and y != 1 else x)
        else:
            raise ValueError(f"Incompatible broadcast dimensions {x} and {y} in einsum")
    return out


declare("Einsum", inputs=["inputs: N * T"], outputs=["output: T"],
        attrs={"equation": "", "N": Int(minimum=1), "T": Type()},
        shape=_einsum_shape,
        kernel=lambda node, kctx: (lambda *xs, _eq=node.attrs["equation"]:
                                   torch.einsum(_eq, *xs)),
        grad_names=lambda op: ["Einsum", "Einsum_1"] if len(op.inputs) == 2 else ["Einsum"])


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """`tf.einsum` (an Einsum op)."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {sorted(kwargs)}")
    if not re.match(r"^[a-zA-Z.,\- >]*$", equation):
        raise ValueError(f"Invalid equation: {equation!r}")
    with name_scope(name, "einsum", inputs) as scope:
        tensors = [convert_to_tensor(x, name="input") for x in inputs]
        return apply_op1("Einsum", [tensors], {"equation": equation.replace(" ", "")},
                         name=scope)


def tensordot(a: Any, b: Any, axes: Any, name: Optional[str] = None) -> Tensor:
    """`tf.tensordot` as TF builds it: each side transposed and reshaped to a matrix
    (free x contracted, contracted x free for `b`), one MatMul, the product reshaped to
    the free dimensions. Static shapes build no identity transpose or reshape (a 2-D
    product is the MatMul itself, `Tensordot/MatMul`); other shapes read them at run time."""
    from tf1compat.ops.array_ops import concat, reshape
    with name_scope(name, "Tensordot", [a, b, axes]) as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(a, axes)
        a_matrix, a_free, a_static = _tensordot_reshape(a, a_axes, flipped=False)
        b_matrix, b_free, b_static = _tensordot_reshape(b, b_axes, flipped=True)
        product = matmul(a_matrix, b_matrix)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if (product.shape.is_fully_defined()
                    and product.shape.as_list() == a_free + b_free):
                return product
            return reshape(product, a_free + b_free, name=scope)
        free = concat([convert_to_tensor(a_free, dtype=D.int32),
                       convert_to_tensor(b_free, dtype=D.int32)], 0)
        product = reshape(product, free, name=scope)
        if a_static is not None and b_static is not None:
            product.set_shape(a_static + b_static)
        return product


def _tensordot_axes(a: Tensor, axes: Any) -> tuple:
    """TF's `_tensordot_axes`: the contracted axes of `a` and of `b` (lists, or int32
    tensors where `axes` is one or `a`'s rank is unknown)."""
    from tf1compat.ops.array_ops import rank
    from tf1compat.ops.creation_ops import range as range_
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        ndims = a.shape.rank
        if ndims is None:
            a_rank = rank(a)
            return (range_(a_rank - axes, a_rank, dtype=D.int32),
                    range_(axes, dtype=D.int32))
        if axes > ndims:
            raise ValueError(f"`axes` must not be larger than the number of dimensions of "
                             f"tensor {a}.  Received {axes}, vs tensor dimensions {ndims}.")
        return list(range(ndims - axes, ndims)), list(range(axes))
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = axes
        if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
            a_axes, b_axes = [a_axes], [b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, "
                             f"{len(a_axes)} != {len(b_axes)}.")
        return a_axes, b_axes
    axes = convert_to_tensor(axes, name="axes", dtype=D.int32)
    return axes[0], axes[1]


def _tensordot_reshape(a: Tensor, axes: Any, flipped: bool) -> tuple:
    """TF's `_tensordot_reshape`: `a` as the matrix [free, contracted] (flipped:
    [contracted, free]); its free dimensions (a list where static) and their static sizes
    (None where the rank is unknown)."""
    from tf1compat.ops.array_ops import concat, rank, reshape, shape, stack
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.indexing_ops import gather, where
    from tf1compat.ops.reduction_ops import reduce_prod
    from tf1compat.ops.sort_ops import setdiff1d
    from tf1compat.ops.transform_ops import transpose
    if a.shape.is_fully_defined() and isinstance(axes, (list, tuple)):
        dims = a.shape.as_list()
        axes = [i if i >= 0 else i + len(dims) for i in axes]
        free = [i for i in range(len(dims)) if i not in axes]
        free_dims = [dims[i] for i in free]
        prod_free = int(np.prod(free_dims))
        prod_axes = int(np.prod([dims[i] for i in axes]))
        perm = list(axes) + free if flipped else free + list(axes)
        new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        # TF 2.21 builds neither an identity transpose nor a reshape to the same shape.
        if perm != list(range(len(dims))):
            a = transpose(a, perm)
        if a.shape.as_list() != new_shape:
            a = reshape(a, new_shape)
        return a, free_dims, free_dims
    if a.shape.rank is not None and isinstance(axes, (list, tuple)):
        dims = a.shape.as_list()
        axes = [i if i >= 0 else i + len(dims) for i in axes]
        free = [i for i in range(len(dims)) if i not in axes]
        free_static = [dims[i] for i in free]
        axes = convert_to_tensor(axes, dtype=D.int32, name="axes")
        free = convert_to_tensor(free, dtype=D.int32, name="free")
        a_shape = shape(a)
    else:
        free_static = None
        a_shape = shape(a)
        a_rank = rank(a)
        axes = convert_to_tensor(axes, dtype=D.int32, name="axes")
        axes = where(axes >= 0, axes, axes + a_rank)
        free, _ = setdiff1d(range_(a_rank), axes)
    free_dims = gather(a_shape, free)
    axes_dims = gather(a_shape, axes)
    prod_free = reduce_prod(free_dims)
    prod_axes = reduce_prod(axes_dims)
    if flipped:
        perm, new_shape = concat([axes, free], 0), stack([prod_axes, prod_free])
    else:
        perm, new_shape = concat([free, axes], 0), stack([prod_free, prod_axes])
    return reshape(transpose(a, perm), new_shape), free_dims, free_static
