"""Extension points: the few places where a lower layer calls into a higher one.

Folders import only downward (tests/test_layering.py). Where a lower layer must reach a
higher one at run time, it calls through one of the tables below, which the higher layer
fills when it is imported. Every such hook is listed here, with who fills and who calls
it; nothing else in tf1compat is patched from above. The tables are plain dicts so the
hot paths (operators on tensors, eager ops) pay one dict lookup.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

__all__ = ["TENSOR_OPERATORS", "SPARSE_OPERATORS", "EAGER_EXECUTOR", "SYMBOLIC_IN_EAGER",
           "PUBLIC_API", "GRAD_MODE", "TAPE", "OP_CREATED", "SERIALIZED_FORMS",
           "SESSION_TARGETS", "STD_SERVER", "PLAN_FUSIONS", "SYNC_REPLICAS"]

# Python operators on tensors (`x + y`, `x[1:]`, `-x`, ...): name ("add", "radd",
# "getitem", ...) -> function. Filled by ops/math_ops.py and ops/strided_slice.py; called
# by framework/tensor.Tensor's dunder methods (graph and eager tensors alike).
TENSOR_OPERATORS: Dict[str, Callable[..., Any]] = {}

# The operators TF overrides on SparseTensor: "mul", "div", "truediv" (`sp * dense`,
# `sp / dense`). Filled by ops/sparse_dense_ops.py; called by
# framework/sparse_tensor.SparseTensor's dunder methods.
SPARSE_OPERATORS: Dict[str, Callable[..., Any]] = {}

# Running an op immediately under eager execution. "execute": (op_def, inputs, attrs,
# name) -> op-like result with `_outputs`; "execute1": (op_type, inputs, attrs, name) ->
# the single output. Filled by runtime/eager_executor.py; called by
# framework/graph.apply_op / apply_op1 while `framework/context.executing_eagerly()`.
EAGER_EXECUTOR: Dict[str, Optional[Callable[..., Any]]] = {"execute": None, "execute1": None}

# A graph tensor given to an op under eager execution. "build": (tensor, op_def, inputs,
# attrs, name) -> the Operation built in the tensor's graph, or None (TF's TypeError
# stands). Filled by keras/engine/op_lambda.py (raw TF functions on eager Keras inputs
# build in Keras' graph, as tf-keras's TFOpLambda layers); called by
# framework/graph.apply_op / apply_op1 when the eager executor refuses such a tensor.
SYMBOLIC_IN_EAGER: Dict[str, Optional[Callable[..., Any]]] = {"build": None}

# The public namespace itself, for code that looks up TF functions by their API names
# (tf-keras's get_symbol_from_name: "nn.relu", "compat.v1.squeeze"): "tf" -> the
# tf1compat module. Filled by tf1compat/__init__.py; read by keras/engine/op_lambda.py.
PUBLIC_API: Dict[str, Any] = {"tf": None}

# Gradient plans. "rewriter": (gradient ops of a plan) -> an object whose
# `wrap(op, kernel, kctx)` gives each kernel TF's gradient semantics. Filled by
# autodiff/__init__.py; called by runtime/plan.PlanBuilder for plans with gradient ops.
GRAD_MODE: Dict[str, Optional[Callable[..., Any]]] = {"rewriter": None}

# GradientTape recording. "recording": whether any tape or variable watcher is active
# (maintained by autodiff/tape.py); "record": (entry, kernel, inputs, values, name) ->
# outputs, running an eager op under the tape (filled by autodiff/tape.py). Called by
# runtime/eager_executor.py for every eager op while recording.
TAPE: Dict[str, Any] = {"recording": False, "record": None}

# Graph-mode op callbacks (TF's op_callbacks for graphs): functions called with every
# Operation a graph creates, once it is complete. Filled by ops/check_numerics_mode.py
# while tf.debugging.enable_check_numerics is on; called by
# framework/graph.Graph._create_op_internal.
OP_CREATED: List[Callable[[Any], None]] = []

# TF's serialized forms of graph objects, built by the layers that own the formats:
# "shape_proto": TensorShape -> TensorShapeProto (filled by serialization/tensor_proto.py;
# called by TensorShape.as_proto). "graph_def": a GraphDef or Graph.as_graph_def()'s view
# -> GraphDef proto, raising ValueError (UnserializableGraphError) for ops with no
# GraphDef form; "node_def_text": Operation -> its NodeDef's text, None if it has none;
# "attr_proto": (attr value, dtype hint) -> AttrValue (serialization/tensor_proto.py; read
# by NodeDef views' `attr`); "attr_value": (AttrValue, attr name) -> the attr value back
# (serialization/tensor_proto.py; read by framework/raw_operation.py);
# "graph_def_for_events": (graph, graph_def or None) -> the GraphDef TensorBoard draws
# (ops with no GraphDef form without attrs); "meta_graph_for_events": (graph, graph_def or
# None) -> MetaGraphDef or None (filled by graphdef/graph_io.py and
# training/saving/meta_graph.py; called by framework/graph.py's views, framework/operation.py
# and summary/writer.py).
SERIALIZED_FORMS: Dict[str, Optional[Callable[..., Any]]] = {
    "shape_proto": None, "graph_def": None, "node_def_text": None, "attr_proto": None,
    "attr_value": None, "graph_def_for_events": None, "meta_graph_for_events": None}

# Fetched values a session hands back as objects: op type -> function (value, fetched
# tensor, session) -> what `Session.run` returns for it (GetSessionHandle's TensorHandle).
# Filled by ops/session_ops.py; called by runtime/session.BaseSession.run.
FETCHED_VALUES: Dict[str, Callable[[Any, Any, Any], Any]] = {}

# Session targets served by another process's variables (`tf.Session("grpc://...")`):
# URL scheme ("grpc") -> function (session, target) -> None (a local session) or an object
# whose `before_run(state, plan) -> pulled` / `after_run(state, pulled)` exchange the values
# of the variables the run's plan touches with the servers around each successful run.
# Filled by distribute/server.py; called by runtime/session.BaseSession.
SESSION_TARGETS: Dict[str, Callable[[Any, str], Any]] = {}

# The in-process `tf.train.Server` class, for code below distribute/ that starts a task's
# server (tf.estimator.train_and_evaluate's chief/worker/ps tasks): "Server" -> the class.
# Filled by distribute/server.py; called by estimator/distributed_training.py.
STD_SERVER: Dict[str, Any] = {"Server": None}

# Op chains a plan runs as one kernel (TF's oneDNN Conv2D + BiasAdd + Relu; Grappler's
# constant push-down): name -> function (op) -> None, or (the chain's ops ending at `op`,
# the chain's inputs, a factory kctx -> kernel of those inputs[, True where that kernel
# applies its ops' TF gradient formulas itself]). Filled by ops/nn_conv_bias.py and
# ops/constant_push_down.py; called by runtime/plan_rewrites.fused_chains, which checks
# that nothing else reads the chain's intermediate values.
PLAN_FUSIONS: Dict[str, Callable[[Any], Any]] = {}

# `tf.train.SyncReplicasOptimizer` on a parameter-server cluster. "cluster": (optimizer,
# grads_and_vars, global_step) -> None where no ps cluster holds the variables (the
# one-process pass-through applies), else the token-queue build: an object with
# `train_op`, `chief_queue_runner` and `init_tokens_op(num_tokens)`. Filled by
# distribute/sync_replicas.py; called by training/optimizers/sync_replicas.py, whose class
# stays a direct subclass of tf.train.Optimizer as TF's.
SYNC_REPLICAS: Dict[str, Optional[Callable[..., Any]]] = {"cluster": None}
