"""Op rows: stateless random ops (V1 seeds and V2 key/counter/alg), gamma/Poisson/binomial
samplers, index shuffles, Sobol sequences and the RNG state ops (seeded: tf1compat
reproduces TF's Philox streams, so values compare exactly)."""

import numpy as np

from tests.golden.op_harness import ResVar, err, pos, row

_SHAPE = np.array([3, 4], np.int32)
_SEED = np.array([7, 3], np.int64)
_KEY = np.array([11], np.uint64)
_COUNTER = np.array([5, 0], np.uint64)
_PHILOX = np.int32(1)

ROWS = [
    row("StatelessRandomUniform", shape=_SHAPE, seed=_SEED),
    row("StatelessRandomUniform", shape=_SHAPE, seed=np.array([1, 2], np.int32),
        dtype="float64"),
    row("StatelessRandomNormal", shape=_SHAPE, seed=_SEED),
    row("StatelessTruncatedNormal", shape=_SHAPE, seed=_SEED),
    row("StatelessRandomUniformFullInt", shape=_SHAPE, seed=_SEED, dtype="int64"),
    row("StatelessRandomUniformInt", shape=_SHAPE, seed=_SEED, minval=np.int32(-3),
        maxval=np.int32(9)),
    err("StatelessRandomUniformInt", shape=_SHAPE, seed=_SEED, minval=np.int32(5),
        maxval=np.int32(5)),
    row("StatelessMultinomial", logits=np.log(np.array([[0.1, 0.6, 0.3]], np.float32)),
        num_samples=np.int32(6), seed=_SEED),
    row("StatelessRandomUniformV2", shape=_SHAPE, key=_KEY, counter=_COUNTER, alg=_PHILOX),
    row("StatelessRandomNormalV2", shape=_SHAPE, key=_KEY, counter=_COUNTER, alg=_PHILOX),
    row("StatelessTruncatedNormalV2", shape=_SHAPE, key=_KEY, counter=_COUNTER,
        alg=_PHILOX, dtype="float64"),
    row("StatelessRandomUniformFullIntV2", shape=_SHAPE, key=_KEY, counter=_COUNTER,
        alg=_PHILOX, dtype="int32"),
    row("StatelessRandomUniformIntV2", shape=_SHAPE, key=_KEY, counter=_COUNTER,
        alg=_PHILOX, minval=np.int64(-10), maxval=np.int64(100)),
    row("StatelessRandomGetKeyCounter", seed=_SEED),
    row("StatelessRandomGetKeyCounterAlg", seed=_SEED),
    row("StatelessRandomGetAlg"),
    row("StatelessRandomGammaV2", shape=_SHAPE, seed=_SEED,
        alpha=np.array([0.5, 1.0, 2.0, 5.0], np.float32), with_grad=False),
    row("StatelessRandomGammaV3", shape=_SHAPE, key=_KEY, counter=_COUNTER, alg=_PHILOX,
        alpha=np.array([0.5, 1.0, 2.0, 5.0], np.float32), with_grad=False),
    row("StatelessRandomPoisson", shape=_SHAPE, seed=_SEED,
        lam=np.array([0.5, 2.0, 10.0, 40.0], np.float32), dtype="int32"),
    row("StatelessRandomBinomial", shape=_SHAPE, seed=_SEED,
        counts=np.array([1.0, 5.0, 20.0, 100.0], np.float32),
        probs=np.array([0.1, 0.5, 0.7, 0.9], np.float32)),
    # By distribution: tf1compat's samples are not TF's stream for this op.
    row("StatelessParameterizedTruncatedNormal", shape=np.array([4000], np.int32),
        seed=_SEED, means=np.float32(0.5), stddevs=np.float32(2.0),
        minvals=np.float32(-1.0), maxvals=np.float32(3.0), check="stats", atol=0.1),
    row("StatelessShuffle", value=np.arange(10, dtype=np.int32), key=_KEY, counter=_COUNTER,
        alg=_PHILOX),
    row("RandomGamma", shape=np.array([5], np.int32),
        alpha=np.array([0.5, 3.0], np.float32), seed=7, seed2=3, with_grad=False),
    row("RandomGammaGrad", alpha=pos(2, 3), sample=pos(2, 3, seed=1), rtol=1e-4, atol=1e-5),
    row("RandomPoissonV2", shape=np.array([5], np.int32),
        rate=np.array([0.5, 4.0, 30.0], np.float32), seed=7, seed2=3),
    row("RandomIndexShuffle", index=np.arange(6, dtype=np.int64),
        seed=np.array([1, 2, 3], np.int64), max_index=np.int64(9)),
    row("NonDeterministicInts", shape=np.array([2, 3], np.int64), check="shape"),
    row("SobolSample", dim=np.int32(3), num_results=np.int32(5), skip=np.int32(2)),
    row("SobolSample", dim=np.int32(2), num_results=np.int32(4), skip=np.int32(0),
        dtype="float64"),
    row("RngReadAndSkip", resource=ResVar(np.array([1, 2, 3], np.int64)), alg=_PHILOX,
        delta=np.uint64(10)),
    row("StatefulRandomBinomial", resource=ResVar(np.array([4, 0, 9], np.int64)),
        algorithm=np.int64(1), shape=np.array([2, 3], np.int32),
        counts=np.float32(10.0), probs=np.float32(0.3)),
    err("StatelessRandomUniform", shape=_SHAPE, seed=np.array([1, 2, 3], np.int64)),
    row("StatelessRandomUniform", shape=np.array([0], np.int32), seed=_SEED, label="empty"),
    row("StatelessRandomNormal", shape=np.array([4], np.int64), seed=_SEED,
        dtype="float16"),
]
