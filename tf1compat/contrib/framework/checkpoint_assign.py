"""`tf.contrib.framework`'s (and slim's) initialization of variables from values or a
checkpoint, the `init_fn` of fine-tuning scripts:

    init_fn = slim.assign_from_checkpoint_fn(
        "inception_v3.ckpt", slim.get_variables_to_restore(exclude=["InceptionV3/Logits"]),
        ignore_missing_vars=True)
    slim.learning.train(train_op, logdir, init_fn=init_fn)

`assign_from_values` / `assign_from_checkpoint` return (assign op, feed dict): one
placeholder `placeholder/<variable>` per variable, fed with the value; the `*_fn` forms
return a callback(session). A partitioned variable's part takes its slice of the
checkpoint's full tensor.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

from tf1compat.framework.graph import GraphKeys, get_collection
from tf1compat.ops.array_ops import placeholder
from tf1compat.ops.control_flow_ops import group
from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
from tf1compat.util import tf_logging as logging

__all__ = ["assign_from_values", "assign_from_values_fn", "assign_from_checkpoint",
           "assign_from_checkpoint_fn", "get_variable_full_name"]


def get_variable_full_name(var: Any) -> str:
    """The checkpoint name of `var`: a partition's full variable name, else its op name."""
    slice_info = getattr(var, "_save_slice_info", None)
    return slice_info.full_name if slice_info else var.op.name


def _fed_assign(var: Any, value: Any, feed_dict: Dict[Any, Any]) -> Any:
    holder = placeholder(dtype=var.dtype.base_dtype, shape=var.get_shape(),
                         name="placeholder/" + var.op.name)
    feed_dict[holder] = value
    return var.assign(holder)


def assign_from_values(var_names_to_values: Dict[str, Any]) -> Tuple[Any, Dict[Any, Any]]:
    """An op assigning each named global variable its value, and the feed dict it needs;
    ValueError for a name that matches no variable or several without an exact one."""
    feed_dict: Dict[Any, Any] = {}
    assign_ops = []
    for var_name, value in var_names_to_values.items():
        found = get_collection(GraphKeys.GLOBAL_VARIABLES, var_name)
        if not found:
            raise ValueError("Variable %s wasn't found" % var_name)
        if len(found) > 1:
            exact = [v for v in found if v.op.name == var_name]
            if not exact:
                raise ValueError("Variable %s doesn't uniquely identify a variable" %
                                 var_name)
            var = exact[0]
        else:
            var = found[0]
        assign_ops.append(_fed_assign(var, value.reshape(var.get_shape()), feed_dict))
    return group(*assign_ops), feed_dict


def assign_from_values_fn(var_names_to_values: Dict[str, Any]) -> Callable[[Any], Any]:
    """A callback(session) running `assign_from_values`' op."""
    assign_op, feed_dict = assign_from_values(var_names_to_values)
    return lambda session: session.run(assign_op, feed_dict)


def assign_from_checkpoint(model_path: str, var_list: Any, ignore_missing_vars: bool = False
                           ) -> Tuple[Any, Dict[Any, Any]]:
    """An op assigning the variables of `var_list` (a list, or a dict checkpoint name ->
    variable or list of variables) their checkpoint values, and its feed dict. A name
    missing from the checkpoint raises ValueError (is skipped with a warning with
    `ignore_missing_vars`); a shape mismatch raises ValueError."""
    grouped: Dict[str, list] = {}
    if isinstance(var_list, (tuple, list)):
        for var in var_list:
            grouped.setdefault(get_variable_full_name(var), []).append(var)
    else:
        for name, value in var_list.items():
            grouped[name] = list(value) if isinstance(value, (tuple, list)) else [value]
    reader = NewCheckpointReader(model_path)
    feed_dict: Dict[Any, Any] = {}
    assign_ops = []
    for name, variables in grouped.items():
        if not reader.has_tensor(name):
            message = "Checkpoint is missing variable [%s]" % name
            if ignore_missing_vars:
                logging.warning(message)
                continue
            raise ValueError(message)
        value = reader.get_tensor(name)
        for var in variables:
            slice_info = getattr(var, "_save_slice_info", None)
            if slice_info:
                part = tuple(slice(start, start + size) for start, size in
                             zip(slice_info.var_offset, slice_info.var_shape))
                part_value = value[part].reshape(slice_info.var_shape)
            else:
                if var.get_shape() != value.shape:
                    raise ValueError("Total size of new array must be unchanged for %s "
                                     "lh_shape: [%s], rh_shape: [%s]" %
                                     (name, str(value.shape), str(var.get_shape())))
                part_value = value
            assign_ops.append(_fed_assign(var, part_value, feed_dict))
    return group(*assign_ops), feed_dict


def assign_from_checkpoint_fn(model_path: str, var_list: Any,
                              ignore_missing_vars: bool = False,
                              reshape_variables: bool = False
                              ) -> Optional[Callable[[Any], None]]:
    """A callback(session) restoring `var_list` from `model_path` with a Saver (None,
    with a warning, when `ignore_missing_vars` leaves nothing to restore); ValueError
    for an empty var_list."""
    from tf1compat.training.saving.saver import Saver
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = NewCheckpointReader(model_path)
        var_dict = var_list if isinstance(var_list, dict) else \
            {var.op.name: var for var in var_list}
        available = {}
        for name, var in var_dict.items():
            if reader.has_tensor(name):
                available[name] = var
            else:
                logging.warning("Variable %s missing in checkpoint %s", name, model_path)
        var_list = available
    if not var_list:
        logging.warning("No Variables to restore")
        return None
    saver = Saver(var_list, reshape=reshape_variables)

    def callback(session: Any) -> None:
        saver.restore(session, model_path)
    return callback
