"""Folders follow the pipeline and import only downward (docs/ARCHITECTURE.md, "Layers").

Every import of a tf1compat module — at the top of a file or inside a function — must go
to the importing module's own layer or a layer below it. A new package must be given a
layer here, so the order stays a deliberate decision.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, Iterator, List, Tuple

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tf1compat")

# Bottom to top. A module may import its own layer and the layers before it.
LAYERS: List[Tuple[str, ...]] = [
    ("_version", "_tf_api_names", "_machine_load", "_thread_policy", "_host_memory"),   # no imports above
    ("framework",),                  # dtypes, shapes, Graph/Operation/Tensor, op_def, errors
    ("util",),                       # nest, gfile, tf_logging
    ("serialization",),              # protos, wire formats, records, checkpoint formats
    ("runtime",),                    # plan, codegen, interpreter, session; eager executor
    ("ops",),                        # op declarations, kernels, their tf.* wrappers
    ("ragged",),                     # tf.RaggedTensor and tf.ragged (composites of ops)
    ("autodiff",),                   # tf.gradients, custom gradients, GradientTape
    ("variables",),                  # tf.Variable, get_variable, scopes, initializers
    ("data",),                       # tf.data
    ("summary",),                    # tf.summary, event files
    ("graphdef",),                   # graphs as TF's GraphDef: export, import, functions
    ("losses", "metrics", "signal", "distributions", "linalg"),  # libraries built on ops
    ("training",),                   # optimizers, savers, hooks, sessions managers
    ("eager",),                      # enable_eager_execution, tf.function, tfe
    ("feature_column",),             # feature columns (on ops, variables, lookup tables)
    ("keras",),                      # (its DenseFeatures layer consumes feature columns)
    ("layers",),
    ("rnn",),
    ("estimator",),                  # Estimator, canned estimators, heads, TPUEstimator
    ("contrib",),
    ("distribute",),                 # Horovod-style training on torch.distributed
    ("export",),                     # TF graph -> torch.nn.Module / fx / torch.export
    ("api", "internal", "examples"),  # public faces and TF-internal import paths
    ("__init__", "shim", "shim_keras", "cli", "__main__", "check"),  # check: static scan
]

# Known exceptions, each with the reason; the list only shrinks.
ALLOWED: Dict[Tuple[str, str], str] = {}


def _layer_of(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module}: its package {top!r} has no layer in tests/test_layering.py")


def _modules() -> Iterator[Tuple[str, str]]:
    for dirpath, _dirs, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
                yield (rel[: -len(".__init__")] if rel.endswith(".__init__") else rel), path


def _imports(path: str) -> Iterator[Tuple[str, int]]:
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("tf1compat"):
                for alias in node.names:
                    yield f"{node.module}.{alias.name}", node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tf1compat"):
                    yield alias.name, node.lineno


def _target_module(name: str, known: set) -> str:
    """`from tf1compat.a import b` names module a.b or attribute b of a."""
    return name if name in known else name.rsplit(".", 1)[0]


def test_imports_only_go_down() -> None:
    modules = dict(_modules())
    known = set(modules)
    upward = []
    for module, path in sorted(modules.items()):
        mine = _layer_of(module)
        for name, line in _imports(path):
            target = _target_module(name, known)
            if target == "tf1compat":
                continue   # `from tf1compat import x` is resolved by the name below
            if _layer_of(target) > mine and (module, target) not in ALLOWED:
                upward.append(f"{os.path.relpath(path, os.path.dirname(ROOT))}:{line} "
                              f"imports {target} (layer {LAYERS[_layer_of(target)]} above "
                              f"{LAYERS[mine]})")
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_allowed_exceptions_still_exist() -> None:
    """An exception that is no longer needed is removed from ALLOWED."""
    modules = dict(_modules())
    known = set(modules)
    seen = set()
    for module, path in modules.items():
        for name, _line in _imports(path):
            seen.add((module, _target_module(name, known)))
    stale = [pair for pair in ALLOWED if pair not in seen]
    assert not stale, f"stale entries in ALLOWED: {stale}"
