"""`tensorflow.python.util.lazy_loader.LazyLoader`: a module object that imports its
module on first attribute access (TensorFlow Probability defers tfp.edward2 this way)."""

import importlib
import types
from typing import Any, Dict

__all__ = ["LazyLoader"]


class LazyLoader(types.ModuleType):
    """Stands for module `name` under `local_name` in `parent_module_globals`; the first
    attribute access imports it and puts the real module there in its place."""

    def __init__(self, local_name: str, parent_module_globals: Dict[str, Any], name: str):
        self._local_name = local_name
        self._parent_module_globals = parent_module_globals
        super().__init__(name)

    def _load(self) -> types.ModuleType:
        module = importlib.import_module(self.__name__)
        self._parent_module_globals[self._local_name] = module
        # later lookups through this object skip __getattr__
        self.__dict__.update(module.__dict__)
        return module

    def __getattr__(self, item: str) -> Any:
        return getattr(self._load(), item)

    def __dir__(self) -> list:
        return dir(self._load())
