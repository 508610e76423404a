"""Records real TF's `SyncReplicasOptimizer` token-queue behaviour with fewer workers than
gradients per step (tests/fixtures/distributed/sync_tokens_program.py) into
tests/golden/data/sync_replicas_tokens.json.

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

from sync_tokens_program import run_program  # noqa: E402


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
    out = ROOT / "tests" / "golden" / "data" / "sync_replicas_tokens.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}: {result}")


if __name__ == "__main__":
    main()
