"""The `checkpoint` state file and tf.train's checkpoint-management functions."""

from __future__ import annotations

import os
import shutil
import threading
import time

import numpy as np
import pytest

import tf1compat as tf
from google.protobuf import text_format

from tf1compat.serialization import safetensors_checkpoint as cf
from tf1compat.serialization.bundle_writer import BundleWriter
from tf1compat.serialization.messages import to_text
from tf1compat.training.saving import checkpoint_state as cs

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tf_checkpoints")

# What TF 2.21 wrote (CheckpointManager with keep_checkpoint_every_n_hours, and
# update_checkpoint_state_internal with an awkward path): the exact bytes to reproduce.
TF_MANAGER_TEXT = (
    'model_checkpoint_path: "ckpt-3"\n'
    'all_model_checkpoint_paths: "ckpt-2"\n'
    'all_model_checkpoint_paths: "ckpt-3"\n'
    "all_model_checkpoint_timestamps: 1795259335.9698284\n"
    "all_model_checkpoint_timestamps: 1795259335.9859111\n"
    "last_preserved_timestamp: 1795259335.948732\n")
TF_ESCAPED_TEXT = (
    'model_checkpoint_path: "mo\\"d\\\\el\\n\u221a\u00a9"\n'
    'all_model_checkpoint_paths: "a"\n'
    'all_model_checkpoint_paths: "mo\\"d\\\\el\\n\u221a\u00a9"\n'
    "all_model_checkpoint_timestamps: 1.5\n"
    "all_model_checkpoint_timestamps: 1700000000.1234567\n"
    "last_preserved_timestamp: 1e+20\n")
TF_CONTROL_TEXT = 'model_checkpoint_path: "a\\\'b\\tc\\001d\\177e\\r"\n'


def test_text_format_matches_tf_bytes(tmp_path):
    cs.update_checkpoint_state_internal(
        str(tmp_path), str(tmp_path / "ckpt-3"),
        [str(tmp_path / "ckpt-2"), str(tmp_path / "ckpt-3")], save_relative_paths=True,
        all_model_checkpoint_timestamps=[1795259335.9698284, 1795259335.9859111],
        last_preserved_timestamp=1795259335.948732)
    with open(tmp_path / "checkpoint", encoding="utf-8") as f:
        assert f.read() == TF_MANAGER_TEXT
    odd = "mo\"d\\el\n\u221a\u00a9"
    cs.update_checkpoint_state_internal(
        str(tmp_path), odd, ["a", odd], all_model_checkpoint_timestamps=[1.5, 1700000000.123456789],
        last_preserved_timestamp=1e20)
    with open(tmp_path / "checkpoint", encoding="utf-8") as f:
        assert f.read() == TF_ESCAPED_TEXT
    assert to_text(cs.CheckpointState(model_checkpoint_path="a'b\tc\x01d\x7fe\r")) == \
        TF_CONTROL_TEXT


def test_parse_round_trips_and_tf_files():
    for text in (TF_MANAGER_TEXT, TF_ESCAPED_TEXT, TF_CONTROL_TEXT):
        assert to_text(cs.parse_checkpoint_state(text)) == text
    with open(os.path.join(FIXTURES, "name_based", "checkpoint")) as f:
        state = cs.parse_checkpoint_state(f.read())
    assert state.model_checkpoint_path == "model.ckpt-3"
    assert state.all_model_checkpoint_paths == ["model.ckpt-2", "model.ckpt-3"]


def test_parser_accepts_text_format_variants():
    state = cs.parse_checkpoint_state(
        "# a comment\n model_checkpoint_path: 'x' \"y\"; all_model_checkpoint_paths: ['a', \"b\"]\n"
        "all_model_checkpoint_timestamps: [1, 2.5e3, -inf, 3f]\n"
        "last_preserved_timestamp: -3\nmodel_checkpoint_path: \"\\303\\251\\x41\"")
    assert state.model_checkpoint_path == "\u00e9A"  # the last value wins (Merge)
    assert state.all_model_checkpoint_paths == ["a", "b"]
    assert state.all_model_checkpoint_timestamps == [1.0, 2500.0, float("-inf"), 3.0]
    assert state.last_preserved_timestamp == -3.0
    assert str(state).splitlines()[-2:] == ["all_model_checkpoint_timestamps: 3",
                                            "last_preserved_timestamp: -3"]
    for bad in ("bogus: 1", "model_checkpoint_path 'x'", "model_checkpoint_path: 3",
                "all_model_checkpoint_timestamps: 'x'",
                "model_checkpoint_path: [\"a\"]", "model_checkpoint_path: \"unterminated"):
        with pytest.raises(text_format.ParseError):
            cs.parse_checkpoint_state(bad)


def test_state_file_write_is_atomic(tmp_path, monkeypatch):
    cs.update_checkpoint_state(str(tmp_path), "ck-1")
    before = (tmp_path / "checkpoint").read_bytes()

    def fail(*args):
        raise OSError("disk full")
    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk full"):
        cs.update_checkpoint_state(str(tmp_path), "ck-2")
    assert (tmp_path / "checkpoint").read_bytes() == before
    assert os.listdir(tmp_path) == ["checkpoint"]


def test_relative_and_absolute_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.makedirs("run")
    # A relative save_dir makes paths relative to it; absolute ones stay.
    cs.update_checkpoint_state("run", "run/ck-2", ["run/ck-1", "run/ck-2", "/abs/ck"])
    text = (tmp_path / "run" / "checkpoint").read_text()
    assert text.splitlines() == ['model_checkpoint_path: "ck-2"',
                                 'all_model_checkpoint_paths: "ck-1"',
                                 'all_model_checkpoint_paths: "ck-2"',
                                 'all_model_checkpoint_paths: "/abs/ck"',
                                 'all_model_checkpoint_paths: "ck-2"']
    state = tf.train.get_checkpoint_state("run")
    assert state.model_checkpoint_path == os.path.join("run", "ck-2")
    assert state.all_model_checkpoint_paths[2] == "/abs/ck"
    # Absolute save_dir: paths are written as given...
    d = str(tmp_path / "abs")
    os.makedirs(d)
    cs.update_checkpoint_state(d, os.path.join(d, "ck-1"))
    assert tf.train.get_checkpoint_state(d).model_checkpoint_path == os.path.join(d, "ck-1")
    assert os.path.join(d, "ck-1") in (tmp_path / "abs" / "checkpoint").read_text()
    # ...unless relative paths are asked for (Saver(save_relative_paths=True)).
    cs.update_checkpoint_state_internal(d, os.path.join(d, "ck-2"), [os.path.join(d, "ck-2")],
                                        save_relative_paths=True)
    assert (tmp_path / "abs" / "checkpoint").read_text() == \
        'model_checkpoint_path: "ck-2"\nall_model_checkpoint_paths: "ck-2"\n'


def test_state_errors(tmp_path):
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        cs.update_checkpoint_state(str(tmp_path), str(tmp_path / "checkpoint"))
    with pytest.raises(ValueError, match="must match checkpoint paths"):
        cs.update_checkpoint_state(str(tmp_path), "a", ["a"],
                                   all_model_checkpoint_timestamps=[1.0, 2.0])
    with pytest.raises(tf.errors.NotFoundError):
        cs.update_checkpoint_state(str(tmp_path / "missing"), "a")
    (tmp_path / "checkpoint").write_text('all_model_checkpoint_paths: "a"\n')
    with pytest.raises(ValueError, match="Invalid checkpoint state loaded from"):
        tf.train.get_checkpoint_state(str(tmp_path))
    (tmp_path / "checkpoint").write_text("garbage garbage\n")
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    (tmp_path / "checkpoint").write_bytes(b'model_checkpoint_path: "\xff"\n')
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    os.remove(tmp_path / "checkpoint")
    os.makedirs(tmp_path / "checkpoint")  # unreadable: ignored
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


def _save(prefix: str) -> None:
    writer = BundleWriter(prefix)
    writer.add("a", np.ones(1))
    writer.finish()


def test_latest_checkpoint_and_exists_for_both_formats(tmp_path):
    d = str(tmp_path)
    assert tf.train.latest_checkpoint(d) is None
    earlier = os.path.join(d, "model.ckpt-0")           # an earlier tf1compat's file
    cf.save_tensors(earlier, {"a": np.ones(1)})
    assert tf.train.checkpoint_exists(earlier)
    ours = os.path.join(d, "model.ckpt-1")
    _save(ours)
    cs.update_checkpoint_state_internal(d, ours, [ours], save_relative_paths=True)
    assert tf.train.latest_checkpoint(d) == ours
    assert tf.train.checkpoint_exists(ours)
    assert not tf.train.checkpoint_exists(os.path.join(d, "model.ckpt-2"))
    # A TF checkpoint in the same directory.
    for f in os.listdir(os.path.join(FIXTURES, "name_based")):
        if f.startswith("model.ckpt-3"):
            shutil.copy(os.path.join(FIXTURES, "name_based", f), d)
    theirs = os.path.join(d, "model.ckpt-3")
    assert tf.train.checkpoint_exists(theirs)
    cs.update_checkpoint_state_internal(d, theirs, [ours, theirs], save_relative_paths=True)
    assert tf.train.latest_checkpoint(d) == theirs
    assert tf.train.load_variable(d, "counter") == 7
    assert tf.train.get_checkpoint_state(d).all_model_checkpoint_paths == [ours, theirs]
    mtimes = tf.train.get_checkpoint_mtimes([ours, os.path.join(d, "nope"), theirs])
    assert len(mtimes) == 2 and all(abs(m - time.time()) < 3600 for m in mtimes)
    assert len(tf.train.get_checkpoint_mtimes([earlier])) == 1
    # Missing files: latest_checkpoint gives None.
    os.remove(ours + ".index")
    cs.update_checkpoint_state_internal(d, ours, [ours], save_relative_paths=True)
    assert tf.train.latest_checkpoint(d) is None
    assert tf.train.latest_checkpoint(d, latest_filename="other") is None


def test_remove_checkpoint(tmp_path):
    d = str(tmp_path)
    for f in os.listdir(os.path.join(FIXTURES, "name_based")):
        shutil.copy(os.path.join(FIXTURES, "name_based", f), d)
    cf.save_tensors(os.path.join(d, "model.ckpt-3"), {"a": np.ones(1)})  # an earlier layout too
    tf.train.remove_checkpoint(os.path.join(d, "model.ckpt-3"))
    left = sorted(os.listdir(d))
    assert not [f for f in left if f.startswith("model.ckpt-3")]
    assert "model.ckpt-2.index" in left and "model.ckpt-2.meta" in left
    tf.train.remove_checkpoint(os.path.join(d, "model.ckpt-2"), cs.V1)  # V1: exact file only
    assert "model.ckpt-2.index" in os.listdir(d) and "model.ckpt-2.meta" not in os.listdir(d)
    assert cs.meta_graph_filename("/x/model.ckpt-123-00001-of-00005") == "/x/model.ckpt-123.meta"
    assert cs.meta_graph_filename("m-?????-of-00002", "pbtxt") == "m.pbtxt"


def test_generate_checkpoint_state_proto_appends_latest():
    paths = ["a/ck-1"]
    state = tf.train.generate_checkpoint_state_proto("/d", "a/ck-2", paths)
    assert paths == ["a/ck-1", "a/ck-2"]  # TF mutates the caller's list too
    assert state.all_model_checkpoint_paths == ["a/ck-1", "a/ck-2"]
    state = tf.train.generate_checkpoint_state_proto("d", "d/sub/ck", ["d/x", "d/sub/ck"])
    assert state.model_checkpoint_path == os.path.join("sub", "ck")
    assert state == cs.CheckpointState(model_checkpoint_path=os.path.join("sub", "ck"),
                                       all_model_checkpoint_paths=["x", os.path.join("sub", "ck")])


def test_checkpoints_iterator(tmp_path):
    d = str(tmp_path)
    _save(os.path.join(d, "ck-1"))
    cs.update_checkpoint_state(d, os.path.join(d, "ck-1"))

    written = threading.Event()

    def later():
        time.sleep(0.3)
        _save(os.path.join(d, "ck-2"))
        cs.update_checkpoint_state(d, os.path.join(d, "ck-2"))
        written.set()

    # The iterator gives up after `timeout` seconds without a new checkpoint (polling once
    # a second, as TF), and a loaded machine may run the writer later than that: until a
    # whole wait has begun after ck-2 was written, timeout_fn keeps it waiting.
    waits_after_write = []

    def give_up():
        if written.is_set():
            waits_after_write.append(1)
        return len(waits_after_write) > 1
    thread = threading.Thread(target=later)
    thread.start()
    seen = list(tf.train.checkpoints_iterator(d, timeout=1.5, timeout_fn=give_up))
    thread.join()
    assert seen == [os.path.join(d, "ck-1"), os.path.join(d, "ck-2")]
    calls = []
    assert list(tf.train.checkpoints_iterator(str(tmp_path / "none"), timeout=0.01,
                                              timeout_fn=lambda: calls.append(1) or
                                              len(calls) > 1)) == []
    assert len(calls) == 2
