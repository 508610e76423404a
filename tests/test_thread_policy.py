"""Thread policy (tf1compat/_thread_policy.py): decided before torch loads, overridable."""

import json
import os
import subprocess
import sys

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


def test_passive_wait_policy_set_before_torch_loads():
    d = _probe({})
    assert d["torch_loaded_first"] is False
    assert d["env_wait"] == "PASSIVE" and d["wait_policy"] == "PASSIVE"
    assert 1 <= d["torch_threads"] <= _thread_policy.available_cores()
    assert d["threads_reason"].startswith("auto")


def test_torch_imported_first_is_reported_not_hidden():
    d = _probe({}, pre="import torch")
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


def test_bad_setting_is_a_clear_error():
    env = dict(os.environ, TF1COMPAT_THREADS="many")
    out = subprocess.run([sys.executable, "-c", "import tf1compat"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and "TF1COMPAT_THREADS must be" in out.stderr


def test_busy_cores_counts_other_runnable_tasks(monkeypatch):
    counts = iter([3, 9, 4, 4, 5])
    monkeypatch.setattr(_thread_policy, "_running_tasks", lambda: next(counts))
    assert _thread_policy.busy_cores(interval=0) == 3    # median 4, less this thread
    monkeypatch.setattr(_thread_policy, "_running_tasks", lambda: None)
    assert _thread_policy.busy_cores(interval=0) == 0


def test_auto_never_below_one_thread(monkeypatch):
    monkeypatch.setattr(_thread_policy, "busy_cores", lambda: 50)
    assert _thread_policy.auto_threads() == 1
    monkeypatch.setattr(_thread_policy, "busy_cores", lambda: 0)
    assert _thread_policy.auto_threads() == _thread_policy.available_cores()


@pytest.fixture
def restore_threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)
    _thread_policy._STATE["threads"] = before


def test_session_config_intra_op_threads_honoured(restore_threads):
    with tf.Graph().as_default():
        tf.constant(1.0)
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=3)):
            assert torch.get_num_threads() == 3
            assert _thread_policy.describe()["threads_reason"] == \
                "ConfigProto.intra_op_parallelism_threads"


def test_program_set_threads_are_kept(restore_threads):
    torch.set_num_threads(3)
    with tf.Graph().as_default():
        tf.constant(1.0)
        with tf.Session():
            assert torch.get_num_threads() == 3
    assert "program" in _thread_policy.describe()["threads_reason"]
