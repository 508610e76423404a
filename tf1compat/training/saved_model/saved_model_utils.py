"""`tensorflow.python.tools.saved_model_utils`: reading a SavedModel's meta graphs by tag set.

`freeze_graph(input_saved_model_dir=...)` and `saved_model_cli`-style scripts pick the
MetaGraphDef whose tags equal a comma-separated tag set ("" is the empty set).
"""

from __future__ import annotations

from typing import Any, List

from tf1compat.serialization.messages import MetaGraphDef, SavedModel
from tf1compat.training.saved_model.loader import parse_saved_model

__all__ = ["read_saved_model", "get_saved_model_tag_sets", "get_meta_graph_def"]


def read_saved_model(saved_model_dir: Any) -> SavedModel:
    """The SavedModel proto in `saved_model_dir` (IOError when missing or unparsable)."""
    return parse_saved_model(saved_model_dir)


def get_saved_model_tag_sets(saved_model_dir: Any) -> List[List[str]]:
    """Every meta graph's tags, one list per MetaGraphDef, in file order."""
    return [list(meta.meta_info_def.tags)
            for meta in read_saved_model(saved_model_dir).meta_graphs]


def get_meta_graph_def(saved_model_dir: Any, tag_set: str) -> MetaGraphDef:
    """The MetaGraphDef whose tags are exactly the comma-separated `tag_set`.

    Empty tags are dropped so that "" means the empty tag set; RuntimeError lists the
    available tag sets when none matches, in TF's words.
    """
    saved_model = read_saved_model(saved_model_dir)
    wanted = {tag for tag in tag_set.split(",") if tag}
    valid = []
    for meta in saved_model.meta_graphs:
        tags = set(meta.meta_info_def.tags)
        if tags == wanted:
            return meta
        valid.append(",".join(tags))
    raise RuntimeError(f"MetaGraphDef associated with tag-set {tag_set} could not be found "
                       f"in the SavedModel. Please use one of the following tag-sets: "
                       f"{valid}")
