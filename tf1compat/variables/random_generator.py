"""`tf.random.Generator` (TF2's stateful RNG, also usable in TF1 graphs): a resource
variable holding the Philox state [counter_lo, counter_hi, key]; each draw reads and
advances it (RngReadAndSkip) and samples with the stateless V2 ops, exactly as TF builds
it, so a seeded generator gives TF's numbers. `get_global_generator` /
`set_global_generator` manage the process-wide one."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import zeros, zeros_like
from tf1compat.ops.manip_ops import bitcast
from tf1compat.ops.random_extra_ops import PHILOX, _alg_id
from tf1compat.ops.reduction_ops import reduce_prod
from tf1compat.ops.stateful_random_ops import (counter_size, create_rng_state,
                                               non_deterministic_ints, rng_read_and_skip,
                                               state_size, stateful_random_binomial)
from tf1compat.variables.variables import Variable, init_scope

__all__ = ["Generator", "get_global_generator", "set_global_generator"]

_DEFAULT_ALGORITHM = PHILOX


def _shape_tensor(shape: Any) -> Tensor:
    dtype = D.int64 if isinstance(shape, (tuple, list)) and not shape else None
    return convert_to_tensor(shape, dtype=dtype, name="shape")


def _state_tensor(value: Any) -> Tensor:
    if isinstance(value, (list, tuple)):
        value = [v - (1 << 64) if isinstance(v, int) and v >= 1 << 63 else v for v in value]
    return math_ops.cast(value, D.int64)


def _check_state_shape(shape: Any, alg: int) -> None:
    shape.assert_is_compatible_with([state_size(alg)])


class Generator:
    """`tf.random.Generator`: a stateful random number generator (Philox)."""

    @classmethod
    def from_state(cls, state: Any, alg: Any) -> "Generator":
        """A generator starting from `state` (a tensor or variable)."""
        return cls(alg=alg, state=state)

    @classmethod
    def from_seed(cls, seed: Any, alg: Any = None) -> "Generator":
        """A generator whose state is `create_rng_state(seed, alg)`."""
        alg = _alg_id(_DEFAULT_ALGORITHM if alg is None else alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> "Generator":
        """A generator seeded from the operating system's entropy."""
        alg = _alg_id(_DEFAULT_ALGORITHM if alg is None else alg)
        state = non_deterministic_ints(shape=[state_size(alg)], dtype=D.int64)
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key: Any, counter: Any, alg: Any) -> "Generator":
        """A generator from a key (scalar) and counter (state size - 1 words)."""
        alg = _alg_id(alg)
        counter = _state_tensor(counter)
        key = _state_tensor(key)
        counter.shape.assert_is_compatible_with([state_size(alg) - 1])
        key.shape.assert_is_compatible_with([])
        state = array_ops.concat([counter, array_ops.reshape(key, [1])], 0)
        return cls(state=state, alg=alg)

    def __init__(self, copy_from: Optional["Generator"] = None, state: Any = None,
                 alg: Any = None):
        if copy_from is not None:
            if alg is not None or state is not None:
                raise ValueError("copy_from cannot be combined with state or alg")
            self._state_var = self._create_variable(copy_from.state)
            self._alg = copy_from.algorithm
            return
        if alg is None or state is None:
            raise ValueError("Generator needs `state` and `alg` (or use from_seed, "
                             "from_state, from_non_deterministic_state)")
        alg = _alg_id(alg)
        if isinstance(state, Variable):
            _check_state_shape(state.shape, alg)
            self._state_var = state
        else:
            state = _state_tensor(state)
            _check_state_shape(state.shape, alg)
            self._state_var = self._create_variable(state)
        self._alg = alg

    @staticmethod
    def _create_variable(initial_value: Any) -> Variable:
        with name_scope("random_generator"):
            return Variable(initial_value, dtype=D.int64, trainable=False, name="StateVar",
                            use_resource=True)

    # -- state --------------------------------------------------------------------------------
    @property
    def state(self) -> Variable:
        """The state variable."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        """The RNG algorithm id."""
        return self._alg

    @property
    def key(self) -> Tensor:
        """The current key (the last word of the state)."""
        return self._state_var[-1]

    # The reset methods return None, as TF's (in a graph their assign op is not returned).
    def reset(self, state: Any) -> None:
        """Sets the state."""
        state = _state_tensor(state)
        state.shape.assert_is_compatible_with([state_size(self.algorithm)])
        self._state_var.assign(state)

    def reset_from_seed(self, seed: Any) -> None:
        """Sets the state from a seed."""
        self._state_var.assign(create_rng_state(seed, self.algorithm))

    def reset_from_key_counter(self, key: Any, counter: Any) -> None:
        """Sets the state from a key and counter."""
        counter = _state_tensor(counter)
        key = _state_tensor(key)
        counter.shape.assert_is_compatible_with([state_size(self.algorithm) - 1])
        key.shape.assert_is_compatible_with([])
        self._state_var.assign(array_ops.concat([counter, array_ops.reshape(key, [1])], 0))

    def skip(self, delta: Any) -> Tensor:
        """Advances the counter by `delta` elements' worth; returns the old state."""
        return rng_read_and_skip(self._state_var.handle, self.algorithm, delta)

    def _prepare_key_counter(self, shape: Tensor) -> tuple:
        counter_key = self.skip(reduce_prod(shape))
        size = counter_size(self.algorithm)
        counter = bitcast(counter_key[:size], D.uint64)
        key = bitcast(counter_key[size:size + 1], D.uint64)
        return key, counter

    def _stateless(self, op_type: str, shape: Tensor, dtype: Any, name: Optional[str] = None,
                   extra: Optional[List[Any]] = None) -> Tensor:
        key, counter = self._prepare_key_counter(shape)
        alg = math_ops.cast(self.algorithm, D.int32)
        return apply_op1(op_type, [shape, key, counter, alg] + (extra or []),
                         {"dtype": D.as_dtype(dtype)}, name=name)

    # -- samplers -----------------------------------------------------------------------------
    def _scaled(self, op_type: str, default_name: str, shape: Any, mean: Any, stddev: Any,
                dtype: Any, name: Optional[str]) -> Tensor:
        with name_scope(name, default_name, [shape, mean, stddev]) as scope:
            shape = _shape_tensor(shape)
            mean = convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
            rnd = self._stateless(op_type, shape, dtype)
            return math_ops.add(rnd * stddev, mean, name=scope)

    def normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = D.float32,
               name: Optional[str] = None) -> Tensor:
        """Normal samples."""
        return self._scaled("StatelessRandomNormalV2", "stateful_normal", shape, mean, stddev,
                            dtype, name)

    def truncated_normal(self, shape: Any, mean: Any = 0.0, stddev: Any = 1.0,
                         dtype: Any = D.float32, name: Optional[str] = None) -> Tensor:
        """Normal samples redrawn beyond two standard deviations."""
        return self._scaled("StatelessTruncatedNormalV2", "truncated_normal", shape, mean,
                            stddev, dtype, name)

    def uniform(self, shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = D.float32,
                name: Optional[str] = None) -> Tensor:
        """Uniform samples in [minval, maxval) (all bits for integers without bounds)."""
        dtype = D.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dtype}, minval and maxval must be both "
                                 f"`None` or both non-`None`; got minval={minval} and "
                                 f"maxval={maxval}")
        elif maxval is None:
            maxval = 1
        with name_scope(name, "stateful_uniform", [shape, minval, maxval]) as scope:
            shape = _shape_tensor(shape)
            if dtype.is_integer and minval is None:
                return self._stateless("StatelessRandomUniformFullIntV2", shape, dtype,
                                       name=scope)
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
            if dtype.is_integer:
                return self._stateless("StatelessRandomUniformIntV2", shape, dtype,
                                       name=scope, extra=[minval, maxval])
            rnd = self._stateless("StatelessRandomUniformV2", shape, dtype)
            return math_ops.add(rnd * (maxval - minval), minval, name=scope)

    def uniform_full_int(self, shape: Any, dtype: Any = D.uint64,
                         name: Optional[str] = None) -> Tensor:
        """Integers covering the dtype's whole range."""
        with name_scope(name, "stateful_uniform_full_int", [shape]) as scope:
            return self._stateless("StatelessRandomUniformFullIntV2", _shape_tensor(shape),
                                   dtype, name=scope)

    def binomial(self, shape: Any, counts: Any, probs: Any, dtype: Any = D.int32,
                 name: Optional[str] = None) -> Tensor:
        """Binomial samples (StatefulRandomBinomial)."""
        with name_scope(name, "binomial", [shape, counts, probs]) as scope:
            counts = convert_to_tensor(counts, name="counts")
            probs = convert_to_tensor(probs, name="probs")
            return stateful_random_binomial(self._state_var.handle, self.algorithm,
                                            _shape_tensor(shape), counts, probs, dtype,
                                            name=scope)

    def make_seeds(self, count: int = 1) -> Tensor:
        """[2, count] seeds for the stateless ops."""
        keys = self.uniform_full_int(shape=[count], dtype=D.int64)
        return array_ops.stack([keys, zeros_like(keys)])

    def split(self, count: int = 1) -> List["Generator"]:
        """`count` new generators keyed from this one (eager execution only: in a graph
        TF 2.21 fails to create their variables, and so does tf1compat)."""
        from tf1compat.framework.context import executing_eagerly
        if not executing_eagerly():
            raise NotImplementedError("tf.random.Generator.split in graph mode: the new "
                                      "generators' initial states depend on this "
                                      "generator's variable, which TF 2.21 rejects too "
                                      "(NotImplementedError)")
        keys = self.uniform_full_int(shape=[count], dtype=D.int64)
        size = state_size(self.algorithm)
        return [Generator(state=array_ops.concat([zeros([size - 1], D.int64),
                                                   array_ops.reshape(key, [1])], 0),
                          alg=self.algorithm)
                for key in array_ops.unstack(keys, num=count)]


_GLOBAL: List[Optional[Generator]] = [None]


def get_global_generator() -> Generator:
    """`tf.random.get_global_generator`: the process-wide generator (created from a
    non-deterministic state on first use)."""
    if _GLOBAL[0] is None:
        with init_scope():
            _GLOBAL[0] = Generator.from_non_deterministic_state()
    return _GLOBAL[0]


def set_global_generator(generator: Generator) -> None:
    """`tf.random.set_global_generator`."""
    _GLOBAL[0] = generator
