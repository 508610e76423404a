"""TF 1.15's contrib.quantize rewrite of a graph's layers (`quantize.Quantize`): each
Conv2D / MatMul / DepthwiseConv2dNative whose weights come from a variable gets a fake
quant on its weights (`<layer scope>/weights_quant`, last-value range, narrow range) and
on its activation (`act_quant`, moving-average range starting at [0, 6]); a residual add
before the activation gets `conv_quant` and `add_quant`, one after it
`post_activation_bypass_quant`; afterwards adds and multiplies of already quantized
values get `activation_<type>_quant`. Consumers are rerouted in place onto the fake
quant's output (`Operation._update_input`), as TF's `RerouteTensor` does."""

from __future__ import annotations

import collections
import re
from typing import Any, Dict, Iterable, List, Optional, Set

from tf1compat.contrib.quantize import graph_matcher as gm
from tf1compat.contrib.quantize.quant_ops import quantize_layer
from tf1compat.framework import dtypes
from tf1compat.framework.graph import Graph, get_default_graph, get_name_scope
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import identity
from tf1compat.ops.cond import cond
from tf1compat.ops.math_ops import greater_equal
from tf1compat.ops.state_ops import assign_add
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable
from tf1compat.variables.variables import VariableAggregation

# Ops TF's rewrite never treats as consumers: gradients, some optimizers' scopes, summaries.
SKIPPED_PREFIXES = ("gradients/", "RMSProp/", "Adagrad/", "Const_", "HistogramSummary",
                    "ScalarSummary")
_LAYER_TYPES = "Conv2D|MatMul|DepthwiseConv2dNative"
_ACTIVATION_TYPES = {"Relu", "Relu6", "Identity"}
_RELU_TYPES = {"Relu", "Relu6"}
_ARITHMETIC_TYPES = {"Add", "AddV2", "Mul"}
_PASS_THROUGH_TYPES = {"Reshape", "Identity", "BatchToSpaceND", "SpaceToBatchND", "MaxPool",
                       "Max"}
_FAKE_QUANT_TYPES = {"FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxArgs",
                     "FakeQuantWithMinMaxVarsPerChannel"}
_QUANT_STEP = "fake_quantization_step"


def _consumer_map(graph: Graph) -> Dict[Tensor, Set[Operation]]:
    """Each tensor's consumers when the map is built (TF's InputToOps: the rewrite keeps
    using this snapshot while it edits the graph)."""
    mapping: Dict[Tensor, Set[Operation]] = collections.defaultdict(set)
    for op in graph.get_operations():
        if not op.name.startswith(SKIPPED_PREFIXES):
            for t in op.inputs:
                mapping[t].add(op)
    return mapping


def _consumers(mapping: Dict[Tensor, Set[Operation]], op: Operation) -> Set[Operation]:
    found: Set[Operation] = set()
    for t in op.outputs:
        found.update(mapping.get(t, ()))
    return found


def _parent_scope(name: str) -> str:
    """`a/b/c` -> `a/b`; a name without a scope -> ``."""
    found = re.search(r"^(.*)/([^/]+)", name)
    return found.group(1) if found else ""


class _Layer:
    """One matched layer: its op, weight tensor and the optional ops around it."""

    def __init__(self, layer_op: Operation, weight: Optional[Tensor],
                 activation_op: Optional[Operation], bypass_op: Optional[Operation] = None,
                 post_activation_bypass_op: Optional[Operation] = None,
                 bias_add_op: Optional[Operation] = None) -> None:
        self.layer_op = layer_op
        self.weight = weight
        self.activation_op = activation_op
        self.bypass_op = bypass_op
        self.post_activation_bypass_op = post_activation_bypass_op
        self.bias_add_op = bias_add_op


class _Patterns:
    """TF 1.15's layer patterns (optional parts in brackets): weight | folded weight ->
    conv/fc -> [BatchToSpaceND] -> [batch-norm correction] -> [bias add | folded bias]
    -> [bypass add] -> activation -> [post-activation bypass add]."""

    def __init__(self) -> None:
        p = gm.OpTypePattern
        variable = p("Variable|VariableV2")
        partition_read = p("Identity", inputs=[variable])
        partition_concat = p("ConcatV2", inputs=[partition_read, "*", "*"])
        self.weight_read = p("Identity", inputs=[gm.OneofPattern(
            [partition_read, partition_concat, variable])])
        self.resource_read = p("ReadVariableOp")
        self.folded_weight = p("Mul")
        self.layer = p(_LAYER_TYPES, inputs=[p("*"), gm.OneofPattern(
            [self.weight_read, self.resource_read, self.folded_weight])],
            ordered_inputs=False)
        layer_output = gm.OneofPattern(
            [p("BatchToSpaceND", inputs=[self.layer, p("*"), p("*")]), self.layer])
        self.separable = p(_LAYER_TYPES, inputs=[gm.OneofPattern([layer_output]), p("*")],
                           ordered_inputs=False)
        folded_bias_mul = p("Mul", inputs=[p("*"), layer_output], ordered_inputs=False)
        correction = p("Add|AddV2", inputs=[folded_bias_mul, p("*")], ordered_inputs=False)
        self.folded_bias_add = p("Add|AddV2", inputs=[correction, p("*")],
                                 ordered_inputs=False)
        bn_identity = p("Identity", inputs=[self.folded_bias_add])
        self.bias_add = p("Add|AddV2|BiasAdd", inputs=[layer_output, "*"],
                          ordered_inputs=False)
        self.bypass = p("Add|AddV2", inputs=[gm.OneofPattern(
            [self.bias_add, self.folded_bias_add, bn_identity]), "*"], ordered_inputs=False)
        self.activation = p("|".join(sorted(_ACTIVATION_TYPES)), inputs=[gm.OneofPattern(
            [self.bias_add, self.folded_bias_add, bn_identity, self.bypass, self.layer])])
        self.post_activation_bypass = p("Add|AddV2", inputs=["*", self.activation],
                                        ordered_inputs=False)

    def weight(self, match: gm.MatchResult, folded: bool = True) -> Optional[Tensor]:
        candidates = [self.weight_read, self.resource_read] + (
            [self.folded_weight] if folded else [])
        for pattern in candidates:
            tensor = match.get_tensor(pattern)
            if tensor is not None:
                return tensor
        return None

    def bias(self, match: gm.MatchResult) -> Optional[Operation]:
        return match.get_op(self.bias_add) or match.get_op(self.folded_bias_add)


def _feeds_fused_batch_norm(activation_op: Operation) -> bool:
    """conv/fc -> Identity -> FusedBatchNorm: TF leaves such a layer unquantized."""
    if activation_op.type != "Identity" or len(activation_op.outputs) != 1:
        return False
    consumers = activation_op.outputs[0].consumers()
    return len(consumers) == 1 and consumers[0].type in ("FusedBatchNorm", "FusedBatchNormV3")


def find_layers(graph: Graph) -> List[_Layer]:
    """The layers to quantize, in TF's order: layers with a post-activation bypass, then
    layers ending in an activation, then final layers ending in a bias add, then the
    first halves of separable convolutions; each layer op once."""
    pats = _Patterns()
    layers: List[_Layer] = []
    seen: Set[Operation] = set()

    def add(layer: _Layer) -> None:
        seen.add(layer.layer_op)
        layers.append(layer)

    for m in gm.match_graph(pats.post_activation_bypass, graph):
        if m.get_op(pats.layer) not in seen:
            add(_Layer(m.get_op(pats.layer), pats.weight(m), m.get_op(pats.activation),
                       m.get_op(pats.bypass), m.get_op(pats.post_activation_bypass),
                       pats.bias(m)))
    for m in gm.match_graph(pats.activation, graph):
        activation = m.get_op(pats.activation)
        if m.get_op(pats.layer) not in seen and not _feeds_fused_batch_norm(activation):
            add(_Layer(m.get_op(pats.layer), pats.weight(m), activation,
                       m.get_op(pats.bypass), None, pats.bias(m)))
    for m in gm.match_graph(gm.OneofPattern([pats.bias_add, pats.folded_bias_add]), graph):
        if m.get_op(pats.layer) not in seen:
            add(_Layer(m.get_op(pats.layer), pats.weight(m), pats.bias(m)))
    for m in gm.match_graph(pats.separable, graph):
        if m.get_op(pats.layer) not in seen:
            add(_Layer(m.get_op(pats.layer), pats.weight(m, folded=False),
                       m.get_op(pats.layer)))
    return layers


def quantization_step() -> Tensor:
    """The run counter quant_delay compares against: `fake_quantization_step`, an int64
    variable incremented by each run that reads it (created once per graph)."""
    graph = get_default_graph()
    try:
        return graph.get_tensor_by_name(_QUANT_STEP + "/Identity:0")
    except KeyError:
        pass
    with graph.name_scope(None):
        step = get_variable(_QUANT_STEP, shape=[], dtype=dtypes.int64,
                            initializer=zeros_initializer(), trainable=False,
                            collections=[GraphKeys.GLOBAL_VARIABLES],
                            aggregation=VariableAggregation.ONLY_FIRST_REPLICA)
        with graph.name_scope(step.op.name + "/"):
            return identity(assign_add(step, 1))


def _followed_by_fake_quant(tensor: Tensor) -> bool:
    """Whether a fake quant already reads `tensor` (through Reshape/Identity ops)."""
    pending = list(tensor.consumers())
    while pending:
        op = pending.pop()
        if op.type in _FAKE_QUANT_TYPES:
            return True
        if op.type in ("Reshape", "Identity"):
            for t in op.outputs:
                pending.extend(t.consumers())
    return False


class _Inserter:
    """Inserts fake quants with one rewrite's settings (TF's _InsertQuantOp)."""

    def __init__(self, is_training: bool, symmetric: bool, ema_decay: float,
                 quant_delay: Optional[int], vars_collection: Any) -> None:
        self.is_training = is_training
        self.symmetric = symmetric
        self.ema_decay = ema_decay
        self.quant_delay = quant_delay
        self.vars_collection = vars_collection

    def insert(self, context: str, name: str, producer: Operation,
               consumers: Iterable[Operation], bits: int, moving_avg: bool = True,
               init_min: float = -6.0, narrow_range: bool = False,
               producer_scope: Optional[str] = None,
               consumer_scope: Optional[str] = None) -> None:
        """A fake quant of `producer`'s first output, read by `consumers` instead of it;
        nothing where the producer or a consumer lies outside the given scopes or a fake
        quant already reads the output."""
        consumers = list(consumers)
        if producer_scope and not producer.name.startswith(producer_scope):
            return
        if consumer_scope and any(not c.name.startswith(consumer_scope) for c in consumers):
            return
        prefix = f"{context}/{name}" if context else name
        scope = get_name_scope()
        if scope and prefix.startswith(scope + "/"):
            prefix = prefix[len(scope) + 1:]
        inputs = producer.outputs[0]
        if _followed_by_fake_quant(inputs):
            return
        quant = quantize_layer(inputs, moving_avg, prefix, init_min, 6.0, self.ema_decay,
                               self.is_training, bits, narrow_range, self.symmetric,
                               self.vars_collection)
        if self.quant_delay and self.quant_delay > 0:
            active = greater_equal(quantization_step(), self.quant_delay,
                                   name=prefix + "/activate_quant")
            quantized = quant
            quant = cond(active, lambda: quantized, lambda: inputs,
                         name=prefix + "/delayed_quant")
        if consumers:
            rerouted = 0
            for op in [c for c in inputs.consumers() if c in consumers]:
                for i, t in enumerate(list(op.inputs)):
                    if t is inputs:
                        op._update_input(i, quant)
                        rerouted += 1
            if rerouted < len(consumers):
                raise ValueError("No inputs quantized for ops: [%s]"
                                 % ", ".join(c.name for c in consumers))


def quantize(graph: Graph, is_training: bool, weight_bits: int = 8,
             activation_bits: int = 8, symmetric: bool = False, ema_decay: float = 0.999,
             quant_delay: Optional[int] = None,
             vars_collection: Any = GraphKeys.GLOBAL_VARIABLES,
             scope: Optional[str] = None) -> None:
    """Inserts the fake quants of every matched layer of `graph` (in place), then those
    of adds and multiplies of quantized values; `scope` limits the rewrite to ops whose
    names start with it."""
    if scope and not scope.endswith("/"):
        scope += "/"
    inserter = _Inserter(is_training, symmetric, ema_decay, quant_delay, vars_collection)
    mapping = _consumer_map(graph)
    quantized: Set[Operation] = set()
    for layer in find_layers(graph):
        context = _parent_scope(layer.layer_op.name)
        if layer.weight is not None:
            inserter.insert(context, "weights_quant", layer.weight.op,
                            _consumers(mapping, layer.weight.op), weight_bits,
                            moving_avg=False, narrow_range=True, consumer_scope=scope)
        add_context = context
        if layer.activation_op is not None:
            if layer.bypass_op:
                add_context = _parent_scope(context)
            inserter.insert(add_context, "act_quant", layer.activation_op,
                            _consumers(mapping, layer.activation_op), activation_bits,
                            init_min=0.0, producer_scope=scope)
            quantized.add(layer.activation_op)
        if layer.bypass_op is not None:
            inserter.insert(context, "conv_quant", layer.bias_add_op,
                            _consumers(mapping, layer.bias_add_op), activation_bits,
                            producer_scope=scope, consumer_scope=scope)
            quantized.add(layer.bias_add_op)
            consumers = _consumers(mapping, layer.bypass_op)
            # An add followed by an activation is quantized after the activation.
            if not any(c.type in _ACTIVATION_TYPES for c in consumers):
                inserter.insert(add_context, "add_quant", layer.bypass_op, consumers,
                                activation_bits, producer_scope=scope, consumer_scope=scope)
                quantized.add(layer.bypass_op)
        post = layer.post_activation_bypass_op
        if post is not None:
            consumers = _consumers(mapping, post)
            if not any(c.type in _RELU_TYPES for c in consumers):
                inserter.insert(_parent_scope(post.name), "post_activation_bypass_quant",
                                post, consumers, activation_bits, producer_scope=scope)
                quantized.add(post)
    _quantize_arithmetic(graph, quantized, inserter, activation_bits, scope)


def _reads_quantized(op: Operation, quantized: Set[Operation]) -> bool:
    """TF's _CheckIfQuantizableOp: an add or multiply not yet quantized, not feeding a
    lone relu, with an input that comes (through pass-through ops, or other such adds
    and multiplies) from a fake quant or a delayed quant's output."""
    if op in quantized or op.type not in _ARITHMETIC_TYPES:
        return False
    if len(op.outputs) == 1 and len(op.outputs[0].consumers()) == 1 and \
            op.outputs[0].consumers()[0].type in _RELU_TYPES:
        return False
    for t in op.inputs:
        source = t.op
        while source.type in _PASS_THROUGH_TYPES:
            source = source.inputs[0].op
        if source.type == "FakeQuantWithMinMaxVars" or \
                source.name.find("delayed_quant/Merge") > 0:
            return True
        if source.type in _ARITHMETIC_TYPES and \
                any(_reads_quantized(s.op, quantized) for s in source.inputs):
            return True
    return False


def _quantize_arithmetic(graph: Graph, quantized: Set[Operation], inserter: _Inserter,
                         bits: int, scope: Optional[str]) -> None:
    mapping = _consumer_map(graph)
    for op in graph.get_operations():
        if _reads_quantized(op, quantized):
            inserter.insert(op.name, f"activation_{op.type}_quant", op,
                            _consumers(mapping, op), bits, producer_scope=scope)
