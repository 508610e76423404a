"""`tf.logging` follows the root logger as TF 1.x's does (oracle: TF 2.21's compat.v1 run
on the same scripts, outputs written below): WARNING by default, INFO once absl's
`app.run` or `logging.basicConfig(level=INFO)` configured the root logger, records naming
the user's file and line."""

import subprocess
import sys
import textwrap

import pytest


def _run(tmp_path, source: str) -> subprocess.CompletedProcess:
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script)],
                          capture_output=True, text=True, timeout=120)


def test_default_is_warning_and_basic_config_turns_info_on(tmp_path):
    # TF 2.21 printed: WARNING:tensorflow:w0 / 30 / INFO:tensorflow:i1 twice (its own
    # handler, then the root's basicConfig handler).
    done = _run(tmp_path, """
        import logging
        import tensorflow as tf
        tf.logging.info("i0")
        tf.logging.warning("w0")
        print(tf.logging.get_verbosity())
        logging.basicConfig(level=logging.INFO)
        tf.logging.info("i1")
        """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["30"]
    lines = [line for line in done.stderr.splitlines() if "tensorflow:" in line]
    assert lines == ["WARNING:tensorflow:w0", "INFO:tensorflow:i1", "INFO:tensorflow:i1"]


def test_app_run_logs_info_through_absl_with_the_callers_line(tmp_path):
    # TF 2.21 printed "INFO:tensorflow:info in main" and absl's "I... s.py:5] info in main".
    done = _run(tmp_path, """
        import tensorflow as tf

        def main(_):
            tf.logging.info("info in main")
            print("verbosity", tf.logging.get_verbosity())

        if __name__ == "__main__":
            tf.app.run()
        """)
    assert done.returncode == 0, done.stderr
    assert "verbosity 20" in done.stdout
    assert "INFO:tensorflow:info in main" in done.stderr
    absl_lines = [line for line in done.stderr.splitlines()
                  if line.startswith("I") and line.endswith("] info in main")]
    assert len(absl_lines) == 1 and " s.py:5]" in absl_lines[0], done.stderr


@pytest.mark.parametrize("level", ["DEBUG", "ERROR"])
def test_set_verbosity_sets_the_tensorflow_logger(tmp_path, level):
    done = _run(tmp_path, f"""
        import tensorflow as tf
        tf.logging.set_verbosity(tf.logging.{level})
        print(tf.logging.get_verbosity() == tf.logging.{level})
        tf.logging.warning("w")
        """)
    assert done.stdout.split() == ["True"]
    assert ("WARNING:tensorflow:w" in done.stderr) == (level == "DEBUG")
