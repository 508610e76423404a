"""The environment of a child Python process that a test starts."""

from __future__ import annotations

import os
from typing import Dict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_env(**extra: str) -> Dict[str, str]:
    """os.environ with this checkout first on PYTHONPATH, plus `extra` variables.

    The caller's PYTHONPATH is kept after the checkout: packages installed with
    `pip install --target` (the GPU machine's carried wheels) must reach the child too."""
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + kept), **extra)
