"""Host memory policy (tf1compat/_host_memory.py): freed blocks kept, no page faults a step."""

import json
import os
import subprocess
import sys

import pytest

_BLOCK_FAULTS = r"""
import json, resource
import tf1compat, torch

def step():   # three 20 MiB activations written and freed, as a training step does
    blocks = [torch.empty(5 << 20).fill_(1.0) for _ in range(3)]
    del blocks

step()
step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    step()
after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
print(json.dumps({"faults": (after - before) / 10, **tf1compat._host_memory.describe()}))
"""


def _run(code, env_extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MALLOC_", "TF1COMPAT_MALLOC", "GLIBC_TUNABLES"))}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)


def _probe(code, env_extra):
    out = _run(code, env_extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


glibc = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")


@glibc
def test_freed_blocks_are_reused_without_page_faults():
    # With glibc's defaults the 60 MiB freed at the heap's top are trimmed (or the blocks
    # unmapped) and the next step faults them in again: 3,000-10,700 faults a step here
    # (a 20 MiB block is 5,120 pages).
    d = _probe(_BLOCK_FAULTS, {})
    assert d["malloc"] == "keep", d
    assert "32 MiB" in d["malloc_reason"]
    assert d["faults"] < 1000, d


@glibc
@pytest.mark.parametrize("env,why", [
    ({"TF1COMPAT_MALLOC": "default"}, "TF1COMPAT_MALLOC=default"),
    ({"MALLOC_TRIM_THRESHOLD_": "4096"}, "MALLOC_TRIM_THRESHOLD_"),
    ({"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"}, "GLIBC_TUNABLES"),
])
def test_the_users_settings_leave_glibc_alone(env, why):
    d = _probe("import json, tf1compat\n"
               "print(json.dumps(tf1compat._host_memory.describe()))", env)
    assert d["malloc"] == "default"
    assert why in d["malloc_reason"]


def test_an_unknown_setting_is_refused():
    out = _run("import tf1compat", {"TF1COMPAT_MALLOC": "huge"})
    assert out.returncode != 0
    assert "TF1COMPAT_MALLOC must be keep or default, not 'huge'" in out.stderr
