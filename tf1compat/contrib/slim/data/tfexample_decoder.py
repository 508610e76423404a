"""`slim.data.tfexample_decoder`: decoding serialized tf.Example protos into items.

    keys_to_features = {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="jpeg"),
        "image/class/label": tf.FixedLenFeature([], tf.int64, default_value=0)}
    items_to_handlers = {"image": slim.tfexample_decoder.Image(),
                         "label": slim.tfexample_decoder.Tensor("image/class/label")}
    decoder = slim.tfexample_decoder.TFExampleDecoder(keys_to_features, items_to_handlers)
    image, label = decoder.decode(serialized, ["image", "label"])

`TFExampleDecoder.decode` parses the example (parse_single_example; fixed-length features
reshaped to their declared shape) and hands each item's handler the parsed tensors of the
keys it names. Handlers: `Tensor` (optionally reshaped, sparse ones densified),
`LookupTensor` (then looked up in a table), `SparseTensor` (ids/values features ->
a SparseTensor), `BoundingBox` ([N, 4] from four coordinate features), `Image` (decoded
by its format: raw, JPEG, or PNG/GIF/BMP), `BackupHandler` (a fallback when the primary
item is empty) and `ItemHandlerCallback` (any function of the tensors).
"""

from __future__ import annotations

import abc
from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.contrib.slim.data.data_decoder import DataDecoder
from tf1compat.framework import dtypes
from tf1compat.framework.sparse_tensor import SparseTensor as _SparseTensorValue
from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape, stack
from tf1compat.ops.cond import case, cond
from tf1compat.ops.decode_ops import decode_raw
from tf1compat.ops.functional_ops import map_fn
from tf1compat.ops.image_codecs import decode_image, decode_jpeg, is_jpeg
from tf1compat.ops.math_ops import cast, equal, logical_or
from tf1compat.ops.parsing_ops import FixedLenFeature, parse_single_example
from tf1compat.ops.reduction_ops import reduce_prod
from tf1compat.ops.sparse_math import sparse_reshape
from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
from tf1compat.ops.strided_slice import slice as slice_
from tf1compat.ops.transform_ops import transpose

__all__ = ["ItemHandler", "ItemHandlerCallback", "BoundingBox", "Tensor", "LookupTensor",
           "BackupHandler", "SparseTensor", "Image", "TFExampleDecoder"]


class ItemHandler(abc.ABC):
    """Turns the parsed tensors of its `keys` into one item."""

    def __init__(self, keys: Any):
        if not isinstance(keys, (tuple, list)):
            keys = [keys]
        self._keys = keys

    @property
    def keys(self) -> List[str]:
        return self._keys

    @abc.abstractmethod
    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        """The item built from the parsed tensors of `keys`."""


class ItemHandlerCallback(ItemHandler):
    """The item is `func(keys_to_tensors)`."""

    def __init__(self, keys: Any, func: Callable[[Dict[str, Any]], Any]):
        super().__init__(keys)
        self._func = func

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        return self._func(keys_to_tensors)


class BoundingBox(ItemHandler):
    """An [N, 4] box tensor from four coordinate features `prefix + key` (default keys
    ymin, xmin, ymax, xmax; sparse features contribute their values)."""

    def __init__(self, keys: Optional[Sequence[str]] = None, prefix: str = ""):
        if keys is None:
            keys = ["ymin", "xmin", "ymax", "xmax"]
        elif len(keys) != 4:
            raise ValueError("BoundingBox expects 4 keys but got {}".format(len(keys)))
        self._prefix = prefix
        self._full_keys = [prefix + k for k in keys]
        super().__init__(self._full_keys)

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        sides = []
        for key in self._full_keys:
            side = keys_to_tensors[key]
            if isinstance(side, _SparseTensorValue):
                side = side.values
            sides.append(expand_dims(side, 0))
        return transpose(concat(sides, 0))


class Tensor(ItemHandler):
    """The feature `tensor_key`, reshaped to `shape` or to the shape read from the
    features `shape_keys`; a sparse feature is densified with `default_value`."""

    def __init__(self, tensor_key: str, shape_keys: Any = None, shape: Any = None,
                 default_value: Any = 0):
        if shape_keys and shape is not None:
            raise ValueError("Cannot specify both shape_keys and shape parameters.")
        if shape_keys and not isinstance(shape_keys, list):
            shape_keys = [shape_keys]
        self._tensor_key = tensor_key
        self._shape_keys = shape_keys
        self._shape = shape
        self._default_value = default_value
        super().__init__([tensor_key] + list(shape_keys or []))

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        tensor = keys_to_tensors[self._tensor_key]
        target_shape = self._shape
        if self._shape_keys:
            dims = []
            for key in self._shape_keys:
                dim = keys_to_tensors[key]
                if isinstance(dim, _SparseTensorValue):
                    dim = sparse_tensor_to_dense(dim)
                dims.append(dim)
            target_shape = reshape(stack(dims), [-1])
        if isinstance(tensor, _SparseTensorValue):
            if target_shape is not None:
                tensor = sparse_reshape(tensor, target_shape)
            return sparse_tensor_to_dense(tensor, self._default_value)
        if target_shape is not None:
            tensor = reshape(tensor, target_shape)
        return tensor


class LookupTensor(Tensor):
    """A `Tensor` item mapped through `table.lookup` (e.g. label text -> id)."""

    def __init__(self, tensor_key: str, table: Any, shape_keys: Any = None, shape: Any = None,
                 default_value: Any = ""):
        self._table = table
        super().__init__(tensor_key, shape_keys, shape, default_value)

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        return self._table.lookup(super().tensors_to_item(keys_to_tensors))


class BackupHandler(ItemHandler):
    """`handler`'s item, or `backup`'s when that item has no elements (a tf.cond)."""

    def __init__(self, handler: ItemHandler, backup: ItemHandler):
        if not isinstance(handler, ItemHandler):
            raise ValueError("Primary handler is of type %s instead of ItemHandler"
                             % type(handler))
        if not isinstance(backup, ItemHandler):
            raise ValueError("Backup handler is of type %s instead of ItemHandler"
                             % type(backup))
        self._handler = handler
        self._backup = backup
        super().__init__(handler.keys + backup.keys)

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        item = self._handler.tensors_to_item(keys_to_tensors)
        return cond(pred=equal(reduce_prod(shape(item)), 0),
                    true_fn=lambda: self._backup.tensors_to_item(keys_to_tensors),
                    false_fn=lambda: item)


class SparseTensor(ItemHandler):
    """A SparseTensor whose last index column comes from the (sparse) feature
    `indices_key` and whose values from `values_key`; its dense shape is the feature
    `shape_key`, `shape`, or the ids' dense shape. `densify` returns it dense."""

    def __init__(self, indices_key: Optional[str] = None, values_key: Optional[str] = None,
                 shape_key: Optional[str] = None, shape: Any = None, densify: bool = False,
                 default_value: Any = 0):
        indices_key = indices_key or "indices"
        values_key = values_key or "values"
        self._indices_key = indices_key
        self._values_key = values_key
        self._shape_key = shape_key
        self._shape = shape
        self._densify = densify
        self._default_value = default_value
        super().__init__([indices_key, values_key] + ([shape_key] if shape_key else []))

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        indices = keys_to_tensors[self._indices_key]
        values = keys_to_tensors[self._values_key]
        if self._shape_key:
            dense_shape = keys_to_tensors[self._shape_key]
            if isinstance(dense_shape, _SparseTensorValue):
                dense_shape = sparse_tensor_to_dense(dense_shape)
        elif self._shape:
            dense_shape = self._shape
        else:
            dense_shape = indices.dense_shape
        rank = shape(indices.indices)[1]
        ids = cast(indices.values, dtypes.int64)
        # Keep the leading index columns; the ids become the last one.
        kept_columns = slice_(indices.indices, [0, 0], stack([-1, rank - 1]))
        new_indices = concat([kept_columns, reshape(ids, [-1, 1])], 1)
        tensor = _SparseTensorValue(new_indices, values.values, dense_shape)
        if self._densify:
            tensor = sparse_tensor_to_dense(tensor, self._default_value)
        return tensor


class Image(ItemHandler):
    """An image decoded from `image_key` by the format in `format_key`: "raw"/"RAW"
    bytes (decode_raw), JPEG (decode_jpeg with `dct_method`), else decode_image;
    cast to `dtype`, `channels` channels, reshaped to `shape` when given. `repeated`
    decodes a vector of encoded images (map_fn)."""

    def __init__(self, image_key: Optional[str] = None, format_key: Optional[str] = None,
                 shape: Any = None, channels: int = 3, dtype: Any = dtypes.uint8,
                 repeated: bool = False, dct_method: str = ""):
        image_key = image_key or "image/encoded"
        format_key = format_key or "image/format"
        super().__init__([image_key, format_key])
        self._image_key = image_key
        self._format_key = format_key
        self._shape = shape
        self._channels = channels
        self._dtype = dtype
        self._repeated = repeated
        self._dct_method = dct_method

    def tensors_to_item(self, keys_to_tensors: Dict[str, Any]) -> Any:
        image_buffer = keys_to_tensors[self._image_key]
        image_format = keys_to_tensors[self._format_key]
        if self._repeated:
            return map_fn(lambda x: self._decode(x, image_format), image_buffer,
                          dtype=self._dtype)
        return self._decode(image_buffer, image_format)

    def _decode(self, image_buffer: Any, image_format: Any) -> Any:
        def decode_any() -> Any:
            return cast(decode_image(image_buffer, channels=self._channels), self._dtype)

        def decode_as_jpeg() -> Any:
            return cast(decode_jpeg(image_buffer, channels=self._channels,
                                    dct_method=self._dct_method), self._dtype)

        def check_jpeg() -> Any:
            return cond(is_jpeg(image_buffer), decode_as_jpeg, decode_any, name="cond_jpeg")

        def decode_raw_bytes() -> Any:
            return decode_raw(image_buffer, out_type=self._dtype)

        is_raw = logical_or(equal(image_format, "raw"), equal(image_format, "RAW"))
        image = case([(is_raw, decode_raw_bytes)], default=check_jpeg, exclusive=True)
        image.set_shape([None, None, self._channels])
        if self._shape is not None:
            image = reshape(image, self._shape)
        return image


class TFExampleDecoder(DataDecoder):
    """Parses a serialized tf.Example with `keys_to_features` and builds each item with
    its handler of `items_to_handlers`."""

    def __init__(self, keys_to_features: Dict[str, Any],
                 items_to_handlers: Dict[str, ItemHandler]):
        self._keys_to_features = keys_to_features
        self._items_to_handlers = items_to_handlers

    def list_items(self) -> List[str]:
        return list(self._items_to_handlers.keys())

    def decode(self, serialized_example: Any, items: Optional[Sequence[str]] = None
               ) -> List[Any]:
        """The tensors of `items` (all, in the handlers' order, when None)."""
        example = parse_single_example(serialized_example, self._keys_to_features)
        # Fixed-length features are reshaped to their declared shape, as slim does
        # (parse_single_example gives the same shape; the reshape names it in the graph).
        for key in sorted(self._keys_to_features):
            feature = self._keys_to_features[key]
            if isinstance(feature, FixedLenFeature):
                example[key] = reshape(example[key], feature.shape)
        if not items:
            items = self._items_to_handlers.keys()
        outputs = []
        for item in items:
            handler = self._items_to_handlers[item]
            outputs.append(handler.tensors_to_item({key: example[key]
                                                    for key in handler.keys}))
        return outputs
