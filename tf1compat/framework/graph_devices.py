"""Graph device scopes: the function a `Graph.device(...)` scope pushes, and TF's
`_apply_device_functions` walk over the scope stack (standalone Keras reads the current
scope through it, with a stand-in op)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from tf1compat.framework.device_spec import DeviceSpec

__all__ = ["device_function", "apply_device_functions"]


def device_function(spec: Any) -> Optional[Callable[[Any], Any]]:
    """The function a `device(spec)` scope pushes: None for `device(None)` (a reset), the
    function itself, or one merging a device string / DeviceSpec into the op's device
    (carrying the spec as `merge_spec`)."""
    if spec is None:
        return None
    if callable(spec) and not isinstance(spec, (str, DeviceSpec)):
        return spec
    merged = DeviceSpec.from_string(spec.to_string() if isinstance(spec, DeviceSpec) else spec)

    def fn(op: Any, _spec: DeviceSpec = merged) -> str:
        current = DeviceSpec.from_string(op.device)
        return _spec.make_merged_spec(current).to_string()
    fn.merge_spec = merged  # type: ignore[attr-defined]
    return fn


def apply_device_functions(stack: List[Optional[Callable[[Any], Any]]], op: Any) -> None:
    """TF's `Graph._apply_device_functions`: the scopes innermost first, up to a
    `device(None)`, empty string scopes skipped (null merges); each merged device string
    goes to `op._set_device_from_string` when it changes."""
    prior = None
    for fn in reversed(stack):
        if fn is None:
            break
        spec = getattr(fn, "merge_spec", None)
        if spec is not None and not spec.to_string():
            continue
        device = fn(op)
        device = device.to_string() if isinstance(device, DeviceSpec) else device
        if device != prior:
            op._set_device_from_string(device)
            prior = device
