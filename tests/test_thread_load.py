"""The automatic thread count follows the machine's load (tf1compat/_machine_load.py,
`_thread_policy.load_threads`, the thread tuner's cap, the oneDNN products' count).

The load source is faked throughout: this machine is shared, so its real load would
decide the counts; nothing here is timed.
"""

import threading

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat import _machine_load, _thread_policy
from tf1compat.ops import _onednn_matmul
from tf1compat.runtime import thread_tuner


# -- _machine_load: the reading and the decision ---------------------------------------------

@pytest.mark.parametrize("cores,others,want", [
    (2, None, 2),        # unknown load: every core
    (2, 0.0, 2),
    (2, 0.3, 2),         # a shell or an editor: still ours
    (2, 0.5, 1),
    (2, 1.4, 1),
    (2, 6.0, 1),         # never fewer than one
    (16, 3.5, 12),
    (16, 0.2, 16),
    (1, 0.0, 1),
])
def test_threads_beside_other_processes(cores, others, want):
    assert _machine_load.threads_beside(cores, others) == want


_STAT = """cpu  100 10 50 1000 20 0 5 15 7 0
cpu0 60 5 30 400 10 0 3 10 7 0
cpu1 40 5 20 600 10 0 2 5 0 0
intr 12345
"""


def test_read_proc_stat_sums_the_affinity_set(tmp_path):
    path = tmp_path / "stat"
    path.write_text(_STAT)
    hz = _machine_load._TICKS_PER_SECOND
    # busy = user nice system irq softirq steal; guest (already in user) left out.
    assert _machine_load.read_proc_stat(None, str(path)) == (180 / hz, 1200 / hz)
    assert _machine_load.read_proc_stat([0], str(path)) == (108 / hz, 518 / hz)
    assert _machine_load.read_proc_stat([1], str(path)) == (72 / hz, 682 / hz)
    assert _machine_load.read_proc_stat([5], str(path)) is None
    assert _machine_load.read_proc_stat(None, str(tmp_path / "missing")) is None
    path.write_text("cpu  1 2 x\n")
    assert _machine_load.read_proc_stat(None, str(path)) is None


def test_read_proc_stat_on_this_machine():
    reading = _machine_load.read_proc_stat()
    if reading is None:
        pytest.skip("no /proc/stat")
    busy, total = reading
    assert 0 <= busy <= total


def test_runnable_others_averages_procs_running(tmp_path):
    path = tmp_path / "stat"
    path.write_text(_STAT + "procs_running 3\nprocs_blocked 0\n")
    alone = lambda: 1    # noqa: E731 - only the calling thread runs in this process
    assert _machine_load.runnable_others(4, 0.0, str(path), alone) == 2.0   # less the caller
    path.write_text(_STAT + "procs_running 1\n")
    assert _machine_load.runnable_others(4, 0.0, str(path), alone) == 0.0
    path.write_text(_STAT)
    assert _machine_load.runnable_others(4, 0.0, str(path), alone) is None
    assert _machine_load.runnable_others(2, 0.0, str(tmp_path / "missing"), alone) is None


def test_runnable_others_leaves_out_this_process_s_own_threads(tmp_path):
    """numpy imported before tf1compat leaves its BLAS pool spinning for a moment: those
    threads are this process's, not other processes' load."""
    path = tmp_path / "stat"
    path.write_text(_STAT + "procs_running 3\n")
    assert _machine_load.runnable_others(4, 0.0, str(path), lambda: 3) == 0.0
    assert _machine_load.runnable_others(4, 0.0, str(path), lambda: 2) == 1.0


def test_own_runnable_threads_counts_a_spinning_thread(tmp_path):
    stop = threading.Event()
    a = torch.rand(256, 256)

    def spin():
        # Products release the GIL, so this thread stays runnable while the caller reads.
        while not stop.is_set():
            a @ a
    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        counts = [_machine_load.own_runnable_threads() for _ in range(200)]
    finally:
        stop.set()
        spinner.join()
    assert max(counts) >= 2 and min(counts) >= 1      # the caller and the spinner
    task = tmp_path / "task" / "7"
    task.mkdir(parents=True)
    (task / "stat").write_bytes(b"7 (a) b (c)) R 1 7")
    assert _machine_load.own_runnable_threads(str(tmp_path / "task")) == 1
    (task / "stat").write_bytes(b"7 (python) S 1 7")
    assert _machine_load.own_runnable_threads(str(tmp_path / "task")) == 1   # never 0
    assert _machine_load.own_runnable_threads(str(tmp_path / "missing")) == 1


class FakeMachine:
    """Processor time as /proc/stat and time.process_time would report it."""

    def __init__(self, cores):
        self.cores = cores
        self.busy = self.total = self.own = 0.0
        self.reads = 0

    def advance(self, seconds, others, own=0.0):
        """`seconds` of wall-clock time with other processes using `others` cores and
        this process `own`."""
        self.total += seconds * self.cores
        self.busy += seconds * min(self.cores, others + own)
        self.own += seconds * own

    def read(self):
        self.reads += 1
        return self.busy, self.total


def test_others_load_subtracts_this_processs_own_cpu():
    machine = FakeMachine(2)
    load = _machine_load.OthersLoad([0, 1], read=machine.read, own_cpu=lambda: machine.own)
    assert load.sample() is None                        # no interval yet
    machine.advance(1.0, others=0.0, own=2.0)           # our own threads on both cores
    assert load.sample() == pytest.approx(0.0)
    machine.advance(2.0, others=1.5, own=0.5)
    assert load.sample() == pytest.approx(1.5)
    assert load.sample() is None                        # no time passed
    unreadable = _machine_load.OthersLoad([0], read=lambda: None)
    assert unreadable.sample() is None and unreadable.sample() is None


# -- _thread_policy.load_threads: cached, re-read at most once a second ----------------------

@pytest.fixture
def fake_load(monkeypatch):
    """A 2-core process whose load reading and clock the test drives."""
    machine = FakeMachine(2)
    now = [100.0]
    monkeypatch.setattr(_thread_policy, "available_cores", lambda: 2)
    monkeypatch.setattr(_thread_policy, "_monotonic", lambda: now[0])
    monkeypatch.setattr(_thread_policy, "_first_estimate", lambda cores: 0.0)
    monkeypatch.setitem(_thread_policy._LOAD, "source", _machine_load.OthersLoad(
        [0, 1], read=machine.read, own_cpu=lambda: machine.own))
    monkeypatch.setitem(_thread_policy._LOAD, "threads", None)
    monkeypatch.setitem(_thread_policy._LOAD, "next", 0.0)
    monkeypatch.setitem(_thread_policy._LOAD, "read_at", None)
    monkeypatch.delenv("TF1COMPAT_FOLLOW_LOAD", raising=False)
    monkeypatch.setitem(_thread_policy._STATE, "wait_policy", "libgomp default (spin)")

    def advance(seconds, others, own=1.0):
        machine.advance(seconds, others, own)
        now[0] += seconds
    machine.step = advance
    return machine


def test_load_threads_follows_other_processes(fake_load):
    assert _thread_policy.load_threads() == 2           # first estimate: idle
    fake_load.step(1.0, others=2.0)                     # busy loops start
    # One more thread than cores: libgomp's throttled (short) spin, as PASSIVE.
    assert _thread_policy.load_threads() == 3
    assert _thread_policy.describe()["others_busy"] == pytest.approx(1.0)  # 2 - our own 1
    fake_load.step(1.0, others=0.1, own=2.0)            # they stop
    assert _thread_policy.load_threads() == 2
    assert "cores other processes leave idle" in _thread_policy._auto_reason()


def test_load_is_read_at_most_once_a_check_interval(fake_load):
    _thread_policy.load_threads()
    reads = fake_load.reads
    fake_load.step(_thread_policy._LOAD_CHECK_SECONDS / 4, others=2.0)
    for _ in range(1000):                               # e.g. a product per op
        assert _thread_policy.load_threads() == 2
    assert fake_load.reads == reads
    fake_load.step(_thread_policy._LOAD_CHECK_SECONDS, others=2.0)
    assert _thread_policy.load_threads() == 3
    assert fake_load.reads == reads + 1


def test_a_reading_after_a_long_pause_describes_the_present(fake_load, monkeypatch):
    """No plan ran while another process used both cores for ten seconds and stopped (a
    benchmark's other side fitting its warm-up epoch): the interval's average would call
    the machine busy, so after a pause the present is read instead, and the intervals
    after it are measured from that reading."""
    assert _thread_policy.load_threads() == 2
    fake_load.step(10.0, others=2.0, own=0.0)
    present = []
    monkeypatch.setattr(_thread_policy, "_first_estimate",
                        lambda cores: present.append(cores) or 0.0)
    assert _thread_policy.load_threads() == 2
    assert present == [2] and _thread_policy.describe()["others_busy"] == 0.0
    fake_load.step(1.0, others=2.0)                     # within a check interval again
    assert _thread_policy.load_threads() == 3 and present == [2]


def test_follow_load_off_keeps_every_core(fake_load, monkeypatch):
    monkeypatch.setenv("TF1COMPAT_FOLLOW_LOAD", "0")
    fake_load.step(2.0, others=2.0)
    assert _thread_policy.load_threads() == 2
    assert "TF1COMPAT_FOLLOW_LOAD=0" in _thread_policy._auto_reason()


def test_passive_threads_follow_the_load_unless_asked_not_to(fake_load, monkeypatch):
    """With PASSIVE threads (the automatic policy on a machine busy at start) the count is
    the cores other processes leave idle, down to one (no extra thread: nothing spins);
    TF1COMPAT_FOLLOW_LOAD=0 keeps every core."""
    monkeypatch.setitem(_thread_policy._STATE, "wait_policy", "PASSIVE")
    assert not _thread_policy.spinning()
    fake_load.step(2.0, others=2.0)
    _thread_policy.load_threads()                       # the first of two readings
    fake_load.step(2.0, others=2.0)
    assert _thread_policy.load_threads() == 1
    assert "cores other processes leave idle" in _thread_policy._auto_reason()
    fake_load.step(2.0, others=0.0, own=2.0)
    assert _thread_policy.load_threads() == 2
    monkeypatch.setenv("TF1COMPAT_FOLLOW_LOAD", "0")
    fake_load.step(2.0, others=2.0)
    assert _thread_policy.load_threads() == 2
    assert "TF1COMPAT_FOLLOW_LOAD=0" in _thread_policy._auto_reason()


def test_an_unreadable_source_keeps_the_last_count(fake_load):
    fake_load.step(1.0, others=2.0)
    _thread_policy.load_threads()
    fake_load.step(1.0, others=2.0)
    assert _thread_policy.load_threads() == 3
    _thread_policy._LOAD["source"] = _machine_load.OthersLoad([0, 1], read=lambda: None)
    fake_load.step(1.0, others=0.0)
    assert _thread_policy.load_threads() == 3


# -- the thread tuner and the products under the cap -----------------------------------------

@pytest.fixture
def auto_policy(monkeypatch, fake_load):
    before = torch.get_num_threads()
    monkeypatch.delenv("TF1COMPAT_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setitem(_thread_policy._STATE, "threads", None)      # a fresh policy
    _thread_policy.apply()
    yield fake_load
    torch.set_num_threads(before)
    _thread_policy._STATE["threads"] = before
    _thread_policy._LOCAL.__dict__.clear()


def _tuned_session(monkeypatch, cost):
    """A heavy plan whose run time is faked from the thread count (`cost`); returns
    (run(times), the tuned plan, counts seen)."""
    x = tf.placeholder(tf.float32, [None, 64])
    w = tf.constant(np.full((64, 64), 0.01, np.float32))
    h = tf.tanh(tf.matmul(tf.tanh(tf.matmul(x, w)), w))
    sess = tf.Session()
    feed = {x: np.ones((8, 64), np.float32)}
    want = sess.run(h, feed)
    tuned = list(sess._plans.values())[-1].fn
    assert isinstance(tuned, thread_tuner._TunedPlan)
    inner = tuned.fn
    clock = [0.0]
    monkeypatch.setattr(thread_tuner, "_clock", lambda: clock[0])
    monkeypatch.setattr(thread_tuner, "_monotonic", lambda: clock[0])
    seen = []

    def fake(feeds, state):
        seen.append(torch.get_num_threads())
        clock[0] += cost[torch.get_num_threads()]
        return inner(feeds, state)
    tuned.fn = fake

    def run(times):
        for _ in range(times):
            np.testing.assert_array_equal(sess.run(h, feed), want)
    return run, tuned, seen


def test_tuner_measures_one_thread_against_the_load_count(auto_policy, monkeypatch):
    machine = auto_policy
    machine.step(1.0, others=2.0)
    assert _thread_policy.load_threads() == 3
    with tf.Graph().as_default():
        run, tuned, seen = _tuned_session(monkeypatch, {1: 0.005, 2: 0.001, 3: 0.002})
        run(thread_tuner._WARMUP_RUNS + 4 * thread_tuner._TRIAL_RUNS)
        assert tuned.best == 3 and set(seen[thread_tuner._WARMUP_RUNS:]) == {1, 3}
        # The machine goes idle: the cap changes, both counts are measured again.
        machine.step(1.0, others=0.0, own=2.0)
        run(4 * thread_tuner._TRIAL_RUNS + 2)
        assert tuned.best == 2 and tuned.decisions == 2
        assert torch.get_num_threads() == 2


def _busy_with_passive_threads(machine, monkeypatch):
    """PASSIVE threads, other processes on both cores for two readings: a cap of one."""
    monkeypatch.setitem(_thread_policy._STATE, "wait_policy", "PASSIVE")
    machine.step(1.0, others=2.0)
    _thread_policy.load_threads()
    machine.step(1.0, others=2.0)
    assert _thread_policy.load_threads() == 1


def test_tuner_with_a_cap_of_one_measures_nothing(auto_policy, monkeypatch):
    """PASSIVE threads on a busy machine: one thread, no trial of more; the cap's rise
    re-decides."""
    machine = auto_policy
    _busy_with_passive_threads(machine, monkeypatch)
    with tf.Graph().as_default():
        run, tuned, seen = _tuned_session(monkeypatch, {1: 0.005, 2: 0.001})
        run(thread_tuner._WARMUP_RUNS + 10)
        assert tuned.best == 1 and set(seen[thread_tuner._WARMUP_RUNS:]) == {1}
        assert "nothing to measure" in _thread_policy.describe()["threads_reason"]
        machine.step(1.0, others=0.0, own=2.0)
        run(4 * thread_tuner._TRIAL_RUNS + 2)
        assert tuned.best == 2 and tuned.decisions == 2


def test_products_follow_the_load_only_under_the_automatic_policy(auto_policy,
                                                                   monkeypatch):
    machine = auto_policy
    monkeypatch.setattr(_onednn_matmul, "_PRODUCT_THREADS", None)
    assert _onednn_matmul._threads_for_products() == 2
    machine.step(1.0, others=2.0)
    assert _onednn_matmul._threads_for_products() == 3
    machine.step(1.0, others=0.0, own=2.0)
    assert _onednn_matmul._threads_for_products() == 2
    monkeypatch.setattr(_onednn_matmul, "_PRODUCT_THREADS", 3)     # TF1COMPAT_PRODUCT_THREADS
    assert _onednn_matmul._threads_for_products() == 3
    monkeypatch.setattr(_onednn_matmul, "_PRODUCT_THREADS", None)
    torch.set_num_threads(3)                                      # the program's own count
    machine.step(1.0, others=2.0)
    assert _onednn_matmul._threads_for_products() == 3


def _follower_runs(monkeypatch, threads, cost, other):
    """`steps(n)`: n runs of a `LoadFollower(threads)` whose compiled runs (at `threads`)
    and op-by-op runs (named `other`, at the follower's other count) cost `cost[kind]`
    on a fake clock; returns the kinds that ran (each run checks its thread count)."""
    clock = [0.0]
    monkeypatch.setattr(thread_tuner, "_clock", lambda: clock[0])
    monkeypatch.setattr(thread_tuner, "_monotonic", lambda: clock[0])
    follower = thread_tuner.LoadFollower(threads)
    kinds = []

    def kind(name, count):
        def run():
            assert torch.get_num_threads() == count()
            kinds.append(name)
            clock[0] += cost[name]
            return (name,)
        return run

    def steps(n):
        kinds.clear()
        for _ in range(n):
            follower.run(kind("compiled", lambda: threads), kind(other, lambda: follower.other))
        return set(kinds)
    return steps


# Runs enough for a measurement of both kinds (a switch's first run is not timed).
_FOLLOWER_TRIAL = 4 * thread_tuner._TRIAL_RUNS + 4


def test_a_compiled_plan_follows_the_load(auto_policy, monkeypatch):
    """A plan compiled for 2 threads (runtime/hot_plans.py keeps a LoadFollower for it):
    while the load reading stands, it runs compiled; when it changes, the compiled
    function at its 2 threads is timed against op by op on one thread and the faster is
    kept, until the next change."""
    machine = auto_policy
    machine.step(1.0, others=0.0, own=2.0)
    assert _thread_policy.load_threads() == 2
    assert thread_tuner.follows_load(2)
    cost = {"compiled": 0.001, "one": 0.004}
    steps = _follower_runs(monkeypatch, 2, cost, "one")
    assert steps(5) == {"compiled"}                      # the load it was compiled under
    machine.step(1.0, others=2.0)                        # other processes take the cores
    assert _thread_policy.load_threads() != 2
    cost["compiled"] = 0.010
    assert steps(_FOLLOWER_TRIAL) == {"compiled", "one"}
    assert steps(5) == {"one"}
    assert torch.get_num_threads() == 1
    machine.step(1.0, others=0.0, own=2.0)               # they stop
    cost["compiled"] = 0.001
    assert steps(_FOLLOWER_TRIAL) == {"compiled", "one"}
    assert steps(5) == {"compiled"}


def test_a_plan_compiled_for_one_thread_follows_the_load_up(auto_policy, monkeypatch):
    """A plan compiled for one thread on a busy machine: while the machine leaves it one
    core there is nothing to measure (compiled, one thread); when it frees, the compiled
    function on one thread is timed against op by op on the load's count and the faster
    kept; when it gets busy again, compiled on one thread."""
    machine = auto_policy
    _busy_with_passive_threads(machine, monkeypatch)
    assert thread_tuner.follows_load(1)
    cost = {"compiled": 0.004, "two": 0.002}
    steps = _follower_runs(monkeypatch, 1, cost, "two")
    assert steps(5) == {"compiled"}                      # busy: nothing to measure
    machine.step(1.0, others=0.0, own=1.0)               # the other processes stop
    assert _thread_policy.load_threads() == 2
    assert steps(_FOLLOWER_TRIAL) == {"compiled", "two"}
    assert steps(5) == {"two"}                           # two threads op by op won
    assert torch.get_num_threads() == 2
    machine.step(1.0, others=2.0, own=1.0)               # busy again
    assert _thread_policy.load_threads() == 1
    assert steps(5) == {"compiled"}                      # back on the compiled plan
    machine.step(1.0, others=0.0, own=1.0)               # free again, two threads slower
    cost["two"] = 0.008
    assert steps(_FOLLOWER_TRIAL) == {"compiled", "two"}
    assert steps(5) == {"compiled"}


# -- plans of small kernels: one thread, decided from the graph's shapes ----------------------

def _lstm_step(batch, extra=None):
    """An LSTM training session (fused dynamic_rnn, units 8, 5 steps of 3 inputs, and
    `extra()`'s value times 0 in the loss); returns (run, the training plan's function)."""
    x = tf.placeholder(tf.float32, [batch, 5, 3])
    out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(8), x, dtype=tf.float32)
    loss = tf.reduce_mean(tf.square(out[:, -1]))
    if extra is not None:
        loss += tf.reduce_sum(extra()) * 0.0
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {x: np.random.RandomState(0).randn(4, 5, 3).astype(np.float32)}

    def run(times):
        return [sess.run([loss, train], feed)[0] for _ in range(times)]
    run(1)
    return run, list(sess._plans.values())[-1].fn


def test_a_recurrence_of_small_products_runs_on_one_thread_unmeasured(auto_policy,
                                                                        monkeypatch):
    """The machine idle (a cap of 2): the small LSTM's step runs on one thread from its
    first run, never on two (no trial), and says why."""
    machine = auto_policy
    machine.step(1.0, others=0.0, own=2.0)
    assert _thread_policy.load_threads() == 2
    with tf.Graph().as_default():
        run, fn = _lstm_step(4)
        assert isinstance(fn, thread_tuner._OneThreadPlan)
        seen = []
        inner = fn.fn
        fn.fn = lambda feeds, state: seen.append(torch.get_num_threads()) or \
            inner(feeds, state)
        losses = run(thread_tuner._WARMUP_RUNS + 4 * thread_tuner._TRIAL_RUNS)
        assert set(seen) == {1} and np.all(np.diff(losses) < 0)
        assert "recurrence of small products" in _thread_policy.describe()["threads_reason"]
        torch.set_num_threads(2)               # the program's own count: it stands
        run(2)
        assert torch.get_num_threads() == 2


def _ones(shape):
    """A variable (a constant's ops would be folded away when the plan is built)."""
    return tf.Variable(np.ones(shape, np.float32), trainable=False)


@pytest.mark.parametrize("case,batch,extra", [
    ("unknown batch", None, None),
    ("large recurrence", 4, None),
    # 64 x 1100 x 64 multiply-adds > 2 ** 22; its tensors under 2 ** 18 elements
    ("large product", 4, lambda: tf.matmul(_ones((64, 1100)), _ones((64, 1100)),
                                           transpose_b=True)),
    ("large tensor", 4, lambda: tf.tanh(_ones((2 ** 18 + 1,)))),
    ("unknown shape", 4, lambda: tf.tanh(tf.placeholder_with_default(
        tf.ones((3,)), None))),
    ("convolution", 4, lambda: tf.nn.conv2d(_ones((1, 4, 4, 1)), _ones((2, 2, 1, 1)),
                                            [1, 1, 1, 1], "VALID")),
])
def test_plans_not_known_small_are_measured(auto_policy, monkeypatch, case, batch, extra):
    machine = auto_policy
    machine.step(1.0, others=0.0, own=2.0)
    with tf.Graph().as_default():
        if case == "large recurrence":        # the LSTM's 4 x 32 x 11 = 1408
            monkeypatch.setattr(thread_tuner, "_SMALL_PRODUCT", 1407)
        _, fn = _lstm_step(batch, extra)
        assert isinstance(fn, thread_tuner._TunedPlan)
    with tf.Graph().as_default():             # the same with the threshold at its size
        if case == "large recurrence":
            monkeypatch.setattr(thread_tuner, "_SMALL_PRODUCT", 1408)
            _, fn = _lstm_step(batch, extra)
            assert isinstance(fn, thread_tuner._OneThreadPlan)


def test_small_kernels_needs_a_fused_recurrence(auto_policy):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 3])
        w = tf.Variable(tf.ones([3, 2]))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(
            tf.reduce_sum(tf.matmul(x, w)))
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones((4, 3), np.float32)})
        plan = list(sess._plans.values())[-1]
        assert not thread_tuner.small_kernels(plan)
        assert isinstance(plan.fn, thread_tuner._TunedPlan)
