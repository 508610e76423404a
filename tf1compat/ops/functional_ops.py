"""`tf.map_fn`, `tf.scan`, `tf.foldl`, `tf.foldr`: TF1's while_loop + TensorArray programs.

Each is built exactly as TF1's wrapper builds it (elements unstacked into TensorArrays, a
`while_loop` with `maximum_iterations=n`, results written to TensorArrays and stacked),
so op names (`map/while/...`, `map/TensorArrayStack/TensorArrayGatherV3`), static shapes
and the one-compile-per-session loop behaviour follow from while_loop and TensorArray.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import Dimension, TensorShape, dimension_value
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop
from tf1compat.util import nest

__all__ = ["map_fn", "scan", "foldl", "foldr", "vectorized_map"]


def _leading_dim(t: Tensor) -> Any:
    n = dimension_value(t.shape.with_rank_at_least(1)[0])
    if n is not None:
        return n
    from tf1compat.ops.array_ops import shape
    return shape(t)[0]


def _static_n(elems_flat: List[Tensor]) -> Dimension:
    n_static = Dimension(dimension_value(elems_flat[0].shape.with_rank_at_least(1)[0]))
    for t in elems_flat[1:]:
        n_static.assert_is_compatible_with(
            Dimension(dimension_value(t.shape.with_rank_at_least(1)[0])))
    return n_static


def _variables_to_tensors(x: Any) -> Any:
    from tf1compat.ops.cond import _variables_to_tensors as convert
    return convert(x)


def map_fn(fn: Callable[[Any], Any], elems: Any, dtype: Any = None,
           parallel_iterations: Optional[int] = None, back_prop: bool = True,
           swap_memory: bool = False, infer_shape: bool = True, name: Optional[str] = None,
           fn_output_signature: Any = None) -> Any:
    """`tf.map_fn`: `fn` applied to each slice of `elems` along the first dimension."""
    if fn_output_signature is None:
        fn_output_signature = dtype
    if not callable(fn):
        # (TF reads fn.__name__ here, so a non-function raises AttributeError, as in TF.)
        raise TypeError(f"The provided function {fn.__name__} is not callable."
                        "fn must be callable.")
    if not parallel_iterations:
        parallel_iterations = 10
    elems = _variables_to_tensors(elems)
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems}, which does not contain any Tensors.")
    if fn_output_signature is None:
        result_dtypes = None
        result_unflatten = lambda x: nest.pack_sequence_as(elems, x)  # noqa: E731
    else:
        result_dtypes = [D.as_dtype(d) for d in nest.flatten(fn_output_signature)]
        result_unflatten = lambda x: nest.pack_sequence_as(fn_output_signature, x)  # noqa: E731

    with name_scope(name, "map", elems_flat):
        elems_flat = [convert_to_tensor(t, name="elem") for t in elems_flat]
        first = elems_flat[0].shape
        if first.rank is not None and first.rank < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        n_static = _static_n(elems_flat)
        n = n_static.value or _leading_dim(elems_flat[0])
        elems_ta = [TensorArray(dtype=t.dtype, size=n, dynamic_size=False, infer_shape=True)
                    for t in elems_flat]
        elems_ta = [ta.unstack(t) for ta, t in zip(elems_ta, elems_flat)]
        i = constant(0)
        if result_dtypes is None:
            result_dtypes = [t.dtype for t in elems_flat]
        result_ta = [TensorArray(dtype=d, size=n, dynamic_size=False, infer_shape=infer_shape)
                     for d in result_dtypes]

        def compute(i: Tensor, tas: List[TensorArray]) -> tuple:
            values = [ta.read(i) for ta in elems_ta]
            packed = nest.pack_sequence_as(elems, values)
            result = fn(packed)
            nest.assert_same_structure(fn_output_signature or elems, result)
            flat = nest.flatten(result)
            tas = [ta.write(i, value) for ta, value in zip(tas, flat)]
            return (i + 1, tas)

        _, r_a = while_loop(lambda i, _: i < n, compute, (i, result_ta),
                            parallel_iterations=parallel_iterations, back_prop=back_prop,
                            swap_memory=swap_memory, maximum_iterations=n)
        results = [r.stack() for r in r_a]
        for r in results:
            r.set_shape(TensorShape([n_static]).concatenate(r.shape[1:]))
        return result_unflatten(results)


def _fold(kind: str, fn: Callable[[Any, Any], Any], elems: Any, initializer: Any,
          parallel_iterations: int, back_prop: bool, swap_memory: bool,
          name: Optional[str]) -> Any:
    if not callable(fn):
        raise TypeError(f"{getattr(fn, '__name__', fn)} is not callable. Please provide a "
                        "callable function.")
    with name_scope(name, kind, [elems]):
        elems_flat = [convert_to_tensor(e, name="elem") for e in nest.flatten(elems)]
        n = _leading_dim(elems_flat[0])

        def create_ta(elem: Tensor) -> TensorArray:
            return TensorArray(dtype=elem.dtype, size=n, dynamic_size=False,
                               infer_shape=True).unstack(elem)
        elems_ta = nest.pack_sequence_as(elems, [create_ta(e) for e in elems_flat]) \
            if nest.is_nested(elems) else create_ta(elems_flat[0])

        def read(index: Any) -> Any:
            if nest.is_nested(elems_ta):
                return nest.pack_sequence_as(
                    elems_ta, [ta.read(index) for ta in nest.flatten(elems_ta)])
            return elems_ta.read(index)

        if kind == "foldl":
            if initializer is None:
                a = read(0)
                i = constant(1)
            else:
                a = initializer
                i = constant(0)

            def compute(i: Tensor, a: Any) -> list:
                a = fn(a, read(i))
                return [i + 1, a]
            condition = lambda i, a: i < n  # noqa: E731
        else:
            if initializer is None:
                i = n - 1
                a = read(i)
            else:
                i = n
                a = initializer

            def compute(i: Tensor, a: Any) -> list:
                i -= 1
                return [i, fn(a, read(i))]
            condition = lambda i, a: i > 0  # noqa: E731
        _, r_a = while_loop(condition, compute, [i, a],
                            parallel_iterations=parallel_iterations, back_prop=back_prop,
                            swap_memory=swap_memory, maximum_iterations=n)
        return r_a


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: Optional[str] = None) -> Any:
    """`tf.foldl`: `fn(fn(fn(a, e0), e1), ...)` over `elems` from the first element."""
    return _fold("foldl", fn, elems, initializer, parallel_iterations, back_prop,
                 swap_memory, name)


def foldr(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: Optional[str] = None) -> Any:
    """`tf.foldr`: the fold from the last element to the first."""
    return _fold("foldr", fn, elems, initializer, parallel_iterations, back_prop,
                 swap_memory, name)


def scan(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None,
         parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
         infer_shape: bool = True, reverse: bool = False, name: Optional[str] = None) -> Any:
    """`tf.scan`: every intermediate accumulator of a fold, stacked."""
    if not callable(fn):
        raise TypeError(f"{getattr(fn, '__name__', fn)} is not callable. Please provide a "
                        "callable function.")
    input_is_sequence = nest.is_nested(elems)
    input_flatten = (lambda x: nest.flatten(x)) if input_is_sequence else (lambda x: [x])
    input_pack = (lambda x: nest.pack_sequence_as(elems, x)) if input_is_sequence \
        else (lambda x: x[0])
    if initializer is None:
        output_flatten, output_pack = input_flatten, input_pack
    else:
        output_is_sequence = nest.is_nested(initializer)
        output_flatten = (lambda x: nest.flatten(x)) if output_is_sequence \
            else (lambda x: [x])
        output_pack = (lambda x: nest.pack_sequence_as(initializer, x)) if output_is_sequence \
            else (lambda x: x[0])
    elems_flat = input_flatten(elems)
    with name_scope(name, "scan", elems_flat):
        elems_flat = [convert_to_tensor(e, name="elem") for e in elems_flat]
        n = dimension_value(elems_flat[0].shape[0]) if elems_flat[0].shape.rank else None
        if n is None:
            from tf1compat.ops.array_ops import shape
            n = shape(elems_flat[0])[0]
        elems_ta = [TensorArray(dtype=e.dtype, size=n, dynamic_size=False,
                                element_shape=e.shape[1:] if e.shape.rank is not None
                                else None, infer_shape=True) for e in elems_flat]
        elems_ta = [ta.unstack(e) for ta, e in zip(elems_ta, elems_flat)]
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in elems_ta]
            i: Any = 1
        else:
            a_flat = [convert_to_tensor(init) for init in output_flatten(initializer)]
            i = 0
        accs_ta = [TensorArray(dtype=init.dtype, size=n,
                               element_shape=init.shape if infer_shape else None,
                               dynamic_size=False, infer_shape=infer_shape)
                   for init in a_flat]
        if initializer is None:
            accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, a_flat)]

        def compute(i: Tensor, a_flat: List[Tensor], tas: List[TensorArray]) -> tuple:
            packed_elems = input_pack([ta.read(i) for ta in elems_ta])
            packed_a = output_pack(a_flat)
            a_out = fn(packed_a, packed_elems)
            nest.assert_same_structure(elems if initializer is None else initializer, a_out)
            flat_a_out = output_flatten(a_out)
            tas = [ta.write(i, value) for ta, value in zip(tas, flat_a_out)]
            next_i = i - 1 if reverse else i + 1
            return (next_i, flat_a_out, tas)

        if reverse:
            initial_i = n - 1 - i
            condition = lambda i, _1, _2: i >= 0  # noqa: E731
        else:
            initial_i = i
            condition = lambda i, _1, _2: i < n  # noqa: E731
        _, _, r_a = while_loop(condition, compute, (initial_i, a_flat, accs_ta),
                               parallel_iterations=parallel_iterations, back_prop=back_prop,
                               swap_memory=swap_memory, maximum_iterations=n)
        results_flat = [r.stack() for r in r_a]
        n_static = _static_n(elems_flat)
        for r in results_flat:
            r.set_shape(TensorShape([n_static]).concatenate(r.shape[1:]))
        return output_pack(results_flat)


def vectorized_map(fn: Callable[[Any], Any], elems: Any, fallback_to_while_loop: bool = True,
                   warn: bool = True) -> Any:
    """`tf.vectorized_map`: `fn` on each slice of `elems` along dimension 0, stacked.

    TF vectorizes `fn` (pfor) where it can and falls back to a while loop; tf1compat
    always runs the loop (`tf.map_fn`), which gives the same values. `fn`'s output
    structure and dtypes come from calling it once on the first slice, in a `loop_body`
    scope as TF's converter does.
    """
    elems = _variables_to_tensors(elems)
    with name_scope("loop_body"):
        probe = fn(nest.pack_sequence_as(
            elems, [convert_to_tensor(e)[0] for e in nest.flatten(elems)]))
    signature = nest.pack_sequence_as(
        probe, [convert_to_tensor(t).dtype for t in nest.flatten(probe)])
    return map_fn(fn, elems, fn_output_signature=signature)

