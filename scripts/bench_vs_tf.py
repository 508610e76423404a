"""Side-by-side speed of the same TF1 programs under real TensorFlow and tf1compat.

    python scripts/bench_vs_tf.py                     # every workload, idle machine
    python scripts/bench_vs_tf.py mlp lstm --rounds 5
    python scripts/bench_vs_tf.py autoencoder --load 2   # 2 busy-loop processes beside it
    python scripts/bench_vs_tf.py --list

Each workload is one TF1 program (a function of the `tf` module below) that builds a
graph and returns a step to time. Every measurement runs in a fresh child process, under
tf1compat (this interpreter) or under TensorFlow (`--tf-python`, default
/tmp/tf/bin/python, TF 2.x with `tf.compat.v1`; skipped when it does not exist). The two
sides alternate, round after round, so drift on a shared machine hits both; each side's
figure is the median over rounds of each child's median step time. The ratio printed
is TF's time / tf1compat's time: above 1, tf1compat is faster.

`--load N` starts N processes that spin on the CPU for the whole run (the "shared
machine" case: one per core makes every core busy) and stops them at the end.
`--threads` passes TF1COMPAT_THREADS to the tf1compat side (default: its auto policy).
`--variant LABEL:VAR=VALUE,...` (repeatable) runs the tf1compat side once per variant in
every round, each with those environment variables (e.g. `--variant default:
--variant passive:TF1COMPAT_WAIT_POLICY=passive,TF1COMPAT_FOLLOW_LOAD=0`), against the
same TF runs: policies compared within the same minutes. A variant whose PYTHONPATH holds
a `tf1compat` folder (a `git archive` of another commit) runs that code, and its row
names the folder. Each row ends with the
one-minute load average when it was printed (the busy loops included). `--cpu` adds
every child's CPU time and run-queue wait per step (the time its runnable threads
waited for a core, from /proc's schedstat): on a shared machine, wall = CPU + wait,
and the two tell a slower step from a smaller share of the cores.
tf1compat's hot-plan compilation is allowed to settle (up to `--settle` seconds of
warm-up runs) before timing, and its outcome is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TF_PYTHON = "/tmp/tf/bin/python"

Step = Callable[[], Any]


# -- workloads: f(tf, np) -> (step, steps_per_batch, unit) -----------------------------------

def w_tiny_run(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """Session.run of y = x * 2 + 1 on a fed [4] vector."""
    x = tf.placeholder(tf.float32, [4])
    y = x * 2.0 + 1.0
    sess = tf.Session()
    feed = {x: np.ones(4, np.float32)}
    return (lambda: sess.run(y, feed)), 200, "run"


def _chain(tf: Any, n: int) -> Tuple[Any, Any]:
    x = tf.placeholder(tf.float32, [64])
    h = x
    for i in range(n):
        h = tf.tanh(h) if i % 2 else h * 1.0001 + 0.0001
    return x, h


def w_chain500(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """500 small elementwise ops (one fed [64] vector) per run."""
    x, h = _chain(tf, 333)       # 333 steps of (mul, add) or tanh: 500 ops
    sess = tf.Session()
    feed = {x: np.ones(64, np.float32)}
    return (lambda: sess.run(h, feed)), 20, "run"


def w_grad100(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """tf.gradients of a 100-op chain, fetched each run."""
    x, h = _chain(tf, 67)
    g = tf.gradients(tf.reduce_sum(h), x)[0]
    sess = tf.Session()
    feed = {x: np.ones(64, np.float32)}
    return (lambda: sess.run(g, feed)), 20, "run"


def w_while(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """A 1000-iteration tf.while_loop with a 3-op body; time per iteration."""
    n = tf.placeholder(tf.int32, [])
    _, acc = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 0.999 + 1.0),
                           (tf.constant(0), tf.constant(0.0)))
    sess = tf.Session()
    return (lambda: sess.run(acc, {n: 1000})), 1, "1000 iterations"


def _mlp_step(tf: Any, np: Any, x: Any, y: Any, opt: Any) -> Any:
    h = tf.layers.dense(x, 256, tf.nn.relu)
    h = tf.layers.dense(h, 128, tf.nn.relu)
    logits = tf.layers.dense(h, 10)
    loss = tf.losses.softmax_cross_entropy(y, logits)
    return loss, opt.minimize(loss)


def _mnist_like(np: Any, n: int) -> Tuple[Any, Any]:
    rng = np.random.RandomState(0)
    return (rng.rand(n, 784).astype(np.float32),
            np.eye(10, dtype=np.float32)[rng.randint(0, 10, n)])


def w_mlp(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """784-256-128-10 MLP, Adam, batch 64: one training step."""
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    loss, train = _mlp_step(tf, np, x, y, tf.train.AdamOptimizer(1e-3))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    xs, ys = _mnist_like(np, 64)
    feed = {x: xs, y: ys}
    return (lambda: sess.run([loss, train], feed)), 10, "step"


def w_data_mlp(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """The MLP fed by tf.data (from_tensor_slices -> shuffle -> batch 64 -> repeat)."""
    xs, ys = _mnist_like(np, 4096)
    ds = tf.data.Dataset.from_tensor_slices((xs, ys)).shuffle(1024).batch(64).repeat()
    x, y = tf.data.make_one_shot_iterator(ds).get_next()
    loss, train = _mlp_step(tf, np, x, y, tf.train.AdamOptimizer(1e-3))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return (lambda: sess.run([loss, train])), 10, "step"


def w_cnn(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """MNIST-style CNN (conv5x5x32, pool, conv5x5x64, pool, dense 256), Adam, batch 32."""
    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    y = tf.placeholder(tf.float32, [None, 10])
    h = tf.layers.conv2d(x, 32, 5, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.conv2d(h, 64, 5, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.dense(tf.layers.flatten(h), 256, tf.nn.relu)
    logits = tf.layers.dense(h, 10)
    loss = tf.losses.softmax_cross_entropy(y, logits)
    train = tf.train.AdamOptimizer(1e-3).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    rng = np.random.RandomState(0)
    feed = {x: rng.rand(32, 28, 28, 1).astype(np.float32),
            y: np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)]}
    return (lambda: sess.run([loss, train], feed)), 3, "step"


def w_lstm(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """dynamic_rnn over BasicLSTMCell(128), 20 steps of [32, 32] inputs, Adam."""
    x = tf.placeholder(tf.float32, [32, 20, 32])
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(128), x, dtype=tf.float32)
    loss = tf.reduce_mean(tf.square(tf.layers.dense(out[:, -1], 1) - 1.0))
    train = tf.train.AdamOptimizer(1e-3).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {x: np.random.RandomState(0).randn(32, 20, 32).astype(np.float32)}
    return (lambda: sess.run([loss, train], feed)), 3, "step"


def w_unrolled_lstm(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """A character model: embedding, 2 BasicLSTMCell(32) layers statically unrolled 20
    steps (one cell call per step, variables reused), softmax loss, Adam on gradients
    clipped by their global norm; batch 10, the final state fed back each step."""
    vocab, units, steps, batch = 65, 32, 20, 10
    cell = tf.nn.rnn_cell.MultiRNNCell(
        [tf.nn.rnn_cell.BasicLSTMCell(units) for _ in range(2)], state_is_tuple=True)
    ids = tf.placeholder(tf.int32, [batch, steps])
    targets = tf.placeholder(tf.int32, [batch, steps])
    initial_state = cell.zero_state(batch, tf.float32)
    with tf.variable_scope("model"):
        softmax_w = tf.get_variable("softmax_w", [units, vocab])
        softmax_b = tf.get_variable("softmax_b", [vocab])
    embedding = tf.get_variable("embedding", [vocab, units])
    inputs = tf.split(tf.nn.embedding_lookup(embedding, ids), steps, 1)
    state, outputs = initial_state, []
    with tf.variable_scope("model"):
        for i, x in enumerate(inputs):
            if i:
                tf.get_variable_scope().reuse_variables()
            output, state = cell(tf.squeeze(x, [1]), state)
            outputs.append(output)
    logits = tf.matmul(tf.reshape(tf.concat(outputs, 1), [-1, units]), softmax_w) + softmax_b
    weights = tf.ones([batch * steps])
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.reshape(targets, [-1]), logits=logits) * weights
    cost = tf.reduce_sum(losses / (weights + 1e-12)) / batch / steps
    tvars = tf.trainable_variables()
    grads, _ = tf.clip_by_global_norm(tf.gradients(cost, tvars), 5.0)
    train = tf.train.AdamOptimizer(2e-3).apply_gradients(zip(grads, tvars))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    rng = np.random.RandomState(0)
    data = rng.randint(0, vocab, (batch, steps + 1)).astype(np.int32)
    feed = {ids: data[:, :-1], targets: data[:, 1:]}
    last = [sess.run(initial_state)]

    def step() -> None:
        for (c, h), value in zip(initial_state, last[0]):
            feed[c], feed[h] = value.c, value.h
        _, last[0], _ = sess.run([cost, state, train], feed)
    return step, 5, "step"


def w_summaries(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """The MLP step plus merged summaries (3 scalars, 6 weight histograms) written to an
    event file every step."""
    import tempfile
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    loss, train = _mlp_step(tf, np, x, y, tf.train.AdamOptimizer(1e-3))
    tf.summary.scalar("loss", loss)
    tf.summary.scalar("loss_x2", loss * 2.0)
    tf.summary.scalar("loss_sq", loss * loss)
    for v in tf.trainable_variables():
        tf.summary.histogram(v.op.name, v)
    merged = tf.summary.merge_all()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(tempfile.mkdtemp())
    xs, ys = _mnist_like(np, 64)
    feed = {x: xs, y: ys}
    count = [0]

    def step() -> None:
        s, _, _ = sess.run([merged, loss, train], feed)
        count[0] += 1
        writer.add_summary(s, count[0])
    return step, 5, "step"


def w_gcn(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """Two-layer GCN on a 2708-node graph with 13k edges (Cora's size): two
    sparse_tensor_dense_matmul per layer pass, Adam."""
    rng = np.random.RandomState(0)
    n, nnz, feats = 2708, 13264, 256
    idx = np.unique(rng.randint(0, n, (nnz, 2)), axis=0).astype(np.int64)
    adj = tf.SparseTensor(idx, rng.rand(len(idx)).astype(np.float32), [n, n])
    x = tf.constant(rng.rand(n, feats).astype(np.float32))
    labels = tf.constant(rng.randint(0, 7, n))
    w1 = tf.get_variable("w1", [feats, 16])
    w2 = tf.get_variable("w2", [16, 7])
    h = tf.nn.relu(tf.sparse_tensor_dense_matmul(adj, tf.matmul(x, w1)))
    logits = tf.sparse_tensor_dense_matmul(adj, tf.matmul(h, w2))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return (lambda: sess.run([loss, train])), 5, "step"


def w_gcn_cora(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """tkipf/gcn's train.py on Cora-sized random data (2708 nodes, 1433 binary features
    with 49k nonzeros fed as a sparse placeholder, 13k edges plus self loops): one epoch
    is a training run (sparse dropout, two GraphConvolution layers, masked softmax, weight
    decay, Adam) and a validation run."""
    rng = np.random.RandomState(0)
    n, feats, classes = 2708, 1433, 7

    def coo(indices: Any, shape: Tuple[int, int]) -> Tuple[Any, Any, Any]:
        indices = np.unique(indices, axis=0).astype(np.int64)   # row-major, as scipy's
        rows = np.bincount(indices[:, 0], minlength=shape[0]).astype(np.float32)
        return indices, (1.0 / rows[indices[:, 0]]).astype(np.float32), np.array(shape)
    features = coo(np.stack([rng.randint(0, n, 49216), rng.randint(0, feats, 49216)], 1),
                   (n, feats))
    edges = rng.randint(0, n, (5278, 2))
    support = coo(np.concatenate([edges, edges[:, ::-1], np.stack([np.arange(n)] * 2, 1)]),
                  (n, n))
    labels = np.eye(classes, dtype=np.float32)[rng.randint(0, classes, n)]
    train_mask, val_mask = np.zeros(n, bool), np.zeros(n, bool)
    train_mask[:140], val_mask[200:700] = True, True

    ph_support = tf.sparse_placeholder(tf.float32)
    ph_features = tf.sparse_placeholder(tf.float32, shape=tf.constant(features[2], tf.int64))
    ph_labels = tf.placeholder(tf.float32, [None, classes])
    ph_mask = tf.placeholder(tf.int32)
    ph_dropout = tf.placeholder_with_default(0., shape=())
    ph_nonzero = tf.placeholder(tf.int32)

    def glorot(shape: Tuple[int, int], name: str) -> Any:
        r = np.sqrt(6.0 / (shape[0] + shape[1]))
        return tf.Variable(tf.random_uniform(shape, minval=-r, maxval=r), name=name)

    def layer(x: Any, sparse: bool, shape: Tuple[int, int], act: Any) -> Tuple[Any, Any]:
        keep = 1 - ph_dropout
        if sparse:   # tkipf/gcn's sparse_dropout
            mask = tf.cast(tf.floor(keep + tf.random_uniform(ph_nonzero)), dtype=tf.bool)
            x = tf.sparse_retain(x, mask) * (1. / keep)
        else:
            x = tf.nn.dropout(x, keep)
        w = glorot(shape, "weights_0")
        pre = tf.sparse_tensor_dense_matmul(x, w) if sparse else tf.matmul(x, w)
        return act(tf.add_n([tf.sparse_tensor_dense_matmul(ph_support, pre)])), w

    h, w1 = layer(ph_features, True, (feats, 16), tf.nn.relu)
    out, _ = layer(h, False, (16, classes), lambda x: x)
    mask = tf.cast(ph_mask, tf.float32)
    mask /= tf.reduce_mean(mask)
    loss = 5e-4 * tf.nn.l2_loss(w1) + tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(logits=out, labels=ph_labels) * mask)
    correct = tf.cast(tf.equal(tf.argmax(out, 1), tf.argmax(ph_labels, 1)), tf.float32)
    accuracy = tf.reduce_mean(correct * mask)
    opt_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {ph_support: support, ph_features: features, ph_labels: labels,
            ph_nonzero: features[1].shape}
    train_feed = {**feed, ph_mask: train_mask, ph_dropout: 0.5}
    val_feed = {**feed, ph_mask: val_mask}

    def epoch() -> None:
        sess.run([opt_op, loss, accuracy], train_feed)
        sess.run([loss, accuracy], val_feed)
    return epoch, 5, "epoch"


def w_autoencoder(tf: Any, np: Any) -> Tuple[Step, int, str]:
    """784-256-128 autoencoder, RMSProp, batch 256 (the issue's shared-CPU case)."""
    x = tf.placeholder(tf.float32, [None, 784])
    h = tf.layers.dense(x, 256, tf.nn.sigmoid)
    code = tf.layers.dense(h, 128, tf.nn.sigmoid)
    h = tf.layers.dense(code, 256, tf.nn.sigmoid)
    out = tf.layers.dense(h, 784, tf.nn.sigmoid)
    loss = tf.reduce_mean(tf.square(out - x))
    train = tf.train.RMSPropOptimizer(0.01).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {x: np.random.RandomState(0).rand(256, 784).astype(np.float32)}
    return (lambda: sess.run([loss, train], feed)), 10, "step"


WORKLOADS: Dict[str, Callable[..., Tuple[Step, int, str]]] = {
    name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("w_")}


# -- helpers the other benchmark scripts share -----------------------------------------------

@contextlib.contextmanager
def recorded_sessions(tf: Any) -> Iterator[List[Any]]:
    """Within the block, `tf.Session` (either runtime's) also appends every session it
    makes to the list yielded, so their plans' hot-plan records can be read."""
    sessions: List[Any] = []
    original = tf.Session

    def recording(*args: Any, **kwargs: Any) -> Any:
        sess = original(*args, **kwargs)
        sessions.append(sess)
        return sess
    tf.Session = recording
    try:
        yield sessions
    finally:
        tf.Session = original


def hot_records(sessions: List[Any]) -> List[Any]:
    """The hot-plan records (runtime/hot_plans.py) of tf1compat sessions' plans."""
    return [p.hot for s in sessions for p in s._plans.values() if p.hot is not None]


def settle_hot_plans(step: Step, sessions: List[Any], seconds: float) -> None:
    """Runs `step` until no hot plan is counting, compiling or in its trial (at most
    `seconds`): timing starts at the steady state."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(r.status in ("counting", "compiling", "trial", "retrial")
                   for r in hot_records(sessions)):
            break
        step()


# -- the child: one workload under one runtime ------------------------------------------------

def run_queue_seconds() -> float:
    """Seconds this process's threads have spent runnable but waiting for a core
    (/proc/<pid>/task/*/schedstat's second field; 0 where the kernel does not say). On a
    busy machine a step's wall time is its CPU time plus this wait: which one grew tells
    a slower step from a smaller share of the cores."""
    total = 0
    for tid in os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else []:
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                total += int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue        # a thread that ended meanwhile, or no scheduler statistics
    return total / 1e9


def child(runtime: str, workload: str, batches: int, settle: float) -> Dict[str, Any]:
    import numpy as np
    if runtime == "tf":
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
    else:
        # A tf1compat on PYTHONPATH (a `git archive` of another commit, `--variant
        # old:PYTHONPATH=DIR`) is the one measured; ROOT's only where none is.
        if not any(os.path.isdir(os.path.join(p, "tf1compat"))
                   for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p):
            sys.path.insert(0, ROOT)
        import tf1compat as tf
    with recorded_sessions(tf) as sessions, tf.Graph().as_default():
        tf.set_random_seed(0)
        step, per_batch, unit = WORKLOADS[workload](tf, np)
        for _ in range(3):
            step()
        hot: List[Any] = []
        if runtime != "tf":
            settle_hot_plans(step, sessions, settle)
            hot = [(r.status, r.reason, round(r.compiled_us), round(r.op_by_op_us))
                   for r in hot_records(sessions) if r.runs > 1]
        samples = []
        cpu_start, waited_start = time.process_time(), run_queue_seconds()
        for _ in range(batches):
            start = time.perf_counter()
            for _ in range(per_batch):
                step()
            samples.append((time.perf_counter() - start) / per_batch)
        steps = batches * per_batch
        cpu = (time.process_time() - cpu_start) / steps
        waited = (run_queue_seconds() - waited_start) / steps
    result = {"seconds": statistics.median(samples), "unit": unit, "hot": hot, "cpu": cpu,
              "run_queue": waited}
    if runtime != "tf":
        import torch
        from tf1compat import _thread_policy
        result["threads"] = torch.get_num_threads()
        result["source"] = os.path.dirname(os.path.dirname(tf.__file__))
        result["thread_reason"] = _thread_policy.describe()["threads_reason"]
    return result


# -- the parent: alternate children, print the table -----------------------------------------

def _run_child(python: str, runtime: str, workload: str, batches: int, settle: float,
               env: Dict[str, str]) -> Optional[Dict[str, Any]]:
    cmd = [python, os.path.abspath(__file__), "--child", runtime, workload,
           "--batches", str(batches), "--settle", str(settle)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not lines:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        print(f"  {runtime} {workload} failed: {tail}", file=sys.stderr)
        return None
    return json.loads(lines[-1])


def _variants(specs: List[str], base: Dict[str, str]) -> Dict[str, Dict[str, str]]:
    """--variant LABEL:VAR=VALUE,... -> {label: environment}."""
    if not specs:
        return {"default": base}
    variants = {}
    for spec in specs:
        label, _, assignments = spec.partition(":")
        env = dict(base)
        for item in filter(None, assignments.split(",")):
            var, eq, value = item.partition("=")
            if not eq:
                raise SystemExit(f"--variant {spec!r}: expected VAR=VALUE, not {item!r}")
            env[var.strip()] = value.strip()
        variants[label or spec] = env
    return variants


def _cpu_text(pairs: List[Tuple[float, float]]) -> str:
    """Each child's CPU time and run-queue wait per step, in us: '1234+5678 / ...'."""
    return " / ".join(f"{cpu * 1e6:.0f}+{waited * 1e6:.0f}" for cpu, waited in pairs)


def _busy_loops(n: int, seconds: float) -> List[subprocess.Popen]:
    code = f"import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", help="names (substrings) to run; all if none")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--load", type=int, default=0,
                        help="busy-loop processes to run beside the benchmark")
    parser.add_argument("--threads", default="", help="TF1COMPAT_THREADS for tf1compat")
    parser.add_argument("--variant", action="append", default=[],
                        metavar="LABEL:VAR=VALUE,...",
                        help="a tf1compat environment to run (repeatable; default: one, "
                             "as is)")
    parser.add_argument("--settle", type=float, default=300.0,
                        help="seconds tf1compat may warm up for hot plans to compile")
    parser.add_argument("--cpu", action="store_true",
                        help="add each child's CPU time and run-queue wait per step "
                             "(CPU+wait, us) to the notes")
    parser.add_argument("--tf-python", default=DEFAULT_TF_PYTHON)
    parser.add_argument("--no-tf", action="store_true", help="tf1compat only")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("RUNTIME", "WORKLOAD"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.list:
        for name, fn in WORKLOADS.items():
            print(f"{name:12s} {fn.__doc__.splitlines()[0]}")
        return 0
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.batches, args.settle)))
        return 0
    # A workload's exact name selects it alone ("mlp" without "data_mlp").
    names = [n for n in WORKLOADS if not args.workloads or n in args.workloads or not any(
        w in WORKLOADS for w in args.workloads) and any(w in n for w in args.workloads)]
    with_tf = not args.no_tf and os.path.exists(args.tf_python)
    if not with_tf and not args.no_tf:
        print(f"(no TensorFlow at {args.tf_python}: tf1compat only)")
    base_env = dict(os.environ)
    tf_env = dict(base_env, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1",
                  CUDA_VISIBLE_DEVICES="")
    ours_env = dict(base_env)
    if args.threads:
        ours_env["TF1COMPAT_THREADS"] = args.threads
    variants = _variants(args.variant, ours_env)
    loops = _busy_loops(args.load, 24 * 3600) if args.load else []
    try:
        print(f"load: {args.load} busy-loop processes; cores: {os.cpu_count()}; "
              f"rounds: {args.rounds}")
        print(f"{'workload':12s} {'unit':16s} {'tf1compat':>12s} {'TF':>12s} {'TF/ours':>8s}"
              f"  notes")
        for name in names:
            ours: Dict[str, List[float]] = {label: [] for label in variants}
            theirs: List[float] = []
            # CPU seconds and run-queue waits per step, each side's children in order
            ours_cpu: Dict[str, List[Tuple[float, float]]] = {label: [] for label in variants}
            theirs_cpu: List[Tuple[float, float]] = []
            last: Dict[str, Dict[str, Any]] = {}
            for _ in range(args.rounds):
                for label, env in variants.items():
                    r = _run_child(sys.executable, "tf1compat", name, args.batches,
                                   args.settle, env)
                    if r:
                        ours[label].append(r["seconds"])
                        ours_cpu[label].append((r["cpu"], r["run_queue"]))
                        last[label] = r
                if with_tf:
                    r = _run_child(args.tf_python, "tf", name, args.batches, args.settle,
                                   tf_env)
                    if r:
                        theirs.append(r["seconds"])
                        theirs_cpu.append((r["cpu"], r["run_queue"]))
            t = statistics.median(theirs) if theirs else float("nan")
            for label, seconds in ours.items():
                if not seconds:
                    continue
                o = statistics.median(seconds)
                r = last[label]
                hot = [h for h in r.get("hot", []) if h[0] in ("compiled", "fallback")]
                notes = f"threads={r.get('threads')}"
                if len(variants) > 1:
                    source = "" if r.get("source") == ROOT else f" ({r.get('source')})"
                    notes = f"{label}{source}; {notes}"
                if hot:
                    notes += f"; plans: {hot}"
                if args.cpu:
                    notes += f"; cpu/run-queue per {r['unit']}: ours {_cpu_text(ours_cpu[label])}"
                    if theirs_cpu:
                        notes += f", TF {_cpu_text(theirs_cpu)}"
                notes += f"; load {os.getloadavg()[0]:.1f}"
                print(f"{name:12s} {r['unit']:16s} {o * 1e6:10.0f}us {t * 1e6:10.0f}us "
                      f"{t / o:7.2f}x  {notes}", flush=True)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
