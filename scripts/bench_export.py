"""Speed of an exported module against the Session and a hand-written torch model.

    python scripts/bench_export.py [--device cpu|cuda] [--threads N]

One training step (forward, backward, momentum update) of the CNN of
migration_examples/cnn_export_to_pytorch, batch 32: the TF1-style train op in a Session, the exported module with torch.optim, and the same network written by hand in
torch (NCHW). The machine may be shared: the three steps run in alternating rounds and
each side's best round is reported (its median step within the round), so a burst of load
hurts all three alike rather than one of them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Callable, Dict

import numpy as np
import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "migration_examples", "cnn_export_to_pytorch")


def _best_round_ms(steps: Dict[str, Callable[[], None]], rounds: int = 7,
                   repeats: int = 10) -> Dict[str, float]:
    """Each step's best (over alternating rounds) median time in milliseconds."""
    for step in steps.values():
        for _ in range(3):
            step()
    best = {name: float("inf") for name in steps}
    for _ in range(rounds):
        for name, step in steps.items():
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                step()
                times.append(time.perf_counter() - start)
            best[name] = min(best[name], 1000 * statistics.median(times))
    return best


class _TorchCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(256, 32)
        self.logits = nn.Linear(32, 10)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        t = nn.functional.max_pool2d(torch.relu(self.conv1(images)), 2)
        t = nn.functional.max_pool2d(torch.relu(self.conv2(t)), 2)
        return self.logits(torch.relu(self.fc(t.flatten(1))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--threads", type=int, default=0,
                        help="torch's CPU threads (default: torch's own choice)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    sys.path[:0] = [ROOT, EXAMPLE]
    import tf1compat
    tf1compat.install()
    import main as cnn
    import tensorflow as tf
    import tf1compat.export as tfx

    images, labels = cnn.batch(0)
    feed = {cnn.x: images, cnn.y: labels}
    # The graph has no device scopes: the Session places it on the GPU when there is one.
    sess = tf.Session(config=tf.ConfigProto(device_count={"GPU": 0})
                      if device.type == "cpu" else None)
    sess.run(tf.global_variables_initializer())

    def session_step() -> None:
        sess.run(cnn.train_op, feed)
        sync()

    module = tfx.to_module(cnn.loss, [cnn.x, cnn.y], session=sess, device=device)
    opt = torch.optim.SGD(module.parameters(), lr=0.02, momentum=0.9)
    x, y = torch.from_numpy(images).to(device), torch.from_numpy(labels).to(device)

    def module_step() -> None:
        opt.zero_grad()
        module(x, y).backward()
        opt.step()
        sync()

    model = _TorchCNN().to(device)
    opt2 = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    nchw = x.permute(0, 3, 1, 2).contiguous()

    def torch_step() -> None:
        opt2.zero_grad()
        nn.functional.cross_entropy(model(nchw), y).backward()
        opt2.step()
        sync()

    best = _best_round_ms({"Session train op": session_step,
                           "exported module + optim": module_step,
                           "hand-written torch model": torch_step})
    where = (torch.cuda.get_device_name() if device.type == "cuda" else
             f"CPU, {torch.get_num_threads()} threads")
    print(f"one training step, batch 32, {where}, torch {torch.__version__}:")
    for name, ms in best.items():
        print(f"  {name:26s} {ms:8.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
