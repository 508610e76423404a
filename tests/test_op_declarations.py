"""Every module of the package imports together: an op type declared twice (for example
in a module that is only imported lazily, as tf.data's) fails here rather than in the
first script that happens to reach both declarations."""

import importlib
import pkgutil

import tf1compat
from tf1compat.framework import op_def


def test_all_modules_import_without_duplicate_declarations():
    failures = []
    for info in pkgutil.walk_packages(tf1compat.__path__, "tf1compat."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ValueError as e:
            if "declared twice" in str(e):
                failures.append(f"{info.name}: {e}")
    assert not failures, "\n".join(failures)
    assert "SerializeSparse" in op_def.registered_op_types()
