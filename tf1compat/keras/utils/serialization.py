"""Keras object serialization: the custom-object registry (`CustomObjectScope`,
`register_keras_serializable`) and the `{"class_name": ..., "config": ...}` form that
model configs, JSON and HDF5 files use (tf-keras's legacy serialization format)."""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Dict, Optional

__all__ = ["CustomObjectScope", "custom_object_scope", "get_custom_objects",
           "register_keras_serializable", "get_registered_name", "get_registered_object",
           "serialize_keras_object", "deserialize_keras_object",
           "class_and_config_for_serialized_keras_object"]

_GLOBAL_CUSTOM_OBJECTS: Dict[str, Any] = {}
_GLOBAL_CUSTOM_NAMES: Dict[Any, str] = {}
_THREAD_LOCAL = threading.local()


def _scoped_objects() -> Dict[str, Any]:
    if not hasattr(_THREAD_LOCAL, "objects"):
        _THREAD_LOCAL.objects = {}
    return _THREAD_LOCAL.objects


class CustomObjectScope:
    """`with CustomObjectScope({'name': obj}):` makes the names resolvable while
    deserializing (nested scopes stack)."""

    def __init__(self, *args: Optional[Dict[str, Any]]):
        self.custom_objects = args
        self._backup: Optional[Dict[str, Any]] = None

    def __enter__(self) -> "CustomObjectScope":
        scoped = _scoped_objects()
        self._backup = dict(scoped)
        for objects in self.custom_objects:
            scoped.update(objects or {})
        return self

    def __exit__(self, *exc: Any) -> None:
        scoped = _scoped_objects()
        scoped.clear()
        scoped.update(self._backup or {})


def custom_object_scope(*args: Optional[Dict[str, Any]]) -> CustomObjectScope:
    return CustomObjectScope(*args)


def get_custom_objects() -> Dict[str, Any]:
    """The global registry dict (mutable: `get_custom_objects()['f'] = f`)."""
    return _GLOBAL_CUSTOM_OBJECTS


def register_keras_serializable(package: str = "Custom", name: Optional[str] = None
                                ) -> Callable[[Any], Any]:
    """Decorator registering a class or function as `package>name`."""
    def decorator(arg: Any) -> Any:
        class_name = name if name is not None else arg.__name__
        registered = package + ">" + class_name
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        _GLOBAL_CUSTOM_OBJECTS[registered] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered
        return arg
    return decorator


def get_registered_name(obj: Any) -> str:
    """The registered name of `obj`, else its Python name."""
    if obj in _GLOBAL_CUSTOM_NAMES:
        return _GLOBAL_CUSTOM_NAMES[obj]
    return obj.__name__


def get_registered_object(name: str, custom_objects: Optional[Dict[str, Any]] = None,
                          module_objects: Optional[Dict[str, Any]] = None) -> Any:
    """`name` looked up in custom_objects, the scoped and global registries, then
    module_objects (None when absent)."""
    scoped = _scoped_objects()
    if name in scoped:
        return scoped[name]
    if name in _GLOBAL_CUSTOM_OBJECTS:
        return _GLOBAL_CUSTOM_OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


def serialize_keras_object(instance: Any) -> Any:
    """`{"class_name", "config"}` for objects with get_config, the name for functions."""
    if instance is None:
        return None
    if hasattr(instance, "get_config") and not isinstance(instance, type):
        config = instance.get_config()
        serialized: Dict[str, Any] = {}
        for key, item in config.items():
            if isinstance(item, str):
                serialized[key] = item
                continue
            try:
                value = serialize_keras_object(item)
                if isinstance(value, dict) and not isinstance(item, dict):
                    value["__passive_serialization__"] = True
                serialized[key] = value
            except ValueError:
                serialized[key] = item
        return {"class_name": get_registered_name(type(instance)), "config": serialized}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement "
                     "`get_config()`.")


def _unknown(kind: str, name: str) -> ValueError:
    return ValueError(f"Unknown {kind}: '{name}'. Please ensure you are using a "
                      "`keras.utils.custom_object_scope` and that this object is included "
                      "in the scope. See https://www.tensorflow.org/guide/keras/"
                      "save_and_serialize#registering_the_custom_object for details.")


def class_and_config_for_serialized_keras_object(config: Any, module_objects: Any = None,
                                                 custom_objects: Any = None,
                                                 printable_module_name: str = "object"
                                                 ) -> tuple:
    """(class, config with passively serialized items deserialized) of a serialized
    object."""
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict "
                         "contains `class_name` and `config` as keys")
    class_name = config["class_name"]
    cls = get_registered_object(class_name, custom_objects, module_objects)
    if cls is None:
        raise _unknown(printable_module_name, class_name)
    cls_config = config["config"]
    if isinstance(cls_config, list):
        return cls, cls_config
    out: Dict[str, Any] = {}
    for key, item in cls_config.items():
        if key != "name" and isinstance(item, dict) and "__passive_serialization__" in item:
            out[key] = deserialize_keras_object(item, module_objects=module_objects,
                                                custom_objects=custom_objects,
                                                printable_module_name="config_item")
        elif key != "name" and isinstance(item, str) and inspect.isfunction(
                get_registered_object(item, custom_objects)):
            out[key] = get_registered_object(item, custom_objects)
        else:
            out[key] = item
    return cls, out


def deserialize_keras_object(identifier: Any, module_objects: Optional[Dict[str, Any]] = None,
                             custom_objects: Optional[Dict[str, Any]] = None,
                             printable_module_name: str = "object") -> Any:
    """The object a serialized form stands for (a config dict or a registered name)."""
    module_objects = module_objects or {}
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, cls_config = class_and_config_for_serialized_keras_object(
            identifier, module_objects, custom_objects, printable_module_name)
        if hasattr(cls, "from_config"):
            params = inspect.signature(cls.from_config).parameters
            if "custom_objects" in params:
                merged = {**_GLOBAL_CUSTOM_OBJECTS, **_scoped_objects(),
                          **(custom_objects or {})}
                return cls.from_config(cls_config, custom_objects=merged)
            with CustomObjectScope(custom_objects or {}):
                return cls.from_config(cls_config)
        with CustomObjectScope(custom_objects or {}):
            return cls(**cls_config)
    if isinstance(identifier, str):
        if custom_objects and identifier in custom_objects:
            obj = custom_objects[identifier]
        elif identifier in _scoped_objects():
            obj = _scoped_objects()[identifier]
        elif identifier in _GLOBAL_CUSTOM_OBJECTS:
            obj = _GLOBAL_CUSTOM_OBJECTS[identifier]
        else:
            obj = module_objects.get(identifier)
            if obj is None:
                raise _unknown(printable_module_name, identifier)
        return obj() if inspect.isclass(obj) else obj
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")

