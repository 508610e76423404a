"""Peak memory and gradients of gradient-checkpointing's `memory_saving_gradients` under
tf1compat, against plain `tf.gradients` (docs/performance.md, "Gradient checkpointing").

    python scripts/bench_gradient_checkpointing.py --repo /path/to/gradient-checkpointing \
        [--chain 32] [--every 8] [--resnet [--batch 16]]

`--repo` is a checkout of github.com/cybertronai/gradient-checkpointing (its
memory_saving_gradients.py needs the `toposort` package). The chain is N (mul, tanh) steps
on a 1 MB float vector with a checkpoint every `--every` steps; `--resnet` also runs the
project's CIFAR ResNet-8 (test/resnet_model.py, batch `--batch`) with
`checkpoints='speed'`. Peak
memory is what torch's profiler sees allocated during one `Session.run` of the gradient.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np


def peak_run(sess, fetch) -> tuple:
    """(`sess.run(fetch)`, the peak of the bytes torch's profiler saw allocated during
    it); tests/test_contrib_graph_editor.py measures with it too."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        value = sess.run(fetch)
    events = sorted((e.start_ns(), e.nbytes()) for e in prof.profiler.kineto_results.events()
                    if e.name() == "[memory]")
    current = peak = 0
    for _, nbytes in events:
        current += nbytes
        peak = max(peak, current)
    return value, peak


def chain(tf, n: int):
    x = tf.Variable(np.linspace(-1, 1, 250000).astype(np.float32), name="x")
    h, nodes = x, []
    for i in range(n):
        h = tf.tanh(h * 1.01, name="a%02d" % i)
        nodes.append(h)
    return tf.reduce_sum(h), [x], nodes


def cifar_resnet(tf, repo: str, batch: int):
    sys.path.insert(0, os.path.join(repo, "test"))
    import resnet_model
    tf.set_random_seed(1)
    images = tf.random_uniform((batch, 32, 32, 3), seed=1)
    labels = tf.one_hot(np.arange(batch) % 10, 10)
    network = resnet_model.tiny_cifar10_resnet_v2_generator(8, 10,
                                                           data_format="channels_last")
    logits = network(images, True)
    loss = tf.losses.softmax_cross_entropy(logits=logits, onehot_labels=labels)
    return loss, tf.trainable_variables(), None


def measure(tf, build, gradients, label: str) -> list:
    results = []
    for kind in ("tf.gradients", "checkpointed"):
        tf.reset_default_graph()
        loss, xs, nodes = build()
        grads = tf.gradients(loss, xs) if kind == "tf.gradients" else gradients(loss, xs,
                                                                                 nodes)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(grads)
            values, peak = peak_run(sess, grads)
        results.append(values)
        print(f"{label}: {kind:13s} peak {peak / 1e6:7.1f} MB")
    diff = max(float(np.abs(a - b).max()) for a, b in zip(*results))
    scale = max(float(np.abs(a).max()) for a in results[0])
    print(f"{label}: max |difference| {diff:.3g} (max |gradient| {scale:.3g})")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--chain", type=int, default=32)
    parser.add_argument("--every", type=int, default=8)
    parser.add_argument("--resnet", action="store_true")
    parser.add_argument("--batch", type=int, default=16)
    args = parser.parse_args()
    import tf1compat
    tf1compat.install()
    sys.path.insert(0, args.repo)
    import tensorflow as tf
    import memory_saving_gradients as msg

    measure(tf, lambda: chain(tf, args.chain),
            lambda loss, xs, nodes: msg.gradients(
                loss, xs, checkpoints=nodes[args.every - 1::args.every][:-1]),
            f"chain of {args.chain}")
    if args.resnet:
        measure(tf, lambda: cifar_resnet(tf, args.repo, args.batch),
                lambda loss, xs, _: msg.gradients(loss, xs, checkpoints="speed"),
                f"CIFAR ResNet-8 batch {args.batch}, 'speed'")


if __name__ == "__main__":
    main()
