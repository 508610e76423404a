"""`tf.contrib.learn` / `tf.contrib.training` for the TF 2.15 oracle (recording only).

TF 1.15 cannot be installed here (it needs Python <= 3.7) and TF 2.x has no contrib, so
the migration examples that use `learn_runner` are recorded under TF 2.15 with this
minimal stand-in: HParams.parse for `name=value` / `name=[v,...]` pairs, a contrib
RunConfig that is a tf.estimator.RunConfig, and Experiment.train_and_evaluate as TF 1.15
runs it with `min_eval_frequency=0` (train to `train_steps`, then one evaluation into
`eval/`, then the export strategies). All numbers come from TF 2.15's Estimator; the
orchestration follows TF 1.15's experiment.py / learn_runner.py / hparam.py.
"""

import re
import types


def build(tf):
    """A `contrib` module with `learn` and `training` for the given tf.compat.v1."""

    class HParams:
        def __init__(self, **kwargs):
            self._types = {}
            for name, value in kwargs.items():
                self._types[name] = (type(value[0]), True) if isinstance(value, list) else \
                    (type(value), False)
                setattr(self, name, value)

        def parse(self, values):
            for m in re.finditer(r"(\w+)=(\[[^\]]*\]|[^,]*)", values):
                name, value = m.group(1), m.group(2)
                kind, is_list = self._types[name]
                if is_list:
                    setattr(self, name, [kind(v) for v in value.strip("[]").split(",") if v])
                else:
                    setattr(self, name, kind(value))
            return self

        def values(self):
            return {name: getattr(self, name) for name in self._types}

    class RunConfig(tf.estimator.RunConfig):
        pass

    class Experiment:
        def __init__(self, estimator, train_input_fn, eval_input_fn, train_steps=None,
                     eval_steps=100, min_eval_frequency=None, export_strategies=None):
            assert not min_eval_frequency, "only min_eval_frequency=0 is modelled"
            self.estimator = estimator
            self._train, self._eval = train_input_fn, eval_input_fn
            self._train_steps, self._eval_steps = train_steps, eval_steps

        def train_and_evaluate(self):
            self.estimator.train(self._train, max_steps=self._train_steps)
            result = self.estimator.evaluate(self._eval, steps=self._eval_steps, name=None)
            return result, []

    def run(experiment_fn, run_config, schedule, hparams):
        return getattr(experiment_fn(run_config, hparams), schedule)()

    learn = types.SimpleNamespace(RunConfig=RunConfig, Experiment=Experiment,
                                  learn_runner=types.SimpleNamespace(run=run))
    return types.SimpleNamespace(learn=learn,
                                 training=types.SimpleNamespace(HParams=HParams))


def tf115_package(package: str, modules: list, stubs: dict = None):
    """TF 1.15's pure-Python contrib modules, executed under the oracle's TF.

    `package` is a dotted path under tensorflow_core (e.g.
    "contrib.learn.python.learn.preprocessing"), `modules` the module names to load in
    dependency order. The sources come from the tensorflow(-cpu) 1.15 wheel, unpacked at
    $TF115_SRC (default /tmp/tf115src/tensorflow_core): `pip download --no-deps
    --python-version 3.7 --only-binary=:all: tensorflow-cpu==1.15.0` and unzip. Their
    relative imports of modules not loaded here resolve to empty stand-ins; `stubs` maps
    other module names they import (e.g. "tensorflow.contrib.framework") to dicts of the
    attributes to give those stand-ins.
    """
    import importlib.util
    import os
    import sys
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    directory = os.path.join(root, *package.split("."))
    name = "tf115." + package
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        sys.modules.setdefault(".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
        sys.modules[".".join(parts[:i])].__path__ = []
    # `..learn_io.data_feeder.setup_processor_data_feeder` (categorical.py): rows as given.
    feeder = types.ModuleType(".".join(parts[:-1]) + ".learn_io.data_feeder")
    feeder.setup_processor_data_feeder = lambda x: x
    sys.modules[feeder.__name__] = feeder
    sys.modules[".".join(parts[:-1]) + ".learn_io"] = types.ModuleType("learn_io")
    _restore_moved_tf_names()
    for stub_name, attrs in (stubs or {}).items():
        parent, _, leaf = stub_name.rpartition(".")
        stub = sys.modules.setdefault(stub_name, types.ModuleType(stub_name))
        vars(stub).update(attrs)
        if parent:
            holder = sys.modules.setdefault(parent, types.ModuleType(parent))
            setattr(holder, leaf, stub)
    out = types.ModuleType(name)
    for module in modules:
        spec = importlib.util.spec_from_file_location(f"{name}.{module}",
                                                      os.path.join(directory, module + ".py"))
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded
        spec.loader.exec_module(loaded)
        for key, value in vars(loaded).items():
            if not key.startswith("_"):
                setattr(out, key, value)
    return out


def _restore_moved_tf_names() -> None:
    """TF 2.x moved a few names TF 1.15's modules use from their old places
    (array_ops.stack/unstack -> array_ops_stack, ops.Tensor/IndexedSlices): put them
    back for the oracle."""
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import array_ops
    if not hasattr(ops, "Tensor"):
        from tensorflow.python.framework import tensor
        ops.Tensor = tensor.Tensor
    if not hasattr(ops, "IndexedSlices"):
        from tensorflow.python.framework import indexed_slices
        ops.IndexedSlices = indexed_slices.IndexedSlices
    try:
        from tensorflow.python.ops import array_ops_stack
    except ImportError:
        return
    for fn in ("stack", "unstack", "parallel_stack"):
        if not hasattr(array_ops, fn) and hasattr(array_ops_stack, fn):
            setattr(array_ops, fn, getattr(array_ops_stack, fn))
