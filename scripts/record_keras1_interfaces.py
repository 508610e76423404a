"""Records Keras 2.2.4's Keras 1 argument conversions (keras/legacy/interfaces.py) as
tests/golden/data/keras1_interfaces.json, replayed against tf1compat.keras.legacy by
tests/test_keras_legacy.py (never run in CI).

The oracle is Keras 2.2.4's own module: its source comes from a git clone of
keras-team/keras (`--keras-git DIR`, tag 2.2.4) and is executed as is (it needs only
numpy and six); each case applies one `legacy_*_support` decorator to a function that
returns the (args, kwargs) it receives, and records them with the warnings (category and
text) or the exception (class and message).

    python scripts/record_keras1_interfaces.py --keras-git /path/to/keras/.git
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tests.keras1_interface_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden",
                   "data", "keras1_interfaces.json")


def load_interfaces(git_dir: str) -> types.ModuleType:
    source = subprocess.run(["git", f"--git-dir={git_dir}", "show",
                             "2.2.4:keras/legacy/interfaces.py"],
                            check=True, capture_output=True, text=True).stdout
    module = types.ModuleType("keras_224_interfaces")
    exec(compile(source, "keras-2.2.4/keras/legacy/interfaces.py", "exec"), module.__dict__)
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keras-git", required=True)
    interfaces = load_interfaces(parser.parse_args().keras_git)
    golden = {name: run_case(interfaces, rule, owner, args, kwargs)
              for name, (rule, owner, args, kwargs) in CASES.items()}
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
    print(f"{len(golden)} cases -> {OUT}")


if __name__ == "__main__":
    main()
