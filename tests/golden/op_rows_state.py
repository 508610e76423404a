"""Op rows: variables (ref and resource), assignments, scatter updates, TF's training ops
in their four forms (Apply*, ResourceApply*, SparseApply*, ResourceSparseApply*), and
hash tables.

A row's variables and tables are recorded after the op ran once, beside its outputs."""

import numpy as np

from tests.golden.op_harness import ResVar, Table, Var, err, f32, i32, pos, row, strings

_V = f32(4, 3)
_IDX = np.array([2, 0], np.int32)
_UPD = f32(2, 3, seed=1)
_POS_UPD = pos(2, 3, seed=1)

ROWS = [
    err("VariableV2", shape=[2, 3], dtype="float32"),
    row("Assign", ref=Var(_V), value=f32(4, 3, seed=1)),
    row("Assign", ref=Var(_V), value=f32(2, 3, seed=1), validate_shape=False),
    err("Assign", ref=Var(_V), value=f32(2, 3, seed=1)),
    row("AssignAdd", ref=Var(_V), value=f32(4, 3, seed=1)),
    row("AssignSub", ref=Var(i32(3)), value=i32(3, seed=1)),
    err("AssignAdd", ref=Var(_V), value=f32(3, seed=1)),
    row("IsVariableInitialized", ref=Var(_V)),
    row("CountUpTo", ref=Var(np.int64(3)), limit=5),
    err("CountUpTo", ref=Var(np.int32(5)), limit=5),
    row("AssignVariableOp", resource=ResVar(_V), value=f32(4, 3, seed=1)),
    row("AssignAddVariableOp", resource=ResVar(_V), value=f32(4, 3, seed=1)),
    row("AssignSubVariableOp", resource=ResVar(i32(2)), value=i32(2, seed=1)),
    err("AssignVariableOp", resource=ResVar(_V), value=i32(4, 3)),
    row("ReadVariableOp", resource=ResVar(_V), dtype="float32"),
    err("ReadVariableOp", resource=ResVar(_V), dtype="int32"),
    row("VarIsInitializedOp", resource=ResVar(_V)),
    row("ResourceCountUpTo", resource=ResVar(np.int64(1)), limit=4, T="int64"),
    row("ResourceGather", resource=ResVar(_V), indices=np.array([3, 0, 3], np.int32),
        dtype="float32"),
    row("ResourceGather", resource=ResVar(f32(2, 3, 2)), indices=np.array([[1], [0]], np.int64),
        dtype="float32", batch_dims=1),
    err("ResourceGather", resource=ResVar(_V), indices=np.array([4], np.int32),
        dtype="float32"),
    row("ResourceGatherNd", resource=ResVar(_V), indices=np.array([[1, 2], [3, 0]], np.int32),
        dtype="float32"),
    row("VariableShape", input=ResVar(_V)),
    row("VariableShape", input=ResVar(f32(2, 3, 2)), out_type="int64"),
    row("VariableShape", input=ResVar(np.int64(1))),
    row("StridedSliceAssign", ref=Var(_V), begin=np.array([1, 0], np.int32),
        end=np.array([3, 3], np.int32), strides=np.array([1, 2], np.int32),
        value=f32(2, 2, seed=1)),
    row("StridedSliceAssign", ref=Var(_V), begin=np.array([2], np.int64),
        end=np.array([3], np.int64), strides=np.array([1], np.int64), value=f32(3, seed=1),
        shrink_axis_mask=1),
    err("StridedSliceAssign", ref=Var(_V), begin=np.array([0], np.int32),
        end=np.array([2], np.int32), strides=np.array([1], np.int32), value=f32(3, 3, seed=1)),
    row("ResourceStridedSliceAssign", ref=ResVar(_V), begin=np.array([0, 1], np.int32),
        end=np.array([4, 3], np.int32), strides=np.array([3, 1], np.int32),
        value=f32(2, 2, seed=1)),
]

# -- scatter updates on ref and resource variables --------------------------------------------

for _kind in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update"):
    _updates = _POS_UPD if _kind in ("Mul", "Div") else _UPD
    ROWS += [
        row(f"Scatter{_kind}", ref=Var(_V), indices=_IDX, updates=_updates),
        row(f"ResourceScatter{_kind}", resource=ResVar(_V), indices=_IDX, updates=_updates),
    ]
for _kind in ("Add", "Sub", "Max", "Min", "Update"):
    ROWS += [
        row(f"ScatterNd{_kind}", ref=Var(_V), indices=np.array([[1], [3]], np.int64),
            updates=_UPD),
        row(f"ResourceScatterNd{_kind}", ref=ResVar(_V), indices=np.array([[0, 1], [2, 2]],
                                                                           np.int32),
            updates=f32(2, seed=2)),
    ]
ROWS += [
    row("ScatterAdd", ref=Var(_V), indices=np.array([1, 1, 3], np.int64), updates=f32(3, 3)),
    row("ScatterUpdate", ref=Var(i32(4)), indices=np.array([0, 2], np.int32),
        updates=np.array([7, 9], np.int32)),
    row("ScatterSub", ref=Var(_V), indices=np.int32(2), updates=f32(3, seed=3)),
    err("ScatterAdd", ref=Var(_V), indices=np.array([4], np.int32), updates=f32(1, 3)),
    err("ScatterUpdate", ref=Var(_V), indices=_IDX, updates=f32(2, 2)),
    err("ResourceScatterAdd", resource=ResVar(_V), indices=np.array([-1], np.int32),
        updates=f32(1, 3)),
    err("ScatterNdUpdate", ref=Var(_V), indices=np.array([[5]], np.int32), updates=f32(1, 3)),
]

# -- training ops ---------------------------------------------------------------------------------
# (slots: name -> initial value; hyperparameters: name -> scalar), per optimizer.

_LR = np.float32(0.1)
_OPTIMIZERS = {
    "Adadelta": ({"accum": pos(4, 3, seed=2), "accum_update": pos(4, 3, seed=3)},
                 {"lr": _LR, "rho": np.float32(0.95), "epsilon": np.float32(1e-6)}),
    "Adagrad": ({"accum": pos(4, 3, seed=2)}, {"lr": _LR}),
    "AdagradDA": ({"gradient_accumulator": f32(4, 3, seed=2),
                   "gradient_squared_accumulator": pos(4, 3, seed=3)},
                  {"lr": _LR, "l1": np.float32(0.01), "l2": np.float32(0.02),
                   "global_step": np.int64(3)}),
    "Adam": ({"m": f32(4, 3, seed=2), "v": pos(4, 3, seed=3)},
             {"beta1_power": np.float32(0.9), "beta2_power": np.float32(0.999), "lr": _LR,
              "beta1": np.float32(0.9), "beta2": np.float32(0.999),
              "epsilon": np.float32(1e-8)}),
    "CenteredRMSProp": ({"mg": f32(4, 3, seed=2), "ms": pos(4, 3, seed=3) + 2,
                         "mom": f32(4, 3, seed=4)},
                        {"lr": _LR, "rho": np.float32(0.9), "momentum": np.float32(0.5),
                         "epsilon": np.float32(1e-6)}),
    "Ftrl": ({"accum": pos(4, 3, seed=2), "linear": f32(4, 3, seed=3)},
             {"lr": _LR, "l1": np.float32(0.01), "l2": np.float32(0.02),
              "lr_power": np.float32(-0.5)}),
    "FtrlV2": ({"accum": pos(4, 3, seed=2), "linear": f32(4, 3, seed=3)},
               {"lr": _LR, "l1": np.float32(0.01), "l2": np.float32(0.02),
                "l2_shrinkage": np.float32(0.03), "lr_power": np.float32(-0.5)}),
    "GradientDescent": ({}, {"alpha": _LR}),
    "Momentum": ({"accum": f32(4, 3, seed=2)}, {"lr": _LR, "momentum": np.float32(0.9)}),
    "ProximalAdagrad": ({"accum": pos(4, 3, seed=2)},
                        {"lr": _LR, "l1": np.float32(0.01), "l2": np.float32(0.02)}),
    "ProximalGradientDescent": ({}, {"alpha": _LR, "l1": np.float32(0.01),
                                     "l2": np.float32(0.02)}),
    "RMSProp": ({"ms": pos(4, 3, seed=2), "mom": f32(4, 3, seed=3)},
                {"lr": _LR, "rho": np.float32(0.9), "momentum": np.float32(0.5),
                 "epsilon": np.float32(1e-6)}),
}
# Dense ops name the gradient `delta` for gradient descent; the sparse ones `grad`.
_DENSE_GRAD = {"GradientDescent": "delta", "ProximalGradientDescent": "delta"}
_NO_SPARSE = ("Adam", "GradientDescent")       # TF has no sparse form of these

for _name, (_slots, _hyper) in _OPTIMIZERS.items():
    _grad_arg = _DENSE_GRAD.get(_name, "grad")
    for _resource in (False, True):
        _var = ResVar if _resource else Var
        _prefix = "Resource" if _resource else ""
        _state = {"var": _var(_V), **{k: _var(v) for k, v in _slots.items()}}
        ROWS.append(row(f"{_prefix}Apply{_name}",
                        **{**_state, **_hyper, _grad_arg: f32(4, 3, seed=9)}))
        if _name not in _NO_SPARSE:
            _state = {"var": _var(_V), **{k: _var(v) for k, v in _slots.items()}}
            ROWS.append(row(f"{_prefix}SparseApply{_name}",
                            **{**_state, **_hyper, "grad": f32(2, 3, seed=9),
                               "indices": np.array([3, 1], np.int64)}))

ROWS += [
    row("ApplyAdam", var=Var(_V), m=Var(f32(4, 3, seed=2)), v=Var(pos(4, 3, seed=3)),
        beta1_power=np.float32(0.81), beta2_power=np.float32(0.998), lr=_LR,
        beta1=np.float32(0.9), beta2=np.float32(0.999), epsilon=np.float32(1e-7),
        grad=f32(4, 3, seed=9), use_nesterov=True),
    row("ApplyMomentum", var=Var(_V), accum=Var(f32(4, 3, seed=2)), lr=_LR,
        grad=f32(4, 3, seed=9), momentum=np.float32(0.9), use_nesterov=True),
    row("ApplyAdagrad", var=Var(_V), accum=Var(pos(4, 3, seed=2)), lr=_LR,
        grad=f32(4, 3, seed=9), update_slots=False),
    row("ApplyFtrl", var=Var(_V), accum=Var(pos(4, 3, seed=2)), linear=Var(f32(4, 3, seed=3)),
        grad=f32(4, 3, seed=9), lr=_LR, l1=np.float32(0.0), l2=np.float32(0.0),
        lr_power=np.float32(-0.5), multiply_linear_by_lr=True),
    row("SparseApplyAdagrad", var=Var(_V), accum=Var(pos(4, 3, seed=2)), lr=_LR,
        grad=f32(3, 3, seed=9), indices=np.array([1, 1, 0], np.int32)),
    row("ApplyGradientDescent", var=Var(f32(4, 3).astype(np.float64)), alpha=np.float64(0.5),
        delta=f32(4, 3, seed=9).astype(np.float64)),
    err("ApplyGradientDescent", var=Var(_V), alpha=_LR, delta=f32(3, 3, seed=9)),
    err("SparseApplyMomentum", var=Var(_V), accum=Var(f32(4, 3, seed=2)), lr=_LR,
        grad=f32(1, 3, seed=9), indices=np.array([7], np.int32), momentum=np.float32(0.9)),
    err("ApplyAdagrad", var=Var(_V), accum=Var(pos(4, 3, seed=2)), lr=f32(2), grad=f32(4, 3)),
]

# The Keras optimizers' training ops (TF has no ref-variable form of the last two).
_ADAMAX = {"beta1_power": np.float32(0.81), "lr": _LR, "beta1": np.float32(0.9),
           "beta2": np.float32(0.999), "epsilon": np.float32(1e-7)}
_AMSGRAD = {"beta1_power": np.float32(0.81), "beta2_power": np.float32(0.998), "lr": _LR,
            "beta1": np.float32(0.9), "beta2": np.float32(0.999), "epsilon": np.float32(1e-7)}
for _var, _prefix in ((Var, ""), (ResVar, "Resource")):
    ROWS += [
        row(f"{_prefix}ApplyAdaMax", var=_var(_V), m=_var(f32(4, 3, seed=2)),
            v=_var(pos(4, 3, seed=3)), grad=f32(4, 3, seed=9), **_ADAMAX),
        row(f"{_prefix}ApplyAdagradV2", var=_var(_V), accum=_var(pos(4, 3, seed=2)), lr=_LR,
            epsilon=np.float32(1e-7), grad=f32(4, 3, seed=9)),
        row(f"{_prefix}SparseApplyAdagradV2", var=_var(_V), accum=_var(pos(4, 3, seed=2)),
            lr=_LR, epsilon=np.float32(1e-7), grad=f32(3, 3, seed=9),
            indices=np.array([1, 1, 0], np.int32)),
    ]
# tf.contrib.opt's sign optimizers (no sparse forms in TF).
_SIGN = {"lr": _LR, "sign_decay": np.float32(0.5), "beta": np.float32(0.9)}
for _var, _prefix in ((Var, ""), (ResVar, "Resource")):
    ROWS += [
        row(f"{_prefix}ApplyAddSign", var=_var(_V), m=_var(f32(4, 3, seed=2)),
            alpha=np.float32(1.0), grad=f32(4, 3, seed=9), **_SIGN),
        row(f"{_prefix}ApplyPowerSign", var=_var(_V), m=_var(f32(4, 3, seed=2)),
            logbase=np.float32(0.6931472), grad=f32(4, 3, seed=9), **_SIGN),
    ]
ROWS += [
    err("ApplyAddSign", var=Var(_V), m=Var(f32(4, 3, seed=2)), alpha=np.float32(1.0),
        grad=f32(3, 3, seed=9), **_SIGN),
]
ROWS += [
    row("ResourceApplyAdamWithAmsgrad", var=ResVar(_V), m=ResVar(f32(4, 3, seed=2)),
        v=ResVar(pos(4, 3, seed=3)), vhat=ResVar(pos(4, 3, seed=4)), grad=f32(4, 3, seed=9),
        **_AMSGRAD),
    row("ResourceApplyKerasMomentum", var=ResVar(_V), accum=ResVar(f32(4, 3, seed=2)),
        lr=_LR, grad=f32(4, 3, seed=9), momentum=np.float32(0.9)),
    row("ResourceApplyKerasMomentum", var=ResVar(_V), accum=ResVar(f32(4, 3, seed=2)),
        lr=_LR, grad=f32(4, 3, seed=9), momentum=np.float32(0.9), use_nesterov=True),
    row("ResourceSparseApplyKerasMomentum", var=ResVar(_V), accum=ResVar(f32(4, 3, seed=2)),
        lr=_LR, grad=f32(2, 3, seed=9), indices=np.array([3, 1], np.int64),
        momentum=np.float32(0.9), use_nesterov=True),
]

# -- hash tables (HashTableV2 handles, initialized by InitializeTableV2 before the op) ----------

_WORDS = strings("one", "two", "three")
_TABLE = Table(_WORDS, np.array([1, 2, 3], np.int64))
ROWS += [
    row("LookupTableFindV2", table_handle=_TABLE, keys=strings("two", "four", "one", "two"),
        default_value=np.int64(-1)),
    row("LookupTableFindV2", table_handle=Table(np.array([3, 7], np.int64), f32(2)),
        keys=np.array([[7, 1], [3, 3]], np.int64), default_value=np.float32(0.5)),
    err("LookupTableFindV2", table_handle=_TABLE, keys=np.array([1], np.int64),
        default_value=np.int64(-1)),
    row("LookupTableSizeV2", table_handle=_TABLE),
    row("LookupTableSizeV2", table_handle=Table(key_dtype="string", value_dtype="int64")),
    row("LookupTableExportV2", table_handle=_TABLE, Tkeys="string", Tvalues="int64",
        check="sorted"),
    row("InitializeTableV2", table_handle=Table(key_dtype="int64", value_dtype="string"),
        keys=np.array([5, 1], np.int64), values=strings("five", "one")),
    err("InitializeTableV2", table_handle=_TABLE, keys=strings("x"),
        values=np.array([9], np.int64)),
    err("InitializeTableV2", table_handle=Table(key_dtype="string", value_dtype="int64"),
        keys=strings("x", "y"), values=np.array([9], np.int64)),
    err("LookupTableImportV2", table_handle=_TABLE, keys=strings("x"),
        values=np.array([9], np.int64)),
]
