"""`tf.keras.optimizers.{SGD, RMSprop, Adagrad, Adadelta, Adam, Adamax, Nadam, Ftrl}`: the
classes TF1 Keras uses (tf-keras's `optimizers.legacy`), with its update rules.

Dense updates are TF's training ops: SGD `ResourceApplyGradientDescent` /
`ResourceApplyKerasMomentum`, RMSprop `ResourceApplyRMSProp` / `ResourceApplyCenteredRMSProp`
with momentum and Python ops without, Adagrad `ResourceApplyAdagradV2`, Adadelta
`ResourceApplyAdadelta`, Adam `ResourceApplyAdam` / `ResourceApplyAdamWithAmsgrad`, Adamax
`ResourceApplyAdaMax`, Ftrl `ResourceApplyFtrl(V2)`; Nadam is Python ops. Epsilon defaults
to 1e-7 (`K.epsilon()`), Adam's `beta_1 ** (iterations + 1)` powers are computed per step.
Sparse gradients (embeddings) are deduplicated and applied with the sparse ops or
scatter updates, as tf-keras does.
"""

from __future__ import annotations

from typing import Any, Dict

from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2, with_coefficients
from tf1compat.ops.training_ops import training_op

Optimizer = OptimizerV2

__all__ = ["Optimizer", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam", "Ftrl"]


def _identity(x: Any) -> Any:
    from tf1compat.ops.array_ops import identity
    return identity(x)


def _cast(x: Any, dtype: Any) -> Any:
    from tf1compat.ops.math_ops import cast
    return cast(x, dtype)


def _momentum_flag(momentum: Any) -> bool:
    from tf1compat.framework.tensor import Tensor
    if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
        raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                         f"(of type {type(momentum)}).")
    return isinstance(momentum, Tensor) or callable(momentum) or momentum > 0


def _assign(var: Any, value: Any) -> Any:
    from tf1compat.ops.state_ops import assign
    return assign(var, value, use_locking=True)


def _update_op(var: Any, value: Any) -> Any:
    """`var = value` as the update: its Operation in a graph, done at once eagerly."""
    from tf1compat.framework.context import executing_eagerly
    assigned = _assign(var, value)
    return assigned if executing_eagerly() else assigned.op


class SGD(OptimizerV2):
    """Gradient descent, with (Nesterov) momentum: `velocity = momentum * velocity -
    lr * g; w += velocity`."""

    def __init__(self, learning_rate: Any = 0.01, momentum: Any = 0.0, nesterov: bool = False,
                 name: str = "SGD", **kwargs: Any):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._momentum = _momentum_flag(momentum)
        self._set_hyper("momentum", momentum)
        self.nesterov = nesterov

    def _create_slots(self, var_list: list) -> None:
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        super()._prepare_local(var_device, var_dtype, apply_state)
        apply_state[(var_device, var_dtype)]["momentum"] = _identity(
            self._get_hyper("momentum", var_dtype))

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        if self._momentum:
            accum = self.get_slot(var, "momentum")
            return training_op("ResourceApplyKerasMomentum",
                               [var.handle, accum.handle, coefficients["lr_t"], grad,
                                coefficients["momentum"]], self._use_locking,
                               use_nesterov=self.nesterov)
        return training_op("ResourceApplyGradientDescent",
                           [var.handle, coefficients["lr_t"], grad], self._use_locking)

    def _resource_apply_sparse_duplicate_indices(self, grad: Any, var: Any, indices: Any,
                                                 apply_state: Any = None) -> Any:
        if self._momentum:
            return super()._resource_apply_sparse_duplicate_indices(grad, var, indices,
                                                                    apply_state=apply_state)
        from tf1compat.ops.resource_variable_ops import resource_op
        coefficients = self._coefficients(var, apply_state)
        return resource_op("ResourceScatterAdd", var.handle, indices,
                           -grad * coefficients["lr_t"])

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        accum = self.get_slot(var, "momentum")
        return training_op("ResourceSparseApplyKerasMomentum",
                           [var.handle, accum.handle, coefficients["lr_t"], grad, indices,
                            coefficients["momentum"]], self._use_locking,
                           use_nesterov=self.nesterov)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "nesterov": self.nesterov})
        return config


class RMSprop(OptimizerV2):
    """RMSprop: a moving average of squared gradients (`rho`) scales each step."""

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.9, momentum: Any = 0.0,
                 epsilon: float = 1e-7, centered: bool = False, name: str = "RMSprop",
                 **kwargs: Any):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self._momentum = _momentum_flag(momentum)
        self._set_hyper("momentum", momentum)
        self.epsilon = epsilon or backend.epsilon()
        self.centered = centered

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self.add_slot(var, "rms")
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")
        if self.centered:
            for var in var_list:
                self.add_slot(var, "mg")

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        super()._prepare_local(var_device, var_dtype, apply_state)
        state = apply_state[(var_device, var_dtype)]
        rho = _identity(self._get_hyper("rho", var_dtype))
        state.update(neg_lr_t=-state["lr_t"],
                     epsilon=convert_to_tensor(self.epsilon, var_dtype), rho=rho,
                     momentum=_identity(self._get_hyper("momentum", var_dtype)),
                     one_minus_rho=1.0 - rho)

    def _momentum_op(self, var: Any, c: Dict, grad_inputs: list) -> Any:
        """With momentum: TF's (Sparse)(Centered)RMSProp op; `grad_inputs` is [grad] or
        [grad, indices]."""
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        sparse = "Sparse" if len(grad_inputs) == 2 else ""
        handles = [var.handle, rms.handle, mom.handle]
        op_type = f"Resource{sparse}ApplyRMSProp"
        if self.centered:
            handles.insert(1, self.get_slot(var, "mg").handle)
            op_type = f"Resource{sparse}ApplyCenteredRMSProp"
        return training_op(op_type, handles + [c["lr_t"], c["rho"], c["momentum"],
                                               c["epsilon"]] + grad_inputs, self._use_locking)

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        from tf1compat.ops.math_ops import sqrt, square
        rms = self.get_slot(var, "rms")
        c = coefficients
        if self._momentum:
            return self._momentum_op(var, c, [grad])
        rms_t = _assign(rms, c["rho"] * rms + c["one_minus_rho"] * square(grad))
        denominator = rms_t
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = _assign(mg, c["rho"] * mg + c["one_minus_rho"] * grad)
            denominator = rms_t - square(mg_t)
        var_t = var - c["lr_t"] * grad / (sqrt(denominator) + c["epsilon"])
        return _update_op(var, var_t)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import sqrt, square
        rms = self.get_slot(var, "rms")
        c = coefficients
        if self._momentum:
            return self._momentum_op(var, c, [grad, indices])
        rms_t = _assign(rms, rms * c["rho"])
        with control_dependencies([rms_t]):
            rms_t = self._resource_scatter_add(rms, indices, (grad * grad) * c["one_minus_rho"])
            denominator = gather(rms_t, indices)
        updates = [rms_t]
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = _assign(mg, mg * c["rho"])
            with control_dependencies([mg_t]):
                mg_t = self._resource_scatter_add(mg, indices, grad * c["one_minus_rho"])
                denominator = denominator - square(gather(mg_t, indices))
            updates.append(mg_t)
        var_update = self._resource_scatter_add(
            var, indices, c["neg_lr_t"] * grad / (sqrt(denominator) + c["epsilon"]))
        return group(var_update, *updates)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "rho": self._serialize_hyperparameter("rho"),
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "epsilon": self.epsilon, "centered": self.centered})
        return config


class Adagrad(OptimizerV2):
    """Adagrad: steps scaled by the root of the accumulated squared gradients."""

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7, name: str = "Adagrad", **kwargs: Any):
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value must be non-negative: "
                             f"{initial_accumulator_value}")
        if epsilon is None:
            epsilon = backend.epsilon()
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon or backend.epsilon()

    def _create_slots(self, var_list: list) -> None:
        from tf1compat.variables.init_ops import constant_initializer
        for var in var_list:
            init = constant_initializer(self._initial_accumulator_value,
                                        dtype=var.dtype.base_dtype)
            self.add_slot(var, "accumulator", init)

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        super()._prepare_local(var_device, var_dtype, apply_state)
        state = apply_state[(var_device, var_dtype)]
        state.update(epsilon=convert_to_tensor(self.epsilon, var_dtype),
                     neg_lr_t=-state["lr_t"])

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("ResourceApplyAdagradV2",
                           [var.handle, acc.handle, coefficients["lr_t"],
                            coefficients["epsilon"], grad], self._use_locking)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        acc = self.get_slot(var, "accumulator")
        return training_op("ResourceSparseApplyAdagradV2",
                           [var.handle, acc.handle, coefficients["lr_t"],
                            coefficients["epsilon"], grad, indices], self._use_locking)

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None) -> "Adagrad":
        config = dict(config)
        config.setdefault("initial_accumulator_value", 0.1)
        return super().from_config(config, custom_objects)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "initial_accumulator_value": self._initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config


class Adadelta(OptimizerV2):
    """Adadelta: steps scaled by moving averages of squared gradients and updates."""

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: float = 1e-7,
                 name: str = "Adadelta", **kwargs: Any):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self.epsilon = epsilon or backend.epsilon()

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self.add_slot(var, "accum_grad")
        for var in var_list:
            self.add_slot(var, "accum_var")

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        super()._prepare_local(var_device, var_dtype, apply_state)
        apply_state[(var_device, var_dtype)].update(
            epsilon=convert_to_tensor(self.epsilon, var_dtype),
            rho=_identity(self._get_hyper("rho", var_dtype)))

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        c = coefficients
        return training_op("ResourceApplyAdadelta",
                           [var.handle, self.get_slot(var, "accum_grad").handle,
                            self.get_slot(var, "accum_var").handle, c["lr_t"], c["rho"],
                            c["epsilon"], grad], self._use_locking)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        c = coefficients
        return training_op("ResourceSparseApplyAdadelta",
                           [var.handle, self.get_slot(var, "accum_grad").handle,
                            self.get_slot(var, "accum_var").handle, c["lr_t"], c["rho"],
                            c["epsilon"], grad, indices], self._use_locking)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "rho": self._serialize_hyperparameter("rho"), "epsilon": self.epsilon})
        return config


class _AdamFamily(OptimizerV2):
    """Shared by Adam and Adamax: learning rate, decay, beta_1, beta_2, epsilon."""

    def __init__(self, name: str, learning_rate: Any, beta_1: Any, beta_2: Any,
                 epsilon: float, **kwargs: Any):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or backend.epsilon()

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self.add_slot(var, "m")
        for var in var_list:
            self.add_slot(var, "v")

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "beta_1": self._serialize_hyperparameter("beta_1"),
                       "beta_2": self._serialize_hyperparameter("beta_2"),
                       "epsilon": self.epsilon})
        return config


class Adam(_AdamFamily):
    """Adam with TF's epsilon-hat form (and AMSGrad with `amsgrad=True`)."""

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: str = "Adam",
                 **kwargs: Any):
        super().__init__(name, learning_rate, beta_1, beta_2, epsilon, **kwargs)
        self.amsgrad = amsgrad

    def _create_slots(self, var_list: list) -> None:
        super()._create_slots(var_list)
        if self.amsgrad:
            for var in var_list:
                self.add_slot(var, "vhat")

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        from tf1compat.ops.math_ops import pow as tf_pow
        from tf1compat.ops.math_ops import sqrt
        super()._prepare_local(var_device, var_dtype, apply_state)
        state = apply_state[(var_device, var_dtype)]
        local_step = _cast(self.iterations + 1, var_dtype)
        beta_1_t = _identity(self._get_hyper("beta_1", var_dtype))
        beta_2_t = _identity(self._get_hyper("beta_2", var_dtype))
        beta_1_power = tf_pow(beta_1_t, local_step)
        beta_2_power = tf_pow(beta_2_t, local_step)
        lr = state["lr_t"] * (sqrt(1 - beta_2_power) / (1 - beta_1_power))
        state.update(lr=lr, epsilon=convert_to_tensor(self.epsilon, var_dtype),
                     beta_1_t=beta_1_t, beta_1_power=beta_1_power,
                     one_minus_beta_1_t=1 - beta_1_t, beta_2_t=beta_2_t,
                     beta_2_power=beta_2_power, one_minus_beta_2_t=1 - beta_2_t)

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        c = coefficients
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        scalars = [c["beta_1_power"], c["beta_2_power"], c["lr_t"], c["beta_1_t"],
                   c["beta_2_t"], c["epsilon"], grad]
        if not self.amsgrad:
            return training_op("ResourceApplyAdam", [var.handle, m.handle, v.handle] + scalars,
                               self._use_locking)
        vhat = self.get_slot(var, "vhat")
        return training_op("ResourceApplyAdamWithAmsgrad",
                           [var.handle, m.handle, v.handle, vhat.handle] + scalars,
                           self._use_locking)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.math_ops import maximum, sqrt
        from tf1compat.ops.state_ops import assign_sub
        c = coefficients
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = _assign(m, m * c["beta_1_t"])
        with control_dependencies([m_t]):
            m_t = self._resource_scatter_add(m, indices, grad * c["one_minus_beta_1_t"])
        v_t = _assign(v, v * c["beta_2_t"])
        with control_dependencies([v_t]):
            v_t = self._resource_scatter_add(v, indices, (grad * grad) * c["one_minus_beta_2_t"])
        if not self.amsgrad:
            update = assign_sub(var, c["lr"] * m_t / (sqrt(v_t) + c["epsilon"]),
                                use_locking=True)
            return group(update, m_t, v_t)
        vhat = self.get_slot(var, "vhat")
        vhat_t = maximum(vhat, v_t)
        with control_dependencies([vhat_t]):
            vhat_t = _assign(vhat, vhat_t)
        update = assign_sub(var, c["lr"] * m_t / (sqrt(vhat_t) + c["epsilon"]),
                            use_locking=True)
        return group(update, m_t, v_t, vhat_t)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config["amsgrad"] = self.amsgrad
        return config


class Adamax(_AdamFamily):
    """Adamax: Adam with the infinity norm (`v = max(beta_2 * v, |g|)`)."""

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999,
                 epsilon: float = 1e-7, name: str = "Adamax", **kwargs: Any):
        super().__init__(name, learning_rate, beta_1, beta_2, epsilon, **kwargs)

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        from tf1compat.ops.math_ops import pow as tf_pow
        super()._prepare_local(var_device, var_dtype, apply_state)
        state = apply_state[(var_device, var_dtype)]
        local_step = _cast(self.iterations + 1, var_dtype)
        beta_1_t = _identity(self._get_hyper("beta_1", var_dtype))
        beta_2_t = _identity(self._get_hyper("beta_2", var_dtype))
        beta_1_power = tf_pow(beta_1_t, local_step)
        state.update(neg_scaled_lr=-state["lr_t"] / (1 - beta_1_power),
                     epsilon=convert_to_tensor(self.epsilon, var_dtype), beta_1_t=beta_1_t,
                     beta_1_power=beta_1_power, one_minus_beta_1_t=1 - beta_1_t,
                     beta_2_t=beta_2_t)

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        c = coefficients
        return training_op("ResourceApplyAdaMax",
                           [var.handle, self.get_slot(var, "m").handle,
                            self.get_slot(var, "v").handle, c["beta_1_power"], c["lr_t"],
                            c["beta_1_t"], c["beta_2_t"], c["epsilon"], grad],
                           self._use_locking)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.math_ops import abs as tf_abs
        from tf1compat.ops.math_ops import maximum
        c = coefficients
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_slice = gather(m, indices)
        m_t_slice = m_slice * c["beta_1_t"] + grad * c["one_minus_beta_1_t"]
        with control_dependencies([m_t_slice]):
            m_t = self._resource_scatter_update(m, indices, m_t_slice)
        v_slice = gather(v, indices)
        v_t_slice = maximum(v_slice * c["beta_2_t"], tf_abs(grad))
        with control_dependencies([v_t_slice]):
            v_t = self._resource_scatter_update(v, indices, v_t_slice)
        var_slice = c["neg_scaled_lr"] * (m_t_slice / (v_t_slice + c["epsilon"]))
        with control_dependencies([var_slice]):
            update = self._resource_scatter_add(var, indices, var_slice)
        return group(update, m_t, v_t)


class Nadam(_AdamFamily):
    """Adam with Nesterov momentum and the momentum-cache schedule (`schedule_decay`)."""

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999,
                 epsilon: float = 1e-7, name: str = "Nadam", **kwargs: Any):
        kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
        from tf1compat.keras.optimizers.schedules import LearningRateSchedule
        if isinstance(kwargs.get("lr", learning_rate), LearningRateSchedule):
            raise ValueError("The Nadam optimizer does not support tf.keras.optimizers."
                             "LearningRateSchedules as the learning rate.")
        super().__init__(name, learning_rate, beta_1, beta_2, epsilon, **kwargs)
        self._m_cache: Any = None

    def _create_slots(self, var_list: list) -> None:
        if self._m_cache is None:
            self._m_cache = self.add_weight("momentum_cache", shape=[],
                                            dtype=var_list[0].dtype.base_dtype,
                                            initializer="ones", trainable=False)
            self._weights.append(self._m_cache)
        super()._create_slots(var_list)

    def _prepare(self, var_list: Any) -> Dict:
        self._m_cache_read = _identity(self._m_cache)
        return super()._prepare(var_list)

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        from tf1compat.ops.math_ops import pow as tf_pow
        lr_t = _identity(self._get_hyper("learning_rate", var_dtype))
        beta_1_t = _identity(self._get_hyper("beta_1", var_dtype))
        beta_2_t = _identity(self._get_hyper("beta_2", var_dtype))
        local_step = _cast(self.iterations + 1, var_dtype)
        next_step = _cast(self.iterations + 2, var_dtype)
        decay_base = _cast(0.96, var_dtype)
        m_t = beta_1_t * (1.0 - 0.5 * tf_pow(decay_base, self._initial_decay * local_step))
        m_t_1 = beta_1_t * (1.0 - 0.5 * tf_pow(decay_base, self._initial_decay * next_step))
        m_schedule_new = _cast(self._m_cache_read, var_dtype) * m_t
        if var_dtype is self._m_cache.dtype.base_dtype:
            m_schedule_new = _identity(_assign(self._m_cache, m_schedule_new))
        m_schedule_next = m_schedule_new * m_t_1
        apply_state[(var_device, var_dtype)] = dict(
            lr_t=lr_t, neg_lr_t=-lr_t, epsilon=convert_to_tensor(self.epsilon, var_dtype),
            beta_1_t=beta_1_t, beta_2_t=beta_2_t, m_t=m_t, m_t_1=m_t_1,
            one_minus_beta_1_t=1 - beta_1_t, one_minus_beta_2_t=1 - beta_2_t,
            one_minus_m_t=1.0 - m_t, one_minus_m_schedule_new=1.0 - m_schedule_new,
            one_minus_m_schedule_next=1.0 - m_schedule_next,
            v_t_prime_denominator=1.0 - tf_pow(beta_2_t, local_step))

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        from tf1compat.ops.math_ops import sqrt, square
        c = coefficients
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        g_prime = grad / c["one_minus_m_schedule_new"]
        m_t = _assign(m, c["beta_1_t"] * m + c["one_minus_beta_1_t"] * grad)
        m_t_prime = m_t / c["one_minus_m_schedule_next"]
        v_t = _assign(v, c["beta_2_t"] * v + c["one_minus_beta_2_t"] * square(grad))
        v_t_prime = v_t / c["v_t_prime_denominator"]
        m_t_bar = c["one_minus_m_t"] * g_prime + c["m_t_1"] * m_t_prime
        var_t = var - c["lr_t"] * m_t_bar / (sqrt(v_t_prime) + c["epsilon"])
        return _update_op(var, var_t)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.math_ops import sqrt
        c = coefficients
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        g_prime = grad / c["one_minus_m_schedule_new"]
        m_t = _assign(m, m * c["beta_1_t"])
        with control_dependencies([m_t]):
            m_t = self._resource_scatter_add(m, indices, grad * c["one_minus_beta_1_t"])
            m_t_slice = gather(m_t, indices)
        m_t_bar = c["one_minus_m_t"] * g_prime + \
            c["m_t_1"] * (m_t_slice / c["one_minus_m_schedule_next"])
        v_t = _assign(v, v * c["beta_2_t"])
        with control_dependencies([v_t]):
            v_t = self._resource_scatter_add(v, indices, (grad * grad) * c["one_minus_beta_2_t"])
            v_t_slice = gather(v_t, indices)
        v_prime_sqrt_plus_eps = sqrt(v_t_slice / c["v_t_prime_denominator"]) + c["epsilon"]
        var_update = self._resource_scatter_add(var, indices,
                                                c["neg_lr_t"] * m_t_bar / v_prime_sqrt_plus_eps)
        return group(var_update, m_t_bar, v_t)

    def get_config(self) -> Dict[str, Any]:
        return _AdamFamily.get_config(self)


class Ftrl(OptimizerV2):
    """FTRL-proximal (TF's ResourceApplyFtrl, or FtrlV2 with l2 shrinkage)."""

    def __init__(self, learning_rate: Any = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, name: str = "Ftrl",
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float = 0.0,
                 **kwargs: Any):
        super().__init__(name, **kwargs)
        for value, what in ((initial_accumulator_value, "initial_accumulator_value"),
                            (l1_regularization_strength, "l1_regularization_strength"),
                            (l2_regularization_strength, "l2_regularization_strength"),
                            (l2_shrinkage_regularization_strength,
                             "l2_shrinkage_regularization_strength")):
            if value < 0.0:
                raise ValueError(f"`{what}` needs to be positive or zero. Received: "
                                 f"{what}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("learning_rate_power", learning_rate_power)
        self._set_hyper("l1_regularization_strength", l1_regularization_strength)
        self._set_hyper("l2_regularization_strength", l2_regularization_strength)
        self._set_hyper("beta", beta)
        self._initial_accumulator_value = initial_accumulator_value
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength

    def _create_slots(self, var_list: list) -> None:
        from tf1compat.variables.init_ops import constant_initializer
        for var in var_list:
            init = constant_initializer(self._initial_accumulator_value,
                                        dtype=var.dtype.base_dtype)
            self.add_slot(var, "accumulator", init)
            self.add_slot(var, "linear")

    def _prepare_local(self, var_device: Any, var_dtype: Any, apply_state: Dict) -> None:
        super()._prepare_local(var_device, var_dtype, apply_state)
        state = apply_state[(var_device, var_dtype)]
        for name in ("learning_rate_power", "l1_regularization_strength",
                     "l2_regularization_strength", "beta"):
            state[name] = _identity(self._get_hyper(name, var_dtype))
        state["l2_shrinkage_regularization_strength"] = _cast(
            self._l2_shrinkage_regularization_strength, var_dtype)

    def _ftrl_op(self, grad: Any, var: Any, indices: Any, c: Dict) -> Any:
        """ResourceApplyFtrl(V2), or the sparse form when `indices` is given; l2 is
        adjusted by `beta / (2 lr)` per variable, as tf-keras computes it."""
        adjusted_l2 = c["l2_regularization_strength"] + c["beta"] / (2.0 * c["lr_t"])
        inputs = [var.handle, self.get_slot(var, "accumulator").handle,
                  self.get_slot(var, "linear").handle, grad]
        if indices is not None:
            inputs.append(indices)
        inputs += [c["lr_t"], c["l1_regularization_strength"], adjusted_l2]
        op = "ResourceSparseApplyFtrl" if indices is not None else "ResourceApplyFtrl"
        if self._l2_shrinkage_regularization_strength > 0.0:
            inputs.append(c["l2_shrinkage_regularization_strength"])
            op += "V2"
        return training_op(op, inputs + [c["learning_rate_power"]], self._use_locking)

    @with_coefficients
    def _resource_apply_dense(self, grad: Any, var: Any, coefficients: Dict) -> Any:
        return self._ftrl_op(grad, var, None, coefficients)

    @with_coefficients
    def _resource_apply_sparse(self, grad: Any, var: Any, indices: Any,
                               coefficients: Dict) -> Any:
        return self._ftrl_op(grad, var, indices, coefficients)

    def get_config(self) -> Dict[str, Any]:
        config = super().get_config()
        config.update({
            "learning_rate": self._serialize_hyperparameter("learning_rate"),
            "decay": self._initial_decay,
            "initial_accumulator_value": self._initial_accumulator_value,
            "learning_rate_power": self._serialize_hyperparameter("learning_rate_power"),
            "l1_regularization_strength":
                self._serialize_hyperparameter("l1_regularization_strength"),
            "l2_regularization_strength":
                self._serialize_hyperparameter("l2_regularization_strength"),
            "beta": self._serialize_hyperparameter("beta"),
            "l2_shrinkage_regularization_strength":
                self._l2_shrinkage_regularization_strength})
        return config
