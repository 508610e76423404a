"""Records real TF's `SyncReplicasOptimizer` token-queue behaviour
(tests/fixtures/distributed/sync_tokens_program.py): with fewer workers than gradients per
step into tests/golden/data/sync_replicas_tokens.json, and two worker threads without init
tokens (`num_tokens=0`) into tests/golden/data/sync_replicas_two_workers.json.

Run under TF 2.15 (its `tf.compat.v1` keeps TF 1.15's optimizer):
    /tmp/tf215/bin/python scripts/record_sync_replicas_tokens.py
The ps and worker servers run in this process on free local ports (TF's
`create_local_cluster` needs `portpicker`, which the oracle venv lacks).
"""

import json
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "distributed"))

import tensorflow.compat.v1 as tf  # noqa: E402

from sync_tokens_program import run_program, run_two_workers  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def main() -> None:
    tf.disable_v2_behavior()
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{_free_port()}"],
                                    "worker": [f"localhost:{_free_port()}"]})
    worker = tf.train.Server(cluster, job_name="worker", task_index=0, start=True)
    tf.train.Server(cluster, job_name="ps", task_index=0, start=True)
    result = run_program(tf, worker.target, cluster)
    result["tensorflow"] = tf.__version__ if hasattr(tf, "__version__") else "unknown"
    _write("sync_replicas_tokens.json", result)
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{_free_port()}"],
                                    "worker": [f"localhost:{_free_port()}",
                                               f"localhost:{_free_port()}"]})
    workers = [tf.train.Server(cluster, job_name="worker", task_index=i, start=True)
               for i in range(2)]
    tf.train.Server(cluster, job_name="ps", task_index=0, start=True)
    result = run_two_workers(tf, [w.target for w in workers], cluster, num_tokens=0)
    result["tensorflow"] = tf.__version__ if hasattr(tf, "__version__") else "unknown"
    _write("sync_replicas_two_workers.json", result)


def _write(name: str, result: dict) -> None:
    out = ROOT / "tests" / "golden" / "data" / name
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}: {result}")


if __name__ == "__main__":
    main()
