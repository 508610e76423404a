"""Thread policy (tf1compat/_thread_policy.py): decided before torch loads, overridable."""

import contextlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat import _thread_policy

_PROBE = ("import json, os, sys\n"
          "{pre}\n"
          "import tf1compat, torch\n"
          "d = tf1compat._thread_policy.describe()\n"
          "d['env_wait'] = os.environ.get('OMP_WAIT_POLICY')\n"
          "d['torch_threads'] = torch.get_num_threads()\n"
          "print(json.dumps(d))\n")


def _probe(env_extra, pre=""):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "TF1COMPAT_", "GOMP_"))}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", _PROBE.format(pre=pre)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_default_wait_policy_follows_the_load_at_start():
    d = _probe({})
    assert d["torch_loaded_first"] is False
    assert d["wait_policy_reason"].startswith("auto: the machine was")
    if "was busy" in d["wait_policy_reason"]:
        assert d["env_wait"] == "PASSIVE" and d["wait_policy"] == "PASSIVE"
    else:
        assert d["env_wait"] is None and d["wait_policy"].startswith("libgomp default")
    assert 1 <= d["torch_threads"] <= _thread_policy.available_cores()
    assert d["threads_reason"].startswith("auto")
    d = _probe({"TF1COMPAT_FOLLOW_LOAD": "0", "TF1COMPAT_WAIT_POLICY": "keep"})
    assert d["env_wait"] is None and d["wait_policy"].startswith("libgomp default")
    assert d["torch_threads"] == _thread_policy.available_cores()
    assert "TF1COMPAT_FOLLOW_LOAD=0" in d["threads_reason"]


@pytest.mark.parametrize("others,busy", [(0.0, False), (0.2, False), (1.5, True)])
def test_automatic_wait_policy_from_the_load_at_start(others, busy, monkeypatch):
    monkeypatch.setattr(_thread_policy, "available_cores", lambda: 2)
    monkeypatch.setattr(_thread_policy, "_first_estimate", lambda cores: others)
    policy, reason = _thread_policy._automatic_wait_policy("spin")
    assert (policy == "PASSIVE") is busy
    assert ("was busy" in reason) is busy and reason.startswith("auto")


def test_passive_wait_policy_set_before_torch_loads():
    d = _probe({"TF1COMPAT_WAIT_POLICY": "passive"})
    assert d["env_wait"] == "PASSIVE" and d["wait_policy"] == "PASSIVE"


def test_torch_imported_first_is_reported_not_hidden():
    d = _probe({"TF1COMPAT_WAIT_POLICY": "passive"}, pre="import torch")
    assert d["torch_loaded_first"] is True
    assert d["env_wait"] is None
    assert "imported before tf1compat" in d["wait_policy_reason"]


def test_user_variables_win():
    d = _probe({"OMP_WAIT_POLICY": "active", "OMP_NUM_THREADS": "1"})
    assert d["wait_policy"] == "ACTIVE" and d["env_wait"] == "active"
    assert d["torch_threads"] == 1 and "OMP_NUM_THREADS" in d["threads_reason"]
    d = _probe({"TF1COMPAT_THREADS": "2", "TF1COMPAT_WAIT_POLICY": "keep"})
    assert d["torch_threads"] == 2 and d["threads_reason"] == "TF1COMPAT_THREADS"
    assert d["env_wait"] is None


@pytest.mark.parametrize("name,value", [("TF1COMPAT_THREADS", "many"),
                                        ("TF1COMPAT_WAIT_POLICY", "spinning")])
def test_bad_setting_is_a_clear_error(name, value):
    env = dict(os.environ, **{name: value})
    out = subprocess.run([sys.executable, "-c", "import tf1compat"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and f"{name} must be" in out.stderr


@pytest.fixture
def restore_threads(monkeypatch):
    """Restores torch's count after the test; the machine reads as idle (this one is
    shared: its real load would decide the automatic count)."""
    before = torch.get_num_threads()
    monkeypatch.setattr(_thread_policy, "load_threads", _thread_policy.available_cores)
    yield
    torch.set_num_threads(before)
    _thread_policy._STATE["threads"] = before
    _thread_policy._LOCAL.__dict__.clear()


def test_session_config_intra_op_threads_honoured(restore_threads):
    with tf.Graph().as_default():
        tf.constant(1.0)
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=3)):
            assert torch.get_num_threads() == 3
            assert _thread_policy.describe()["threads_reason"] == \
                "ConfigProto.intra_op_parallelism_threads"


def test_program_set_threads_are_kept(restore_threads):
    # A count tf1compat did not set (on a busy machine its own can be cores + 1).
    mine = (_thread_policy._expected() or 1) + 2
    torch.set_num_threads(mine)
    with tf.Graph().as_default():
        tf.constant(1.0)
        with tf.Session():
            assert torch.get_num_threads() == mine
    assert "program" in _thread_policy.describe()["threads_reason"]


# -- runtime/thread_tuner.py -----------------------------------------------------------------

def _heavy_graph():
    x = tf.placeholder(tf.float32, [None, 64])
    w = tf.constant(np.full((64, 64), 0.01, np.float32))
    h = x
    for _ in range(4):
        h = tf.tanh(tf.matmul(h, w))
    return x, h


def _deciding_runs():
    """Runs until the tuner decides: warm-up, then per candidate and timed run an
    untimed run right after the switch of count and the timed one."""
    from tf1compat.runtime import thread_tuner
    return thread_tuner._WARMUP_RUNS + 4 * thread_tuner._TRIAL_RUNS


def _fresh_auto_policy(monkeypatch):
    """No thread count from the environment, the automatic policy decided afresh."""
    for var in ("TF1COMPAT_THREADS", "OMP_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setitem(_thread_policy._STATE, "threads", None)
    _thread_policy.apply()


def _tuned(sess):
    """The session's last plan and the thread tuner wrapping its function."""
    from tf1compat.runtime import thread_tuner
    plan = list(sess._plans.values())[-1]
    assert isinstance(plan.fn, thread_tuner._TunedPlan)
    return plan, plan.fn


@contextlib.contextmanager
def _timed_heavy_plan(monkeypatch, cost):
    """A session that has run `_heavy_graph` once: yields (run, plan, tuner, the tuned
    function), where run() runs it again and checks the result, and the tuner's clock
    advances by `cost(threads)` at each run of the tuned function."""
    from tf1compat.runtime import thread_tuner
    with tf.Graph().as_default():
        x, h = _heavy_graph()
        with tf.Session() as sess:
            feed = {x: np.ones((8, 64), np.float32)}
            want = sess.run(h, feed)
            plan, tuned = _tuned(sess)
            inner = tuned.fn
            now = [0.0]
            monkeypatch.setattr(thread_tuner, "_clock", lambda: now[0])

            def timed(feeds, state):
                now[0] += cost(torch.get_num_threads())
                return inner(feeds, state)
            tuned.fn = timed
            yield (lambda: np.testing.assert_allclose(sess.run(h, feed), want, rtol=1e-6),
                   plan, tuned, inner)


def test_tuner_keeps_the_faster_thread_count(restore_threads, monkeypatch):
    from tf1compat.runtime import thread_tuner
    if _thread_policy.available_cores() < 2:
        pytest.skip("one core: nothing to tune")
    _fresh_auto_policy(monkeypatch)
    slow_on_one = {"n": 0}

    def cost(threads):                   # one thread made slow on purpose
        slow_on_one["n"] += threads == 1
        return 0.005 if threads == 1 else 0.001
    with _timed_heavy_plan(monkeypatch, cost) as (run, _, tuned, _):
        for _ in range(_deciding_runs() + 3):
            run()
        assert tuned.best == _thread_policy.available_cores()
        assert torch.get_num_threads() == tuned.best
        # Each timed run follows an untimed one at the same count.
        assert slow_on_one["n"] == 2 * thread_tuner._TRIAL_RUNS
        assert "measured" in _thread_policy.describe()["threads_reason"]


@pytest.mark.parametrize("faster", ["one", "every core"])
def test_a_compile_candidate_is_compiled_for_the_count_its_runs_found_faster(
        restore_threads, monkeypatch, faster):
    """A hot plan's op-by-op runs are measured before it is compiled, and torch.compile
    (guarded on the thread count) gets the faster count; the tuner then lets go."""
    from tf1compat.runtime import hot_plans, thread_tuner
    cores = _thread_policy.available_cores()
    if cores < 2:
        pytest.skip("one core: nothing to tune")
    monkeypatch.setenv("TF1COMPAT_COMPILE_AFTER", str(_deciding_runs() + 2))
    monkeypatch.setenv("TF1COMPAT_COMPILE_MIN_OPS", "4")
    monkeypatch.setenv("TF1COMPAT_COMPILE_BACKEND", "aot_eager")
    monkeypatch.setenv("TF1COMPAT_COMPILE_BACKGROUND", "0")
    # One verdict after the first pairs (runtime/hot_plans.trial_verdict): a trial timed
    # by the real clock could otherwise go on past the runs counted here.
    monkeypatch.setattr(hot_plans, "_TRIAL_MAX_RUNS", hot_plans._TRIAL_RUNS)
    _fresh_auto_policy(monkeypatch)
    best = 1 if faster == "one" else cores
    cost = {1: 0.003 if best == 1 else 0.009, cores: 0.003 if best == cores else 0.009}
    with _timed_heavy_plan(monkeypatch, cost.get) as (run, plan, tuned, hot):
        assert isinstance(hot, hot_plans._HotPlan)
        for _ in range(_deciding_runs() + 2):
            run()
        assert tuned.best == best
        assert plan.hot.status == hot_plans.TRIAL, plan.hot
        assert hot.threads == best == torch.get_num_threads()
        assert not isinstance(plan.fn, thread_tuner._TunedPlan)
        for _ in range(2 * hot_plans._TRIAL_RUNS):
            run()
        assert plan.hot.status in (hot_plans.COMPILED, hot_plans.FALLBACK,
                                   hot_plans.RETRIAL), plan.hot
        assert plan.hot.compiled_us > 0


def test_tuner_leaves_quick_plans_and_explicit_counts(restore_threads, monkeypatch):
    from tf1compat.runtime import thread_tuner
    _fresh_auto_policy(monkeypatch)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        y = x + 1.0
        with tf.Session() as sess:
            for _ in range(thread_tuner._WARMUP_RUNS + 3):
                sess.run(y, {x: [1.0, 2.0]})
            plan = list(sess._plans.values())[-1]
            assert not isinstance(plan.fn, thread_tuner._TunedPlan)   # too quick
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
            sess.run(y, {x: [1.0, 2.0]})
            plan = list(sess._plans.values())[-1]
            assert not isinstance(plan.fn, thread_tuner._TunedPlan)   # user's count


def test_tuner_decides_again_when_the_load_changes(restore_threads, monkeypatch):
    """Other processes start: the chosen count's runs slow down beyond the drift factor,
    so both counts are measured again and the now-faster one is kept; after that a
    steady load leaves the decision alone."""
    from tf1compat.runtime import thread_tuner
    cores = _thread_policy.available_cores()
    if cores < 2:
        pytest.skip("one core: nothing to tune")
    _fresh_auto_policy(monkeypatch)
    cost = {1: 0.005, cores: 0.001}          # idle: every core wins
    with tf.Graph().as_default():
        x, h = _heavy_graph()
        with tf.Session() as sess:
            feed = {x: np.ones((8, 64), np.float32)}
            want = sess.run(h, feed)
            _, tuned = _tuned(sess)
            inner = tuned.fn
            now = [0.0]
            monkeypatch.setattr(thread_tuner, "_clock", lambda: now[0])
            monkeypatch.setattr(thread_tuner, "_monotonic", lambda: now[0])

            def fake(feeds, state):
                now[0] += cost[torch.get_num_threads()]
                return inner(feeds, state)
            tuned.fn = fake

            def run(times):
                for _ in range(times):
                    np.testing.assert_array_equal(sess.run(h, feed), want)
            run(_deciding_runs())
            assert tuned.best == cores and tuned.decisions == 1
            # Steady load: windows of runs at the chosen count change nothing.
            run(3 * thread_tuner._WATCH_RUNS)
            assert tuned.best == cores and tuned.decisions == 1
            # Busy loops start beside it: every core now loses to one thread.
            cost.update({1: 0.003, cores: 0.02})
            now[0] += thread_tuner._MIN_DECIDED_SECONDS
            run(thread_tuner._WATCH_RUNS + 4 * thread_tuner._TRIAL_RUNS)
            assert tuned.best == 1 and tuned.decisions == 2
            assert torch.get_num_threads() == 1
            run(3 * thread_tuner._WATCH_RUNS)
            assert tuned.decisions == 2
            # A swing that changes nothing: the measurement confirms one thread, and the
            # decision then stands twice as long against drift.
            assert tuned.hold == thread_tuner._MIN_DECIDED_SECONDS
            cost.update({1: 0.006, cores: 0.04})
            now[0] += thread_tuner._MIN_DECIDED_SECONDS
            run(thread_tuner._WATCH_RUNS + 4 * thread_tuner._TRIAL_RUNS)
            assert tuned.best == 1 and tuned.decisions == 3
            assert tuned.hold == 2 * thread_tuner._MIN_DECIDED_SECONDS


def test_a_count_set_on_another_thread_leaves_this_threads_policy_automatic(
        restore_threads, monkeypatch):
    """torch's count is per thread: a queue-runner or feeder thread whose plan the tuner
    sets to one thread leaves the training thread at its own count, and that count is
    still tf1compat's to choose (before, the training thread's plan was then taken for
    the program's own setting and never tuned, and the next Session kept it for good)."""
    import threading
    if _thread_policy.available_cores() < 2:
        pytest.skip("one core: one count for every thread")
    _fresh_auto_policy(monkeypatch)
    mine = torch.get_num_threads()
    assert mine == _thread_policy.available_cores() and _thread_policy.is_automatic()
    seen = {}

    def feeder():
        _thread_policy.set_tuned_threads(1)
        seen["feeder"] = (torch.get_num_threads(), _thread_policy.is_automatic())
    thread = threading.Thread(target=feeder)
    thread.start()
    thread.join()
    assert seen["feeder"] == (1, True)
    assert torch.get_num_threads() == mine and _thread_policy.is_automatic()
    _thread_policy.apply()                                  # a new Session on this thread
    assert _thread_policy.describe()["threads_reason"].startswith("auto")
    # The program's own setting on this thread is still recognised as such.
    torch.set_num_threads(1 if mine > 1 else 2)
    assert not _thread_policy.is_automatic()
