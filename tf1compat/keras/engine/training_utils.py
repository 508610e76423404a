"""Data handling shared by the Keras training loops (tf-keras's training_utils_v1): user
data standardized into per-input/per-output numpy lists with tf-keras's checks and error
messages, sample and class weights, validation splits, batch shuffling, and the
aggregation of per-batch results into epoch results."""

from __future__ import annotations

import collections.abc
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.util import tf_logging as logging
from tf1compat.framework.tensor import Tensor
from tf1compat.keras.utils.generic_utils import check_for_unexpected_keys, slice_arrays

__all__ = ["standardize_input_data", "standardize_sample_weights",
           "standardize_class_weights", "standardize_weights", "check_array_lengths",
           "check_loss_and_target_compatibility", "check_num_samples",
           "check_steps_argument", "batch_shuffle", "split_training_and_validation_data",
           "unpack_validation_data", "should_run_validation", "MetricsAggregator",
           "OutputsAggregator", "is_dataset_or_iterator", "unpack_iterator_input"]


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def is_dataset(x: Any) -> bool:
    from tf1compat.data.dataset_ops import DatasetV2
    return isinstance(x, DatasetV2)


def is_dataset_or_iterator(x: Any) -> bool:
    from tf1compat.data.eager_iterator import EagerIterator
    from tf1compat.data.iterator_ops import Iterator
    return is_dataset(x) or isinstance(x, (Iterator, EagerIterator))


def _is_dataframe(x: Any) -> bool:
    return type(x).__name__ == "DataFrame"


def standardize_single_array(x: Any, expected_shape: Any = None) -> Any:
    """Expands data of shape (n,) to (n, 1), unless the expected rank is 1."""
    if x is None:
        return None
    if isinstance(x, int):
        raise ValueError(f"Expected an array data type but received an integer: {x}")
    shape = x.shape.as_list() if _is_tensor(x) else getattr(x, "shape", None)
    if shape is not None and len(shape) == 1 and (expected_shape is None or
                                                  len(expected_shape) != 1):
        if _is_tensor(x):
            from tf1compat.ops.array_ops import expand_dims
            return expand_dims(x, axis=1)
        return np.expand_dims(x, 1)
    return x


def standardize_input_data(data: Any, names: Sequence[str], shapes: Any = None,
                           check_batch_axis: bool = True, exception_prefix: str = ""
                           ) -> List[Any]:
    """User data (one array, a list, or a dict by name) as a list in `names` order,
    1-D arrays made 2-D, ranks and dimensions checked against `shapes`."""
    try:
        data_len = len(data)
    except TypeError:
        data_len = None
    if not names:
        if data_len and not isinstance(data, dict):
            raise ValueError(f"Error when checking model {exception_prefix}: expected no "
                             "data, but got:", data)
        return []
    if data is None:
        return [None for _ in names]
    if isinstance(data, dict):
        try:
            data = [data[x].values if _is_dataframe(data[x]) else data[x] for x in names]
        except KeyError as e:
            raise ValueError(f'No data provided for "{e.args[0]}". Need data for each key '
                             f"in: {list(names)}")
    elif isinstance(data, (list, tuple)):
        if isinstance(data[0], (list, tuple)):
            data = [np.asarray(d) for d in data]
        elif len(names) == 1 and isinstance(data[0], (float, int)):
            data = [np.asarray(data)]
        else:
            data = [x.values if _is_dataframe(x) else x for x in data]
    else:
        data = [data.values if _is_dataframe(data) else data]
    if shapes is not None:
        data = [standardize_single_array(x, shape) for x, shape in zip(data, shapes)]
    else:
        data = [standardize_single_array(x) for x in data]
    if len(data) != len(names):
        if data and hasattr(data[0], "shape"):
            raise ValueError(
                f"Error when checking model {exception_prefix}: the list of Numpy arrays that "
                "you are passing to your model is not the size the model expected. Expected "
                f"to see {len(names)} array(s), for inputs {list(names)} but instead got the "
                f"following list of {len(data)} arrays: {str(data)[:200]}...")
        if len(names) > 1:
            raise ValueError(
                f"Error when checking model {exception_prefix}: you are passing a list as "
                f"input to your model, but the model expects a list of {len(names)} Numpy "
                f"arrays instead. The list you passed was: {str(data)[:200]}")
        if len(data) == 1 and not hasattr(data[0], "shape"):
            raise TypeError(f"Error when checking model {exception_prefix}: data should be a "
                            "Numpy array, or list/dict of Numpy arrays. Found: "
                            f"{str(data)[:200]}...")
        data = [np.asarray(data)]
    if shapes:
        for i, name in enumerate(names):
            if shapes[i] is None:
                continue
            if _is_tensor(data[i]):
                if data[i].shape.rank is None:
                    continue
                data_shape = tuple(data[i].shape.as_list())
            else:
                data_shape = data[i].shape
            shape = shapes[i]
            if len(data_shape) != len(shape):
                raise ValueError(f"Error when checking {exception_prefix}: expected {name} to "
                                 f"have {len(shape)} dimensions, but got array with shape "
                                 f"{data_shape}")
            checked_data, checked_ref = (data_shape, shape) if check_batch_axis else \
                (data_shape[1:], shape[1:])
            for dim, ref_dim in zip(checked_data, checked_ref):
                if ref_dim != dim and ref_dim is not None and dim is not None:
                    raise ValueError(f"Error when checking {exception_prefix}: expected {name} "
                                     f"to have shape {checked_ref} but got array with shape "
                                     f"{checked_data}")
    return data


def _standardize_sample_or_class_weights(x_weight: Any, output_names: Sequence[str],
                                         weight_type: str) -> List[Any]:
    if x_weight is None or (isinstance(x_weight, (list, tuple)) and len(x_weight) == 0):
        return [None for _ in output_names]
    if len(output_names) == 1:
        if isinstance(x_weight, (list, tuple)) and len(x_weight) == 1:
            return list(x_weight)
        if isinstance(x_weight, dict) and output_names[0] in x_weight:
            return [x_weight[output_names[0]]]
        return [x_weight]
    if isinstance(x_weight, (list, tuple)):
        if len(x_weight) != len(output_names):
            raise ValueError(f"Provided `{weight_type}` was a list of {len(x_weight)} "
                             f"elements, but the model has {len(output_names)} outputs. You "
                             f"should provide one `{weight_type}`array per model output.")
        return list(x_weight)
    if isinstance(x_weight, collections.abc.Mapping):
        check_for_unexpected_keys(weight_type, x_weight, output_names)
        return [x_weight.get(name) for name in output_names]
    raise TypeError(f"The model has multiple outputs, so `{weight_type}` should be either a "
                    f"list or a dict. Provided `{weight_type}` type not understood: {x_weight}")


def standardize_class_weights(class_weight: Any, output_names: Sequence[str]) -> List[Any]:
    return _standardize_sample_or_class_weights(class_weight, output_names, "class_weight")


def standardize_sample_weights(sample_weight: Any, output_names: Sequence[str]) -> List[Any]:
    return _standardize_sample_or_class_weights(sample_weight, output_names, "sample_weight")


def standardize_weights(y: Any, sample_weight: Any = None, class_weight: Any = None,
                        sample_weight_mode: Optional[str] = None) -> Any:
    """One weight per sample (per timestep with "temporal"): `sample_weight` times the
    class weight of each sample's class (argmax of one-hot targets)."""
    if isinstance(sample_weight, tuple):
        sample_weight = sample_weight[0]
    if sample_weight_mode is not None and sample_weight_mode != "samplewise":
        if sample_weight_mode != "temporal":
            raise ValueError('"sample_weight_mode should be None or "temporal". Found: '
                             f"{sample_weight_mode}")
        if len(y.shape) < 3:
            raise ValueError(f"Found a sample_weight array for an input with shape {y.shape}. "
                             "Timestep-wise sample weighting (use of sample_weight_mode="
                             '"temporal") is restricted to outputs that are at least 3D, i.e. '
                             "that have a time dimension.")
        if sample_weight is not None and len(sample_weight.shape) != 2:
            raise ValueError(f"Found a sample_weight array with shape {sample_weight.shape}. "
                             "In order to use timestep-wise sample weighting, you should pass "
                             "a 2D sample_weight array.")
    elif sample_weight is not None and len(sample_weight.shape) != 1:
        raise ValueError(
            f"Found a sample_weight array with shape {sample_weight.shape}. In order to use "
            "timestep-wise sample weights, you should specify sample_weight_mode=\"temporal\" "
            f"in compile(); founssd \"{sample_weight_mode}\" instead. If you just mean to use "
            "sample-wise weights, make sure your sample_weight array is 1D.")
    if sample_weight is not None:
        if len(sample_weight.shape) > len(y.shape):
            raise ValueError(f"Found a sample_weight with shape{sample_weight.shape}.Expected "
                             f"sample_weight with rank less than or equal to {len(y.shape)}")
        if not _is_tensor(sample_weight) and y.shape[:sample_weight.ndim] != sample_weight.shape:
            raise ValueError(f"Found a sample_weight array with shape {sample_weight.shape} "
                             f"for an input with shape {y.shape}. sample_weight cannot be "
                             "broadcast.")
    class_sample_weight = None
    if isinstance(class_weight, dict):
        if len(y.shape) > 2:
            raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
        if _is_tensor(y):
            raise NotImplementedError("class_weight with target tensors (not numpy arrays) is "
                                      "not supported by tf1compat")
        y_classes = y
        if len(y.shape) == 2:
            if y.shape[1] > 1:
                y_classes = np.argmax(y, axis=1)
            elif y.shape[1] == 1:
                y_classes = np.reshape(y, y.shape[0])
        class_sample_weight = np.asarray([class_weight[c] for c in y_classes
                                          if c in class_weight])
        if len(class_sample_weight) != len(y_classes):
            missing = set(y_classes) - set(class_weight.keys())
            raise ValueError("`class_weight` must contain all classes in the data. The "
                             f"classes {missing} exist in the data but not in `class_weight`.")
    if class_sample_weight is not None and sample_weight is not None:
        return class_sample_weight * sample_weight
    if sample_weight is not None:
        return sample_weight
    return class_sample_weight


def check_array_lengths(inputs: Any, targets: Any, weights: Any = None) -> None:
    """All arrays must agree on the number of samples (tf-keras's messages)."""
    def lengths(arrays: Any) -> set:
        if arrays is None:
            return set()
        return {a.shape[0] for a in arrays if a is not None and not _is_tensor(a)}

    set_x, set_y, set_w = lengths(inputs), lengths(targets), lengths(weights)
    if len(set_x) > 1:
        raise ValueError("All input arrays (x) should have the same number of samples. Got "
                         f"array shapes: {[x.shape for x in inputs]}")
    if len(set_y) > 1:
        raise ValueError("All target arrays (y) should have the same number of samples. Got "
                         f"array shapes: {[y.shape for y in targets]}")
    if set_x and set_y and list(set_x)[0] != list(set_y)[0]:
        raise ValueError("Input arrays should have the same number of samples as target "
                         f"arrays. Found {list(set_x)[0]} input samples and "
                         f"{list(set_y)[0]} target samples.")
    if len(set_w) > 1:
        raise ValueError("All sample_weight arrays should have the same number of samples. "
                         f"Got array shapes: {[w.shape for w in weights]}")
    if set_y and set_w and list(set_y)[0] != list(set_w)[0]:
        raise ValueError("Sample_weight arrays should have the same number of samples as "
                         f"target arrays. Got {list(set_y)[0]} input samples and "
                         f"{list(set_w)[0]} target samples.")


def check_loss_and_target_compatibility(targets: Sequence[Any], loss_fns: Sequence[Any],
                                        output_shapes: Sequence[Any]) -> None:
    """Targets of mse / binary / categorical crossentropy must match the output shape."""
    from tf1compat.keras import losses
    key_fns = {losses.mean_squared_error, losses.binary_crossentropy,
               losses.categorical_crossentropy}
    key_classes = (losses.MeanSquaredError, losses.BinaryCrossentropy,
                   losses.CategoricalCrossentropy)
    for y, loss, shape in zip(targets, loss_fns, output_shapes):
        if y is None or loss is None or _is_tensor(y):
            continue
        wrapper = isinstance(loss, losses.LossFunctionWrapper)
        if isinstance(loss, losses.CategoricalCrossentropy) or (
                wrapper and loss.fn is losses.categorical_crossentropy):
            if y.shape[-1] == 1:
                raise ValueError(
                    f"You are passing a target array of shape {y.shape} while using as loss "
                    "`categorical_crossentropy`. `categorical_crossentropy` expects targets "
                    "to be binary matrices (1s and 0s) of shape (samples, classes). If your "
                    "targets are integer classes, you can convert them to the expected format "
                    "via:\n```\nfrom tf_keras.src.utils import to_categorical\ny_binary = "
                    "to_categorical(y_int)\n```\n\nAlternatively, you can use the loss "
                    "function `sparse_categorical_crossentropy` instead, which does expect "
                    "integer targets.")
        if isinstance(loss, key_classes) or (wrapper and loss.fn in key_fns):
            for target_dim, out_dim in zip(y.shape[1:], shape[1:]):
                if out_dim is not None and target_dim != out_dim:
                    name = loss.name or (loss.fn if wrapper else type(loss)).__name__
                    raise ValueError(f"A target array with shape {y.shape} was passed for an "
                                     f"output of shape {shape} while using as loss `{name}`. "
                                     "This loss expects targets to have the same shape as the "
                                     "output.")


def check_steps_argument(input_data: Any, steps: Optional[int], steps_name: str) -> bool:
    """Whether the loop counts steps (tensors or iterators need `steps`)."""
    from tf1compat.data.iterator_ops import Iterator
    is_iterator = isinstance(input_data, Iterator)
    if input_data is None or is_iterator or _has_tensors(input_data) or (
            isinstance(input_data, list) and not input_data):
        if steps is None:
            kind = "a Dataset iterator" if is_iterator else "data tensors"
            raise ValueError(f"When using {kind} as input to a model, you should specify the "
                             f"`{steps_name}` argument.")
        return True
    if is_dataset(input_data):
        return True
    if steps is not None:
        types = (np.ndarray, list, tuple)
        if isinstance(input_data, types) or (isinstance(input_data, dict) and any(
                isinstance(v, types) for v in input_data.values())):
            logging.warning("When passing input data as arrays, do not specify "
                            "`steps_per_epoch`/`steps` argument. Please use `batch_size` "
                            "instead.")
    return False


def _has_tensors(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_is_tensor(v) for v in data)
    if isinstance(data, dict):
        return any(_is_tensor(v) for v in data.values())
    return _is_tensor(data)


def check_num_samples(ins: Sequence[Any], batch_size: Optional[int] = None,
                      steps: Optional[int] = None, steps_name: str = "steps") -> Optional[int]:
    """The number of samples of the first array (None when counting steps)."""
    if steps is not None and batch_size is not None:
        raise ValueError(f"If {steps_name} is set, the `batch_size` must be None.")
    if check_steps_argument(ins, steps, steps_name):
        return None
    if ins and hasattr(ins[0], "shape"):
        return int(ins[0].shape[0])
    return None


def batch_shuffle(index_array: np.ndarray, batch_size: int) -> np.ndarray:
    """Shuffles whole batches (the last, partial batch stays last)."""
    batch_count = int(len(index_array) / batch_size)
    last_batch = index_array[batch_count * batch_size:]
    index_array = index_array[:batch_count * batch_size].reshape((batch_count, batch_size))
    np.random.shuffle(index_array)
    return np.append(index_array.flatten(), last_batch)


def split_training_and_validation_data(x: List[Any], y: List[Any], sample_weights: Any,
                                       validation_split: float) -> Tuple[Any, ...]:
    """The last `validation_split` of the samples become the validation data."""
    if _has_tensors(x):
        raise ValueError("If your data is in the form of symbolic tensors, you cannot use "
                         "`validation_split`.")
    first = x[0]
    split_at = int((first.shape[0] if hasattr(first, "shape") else len(first)) *
                   (1.0 - validation_split))
    x, val_x = slice_arrays(x, 0, split_at), slice_arrays(x, split_at)
    y, val_y = slice_arrays(y, 0, split_at), slice_arrays(y, split_at)
    if sample_weights:
        sample_weights, val_sample_weights = (slice_arrays(sample_weights, 0, split_at),
                                              slice_arrays(sample_weights, split_at))
    else:
        val_sample_weights = None
    return x, y, sample_weights, val_x, val_y, val_sample_weights


def unpack_validation_data(validation_data: Any, raise_if_ambiguous: bool = True) -> tuple:
    """`validation_data` as (x, y, sample_weights); datasets, iterators, Sequences and
    generators are passed on whole."""
    from tf1compat.keras.utils.data_utils import Sequence
    if is_dataset_or_iterator(validation_data) or isinstance(validation_data, Sequence) or \
            not hasattr(validation_data, "__len__"):
        return validation_data, None, None
    if len(validation_data) == 2:
        try:
            val_x, val_y = validation_data
            return val_x, val_y, None
        except ValueError:
            return validation_data, None, None
    if len(validation_data) == 3:
        try:
            val_x, val_y, val_sample_weight = validation_data
            return val_x, val_y, val_sample_weight
        except ValueError:
            return validation_data, None, None
    if raise_if_ambiguous:
        raise ValueError("When passing a `validation_data` argument, it must contain either 2 "
                         "items (x_val, y_val), or 3 items (x_val, y_val, "
                         "val_sample_weights), or alternatively it could be a dataset or a "
                         "dataset or a dataset iterator. However we received "
                         f"`validation_data={validation_data}`")
    return validation_data, None, None


def should_run_validation(validation_freq: Any, epoch: int) -> bool:
    """Whether epoch `epoch` (0-based) validates, for an int or a container of epochs."""
    one_indexed = epoch + 1
    if isinstance(validation_freq, int):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return one_indexed % validation_freq == 0
    if not isinstance(validation_freq, collections.abc.Container):
        raise ValueError("`validation_freq` must be an Integer or "
                         "`collections.abc.Container` (e.g. list, tuple, etc.)")
    return one_indexed in validation_freq


def unpack_iterator_input(element: Any) -> tuple:
    """(x, y, sample_weights) of one dataset element."""
    if isinstance(element, (list, tuple)):
        if len(element) not in (2, 3):
            raise ValueError("Please provide model inputs as a list or tuple of 2 or 3 "
                             "elements: (input, target) or (input, target, sample_weights) "
                             f"Received {element}")
        if len(element) == 2:
            return element[0], element[1], None
        return element[0], element[1], element[2]
    return element, None, None


class MetricsAggregator:
    """Epoch results from batch results: the loss averaged over samples (or steps), the
    stateful metrics' last values."""

    def __init__(self, use_steps: bool, num_samples: Optional[int] = None,
                 steps: Optional[int] = None):
        self.use_steps = use_steps
        self.num_samples = num_samples
        self.steps = steps
        self.results: List[Any] = []

    def create(self, batch_outs: Sequence[Any]) -> None:
        self.results = [0.0] * len(batch_outs)

    def aggregate(self, batch_outs: Sequence[Any], batch_start: Optional[int] = None,
                  batch_end: Optional[int] = None) -> None:
        if self.use_steps:
            self.results[0] += batch_outs[0]
        else:
            self.results[0] += batch_outs[0] * (batch_end - batch_start)
        self.results[1:] = batch_outs[1:]

    def finalize(self) -> None:
        if not self.results:
            raise ValueError("Empty training data.")
        self.results[0] /= self.num_samples or self.steps


class OutputsAggregator:
    """Concatenates per-batch predictions (preallocated when the sample count is known)."""

    def __init__(self, use_steps: bool, num_samples: Optional[int] = None,
                 steps: Optional[int] = None):
        self.use_steps = use_steps
        self.num_samples = num_samples
        self.steps = steps
        self.results: List[Any] = []
        self._chunks: List[List[np.ndarray]] = []

    def create(self, batch_outs: Sequence[Any]) -> None:
        if self.use_steps:
            self._chunks = [[] for _ in batch_outs]
            return
        self.results = [np.zeros((self.num_samples,) + tuple(out.shape[1:]), dtype=out.dtype)
                        for out in batch_outs]

    def aggregate(self, batch_outs: Sequence[Any], batch_start: Optional[int] = None,
                  batch_end: Optional[int] = None) -> None:
        if self.use_steps:
            for chunks, out in zip(self._chunks, batch_outs):
                chunks.append(out)
            return
        for result, out in zip(self.results, batch_outs):
            result[batch_start:batch_end] = out

    def finalize(self) -> None:
        if self.use_steps:
            self.results = [np.concatenate(chunks, axis=0) for chunks in self._chunks]

