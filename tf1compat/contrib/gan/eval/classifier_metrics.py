"""Classifier-based GAN metrics (TF 1.14's classifier_metrics_impl.py): the classifier
(Inception) score, the Frechet distance of classifier activations (full, mean-only and
diagonal-only) and the kernel (KID) distance, each on logits/activations or through a
user `classifier_fn` mapped over `num_batches` splits of the images. The Inception
variants need TF's frozen Inception graph, which TF downloads from `INCEPTION_URL`;
tf1compat downloads nothing: pass `graph_def` (e.g. from get_graph_def_from_disk) or use
the classifier_* functions with your own classifier."""

from __future__ import annotations

import functools
import os
import tarfile
from typing import Any, Callable, Optional, Sequence, Tuple, Union

from tf1compat.contrib.layers.layers import flatten
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.graphdef.graph_import import import_graph_def
from tf1compat.ops.array_ops import concat, expand_dims, shape, split, squeeze, stack, \
    unstack
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import fill, range as tf_range, zeros
from tf1compat.framework.constant_op import constant
from tf1compat.ops.functional_ops import map_fn
from tf1compat.ops.image_ops import resize_bilinear
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.linalg_decomp import svd
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.manip_ops import diag
from tf1compat.ops.math_ops import cast, ceil, exp, less, less_equal, log, maximum, \
    multiply, sqrt, square, squared_difference
from tf1compat.ops.matrix_ops import trace
from tf1compat.ops.nn_norm import moments
from tf1compat.ops.nn_ops import log_softmax, softmax
from tf1compat.ops.reduction_ops import cumsum, reduce_mean, reduce_sum
from tf1compat.serialization.protos.graph_pb2 import GraphDef
from tf1compat.util.gfile import GFile

__all__ = ["get_graph_def_from_disk", "get_graph_def_from_resource",
           "get_graph_def_from_url_tarball", "preprocess_image", "run_image_classifier",
           "run_inception", "inception_score", "classifier_score",
           "classifier_score_from_logits", "frechet_inception_distance",
           "frechet_classifier_distance", "frechet_classifier_distance_from_activations",
           "mean_only_frechet_classifier_distance_from_activations",
           "diagonal_only_frechet_classifier_distance_from_activations",
           "kernel_inception_distance", "kernel_inception_distance_and_std",
           "kernel_classifier_distance", "kernel_classifier_distance_and_std",
           "kernel_classifier_distance_from_activations",
           "kernel_classifier_distance_and_std_from_activations",
           "INCEPTION_DEFAULT_IMAGE_SIZE"]

INCEPTION_URL = "http://download.tensorflow.org/models/frozen_inception_v1_2015_12_05.tar.gz"
INCEPTION_FROZEN_GRAPH = "inceptionv1_for_inception_score.pb"
INCEPTION_INPUT = "Mul:0"
INCEPTION_OUTPUT = "logits:0"
INCEPTION_FINAL_POOL = "pool_3:0"
INCEPTION_DEFAULT_IMAGE_SIZE = 299


def _symmetric_matrix_square_root(mat: Any, eps: float = 1e-10) -> Any:
    """sqrt of a symmetric PSD matrix through its SVD (singular values below eps kept
    as they are)."""
    s, u, v = svd(mat)
    si = where(less(s, eps), s, sqrt(s))
    return matmul(matmul(u, diag(si)), v, transpose_b=True)


def preprocess_image(images: Any, height: int = INCEPTION_DEFAULT_IMAGE_SIZE,
                     width: int = INCEPTION_DEFAULT_IMAGE_SIZE,
                     scope: Optional[str] = None) -> Any:
    """Images (one [h, w, c] or a batch) resized bilinearly to height x width and mapped
    from [0, 255] to [-1, 1], as the Inception graph expects."""
    is_single = images.shape.ndims == 3
    with name_scope(scope, "preprocess", [images, height, width]):
        if not images.dtype.is_floating:
            images = cast(images, dtypes.float32)
        if is_single:
            images = expand_dims(images, axis=0)
        resized = (resize_bilinear(images, [height, width]) - 128.0) / 128.0
        if is_single:
            resized = squeeze(resized, axis=0)
        return resized


def get_graph_def_from_disk(filename: str) -> GraphDef:
    """A GraphDef parsed from a binary file."""
    with GFile(filename, "rb") as f:
        return GraphDef.FromString(f.read())


def get_graph_def_from_resource(filename: str) -> GraphDef:
    """TF reads a GraphDef bundled in TensorFlow's package data; tf1compat bundles none."""
    raise NotImplementedError(
        "tf.contrib.gan.eval.get_graph_def_from_resource reads a graph shipped inside "
        f"TensorFlow's package ({filename!r}); tf1compat ships none: use "
        "get_graph_def_from_disk")


def get_graph_def_from_url_tarball(url: str, filename: str,
                                   tar_filename: Optional[str] = None) -> GraphDef:
    """The GraphDef `filename` inside the .tar.gz `tar_filename`, which must already be
    on disk: tf1compat does not download `url`."""
    if not (tar_filename and os.path.exists(tar_filename)):
        raise NotImplementedError(
            f"tf.contrib.gan.eval.get_graph_def_from_url_tarball: tf1compat does not "
            f"download {url}; download it and pass its path as tar_filename")
    with tarfile.open(tar_filename, "r:gz") as tar:
        return GraphDef.FromString(tar.extractfile(filename).read())


def _default_graph_def_fn() -> GraphDef:
    tar_filename = os.path.basename(INCEPTION_URL)
    if not os.path.exists(tar_filename):
        raise NotImplementedError(
            f"The Inception metrics of tf.contrib.gan.eval need TF's frozen Inception v1 "
            f"graph ({INCEPTION_FROZEN_GRAPH} in {INCEPTION_URL}), which TF downloads and "
            f"tf1compat does not: put {tar_filename} in the working directory, pass "
            f"graph_def=get_graph_def_from_disk(...), or use the classifier_* metrics "
            f"with your own classifier_fn")
    return get_graph_def_from_url_tarball(INCEPTION_URL, INCEPTION_FROZEN_GRAPH,
                                          tar_filename)


def run_image_classifier(tensor: Any, graph_def: GraphDef, input_tensor: str,
                         output_tensor: Union[str, Sequence[str]],
                         scope: str = "RunClassifier") -> Any:
    """The classifier in `graph_def` imported under `scope` with `tensor` in place of
    `input_tensor`; returns its `output_tensor` (a name or a list of names)."""
    single = isinstance(output_tensor, str)
    outputs = import_graph_def(graph_def, {input_tensor: tensor},
                               [output_tensor] if single else output_tensor, name=scope)
    return outputs[0] if single else outputs


def run_inception(images: Any, graph_def: Optional[GraphDef] = None,
                  default_graph_def_fn: Optional[Callable[[], GraphDef]] =
                  _default_graph_def_fn,
                  image_size: int = INCEPTION_DEFAULT_IMAGE_SIZE,
                  input_tensor: str = INCEPTION_INPUT,
                  output_tensor: Union[str, Sequence[str]] = INCEPTION_OUTPUT) -> Any:
    """The Inception graph's `output_tensor` (flattened to 2-D) on images of
    image_size x image_size (already preprocessed)."""
    images = convert_to_tensor(images)
    images.shape.with_rank(4)
    images.shape.assert_is_compatible_with([None, image_size, image_size, None])
    if graph_def is None:
        if default_graph_def_fn is None:
            raise ValueError("If `graph_def` is `None`, must provide "
                             "`default_graph_def_fn`.")
        graph_def = default_graph_def_fn()
    activations = run_image_classifier(images, graph_def, input_tensor, output_tensor)
    # TF compares a rank tensor with 2, which is never equal in graph mode: it always
    # flattens.
    if isinstance(activations, list):
        return [flatten(a) for a in activations]
    return flatten(activations)


def _run_classifier(images: Any, classifier_fn: Callable[[Any], Any],
                    num_batches: int) -> Any:
    """classifier_fn mapped (map_fn 'RunClassifier', no backprop) over `num_batches`
    equal splits of `images`, the results concatenated again."""
    batches = stack(split(images, num_or_size_splits=num_batches))
    outputs = map_fn(fn=classifier_fn, elems=batches, parallel_iterations=1,
                     back_prop=False, swap_memory=True, name="RunClassifier")
    return concat(unstack(outputs), 0)


def classifier_score(images: Any, classifier_fn: Callable[[Any], Any],
                     num_batches: int = 1) -> Any:
    """classifier_score_from_logits of `classifier_fn` run on the images."""
    return classifier_score_from_logits(_run_classifier(images, classifier_fn, num_batches))


def _kl_divergence(p: Any, p_logits: Any, q: Any) -> Any:
    for t in (p, p_logits, q):
        if not t.dtype.is_floating:
            raise ValueError("Input %s must be floating type.", t.name)
    p.shape.assert_has_rank(2)
    p_logits.shape.assert_has_rank(2)
    q.shape.assert_has_rank(1)
    return reduce_sum(p * (log_softmax(p_logits) - log(q)), axis=1)


def _to_float64(*tensors: Any) -> Tuple[Any, ...]:
    return tuple(cast(t, dtypes.float64) if t.dtype != dtypes.float64 else t
                 for t in tensors)


def _back(value: Any, dtype: Any) -> Any:
    return cast(value, dtype) if dtype != dtypes.float64 else value


def classifier_score_from_logits(logits: Any) -> Any:
    """exp(E_x KL(p(y|x) || p(y))) of [batch, classes] logits (computed in float64)."""
    logits.shape.assert_has_rank(2)
    dtype = logits.dtype
    (logits,) = _to_float64(logits)
    p = softmax(logits)
    q = reduce_mean(p, axis=0)
    kl = _kl_divergence(p, logits, q)
    kl.shape.assert_has_rank(1)
    return _back(exp(reduce_mean(kl)), dtype)


def trace_sqrt_product(sigma: Any, sigma_v: Any) -> Any:
    """trace(sqrt(sigma sigma_v)), as trace(sqrt(A sigma_v A)) with A = sqrt(sigma)."""
    sqrt_sigma = _symmetric_matrix_square_root(sigma)
    return trace(_symmetric_matrix_square_root(matmul(sqrt_sigma, matmul(sigma_v,
                                                                         sqrt_sigma))))


def frechet_classifier_distance(real_images: Any, generated_images: Any,
                                classifier_fn: Callable[[Any], Any],
                                num_batches: int = 1) -> Any:
    """frechet_classifier_distance_from_activations of `classifier_fn` on both sets."""
    real = _run_classifier(real_images, classifier_fn, num_batches)
    generated = _run_classifier(generated_images, classifier_fn, num_batches)
    return frechet_classifier_distance_from_activations(real, generated)


def _check_activations(real: Any, generated: Any) -> None:
    real.shape.assert_has_rank(2)
    generated.shape.assert_has_rank(2)


def mean_only_frechet_classifier_distance_from_activations(real_activations: Any,
                                                           generated_activations: Any) -> Any:
    """|mean(real) - mean(generated)|^2."""
    _check_activations(real_activations, generated_activations)
    dtype = real_activations.dtype
    real, gen = _to_float64(real_activations, generated_activations)
    return _back(reduce_sum(squared_difference(reduce_mean(real, 0), reduce_mean(gen, 0))),
                 dtype)


def diagonal_only_frechet_classifier_distance_from_activations(
        real_activations: Any, generated_activations: Any) -> Any:
    """The Frechet distance with diagonal covariances (per-feature variances)."""
    _check_activations(real_activations, generated_activations)
    dtype = real_activations.dtype
    real, gen = _to_float64(real_activations, generated_activations)
    m, var = moments(real, axes=[0])
    m_w, var_w = moments(gen, axes=[0])
    if var.get_shape() != m.get_shape():
        raise ValueError(f"shape: {var.get_shape()} must match expected shape: "
                         f"{m.get_shape()}")
    trace_part = reduce_sum((var + var_w) - 2.0 * sqrt(multiply(var, var_w)))
    return _back(trace_part + reduce_sum(squared_difference(m, m_w)), dtype)


def frechet_classifier_distance_from_activations(real_activations: Any,
                                                 generated_activations: Any) -> Any:
    """|m - m_w|^2 + Tr(C + C_w - 2 sqrt(C C_w)) of the activations' means and sample
    covariances (float64 inside)."""
    _check_activations(real_activations, generated_activations)
    dtype = real_activations.dtype
    real, gen = _to_float64(real_activations, generated_activations)
    m, m_w = reduce_mean(real, 0), reduce_mean(gen, 0)
    n_real = cast(shape(real)[0], dtypes.float64)
    n_gen = cast(shape(gen)[0], dtypes.float64)
    real_centered, gen_centered = real - m, gen - m_w
    sigma = matmul(real_centered, real_centered, transpose_a=True) / (n_real - 1)
    sigma_w = matmul(gen_centered, gen_centered, transpose_a=True) / (n_gen - 1)
    trace_part = trace(sigma + sigma_w) - 2.0 * trace_sqrt_product(sigma, sigma_w)
    return _back(trace_part + reduce_sum(squared_difference(m, m_w)), dtype)


def kernel_classifier_distance(real_images: Any, generated_images: Any,
                               classifier_fn: Callable[[Any], Any],
                               num_classifier_batches: int = 1, max_block_size: int = 1024,
                               dtype: Any = None) -> Any:
    """The KID estimate of kernel_classifier_distance_and_std."""
    return kernel_classifier_distance_and_std(
        real_images, generated_images, classifier_fn,
        num_classifier_batches=num_classifier_batches, max_block_size=max_block_size,
        dtype=dtype)[0]


def kernel_classifier_distance_and_std(real_images: Any, generated_images: Any,
                                       classifier_fn: Callable[[Any], Any],
                                       num_classifier_batches: int = 1,
                                       max_block_size: int = 1024,
                                       dtype: Any = None) -> Tuple[Any, Any]:
    """kernel_classifier_distance_and_std_from_activations of `classifier_fn`."""
    real = _run_classifier(real_images, classifier_fn, num_classifier_batches)
    generated = _run_classifier(generated_images, classifier_fn, num_classifier_batches)
    return kernel_classifier_distance_and_std_from_activations(real, generated,
                                                               max_block_size, dtype)


def kernel_classifier_distance_from_activations(real_activations: Any,
                                                generated_activations: Any,
                                                max_block_size: int = 1024,
                                                dtype: Any = None) -> Any:
    """The KID estimate of kernel_classifier_distance_and_std_from_activations."""
    return kernel_classifier_distance_and_std_from_activations(
        real_activations, generated_activations, max_block_size, dtype)[0]


def _block_bounds(n: Any, n_blocks: Any) -> Any:
    """Start indices of n_blocks nearly equal blocks of n rows (the larger ones last)."""
    v = n // n_blocks
    n_plusone = n - v * n_blocks
    sizes = concat([fill([n_blocks - n_plusone], v), fill([n_plusone], v + 1)], 0)
    return concat([zeros([1], dtype=dtypes.int32), cumsum(sizes)], 0)


def kernel_classifier_distance_and_std_from_activations(
        real_activations: Any, generated_activations: Any, max_block_size: int = 1024,
        dtype: Any = None) -> Tuple[Any, Any]:
    """Kernel Inception Distance: the unbiased MMD^2 with the cubic polynomial kernel
    (x.y / d + 1)^3, averaged over blocks of at most `max_block_size` rows, and its
    standard error over the blocks (NaN for a single block)."""
    real_activations.shape.assert_has_rank(2)
    generated_activations.shape.assert_has_rank(2)
    real_activations.shape[1].assert_is_compatible_with(generated_activations.shape[1])
    if dtype is None:
        dtype = real_activations.dtype
        assert generated_activations.dtype == dtype
    else:
        real_activations = cast(real_activations, dtype)
        generated_activations = cast(generated_activations, dtype)
    n_r, n_g = shape(real_activations)[0], shape(generated_activations)[0]
    n_blocks = cast(ceil(maximum(n_r, n_g) / max_block_size), dtypes.int32)
    inds_r, inds_g = _block_bounds(n_r, n_blocks), _block_bounds(n_g, n_blocks)
    dim = cast(real_activations.shape[1], dtype)

    def block_estimate(i: Any) -> Any:
        r_s, r_e = inds_r[i], inds_r[i + 1]
        g_s, g_e = inds_g[i], inds_g[i + 1]
        r, g = real_activations[r_s:r_e], generated_activations[g_s:g_e]
        m, n = cast(r_e - r_s, dtype), cast(g_e - g_s, dtype)
        k_rr = (matmul(r, r, transpose_b=True) / dim + 1) ** 3
        k_rg = (matmul(r, g, transpose_b=True) / dim + 1) ** 3
        k_gg = (matmul(g, g, transpose_b=True) / dim + 1) ** 3
        return (-2 * reduce_mean(k_rg)
                + (reduce_sum(k_rr) - trace(k_rr)) / (m * (m - 1))
                + (reduce_sum(k_gg) - trace(k_gg)) / (n * (n - 1)))
    estimates = map_fn(block_estimate, tf_range(n_blocks), dtype=dtype, back_prop=False)
    mean = reduce_mean(estimates)
    blocks = cast(n_blocks, dtype)
    var = cond(less_equal(n_blocks, 1), lambda: constant(float("nan"), dtype=dtype),
               lambda: reduce_sum(square(estimates - mean)) / (blocks - 1))
    return mean, sqrt(var / blocks)


inception_score = functools.partial(
    classifier_score, classifier_fn=functools.partial(run_inception,
                                                      output_tensor=INCEPTION_OUTPUT))
frechet_inception_distance = functools.partial(
    frechet_classifier_distance,
    classifier_fn=functools.partial(run_inception, output_tensor=INCEPTION_FINAL_POOL))
kernel_inception_distance = functools.partial(
    kernel_classifier_distance,
    classifier_fn=functools.partial(run_inception, output_tensor=INCEPTION_FINAL_POOL))
kernel_inception_distance_and_std = functools.partial(
    kernel_classifier_distance_and_std,
    classifier_fn=functools.partial(run_inception, output_tensor=INCEPTION_FINAL_POOL))
