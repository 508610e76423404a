"""Records TF 2.21's OpDef attrs for every op type tf1compat declares, for
tests/test_op_def_attrs.py (which compares `op_def_registry.get(name).attr` with them).

    PYTHONPATH=. .venv/bin/python -c "from tf1compat.framework import op_def; \\
        print('\\n'.join(op_def.registered_op_types()))" > /tmp/op_types.txt
    /tmp/tf/bin/python scripts/record_op_def_attrs.py /tmp/op_types.txt

Writes tests/fixtures/op_def/tf_op_def_attrs.json: op type -> [[attr name, type,
has_minimum, minimum], ...] as TF's Python op registry gives them, null for an op type TF
does not register (contrib and Horovod ops, tf1compat's own).
"""

from __future__ import annotations

import json
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                   "fixtures", "op_def", "tf_op_def_attrs.json")


def main(names_file: str) -> None:
    from tensorflow.python.framework import op_def_registry
    with open(names_file) as f:
        names = sorted(line.strip() for line in f if line.strip())
    out = {}
    for name in names:
        op_def = op_def_registry.get(name)
        out[name] = None if op_def is None else [
            [a.name, a.type, a.has_minimum, a.minimum] for a in op_def.attr]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:    # one op type a line, so a diff names the op
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                     for k, v in out.items()) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
