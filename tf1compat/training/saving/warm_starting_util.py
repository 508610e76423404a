"""`tf.train.warm_start` and `tf.train.VocabInfo`: initialize a new model's variables from
another checkpoint, optionally remapping embedding rows (or columns) between vocabularies.

Variables are grouped by their checkpoint name (partitions together); plain variables get
`init_from_checkpoint` initializers; vocabulary-mapped ones get an initializer holding the
remapped matrix, computed when the graph is built from the old checkpoint and the two
vocabulary files (TF computes the same matrix with its load_and_remap_matrix ops when the
initializer runs).
"""

from __future__ import annotations

import collections
import os
from typing import Any, Dict, List, Optional

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.training.saving import checkpoint_utils
from tf1compat.training.saving.checkpoint_utils import load_checkpoint

__all__ = ["VocabInfo", "warm_start"]


class VocabInfo(collections.namedtuple("VocabInfo", [
        "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size",
        "backup_initializer", "axis"])):
    """How to remap a variable's rows (axis 0) or columns (axis 1) from an old vocabulary
    file to a new one."""

    def __new__(cls, new_vocab: str, new_vocab_size: int, num_oov_buckets: int,
                old_vocab: str, old_vocab_size: int = -1, backup_initializer: Any = None,
                axis: int = 0):
        if axis not in (0, 1):
            raise ValueError("The only supported values for the axis argument are 0 and 1.  "
                             f"Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                               old_vocab_size, backup_initializer, axis)


def _is_variable(x: Any) -> bool:
    return checkpoint_utils._is_variable(x)


def _checkpoint_name(variables: List[Any]) -> str:
    """The name a variable (or its partitions) is saved under."""
    from tf1compat.training.saving import saveable
    names = saveable.op_list_to_dict(variables)
    if len(names) > 1:
        raise TypeError(f"`var` = {variables} passed as arg violates the constraints.  "
                        f"name_to_var_dict = {names}")
    return list(names)[0]


def _grouped_variables(vars_to_warm_start: Any) -> Dict[str, List[Any]]:
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        tf_logging.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        variables = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES,
                                         scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            variables = []
            for scope in vars_to_warm_start:
                variables += graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope)
        elif all(_is_variable(v) for v in vars_to_warm_start):
            variables = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or "
                             "all `str`.  Given types are "
                             f"{[type(v) for v in vars_to_warm_start]}")
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is "
                         f"{type(vars_to_warm_start)}")
    grouped: Dict[str, List[Any]] = {}
    for v in variables:
        grouped.setdefault(_checkpoint_name(v if isinstance(v, list) else [v]), []).append(v)
    return grouped


def _read_vocab(path: str, size: int) -> List[bytes]:
    with open(path, "rb") as f:
        words = [line.rstrip(b"\r\n") for line in f]
    return words if size is None or size < 0 else words[:size]


def _remapped(variable: Any, vocab: VocabInfo, old: np.ndarray) -> np.ndarray:
    """The new value of `variable`: old rows/columns where the word exists in the old
    vocabulary, the backup initializer (or zeros) elsewhere."""
    shape = variable.get_shape().as_list()
    new_words = _read_vocab(vocab.new_vocab, vocab.new_vocab_size)
    old_index = {w: i for i, w in enumerate(_read_vocab(vocab.old_vocab,
                                                        vocab.old_vocab_size))}
    if vocab.backup_initializer is not None:
        from tf1compat.runtime.session import Session
        from tf1compat.framework.graph import Graph
        with Graph().as_default(), Session() as sess:
            value = np.array(sess.run(vocab.backup_initializer(shape, dtype=variable.dtype)))
    else:
        value = np.zeros(shape, dtype=variable.dtype.as_numpy_dtype)
    moved = np.moveaxis(value, vocab.axis, 0)
    old_moved = np.moveaxis(old, vocab.axis, 0)
    for new_i, word in enumerate(new_words):
        old_i = old_index.get(word)
        if old_i is not None and old_i < old_moved.shape[0] and new_i < moved.shape[0]:
            moved[new_i] = old_moved[old_i]
    return np.moveaxis(moved, 0, vocab.axis)


def _warm_start_with_vocab(variables: List[Any], checkpoint: str, tensor_name: str,
                           vocab: VocabInfo) -> None:
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.state_ops import assign
    if not (vocab.new_vocab and vocab.new_vocab_size and checkpoint and vocab.old_vocab):
        raise ValueError("Invalid args: Must provide all of [current_vocab_path, "
                         "current_vocab_size, prev_ckpt, prev_vocab_path}.")
    if len(variables) != 1 or not _is_variable(variables[0]):
        raise NotImplementedError("tf.train.warm_start with a VocabInfo for a partitioned "
                                  "variable is not supported by tf1compat.")
    variable = variables[0]
    old = np.asarray(load_checkpoint(checkpoint).get_tensor(tensor_name))
    value = _remapped(variable, vocab, old)
    variable._initializer_op = assign(variable, constant(value, dtype=variable.dtype.base_dtype))


def _object_checkpoint_renames(path: str, variable_names: Any) -> Dict[str, str]:
    """Variable name -> checkpoint key for an object-based checkpoint; {} for a
    name-based one. ValueError when the checkpoint lacks one of the variables."""
    from tf1compat.framework import errors
    from tf1compat.training.saving.saver import object_graph_key_mapping
    try:
        names_to_keys = object_graph_key_mapping(checkpoint_utils._checkpoint_filename(path))
    except errors.NotFoundError:
        return {}
    missing = set(variable_names) - set(names_to_keys)
    if missing:
        raise ValueError("Attempting to warm-start from an object-based checkpoint, but found "
                         "that the checkpoint did not contain values for all variables. The "
                         f"following variables were missing: {missing}")
    return {name: names_to_keys[name] for name in variable_names}


def warm_start(ckpt_to_initialize_from: str, vars_to_warm_start: Any = ".*",
               var_name_to_vocab_info: Optional[Dict[str, VocabInfo]] = None,
               var_name_to_prev_var_name: Optional[Dict[str, str]] = None) -> None:
    """`tf.train.warm_start`: initializers of the selected variables load them from
    `ckpt_to_initialize_from` (a checkpoint or a directory)."""
    tf_logging.info("Warm-starting from: {}".format(ckpt_to_initialize_from))
    grouped = _grouped_variables(vars_to_warm_start)
    vocab_infos = var_name_to_vocab_info or {}
    # From an object-based checkpoint, variable names map to their checkpoint keys (as TF)
    # unless the caller gave renames.
    renames = var_name_to_prev_var_name or _object_checkpoint_renames(
        os.fspath(ckpt_to_initialize_from), grouped.keys())
    checkpoint = os.fspath(ckpt_to_initialize_from)
    count = 0
    renames_used, vocabs_used = set(), set()
    vocabless: Dict[str, Any] = {}
    for name, variables in grouped.items():
        prev = renames.get(name)
        if prev:
            renames_used.add(name)
        vocab = vocab_infos.get(name)
        if vocab:
            vocabs_used.add(name)
            count += 1
            file = checkpoint_utils._checkpoint_filename(checkpoint)
            _warm_start_with_vocab(variables, file, prev or name, vocab)
        elif vars_to_warm_start:
            count += 1
            target = variables[0] if len(variables) == 1 else variables
            if hasattr(target, "_get_variable_list"):
                target = target._get_variable_list()
            tensor = prev or name
            if tensor in vocabless:
                checkpoint_utils.init_from_checkpoint(checkpoint, vocabless)
                vocabless.clear()
            vocabless[tensor] = target
    if vocabless:
        checkpoint_utils.init_from_checkpoint(checkpoint, vocabless)
    tf_logging.info("Warm-started %d variables.", count)
    unused = set(renames) - renames_used
    if unused:
        raise ValueError("You provided the following variables in var_name_to_prev_var_name "
                         f"that were not used: {unused}.  Perhaps you misspelled them?  Here "
                         f"is the list of viable variable names: {grouped.keys()}")
    unused = set(vocab_infos) - vocabs_used
    if unused:
        raise ValueError("You provided the following variables in var_name_to_vocab_info "
                         f"that were not used: {unused}.  Perhaps you misspelled them?  Here "
                         f"is the list of viable variable names: {grouped.keys()}")
