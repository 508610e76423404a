"""Golden cases: tf.io.gfile's functions under their TF 2 parameter names (`exists(path)`,
`copy(src, dst, overwrite)`, `walk(top, topdown, onerror)`, ...) called by keyword, and
their argspecs; tf.gfile's capitalized functions keep v1's (`Exists(filename)`)."""

from __future__ import annotations

import inspect
import os
import shutil
import tempfile

_FUNCTIONS = ("copy", "exists", "glob", "isdir", "listdir", "makedirs", "mkdir", "remove",
              "rename", "rmtree", "stat", "walk")


def case_io_gfile_parameter_names(tf):
    out = {name: list(inspect.signature(getattr(tf.io.gfile, name)).parameters)
           for name in _FUNCTIONS}
    out["v1_Exists"] = list(inspect.signature(tf.gfile.Exists).parameters)
    out["v1_Walk"] = list(inspect.signature(tf.gfile.Walk).parameters)
    return out


def case_io_gfile_keyword_calls(tf):
    gfile = tf.io.gfile
    tmp = tempfile.mkdtemp()
    try:
        def rel(path):
            return os.path.relpath(path, tmp)
        top = os.path.join(tmp, "top")
        gfile.makedirs(path=os.path.join(top, "a", "b"))
        gfile.mkdir(path=os.path.join(top, "c"))
        with gfile.GFile(os.path.join(top, "a", "f.txt"), "w") as f:
            f.write("hello")
        gfile.copy(src=os.path.join(top, "a", "f.txt"), dst=os.path.join(top, "g.txt"))
        gfile.rename(src=os.path.join(top, "g.txt"), dst=os.path.join(top, "c", "h.txt"),
                     overwrite=False)
        out = {"exists": gfile.exists(path=os.path.join(top, "c", "h.txt")),
               "isdir": gfile.isdir(path=os.path.join(top, "a")),
               "listdir": sorted(gfile.listdir(path=top)),
               "glob": sorted(rel(p) for p in gfile.glob(pattern=os.path.join(top, "*"))),
               "length": gfile.stat(path=os.path.join(top, "c", "h.txt")).length}
        walked = list(gfile.walk(top=top, topdown=False))
        out["bottom_up"] = sorted((rel(d), sorted(s), sorted(f)) for d, s, f in walked)
        out["last_is_top"] = rel(walked[-1][0])
        # (with an `onerror`, TF 2.21's walk of a missing directory calls it and then
        # fails on its own unbound listing: UnboundLocalError; tf1compat stops there)
        out["missing"] = list(gfile.walk(top=os.path.join(tmp, "nope")))
        gfile.remove(path=os.path.join(top, "c", "h.txt"))
        gfile.rmtree(path=os.path.join(top, "a"))
        out["after"] = sorted(gfile.listdir(top))
        return out
    finally:
        shutil.rmtree(tmp)
