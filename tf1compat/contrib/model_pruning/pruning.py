"""`tf.contrib.model_pruning`'s magnitude pruning (TF 1.15 pruning.py).

`apply_mask(weights)` multiplies a weight by its `mask` variable and registers the mask,
threshold, weight and masked weight in the pruning collections (the masked layers do the
same). A `Pruning` object built from `get_pruning_hparams()` then updates every
registered mask: the threshold is the k-th largest magnitude of the weight, k = round(size *
(1 - sparsity)), smoothed with the previous threshold by `threshold_decay`, and the mask
keeps the weights at or above it. The sparsity follows TF's schedule over the global
step, `target + (initial - target) * (1 - p) ** exponent` with p the clipped progress
through [sparsity_function_begin_step, sparsity_function_end_step]; `weight_sparsity_map`
scales it per weight (regex on the weight's name). For a weight that is a matrix once
squeezed, `block_height`/`block_width` (or `block_dims_map`) prune whole blocks ranked by
their AVG or MAX magnitude. `conditional_mask_update_op` updates only every
`pruning_frequency` steps within [begin_pruning_step, end_pruning_step].
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from tf1compat.contrib.model_pruning import pruning_utils
from tf1compat.contrib.model_pruning.masked_layers import (MASK_COLLECTION,
                                                           MASKED_WEIGHT_COLLECTION,
                                                           MASKED_WEIGHT_NAME,
                                                           THRESHOLD_COLLECTION,
                                                           WEIGHT_COLLECTION)
from tf1compat.contrib.training.hparam import HParams
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (add_to_collection, control_dependencies,
                                       get_collection, get_collection_ref, name_scope)
from tf1compat.ops import array_ops, math_ops, nn_ops, nn_pool, strided_slice
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import no_op
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.state_ops import assign
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.training_util import get_global_step
from tf1compat.util import tf_logging as logging
from tf1compat.variables.init_ops import Zeros
from tf1compat.variables.partitioned import PartitionedVariable
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["apply_mask", "get_masked_weights", "get_masks", "get_thresholds", "get_weights",
           "get_weight_sparsity", "get_pruning_hparams", "Pruning"]


def apply_mask(x: Any, scope: Any = "") -> Any:
    """`mask * x` (named `weights/masked_weight`) with `<scope>/mask` and
    `<scope>/threshold` created for `x`; the first use of a mask registers it."""
    mask = pruning_utils.weight_mask_variable(x, scope)
    threshold = pruning_utils.weight_threshold_variable(x, scope)
    masked_weights = math_ops.multiply(mask, x, MASKED_WEIGHT_NAME)
    if not any(m is mask for m in get_collection_ref(MASK_COLLECTION)):
        add_to_collection(THRESHOLD_COLLECTION, threshold)
        add_to_collection(MASK_COLLECTION, mask)
        add_to_collection(MASKED_WEIGHT_COLLECTION, masked_weights)
        add_to_collection(WEIGHT_COLLECTION, x)
    return masked_weights


def get_masked_weights() -> List[Any]:
    """The masked weights registered in the default graph."""
    return get_collection(MASKED_WEIGHT_COLLECTION)


def get_masks() -> List[Any]:
    """The mask variables registered in the default graph."""
    return get_collection(MASK_COLLECTION)


def get_thresholds() -> List[Any]:
    """The threshold variables registered in the default graph."""
    return get_collection(THRESHOLD_COLLECTION)


def get_weights() -> List[Any]:
    """The weights whose masks are registered in the default graph."""
    return get_collection(WEIGHT_COLLECTION)


def get_weight_sparsity() -> List[Any]:
    """The fraction of zeros of each mask."""
    return [nn_ops.zero_fraction(mask) for mask in get_masks()]


def get_pruning_hparams() -> HParams:
    """The pruning hyperparameters with TF's defaults (see the module docstring)."""
    return HParams(name="model_pruning", begin_pruning_step=0, end_pruning_step=-1,
                   weight_sparsity_map=[""], block_dims_map=[""], threshold_decay=0.0,
                   pruning_frequency=10, nbins=256, block_height=1, block_width=1,
                   block_pooling_function="AVG", initial_sparsity=0.0, target_sparsity=0.5,
                   sparsity_function_begin_step=0, sparsity_function_end_step=100,
                   sparsity_function_exponent=3.0, use_tpu=False)


class Pruning:
    """The mask updates of the registered weights, with their sparsity schedule."""

    def __init__(self, spec: Optional[HParams] = None, global_step: Any = None,
                 sparsity: Any = None):
        """`spec`: the hparams (default get_pruning_hparams()); `global_step`: the step
        the schedule follows (default the graph's global step); `sparsity`: a scalar that
        replaces the schedule."""
        self._spec = spec if spec else get_pruning_hparams()
        self._validate_spec()
        self._global_step = self._setup_global_step(global_step)
        self._sparsity = sparsity if sparsity is not None else self._setup_sparsity()
        self._assign_ops: List[Any] = []
        self._last_update_step = self._setup_last_update_step()
        self._block_dims = [self._spec.block_height, self._spec.block_width]
        self._block_pooling_function = self._spec.block_pooling_function
        self._block_dims_map = self._get_block_dims_map()
        self._weight_sparsity_map = self._get_weight_sparsity_map()

    def _validate_spec(self) -> None:
        spec = self._spec
        if spec.begin_pruning_step < 0:
            raise ValueError("Illegal value for begin_pruning_step")
        if spec.begin_pruning_step >= spec.end_pruning_step and spec.end_pruning_step != -1:
            raise ValueError(
                "Pruning must begin before it can end. begin_step=%d, end_step=%d.Set "
                "end_pruning_step to -1 if pruning is required till trainingstops"
                % (spec.begin_pruning_step, spec.end_pruning_step))
        if spec.sparsity_function_begin_step < 0:
            raise ValueError("Illegal value for sparsity_function_begin_step")
        if spec.sparsity_function_begin_step >= spec.sparsity_function_end_step:
            raise ValueError("Sparsity function requires begin_step < end_step")
        if not 0.0 <= spec.threshold_decay < 1.0:
            raise ValueError("threshold_decay must be in range [0,1)")
        if not 0.0 <= spec.initial_sparsity < 1.0:
            raise ValueError("initial_sparsity must be in range [0,1)")
        if not 0.0 <= spec.target_sparsity < 1.0:
            raise ValueError("target_sparsity must be in range [0,1)")

    @staticmethod
    def _setup_global_step(global_step: Any) -> Any:
        step = global_step if global_step is not None else get_global_step()
        return math_ops.cast(step, D.int32)

    def _setup_sparsity(self) -> Any:
        spec = self._spec
        begin, end = spec.sparsity_function_begin_step, spec.sparsity_function_end_step
        with name_scope(spec.name):
            progress = math_ops.minimum(1.0, math_ops.maximum(0.0, math_ops.div(
                math_ops.cast(self._global_step - begin, D.float32), end - begin)))
            return math_ops.add(
                math_ops.multiply(spec.initial_sparsity - spec.target_sparsity,
                                  math_ops.pow(1 - progress,
                                               spec.sparsity_function_exponent)),
                spec.target_sparsity, name="sparsity")

    def _setup_last_update_step(self) -> Any:
        with variable_scope(self._spec.name, use_resource=self._spec.use_tpu) as scope:
            try:
                return get_variable("last_mask_update_step", [], initializer=Zeros(),
                                    trainable=False, dtype=D.int32)
            except ValueError:
                # a second Pruning with the same name shares the first one's step
                scope.reuse_variables()
                return get_variable("last_mask_update_step", dtype=D.int32)

    def _get_block_dims_map(self) -> dict:
        out = {}
        for value in (v for v in self._spec.block_dims_map if v):
            weight_name, dims = value.split(":")
            dims = dims.split("x")
            if len(dims) != 2:
                raise ValueError("Expected 2 values for block dim for %s, got %s"
                                 % (weight_name, dims))
            out[re.compile(weight_name)] = [int(dims[0]), int(dims[1])]
        return out

    def _get_block_dims(self, weight_name: str) -> List[int]:
        # The list itself is returned (not a copy): TF resolves a -1 block dimension by
        # writing the first weight's size into it, which later weights then use.
        found = [dims for regexp, dims in self._block_dims_map.items()
                 if regexp.search(weight_name)]
        if not found:
            return self._block_dims
        if len(found) > 1:
            raise ValueError("Multiple matches in block_dims_map for weight %s" % weight_name)
        return found[0]

    def _get_weight_sparsity_map(self) -> dict:
        out = {}
        for value in (v for v in self._spec.weight_sparsity_map if v):
            weight_name, sparsity = value.split(":")
            if float(sparsity) >= 1.0:
                raise ValueError("Weight sparsity can not exceed 1.0")
            out[re.compile(weight_name)] = float(sparsity)
        return out

    def _get_sparsity(self, weight_name: str) -> Any:
        found = [sparsity for regexp, sparsity in self._weight_sparsity_map.items()
                 if regexp.search(weight_name)]
        if not found:
            return self._sparsity
        if len(found) > 1:
            raise ValueError("Multiple matches in weight_sparsity_map for weight %s"
                             % weight_name)
        return math_ops.multiply(self._sparsity,
                                 math_ops.div(found[0], self._spec.target_sparsity))

    def _update_mask(self, weights: Any, threshold: Any) -> Tuple[Any, Any]:
        """The smoothed threshold that leaves `sparsity` of `weights` below it, and the
        mask (1.0 where |weight| >= threshold)."""
        if self._sparsity is None:
            raise ValueError("Sparsity variable undefined")
        sparsity = self._get_sparsity(weights.op.name)
        decay = self._spec.threshold_decay
        with name_scope(weights.op.name + "_pruning_ops"):
            abs_weights = math_ops.abs(weights)
            k = math_ops.cast(math_ops.round_(
                math_ops.cast(array_ops.size(abs_weights), D.float32) * (1 - sparsity)),
                D.int32)
            values, _ = nn_ops.top_k(array_ops.reshape(abs_weights, [-1]),
                                     k=array_ops.size(abs_weights))
            current = gather(values, k - 1)
            smoothed = math_ops.add_n([math_ops.multiply(current, 1 - decay),
                                       math_ops.multiply(threshold, decay)])
            new_mask = math_ops.cast(math_ops.greater_equal(abs_weights, smoothed),
                                     D.float32)
        return smoothed, new_mask

    def _maybe_update_block_mask(self, weights: Any, threshold: Any) -> Tuple[Any, Any]:
        """_update_mask on the block-pooled magnitudes of a weight that is a matrix once
        squeezed (when its block is not 1 x 1), the block mask expanded back."""
        block_dims = self._get_block_dims(weights.op.name)
        squeezed = array_ops.squeeze(weights)
        if squeezed.get_shape().ndims != 2 or block_dims == [1, 1]:
            return self._update_mask(weights, threshold)
        shape = squeezed.get_shape().as_list()
        for i in range(2):
            if block_dims[i] == -1:
                block_dims[i] = shape[i]
        if self._block_pooling_function not in ["AVG", "MAX"]:
            raise ValueError("Unknown pooling function for block sparsity: %s"
                             % self._block_pooling_function)
        with name_scope(weights.op.name + "_pruning_ops"):
            abs_weights = math_ops.abs(squeezed)
            window = [int(d) for d in block_dims]
            if self._spec.use_tpu:
                pooled = pruning_utils.factorized_pool(
                    abs_weights, window_shape=window, pooling_type=self._block_pooling_function,
                    strides=window, padding="SAME", name=weights.op.name + "_pooled")
            else:
                pooled = nn_pool.pool(
                    array_ops.reshape(abs_weights, [1, shape[0], shape[1], 1]),
                    window_shape=window, pooling_type=self._block_pooling_function,
                    strides=window, padding="SAME", name=weights.op.name + "_pooled")
                pooled = array_ops.squeeze(pooled, axis=[0, 3])
            smoothed, new_mask = self._update_mask(pooled, threshold)
            expanded = pruning_utils.expand_tensor(new_mask, window)
            sliced = strided_slice.slice(expanded, [0, 0], shape)
        return smoothed, array_ops.reshape(sliced, array_ops.shape(weights))

    def _get_mask_assign_ops(self) -> None:
        if self._assign_ops:
            raise ValueError("Assign op list not empty. _get_mask_assign_ops() called twice?")
        masks, weights, thresholds = get_masks(), get_weights(), get_thresholds()
        if len(masks) != len(thresholds):
            raise ValueError("Number of masks %s and number of thresholds %s mismatch"
                             % (len(masks), len(thresholds)))
        for index, mask in enumerate(masks):
            threshold, weight = thresholds[index], weights[index]
            partitioned = isinstance(weight, PartitionedVariable)
            if partitioned:
                weight = weight.as_tensor()
            new_threshold, new_mask = self._maybe_update_block_mask(weight, threshold)
            self._assign_ops.append(pruning_utils.variable_assign(threshold, new_threshold))
            self._assign_ops.append(
                pruning_utils.partitioned_variable_assign(mask, new_mask) if partitioned
                else pruning_utils.variable_assign(mask, new_mask))

    def mask_update_op(self) -> Any:
        """An op (`<name>/mask_update`) that updates every registered mask and threshold
        and sets `last_mask_update_step` to the global step."""
        with name_scope(self._spec.name):
            if not self._assign_ops:
                self._get_mask_assign_ops()
            with control_dependencies([assign(self._last_update_step, self._global_step,
                                              name="last_mask_update_step_assign")]):
                with control_dependencies(self._assign_ops):
                    logging.info("Updating masks.")
                    return no_op("mask_update")

    def conditional_mask_update_op(self) -> Any:
        """mask_update_op when the global step is within [begin_pruning_step,
        end_pruning_step] (end -1: no end) and `pruning_frequency` steps after the last
        update; nothing otherwise."""
        spec = self._spec
        with name_scope(spec.name):
            in_range = math_ops.logical_and(
                math_ops.greater_equal(self._global_step, spec.begin_pruning_step),
                math_ops.logical_or(
                    math_ops.less_equal(self._global_step, spec.end_pruning_step),
                    math_ops.less(spec.end_pruning_step, 0)))
            is_pruning_step = math_ops.less_equal(
                math_ops.add(self._last_update_step, spec.pruning_frequency),
                self._global_step)
            predicate = math_ops.logical_and(in_range, is_pruning_step)
        return cond(predicate, self.mask_update_op, no_op)

    def add_pruning_summaries(self) -> None:
        """Scalar summaries of the sparsity, the last update step, and each mask's
        sparsity and threshold."""
        with name_scope(self._spec.name + "_summaries"):
            scalar("sparsity", self._sparsity)
            scalar("last_mask_update_step", self._last_update_step)
            for mask, threshold in zip(get_masks(), get_thresholds()):
                scalar(mask.op.name + "/sparsity", nn_ops.zero_fraction(mask))
                scalar(threshold.op.name + "/threshold", threshold)

    def print_hparams(self) -> None:
        """Logs the hparams as JSON."""
        logging.info(self._spec.to_json())
