"""TF1 iterators: `tf.data.Iterator`, one-shot, initializable, reinitializable and feedable.

An iterator is a `resource` tensor whose run-time value is an `IteratorResource` living
in the session (`kctx.op_resource`), so two sessions iterate independently and the
position survives between `Session.run` calls:

* `make_one_shot_iterator()`: `OneShotIterator` (no inputs, as TF: the dataset is
  captured by value) builds the dataset the first time it runs in a session, by running
  the dataset's ops as a sub-plan; capturing a placeholder or a variable is TF's
  ValueError at graph build.
* `make_initializable_iterator()` / `Iterator.from_structure`: `IteratorV2`; running
  `MakeIterator(dataset, iterator)` (the initializer) evaluates the dataset's ops with
  the run's feeds and restarts the iterator on it.
* `string_handle()` (`IteratorToStringHandle`) names the resource;
  `Iterator.from_string_handle` (`IteratorFromStringHandleV2`) finds it again in the
  session, so a fed handle chooses the iterator.
* `get_next()` (`IteratorGetNext`) returns the next element, OutOfRangeError
  "End of sequence" at the end, FailedPreconditionError before initialization.
"""

from __future__ import annotations

import itertools
import threading
import warnings
from typing import Any, Callable, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework import random_seed
from tf1compat.framework.graph import (apply_op, colocate_with, get_default_graph,
                                       name_scope)
from tf1compat.framework.op_def import REQUIRED, TypeList, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.data import _runtime as rt
from tf1compat.data import structure
from tf1compat.data._ops import DATASET_OP_TYPES
from tf1compat.data.structure import SparseTensorSpec

__all__ = ["Iterator", "IteratorResource", "make_one_shot", "make_initializable",
           "GLOBAL_ITERATORS"]

GLOBAL_ITERATORS = "iterators"
GET_NEXT_CALL_WARNING_THRESHOLD = 32
_handles = itertools.count()
_handle_lock = threading.Lock()


class IteratorResource:
    """One iterator's state in one session: the current pass over a dataset."""

    def __init__(self, name: str, output_types: List[D.DType],
                 output_shapes: List[TensorShape]):
        self.name = name
        self.output_types = output_types
        self.output_shapes = output_shapes
        self.iterator: Optional[rt.Iter] = None
        self.exhausted = False
        # Threads sharing a session may pull from one iterator at once (TF's GetNext is
        # thread-safe): each element is produced whole, under this lock.
        self._lock = threading.Lock()
        with _handle_lock:
            self.handle = _handle_bytes(name, next(_handles))

    def to(self, *args: Any, **kwargs: Any) -> "IteratorResource":
        return self

    def reset(self, dataset: rt.DatasetValue) -> None:
        with self._lock:
            self.iterator = dataset.iterator()
            self.exhausted = False

    def start_once(self, make_dataset: Callable[[], rt.DatasetValue]) -> None:
        """Starts the first pass (a one-shot iterator's), once however many threads ask."""
        with self._lock:
            if self.iterator is None:
                self.iterator = make_dataset().iterator()
                self.exhausted = False

    def get_next(self) -> tuple:
        with self._lock:
            it = self.iterator
            if it is None:
                raise errors.FailedPreconditionError(
                    None, None, "GetNext() failed because the iterator has not been "
                                "initialized. Ensure that you have run the initializer "
                                "operation for this iterator before getting the next element.")
            element = None if self.exhausted else it.get_next()
            if element is None:
                self.exhausted = True
                raise errors.OutOfRangeError(None, None, "End of sequence")
            return element

    def close(self) -> None:
        self.iterator = None


def _handle_bytes(name: str, uid: int) -> bytes:
    """A serialized ResourceHandleProto naming the iterator (its form in TF)."""
    from tf1compat.serialization.messages import ResourceHandleProto
    return ResourceHandleProto(device="/job:localhost/replica:0/task:0/device:CPU:0",
                               container="localhost", name=f"_{uid}_{name}",
                               hash_code=uid + 1,
                               maybe_type_name="tensorflow::data::IteratorResource"
                               ).SerializeToString()


def _registry(kctx: Any) -> dict:
    """Handle bytes -> IteratorResource, per session."""
    return kctx.runtime.resources.setdefault("__tf1compat_iterator_handles__", {})


# -- ops ---------------------------------------------------------------------------------------

_ITER_ATTRS = {"output_types": [], "output_shapes": [], "shared_name": "", "container": ""}


def _resource_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([])]


def _iterator_v2_kernel(node: Any, kctx: Any) -> Callable[[], Any]:
    shared = node.attrs.get("shared_name") or ""

    def make() -> IteratorResource:
        return IteratorResource(node.name, list(node.attrs["output_types"]),
                                list(node.attrs["output_shapes"]))
    if shared:
        key = ("IteratorV2", node.attrs.get("container") or "", shared)
        resource = kctx.runtime.op_resource(key, make)
    else:
        resource = kctx.op_resource(make)
    _registry(kctx)[resource.handle] = resource
    return lambda: resource


declare("IteratorV2", outputs=["handle: resource"], attrs=dict(_ITER_ATTRS),
        shape=_resource_shape, kernel=_iterator_v2_kernel, grad="none", stateful=True,
        cpu_only=True, doc="An iterator resource, initialized by MakeIterator.")


def _one_shot_kernel(node: Any, kctx: Any) -> Callable[[], Any]:
    variant = node.attrs["dataset_factory"]

    def make() -> IteratorResource:
        return IteratorResource(node.name, list(node.attrs["output_types"]),
                                list(node.attrs["output_shapes"]))
    resource = kctx.op_resource(make)
    _registry(kctx)[resource.handle] = resource

    def run() -> IteratorResource:
        if resource.iterator is None:
            # The dataset is built once per session, the first time the iterator runs
            # (once, whichever thread runs it first): from the graph's dataset ops, or
            # from an imported graph's factory function.
            def build() -> Any:
                if isinstance(variant, Tensor):
                    return kctx.compile_function([], [variant], None)()[0]
                return variant.bind(kctx)(())[0]
            resource.start_once(build)
        return resource
    return run


declare("OneShotIterator", outputs=["handle: resource"],
        attrs={**_ITER_ATTRS, "dataset_factory": REQUIRED},
        shape=_resource_shape, kernel=_one_shot_kernel, grad="none", stateful=True,
        cpu_only=True, doc="An iterator that builds its dataset on first use per session.")


def _make_iterator_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def run(dataset: rt.DatasetValue, resource: IteratorResource) -> None:
        resource.reset(dataset)
    return run


declare("MakeIterator", inputs=["dataset: variant", "iterator: resource"], outputs=[],
        shape=lambda ctx: [], kernel=_make_iterator_kernel, grad="none", stateful=True,
        cpu_only=True, doc="(Re)starts `iterator` on `dataset`.")


def _get_next_shape(ctx: Any) -> List[TensorShape]:
    return [as_shape(s) for s in ctx.attrs["output_shapes"]]


def _get_next_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    single = len(node.outputs) == 1

    def run(resource: IteratorResource) -> Any:
        element = resource.get_next()
        return element[0] if single else element
    return run


declare("IteratorGetNext", inputs=["iterator: resource"], outputs=["components: output_types"],
        attrs={"output_types": TypeList(), "output_shapes": []},
        shape=_get_next_shape, kernel=_get_next_kernel, grad="none", stateful=True,
        cpu_only=True, view=True, doc="The iterator's next element.")


def _to_handle_kernel(node: Any, kctx: Any) -> Callable[[Any], bytes]:
    registry = _registry(kctx)

    def run(resource: IteratorResource) -> bytes:
        registry[resource.handle] = resource
        return resource.handle
    return run


declare("IteratorToStringHandle", inputs=["resource_handle: resource"],
        outputs=["string_handle: string"], shape=lambda ctx: [TensorShape([])],
        kernel=_to_handle_kernel, grad="none", stateful=True, cpu_only=True,
        doc="A string naming the iterator (for Iterator.from_string_handle).")


def _from_handle_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    registry = _registry(kctx)
    types = list(node.attrs["output_types"])

    def run(handle: Any) -> IteratorResource:
        key = handle if isinstance(handle, bytes) else bytes(handle.reshape(-1)[0])
        resource = registry.get(key)
        if resource is None:
            raise errors.NotFoundError(None, None, "Resource localhost/iterator does not "
                                                   "exist: the string handle does not name "
                                                   "an iterator of this session.")
        if types and [D.as_dtype(t) for t in resource.output_types] != \
                [D.as_dtype(t) for t in types]:
            raise errors.InvalidArgumentError(
                None, None, f"Expected types {[D.as_dtype(t).name for t in types]} but the "
                            f"iterator has {[D.as_dtype(t).name for t in resource.output_types]}")
        return resource
    return run


declare("IteratorFromStringHandleV2", inputs=["string_handle: string"],
        outputs=["resource_handle: resource"],
        attrs={"output_types": [], "output_shapes": []}, shape=_resource_shape,
        kernel=_from_handle_kernel, grad="none", stateful=True, cpu_only=True,
        doc="The iterator a string handle names.")


# -- the Iterator class ------------------------------------------------------------------------

class Iterator:
    """`tf.data.Iterator` (TF1): the state of iterating through a dataset."""

    def __init__(self, iterator_resource: Tensor, initializer: Optional[Operation],
                 output_types: Any, output_shapes: Any, output_classes: Any):
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        if output_types is None or output_shapes is None or output_classes is None:
            raise ValueError("All of `output_types`, `output_shapes`, and `output_classes` "
                             "must be specified to create an iterator. Got `output_types` = "
                             f"{output_types!r}, `output_shapes` = {output_shapes!r}, "
                             f"`output_classes` = {output_classes!r}.")
        self._element_spec = structure.convert_legacy_structure(output_types, output_shapes,
                                                                output_classes)
        self._flat_tensor_types = structure.flat_tensor_types(self._element_spec)
        self._flat_tensor_shapes = structure.flat_tensor_shapes(self._element_spec)
        self._string_handle = apply_op("IteratorToStringHandle",
                                       [iterator_resource])._outputs[0]
        self._get_next_call_count = 0
        get_default_graph().add_to_collection(GLOBAL_ITERATORS, iterator_resource)

    @staticmethod
    def from_structure(output_types: Any, output_shapes: Any = None,
                       shared_name: Optional[str] = None, output_classes: Any = None
                       ) -> "Iterator":
        """An uninitialized iterator of this structure; `make_initializer(ds)` starts it."""
        output_types, output_shapes, output_classes = _legacy_structure(
            output_types, output_shapes, output_classes)
        spec = structure.convert_legacy_structure(output_types, output_shapes, output_classes)
        resource = apply_op("IteratorV2", [], {
            "container": "", "shared_name": shared_name or "",
            "output_types": structure.flat_tensor_types(spec),
            "output_shapes": structure.flat_tensor_shapes(spec)})._outputs[0]
        return Iterator(resource, None, output_types, output_shapes, output_classes)

    @staticmethod
    def from_string_handle(string_handle: Any, output_types: Any, output_shapes: Any = None,
                           output_classes: Any = None) -> "Iterator":
        """The iterator whose `string_handle()` value `string_handle` evaluates to."""
        output_types, output_shapes, output_classes = _legacy_structure(
            output_types, output_shapes, output_classes)
        spec = structure.convert_legacy_structure(output_types, output_shapes, output_classes)
        string_handle = convert_to_tensor(string_handle, dtype=D.string)
        resource = apply_op("IteratorFromStringHandleV2", [string_handle], {
            "output_types": structure.flat_tensor_types(spec),
            "output_shapes": structure.flat_tensor_shapes(spec)})._outputs[0]
        return Iterator(resource, None, output_types, output_shapes, output_classes)

    @property
    def initializer(self) -> Operation:
        if self._initializer is not None:
            return self._initializer
        raise ValueError("The iterator does not have an initializer. This means it was likely "
                         "created using `tf.data.Dataset.make_one_shot_iterator()`. For an "
                         "initializable iterator, use "
                         "`tf.data.Dataset.make_initializable_iterator()` instead.")

    def make_initializer(self, dataset: Any, name: Optional[str] = None) -> Operation:
        """An op that (re)starts this iterator on `dataset`."""
        with name_scope(name, "make_initializer") as scope:
            d_types = structure.legacy_types(dataset.element_spec)
            d_shapes = structure.legacy_shapes(dataset.element_spec)
            d_classes = structure.legacy_classes(dataset.element_spec)
            structure.assert_same_structure(self.output_types, d_types)
            structure.assert_same_structure(self.output_shapes, d_shapes)
            for mine, theirs in zip(structure.flatten(self.output_classes),
                                    structure.flatten(d_classes)):
                if mine is not theirs:
                    raise TypeError(f"Expected output classes {self.output_classes!r} but got "
                                    f"dataset with output classes {d_classes!r}.")
            for mine, theirs in zip(structure.flatten(self.output_types),
                                    structure.flatten(d_types)):
                if mine != theirs:
                    raise TypeError(f"Expected output types {self.output_types!r} but got "
                                    f"dataset with output types {d_types!r}.")
            for mine, theirs in zip(structure.flatten(self.output_shapes),
                                    structure.flatten(d_shapes)):
                if not mine.is_compatible_with(theirs):
                    raise TypeError(f"Expected output shapes compatible with "
                                    f"{self.output_shapes!r} but got dataset with output "
                                    f"shapes {d_shapes!r}.")
        with colocate_with(self._iterator_resource):
            return apply_op("MakeIterator", [dataset._variant_tensor, self._iterator_resource],
                            name=scope)

    def get_next(self, name: Optional[str] = None) -> Any:
        """The next element's tensors (OutOfRangeError at run time after the last)."""
        self._get_next_call_count += 1
        if self._get_next_call_count > GET_NEXT_CALL_WARNING_THRESHOLD:
            warnings.warn("An unusually high number of `Iterator.get_next()` calls was "
                          "detected. This often indicates that `Iterator.get_next()` is being "
                          "called inside a training loop, which will cause gradual slowdown "
                          "and eventual resource exhaustion.")
        with colocate_with(self._iterator_resource):
            op = apply_op("IteratorGetNext", [self._iterator_resource], {
                "output_types": self._flat_tensor_types,
                "output_shapes": self._flat_tensor_shapes}, name)
            return _from_tensor_list(self._element_spec, list(op._outputs))

    def get_next_as_optional(self) -> Any:
        raise NotImplementedError("Iterator.get_next_as_optional is not supported by "
                                  "tf1compat.")

    def string_handle(self, name: Optional[str] = None) -> Tensor:
        """A scalar string naming this iterator (feed it to `from_string_handle`)."""
        if name is None:
            return self._string_handle
        return apply_op("IteratorToStringHandle", [self._iterator_resource],
                        name=name)._outputs[0]

    @property
    def output_types(self) -> Any:
        return structure.legacy_types(self._element_spec)

    @property
    def output_shapes(self) -> Any:
        return structure.legacy_shapes(self._element_spec)

    @property
    def output_classes(self) -> Any:
        return structure.legacy_classes(self._element_spec)

    @property
    def element_spec(self) -> Any:
        return self._element_spec


def _legacy_structure(output_types: Any, output_shapes: Any, output_classes: Any) -> tuple:
    output_types = structure.map_structure(D.as_dtype, output_types)
    if output_shapes is None:
        output_shapes = structure.map_structure(lambda _: TensorShape(None), output_types)
    else:
        output_shapes = _map_up_to(output_types, as_shape, output_shapes)
    if output_classes is None:
        output_classes = structure.map_structure(lambda _: Tensor, output_types)
    structure.assert_same_structure(output_types, output_shapes)
    return output_types, output_shapes, output_classes


def _map_up_to(shallow: Any, fn: Callable[[Any], Any], value: Any) -> Any:
    """`nest.map_structure_up_to`: `value` followed only as deep as `shallow` goes."""
    if not structure.is_nested(shallow):
        return fn(value)
    if isinstance(shallow, dict):
        return type(shallow)((k, _map_up_to(shallow[k], fn, value[k])) for k in shallow)
    if len(shallow) != len(value):
        raise ValueError(f"The two structures don't have the same sequence length. Input "
                         f"structure has length {len(value)}, while shallow structure has "
                         f"length {len(shallow)}.")
    items = [_map_up_to(s, fn, v) for s, v in zip(shallow, value)]
    return type(shallow)(*items) if hasattr(shallow, "_fields") else type(shallow)(items)


def _from_tensor_list(spec: Any, tensors: List[Tensor]) -> Any:
    """Packs get_next's outputs; sparse components become SparseTensors (DeserializeSparse),
    ragged ones RaggedTensors (RaggedTensorFromVariant)."""
    from tf1compat.data.ragged import ragged_from_variant
    from tf1compat.data.sparse import deserialize_sparse_component
    from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
    out = []
    for component, t in zip(structure.flatten(spec), tensors):
        if isinstance(component, SparseTensorSpec):
            out.append(deserialize_sparse_component(component, t))
        elif isinstance(component, RaggedTensorSpec):
            out.append(ragged_from_variant(component, t))
        else:
            out.append(t)
    return structure.pack(spec, out)


# -- building iterators ------------------------------------------------------------------------

def _ensure_same_graph(dataset: Any) -> None:
    graph = get_default_graph()
    queue, seen = [dataset], []
    while queue:
        ds = queue.pop(0)
        seen.append(ds)
        if ds._graph is not graph:
            raise ValueError(f"The graph {graph} of the iterator is different from the graph "
                             f"{ds._graph} the dataset: {ds._variant_tensor} was created in. "
                             "Make sure that the dataset is created in the same graph as the "
                             "iterator.")
        queue.extend(d for d in ds._inputs() if d not in seen)


_STATEFUL_CAPTURE_OK = {"OneShotIterator", "IteratorV2", "IteratorGetNext", "MakeIterator",
                        "IteratorToStringHandle", "IteratorFromStringHandleV2"}


def _check_capture_by_value(tensor: Tensor) -> None:
    """TF's Defun(capture_by_value=True) errors for what a one-shot dataset uses."""
    seen: set = set()
    stack = [tensor._op]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type == "Placeholder":
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, type:{op.type}) "
                             "by value.")
        stateful = op._op_def.stateful and op.type not in DATASET_OP_TYPES and \
            op.type not in _STATEFUL_CAPTURE_OK
        if stateful or op.type in ("VariableV2", "VarHandleOp"):
            raise ValueError(f"Cannot capture a stateful node (name:{op.name}, id:{op._id}, "
                             f"type:{op.type}) by value.: A likely cause of this error is "
                             "that the dataset for which you are calling "
                             "`make_one_shot_iterator()` captures a stateful object, such as "
                             "a `tf.Variable` or `tf.lookup.StaticHashTable`, which is not "
                             "supported. Use `make_initializable_iterator()` instead.")
        stack.extend(t._op for t in op._inputs)


def make_one_shot(dataset: Any) -> Iterator:
    """`dataset.make_one_shot_iterator()` / `tf.data.make_one_shot_iterator(dataset)`."""
    from tf1compat.framework import context as _context
    if not hasattr(dataset, "_variant_tensor") and hasattr(dataset, "make_one_shot_iterator"):
        # A strategy's distributed dataset makes its own iterator (TF asks the object).
        return dataset.make_one_shot_iterator()
    if _context.executing_eagerly():
        from tf1compat.data.eager_iterator import EagerIterator
        return EagerIterator(dataset)  # type: ignore[return-value]
    _ensure_same_graph(dataset)
    # TF seeds the dataset factory function from an op seed drawn here: under a graph seed
    # that draw advances the graph's op-seed counter, so random ops built afterwards (a
    # model's initializers) get the op seeds they get in TF.
    random_seed.get_seed(None)
    _check_capture_by_value(dataset._variant_tensor)
    spec = dataset.element_spec
    with colocate_with(dataset._variant_tensor):
        resource = apply_op("OneShotIterator", [], {
            "dataset_factory": dataset._variant_tensor, "container": "", "shared_name": "",
            "output_types": structure.flat_tensor_types(spec),
            "output_shapes": structure.flat_tensor_shapes(spec)})._outputs[0]
        return Iterator(resource, None, structure.legacy_types(spec),
                        structure.legacy_shapes(spec), structure.legacy_classes(spec))


def make_initializable(dataset: Any, shared_name: Optional[str] = None) -> Iterator:
    """`dataset.make_initializable_iterator()`: IteratorV2 plus its MakeIterator."""
    from tf1compat.framework import context as _context
    if not hasattr(dataset, "_variant_tensor") and hasattr(dataset,
                                                           "make_initializable_iterator"):
        return dataset.make_initializable_iterator()      # a distributed dataset
    if _context.executing_eagerly():
        raise RuntimeError("`make_initializable_iterator()` is not supported in eager mode. "
                           "Use Python-style iteration instead.")
    _ensure_same_graph(dataset)
    spec = dataset.element_spec
    with colocate_with(dataset._variant_tensor):
        resource = apply_op("IteratorV2", [], {
            "container": "", "shared_name": shared_name or "",
            "output_types": structure.flat_tensor_types(spec),
            "output_shapes": structure.flat_tensor_shapes(spec)})._outputs[0]
        initializer = apply_op("MakeIterator", [dataset._variant_tensor, resource])
        return Iterator(resource, initializer, structure.legacy_types(spec),
                        structure.legacy_shapes(spec), structure.legacy_classes(spec))

