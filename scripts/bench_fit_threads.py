"""Keras `fit`'s training step at one and two threads, alternately, in one process.

Measures what a second core buys the benchmark model of `scripts/bench_keras.py`
(784-512-512-10, Adam, batch 128): `train_on_batch` op by op (`TF1COMPAT_COMPILE=off`,
the thread count switched with `torch.set_num_threads` between blocks of steps, so both
counts see the same load), wall clock and process CPU per step, best and median of the
rounds. Run with `TF1COMPAT_THREADS=1` so the tuner leaves the counts alone; the large
products then follow the caller's count unless `TF1COMPAT_PRODUCT_THREADS=N` fixes
theirs (ops/_onednn_matmul.py).

    TF1COMPAT_THREADS=1 python scripts/bench_fit_threads.py --rounds 6
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

STEPS = 40      # steps per timed block
SETTLE = 5      # untimed steps after each switch of the count (wake-ups, caches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    os.environ.setdefault("TF1COMPAT_COMPILE", "off")
    # tf1compat before torch: the thread policy is decided on import
    import tf1compat as tf  # noqa: I001
    import torch
    tf.disable_v2_behavior()
    layers = tf.keras.layers
    rng = np.random.RandomState(0)
    x = rng.rand(128, 784).astype(np.float32)
    y = rng.randint(0, 10, 128)
    model = tf.keras.Sequential([layers.Dense(512, activation="relu", input_shape=(784,)),
                                 layers.Dense(512, activation="relu"),
                                 layers.Dense(10, activation="softmax")])
    model.compile(tf.keras.optimizers.Adam(0.001), "sparse_categorical_crossentropy")
    for _ in range(20):
        model.train_on_batch(x, y)
    times: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for n, rows in times.items():
            torch.set_num_threads(n)
            for _ in range(SETTLE):
                model.train_on_batch(x, y)
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(STEPS):
                model.train_on_batch(x, y)
            rows.append(((time.perf_counter() - wall) / STEPS,
                         (time.process_time() - cpu) / STEPS))
    print(f"load average {os.getloadavg()[0]:.2f}")
    for n, rows in times.items():
        walls = sorted(w for w, _ in rows)
        cpus = sorted(c for _, c in rows)
        print(f"{n} thread(s): wall best {walls[0] * 1e3:.2f} median "
              f"{walls[len(walls) // 2] * 1e3:.2f} ms; process CPU best {cpus[0] * 1e3:.2f} "
              f"median {cpus[len(cpus) // 2] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
