"""tf1compat: the TensorFlow 1.x API on PyTorch.

`import tf1compat as tf` gives the TF1 namespace (`tf.compat.v1` with v2 behaviour off).
`tf1compat.install()` registers it as `tensorflow`, so unchanged legacy code runs.

Every public symbol is imported explicitly below, grouped by family, from the module that
implements it; sub-namespaces (`tf.nn`, `tf.train`, ...) are modules in `tf1compat/api/`
or packages of their own (`tf.layers`, `tf.keras`, ...).
"""

# ruff: noqa: F401
# First, before anything loads torch: OpenMP's wait policy (see _thread_policy.py).
from tf1compat import _thread_policy
_thread_policy.prepare_environment()
# Freed tensor memory kept for the next run, as TF's allocator keeps it (_host_memory.py).
from tf1compat import _host_memory
_host_memory.apply()

from tf1compat import _version
from tf1compat._version import (COMPILER_VERSION, CXX11_ABI_FLAG, CXX_VERSION, GIT_VERSION,
                                GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER,
                                GRAPH_DEF_VERSION_MIN_PRODUCER, MONOLITHIC_BUILD)

__version__ = _version.TF_VERSION
VERSION = _version.TF_VERSION
__tf1compat_version__ = _version.PACKAGE_VERSION

# -- framework: dtypes, shapes, graph, errors (tf1compat/framework) ------------------------
from tf1compat.framework.constant_op import constant
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.dtypes import (DType, QUANTIZED_DTYPES, as_dtype, bfloat16, bool,
                                        complex64, complex128, double, float16, float32,
                                        float64, half, int8, int16, int32, int64, qint8,
                                        qint16, qint32, quint8, quint16, resource, string,
                                        uint8, uint16, uint32, uint64, variant)
from tf1compat.framework.errors import OpError
from tf1compat.framework.graph import (Graph, GraphKeys, add_to_collection,
                                       add_to_collections, colocate_with, container,
                                       control_dependencies, device, get_collection,
                                       get_collection_ref, get_default_graph, name_scope,
                                       reset_default_graph)
from tf1compat.framework.operation import Operation
from tf1compat.framework.random_seed import get_seed, set_random_seed
from tf1compat.framework.tensor import Tensor, get_default_session
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   convert_to_tensor_or_indexed_slices,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import (Dimension, TensorShape, dimension_at_index,
                                              dimension_value, disable_v2_tensorshape,
                                              enable_v2_tensorshape)
from tf1compat.framework.misc import (disable_eager_execution, is_symbolic_tensor,
                                      disable_resource_variables, disable_tensor_equality,
                                      enable_resource_variables, enable_tensor_equality,
                                      executing_eagerly_outside_functions, get_static_value,
                                      is_tensor, newaxis, op_scope, resource_variables_enabled,
                                      control_flow_v2_enabled, disable_control_flow_v2,
                                      enable_control_flow_v2)
from tf1compat.api.compat import disable_v2_behavior, enable_v2_behavior

# -- runtime: sessions and configuration (tf1compat/runtime) ---------------------------------
from tf1compat.runtime.config import (ConfigProto, GPUOptions, GraphOptions, OptimizerOptions,
                                      RunMetadata, RunOptions)
from tf1compat.runtime.session import InteractiveSession, Session

# -- ops: array (tf1compat/ops/array_ops.py, transform_ops.py, creation_ops.py) -----------------
from tf1compat.ops.array_ops import (concat, expand_dims, identity, identity_n, placeholder,
                                     placeholder_with_default, rank, reshape, shape, shape_n,
                                     size, split, squeeze, stack, stop_gradient, unstack)
from tf1compat.ops.creation_ops import (fill, lin_space, one_hot, ones, ones_like, range,
                                        zeros, zeros_like)
from tf1compat.ops.creation_ops import lin_space as linspace
from tf1compat.ops.transform_ops import (broadcast_dynamic_shape, broadcast_static_shape,
                                         broadcast_to, pad, reverse, tile, transpose)
from tf1compat.ops.transform_ops import reverse as reverse_v2

# -- ops: slicing and indexing (tf1compat/ops/strided_slice.py, indexing_ops.py) ----------------
from tf1compat.ops.indexing_ops import (batch_gather, boolean_mask, gather, gather_nd,
                                        scatter_nd, sequence_mask, unique, where, where_v2)
from tf1compat.ops.strided_slice import slice, strided_slice

# -- ops: math (tf1compat/ops/math_ops.py, linalg_ops.py, reduction_ops.py) ---------------------
from tf1compat.ops.linalg_ops import einsum, matmul, tensordot
from tf1compat.ops.matrix_ops import (cholesky, diag_part, eye, matrix_band_part,
                                      matrix_determinant, matrix_diag, matrix_diag_part,
                                      matrix_inverse, matrix_set_diag, matrix_solve,
                                      matrix_transpose, matrix_triangular_solve, qr, trace)
from tf1compat.ops.math_ops import (abs, accumulate_n, acos, acosh, add, add_n, asin, asinh,
                                    atan, atan2, atanh, cast, ceil, conj, cos, cosh, digamma,
                                    div, div_no_nan, divide, equal, erf, erfc, exp, expm1,
                                    floor, floordiv, greater, greater_equal, is_finite,
                                    is_inf, is_nan, less, less_equal, lgamma, log, log1p,
                                    logical_and, logical_not, logical_or, logical_xor,
                                    maximum, minimum, mod, multiply, negative, not_equal, pow,
                                    reciprocal, rint, round_ as round, rsqrt, saturate_cast,
                                    scalar_mul, sigmoid, sign, sin, sinh, sqrt, square,
                                    squared_difference, subtract, tan, tanh, to_bfloat16,
                                    to_complex64, to_complex128, to_double, to_float, to_int32,
                                    to_int64, truediv)
from tf1compat.ops.math_ops import floor_div, floor_mod as floormod, real_div as realdiv
from tf1compat.ops.math_ops import truncate_div as truncatediv
from tf1compat.ops.math_ops import truncate_mod as truncatemod
from tf1compat.ops.reduction_ops import (argmax, argmin, clip_by_norm, clip_by_value,
                                         count_nonzero, cumprod, cumsum, reduce_all,
                                         reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
                                         reduce_min, reduce_prod, reduce_sum, segment_max,
                                         segment_mean, segment_min, segment_prod, segment_sum,
                                         unsorted_segment_max, unsorted_segment_min,
                                         unsorted_segment_prod, unsorted_segment_sum)
from tf1compat.ops.reduction_ops import argmax as arg_max, argmin as arg_min

# -- ops: random (tf1compat/ops/random_ops.py) ------------------------------------------------------
from tf1compat.ops.random_ops import (multinomial, random_normal, random_shuffle,
                                      random_uniform, truncated_normal)

# -- ops: grouping (tf1compat/ops/control_flow_ops.py) ----------------------------------------------
from tf1compat.ops.control_flow_ops import group, no_op, tuple
from tf1compat.ops import grad_ops as _grad_ops  # TF's explicit gradient ops, for imported graphs
from tf1compat.ops import grad_ops_nn as _grad_ops_nn  # more of them, and TF 1.x-era ops
from tf1compat.ops import nn_conv_fused as _nn_conv_fused  # optimize_for_inference's
from tf1compat.ops import nn_conv_bias as _nn_conv_bias  # Conv2D + BiasAdd + Relu, one kernel
from tf1compat.ops import constant_push_down as _push_down  # Grappler's (X + Y) - C
from tf1compat.ops import grad_ops_sparse as _grad_ops_sparse  # sparse segment gradients
from tf1compat.ops import cudnn_rnn_ops as _cudnn_rnn_ops  # CudnnRNN(V2/V3) of TF graphs
from tf1compat.ops import legacy_ops as _legacy_ops  # op types of older TF versions
from tf1compat.ops import tensor_array_legacy as _tensor_array_legacy  # TF 1.0-era arrays
from tf1compat.ops import legacy_handle_ops as _legacy_handle_ops  # V1 lookup tables
from tf1compat.ops import io_ops_v1 as _io_ops_v1  # V1 checkpoint ops

# -- variables, scopes, initializers, collections (issue 3) -----------------------------------------
# (section: variables)
from tf1compat.ops.state_ops import (assign, assign_add, assign_sub, batch_scatter_update,
                                     count_up_to, scatter_add, scatter_div, scatter_max,
                                     scatter_min, scatter_mul, scatter_nd_add, scatter_nd_sub,
                                     scatter_nd_update, scatter_sub, scatter_update)
from tf1compat.variables.variables import (Variable, VariableAggregation,
                                           VariableSynchronization, variable_creator_scope)
from tf1compat.variables.collections import (all_variables, assert_variables_initialized,
                                             global_variables, global_variables_initializer,
                                             initialize_all_tables, initialize_all_variables,
                                             initialize_local_variables, initialize_variables,
                                             is_variable_initialized, local_variables,
                                             local_variables_initializer, model_variables,
                                             moving_average_variables,
                                             report_uninitialized_variables,
                                             tables_initializer, trainable_variables,
                                             variables_initializer)
from tf1compat.variables.partitioned import (create_partitioned_variables,
                                             fixed_size_partitioner,
                                             min_max_variable_partitioner,
                                             variable_axis_size_partitioner)
from tf1compat.variables.variable_scope import (AUTO_REUSE, VariableScope, get_local_variable,
                                                get_variable, get_variable_scope,
                                                no_regularizer, variable_op_scope,
                                                variable_scope)
from tf1compat.variables.templates import make_template
from tf1compat.variables.init_ops import (constant_initializer, glorot_normal_initializer,
                                          glorot_uniform_initializer, ones_initializer,
                                          orthogonal_initializer, random_normal_initializer,
                                          random_uniform_initializer,
                                          truncated_normal_initializer,
                                          uniform_unit_scaling_initializer,
                                          variance_scaling_initializer, zeros_initializer)
from tf1compat.api import initializers

# -- control flow: cond, while_loop, TensorArray, map_fn (issue 4) -----------------------------------
# (section: control flow)
from tf1compat.ops.check_ops import (assert_equal, assert_greater, assert_greater_equal,
                                     assert_integer, assert_less, assert_less_equal,
                                     assert_negative, assert_non_negative,
                                     assert_non_positive, assert_none_equal, assert_positive,
                                     assert_rank, assert_rank_at_least, assert_scalar,
                                     assert_type)
from tf1compat.ops.cond import case, cond, switch_case
from tf1compat.ops.functional_ops import foldl, foldr, map_fn, scan, vectorized_map
from tf1compat.ops.logging_ops import Assert, Print
from tf1compat.ops.print_ops import print_v2 as print
from tf1compat.ops.numerics_ops import (add_check_numerics_ops, assert_near,
                                        assert_proper_iterable, assert_rank_in,
                                        assert_same_float_dtype, check_numerics,
                                        is_non_decreasing, is_numeric_tensor,
                                        is_strictly_increasing, verify_tensor_all_finite)
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop

# -- gradients, py_func, custom gradients (issue 5) ----------------------------------------------------
# (section: gradients)
from tf1compat.autodiff.custom_gradient import (custom_gradient, grad_pass_through,
                                                recompute_grad)
from tf1compat.autodiff.gradients import (AggregationMethod, UnconnectedGradients, gradients,
                                          hessians)
from tf1compat.autodiff.registry import (NoGradient, NotDifferentiable, RegisterGradient,
                                         no_gradient)
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.ops.script_ops import numpy_function, py_func, py_function
from tf1compat.ops.clip_ops import clip_by_average_norm, clip_by_global_norm, global_norm
from tf1compat import losses
from tf1compat import metrics  # streaming metrics (tf.metrics)
from tf1compat.metrics.metrics_impl import confusion_matrix

# -- nn ops (issue 7) ------------------------------------------------------------------------------
# (section: nn)
from tf1compat.framework.sparse_tensor import (SparseTensor, SparseTensorValue,
                                               convert_to_tensor_or_sparse_tensor)
from tf1compat.ops.array_ops import sparse_placeholder
from tf1compat.ragged.ragged_tensor import RaggedTensor
from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
from tf1compat.api import ragged
from tf1compat.ops.nn_embedding import (dynamic_partition, dynamic_stitch, sparse_segment_mean,
                                        sparse_segment_sqrt_n, sparse_segment_sum)
from tf1compat.ops.nn_ops import log_sigmoid
from tf1compat.ops.sequence_ops import reverse_sequence
from tf1compat.ops.space_batch_ops import (batch_to_space, batch_to_space_nd, depth_to_space,
                                          required_space_to_batch_paddings, space_to_batch,
                                          space_to_batch_nd, space_to_depth)
from tf1compat.ops.sparse_ops import sparse_tensor_to_dense, sparse_to_dense
from tf1compat import layers, contrib

# -- linear algebra, sparse tensors, lookup tables, small math ----------------------------------
# (section: mathsparse)
from tf1compat.ops.linalg_decomp import (cholesky_solve, cross, matrix_solve_ls, norm,
                                         self_adjoint_eig, self_adjoint_eigvals, svd)
from tf1compat.ops.lookup_ops import TextFileIndex
from tf1compat.ops.math_extra import (bincount, fft, fft2d, fft3d, histogram_fixed_width,
                                      histogram_fixed_width_bins, ifft, ifft2d, ifft3d, imag,
                                      real, timestamp, unsorted_segment_mean,
                                      unsorted_segment_sqrt_n)
from tf1compat.ops.sparse_extra import (sparse_fill_empty_rows, sparse_maximum,
                                        sparse_minimum, sparse_slice, sparse_softmax,
                                        sparse_split)
from tf1compat.ops.sparse_math import (sparse_add, sparse_concat, sparse_reduce_max,
                                       sparse_reduce_max_sparse, sparse_reduce_sum,
                                       sparse_reduce_sum_sparse, sparse_reorder,
                                       sparse_reshape, sparse_retain,
                                       sparse_tensor_dense_matmul, sparse_transpose)
from tf1compat.api import lookup, sparse, spectral
from tf1compat.api import types  # tf.types.experimental.TensorLike (annotations)
from tf1compat import signal  # tf.signal (tf1compat/signal/)

# -- checkpoints (issue 6) -----------------------------------------------------------------------------
# (section: checkpoints)
from tf1compat.graphdef.graph_import import import_graph_def
from tf1compat.api import graph_util
from tf1compat.serialization.messages import (AttrValue, GraphDef, MetaGraphDef, NameAttrList,
                                              NodeDef)
from tf1compat.serialization.tensor_util import make_ndarray, make_tensor_proto
from tf1compat.ops.session_ops import (delete_session_tensor, get_session_handle,
                                        get_session_tensor)

# -- training loop: coordinator, session hooks, monitored sessions, SavedModel -------------------
# (section: training loop)
from tf1compat.serialization.messages import TensorInfo

# -- input pipelines: tf.data, TFRecords, parsing --------------------------------------------------
from tf1compat import data
from tf1compat.data.structure import SparseTensorSpec, TensorSpec
from tf1compat.data.type_specs import (IndexedSlicesSpec, NoneTensorSpec, OptionalSpec,
                                       TensorArraySpec, TypeSpec, type_spec_from_value)
from tf1compat.ops.decode_ops import decode_compressed, decode_csv, decode_raw, reduce_join
from tf1compat.ops.json_example_ops import decode_json_example
from tf1compat.ops.serialize_ops import parse_tensor, serialize_tensor
from tf1compat.ops.file_ops import matching_files, read_file, write_file
from tf1compat.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, SparseFeature,
                                       VarLenFeature, parse_example, parse_single_example)
from tf1compat.ops.parsing_sequence_ops import parse_single_sequence_example
from tf1compat.api import python_io
from tf1compat.ops.regex_ops import regex_replace
from tf1compat.ragged.ragged_string_ops import string_split
from tf1compat.ops.string_ops import (as_string, decode_base64, encode_base64, string_join,
                                      string_strip, string_to_hash_bucket,
                                      string_to_hash_bucket_fast, string_to_hash_bucket_strong,
                                      string_to_number, substr)
from tf1compat.api import strings

# -- queue-based input pipelines: queues, readers, accumulators (issue 16) ------------------------
# (section: queues)
from tf1compat.ops.queue_ops import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,
                                     RandomShuffleQueue)
from tf1compat.training.queue_runner import start_queue_runners
from tf1compat.data.reader_ops import (FixedLengthRecordReader, IdentityReader, ReaderBase,
                                       TextLineReader, TFRecordReader, WholeFileReader)
from tf1compat.ops.accumulator_ops import (ConditionalAccumulator, ConditionalAccumulatorBase,
                                           SparseConditionalAccumulator)
from tf1compat.ops.critical_section_ops import CriticalSection
from tf1compat.api import queue

# -- images: tf.image (tf1compat/ops/image_ops.py, image_resize.py) ----------------------------
from tf1compat.api import image
from tf1compat.ops.image_ops import extract_image_patches, random_crop

# -- math/array long tail, special functions (issue 12) -----------------------------------------
# (section: api-math)
from tf1compat.ops.manip_ops import (bitcast, diag, ensure_shape, guarantee_const, meshgrid,
                                     parallel_stack, repeat, roll, tensor_scatter_nd_add,
                                     tensor_scatter_nd_max, tensor_scatter_nd_min,
                                     tensor_scatter_nd_sub, tensor_scatter_nd_update)
from tf1compat.ops.manip_ops import (tensor_scatter_nd_add as tensor_scatter_add,
                                     tensor_scatter_nd_sub as tensor_scatter_sub,
                                     tensor_scatter_nd_update as tensor_scatter_update)
from tf1compat.ops.math_tail_ops import angle, approx_top_k, complex
from tf1compat.ops.string_unicode_ops import fingerprint
from tf1compat.ops.nn_conv_tail import (conv, conv2d_backprop_filter_v2,
                                        conv2d_backprop_input_v2, extract_volume_patches)
from tf1compat.ops.sparse_serialization_ops import (deserialize_many_sparse,
                                                     serialize_many_sparse, serialize_sparse)
from tf1compat.ops.sparse_tail import (edit_distance, sparse_mask, sparse_matmul, sparse_merge,
                                       sparse_reset_shape, sparse_to_indicator)
from tf1compat.signal.spectral_ops import fftnd, ifftnd, irfftnd, rfftnd
from tf1compat.ops.linalg_extra import matrix_square_root
from tf1compat.ops.random_extra_ops import random_gamma, random_poisson
from tf1compat.ops.stateful_random_ops import random_index_shuffle
from tf1compat.ops.sort_ops import (argsort, invert_permutation, searchsorted, setdiff1d,
                                    sort, unique_with_counts, unravel_index)
from tf1compat.ops.special_math_ops import (betainc, igamma, igammac, lbeta, polygamma,
                                            zeta)
from tf1compat.api import manip, quantization, sets
from tf1compat.ops.quantization_ops import (fake_quant_with_min_max_args,
                                            fake_quant_with_min_max_args_gradient,
                                            fake_quant_with_min_max_vars,
                                            fake_quant_with_min_max_vars_gradient,
                                            fake_quant_with_min_max_vars_per_channel,
                                            fake_quant_with_min_max_vars_per_channel_gradient)
from tf1compat import distributions  # tf.distributions (tf1compat/distributions/)

# -- eager execution (issue 8) ----------------------------------------------------------------------
# (section: eager)
from tf1compat.eager.context import enable_eager_execution
from tf1compat.eager.function import function
from tf1compat.eager.wrap_function import wrap_function
from tf1compat.autodiff.tape import GradientTape

# -- namespaces -----------------------------------------------------------------------------------
from tf1compat.api import compat, dtypes, errors
from tf1compat.api import math, random, bitwise, debugging, version, sysconfig
from tf1compat.api import audio
from tf1compat import linalg  # tf.linalg (tf1compat/linalg/)
from tf1compat.util import gfile, tf_logging as logging, nest
from tf1compat.util import app, flags
from tf1compat.api import test, io, nn, train
from tf1compat.api import saved_model
from tf1compat.api import autograph, config
from tf1compat.training.module import Module
from tf1compat.util.tf_logging import get_logger
from tf1compat.variables.variables import init_scope
from tf1compat.api import mixed_precision   # TF1 loss scaling: training/experimental/
from tf1compat.api import raw_ops     # generated from the op declarations: api/raw_ops.py
from tf1compat import keras, summary
from tf1compat.serialization.messages import (Event, HistogramProto, LogMessage, SessionLog,
                                              Summary, SummaryMetadata)

# -- estimators and feature columns (issue 14) ------------------------------------------------------
# (section: estimator)
from tf1compat import estimator, feature_column
from tf1compat.api import keras_estimator as _keras_estimator

keras.estimator = _keras_estimator    # tf.keras.estimator (estimator/keras_lib.py)

# -- tools: resource paths, call batching, the profiler (issue 12) -------------------------------------
# (section: apitools)
from tf1compat.api import resource_loader, profiler
from tf1compat.api import xla  # jit_scope, compile: ops/xla_scopes.py

# -- tf.distribute strategies (TF1 API; issues 14/19) -------------------------------------------
# (section: diststrat)
from tf1compat.api import distribute   # training/strategies/
from tf1compat.api import tpu   # bfloat16_scope, CrossShardOptimizer (use_tpu=False)
from tf1compat.ops.batch_ops import batch_function as nondifferentiable_batch_function

# -- drop-in installation (tf1compat/shim.py) --------------------------------------------------------
from tf1compat.shim import install, uninstall

# -- tf1compat's own tools: op coverage of a graph file (tf1compat/training/graph_support.py) ----
from tf1compat.training.graph_support import graph_support

import sys as _sys

compat.v1 = _sys.modules[__name__]
from tf1compat.api import compat_v2 as _compat_v2  # noqa: E402
compat.v2 = _compat_v2
from tf1compat.framework.hooks import PUBLIC_API as _PUBLIC_API  # noqa: E402
_PUBLIC_API["tf"] = _sys.modules[__name__]
del _sys, _PUBLIC_API

# torch is loaded now: its thread count follows the policy decided above.
_thread_policy.apply()

# A missing tf.X says whether X is an unimplemented TF1 symbol or a typo (with suggestions).
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("", globals())
