"""Benchmark: Saver save/restore of a 100M-parameter model vs safetensors.torch.

    /tmp/venv/bin/python scripts/bench_checkpoint.py [--params 100e6] [--rounds 3]

`bench_checkpoint()` builds a graph of float32 variables holding `params` values in total
(ten equal variables), fills them with random data, and times, best of `rounds`
interleaved rounds:

* `saver_save`: `tf.train.Saver.save` (Session.run of SaveV2: TF's layout, `<prefix>.index`
  and a data shard that is a safetensors file, per-tensor CRC-32C, atomic writes, state
  file; no .meta),
* `saver_restore`: `Saver.restore` (RestoreV2 reading every tensor and checking its
  CRC-32C, then the Assign ops into the session),
* `saver_save_unverified` / `saver_restore_unverified`: the same with
  TF1COMPAT_CHECKPOINT_VERIFY=0 (checksums are still written — TF checks them — but not
  checked on restore, where values stay mapped from the data file, as safetensors' own
  load does),
* `st_save` / `st_load`: `safetensors.torch.save_file` / `load_file` on the same torch
  tensors (`load_file` maps the file lazily, reading nothing), `st_save_fsync`:
  `save_file` plus an fsync (the durability Saver's atomic write includes), `st_load_read`:
  `load_file` plus reading every byte (a clone), the fair peer of a verified restore,

and reports `save_ratio` (saver_save / st_save), `restore_ratio` (saver_restore /
st_load_read), `save_ratio_unverified` and `restore_ratio_unverified_vs_lazy_load`
(against the lazy `load_file`: that one is fixed Session.run overhead, a few ms); the
target is 1.5x. The OS page cache is warm for every read (both sides
read a file written just before).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Dict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _best(fn: Any, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_checkpoint(params: float = 100e6, rounds: int = 3, variables: int = 10,
                     directory: str = None) -> Dict[str, Any]:
    """Times Saver save/restore against safetensors.torch on `params` float32 values."""
    import numpy as np
    import torch
    from safetensors.torch import load_file, save_file

    import tf1compat as tf

    per_var = int(params) // variables
    rows = 1000
    cols = per_var // rows
    tmp = directory or tempfile.mkdtemp(prefix="bench_ckpt_")
    try:
        graph = tf.Graph()
        with graph.as_default():
            vs = [tf.get_variable(f"layer_{i}/kernel", [rows, cols],
                                  initializer=tf.zeros_initializer()) for i in range(variables)]
            saver = tf.train.Saver(max_to_keep=1)
            sess = tf.Session(graph=graph)
            rng = np.random.RandomState(0)
            for v in vs:
                v.load(rng.standard_normal((rows, cols)).astype(np.float32), sess)
        tensors = {v.op.name: sess._runtime.state[v.op.name] for v in vs}
        total = sum(t.numel() for t in tensors.values())
        prefix = os.path.join(tmp, "model")
        st_path = os.path.join(tmp, "reference.safetensors")

        from tf1compat.ops import io_ops

        def with_checksums(verify: bool, fn: Any) -> Any:
            def run() -> None:
                io_ops.VERIFY_CHECKSUMS = verify
                try:
                    fn()
                finally:
                    io_ops.VERIFY_CHECKSUMS = True
            return run

        def load_and_read() -> None:
            for t in load_file(st_path).values():
                t.clone()

        def save() -> None:
            saver.save(sess, prefix, write_meta_graph=False)

        def restore() -> None:
            saver.restore(sess, prefix)

        def st_save_durable() -> None:
            save_file(tensors, st_path)
            fd = os.open(st_path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

        steps = {"saver_save": save,
                 "st_save": lambda: save_file(tensors, st_path),
                 "st_save_fsync": st_save_durable,
                 "saver_restore": restore,
                 "st_load_read": load_and_read,
                 "saver_save_unverified": with_checksums(False, save),
                 "saver_restore_unverified": with_checksums(False, restore),
                 "st_load": lambda: load_file(st_path)}
        times: Dict[str, float] = {k: float("inf") for k in steps}
        for _ in range(rounds):   # interleaved, so both sides see the same machine state
            for key, step in steps.items():
                times[key] = min(times[key], _best(step, 1))
        restored = sess._runtime.state[vs[0].op.name]
        assert torch.equal(restored, tensors[vs[0].op.name])
        sess.close()
        result = {"params": int(total), "bytes": int(total) * 4, **times,
                  "save_ratio": times["saver_save"] / times["st_save"],
                  "save_ratio_vs_fsynced": times["saver_save"] / times["st_save_fsync"],
                  "restore_ratio": times["saver_restore"] / times["st_load_read"],
                  "save_ratio_unverified": times["saver_save_unverified"] / times["st_save"],
                  "restore_ratio_unverified_vs_lazy_load":
                      times["saver_restore_unverified"] / times["st_load"]}
        result["within_1_5x"] = result["save_ratio"] <= 1.5 and result["restore_ratio"] <= 1.5
        return result
    finally:
        if directory is None:
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--params", type=float, default=100e6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    result = bench_checkpoint(args.params, args.rounds)
    for key, value in result.items():
        print(f"{key:>15}: {value:.4f}" if isinstance(value, float) else f"{key:>15}: {value}")


if __name__ == "__main__":
    main()
