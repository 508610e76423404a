"""tfdbg (`from tensorflow.python import debug as tf_debug`): importable with TF's names;
the debugger's wrappers, hooks and watches raise NotImplementedError naming tfdbg.
has_inf_or_nan and load_tensor_from_event against TF: tests/golden/cases_tfdbg.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import tf1compat as tf
from tests.child_env import child_env
from tf1compat.internal import tfdbg

TF_NAMES = ["DebugDumpDir", "DebugTensorDatum", "DumpingDebugHook", "DumpingDebugWrapperSession",
            "GradientsDebugger", "GrpcDebugHook", "GrpcDebugWrapperSession",
            "LocalCLIDebugHook", "LocalCLIDebugWrapperSession", "TensorBoardDebugHook",
            "TensorBoardDebugWrapperSession", "WatchOptions", "add_debug_tensor_watch",
            "has_inf_or_nan", "load_tensor_from_event", "load_tensor_from_event_file",
            "reconstruct_non_debug_graph_def", "watch_graph", "watch_graph_with_blacklists",
            "watch_graph_with_denylists", "clear_gradient_debuggers"]


def test_import_through_the_shim_as_scripts_do():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from tensorflow.python import debug as tf_debug
        import tensorflow.python.debug as tf_debug2
        from tensorflow.python.debug.lib.debug_data import has_inf_or_nan
        assert tf_debug is tf_debug2 and has_inf_or_nan is tf_debug.has_inf_or_nan
        sess = tf.Session()
        try:
            tf_debug.LocalCLIDebugWrapperSession(sess)
        except NotImplementedError as e:
            print("refused:", str(e).split(":")[0])
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=child_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ("refused: tfdbg (LocalCLIDebugWrapperSession) is not "
                                   "supported by tf1compat")


def test_tf_names_present():
    missing = [n for n in TF_NAMES if not hasattr(tfdbg, n)]
    assert not missing


@pytest.mark.parametrize("name", ["LocalCLIDebugWrapperSession", "LocalCLIDebugHook",
                                  "DumpingDebugWrapperSession", "DumpingDebugHook",
                                  "TensorBoardDebugWrapperSession", "TensorBoardDebugHook",
                                  "GrpcDebugWrapperSession", "GrpcDebugHook", "DebugDumpDir"])
def test_wrappers_and_hooks_refuse_on_construction(name):
    with pytest.raises(NotImplementedError, match=rf"tfdbg \({name}\)"):
        getattr(tfdbg, name)(object())


def test_watches_refuse():
    opts = tf.RunOptions()
    for fn in (tfdbg.watch_graph, tfdbg.add_debug_tensor_watch):
        with pytest.raises(NotImplementedError, match="tfdbg"):
            fn(opts, tf.Graph())


def test_watch_options_defaults_and_repr():
    w = tfdbg.WatchOptions(node_name_regex_whitelist="w.*")
    assert w.debug_ops == ["DebugIdentity"]
    assert repr(w).startswith("WatchOptions(debug_ops=['DebugIdentity'], "
                              "node_name_regex_whitelist='w.*'")


def test_load_tensor_from_event_file(tmp_path):
    import numpy as np

    from tf1compat.serialization.messages import Event
    event = Event()
    event.summary.value.add(tag="x").tensor.CopyFrom(
        tf.make_tensor_proto(np.array([1.5, np.nan], np.float32)))
    path = tmp_path / "dump"
    path.write_bytes(event.SerializeToString())
    value = tfdbg.load_tensor_from_event_file(str(path))
    assert value.dtype == np.float32 and value[0] == 1.5
    assert tfdbg.has_inf_or_nan(None, value)
