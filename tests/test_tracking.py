"""The object-tracking protocol behind object-graph checkpoints."""

import pytest

import tf1compat as tf
from tf1compat.training.saving import tracking


class Leaf(tracking.AutoTrackable):
    pass


def test_attribute_tracking_lists_dicts_and_variables():
    tf.reset_default_graph()
    root = Leaf()
    root.child = Leaf()
    root.items = [Leaf(), 3, Leaf()]
    root.table = {"a": Leaf()}
    root.v = tf.Variable(1.0, name="v")
    root.plain = 5
    names = [n for n, _ in root._checkpoint_dependencies]
    assert names == ["child", "items", "table", "v"]
    assert [n for n, _ in root.items._checkpoint_dependencies] == ["0", "2"]
    assert tracking.saveables_of(root.v) == {"VARIABLE_VALUE": root.v}
    paths = [p for p, _ in tracking.walk(root)]
    assert ("items", "2") in paths and ("table", "a") in paths and ("v",) in paths
    root.child = 7                         # replacing with a non-trackable drops the edge
    assert "child" not in [n for n, _ in root._checkpoint_dependencies]


def test_deferred_restoration_applies_when_child_is_tracked():
    applied = []

    class Restoration:
        def restore(self, obj):
            applied.append(obj)

    root = Leaf()
    root._defer_restoration("later", Restoration())
    assert root._deferred_dependency_names() == ["later"]
    child = Leaf()
    root.later = child
    assert applied == [child] and root._deferred_dependency_names() == []


def test_duplicate_name_without_overwrite():
    root = Leaf()
    root._track_trackable(Leaf(), "x")
    with pytest.raises(ValueError, match="already declared"):
        root._track_trackable(Leaf(), "x")
    with pytest.raises(TypeError):
        root._track_trackable(3, "y")
