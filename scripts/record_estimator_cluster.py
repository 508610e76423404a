"""Records what TF 2.15's Estimator does in a TF_CONFIG parameter-server cluster
(tests/fixtures/distributed/estimator_ps_task.py run as separate processes on localhost)
into tests/golden/data/estimator_ps_cluster.json, for tests/test_estimator_ps_cluster.py.

Run with the oracle: `/tmp/tf215/bin/python scripts/record_estimator_cluster.py`.

* `single_linear`, `single_dnn`: chief + ps + evaluator. One trainer: TF's asynchronous
  updates are deterministic, so the chief's checkpoints and the evaluator's metrics of the
  final checkpoint are compared exactly (to rounding).
* `async_linear`: chief + 2 workers + ps + evaluator. The interleaving of the three
  trainers' updates is not deterministic; what TF guarantees is recorded (every trainer
  finishes, the chief's checkpoints at every `save_checkpoints_steps` it saw and at the end,
  the workers write nothing, the evaluator ends on a final checkpoint past `max_steps`).
* `strategy_linear`: chief + ps + evaluator with RunConfig(train_distribute=
  tf.distribute.experimental.ParameterServerStrategy()) (TF's distribute coordinator).

* `placement_cluster`, `placement_local`: where that strategy computes and puts its
  variables (tests/fixtures/distributed/ps_strategy_placement.py).

`record_estimator_cluster.py NAME...` re-records only those entries.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import tensorflow.compat.v1 as tf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "distributed"))

from estimator_cluster import run_cluster, summarize  # noqa: E402

OUT = ROOT / "tests" / "golden" / "data" / "estimator_ps_cluster.json"
RUNS = {"single_linear": ({"chief": 1, "ps": 1, "evaluator": 1}, "linear", 12),
        "single_dnn": ({"chief": 1, "ps": 1, "evaluator": 1}, "dnn", 12),
        "async_linear": ({"chief": 1, "worker": 2, "ps": 1, "evaluator": 1}, "linear_async",
                         40),
        "strategy_linear": ({"chief": 1, "ps": 1, "evaluator": 1}, "linear_strategy", 12)}


def _read_checkpoint(prefix: str) -> dict:
    reader = tf.train.load_checkpoint(prefix)
    return {name: reader.get_tensor(name).tolist()
            for name in sorted(reader.get_variable_to_shape_map())}


def _placement(mode: str) -> dict:
    text = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "fixtures" / "distributed" /
                             "ps_strategy_placement.py"), mode],
        env=dict(os.environ, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="2"),
        check=True, capture_output=True, text=True).stdout
    return json.loads(text.strip().splitlines()[-1])


def main() -> None:
    names = sys.argv[1:] or list(RUNS) + ["placement_cluster", "placement_local"]
    result = json.loads(OUT.read_text()) if sys.argv[1:] else {}
    result["tensorflow"] = tf.__version__ if hasattr(tf, "__version__") else "2.15"
    for name in names:
        if name.startswith("placement_"):
            result[name] = _placement(name.split("_")[1])
            print(name, result[name])
            continue
        jobs, model, max_steps = RUNS[name]
        with tempfile.TemporaryDirectory() as tmp:
            outs = run_cluster([sys.executable], Path(tmp), jobs, model, max_steps,
                               timeout=300, ps_exits=False,
                               env={"CUDA_VISIBLE_DEVICES": "", "TF_CPP_MIN_LOG_LEVEL": "2"})
            result[name] = dict(summarize(Path(tmp), outs, _read_checkpoint),
                                jobs=jobs, model=model, max_steps=max_steps)
            print(name, json.dumps({k: v for k, v in result[name].items()
                                    if k != "last_checkpoint"})[:2000])
    OUT.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
