"""The clustering ops behind k-means (TF's gen_clustering_ops): KmeansPlusPlusInitialization,
KMC2ChainInitialization and NearestNeighbors.

The two initialization kernels draw from TF's SimplePhilox: a Philox4x32-10 stream with
key `seed` and counter 0, consumed one uint32 word at a time (a uniform float takes one
word, a 64-bit uniform integer two: low then high). With the same seed they choose the same
points as TF. Distances are computed in float32 the way TF's kernels arrange them (half
squared norms minus inner products), so ties and rounding fall the same way.

The k-means graph builder (`tf.contrib.factorization.KMeans`, estimator/canned/kmeans_graph.py)
builds its graph from these ops.
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._philox import PhiloxWords

__all__ = ["kmeans_plus_plus_initialization", "kmc2_chain_initialization",
           "nearest_neighbors"]

_FLOAT_ONE_BITS = np.uint32(0x3F800000)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _host(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x.detach().cpu().numpy()


def _scalar(x: np.ndarray, what: str) -> int:
    if x.ndim != 0:
        raise _invalid(f"Input {what} should be a scalar.")
    return int(x)


class _SimplePhilox:
    """TF's random::SimplePhilox over PhiloxRandom(seed): one word per draw."""

    def __init__(self, seed: int):
        self._next = PhiloxWords(seed, 0)

    def rand_float(self) -> np.float32:
        """A float32 in [0, 1) from the low 23 bits of one word (TF's Uint32ToFloat)."""
        bits = np.uint32(self._next() & 0x7FFFFF) | _FLOAT_ONE_BITS
        return bits.view(np.float32) - np.float32(1.0)

    def uniform64(self, n: int) -> int:
        low = self._next()
        high = self._next()
        return (low | (high << 32)) % n


# -- KmeansPlusPlusInitialization ------------------------------------------------------------

def _half_squared_distances(points: np.ndarray, half_norms: np.ndarray, i: int) -> np.ndarray:
    """Half the squared distance of every point to point i, as TF's kernel forms it."""
    return (half_norms - points @ points[i]) + half_norms[i]


def _kmeans_plus_plus(points: np.ndarray, num_to_sample: int, seed: int,
                      retries: int) -> np.ndarray:
    """k-means++ seeding: each new center is drawn with probability proportional to the
    (half squared) distance to the nearest chosen center; with retries, the best of
    1 + retries draws (least total distance) is kept."""
    n = points.shape[0]
    half_norms = (np.float32(0.5) * np.einsum("ij,ij->i", points, points)).astype(np.float32)
    rng = _SimplePhilox(seed)
    chosen: set = set()
    min_distances = np.full(n, np.inf, dtype=np.float32)
    cumsum = np.zeros(n, dtype=np.float32)

    def draw() -> int:
        if not chosen:
            return rng.uniform64(n)
        while True:
            total = cumsum[n - 1]
            if not total > 0:
                # All distances zero or NaN: TF falls back to a uniform draw.
                index = rng.uniform64(n)
            else:
                index = int(np.searchsorted(cumsum, rng.rand_float() * total, side="right"))
                index = min(index, n - 1)
            if index not in chosen:
                return index

    out = np.empty((num_to_sample, points.shape[1]), dtype=np.float32)
    for k in range(num_to_sample):
        if k > 0:
            np.cumsum(min_distances, dtype=np.float32, out=cumsum)
        best_index, best_potential, best_distances = 0, np.float32(np.inf), None
        for _ in range(1 + retries):
            index = draw()
            distances = np.minimum(min_distances,
                                   _half_squared_distances(points, half_norms, index))
            potential = distances.sum(dtype=np.float32)
            if retries == 0 or potential < best_potential:
                best_index, best_potential, best_distances = index, potential, distances
        min_distances = best_distances if best_distances is not None else min_distances
        index = min(best_index, n - 1)
        out[k] = points[index]
        chosen.add(index)
    return out


def _kmeans_plus_plus_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def kmeans_plus_plus_initialization(points: Any, num_to_sample: Any, seed: Any,
                                        retries: Any) -> torch.Tensor:
        values = _host(points)
        if values.ndim != 2:
            raise _invalid("Input points should be a matrix.")
        count = _scalar(_host(num_to_sample), "num_to_sample")
        seed_value = _scalar(_host(seed), "seed")
        retry_value = _scalar(_host(retries), "num_retries_per_sample")
        if retry_value < 0:
            # TF's heuristic: O(log(num_to_sample)) extra draws.
            retry_value = 2 + int(math.log(count)) if count > 0 else 2
        n = values.shape[0]
        if n <= 0:
            raise _invalid("Expected points.rows() > 0.")
        if count <= 0:
            raise _invalid("Expected num_to_sample > 0.")
        if count > n:
            raise _invalid(f"Expected num_to_sample <= points.rows(). {count} vs {n}.")
        sampled = _kmeans_plus_plus(np.ascontiguousarray(values, dtype=np.float32), count,
                                    seed_value, retry_value)
        device = points.device if isinstance(points, torch.Tensor) else kctx.device
        return torch.from_numpy(sampled).to(device)
    return kmeans_plus_plus_initialization


def _unknown_shape(ctx: Any) -> List[TensorShape]:
    # TF leaves the sampled points' and the neighbors' shapes unknown.
    return [TensorShape(None)] * (2 if ctx.op_type == "NearestNeighbors" else 1)


declare("KmeansPlusPlusInitialization",
        inputs=["points: float32", "num_to_sample: int64", "seed: int64",
                "num_retries_per_sample: int64"],
        outputs=["samples: float32"], shape=_unknown_shape, kernel=_kmeans_plus_plus_kernel,
        grad="unregistered", cpu_only=True)


# -- KMC2ChainInitialization -----------------------------------------------------------------

def _kmc2_chain(distances: np.ndarray, seed: int) -> int:
    """One Markov chain of k-MC2: candidate i replaces the current state with probability
    min(1, d_i / d_current)."""
    rng = _SimplePhilox(seed)
    selected, selected_distance = 0, distances[0]
    for i in range(1, distances.shape[0]):
        candidate = distances[i]
        if candidate > rng.rand_float() * selected_distance:
            selected, selected_distance = i, candidate
    return selected


def _kmc2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def kmc2_chain_initialization(distances: Any, seed: Any) -> torch.Tensor:
        values = _host(distances)
        if values.ndim != 1:
            raise _invalid("Input distances should be a vector.")
        seed_value = _scalar(_host(seed), "seed")
        if values.shape[0] <= 0:
            raise _invalid("Expected distances_tensor.size() > 0.")
        index = _kmc2_chain(values.astype(np.float32), seed_value)
        return torch.tensor(index, dtype=torch.int64, device=kctx.device)
    return kmc2_chain_initialization


declare("KMC2ChainInitialization", inputs=["distances: float32", "seed: int64"],
        outputs=["index: int64"], shape=lambda ctx: [TensorShape([])], kernel=_kmc2_kernel,
        grad="unregistered", cpu_only=True)


# -- NearestNeighbors ------------------------------------------------------------------------

def _nearest_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def nearest_neighbors(points: torch.Tensor, centers: torch.Tensor,
                          k: Any) -> Tuple[torch.Tensor, torch.Tensor]:
        if points.dim() != 2:
            raise _invalid("Input points should be a matrix.")
        if centers.dim() != 2:
            raise _invalid("Input centers should be a matrix.")
        k_value = _scalar(_host(k), "k")
        n, dims = points.shape
        if n <= 0:
            raise _invalid("Expected points.rows() > 0.")
        if dims != centers.shape[1]:
            raise _invalid(f"Expected point_dimensions == center_dimensions: {dims} vs "
                           f"{centers.shape[1]}.")
        if k_value < 0:
            raise _invalid("Expected k >= 0.")
        k_value = min(k_value, centers.shape[0])
        # TF's kernel: 2 * (|p|^2/2 + min_j (|c_j|^2/2 - <p, c_j>)); not clamped at 0.
        point_half = 0.5 * (points * points).sum(dim=1, keepdim=True)
        center_half = 0.5 * (centers * centers).sum(dim=1)
        partial = center_half.unsqueeze(0) - points @ centers.transpose(0, 1)
        if k_value == 1:
            best, index = partial.min(dim=1, keepdim=True)   # first minimum, as Eigen's
        else:
            # Ties go to the lower center index, as TF's (distance, index) ordering.
            best, index = torch.sort(partial, dim=1, stable=True)
            best, index = best[:, :k_value], index[:, :k_value]
        return index.to(torch.int64), 2.0 * (point_half + best)
    return nearest_neighbors


declare("NearestNeighbors", inputs=["points: float32", "centers: float32", "k: int64"],
        outputs=["nearest_center_indices: int64", "nearest_center_distances: float32"],
        shape=_unknown_shape, kernel=_nearest_kernel, grad="unregistered")


# -- gen_clustering_ops wrappers -------------------------------------------------------------

def kmeans_plus_plus_initialization(points: Any, num_to_sample: Any, seed: Any,
                                    num_retries_per_sample: Any,
                                    name: Optional[str] = None) -> Tensor:
    """Selects `num_to_sample` rows of `points` as k-means++ initial centers."""
    return apply_op1("KmeansPlusPlusInitialization",
                     [points, num_to_sample, seed, num_retries_per_sample], {}, name=name)


def kmc2_chain_initialization(distances: Any, seed: Any, name: Optional[str] = None) -> Tensor:
    """The index of the point one k-MC2 Markov chain over `distances` ends on."""
    return apply_op1("KMC2ChainInitialization", [distances, seed], {}, name=name)


def nearest_neighbors(points: Any, centers: Any, k: Any,
                      name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """(indices, squared distances) of the `k` centers nearest to each point."""
    op = apply_op("NearestNeighbors", [points, centers, k], {}, name=name)
    return op.outputs[0], op.outputs[1]
