"""Records how TF 1.15's `tf.compat.v2` relates to its `tf.compat.v1` into
tf1compat/api/_tf_v2_names.py, from TF 1.15's own sources (no TF is run).

    pip download tensorflow-cpu==1.15.0 --no-deps --python-version 3.7 \
        --only-binary=:all: -d /tmp/tf115dl
    python3 -m zipfile -e /tmp/tf115dl/tensorflow_cpu-1.15.0-*.whl /tmp/tf115src
    python3 scripts/record_v2_names.py /tmp/tf115src/tensorflow_core

TF 1.15 generated its API as Python files of imports (`from tensorflow.python.ops.array_ops
import where_v2 as where`), one package per namespace, for v1 (`_api/v1/compat/v1`, Keras'
`python/keras/api/_v1`) and v2 (`_api/v1/compat/v2`, `python/keras/api/_v2`). For every
public v2 name the table says whether v1's object serves it (v1 exports the same function,
or one taking v2's arguments in v2's order with v2's defaults), v2's parameters and
defaults where it differs (read from the function's definition), or that only v2 has it.
tf1compat/api/compat_v2.py builds `tf.compat.v2` from it over tf1compat's v1 objects.
"""

from __future__ import annotations

import ast
import os
import pprint
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Not recorded: `compat` re-exports both APIs, `raw_ops` is v1's (compat_v2.py says so),
# `summary` is TensorBoard's (tf1compat's api/summary_v2.py), `estimator` is
# tensorflow_estimator's, `lite` is TF Lite's converter.
SKIPPED = {"compat", "raw_ops", "summary", "estimator", "lite"}


class _Sources:
    """TF 1.15's Python files under `core` (tensorflow_core), parsed once each."""

    def __init__(self, core: str):
        self.core = core
        self._trees: dict = {}

    def path(self, module: str) -> str:
        parts = module.split(".")
        assert parts[0] == "tensorflow", module
        return os.path.join(self.core, *parts[1:])

    def tree(self, module: str) -> ast.Module | None:
        if module not in self._trees:
            base = self.path(module)
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.exists(candidate):
                    with open(candidate, encoding="utf-8") as f:
                        self._trees[module] = ast.parse(f.read())
                    break
            else:
                self._trees[module] = None
        return self._trees[module]

    def is_package(self, module: str) -> bool:
        return os.path.exists(os.path.join(self.path(module), "__init__.py"))


def _api(sources: _Sources, package: str, ns: str, out: dict) -> None:
    """{namespace: {name: (module, symbol)}} of one API package and the packages below it;
    a namespace's entry for a child namespace is ("<namespace>", its API package)."""
    names = out.setdefault(ns, {})
    tree = sources.tree(package)
    for node in tree.body if tree else ():
        if not isinstance(node, ast.ImportFrom) or node.module is None or node.level:
            continue
        for alias in node.names:
            name = alias.asname or alias.name
            if name.startswith("_"):
                continue
            child = f"{node.module}.{alias.name}"
            if sources.is_package(child) and ("._api." in child or ".api._v" in child):
                if ns == "" and name in SKIPPED:
                    continue
                names[name] = ("<namespace>", child)
                _api(sources, child, f"{ns}.{name}" if ns else name, out)
            else:
                names[name] = (node.module, alias.name)


def _literal(node: ast.expr):
    """A default as the table holds it: a Python literal, ("__dtype__", name) for
    `dtypes.int32`, else ("__unrecorded__",)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id in ("dtypes", "_dtypes"):
        return ("__dtype__", node.attr)
    return ("__unrecorded__",)


def _definition(sources: _Sources, module: str, symbol: str, depth: int = 0):
    """The top-level `def`/`class` that `module.symbol` names (following `a = b` aliases
    and imports of the same name), or None."""
    tree = sources.tree(module)
    if tree is None or depth > 4:
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == symbol:
            return node
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == symbol
                                                for t in node.targets):
            if isinstance(node.value, ast.Name):
                return _definition(sources, module, node.value.id, depth + 1)
            return None
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == symbol:
                    return _definition(sources, node.module, alias.name, depth + 1)
    return None


def _parameters(node) -> tuple | None:
    """A function's parameters (names, '*' before keyword-only ones, '*args'/'**kwargs')
    and {name: default}; None for a class or what the sources do not define plainly."""
    if not isinstance(node, ast.FunctionDef):
        return None
    a = node.args
    positional = a.posonlyargs + a.args
    names = [p.arg for p in positional]
    defaults = {p.arg: _literal(d) for p, d in zip(positional[len(positional) -
                                                              len(a.defaults):], a.defaults)}
    if a.vararg:
        names.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        names.append("*")
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        names.append(p.arg)
        if d is not None:
            defaults[p.arg] = _literal(d)
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
    return tuple(names), defaults


def _fixed_arguments(v2_def, v1_symbol: str, v1_parameters: tuple | None) -> dict:
    """The literal arguments v2's function passes to v1's where v1 takes them as
    parameters v2 does not have (`cond_for_tf_v2` calls `cond(..., strict=True)`,
    `embedding_lookup_v2` calls `embedding_lookup(params, ids, "div", ...)`)."""
    if not isinstance(v2_def, ast.FunctionDef) or v1_parameters is None:
        return {}
    own = {a.arg for a in v2_def.args.args + v2_def.args.kwonlyargs}
    v1_names = [n for n in v1_parameters[0] if not n.startswith("*")]
    # Only a function whose one call of v1's (a same-module name: `gen_*` ops take other
    # arguments than the v1 wrapper) is its unconditional last statement's value.
    calls = [n for n in ast.walk(v2_def) if isinstance(n, ast.Call) and
             isinstance(n.func, ast.Name) and n.func.id == v1_symbol]
    last = v2_def.body[-1]
    if len(calls) != 1 or not (isinstance(last, ast.Return) and last.value is calls[0]):
        return {}
    fixed = {}
    for i, arg in enumerate(calls[0].args):
        if isinstance(arg, ast.Constant) and i < len(v1_names) and v1_names[i] not in own:
            fixed[v1_names[i]] = arg.value
    for kw in calls[0].keywords:
        if kw.arg and kw.arg not in own and isinstance(kw.value, ast.Constant):
            fixed[kw.arg] = kw.value.value
    return fixed


def _serves(v1: tuple | None, v2: tuple | None) -> bool:
    """v1's function is v2's to every caller: the same parameters with the same defaults.
    One that takes more (v1's deprecated `dim`, `keep_dims`, `squeeze_dims` after v2's
    parameters) would take every v2 call, but `inspect.signature`/`getfullargspec` would
    show the extras, and libraries compare v2's argspecs (TFP's prefer_static)."""
    if v1 is None or v2 is None:
        return False
    return list(v1[0]) == list(v2[0]) and all(
        v1[1].get(n, "<none>") == v2[1].get(n, "<none>") for n in v2[0])


def _compare(sources: _Sources, v1: dict, v2: dict) -> dict:
    """{namespace: (shared, differing {name: parameters}, v2 only)} and the aliases."""
    tables, aliases = {}, {}
    packages = {}
    for ns, names in sorted(v2.items()):
        shared, differing, only = [], {}, []
        for name, (module, symbol) in sorted(names.items()):
            path = f"{ns}.{name}" if ns else name
            if module == "<namespace>":
                if symbol in packages:
                    aliases[path] = packages[symbol]
                else:
                    packages[symbol] = path
                continue
            counterpart = v1.get(ns, {}).get(name)
            if counterpart is None:
                only.append(name)
            elif counterpart == (module, symbol):
                shared.append(name)
            else:
                definition = _definition(sources, module, symbol)
                params2 = _parameters(definition)
                params1 = _parameters(_definition(sources, *counterpart))
                fixed = _fixed_arguments(definition, counterpart[1], params1)
                if fixed and params2 is not None:
                    differing[name] = params2 + (fixed,)
                elif _serves(params1, params2):
                    shared.append(name)
                else:
                    differing[name] = params2
        tables[ns] = (shared, differing, only)
    return tables, aliases


# TF 1.15's compat.v2 sets these to Keras' namespaces after its imports (the generated
# files do not say so).
KERAS_ALIASES = {name: f"keras.{name}" for name in ("losses", "metrics", "optimizers",
                                                    "initializers")}


def main(argv: list) -> int:
    core = argv[0] if argv else "/tmp/tf115src/tensorflow_core"
    sources = _Sources(core)
    v1, v2 = {}, {}
    _api(sources, "tensorflow._api.v1.compat.v1", "", v1)
    _api(sources, "tensorflow._api.v1.compat.v2", "", v2)
    v1.setdefault("", {})["keras"] = ("<namespace>", "tensorflow.python.keras.api._v1.keras")
    _api(sources, "tensorflow.python.keras.api._v1.keras", "keras", v1)
    v2[""]["keras"] = ("<namespace>", "tensorflow.python.keras.api._v2.keras")
    _api(sources, "tensorflow.python.keras.api._v2.keras", "keras", v2)
    tables, aliases = _compare(sources, v1, v2)
    aliases.update(KERAS_ALIASES)
    path = os.path.join(ROOT, "tf1compat", "api", "_tf_v2_names.py")
    with open(path, "w") as f:
        f.write('"""TF 1.15\'s tf.compat.v2 against its tf.compat.v1, recorded from TF 1.15\'s '
                'sources by\nscripts/record_v2_names.py (tf1compat/api/compat_v2.py reads it)."""'
                '\n\n# namespace -> names whose v1 object serves v2\'s calls unchanged\n')
        f.write("SHARED = {\n")
        for ns, (shared, _, _) in sorted(tables.items()):
            body = pprint.pformat(shared, width=88, compact=True).replace("\n", "\n" + " " * 8)
            f.write(f"    {ns!r}:\n        frozenset({body}),\n")
        f.write("}\n\n# namespace -> {name: (v2's parameters, their defaults[, the literal "
                "arguments v2's\n# function passes to v1's]) (None: a class or a value)} where "
                "v2's object differs\nDIFFERING = {\n")
        for ns, (_, differing, _) in sorted(tables.items()):
            if differing:
                body = pprint.pformat(differing, width=84).replace("\n", "\n" + " " * 4)
                f.write(f"    {ns!r}: {body},\n")
        f.write("}\n\n# namespace -> names only v2 has\nV2_ONLY = {\n")
        for ns, (_, _, only) in sorted(tables.items()):
            if only:
                body = pprint.pformat(only, width=88, compact=True).replace("\n", "\n" + " " * 8)
                f.write(f"    {ns!r}:\n        frozenset({body}),\n")
        f.write("}\n\n# namespace -> the namespace it is another name of\n")
        f.write(f"ALIASES = {pprint.pformat(dict(sorted(aliases.items())), width=88)}\n")
    total = sum(len(s) + len(d) + len(o) for s, d, o in tables.values())
    unknown = sum(1 for _, d, _ in tables.values() for v in d.values() if v is None)
    print(f"{total} names in {len(tables)} namespaces ({unknown} differing classes or "
          f"values) -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
