"""Helpers for the Estimator golden cases (recorded under TF 2.15 + tensorflow-estimator,
`TF_VERSION = "2.15"` in the case modules): temporary model directories, model_dir
listings with file names normalized, and tf.logging lines parsed into records with the
time-dependent parts masked.

Normalized differences: checkpoint data (`.index` + `.data-*` in TF, `.safetensors` here)
become `<prefix>.<data>`; event files `events.out.tfevents.<masked>`; export directories
(unix timestamps) `<timestamp>`. Log records keep what does not depend on time or paths:
`loss = x, step = n`, checkpoints saved, final loss, evaluation results, restores (by
file name), "Skipping training", step-rate lines (counted, value masked).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import tempfile
from typing import Any, Dict, Iterator, List

import numpy as np

__all__ = ["model_dir", "listing", "capture_logs", "as_py", "saved_model_signatures", "drain",
           "train_evaluate_predict_export"]


@contextlib.contextmanager
def model_dir() -> Iterator[str]:
    path = tempfile.mkdtemp()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def listing(directory: str) -> List[str]:
    """Every file under `directory`, relative, with TF/tf1compat file names normalized."""
    out = set()
    for root, _, files in os.walk(directory):
        rel_root = os.path.relpath(root, directory)
        rel_root = re.sub(r"(^|/)(temp-)?\d{10}(/|$)", r"\1<timestamp>\3", rel_root)
        for name in files:
            if name.startswith("events.out.tfevents."):
                name = "events.out.tfevents.<masked>"
            name = re.sub(r"\.(index|data-\d+-of-\d+|safetensors)$", ".<data>", name)
            out.add(name if rel_root == "." else f"{rel_root}/{name}")
    return sorted(out)


_PATTERNS = [
    (re.compile(r"^loss = (\S+), step = (\d+)"), lambda m: ["loss", float(m[1]), int(m[2])]),
    (re.compile(r"^Saving checkpoints for (\d+) into"), lambda m: ["save", int(m[1])]),
    (re.compile(r"^Loss for final step: (\S+)\.$"), lambda m: ["final_loss", float(m[1])]),
    (re.compile(r"^Saving dict for global step (\d+): (.*)$"),
     lambda m: ["eval", int(m[1]), {k: float(v) for k, v in
                                     (kv.split(" = ") for kv in m[2].split(", "))}]),
    (re.compile(r"^Skipping training since max_steps has already saved\.$"),
     lambda m: ["skip"]),
    (re.compile(r"^Restoring parameters from (.*)$"),
     lambda m: ["restore", os.path.basename(m[1])]),
    (re.compile(r"^Warm-started (\d+) variables\.$"), lambda m: ["warm_started", int(m[1])]),
    (re.compile(r"^global_step/sec: "), lambda m: ["rate"]),
    (re.compile(r"^examples/sec: "), lambda m: ["examples_rate"]),
    (re.compile(r"^Evaluation \[(\d+)/(\d+)\]$"), lambda m: ["progress", int(m[1]), int(m[2])]),
    (re.compile(r"^Training with estimator made no steps"), lambda m: ["no_steps"]),
    (re.compile(r"^Could not find trained model in model_dir"), lambda m: ["no_checkpoint"]),
    (re.compile(r"^Running (\w+) on CPU/GPU$"), lambda m: ["cpu", m[1]]),
    (re.compile(r"^Validation \(step (\d+)\)"), lambda m: ["validation", int(m[1])]),
]


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: List[Any] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        for pattern, parse in _PATTERNS:
            m = pattern.match(message)
            if m:
                self.records.append(parse(m))
                return


@contextlib.contextmanager
def capture_logs(tf: Any) -> Iterator[List[Any]]:
    """tf.logging INFO lines of the block, as parsed records."""
    logger = logging.getLogger("tensorflow")
    collector = _Collector()
    old = tf.logging.get_verbosity()
    tf.logging.set_verbosity(tf.logging.INFO)
    logger.addHandler(collector)
    try:
        yield collector.records
    finally:
        logger.removeHandler(collector)
        tf.logging.set_verbosity(old)


def as_py(values: Any) -> Any:
    """Evaluation results / predictions as plain JSON-able values (numpy kept)."""
    if isinstance(values, dict):
        return {str(k): as_py(v) for k, v in values.items()}
    if isinstance(values, (list, tuple)):
        return [as_py(v) for v in values]
    if isinstance(values, np.generic):
        return np.asarray(values)
    return values


def saved_model_signatures(tf: Any, export_dir: Any, tags: Any) -> Dict[str, Any]:
    """Signature keys, method names and input/output names, dtypes and shapes of a
    SavedModel (loaded into a fresh graph)."""
    out: Dict[str, Any] = {}
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, tags, export_dir)
        for key in sorted(meta.signature_def):
            sig = meta.signature_def[key]
            out[key] = {
                "method": sig.method_name,
                "inputs": {k: [v.name, v.dtype] for k, v in sorted(sig.inputs.items())},
                "outputs": {k: [v.name, v.dtype] for k, v in sorted(sig.outputs.items())}}
    return out


def drain(tf: Any, tensors: Any, limit: int = 50) -> List[Any]:
    """`tensors` run in a MonitoredSession until its input ends (at most `limit` times)."""
    out = []
    with tf.train.MonitoredSession() as sess:
        while not sess.should_stop() and len(out) < limit:
            out.append(sess.run(tensors))
    return out


def train_evaluate_predict_export(tf: Any, est: Any, train_input: Any, eval_input: Any,
                                  predict_input: Any, serving_fn: Any,
                                  steps: int = 4) -> Dict[str, Any]:
    """An Estimator trained `steps` steps (its `loss`/final-loss log lines), its variable
    names, evaluation metrics, predictions and (with a serving_fn) export signatures."""
    out: Dict[str, Any] = {}
    with capture_logs(tf) as logs:
        est.train(train_input, steps=steps)
    out["train_logs"] = [r for r in logs if r[0] in ("loss", "final_loss")]
    out["variables"] = sorted(est.get_variable_names())
    metrics = est.evaluate(eval_input)
    out["metric_keys"] = sorted(metrics)
    out["metrics"] = as_py(metrics)
    out["predictions"] = as_py(list(est.predict(predict_input)))
    if serving_fn is not None:
        path = est.export_saved_model(os.path.join(est.model_dir, "export"), serving_fn)
        out["signatures"] = saved_model_signatures(tf, path, ["serve"])
    return out
