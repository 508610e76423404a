"""`tf.contrib.quantize`'s entry points (TF 1.15 quantize_graph.py): rewrite a graph in
place for quantization-aware training or evaluation.

First the batch norms after conv/fc layers are folded into their weights, the fused ones
(fold_batch_norms.py) then the unfused ones (fold_unfused_batch_norms.py), in training mode
with TF's batch-statistics corrections and freeze_bn_delay.
"""

from __future__ import annotations

from typing import Optional

from tf1compat.contrib.quantize.fold_batch_norms import fold_batch_norms
from tf1compat.contrib.quantize.fold_unfused_batch_norms import fold_unfused_batch_norms
from tf1compat.contrib.quantize.quantize import quantize
from tf1compat.framework.graph import Graph, get_default_graph

__all__ = ["create_training_graph", "create_eval_graph", "experimental_create_training_graph",
           "experimental_create_eval_graph"]

# TF's list (its C++ training ops): a graph that already has an optimizer's update ops
# was built before the rewrite could reach its gradients.
_TRAINING_OPS = frozenset(
    [f"{prefix}Apply{name}" for prefix in ("", "Resource") for name in (
        "Adagrad", "AdagradDA", "Adam", "AddSign", "CenteredRMSProp", "Ftrl", "FtrlV2",
        "GradientDescent", "Momentum", "PowerSign", "ProximalAdagrad",
        "ProximalGradientDescent", "RMSProp")]
    + ["ResourceApplyAdadelta"]
    + [f"{prefix}SparseApply{name}" for prefix in ("", "Resource") for name in (
        "Adadelta", "Adagrad", "AdagradDA", "CenteredRMSProp", "Ftrl", "FtrlV2", "Momentum",
        "ProximalAdagrad", "ProximalGradientDescent", "RMSProp")])
def _check(graph: Graph) -> None:
    found = {op.type for op in graph.get_operations()} & _TRAINING_OPS
    if found:
        raise ValueError("Training op found in graph, exiting %s" % found)


def _create_graph(input_graph: Optional[Graph] = None, is_training: bool = True,
                  weight_bits: int = 8, activation_bits: int = 8, symmetric: bool = False,
                  quant_delay: Optional[int] = None, freeze_bn_delay: Optional[int] = None,
                  scope: Optional[str] = None) -> None:
    graph = input_graph if input_graph is not None else get_default_graph()
    _check(graph)
    with graph.as_default():
        fold_batch_norms(graph, is_training, freeze_bn_delay)
        fold_unfused_batch_norms(graph, is_training, freeze_bn_delay)
        quantize(graph, is_training, quant_delay=quant_delay, weight_bits=weight_bits,
                 activation_bits=activation_bits, symmetric=symmetric, scope=scope)


def create_training_graph(input_graph: Optional[Graph] = None, quant_delay: int = 0) -> None:
    """Rewrites `input_graph` (default: the default graph) in place for quantization-aware
    training: fake quants on weights and activations whose ranges follow the batches,
    active from step `quant_delay` of the `fake_quantization_step` counter. Call it
    before adding gradients; the new variables go to the global variables."""
    _create_graph(input_graph, is_training=True, quant_delay=quant_delay)


def create_eval_graph(input_graph: Optional[Graph] = None) -> None:
    """Rewrites `input_graph` in place for evaluation: fake quants with the ranges the
    training graph's variables (restored from its checkpoint) hold."""
    _create_graph(input_graph, is_training=False)


def experimental_create_training_graph(input_graph: Optional[Graph] = None,
                                       weight_bits: int = 8, activation_bits: int = 8,
                                       symmetric: bool = False, quant_delay: int = 0,
                                       freeze_bn_delay: Optional[int] = None,
                                       scope: Optional[str] = None) -> None:
    """create_training_graph with the bit widths, symmetric ranges and a `scope` that
    limits the rewrite; from quantization step `freeze_bn_delay` on, the folded batch
    norms use (and stop updating) their moving statistics."""
    _create_graph(input_graph, True, weight_bits, activation_bits, symmetric, quant_delay,
                  freeze_bn_delay, scope)


def experimental_create_eval_graph(input_graph: Optional[Graph] = None,
                                   weight_bits: int = 8, activation_bits: int = 8,
                                   symmetric: bool = False, quant_delay: Optional[int] = None,
                                   scope: Optional[str] = None) -> None:
    """create_eval_graph with the bit widths, symmetric ranges and a `scope`."""
    _create_graph(input_graph, False, weight_bits, activation_bits, symmetric, quant_delay,
                  None, scope)
