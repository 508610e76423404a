"""The building blocks the Inception nets share, described as data: a net's base is a list
of stages `(end_point, spec)`, where a spec is one `Layer` (a convolution or a pool named
after the end point) or a `Mixed` block (branches Branch_0, Branch_1, ... run on the same
input and concatenated on channels; a `Fork` inside a branch runs its layers on the same
input and concatenates them too). `run_stages` builds a base up to `final_endpoint`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from tf1compat.contrib.framework.arg_scope import arg_scope
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.initializers import variance_scaling_initializer
from tf1compat.contrib.layers.regularizers import l2_regularizer
from tf1compat.contrib.slim.nets._heads import trunc_normal
from tf1compat.framework.graph import GraphKeys
from tf1compat.ops.array_ops import concat, squeeze
from tf1compat.ops.nn_ops import relu
from tf1compat.variables.variable_scope import variable_scope


class Layer(NamedTuple):
    """One convolution ("conv") or pool ("max"/"avg"); None fields take the arg_scope's."""
    kind: str
    name: str
    kernel: Tuple[int, int]
    depth: Optional[int] = None
    stride: Optional[int] = None
    padding: Optional[str] = None
    stddev: Optional[float] = None


class Fork(NamedTuple):
    """Layers applied side by side to the same input, concatenated on channels."""
    layers: Tuple[Layer, ...]


Branch = Sequence[Union[Layer, Fork]]
Mixed = Sequence[Branch]
Stage = Tuple[str, Union[Layer, Mixed]]


def _kernel_of(name: str) -> Tuple[int, int]:
    height, width = name.rsplit("_", 1)[1].split("x")
    return int(height), int(width)


def conv(depth: int, name: str, kernel: Optional[Tuple[int, int]] = None,
         **options: Any) -> Layer:
    """A convolution; its kernel is read from the name's `_HxW` suffix unless given."""
    return Layer("conv", name, kernel or _kernel_of(name), depth, **options)


def max_pool(name: str, kernel: Optional[Tuple[int, int]] = None, **options: Any) -> Layer:
    """A max pool; its kernel is read from the name's `_HxW` suffix unless given."""
    return Layer("max", name, kernel or _kernel_of(name), **options)


def avg_pool(name: str, kernel: Optional[Tuple[int, int]] = None, **options: Any) -> Layer:
    """An average pool; its kernel is read from the name's `_HxW` suffix unless given."""
    return Layer("avg", name, kernel or _kernel_of(name), **options)


def _apply(net: Any, layer: Layer, depth: Callable[[int], int]) -> Any:
    kwargs: Dict[str, Any] = {"scope": layer.name}
    if layer.stride is not None:
        kwargs["stride"] = layer.stride
    if layer.padding is not None:
        kwargs["padding"] = layer.padding
    if layer.stddev is not None:
        kwargs["weights_initializer"] = trunc_normal(layer.stddev)
    if layer.kind == "conv":
        return layers.conv2d(net, depth(layer.depth), list(layer.kernel), **kwargs)
    pool = layers.max_pool2d if layer.kind == "max" else layers.avg_pool2d
    return pool(net, list(layer.kernel), **kwargs)


def _mixed(net: Any, branches: Mixed, depth: Callable[[int], int]) -> Any:
    outputs = []
    for index, branch in enumerate(branches):
        with variable_scope(f"Branch_{index}"):
            out = net
            for item in branch:
                if isinstance(item, Fork):
                    out = concat([_apply(out, layer, depth) for layer in item.layers], 3)
                else:
                    out = _apply(out, item, depth)
            outputs.append(out)
    return concat(outputs, 3)


def run_stages(net: Any, stages: Sequence[Stage], end_points: Dict[str, Any],
               final_endpoint: str, depth: Callable[[int], int]) -> Tuple[Any, bool]:
    """Builds `stages` in order, recording each end point; stops after `final_endpoint`
    (then returns True as the second value)."""
    for end_point, spec in stages:
        if isinstance(spec, Layer):
            net = _apply(net, spec, depth)
        else:
            with variable_scope(end_point):
                net = _mixed(net, spec, depth)
        end_points[end_point] = net
        if end_point == final_endpoint:
            return net, True
    return net, False


def depth_function(depth_multiplier: float, min_depth: int) -> Callable[[int], int]:
    """Scales a depth by `depth_multiplier`, never below `min_depth`."""
    if depth_multiplier <= 0:
        raise ValueError("depth_multiplier is not greater than zero.")
    return lambda d: max(int(d * depth_multiplier), min_depth)


def reduced_kernel_size_for_small_input(input_tensor: Any, kernel_size: List[int]
                                        ) -> List[int]:
    """`kernel_size` clipped to the input's spatial size, when that size is known."""
    shape = input_tensor.get_shape().as_list()
    if shape[1] is None or shape[2] is None:
        return kernel_size
    return [min(shape[1], kernel_size[0]), min(shape[2], kernel_size[1])]


def logits_head(net: Any, num_classes: int, dropout_keep_prob: float, spatial_squeeze: bool,
                pool_kernel: List[int], end_points: Dict[str, Any],
                record_pre_logits: bool = False) -> Any:
    """Inception v2/v3's classifier in scope `Logits`: a VALID average pool
    AvgPool_1a_<k> (kernel clipped to the map), Dropout_1b, 1x1 Conv2d_1c_1x1 and the
    spatial squeeze."""
    with variable_scope("Logits"):
        kernel = reduced_kernel_size_for_small_input(net, pool_kernel)
        net = layers.avg_pool2d(net, kernel, padding="VALID",
                                scope="AvgPool_1a_{}x{}".format(*kernel))
        net = layers.dropout(net, keep_prob=dropout_keep_prob, scope="Dropout_1b")
        if record_pre_logits:
            end_points["PreLogits"] = net
        logits = layers.conv2d(net, num_classes, [1, 1], activation_fn=None,
                               normalizer_fn=None, scope="Conv2d_1c_1x1")
        if spatial_squeeze:
            logits = squeeze(logits, [1, 2], name="SpatialSqueeze")
    return logits


def inception_arg_scope(weight_decay: float, batch_norm_var_collection: str,
                        use_batch_norm: bool = True, **batch_norm_options: Any
                        ) -> Dict[str, Any]:
    """L2-regularized convolutions and fully connected layers; He-initialized ReLU
    convolutions, batch-normalized (decay 0.9997, epsilon 0.001 unless given, the moving
    statistics also in `batch_norm_var_collection`)."""
    params: Dict[str, Any] = {"decay": 0.9997, "epsilon": 0.001,
                              "updates_collections": GraphKeys.UPDATE_OPS}
    params.update(batch_norm_options)
    params["variables_collections"] = {"beta": None, "gamma": None,
                                       "moving_mean": [batch_norm_var_collection],
                                       "moving_variance": [batch_norm_var_collection]}
    with arg_scope([layers.conv2d, layers.fully_connected],
                   weights_regularizer=l2_regularizer(weight_decay)):
        with arg_scope([layers.conv2d], weights_initializer=variance_scaling_initializer(),
                       activation_fn=relu,
                       normalizer_fn=layers.batch_norm if use_batch_norm else None,
                       normalizer_params=params if use_batch_norm else {}) as scope:
            return scope
