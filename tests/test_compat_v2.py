"""`tf.compat.v2` built over tf1compat's v1 objects (api/compat_v2.py): every recorded name
resolves or says why not; v2's argument forms and fixed defaults reach the v1 functions."""

from __future__ import annotations

import pytest

import tf1compat as tf
from tf1compat.api import _tf_v2_names as names
from tf1compat.framework.missing import UnimplementedAPIError


def _all_paths():
    for table in (names.SHARED, names.DIFFERING):
        for ns, entries in table.items():
            for name in entries:
                yield f"{ns}.{name}" if ns else name


def _get(path):
    obj = tf.compat.v2
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_recorded_name_resolves_or_says_it_is_not_implemented():
    resolved, unimplemented = 0, []
    for path in _all_paths():
        try:
            _get(path)
            resolved += 1
        except UnimplementedAPIError as e:
            assert f"tf.compat.v2.{path}" in str(e) or "counterpart" in str(e), str(e)
            unimplemented.append(path)
    # tf1compat implements nearly all of TF 1.x's API: what v2 shares with it resolves.
    assert resolved > 0.9 * (resolved + len(unimplemented)), unimplemented


def test_v2_only_names_and_unbuilt_forms_raise_not_implemented():
    for path in ("test.compute_gradient", "saved_model.load", "nn.RNNCellDropoutWrapper"):
        with pytest.raises(NotImplementedError, match=f"tf.compat.v2.{path}"):
            _get(path)


def test_a_typo_suggests_close_names():
    with pytest.raises(AttributeError, match="Did you mean tf.compat.v2.reduce_sum"):
        getattr(tf.compat.v2, "reduce_summ")


def test_shared_names_are_the_v1_objects_and_namespaces_list_them():
    v2 = tf.compat.v2
    assert v2.nn.relu is tf.nn.relu and v2.linalg.inv is tf.linalg.inv
    assert v2.keras.layers.Dense is tf.keras.layers.Dense
    assert v2.losses.mean_squared_error is tf.keras.losses.mean_squared_error
    assert {"relu", "conv2d", "max_pool"} <= set(dir(v2.nn))
    assert {"nn", "math", "keras", "summary", "compat", "reduce_sum"} <= set(dir(v2))


def test_v2_arguments_reach_v1_by_name_and_unknown_ones_are_refused():
    v2 = tf.compat.v2
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        assert v2.reduce_sum(x, 1, True).shape.as_list() == [2, 1]
        with pytest.raises(TypeError):
            v2.reduce_sum(x, keep_dims=True)        # v1's spelling is not v2's
        y = v2.nn.max_pool(tf.zeros([1, 4, 4, 1]), ksize=2, strides=2, padding="SAME")
        assert y.shape.as_list() == [1, 2, 2, 1]


def test_keras_v2_recurrent_classes_keep_v1_instances_and_change_defaults():
    v2 = tf.compat.v2
    layer = v2.keras.layers.GRU(2)
    assert isinstance(layer, tf.keras.layers.GRU) and layer.reset_after
    assert type(layer).__name__ == "GRU"
    assert tf.keras.layers.GRU(2).reset_after is False
    assert v2.keras.layers.LSTMCell(2).get_config()["recurrent_activation"] == "sigmoid"


def test_variable_class_recognises_every_variable():
    v2 = tf.compat.v2
    with tf.Graph().as_default():
        v = v2.Variable(1.0)
        assert v.op.type == "VarHandleOp"
        assert isinstance(tf.Variable(1.0, use_resource=False), v2.Variable)
        assert issubclass(type(v), v2.Variable)
        assert not isinstance(1.0, v2.Variable)


def test_tf_inspect_reports_tf1compat_functions_without_annotations():
    # TFP's prefer_static compares TF's argument specs with its own functions'.
    from tf1compat.util import tf_inspect
    spec = tf_inspect.getfullargspec(tf.cast)
    assert spec.args == ["x", "dtype", "name"] and spec.annotations == {}
    assert tf_inspect.getfullargspec(tf.compat.v2.pad).defaults == ("CONSTANT", 0, None)
    # v2's own arguments, not those of the dispatchable v1 function it calls (TF's
    # reduce_all_v2 is a function of its own).
    for name in ("reduce_all", "reduce_sum", "math.reduce_max"):
        fn = tf.compat.v2
        for part in name.split("."):
            fn = getattr(fn, part)
        spec = tf_inspect.getfullargspec(fn)
        assert (spec.args, spec.defaults) == (
            ["input_tensor", "axis", "keepdims", "name"], (None, False, None)), name


def test_remove_undocumented_keeps_documented_and_allowed_names():
    import sys
    import types

    from tf1compat.util import all_util
    module = types.ModuleType("_all_util_probe", "Probe.\n\n@@kept\n")
    module.kept, module.allowed, module.dropped, module._private = 1, 2, 3, 4
    sys.modules[module.__name__] = module
    try:
        all_util.remove_undocumented(module.__name__, ["allowed"])
        assert not hasattr(module, "dropped")
        assert (module.kept, module.allowed, module._private) == (1, 2, 4)
        all_util.reveal_undocumented("_all_util_probe.dropped")
        assert module.dropped == 3
        with pytest.raises(LookupError):
            all_util.reveal_undocumented("_all_util_probe.nothing")
    finally:
        del sys.modules[module.__name__]


def test_the_arguments_v2_fixes_are_v1_parameters():
    # cond(strict=True), embedding lookups' "div", ctc_beam_search_decoder(merge_repeated=
    # False), ...: recorded from TF 1.15's v2 functions, passed to tf1compat's v1 ones.
    import inspect
    fixed_paths = [(f"{ns}.{name}" if ns else name, entry[2])
                   for ns, entries in names.DIFFERING.items()
                   for name, entry in entries.items() if entry and len(entry) > 2]
    assert len(fixed_paths) >= 8
    for path, fixed in fixed_paths:
        v1 = tf
        for part in path.split("."):
            v1 = getattr(v1, part)
        accepted = inspect.signature(v1).parameters
        assert set(fixed) <= set(accepted), (path, fixed)
