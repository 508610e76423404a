"""Op rows: the SDCA solver ops (SdcaOptimizer, SdcaOptimizerV2, SdcaFprint, SdcaShrinkL1).

TF's SdcaOptimizer visits a mini-batch's examples in an order drawn from std::random_device,
so every row here is order independent: one example, or examples whose features (and so
weights) are disjoint; a second visit of an example (adaptive sampling) changes nothing
beyond rounding, because each update solves the example's dual exactly."""

import numpy as np

from tests.golden.op_harness import Const, Var, err, row, strings

_I = np.int64
_F = np.float32
LOSSES = ("logistic_loss", "squared_loss", "hinge_loss", "smooth_hinge_loss", "poisson_loss")


def _state(n, dual=0.0):
    """A constant: TF's kernel writes the new state into its input's buffer, so a fed array
    would change under the recording."""
    state = np.zeros((n, 4), _F)
    state[:, 0] = dual
    return Const(state)


def _dense_one(loss, label=1.0, l1=0.0, l2=1.0, dual=0.0, adaptive=False, partitions=1,
               weight=1.0, op="SdcaOptimizerV2"):
    """One example with a dense group of three features and its three weights."""
    flag = "adaptive" if op == "SdcaOptimizerV2" else "adaptative"
    return row(op, sparse_example_indices=[], sparse_feature_indices=[],
               sparse_feature_values=[],
               dense_features=[np.array([[0.5, -1.0, 2.0]], _F)],
               example_weights=np.array([weight], _F), example_labels=np.array([label], _F),
               sparse_indices=[], sparse_weights=[],
               dense_weights=[np.array([0.2, -0.3, 0.1], _F)],
               example_state_data=_state(1, dual), loss_type=loss, l1=l1, l2=l2,
               num_loss_partitions=partitions, num_inner_iterations=1,
               with_grad=False, rtol=2e-5, atol=1e-6, **{flag: adaptive})


def _sparse_three(loss, labels, values=True, l1=0.0, l2=1.0, dense=True, dual=0.0):
    """Three examples with disjoint sparse features (two groups, the first with values) and,
    optionally, a dense column each that only its own example has nonzero."""
    ex = [np.array([0, 0, 1, 2], _I), np.array([0, 2], _I)]
    feat = [np.array([3, 7, 1, 5], _I), np.array([10, 30], _I)]
    vals = [np.array([1.0, -0.5, 2.0, 0.25], _F)] if values else []
    dense_features = [np.diag(np.array([0.7, -1.2, 0.4], _F))] if dense else []
    dense_weights = [np.array([0.1, 0.0, -0.2], _F)] if dense else []
    return row("SdcaOptimizerV2", sparse_example_indices=ex, sparse_feature_indices=feat,
               sparse_feature_values=vals, dense_features=dense_features,
               example_weights=np.array([1.0, 2.0, 0.5], _F),
               example_labels=np.array(labels, _F),
               sparse_indices=[np.array([1, 3, 5, 7], _I), np.array([30, 10, 20], _I)],
               sparse_weights=[np.array([0.1, -0.2, 0.3, 0.05], _F),
                               np.array([0.4, -0.1, 0.7], _F)],
               dense_weights=dense_weights, example_state_data=_state(3, dual),
               loss_type=loss, l1=l1, l2=l2, num_loss_partitions=1, num_inner_iterations=1,
               adaptive=False, with_grad=False, rtol=2e-5, atol=1e-6)


ROWS = [_dense_one(loss) for loss in LOSSES]
ROWS += [
    _dense_one("logistic_loss", label=0.0, l1=0.1, l2=2.0, dual=-0.3),
    _dense_one("squared_loss", label=1.5, l1=0.05, l2=0.5, dual=0.4, weight=2.0),
    _dense_one("hinge_loss", label=0.0, l1=0.2, l2=1.5),
    _dense_one("smooth_hinge_loss", label=0.0, dual=-0.2, partitions=3),
    _dense_one("poisson_loss", label=3.0, l2=0.5, partitions=2),
    _dense_one("squared_loss", label=-1.0, adaptive=True),
    _dense_one("logistic_loss", adaptive=True, partitions=2),
    _dense_one("squared_loss", label=2.0, op="SdcaOptimizer"),
    _dense_one("logistic_loss", label=0.0, adaptive=True, op="SdcaOptimizer"),
    _sparse_three("squared_loss", [1.0, -2.0, 0.5]),
    _sparse_three("logistic_loss", [1.0, 0.0, 1.0], l1=0.05, l2=1.0),
    _sparse_three("hinge_loss", [0.0, 1.0, 1.0], values=False),
    _sparse_three("smooth_hinge_loss", [1.0, 1.0, 0.0], dense=False),
    _sparse_three("poisson_loss", [2.0, 0.0, 1.0], l2=2.0, dual=0.1),
    # Errors: labels the loss refuses, inconsistent inputs, no features.
    err("SdcaOptimizerV2", **{**_dense_one("logistic_loss", label=2.0).args}),
    err("SdcaOptimizerV2", **{**_dense_one("poisson_loss", label=-1.0).args}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args,
                              "example_state_data": _state(2)}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args,
                              "example_state_data": Const(np.zeros((4,), _F))}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args,
                              "example_labels": np.array([1.0, 0.0], _F)}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args,
                              "dense_features": [np.array([0.5, 1.0, 2.0], _F)]}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args,
                              "dense_weights": [np.array([0.2, 0.1], _F)]}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args, "dense_features": [],
                              "dense_weights": []}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args, "loss_type": "l1_loss"}),
    err("SdcaOptimizerV2", **{**_dense_one("squared_loss").args, "num_loss_partitions": 0}),
    err("SdcaOptimizerV2", **{**_sparse_three("squared_loss", [1.0, 0.0, 1.0]).args,
                              "sparse_indices": [np.array([1, 3, 5], _I),
                                                 np.array([30, 10, 20], _I)],
                              "sparse_weights": [np.array([0.1, -0.2, 0.3], _F),
                                                 np.array([0.4, -0.1, 0.7], _F)]}),
    err("SdcaOptimizerV2", **{**_sparse_three("squared_loss", [1.0, 0.0, 1.0]).args,
                              "sparse_feature_indices": [np.array([3, 3, 1, 5], _I),
                                                         np.array([10, 30], _I)]}),
]

# -- SdcaFprint: FarmHash Fingerprint128 of each string -------------------------------------

ROWS += [
    row("SdcaFprint", input=strings("", "a", "abc", "abcd1234", "0123456789abcdef",
                                    "0123456789abcdefg", "x" * 40, "example_7")),
    row("SdcaFprint", input=strings("y" * 127, "z" * 128, "w" * 143, "q" * 200 + "r" * 77,
                                    bytes(range(256)) * 2)),
    row("SdcaFprint", input=strings()),
    err("SdcaFprint", input=strings("a", "b", shape=(1, 2))),
]

# -- SdcaShrinkL1: sign(w) * max(|w| - l1 / l2, 0) on ref variables, in place ---------------

_W1 = np.array([1.0, -0.2, 0.5, 0.15, -0.15, 0.0], _F)
_W2 = np.array([[3.0, -2.0], [0.1, -0.05]], _F)
ROWS += [
    row("SdcaShrinkL1", weights=[Var(_W1), Var(_W2)], l1=0.3, l2=2.0, with_grad=False),
    row("SdcaShrinkL1", weights=[Var(_W2)], l1=0.0, l2=1.0, with_grad=False),
    row("SdcaShrinkL1", weights=[Var(_W1)], l1=0.7, l2=3.0, with_grad=False),
    row("SdcaShrinkL1", weights=[Var(_W1), Var(_W2), Var(np.float32(-4.0))], l1=5.0, l2=1.0,
        with_grad=False),
    err("SdcaShrinkL1", weights=[_W1], l1=0.3, l2=2.0),
]
