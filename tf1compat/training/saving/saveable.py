"""What a name-based Saver saves: SaveableObjects built from variables (TF's
saveable_object / saveable_object_util).

A SaveableObject holds one or more SaveSpecs (tensor to save, checkpoint key, slice spec,
dtype, device) and knows how to restore itself from the tensors RestoreV2 reads (an
Assign for a ref variable, an AssignVariableOp for a resource variable). `op_list_to_dict`
names variables as TF does (the variable op's name; partitions under their full name), and
`validate_and_slice_inputs` turns {name: variable} into the sorted list of saveables.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import GraphKeys, device, get_default_graph
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor

__all__ = ["SaveSpec", "SaveableObject", "TensorListSaveable", "ReferenceVariableSaveable",
           "ResourceVariableSaveable", "op_list_to_dict", "saveable_objects_for_op",
           "validate_and_slice_inputs", "all_saveable_objects", "set_cpu0"]

_VARIABLE_OPS = frozenset(["Variable", "VariableV2", "AutoReloadVariable", "VarHandleOp",
                           "ReadVariableOp"])
_REF_VARIABLE_OPS = frozenset(["Variable", "VariableV2", "AutoReloadVariable"])


def set_cpu0(device_string: str) -> str:
    """The same job/replica/task with the device replaced by /device:CPU:0."""
    from tf1compat.framework.device_spec import DeviceSpec
    spec = DeviceSpec.from_string(device_string or "")
    return spec.replace(device_type="CPU", device_index=0).to_string()


class SaveSpec:
    """One tensor to save: the tensor (or a function making it), its key and slice."""

    def __init__(self, tensor: Any, slice_spec: str, name: str, dtype: Any = None,
                 device: Optional[str] = None):
        self._tensor = tensor
        self.slice_spec = slice_spec
        self.name = name
        if callable(tensor) and not isinstance(tensor, Tensor):
            if dtype is None or device is None:
                raise AssertionError("When passing a callable `tensor` to a SaveSpec, an "
                                     "explicit dtype and device must be provided.")
            self.dtype = D.as_dtype(dtype)
            self.device = device
        else:
            self.dtype = D.as_dtype(tensor.dtype).base_dtype if dtype is None \
                else D.as_dtype(dtype).base_dtype
            self.device = tensor.device if device is None else device

    @property
    def tensor(self) -> Any:
        return self._tensor() if callable(self._tensor) and \
            not isinstance(self._tensor, Tensor) else self._tensor


class SaveableObject:
    """A thing to save and restore: `op` (what it stands for), `specs`, `name`."""

    def __init__(self, op: Any, specs: List[SaveSpec], name: str):
        self.op = op
        self.specs = specs
        self.name = name

    @property
    def device(self) -> str:
        return self.specs[0].device

    def restore(self, restored_tensors: List[Tensor], restored_shapes: Any) -> Any:
        raise NotImplementedError


class TensorListSaveable(SaveableObject):
    """An object below this layer that saves tensors (a mutable lookup table): it gives
    `name`, `op`, `checkpoint_tensors()` -> [(tensor, checkpoint key)] and
    `restore_tensors(restored)` -> the restore op."""

    def __init__(self, source: Any):
        self.source = source
        specs = [SaveSpec(tensor, "", key) for tensor, key in source.checkpoint_tensors()]
        super().__init__(source.op, specs, source.name)

    def restore(self, restored_tensors: List[Tensor], restored_shapes: Any) -> Any:
        return self.source.restore_tensors(restored_tensors)


class ReferenceVariableSaveable(SaveableObject):
    """A ref variable (or one partition of it): restored with Assign."""

    def __init__(self, var: Any, slice_spec: str, name: str):
        spec = SaveSpec(var, slice_spec, name, dtype=var.dtype)
        super().__init__(var, [spec], name)

    def restore(self, restored_tensors: List[Tensor], restored_shapes: Any) -> Any:
        from tf1compat.ops import state_ops
        from tf1compat.ops.array_ops import reshape
        restored = restored_tensors[0]
        if restored_shapes is not None:
            restored = reshape(restored, restored_shapes[0])
        shape = self.op.get_shape()
        return state_ops.assign(self.op, restored,
                                validate_shape=restored_shapes is None and
                                shape.is_fully_defined())


class ResourceVariableSaveable(SaveableObject):
    """A resource variable (or its ReadVariableOp): restored with AssignVariableOp."""

    def __init__(self, var: Any, slice_spec: str, name: str):
        self._var_device = var.device
        self._var_shape = var.shape
        if isinstance(var, Tensor):
            self.handle_op = var.op.inputs[0]
            tensor = var
        elif getattr(var, "_is_resource_variable", False):
            self.handle_op = var.handle

            def tensor() -> Tensor:
                from tf1compat.ops.array_ops import identity
                with device(var.device):
                    value = var.read_value()
                    with device("/device:CPU:0"):
                        return identity(value)
        else:
            raise ValueError("Saveable is neither a resource variable nor a read operation. "
                             f"Got: {var!r}")
        spec = SaveSpec(tensor, slice_spec, name, dtype=var.dtype, device=var.device)
        super().__init__(var, [spec], name)

    def restore(self, restored_tensors: List[Tensor], restored_shapes: Any) -> Any:
        from tf1compat.ops import resource_variable_ops as rvo
        from tf1compat.ops.array_ops import identity, reshape
        restored = restored_tensors[0]
        if restored_shapes is not None:
            restored = reshape(restored, restored_shapes[0])
        with device(self._var_device):
            restored = identity(restored)
            if not self._var_shape.is_compatible_with(restored.shape):
                raise ValueError(f"Received incompatible tensor with shape {restored.shape} "
                                 "when attempting to restore variable with shape "
                                 f"{self._var_shape} and name {self.name}.")
            return rvo.assign_variable_op(self.handle_op, restored)


def _is_variable(obj: Any) -> bool:
    from tf1compat.variables.variables import Variable
    return isinstance(obj, Variable)


def _is_partitioned(obj: Any) -> bool:
    from tf1compat.variables.partitioned import PartitionedVariable
    return isinstance(obj, PartitionedVariable)


def _tensor_comes_from_variable(v: Any) -> bool:
    return isinstance(v, Tensor) and v.op.type in _VARIABLE_OPS


def saveable_objects_for_op(op: Any, name: str) -> Iterator[SaveableObject]:
    """The SaveableObjects that together save and restore `op` under `name`."""
    if not isinstance(name, str):
        raise TypeError("names_to_saveables must be a dict mapping string names to trackable "
                        f"operations. Name is not a string: {name}")
    if isinstance(op, SaveableObject):
        yield op
    elif hasattr(op, "checkpoint_tensors"):
        yield TensorListSaveable(op)
    elif isinstance(op, (list, tuple)) or _is_partitioned(op):
        slice_name = None
        for variable in list(op):
            if isinstance(variable, SaveableObject):
                yield variable
                continue
            if not _is_variable(variable):
                raise ValueError(f"Slices must all be Variables: {variable}")
            info = variable._get_save_slice_info()
            if not info:
                raise ValueError(f"Slices must all be slices: {variable}")
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError(f"Slices must all be from the same tensor: {slice_name} != "
                                 f"{info.full_name}")
            if variable.op.type in _REF_VARIABLE_OPS:
                yield ReferenceVariableSaveable(variable, info.spec, name)
            else:
                yield ResourceVariableSaveable(variable, info.spec, name)
    elif getattr(op, "_is_resource_variable", False):
        yield ResourceVariableSaveable(op._graph_element, "", name)
    else:
        variable = convert_to_tensor(op, as_ref=True)
        if not _tensor_comes_from_variable(variable):
            raise TypeError("names_to_saveables must be a dict mapping string names to "
                            f"Tensors/Variables. Not a variable: {variable}")
        if variable.op.type in _REF_VARIABLE_OPS:
            yield ReferenceVariableSaveable(variable, "", name)
        else:
            yield ResourceVariableSaveable(variable, "", name)


def _flatten(values: Any) -> List[Any]:
    out: List[Any] = []
    for v in values:
        if isinstance(v, (list, tuple)) and not _is_partitioned(v):
            out.extend(_flatten(v))
        else:
            out.append(v)
    return out


def op_list_to_dict(op_list: Any, convert_variable_to_tensor: bool = True) -> Dict[str, Any]:
    """{checkpoint name: variable (or list of partitions)} for a list of variables.

    Names are the variables' op names (a resource variable's handle name); partitions
    are grouped under their full variable's name, as TF's Saver names them.
    """
    if not isinstance(op_list, (list, tuple, set)):
        raise TypeError("Variables to save should be passed in a dict or a list. Got "
                        f"{op_list}")
    items = sorted(_flatten(list(op_list)), key=lambda x: x.name)
    names_to_saveables: Dict[str, Any] = {}
    for var in items:
        if isinstance(var, SaveableObject) or hasattr(var, "checkpoint_tensors"):
            names_to_saveables[var.name] = var
        elif _is_partitioned(var):
            if var.name in names_to_saveables:
                raise ValueError(f"At least two variables have the same name: {var.name}")
            names_to_saveables[var.name] = var
        elif _is_variable(var) and var._get_save_slice_info():
            name = var._get_save_slice_info().full_name
            if name in names_to_saveables:
                if not isinstance(names_to_saveables[name], list):
                    raise ValueError(f"Mixing slices and non-slices with the same name: {name}")
                names_to_saveables[name].append(var)
            else:
                names_to_saveables[name] = [var]
        else:
            if convert_variable_to_tensor:
                if getattr(var, "_is_resource_variable", False):
                    var = var._graph_element
                else:
                    var = convert_to_tensor(var, as_ref=True)
                if not _tensor_comes_from_variable(var):
                    raise TypeError(f"Variable to save is not a Variable: {var}")
            if var.op.type == "ReadVariableOp":
                name = var.op.inputs[0].op.name
            else:
                name = var.op.name
            if name in names_to_saveables:
                raise ValueError(f"At least two variables have the same name: {name}")
            names_to_saveables[name] = var
    return names_to_saveables


def validate_and_slice_inputs(names_to_saveables: Dict[str, Any]) -> List[SaveableObject]:
    """The SaveableObjects for {name: variable}, sorted by name; each variable once."""
    saveables: List[SaveableObject] = []
    seen: Dict[int, Any] = {}     # by identity: tensors and variables overload ==
    for name, op in sorted(names_to_saveables.items(), key=lambda x: x[0]):
        for saveable in saveable_objects_for_op(op, name):
            if saveable.op is not None and id(saveable.op) in seen:
                raise ValueError("The same saveable will be restored with two names: "
                                 f"{saveable.name}")
            saveables.append(saveable)
            seen[id(saveable.op)] = saveable.op
    return saveables


def all_saveable_objects(scope: Optional[str] = None) -> List[Any]:
    """Global variables plus the SAVEABLE_OBJECTS collection (TF's default Saver list)."""
    graph = get_default_graph()
    return graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope) + \
        graph.get_collection(GraphKeys.SAVEABLE_OBJECTS, scope)
