"""The rest of `tf.data.experimental`: `from_list` (ListDataset), `pad_to_cardinality`,
`rejection_resample` (TF's graph of maps, filters and sample_from_datasets),
`get_next_as_optional` (IteratorGetNextAsOptional) and its Optional, the device
transformations, `to_variant`/`from_variant`, and lookup tables from datasets
(`DatasetInitializer`: InitializeTableFromDataset; `table_from_dataset`,
`index_table_from_dataset`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Optional, Sequence

import numpy as np

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.data import _experimental_ops as xops
from tf1compat.data import structure
from tf1compat.data._ops import dataset_op
from tf1compat.data.dataset_ops import DatasetV1, DatasetV1Adapter, DatasetV2
from tf1compat.data.experimental_transforms import cardinality, sample_from_datasets
from tf1compat.data.structure import TensorSpec
from tf1compat.data.type_specs import OptionalSpec
from tf1compat.ops import list_ops  # noqa: F401 - declares the Optional* ops

__all__ = ["from_list", "pad_to_cardinality", "rejection_resample", "get_next_as_optional",
           "copy_to_device", "prefetch_to_device", "to_variant", "from_variant",
           "DatasetInitializer", "table_from_dataset", "index_table_from_dataset",
           "make_saveable_from_iterator"]


# -- from_list -----------------------------------------------------------------------------------

def _list_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    per_element = len(node.attrs["output_types"])

    def run(*components: Any) -> xops.ListValue:
        return xops.ListValue([tuple(components[i:i + per_element])
                               for i in range(0, len(components), per_element)])
    return run


dataset_op("ListDataset", ["tensors: Tinput_types"], _list_kernel,
           {"Tinput_types": TypeList()})


def from_list(elements: Sequence[Any], name: Optional[str] = None) -> DatasetV1Adapter:
    """A dataset of the given elements (all of one structure), in order."""
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    if not isinstance(elements, list):
        raise ValueError("Invalid `elements`. `elements` must be a list.")
    normalized = [structure.normalize_element(e) for e in elements]
    specs = [structure.type_spec_from_value(e) for e in normalized]
    spec = specs[0]
    for other in specs[1:]:
        spec = structure.map_structure(lambda a, b: a.most_specific_compatible_type(b),
                                       spec, other)
    flat = [t for e in normalized for t in structure.flatten(e)]
    op = apply_op("ListDataset", [flat], {"output_types": structure.flat_tensor_types(spec),
                                          "output_shapes": structure.flat_tensor_shapes(spec)},
                  name)
    return DatasetV1Adapter(op._outputs[0], spec, [])


# -- pad_to_cardinality --------------------------------------------------------------------------

def pad_to_cardinality(cardinality_: Any, mask_key: str = "valid") -> Callable[[Any], Any]:
    """Pads a dataset of dicts with all-zero elements up to `cardinality_` elements; the
    `mask_key` entry says which are real (True) and which padding (False)."""
    from tf1compat.ops.creation_ops import zeros

    def apply(dataset: DatasetV2) -> DatasetV2:
        if _context.executing_eagerly():
            n = int(cardinality(dataset))
            if n < 0:
                raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a "
                                 f"known cardinalty, but has cardinality {n}")
            if n > cardinality_:
                raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a "
                                 f"cardinalty less than the target cardinality "
                                 f"({cardinality_}), but has cardinality {n}")
        if not isinstance(dataset.element_spec, Mapping):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a "
                             "dictionary.")
        padding = cardinality_ - cardinality(dataset)
        filler = {k: zeros(s.shape, s.dtype) for k, s in dataset.element_spec.items()}
        filler[mask_key] = False
        filler_ds = DatasetV1.from_tensors(filler).repeat(padding)

        def valid(x: dict) -> dict:
            x[mask_key] = True
            return x
        return dataset.map(valid).concatenate(filler_ds)
    return apply


# -- rejection_resample --------------------------------------------------------------------------

def _acceptance_and_mixing(initial: Tensor, target: Tensor) -> tuple:
    """TF's acceptance probabilities per class and probability of the original data."""
    from tf1compat.ops.reduction_ops import reduce_max, reduce_min
    ratio = target / (initial + np.finfo(initial.dtype.as_numpy_dtype).tiny)
    high, low = reduce_max(ratio), reduce_min(ratio)
    return (ratio - low) / (high - low), low


def _estimate_initial_dist(target: Tensor, classes: DatasetV2) -> DatasetV2:
    """TF's running estimate of the class distribution, 32 elements at a time."""
    from tf1compat.ops.array_ops import expand_dims, shape
    from tf1compat.ops.creation_ops import fill, one_hot
    from tf1compat.ops.transform_ops import tile
    from tf1compat.ops.math_ops import cast, truediv
    from tf1compat.ops.reduction_ops import reduce_sum
    from tf1compat.data.experimental_transforms import scan_dataset
    batch = 32
    num_classes = dimension_value(target.shape[0]) or shape(target)[0]
    seen0 = fill([num_classes], np.int64(10))

    def update(seen: Tensor, c: Tensor) -> tuple:
        n = dimension_value(seen.shape[0])
        seen = seen + reduce_sum(one_hot(c, n, dtype=D.int64), 0)
        dist = cast(truediv(seen, reduce_sum(seen)), D.float32)
        return seen, tile(expand_dims(dist, 0), [batch, 1])
    return scan_dataset(classes.batch(batch), seen0, update).unbatch()


def _warn_on_rejections(accept: Tensor, initial: Tensor) -> Tensor:
    """The acceptance probabilities, printed (10 times at most) when most are rejected."""
    from tf1compat.ops.cond import cond
    from tf1compat.ops.logging_ops import Print
    from tf1compat.ops.math_ops import less
    from tf1compat.ops.reduction_ops import reduce_sum
    rejected = reduce_sum((1 - accept) * initial)
    return cond(less(rejected, .5), lambda: accept,
                lambda: Print(accept, [rejected, initial, accept],
                              message="Proportion of examples rejected by sampler is high: ",
                              summarize=100, first_n=10))


def rejection_resample(class_func: Callable[..., Any], target_dist: Any,
                       initial_dist: Any = None, seed: Optional[int] = None
                       ) -> Callable[[Any], Any]:
    """A transformation resampling the dataset towards the class distribution
    `target_dist`; elements become `(class, element)` (TF's algorithm and graph)."""
    from tf1compat.ops.indexing_ops import gather
    from tf1compat.ops.math_ops import cast, less
    from tf1compat.ops.random_ops import random_uniform

    def apply(dataset: DatasetV2) -> DatasetV2:
        target = cast(convert_to_tensor(target_dist, name="target_dist"), D.float32)
        if initial_dist is not None:
            initial = cast(convert_to_tensor(initial_dist, name="initial_dist"), D.float32)
            acceptance, original = _acceptance_and_mixing(initial, target)
            initial_ds = DatasetV1.from_tensors(initial).repeat()
            acceptance_ds = DatasetV1.from_tensors(acceptance).repeat()
            original_ds = DatasetV1.from_tensors(original).repeat()
        else:
            initial_ds = _estimate_initial_dist(target, dataset.map(class_func))
            both = initial_ds.map(lambda init: _acceptance_and_mixing(init, target))
            acceptance_ds = both.map(lambda accept, _: accept)
            original_ds = both.map(lambda _, original: original)
        acceptance_ds = DatasetV1.zip((acceptance_ds, initial_ds)).map(_warn_on_rejections)

        def gather_and_copy(accept: Tensor, data: Any) -> tuple:
            value = class_func(*data) if isinstance(data, tuple) else class_func(data)
            return value, gather(accept, value), data

        filtered = DatasetV1.zip((acceptance_ds, dataset)).map(gather_and_copy)
        filtered = filtered.filter(
            lambda _, p, __: less(random_uniform([], seed=seed, dtype=p.dtype), p))
        filtered = filtered.map(lambda value, _, data: (value, data)).prefetch(3)

        def add_class_value(*x: Any) -> tuple:
            return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)
        static = None
        if initial_dist is not None:
            init_v, target_v = constant_value(initial), constant_value(target)
            if init_v is not None and target_v is not None:
                static = np.min(target_v / init_v)
        if static == 1:
            return dataset.map(add_class_value)
        if static == 0:
            return filtered
        return sample_from_datasets([dataset.map(add_class_value), filtered],
                                    weights=original_ds.map(lambda p: [(p, 1.0 - p)]),
                                    seed=seed, stop_on_empty_dataset=True)
    return apply


# -- optionals -----------------------------------------------------------------------------------

class OptionalElement:
    """An optional dataset element (`tf.experimental.Optional`): `has_value()`,
    `get_value()` (InvalidArgumentError at run time when empty)."""

    def __init__(self, variant: Tensor, element_spec: Any):
        self._variant_tensor = variant
        self._element_spec = element_spec

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    value_structure = element_spec

    def has_value(self, name: Optional[str] = None) -> Tensor:
        return apply_op("OptionalHasValue", [self._variant_tensor], {}, name)._outputs[0]

    def get_value(self, name: Optional[str] = None) -> Any:
        from tf1compat.data.iterator_ops import _from_tensor_list
        op = apply_op("OptionalGetValue", [self._variant_tensor],
                      {"output_types": structure.flat_tensor_types(self._element_spec),
                       "output_shapes": structure.flat_tensor_shapes(self._element_spec)},
                      name)
        return _from_tensor_list(self._element_spec, list(op._outputs))

    @property
    def _type_spec(self) -> OptionalSpec:
        return OptionalSpec(self._element_spec)


def _next_as_optional_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    from tf1compat.ops.list_ops import OptionalValue

    def run(resource: Any) -> Any:
        try:
            return OptionalValue(tuple(resource.get_next()))
        except errors.OutOfRangeError:
            return OptionalValue(None)
    return run


declare("IteratorGetNextAsOptional", inputs=["iterator: resource"],
        outputs=["optional: variant"],
        attrs={"output_types": TypeList(default=[]), "output_shapes": []},
        shape=lambda ctx: [TensorShape([])], kernel=_next_as_optional_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="The iterator's next element as an Optional (empty at the end).")


def get_next_as_optional(iterator: Any) -> OptionalElement:
    """The next element of `iterator` as an Optional: empty at the end instead of
    OutOfRangeError."""
    spec = iterator.element_spec
    resource = getattr(iterator, "_iterator_resource", None)
    if resource is None:                          # an eager iterator: no resource op
        try:
            element = iterator.get_next()
        except errors.OutOfRangeError:
            return OptionalElement(apply_op("OptionalNone", [], {})._outputs[0], spec)
        from tf1compat.data.dataset_ops import _to_tensor_list
        flat = _to_tensor_list(element, batched=False)
        return OptionalElement(apply_op("OptionalFromValue", [flat], {})._outputs[0], spec)
    op = apply_op("IteratorGetNextAsOptional", [resource],
                  {"output_types": structure.flat_tensor_types(spec),
                   "output_shapes": structure.flat_tensor_shapes(spec)})
    return OptionalElement(op._outputs[0], spec)


# -- devices, variants ---------------------------------------------------------------------------

def copy_to_device(target_device: str, source_device: str = "/cpu:0"
                   ) -> Callable[[Any], Any]:
    """The elements unchanged: tf1compat's dataset elements live on the CPU and ops that
    consume them are placed by their own device (the copy happens there)."""
    return lambda dataset: dataset


def prefetch_to_device(device: str, buffer_size: Any = None) -> Callable[[Any], Any]:
    """`copy_to_device(device)` then `prefetch(buffer_size)` (see copy_to_device)."""
    return lambda dataset: copy_to_device(device)(dataset).prefetch(buffer_size)


def to_variant(dataset: DatasetV2) -> Tensor:
    """The dataset's variant tensor."""
    return dataset._variant_tensor


def from_variant(variant: Tensor, structure: Any) -> DatasetV1Adapter:
    """A dataset from its variant tensor and element structure."""
    return DatasetV1Adapter(variant, structure, [])


def make_saveable_from_iterator(iterator: Any, external_state_policy: Any = None) -> Any:
    raise NotImplementedError("tf.data.experimental.make_saveable_from_iterator is not "
                              "supported by tf1compat: iterator state is not checkpointed "
                              "(Saver saves variables only).")


# -- lookup tables -------------------------------------------------------------------------------

def _check_table_spec(spec: Any) -> None:
    base = ("Datasets used to initialize lookup tables must produce elements in the form "
            "(key, value), where the keys and values are scalar tensors. ")
    if not isinstance(spec, (tuple, list, dict)):
        raise TypeError(f"object of type '{type(spec).__name__}' has no len()")
    if len(spec) != 2:
        n = len(spec)
        raise ValueError(base + f"However, the given dataset produces {n} components instead "
                                f"of two (key, value) components. Full dataset element spec: "
                                f"{spec}.")
    for what, s in (("key", spec[0]), ("value", spec[1])):
        if not isinstance(s, TensorSpec):
            raise ValueError(base + f"However, the given dataset produces non-Tensor {what}s "
                                    f"of type {type(s)}.")
        if s.shape.rank not in (None, 0):
            raise ValueError(base + f"However, the given dataset produces non-scalar {what} "
                                    f"Tensors of rank {s.shape.rank}.")


def _init_from_dataset_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    from tf1compat.ops.lookup_ops import as_keys

    def run(table: Any, dataset: Any) -> None:
        keys, values = [], []
        for key, value in dataset:
            keys.append(key)
            values.append(value)
        if keys:
            table.insert(as_keys(keys), as_keys(values))
    return run


declare("InitializeTableFromDataset", inputs=["table_handle: resource", "dataset: variant"],
        outputs=[], shape=lambda ctx: [], kernel=_init_from_dataset_kernel, grad="none",
        stateful=True, cpu_only=True, doc="Fills a table with a dataset's (key, value) pairs.")


class DatasetInitializer:
    """`tf.data.experimental.DatasetInitializer(dataset)`: a lookup table's contents from
    a dataset of (key, value) scalar pairs."""

    def __init__(self, dataset: DatasetV2):
        self.dataset = dataset
        spec = dataset.element_spec
        _check_table_spec(spec)
        self.key_dtype, self.value_dtype = spec[0].dtype, spec[1].dtype

    def initialize(self, table: Any) -> Any:
        from tf1compat.framework.graph import GraphKeys, add_to_collection
        op = apply_op("InitializeTableFromDataset",
                      [table.resource_handle, self.dataset._variant_tensor], {})
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op

    def _shared_name(self) -> str:
        import uuid
        return f"hash_table_{uuid.uuid4()}"


def table_from_dataset(dataset: DatasetV2 = None, num_oov_buckets: int = 0,
                       vocab_size: Any = None, default_value: Any = None,
                       hasher_spec: Any = None, key_dtype: Any = D.string,
                       name: Optional[str] = None) -> Any:
    """A static hash table from a dataset of (key, value) pairs (`num_oov_buckets` > 0:
    unknown keys hashed into extra ids)."""
    from tf1compat.ops.lookup_ops import HashTable, IdTableWithHashBuckets
    from tf1compat.data.experimental_transforms import assert_cardinality
    spec = dataset.element_spec
    _check_table_spec(spec)
    if default_value is None:
        default_value = -1
        if not (spec[1].dtype.is_integer or spec[1].dtype.is_floating):
            raise ValueError(f"`default_value` must be specified when creating a table from a "
                             f"dataset that produces values of type {spec[1].dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got "
                         f"{num_oov_buckets}.")
    if not isinstance(vocab_size, Tensor) and vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    key_dtype = D.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype.base_dtype != D.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got "
                        f"{key_dtype}")
    if vocab_size is not None:
        if isinstance(vocab_size, Tensor):
            from tf1compat.ops.math_ops import cast
            vocab_size = cast(vocab_size, D.int64)
        dataset = dataset.take(vocab_size).apply(assert_cardinality(vocab_size))
    with name_scope(name, "string_to_index"):
        initializer = DatasetInitializer(dataset)
        with name_scope(None, "hash_table"):
            table = HashTable(initializer, default_value)
            if num_oov_buckets:
                kwargs = {} if hasher_spec is None else {"hasher_spec": hasher_spec}
                table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                               key_dtype=key_dtype, **kwargs)
            return table


def index_table_from_dataset(dataset: DatasetV2 = None, num_oov_buckets: int = 0,
                             vocab_size: Any = None, default_value: Any = -1,
                             hasher_spec: Any = None, key_dtype: Any = D.string,
                             name: Optional[str] = None) -> Any:
    """A table mapping each element of `dataset` to its position."""
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets,
                              vocab_size, default_value, hasher_spec, key_dtype, name)
