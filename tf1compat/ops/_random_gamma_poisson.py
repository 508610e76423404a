"""TF's CPU gamma and Poisson samplers (RandomGamma, RandomPoissonV2 and their stateless
forms), bit for bit, vectorised over outputs.

Both kernels give output i (alpha- or rate-major: i = a * samples_per_alpha + s) its
own Philox generator: the op's generator skipped ahead by 256 * i blocks. Output i
then draws blocks one at a time, as its rejection loop needs them:

* gamma (Marsaglia and Tsang, in double precision): a normal block gives two doubles
  (Box-Muller), a uniform block two doubles; each cache is read from its last element
  down. alpha == 1 is an exponential, -log1p(-u); alpha < 1 boosts alpha by one and
  scales the result by u^(1/alpha) with one more uniform.
* Poisson: rate < 10 by Knuth's product of uniforms; larger rates by Hormann's
  transformed rejection (PTRS); +inf rates give +inf.

The loops here run all pending outputs together: each pass advances every output by
one step of its own loop, so the blocks each draws are exactly the ones TF's loop reads.
Math library calls go through `_glibc_math` (TF calls glibc's log, log1p, pow, exp,
lgamma).
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

from tf1compat.ops import _glibc_math as libm
from tf1compat.ops import _philox as philox
from tf1compat.ops._random_stream import _box_muller_double, _unit_double

__all__ = ["gamma", "poisson", "OUTPUT_STRIDE"]

OUTPUT_STRIDE = 256                 # blocks reserved per output


class _Draws:
    """Per-output block cursors and two-double caches (TF's `*_remaining` counters)."""

    def __init__(self, key: int, start: int, outputs: np.ndarray):
        self.key, self.start = key, start
        self.next_block = outputs.astype(np.uint64) * np.uint64(OUTPUT_STRIDE)
        n = len(outputs)
        self.normal = np.zeros((n, 2))
        self.normal_left = np.zeros(n, dtype=np.int64)
        self.uniform = np.zeros((n, 2))
        self.uniform_left = np.zeros(n, dtype=np.int64)

    def _blocks(self, rows: np.ndarray) -> np.ndarray:
        blocks = philox.blocks_at(self.key, self.start, self.next_block[rows])
        self.next_block[rows] += np.uint64(1)
        return blocks

    def take_normal(self, rows: np.ndarray) -> np.ndarray:
        empty = rows[self.normal_left[rows] == 0]
        if len(empty):
            sin, cos = _box_muller_double(self._blocks(empty))
            self.normal[empty, 0], self.normal[empty, 1] = sin, cos
            self.normal_left[empty] = 2
        self.normal_left[rows] -= 1
        return self.normal[rows, self.normal_left[rows]]

    def take_uniform(self, rows: np.ndarray) -> np.ndarray:
        empty = rows[self.uniform_left[rows] == 0]
        if len(empty):
            w = self._blocks(empty)
            self.uniform[empty, 0] = _unit_double(w[:, 0], w[:, 1])
            self.uniform[empty, 1] = _unit_double(w[:, 2], w[:, 3])
            self.uniform_left[empty] = 2
        self.uniform_left[rows] -= 1
        return self.uniform[rows, self.uniform_left[rows]]


def _outputs(values: np.ndarray, samples_per_value: int) -> Tuple[np.ndarray, np.ndarray]:
    """(parameter of each output, output index), outputs in TF's parameter-major order."""
    count = len(values) * samples_per_value
    return np.repeat(values, samples_per_value), np.arange(count, dtype=np.int64)


def gamma(key: int, start: int, alphas: np.ndarray, samples_per_alpha: int) -> np.ndarray:
    """Standard gamma samples as float64, shaped (samples_per_alpha, len(alphas))."""
    alphas = np.asarray(alphas, dtype=np.float64).reshape(-1)
    alpha, index = _outputs(alphas, samples_per_alpha)
    out = np.zeros(len(alpha))
    draws = _Draws(key, start, index)

    exponential = np.nonzero(alpha == 1.0)[0]
    if len(exponential):
        out[exponential] = -libm.log1p(-draws.take_uniform(exponential))

    boost = alpha < 1.0
    d = alpha + np.where(boost, 2.0 / 3, -1.0 / 3)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = (1.0 / 3) / np.sqrt(d)
    pending = np.nonzero(alpha != 1.0)[0]
    while len(pending):
        x = draws.take_normal(pending)
        v = 1.0 + c[pending] * x
        positive = v > 0                               # else: draw another normal
        rows, x, v = pending[positive], x[positive], v[positive]
        v = v * v * v
        u = draws.take_uniform(rows)
        squeeze = u < 1.0 - 0.0331 * (x * x) * (x * x)
        accept = squeeze.copy()
        slow = ~squeeze
        if slow.any():
            dv = d[rows[slow]]
            with np.errstate(divide="ignore", invalid="ignore"):
                accept[slow] = libm.log(u[slow]) < 0.5 * x[slow] * x[slow] + dv * (
                    1.0 - v[slow] + libm.log(v[slow]))
        done = rows[accept]
        result = d[done] * v[accept]
        boosted = boost[done]
        if boosted.any():
            b = draws.take_uniform(done[boosted])
            result[boosted] *= libm.pow(b, 1.0 / alpha[done[boosted]])
        out[done] = result
        finished = np.zeros(len(alpha), dtype=bool)
        finished[done] = True
        pending = pending[~finished[pending]]
    return out.reshape(len(alphas), samples_per_alpha).T


def poisson(key: int, start: int, rates: np.ndarray, samples_per_rate: int,
            highest: float) -> np.ndarray:
    """Poisson samples as float64 counts, shaped (samples_per_rate, len(rates));
    `highest` is the output dtype's largest value (Knuth's loop stops counting there)."""
    rates = np.asarray(rates, dtype=np.float64).reshape(-1)
    rate, index = _outputs(rates, samples_per_rate)
    out = np.zeros(len(rate))
    draws = _Draws(key, start, index)

    small = np.nonzero(rate < 10.0)[0]
    if len(small):
        limit = libm.exp(-rate[small])
        product = np.ones(len(small))
        count = np.zeros(len(small))
        live = np.arange(len(small))
        while len(live):
            product[live] = product[live] * draws.take_uniform(small[live])
            stop = (product[live] <= limit[live]) & (count[live] <= highest)
            out[small[live[stop]]] = count[live[stop]]
            live = live[~stop]
            count[live] += 1.0

    infinite = np.nonzero(np.isinf(rate) & (rate > 0))[0]
    out[infinite] = np.inf

    large = np.nonzero((rate >= 10.0) & ~(np.isinf(rate) & (rate > 0)))[0]
    if len(large):
        lam = rate[large]
        log_rate = libm.log(lam)
        b = 0.931 + 2.53 * np.sqrt(lam)
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        live = np.arange(len(large))
        while len(live):
            rows = large[live]
            u = draws.take_uniform(rows) - 0.5
            v = draws.take_uniform(rows)
            u_shifted = 0.5 - np.abs(u)
            k = np.floor((2.0 * a[live] / u_shifted + b[live]) * u + lam[live] + 0.43)
            quick = (k >= 0) & (u_shifted >= 0.07) & (v <= 0.9277 - 3.6224 / (b[live] - 2.0))
            rest = (k >= 0) & ~quick & ~((u_shifted < 0.013) & (v > u_shifted))
            accept = quick.copy()
            if rest.any():
                li = live[rest]
                with np.errstate(divide="ignore", invalid="ignore"):
                    s = libm.log(v[rest] * inv_alpha[li] /
                                 (a[li] / (u_shifted[rest] * u_shifted[rest]) + b[li]))
                    t = -lam[li] + k[rest] * log_rate[li] - libm.lgamma(k[rest] + 1.0)
                accept[rest] = s <= t
            out[large[live[accept]]] = k[accept]
            live = live[~accept]
    return out.reshape(len(rates), samples_per_rate).T
