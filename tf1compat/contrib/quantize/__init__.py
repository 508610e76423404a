"""`tf.contrib.quantize` (TF 1.15): rewrite a graph in place for quantization-aware
training and evaluation (FakeQuantWithMinMaxVars on weights and activations, with TF's
scope names and range variables), after folding fused and unfused batch norms into their
layers (training mode with TF's corrections and freeze_bn_delay)."""

from tf1compat.contrib.quantize.quantize_graph import (create_eval_graph,
                                                       create_training_graph,
                                                       experimental_create_eval_graph,
                                                       experimental_create_training_graph)

__all__ = ["create_eval_graph", "create_training_graph", "experimental_create_eval_graph",
           "experimental_create_training_graph"]
