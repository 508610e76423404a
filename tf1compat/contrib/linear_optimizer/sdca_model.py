"""TF 1.15's `SdcaModel` and `SparseFeatureColumn` (contrib/linear_optimizer/python/ops):
a linear model trained by stochastic dual coordinate ascent (ops/sdca_ops.py).

The model keeps an unshrinked copy of every weight variable (`<var>_unshrinked/
SDCAOptimizer`); `minimize` runs SdcaOptimizerV2 on a mini-batch, stores each example's
dual state under its SdcaFprint and adds the weight deltas to the copies; `update_weights`
copies them into the model's variables and applies the L1 proximal step (SdcaShrinkL1).
TF stores the example states in a dense hash table keyed by both fingerprint words; here a
mutable hash table keyed by the first word holds them (the table is internal to the
optimizer).
Partitioned weight variables are not supported.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, device, name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.array_ops import expand_dims, reshape
from tf1compat.ops.control_flow_ops import group
from tf1compat.ops.indexing_ops import gather, unique
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import (abs as _abs, add_n, cast, exp, multiply, sigmoid,
                                    square, subtract)
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.sdca_ops import LOSSES, sdca_fprint, sdca_optimizer_v2, sdca_shrink_l1
from tf1compat.ops.state_ops import assign, assign_add, scatter_add

__all__ = ["SdcaModel", "SparseFeatureColumn"]


class SparseFeatureColumn:
    """`tf.contrib.linear_optimizer.SparseFeatureColumn`: a sparse feature group as
    (example indices, feature indices, optional feature values)."""

    def __init__(self, example_indices: Any, feature_indices: Any,
                 feature_values: Any = None):
        with name_scope(None, "SparseFeatureColumn", [example_indices, feature_indices]):
            self._example_indices = reshape(convert_to_tensor(example_indices,
                                                              dtypes.int64), [-1])
            self._feature_indices = reshape(convert_to_tensor(feature_indices,
                                                              dtypes.int64), [-1])
        self._feature_values = None
        if feature_values is not None:
            with name_scope(None, "SparseFeatureColumn", [feature_values]):
                self._feature_values = reshape(convert_to_tensor(feature_values,
                                                                 dtypes.float32), [-1])

    @property
    def example_indices(self) -> Any:
        return self._example_indices

    @property
    def feature_indices(self) -> Any:
        return self._feature_indices

    @property
    def feature_values(self) -> Any:
        return self._feature_values


def _single(var: Any, what: str) -> Any:
    if isinstance(var, (list, tuple)) or type(var).__name__ == "PartitionedVariable":
        raise NotImplementedError(f"SdcaModel with partitioned {what} is not supported by "
                                  "tf1compat")
    return var


class SdcaModel:
    """`tf.contrib.linear_optimizer.SdcaModel(examples, variables, options)`."""

    def __init__(self, examples: Dict[str, Any], variables: Dict[str, Any],
                 options: Dict[str, Any]):
        from tf1compat.summary.summary_ops import scalar
        if options["loss_type"] not in LOSSES:
            raise ValueError("Unsupported loss_type: ", options["loss_type"])
        for key in ("example_labels", "example_weights", "example_ids", "sparse_features",
                    "dense_features"):
            if examples.get(key) is None:
                raise ValueError(f"{key} must be specified.")
        for holder, keys in ((examples, ("sparse_features", "dense_features")),
                             (variables, ("sparse_features_weights",
                                          "dense_features_weights"))):
            for key in keys:
                if not isinstance(holder.get(key), list):
                    raise ValueError(key + " must be a list.")
        for name in ("symmetric_l1_regularization", "symmetric_l2_regularization"):
            if options[name] < 0.0:
                raise ValueError("%s should be non-negative. Found (%f)" % (name, options[name]))
        if options.get("num_table_shards") not in (None, 1):
            raise NotImplementedError("SdcaModel(num_table_shards > 1) is not supported by "
                                      "tf1compat")
        self._examples = examples
        self._variables = {k: [_single(v, k) for v in vs] for k, vs in variables.items()}
        self._options = options
        self._slots: Dict[str, List[Any]] = {}
        self._create_slots()
        from tf1compat.ops.lookup_mutable import MutableHashTable
        self._hashtable = MutableHashTable(dtypes.int64, dtypes.float32, [0.0, 0.0, 0.0, 0.0],
                                           name="ShardedMutableHashTable")
        scalar("approximate_duality_gap", self.approximate_duality_gap())
        scalar("examples_seen", self._hashtable.size())

    def _l1(self) -> float:
        return self._options["symmetric_l1_regularization"]

    def _l2(self) -> float:
        # TF: the solver's L2 is at least 1 (smaller values make SDCA unstable).
        return max(self._options["symmetric_l2_regularization"], 1.0)

    def _create_slots(self) -> None:
        from tf1compat.ops.creation_ops import zeros_like
        from tf1compat.variables.variables import Variable
        for name in ("sparse_features_weights", "dense_features_weights"):
            slots = []
            for var in self._variables[name]:
                with device(var.device):
                    slots.append(Variable(
                        zeros_like(var.initialized_value(), dtypes.float32),
                        name=var.op.name + "_unshrinked/SDCAOptimizer"))
            self._slots["unshrinked_" + name] = slots

    def _all_weights(self) -> List[Any]:
        return self._variables["sparse_features_weights"] + \
            self._variables["dense_features_weights"]

    def _l1_loss(self) -> Any:
        with name_scope("sdca/l1_loss"):
            sums = [reduce_sum(_abs(cast(convert_to_tensor(v), dtypes.float64)))
                    for v in self._all_weights()]
            return self._l1() * add_n(sums)

    def _l2_loss(self, l2: float) -> Any:
        with name_scope("sdca/l2_loss"):
            sums = [reduce_sum(square(cast(convert_to_tensor(v), dtypes.float64)))
                    for v in self._all_weights()]
            return l2 * add_n(sums) / 2.0

    def _linear_predictions(self, examples: Dict[str, Any]) -> Any:
        from tf1compat.ops.reduction_ops import segment_sum
        with name_scope("sdca/prediction"):
            result_sparse: Any = 0.0
            for column, var in zip(examples["sparse_features"],
                                   self._variables["sparse_features_weights"]):
                result_sparse += segment_sum(
                    multiply(gather(convert_to_tensor(var), column.feature_indices),
                             column.feature_values), column.example_indices)
            result_dense: Any = 0.0
            for features, var in zip(examples["dense_features"],
                                     self._variables["dense_features_weights"]):
                result_dense += matmul(convert_to_tensor(features),
                                       expand_dims(convert_to_tensor(var), -1))
        return reshape(result_dense, [-1]) + result_sparse

    def predictions(self, examples: Dict[str, Any]) -> Any:
        """w.x, through a sigmoid for logistic loss and exp for Poisson loss."""
        result = self._linear_predictions(examples)
        if self._options["loss_type"] == "logistic_loss":
            with name_scope("sdca/logistic_prediction"):
                result = sigmoid(result)
        elif self._options["loss_type"] == "poisson_loss":
            with name_scope("sdca/poisson_prediction"):
                result = exp(result)
        return result

    def minimize(self, global_step: Any = None, name: Optional[str] = None) -> Any:
        """One SDCA pass over the examples: the new dual states go to the table, the weight
        deltas to the unshrinked copies; then `global_step` += 1."""
        with name_scope(name, "sdca/minimize"):
            sparse_columns = self._examples["sparse_features"]
            example_indices = [c.example_indices for c in sparse_columns]
            feature_indices = [c.feature_indices for c in sparse_columns]
            feature_values = [c.feature_values for c in sparse_columns
                              if c.feature_values is not None]
            ids_hashed = sdca_fprint(convert_to_tensor(self._examples["example_ids"]))
            # The table is keyed by the fingerprint's first word (see the module docstring).
            keys = reshape(ids_hashed[:, :1], [-1])
            example_state = self._hashtable.lookup(keys)
            sparse_indices, sparse_weights = [], []
            for slot, indices in zip(self._slots["unshrinked_sparse_features_weights"],
                                     feature_indices):
                idx = cast(unique(cast(indices, dtypes.int32))[0], dtypes.int64)
                sparse_indices.append(idx)
                sparse_weights.append(gather(convert_to_tensor(slot), idx))
            state, sparse_deltas, dense_deltas = sdca_optimizer_v2(
                example_indices, feature_indices, feature_values,
                [convert_to_tensor(f) for f in self._examples["dense_features"]],
                convert_to_tensor(self._examples["example_weights"]),
                convert_to_tensor(self._examples["example_labels"]),
                sparse_indices, sparse_weights,
                [convert_to_tensor(s) for s in self._slots["unshrinked_dense_features_weights"]],
                example_state, loss_type=self._options["loss_type"], l1=self._l1(),
                l2=self._l2(), num_loss_partitions=self._options.get("num_loss_partitions", 1),
                num_inner_iterations=1, adaptive=self._options.get("adaptive", True))
            with control_dependencies([state]):
                updates = [self._hashtable.insert(keys, state)]
                for slot, idx, delta in zip(self._slots["unshrinked_sparse_features_weights"],
                                            sparse_indices, sparse_deltas):
                    updates.append(scatter_add(slot, idx, delta))
                for slot, delta in zip(self._slots["unshrinked_dense_features_weights"],
                                       dense_deltas):
                    updates.append(assign_add(slot, delta))
            if not global_step:
                return group(*updates)
            with control_dependencies(updates):
                return assign_add(global_step, 1, name=name).op

    def update_weights(self, train_op: Any) -> Any:
        """Copies the unshrinked weights into the model's variables, then shrinks those by
        l1 / l2 (TF's SdcaShrinkL1)."""
        with control_dependencies([train_op]):
            copies = []
            for name in ("sparse_features_weights", "dense_features_weights"):
                for var, slot in zip(self._variables[name], self._slots["unshrinked_" + name]):
                    copies.append(assign(var, slot))
        with control_dependencies(copies):
            shrinks = []
            for var in self._all_weights():
                with device(var.device):
                    shrinks.append(sdca_shrink_l1([var], l1=self._l1(), l2=self._l2()))
            return group(*shrinks)

    def approximate_duality_gap(self) -> Any:
        """(primal loss + dual loss + l1 loss + 2 * l2 loss) / example weights, over the
        examples seen so far."""
        with name_scope("sdca/approximate_duality_gap"):
            _, values = self._hashtable.export()
            summed = reduce_sum(cast(values, dtypes.float64), 0)
            return (summed[1] + summed[2] + self._l1_loss() +
                    2.0 * self._l2_loss(self._l2())) / summed[3]

    def unregularized_loss(self, examples: Dict[str, Any]) -> Any:
        """The weighted mean loss of `examples` without regularization."""
        from tf1compat.ops.nn_losses import log_poisson_loss, sigmoid_cross_entropy_with_logits
        from tf1compat.ops.nn_ops import relu
        from tf1compat.ops.creation_ops import ones_like
        with name_scope("sdca/unregularized_loss"):
            predictions = cast(self._linear_predictions(examples), dtypes.float64)
            labels = cast(convert_to_tensor(examples["example_labels"]), dtypes.float64)
            weights = cast(convert_to_tensor(examples["example_weights"]), dtypes.float64)
            loss_type = self._options["loss_type"]
            if loss_type == "logistic_loss":
                return reduce_sum(multiply(sigmoid_cross_entropy_with_logits(
                    labels=labels, logits=predictions), weights)) / reduce_sum(weights)
            if loss_type == "poisson_loss":
                return reduce_sum(multiply(log_poisson_loss(
                    targets=labels, log_input=predictions), weights)) / reduce_sum(weights)
            if loss_type in ("hinge_loss", "smooth_hinge_loss"):
                ones = ones_like(predictions)
                error = relu(subtract(ones, multiply(subtract(2 * labels, ones), predictions)))
                return reduce_sum(multiply(error, weights)) / reduce_sum(weights)
            error = subtract(labels, predictions)
            return reduce_sum(multiply(square(error), weights)) / (2.0 * reduce_sum(weights))

    def regularized_loss(self, examples: Dict[str, Any]) -> Any:
        """The unregularized loss plus (l1 + l2 loss) / sum of example weights."""
        with name_scope("sdca/regularized_loss"):
            weights = convert_to_tensor(examples["example_weights"])
            return ((self._l1_loss() +
                     self._l2_loss(self._options["symmetric_l2_regularization"])) /
                    reduce_sum(cast(weights, dtypes.float64)) +
                    self.unregularized_loss(examples))
