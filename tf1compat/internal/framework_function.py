"""`tensorflow.python.framework.function`: TF 1.x's `Defun` graph functions
(graphdef/defun.py)."""

from tf1compat.graphdef.defun import Defun, from_library

__all__ = ["Defun", "from_library"]
