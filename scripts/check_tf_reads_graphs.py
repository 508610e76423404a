"""tf1compat writes `.meta` files; real TensorFlow imports and runs them; the results are
recorded for CI (tests/test_graph_export.py replays them without TF).

    .venv/bin/python scripts/check_tf_reads_graphs.py [--tf /tmp/tf/bin/python] [case ...]

For each case of tests/graph_export_cases.py this builds the graph with tf1compat and
writes `tests/fixtures/tf1compat_graphs/<case>/graph.meta`, then runs itself under the
TensorFlow venv (`--read DIR`), which imports the file with `tf.train.import_meta_graph`,
runs the variables' initializer (training cases, tests/graph_training_cases.py: restores
the checkpoint tf1compat's Saver wrote, then runs the train op from the file) and the
case's runs (for training cases also the same case built by TF itself, with its own
gradients: `native`, the largest difference; where TF 1.x's own gradients fail, with its
control flow v2 and the failure in `native_v1`), and, for cases with a `minimize`
check, trains the imported loss with GradientDescent (TF's own gradients of the imported
conds and loops, which need the cond/while contexts tf1compat wrote). What TF computed goes
into `arrays.npz` and `case.json`; the script prints tf1compat's values beside TF's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "tf1compat_graphs")

from tests.graph_export_cases import CASES, run_case  # noqa: E402


# -- the tf1compat side -------------------------------------------------------------------------

def write_cases(names: list) -> list:
    import tf1compat as tf
    written = []
    for fn in CASES:
        name = fn.__name__[len("case_"):]
        if names and name not in names:
            continue
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        arrays: dict = {}
        with tf.Graph().as_default():
            spec = fn(tf)
            if spec.get("checkpoint"):
                # A training case: Saver.save writes the checkpoint of the initial
                # variables and the .meta (with its saver_def) that the reader imports.
                with tf.Session() as sess:
                    sess.run(spec["init"])
                    spec["saver"].save(sess, os.path.join(d, spec["checkpoint"]),
                                       write_state=False)
                os.replace(os.path.join(d, spec["checkpoint"] + ".meta"),
                           os.path.join(d, "graph.meta"))
            else:
                tf.train.export_meta_graph(os.path.join(d, "graph.meta"))

        def keyed(feeds: dict, prefix: str) -> dict:
            out = {}
            for i, (feed_name, value) in enumerate(feeds.items()):
                arrays[f"{prefix}_{i}"] = np.asarray(value)
                out[feed_name] = f"{prefix}_{i}"
            return out
        record = {"init": spec["init"], "runs": [
            {"feeds": keyed(run["feeds"], f"feed_{k}"), "fetches": run["fetches"],
             "targets": run.get("targets", [])} for k, run in enumerate(spec["runs"])]}
        if spec.get("checkpoint"):
            record["checkpoint"] = spec["checkpoint"]
        if spec.get("minimize"):
            m = dict(spec["minimize"])
            m["feeds"] = keyed(m["feeds"], "minimize_feed")
            record["minimize"] = m
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)
        np.savez(os.path.join(d, "arrays.npz"), **arrays)
        written.append(name)
    return written


def compare(names: list) -> int:
    import tf1compat as tf
    worst = 0.0
    for name in names:
        d = os.path.join(OUT, name)
        with open(os.path.join(d, "case.json")) as f:
            spec = json.load(f)
        arrays = dict(np.load(os.path.join(d, "arrays.npz")))
        status = spec["tf"]["status"]
        print(f"{name}: TF {status}")
        if status != "ok":
            continue
        if "native" in spec["tf"]:
            print(f"  the case built by TF itself: {spec['tf']['native']}")
        mine = run_case(tf, d, spec, arrays)
        pairs = [(f"run {k}: {fetch}", mine["values"][k][i], arrays[key])
                 for k, run in enumerate(spec["runs"])
                 for i, (fetch, key) in enumerate(zip(run["fetches"], spec["tf"]["values"][k]))]
        pairs += [(f"minimize: {v}", mine["minimize"][i], arrays[key]) for i, (v, key) in
                  enumerate(zip(spec.get("minimize", {}).get("variables", []),
                                spec["tf"]["minimize"]))]
        for label, a, b in pairs:
            diff = float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))\
                if np.size(a) else 0.0
            worst = max(worst, diff)
            print(f"  {label:55s} max |tf1compat - TF| = {diff:.3g}")
    print(f"worst difference: {worst:.3g}")
    return 0 if worst < 1e-4 else 1


# -- the TensorFlow side ------------------------------------------------------------------------

def read_with_tf(names: list) -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    for name in names:
        d = os.path.join(OUT, name)
        with open(os.path.join(d, "case.json")) as f:
            spec = json.load(f)
        arrays = dict(np.load(os.path.join(d, "arrays.npz")))
        try:
            got = run_case(tf, d, spec, arrays)
        except Exception as e:  # noqa: BLE001 - recorded: TF could not read or run it
            spec["tf"] = {"status": f"{type(e).__name__}: {str(e)[:500]}"}
        else:
            keys = []
            for k, values in enumerate(got["values"]):
                keys.append([])
                for i, value in enumerate(values):
                    arrays[f"tf_{k}_{i}"] = value
                    keys[-1].append(f"tf_{k}_{i}")
            minimize = []
            for i, value in enumerate(got["minimize"]):
                arrays[f"tf_minimize_{i}"] = value
                minimize.append(f"tf_minimize_{i}")
            spec["tf"] = {"status": "ok", "values": keys, "minimize": minimize,
                          "version": tf.__version__}
            if spec.get("checkpoint"):
                spec["tf"]["native"] = native_difference(tf, name, d, spec, arrays, got)
                if isinstance(spec["tf"]["native"], str):
                    # TF 1.x's own loop gradients fail for some nestings (a loop in three
                    # conds in a loop: "Stack[...] is empty when calling Pop()"); TF's
                    # control flow v2 (functional While/If, their gradients) builds the
                    # same case
                    spec["tf"]["native_v1"] = spec["tf"]["native"]
                    tf.enable_control_flow_v2()
                    try:
                        spec["tf"]["native"] = native_difference(tf, name, d, spec, arrays,
                                                                 got)
                    finally:
                        tf.disable_control_flow_v2()
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(spec, f, indent=1, sort_keys=True)
        np.savez(os.path.join(d, "arrays.npz"), **arrays)


def native_difference(tf, name: str, d: str, spec: dict, arrays: dict, got: dict) -> object:
    """A training case built by real TF itself (its own gradients), restored from the
    same checkpoint and run as the file was: the largest difference from what TF
    computed from tf1compat's file, or why TF cannot build or run the case (tf.contrib;
    a nesting TF 1.x's loop gradients fail on)."""
    build = {fn.__name__[len("case_"):]: fn for fn in CASES}[name]
    worst = 0.0
    try:
        with tf.Graph().as_default():
            case = build(tf)
            with tf.Session() as sess:
                case["saver"].restore(sess, os.path.join(d, spec["checkpoint"]))
                for run, values in zip(spec["runs"], got["values"]):
                    feeds = {feed: arrays[key] for feed, key in run["feeds"].items()}
                    mine = sess.run(run["fetches"] + run["targets"], feeds)
                    for a, b in zip(mine, values):
                        worst = max(worst, float(np.max(np.abs(
                            np.asarray(a, np.float64) - np.asarray(b, np.float64)), initial=0)))
    except Exception as e:  # noqa: BLE001 - recorded: TF cannot build the case itself
        return f"unavailable: {type(e).__name__}: {str(e)[:200]}"
    return worst


def main(argv: list) -> int:
    if argv[:1] == ["--read"]:
        read_with_tf(argv[1:])
        return 0
    tf_python = "/tmp/tf/bin/python"
    if argv[:1] == ["--tf"]:
        tf_python, argv = argv[1], argv[2:]
    names = write_cases(argv)
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", CUDA_VISIBLE_DEVICES="")
    with tempfile.TemporaryDirectory() as tmp:   # run TF away from the repo's tf1compat
        subprocess.run([tf_python, os.path.abspath(__file__), "--read"] + names, check=True,
                       env=env, cwd=tmp)
    return compare(names)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
