"""Finding the TensorFlow names a Python file uses, statically (the file is never run).

The scan follows the names a script binds to TensorFlow modules and symbols:

    import tensorflow as tf                      tf      -> tf
    import tensorflow.compat.v1 as tf            tf      -> tf (compat.v1 is TF 1.x's API)
    from tensorflow.contrib import slim          slim    -> tf.contrib.slim
    import tensorflow.contrib.slim as slim       slim    -> tf.contrib.slim
    from tensorflow.keras.layers import Dense    Dense   -> tf.keras.layers.Dense
    from tensorflow.python.ops import math_ops   math_ops -> internal module
    tf = tensorflow.compat.v1                    tf      -> tf

and reports every use: the import itself, each attribute chain rooted at such a name
(`tf.nn.rnn_cell.LSTMCell`, `slim.conv2d`; an assignment `tf.GraphKeys.INPUTS = ...` is a
use of kind "assign"), each use of an imported symbol, and `getattr(tf, "name")` with a
constant name. Standalone Keras (`import keras`, `from keras.layers import Dense`,
`K.int_shape` after `from keras import backend as K`), which tf1compat maps to its Keras
(tf1compat/shim_keras.py), is followed the same way from the root `keras`. Other packages
of the TF family (`tensorflow_hub`, `tensorflow_datasets`, ...) are reported as imports
tf1compat does not provide.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

__all__ = ["Use", "scan_source"]

ROOT = "tensorflow"
KERAS_ROOT = "keras"
_ROOT_ALIASES = ("tensorflow", "tensorflow.compat.v1")


@dataclass(frozen=True)
class Use:
    """One use of a TensorFlow name in a file."""
    line: int
    col: int
    module: str          # the Python module path it starts from ("tensorflow.contrib.slim")
    attrs: Tuple[str, ...]   # attribute chain below it (("conv2d",))
    kind: str            # "import", "name" (a use in code), "assign" (code sets it)


def _tf_module(name: str) -> Optional[str]:
    """`tensorflow.compat.v1.nn` -> `tensorflow.nn`; None for non-TF modules."""
    if name != ROOT and not name.startswith(ROOT + "."):
        return None
    for alias in sorted(_ROOT_ALIASES, key=len, reverse=True):
        if name == alias:
            return ROOT
        if name.startswith(alias + "."):
            return ROOT + name[len(alias):]
    return name


def _keras_module(name: str) -> Optional[str]:
    """`keras` and `keras.<...>` (standalone Keras) as they are; None for other modules."""
    return name if name == KERAS_ROOT or name.startswith(KERAS_ROOT + ".") else None


def _scanned_module(name: str) -> Optional[str]:
    """The module path a scan follows (TensorFlow's, normalised, or standalone Keras's)."""
    return _tf_module(name) or _keras_module(name)


def _family_package(name: str) -> Optional[str]:
    """`tensorflow_hub.x` -> `tensorflow_hub` (TF packages other than tensorflow itself)."""
    top = name.split(".", 1)[0]
    return top if top.startswith("tensorflow_") else None


class _Scanner(ast.NodeVisitor):
    """Two passes: `bind` reads imports and alias assignments, `visit` reports uses."""

    def __init__(self) -> None:
        # local name -> (module path, attribute chain) it stands for
        self.aliases: Dict[str, Tuple[str, Tuple[str, ...]]] = {}
        self.uses: List[Use] = []
        self._in_chain: set = set()

    def bind(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)
        # `tf = tensorflow.compat.v1`, after the imports it refers to
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                chain = self._chain(node.value)
                if chain is not None:
                    self.aliases[node.targets[0].id] = chain

    # -- bindings -------------------------------------------------------------------------
    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            family = _family_package(alias.name)
            if family is not None:
                self.uses.append(Use(node.lineno, node.col_offset, alias.name, (), "import"))
                continue
            module = _scanned_module(alias.name)
            if module is None:
                continue
            self.uses.append(Use(node.lineno, node.col_offset, module, (), "import"))
            if alias.asname:
                self.aliases[alias.asname] = (module, ())
            else:
                # `import tensorflow.contrib.slim` binds `tensorflow` (the root).
                top = alias.name.split(".")[0]
                self.aliases[top] = (ROOT if top == ROOT else KERAS_ROOT, ())

    def _import_from(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        family = _family_package(node.module)
        if family is not None:
            self.uses.append(Use(node.lineno, node.col_offset, node.module, (), "import"))
            return
        module = _scanned_module(node.module)
        if module is None:
            return
        for alias in node.names:
            if alias.name == "*":
                self.uses.append(Use(node.lineno, node.col_offset, module, (), "import"))
                continue
            # `from tensorflow.compat import v1 as tf`: the submodule is TF 1.x's root.
            target = _tf_module(f"{node.module}.{alias.name}")
            if target == ROOT:
                self.aliases[alias.asname or alias.name] = (ROOT, ())
                self.uses.append(Use(node.lineno, node.col_offset, ROOT, (), "import"))
                continue
            self.aliases[alias.asname or alias.name] = (module, (alias.name,))
            self.uses.append(Use(node.lineno, node.col_offset, module, (alias.name,), "import"))

    # -- uses ---------------------------------------------------------------------------------
    def _chain(self, node: ast.AST) -> Optional[Tuple[str, Tuple[str, ...]]]:
        """(module, attrs) when `node` is a name chain rooted at a TF binding."""
        attrs: List[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        module, base = self.aliases[node.id]
        return module, base + tuple(reversed(attrs))

    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        if id(node) not in self._in_chain:
            chain = self._chain(node)
            if chain is not None:
                # `tf.GraphKeys.INPUTS = "inputs"`: libraries add their own names to TF's
                kind = "assign" if isinstance(node.ctx, ast.Store) else "name"
                self.uses.append(Use(node.lineno, node.col_offset, chain[0], chain[1], kind))
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    self._in_chain.add(id(inner))
                    inner = inner.value
                return
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:  # noqa: N802
        if isinstance(node.ctx, ast.Load) and node.id in self.aliases:
            module, attrs = self.aliases[node.id]
            if attrs:       # an imported symbol used on its own (`Dense(...)`)
                self.uses.append(Use(node.lineno, node.col_offset, module, attrs, "name"))

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        # getattr(tf, "name") with a constant name is a use of tf.name
        if isinstance(node.func, ast.Name) and node.func.id == "getattr" and \
                len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and \
                isinstance(node.args[1].value, str):
            chain = self._chain(node.args[0])
            if chain is not None:
                self.uses.append(Use(node.lineno, node.col_offset, chain[0],
                                     chain[1] + (node.args[1].value,), "name"))
        self.generic_visit(node)


def scan_source(source: str, filename: str = "<source>") -> List[Use]:
    """The TensorFlow uses in `source`, in file order. Raises SyntaxError."""
    tree = ast.parse(source, filename)
    scanner = _Scanner()
    scanner.bind(tree)
    scanner.visit(tree)
    return sorted(scanner.uses, key=lambda u: (u.line, u.col))
