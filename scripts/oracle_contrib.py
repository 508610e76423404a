"""`tf.contrib.learn` / `tf.contrib.training` for the TF 2.15 oracle (recording only).

TF 1.15 cannot be installed here (it needs Python <= 3.7) and TF 2.x has no contrib, so
the migration examples that use `learn_runner` are recorded under TF 2.15 with this
minimal stand-in: HParams.parse for `name=value` / `name=[v,...]` pairs, a contrib
RunConfig that is a tf.estimator.RunConfig, Experiment.train_and_evaluate as TF 1.15
runs it with `min_eval_frequency=0` (train to `train_steps`, then one evaluation into
`eval/`, then the export strategies), and the Iris quickstart's contrib DNNClassifier /
real_valued_column / load_csv_with_header (the core DNNClassifier with contrib's loss
reduction and full-batch fit). All numbers come from TF 2.15's Estimator; the
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

    class ModelFnOps:
        def __init__(self, mode, predictions=None, loss=None, train_op=None,
                     eval_metric_ops=None):
            self.spec = tf.estimator.EstimatorSpec(
                mode, predictions=predictions, loss=loss,
                train_op=train_op if mode == tf.estimator.ModeKeys.TRAIN else None,
                eval_metric_ops=eval_metric_ops)

    class ContribEstimator:
        """TF 1.15's contrib Estimator on input_fns only: features and labels go to the
        model_fn by position, mode/params/config by name; ModelFnOps becomes a spec."""

        def __init__(self, model_fn, model_dir=None, config=None, params=None):
            import inspect
            names = inspect.signature(model_fn).parameters

            def spec_fn(features, labels, mode, config):
                kwargs = {"mode": mode, "params": params, "config": config}
                return model_fn(features, labels,
                                **{k: v for k, v in kwargs.items() if k in names}).spec
            self._core = tf.estimator.Estimator(spec_fn, model_dir=model_dir, config=config)

        def fit(self, input_fn, steps=None, max_steps=None):
            self._core.train(input_fn, steps=steps, max_steps=max_steps)
            return self

        def evaluate(self, input_fn, steps=None):
            return self._core.evaluate(input_fn, steps=steps)

        def predict(self, input_fn, as_iterable=True):
            assert as_iterable, "only as_iterable=True is modelled"
            return self._core.predict(input_fn)

    def real_valued_column(column_name, dimension=1):
        return tf.feature_column.numeric_column(column_name, shape=[dimension])

    class DNNClassifier:
        """TF 1.15's contrib DNNClassifier on arrays, as the core DNNClassifier with the
        same math: the loss averaged over the batch (contrib's head), a non-dict x as
        the feature '', each fit step on all rows (batch_size=None), predict -> classes."""

        def __init__(self, hidden_units, feature_columns, n_classes=2, model_dir=None):
            self._core = tf.estimator.DNNClassifier(
                hidden_units=hidden_units, feature_columns=feature_columns,
                n_classes=n_classes, model_dir=model_dir,
                loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)

        @staticmethod
        def _input(x, y, epochs):
            return tf.estimator.inputs.numpy_input_fn(
                {"": x}, y, batch_size=len(x), num_epochs=epochs, shuffle=False)

        def fit(self, x, y, steps):
            self._core.train(self._input(x, y, None), steps=steps)
            return self

        def evaluate(self, x, y, steps=None):
            return self._core.evaluate(self._input(x, y, 1), steps=steps)

        def predict(self, x, as_iterable=True):
            assert as_iterable, "only as_iterable=True is modelled"
            return (p["class_ids"][0] for p in self._core.predict(self._input(x, None, 1)))

    def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
        import csv
        import numpy as np
        with open(filename) as f:
            rows = csv.reader(f)
            header = next(rows)
            data = np.zeros((int(header[0]), int(header[1])), dtype=features_dtype)
            target = np.zeros((int(header[0]),), dtype=target_dtype)
            for i, row in enumerate(rows):
                target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
                data[i] = np.asarray(row, dtype=features_dtype)
        return types.SimpleNamespace(data=data, target=target)

    learn = types.SimpleNamespace(RunConfig=RunConfig, Experiment=Experiment,
                                  DNNClassifier=DNNClassifier,
                                  datasets=types.SimpleNamespace(base=types.SimpleNamespace(
                                      load_csv_with_header=load_csv_with_header)),
                                  learn_runner=types.SimpleNamespace(run=run),
                                  Estimator=ContribEstimator, ModelFnOps=ModelFnOps,
                                  ModeKeys=types.SimpleNamespace(TRAIN="train", EVAL="eval",
                                                                 INFER="infer"))
    return types.SimpleNamespace(
        learn=learn, training=types.SimpleNamespace(HParams=HParams),
        layers=types.SimpleNamespace(real_valued_column=real_valued_column))


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


def tf115_message_module(path: str, names: list):
    """The message classes `names` of a TF 1.15 generated `*_pb2.py` (`path` under
    $TF115_SRC), rebuilt from its serialized schema in a private descriptor pool: the old
    generated code itself cannot run on a current protobuf runtime."""
    import ast
    import os
    from google.protobuf import descriptor_pool, message_factory
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    with open(os.path.join(root, path)) as f:
        tree = ast.parse(f.read())
    serialized = None
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "serialized_pb":
            serialized = ast.literal_eval(node.value.args[0]).encode("latin1")
    pool = descriptor_pool.DescriptorPool()
    package = pool.AddSerializedFile(serialized).package
    return types.SimpleNamespace(**{
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{name}"))
        for name in names})


def get_variable_collections(collections, name):
    """contrib.layers utils.get_variable_collections: a dict's entry for `name`, else the
    collections as given."""
    if isinstance(collections, dict):
        return collections.get(name, None)
    return collections


def tf115_functions(path: str, names: list, namespace: dict) -> dict:
    """Named top-level functions (or classes) of one TF 1.15 source file (`path` under
    $TF115_SRC, e.g. "contrib/layers/python/layers/layers.py"), their source executed alone
    in `namespace`
    (the modules and helpers they use, from the oracle's TF): for functions of a module
    whose imports cannot all be loaded under TF 2. Decorators are dropped."""
    import ast
    import os
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    with open(os.path.join(root, path)) as f:
        tree = ast.parse(f.read())
    wanted = [node for node in tree.body
              if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names]
    for node in wanted:
        node.decorator_list = []
    exec(compile(ast.Module(body=wanted, type_ignores=[]), path, "exec"), namespace)
    return {name: namespace[name] for name in names}


def tf115_absolute_package(package: str, modules: list) -> types.ModuleType:
    """TF 1.15's contrib package `package` (e.g. "contrib.quantize.python") whose modules
    import each other by absolute name (`from tensorflow.contrib.quantize.python import
    common`): each of `modules`, in dependency order, is loaded as
    `tensorflow.<package>.<module>` and set on a stand-in package of that name, which is
    returned."""
    import importlib.util
    import os
    import sys
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    _restore_moved_tf_names()
    parts = ("tensorflow." + package).split(".")
    for i in range(2, len(parts) + 1):
        name = ".".join(parts[:i])
        if not hasattr(sys.modules.get(name), "__path__"):
            sys.modules[name] = types.ModuleType(name)
            sys.modules[name].__path__ = []
    holder = sys.modules["tensorflow." + package]
    for module in modules:
        if hasattr(holder, module):
            continue
        spec = importlib.util.spec_from_file_location(
            f"{holder.__name__}.{module}",
            os.path.join(root, *package.split("."), module + ".py"))
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded
        spec.loader.exec_module(loaded)
        setattr(holder, module, loaded)
    return holder


def resampler_stand_in(tf):
    """contrib.resampler for the TF 2.21 oracle, which has no Resampler kernel (TF 1.15's
    resampler_ops.so cannot load there): TF's own CropAndResize (bilinear, extrapolation
    0) samples the image padded with one ring of zeros at (y + 1, x + 1) through a
    one-pixel box per point. That is TF 1.15's definition of the op (its test's
    `_bilinearly_interpolate` pads the same way), and CropAndResize's gradients (image and
    boxes) give the gradients with respect to the image and the points."""

    def resampler(data, warp, name="resampler"):
        with tf.name_scope(name):
            data = tf.convert_to_tensor(data)
            warp = tf.convert_to_tensor(warp)
            shape = tf.shape(data)
            height = tf.cast(shape[1] + 1, data.dtype)
            width = tf.cast(shape[2] + 1, data.dtype)
            padded = tf.pad(data, [[0, 0], [1, 1], [1, 1], [0, 0]])
            points = tf.reshape(warp, [shape[0], -1, 2])
            ny = (points[..., 1] + 1) / height
            nx = (points[..., 0] + 1) / width
            boxes = tf.reshape(tf.stack([ny, nx, ny, nx], -1), [-1, 4])
            per_image = tf.shape(points)[1]
            box_ind = tf.reshape(tf.tile(tf.range(shape[0])[:, None], [1, per_image]), [-1])
            sampled = tf.image.crop_and_resize(
                tf.cast(padded, tf.float32), tf.cast(boxes, tf.float32), box_ind, [1, 1],
                extrapolation_value=0.0)
            out_shape = tf.concat([tf.shape(warp)[:-1], shape[3:]], 0)
            return tf.cast(tf.reshape(sampled, out_shape), data.dtype)

    return types.SimpleNamespace(resampler=resampler)


def tf115_skip_gram(tf):
    """TF 1.15's contrib/text skip_gram_ops.py functions under TF 2.21, whose
    SkipGramGenerateCandidates kernel is gone: the stand-in emits the pairs of fixed
    windows only (min_skips == max_skips, where the kernel's random window draws cannot
    change the result), restating the kernel's loop; the vocabulary filtering,
    subsampling (TF's random_uniform) and batching are TF 1.15's Python on TF's ops."""
    import csv
    import numpy as np
    from tensorflow.python.framework import random_seed
    from tensorflow.python.ops import lookup_ops, math_ops, random_ops

    def generate(input_tensor, min_skips, max_skips, start, limit, emit_self_as_target,
                 seed, seed2):
        assert min_skips == max_skips, "the stand-in has no random windows"

        def pairs(values):
            end = len(values) if limit < 0 else min(start + limit, len(values))
            out = [(values[i], values[i + j]) for i in range(start, end)
                   for j in range(-min_skips, min_skips + 1)
                   if start <= i + j < end and (j != 0 or emit_self_as_target)]
            tokens = np.array([t for t, _ in out], dtype=values.dtype)
            labels = np.array([lab for _, lab in out], dtype=values.dtype)
            return tokens, labels

        tokens, labels = tf.numpy_function(pairs, [input_tensor],
                                           [input_tensor.dtype, input_tensor.dtype])
        tokens.set_shape([None])    # the op's shape function: vectors of unknown length
        labels.set_shape([None])
        return tokens, labels

    lookup = types.SimpleNamespace(
        HashTable=tf.lookup.StaticHashTable, TextFileInitializer=tf.lookup.TextFileInitializer,
        InitializableLookupTableBase=lookup_ops.InitializableLookupTableBase)
    namespace = {"csv": csv, "lookup": lookup, "ops": tf, "dtypes": tf.dtypes,
                 "random_seed": random_seed, "array_ops": tf, "math_ops": math_ops,
                 "random_ops": random_ops, "gfile": types.SimpleNamespace(GFile=tf.gfile.GFile),
                 "input_ops": tf.train,
                 "gen_skip_gram_ops": types.SimpleNamespace(
                     skip_gram_generate_candidates=generate)}
    return types.SimpleNamespace(**tf115_functions(
        "contrib/text/python/ops/skip_gram_ops.py",
        ["skip_gram_sample", "skip_gram_sample_with_text_vocab", "_filter_input"], namespace))


def _gather_tree_stand_in(tf):
    """contrib's GatherTree kernel (tensorflow/contrib/seq2seq/kernels/beam_search_ops.cc)
    restated in numpy under `tf.numpy_function`: every entry starts as end_token; each
    (batch, beam) is backtracked from step min(max_time, max_sequence_lengths[batch]) - 1
    through parent_ids; ids after a beam's first end_token become end_token. A parent id
    outside [0, beam_width) raises InvalidArgumentError (numpy_function maps ValueError)."""
    import numpy as np

    def kernel(step_ids, parent_ids, max_sequence_lengths, end_token):
        max_time, batch, beam_width = step_ids.shape
        beams = np.full_like(step_ids, end_token)
        for b in range(batch):
            length = min(max_time, int(max_sequence_lengths[b]))
            for beam in range(beam_width):
                if length <= 0:
                    continue
                beams[length - 1, b, beam] = step_ids[length - 1, b, beam]
                parent = parent_ids[length - 1, b, beam]
                for level in range(length - 2, -1, -1):
                    if parent < 0 or parent >= beam_width:
                        raise ValueError(f"Saw invalid parent id {parent} at (batch, time, "
                                         f"beam) == ({b}, {level}, {beam})")
                    beams[level, b, beam] = step_ids[level, b, parent]
                    parent = parent_ids[level, b, parent]
                finished = False
                for time in range(length):
                    if finished:
                        beams[time, b, beam] = end_token
                    elif beams[time, b, beam] == end_token:
                        finished = True
        return beams

    def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
        step_ids = tf.convert_to_tensor(step_ids, tf.int32)
        parent_ids = tf.convert_to_tensor(parent_ids, tf.int32)
        for t, rank in ((step_ids, 3), (parent_ids, 3)):
            if t.shape.ndims is not None and t.shape.ndims != rank:
                raise ValueError(f"Shape must be rank {rank} but is rank {t.shape.ndims}")
        beams = tf.numpy_function(kernel, [step_ids, parent_ids,
                                           tf.convert_to_tensor(max_sequence_lengths, tf.int32),
                                           tf.convert_to_tensor(end_token, tf.int32)],
                                  tf.int32, name=name)
        beams.set_shape(step_ids.shape.merge_with(parent_ids.shape))
        return beams
    return gather_tree


def tf115_seq2seq(tf):
    """TF 1.15's `tf.contrib.seq2seq` (decoder, helper, basic_decoder, attention_wrapper,
    beam_search_decoder), executed under the oracle's TF (2.21, graph mode).

    Their absolute `tensorflow.contrib.*` imports resolve to stand-ins: TF 2.21 has no
    `GatherTree` kernel (it lived in contrib's _beam_search_ops.so), so `gen_beam_search_ops`
    is `_gather_tree_stand_in`; contrib's `tensor_util.is_tensor` is `tf.is_tensor`
    (`with_same_shape` checks static shapes only); `loader.load_op_library` does nothing.
    TF 2.21 moved `control_flow_ops.cond` / `while_loop`, `ops.Tensor` and a few more names:
    `_restore_moved_tf_names` puts them back; NumPy 2 dropped `np.Inf`. `tf.layers`
    layers are tf_keras legacy layers, so the modules' `layers_base.Layer` / `layers_core.Dense`
    checks and constructors point at those.
    """
    import importlib.util
    import os
    import sys
    import tf_keras
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    directory = os.path.join(root, "contrib", "seq2seq", "python", "ops")
    package = "tensorflow.contrib.seq2seq.python.ops"
    if package + ".beam_search_decoder" in sys.modules:
        return sys.modules[package + ".oracle"]

    def stand_in(name: str) -> types.ModuleType:
        module = sys.modules.setdefault(name, types.ModuleType(name))
        module.__path__ = []
        parent, _, leaf = name.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], leaf, module)
        return module

    for name in ("tensorflow.contrib", "tensorflow.contrib.seq2seq",
                 "tensorflow.contrib.seq2seq.python", package, "tensorflow.contrib.seq2seq.ops",
                 "tensorflow.contrib.util", "tensorflow.contrib.framework",
                 "tensorflow.contrib.framework.python",
                 "tensorflow.contrib.framework.python.framework"):
        stand_in(name)
    gen = stand_in("tensorflow.contrib.seq2seq.ops.gen_beam_search_ops")
    gen.gather_tree = _gather_tree_stand_in(tf)
    contrib_tensor_util = stand_in("tensorflow.contrib.framework.python.framework.tensor_util")
    contrib_tensor_util.is_tensor = tf.is_tensor

    def with_same_shape(expected, tensor):
        # contrib's with_same_shape for static shapes: merge, or ValueError when they clash
        if not expected.shape.is_compatible_with(tensor.shape):
            raise ValueError(f"Shapes {expected.shape} and {tensor.shape} are not compatible")
        tensor.set_shape(expected.shape)
        return tensor
    contrib_tensor_util.with_same_shape = with_same_shape
    stand_in("tensorflow.contrib.util.loader").load_op_library = lambda path: None
    _restore_moved_tf_names()
    out = types.ModuleType(package + ".oracle")
    for module in ("decoder", "helper", "sampler", "basic_decoder", "attention_wrapper",
                   "beam_search_ops", "beam_search_decoder", "loss"):
        spec = importlib.util.spec_from_file_location(f"{package}.{module}",
                                                      os.path.join(directory, module + ".py"))
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded
        setattr(sys.modules[package], module, loaded)
        spec.loader.exec_module(loaded)
        if hasattr(loaded, "layers_base"):
            loaded.layers_base = types.SimpleNamespace(Layer=tf_keras.layers.Layer)
        if module == "beam_search_decoder":
            loaded.layers = types.SimpleNamespace(Layer=tf_keras.layers.Layer)
            # NumPy 2 removed `np.Inf` (its initial log-probs use it)
            loaded.np = types.SimpleNamespace(**{**vars(loaded.np), "Inf": loaded.np.inf})
        if hasattr(loaded, "layers_core"):
            loaded.layers_core = types.SimpleNamespace(Dense=tf.layers.Dense)
        for key, value in vars(loaded).items():
            if not key.startswith("_"):
                setattr(out, key, value)
    sys.modules[out.__name__] = out
    return out


def tf115_legacy_seq2seq(tf):
    """TF 1.15's `tf.contrib.legacy_seq2seq` (seq2seq.py, with contrib.rnn's core_rnn_cell
    for its EmbeddingWrapper / OutputProjectionWrapper / _Linear), executed under the
    oracle's TF (2.21, graph mode). `control_flow_ops.cond` (moved in TF 2.x) is put back
    for the `feed_previous` tensor path, `nest.is_sequence` (renamed is_nested) too."""
    import importlib.util
    import os
    import sys
    from tensorflow.python.ops import control_flow_ops, rnn_cell_impl
    from tensorflow.python.util import nest
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    name = "tensorflow.contrib.legacy_seq2seq.python.ops.seq2seq"
    if name in sys.modules:
        return sys.modules[name]
    for package in ("tensorflow.contrib", "tensorflow.contrib.rnn",
                    "tensorflow.contrib.rnn.python", "tensorflow.contrib.rnn.python.ops",
                    "tensorflow.contrib.legacy_seq2seq",
                    "tensorflow.contrib.legacy_seq2seq.python",
                    "tensorflow.contrib.legacy_seq2seq.python.ops"):
        module = sys.modules.setdefault(package, types.ModuleType(package))
        module.__path__ = []
        parent, _, leaf = package.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], leaf, module)
    if not hasattr(control_flow_ops, "cond"):
        control_flow_ops.cond = tf.cond
    if not hasattr(nest, "is_sequence"):
        nest.is_sequence = nest.is_nested
    _restore_moved_tf_names()
    loaded = None
    for module, path in (("tensorflow.contrib.rnn.python.ops.core_rnn_cell",
                          "contrib/rnn/python/ops/core_rnn_cell.py"),
                         (name, "contrib/legacy_seq2seq/python/ops/seq2seq.py")):
        spec = importlib.util.spec_from_file_location(module, os.path.join(root, path))
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[module] = loaded
        parent, _, leaf = module.rpartition(".")
        setattr(sys.modules[parent], leaf, loaded)
        spec.loader.exec_module(loaded)
    # tf.nn.rnn_cell's cells are tf_keras' legacy cells, not rnn_cell_impl.RNNCell
    # subclasses: one2many_rnn_seq2seq's type checks accept both.
    loaded.rnn_cell_impl = types.SimpleNamespace(
        RNNCell=(rnn_cell_impl.RNNCell, tf.nn.rnn_cell.RNNCell))
    return loaded


def _restore_moved_tf_names() -> None:
    """TF 2.x moved a few names TF 1.15's modules use from their old places
    (array_ops.stack/unstack -> array_ops_stack, ops.Tensor/IndexedSlices/
    convert_n_to_tensor_or_indexed_slices, control_flow_ops.Assert/cond/while_loop,
    variable_scope.variable and variables.VariableV1 -> variable_v1.VariableV1,
    nest.is_sequence -> nest.is_nested, op_def_registry.get_registered_ops -> get): put
    them back for the oracle."""
    from tensorflow.python.framework import op_def_registry, ops
    from tensorflow.python.ops import array_ops, control_flow_ops
    from tensorflow.python.util import nest
    if not hasattr(nest, "is_sequence"):
        nest.is_sequence = nest.is_nested
    if not hasattr(op_def_registry, "get_registered_ops"):
        class Registered(dict):
            def __missing__(self, name):
                return op_def_registry.get(name)
        op_def_registry.get_registered_ops = Registered
    if not hasattr(control_flow_ops, "Assert"):
        from tensorflow.python.ops import control_flow_assert
        control_flow_ops.Assert = control_flow_assert.Assert
    if not hasattr(control_flow_ops, "cond"):
        from tensorflow.python.ops import cond
        control_flow_ops.cond = cond.cond
    from tensorflow.python.ops import variable_scope, variable_v1
    if not hasattr(variable_scope, "variable"):
        variable_scope.variable = variable_v1.VariableV1
    from tensorflow.python.ops import variables
    if not hasattr(variables, "VariableV1"):
        variables.VariableV1 = variable_v1.VariableV1
    if not hasattr(control_flow_ops, "while_loop"):
        from tensorflow.python.ops import while_loop
        control_flow_ops.while_loop = while_loop.while_loop
    if not hasattr(ops, "Tensor"):
        from tensorflow.python.framework import tensor
        ops.Tensor = tensor.Tensor
    if not hasattr(ops, "IndexedSlices"):
        from tensorflow.python.framework import indexed_slices
        ops.IndexedSlices = indexed_slices.IndexedSlices
    if not hasattr(ops, "convert_n_to_tensor_or_indexed_slices"):
        from tensorflow.python.framework import indexed_slices
        ops.convert_n_to_tensor_or_indexed_slices = \
            indexed_slices.convert_n_to_tensor_or_indexed_slices
    try:
        from tensorflow.python.ops import array_ops_stack
    except ImportError:
        return
    for fn in ("stack", "unstack", "parallel_stack"):
        if not hasattr(array_ops, fn) and hasattr(array_ops_stack, fn):
            setattr(array_ops, fn, getattr(array_ops_stack, fn))


def _factorization_kernels(tf) -> types.ModuleType:
    """gen_factorization_ops for the oracle: TF 1.15's _factorization_ops.so cannot load
    under TF 2.21, so its two WALS kernels are restated from their documented behaviour in
    TF ops. MaskedMatmul: the entries (a @ b)[i, j] for the (i, j) of mask_indices (a, b
    optionally transposed). WALSComputePartialLhsAndRhs: for each observed entry (r, c) of
    value v (r, c swapped when input_is_transpose) with weight w (entry_weights[e], else
    input_weights[r] * factor_weights[c]), row r's left-hand side gains w f_c f_c^T and its
    right-hand side v (w0 + w) f_c, f_c the c-th row of factors; rows block_size."""
    def masked_matmul(a, b, mask_indices, transpose_a, transpose_b, name=None):
        a = tf.cond(tf.convert_to_tensor(transpose_a), lambda: tf.transpose(a), lambda: a)
        b = tf.cond(tf.convert_to_tensor(transpose_b), lambda: tf.transpose(b), lambda: b)
        rows = tf.gather(a, mask_indices[:, 0])
        cols = tf.gather(tf.transpose(b), mask_indices[:, 1])
        # TF registers the op with an unknown shape, as placeholder_with_default gives.
        return tf.placeholder_with_default(tf.reduce_sum(rows * cols, axis=1), None, name=name)

    def wals_compute_partial_lhs_and_rhs(factors, factor_weights, unobserved_weights,
                                         input_weights, input_indices, input_values,
                                         entry_weights, input_block_size, input_is_transpose,
                                         name=None):
        entry_weights = tf.convert_to_tensor(entry_weights, tf.float32)
        transpose = tf.convert_to_tensor(input_is_transpose)
        rows = tf.where(transpose, input_indices[:, 1], input_indices[:, 0])
        cols = tf.where(transpose, input_indices[:, 0], input_indices[:, 1])
        weights = tf.cond(tf.size(entry_weights) > 0, lambda: entry_weights,
                          lambda: tf.gather(input_weights, rows) *
                          tf.gather(factor_weights, cols))
        observed = tf.gather(factors, cols)
        block = tf.cast(input_block_size, tf.int32)
        outer = (weights[:, None, None] * observed[:, :, None]) * observed[:, None, :]
        lhs = tf.math.unsorted_segment_sum(outer, rows, block)
        terms = (input_values * (unobserved_weights + weights))[:, None] * observed
        rhs = tf.math.unsorted_segment_sum(terms, rows, block)
        return (tf.placeholder_with_default(lhs, None), tf.placeholder_with_default(rhs, None))

    module = types.ModuleType("gen_factorization_ops")
    module.masked_matmul = masked_matmul
    module.wals_compute_partial_lhs_and_rhs = wals_compute_partial_lhs_and_rhs
    return module


def _stand_in_packages(package: str) -> None:
    """Empty packages for `package` ("tensorflow.a.b") and its parents that are missing."""
    import sys
    parts = package.split(".")
    for i in range(2, len(parts) + 1):
        name = ".".join(parts[:i])
        if not hasattr(sys.modules.get(name), "__path__"):
            sys.modules[name] = types.ModuleType(name)
            sys.modules[name].__path__ = []


def tf115_factorization(tf) -> types.SimpleNamespace:
    """tf.contrib.factorization's WALSModel as TF 1.15's factorization_ops.py defines it,
    run under the oracle's TF with the kernels of `_factorization_kernels`."""
    import sys
    package = "tensorflow.contrib.factorization.python.ops"
    if package + ".factorization_ops" not in sys.modules:
        _stand_in_packages(package)
        kernels = _factorization_kernels(tf)
        sys.modules[package + ".gen_factorization_ops"] = kernels
        sys.modules[package].gen_factorization_ops = kernels
        util = sys.modules.setdefault("tensorflow.contrib.util",
                                      types.ModuleType("tensorflow.contrib.util"))
        util.loader = types.SimpleNamespace(load_op_library=lambda path: None)
        sys.modules["tensorflow.contrib.util.loader"] = util.loader
        sys.modules["tensorflow.contrib"].util = util
    ops = tf115_absolute_package("contrib.factorization.python.ops", ["factorization_ops"])
    return types.SimpleNamespace(WALSModel=ops.factorization_ops.WALSModel)


def tf115_gmm_ops(tf) -> types.ModuleType:
    """TF 1.15's contrib/factorization gmm_ops.py (GmmAlgorithm, gmm): core TF ops only,
    run as they are under the oracle's TF."""
    ops = tf115_absolute_package("contrib.factorization.python.ops", ["gmm_ops"])
    return ops.gmm_ops


def tf115_wals(tf) -> types.ModuleType:
    """TF 1.15's contrib/factorization wals.py (the WALSMatrixFactorization Estimator) for
    the TF 2.15 oracle: its WALSModel is `tf115_factorization`'s, and the contrib.learn
    Estimator it subclasses is stood in by tf.estimator.Estimator (fit/evaluate/predict,
    ModelFnOps turned into an EstimatorSpec with its training hooks)."""
    import sys
    tf115_factorization(tf)

    class ModelFnOps:
        def __init__(self, mode, predictions=None, loss=None, train_op=None,
                     eval_metric_ops=None, training_hooks=None):
            self.spec = tf.estimator.EstimatorSpec(
                mode, predictions=predictions, loss=loss,
                train_op=train_op if mode == tf.estimator.ModeKeys.TRAIN else None,
                eval_metric_ops=eval_metric_ops, training_hooks=training_hooks)

    class Estimator(tf.estimator.Estimator):
        def __init__(self, model_fn, params=None, model_dir=None, config=None):
            def spec_fn(features, labels, mode, params):
                return model_fn(features, labels, mode, params).spec
            super().__init__(spec_fn, model_dir=model_dir, config=config, params=params)

        def fit(self, input_fn, steps=None, max_steps=None):
            self.train(input_fn, steps=steps, max_steps=max_steps)
            return self

    package = "tensorflow.contrib.learn.python.learn.estimators"
    _stand_in_packages(package)
    estimators = sys.modules[package]
    estimators.estimator = types.SimpleNamespace(Estimator=Estimator)
    estimators.model_fn = types.SimpleNamespace(
        ModelFnOps=ModelFnOps, ModeKeys=types.SimpleNamespace(
            TRAIN="train", EVAL="eval", INFER="infer"))
    sys.modules[package + ".estimator"] = estimators.estimator
    sys.modules[package + ".model_fn"] = estimators.model_fn
    return tf115_absolute_package("contrib.factorization.python.ops", ["wals"]).wals


def tf115_copy_graph(tf):
    """TF 1.15's contrib/copy_graph copy_elements.py run under the oracle's TF. Its one
    call TF 2 no longer takes, `ops.Operation(node_def, graph, inputs, ...)`, goes to
    `Operation.from_node_def` (TF >= 2.13's spelling of the same constructor)."""
    from copy import deepcopy
    from tensorflow.python.framework import ops as real_ops

    class _OperationMeta(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, real_ops.Operation)

    class Operation(metaclass=_OperationMeta):
        def __new__(cls, node_def, g, inputs, output_types, control_inputs, input_types,
                    original_op, op_def):
            return real_ops.Operation.from_node_def(
                node_def, g, inputs=inputs, output_types=output_types,
                control_inputs=control_inputs, input_types=input_types,
                original_op=original_op, op_def=op_def)

    ops = types.SimpleNamespace(Operation=Operation, Tensor=real_ops.Tensor,
                                GraphKeys=real_ops.GraphKeys)
    names = ["copy_op_to_graph", "copy_variable_to_graph", "get_copied_op"]
    namespace = {"deepcopy": deepcopy, "VariableV1": tf.Variable, "Session": tf.Session,
                 "ops": ops}
    return types.SimpleNamespace(**tf115_functions(
        "contrib/copy_graph/python/util/copy_elements.py", names, namespace))


def tf115_optimizer_v2(tf) -> types.ModuleType:
    """TF 1.15's contrib/optimizer_v2 package run under TF 2.21. Four modules it imports
    moved in TF 2: distribution_strategy_context is distribute_lib,
    training.tracking.base is trackable.base, training.training_ops is
    ops.gen_training_ops, and ops.convert_to_tensor_or_indexed_slices lives in
    indexed_slices; they are registered under their TF 1.15 names before loading."""
    import sys
    import tensorflow.python.distribute as distribute_pkg
    import tensorflow.python.training as training_pkg
    from tensorflow.python.distribute import distribute_lib
    from tensorflow.python.framework import indexed_slices, ops
    from tensorflow.python.ops import gen_training_ops
    from tensorflow.python.trackable import base as trackable_base
    del tf
    sys.modules["tensorflow.python.distribute.distribution_strategy_context"] = distribute_lib
    distribute_pkg.distribution_strategy_context = distribute_lib
    tracking = types.ModuleType("tensorflow.python.training.tracking")
    tracking.__path__ = []
    tracking.base = trackable_base
    sys.modules["tensorflow.python.training.tracking"] = tracking
    sys.modules["tensorflow.python.training.tracking.base"] = trackable_base
    training_pkg.training_ops = gen_training_ops
    sys.modules["tensorflow.python.training.training_ops"] = gen_training_ops
    ops.convert_to_tensor_or_indexed_slices = \
        indexed_slices.convert_to_tensor_or_indexed_slices
    pkg = tf115_absolute_package(
        "contrib.optimizer_v2", ["optimizer_v2", "gradient_descent", "adam", "momentum",
                                 "adagrad", "adadelta", "rmsprop"])
    # TF 1.15's object checkpoints asked `_checkpoint_dependencies` for an object's
    # children, which OptimizerV2 overrides (its per-graph non-slot variables); TF 2's
    # tf.train.Optimizer answers `_trackable_children` from tf.train's own non-slot table
    # instead, which OptimizerV2 lacks: Trackable's default reads the 1.15 hook again.
    # (and TF 2 passes `_lookup_dependency` a second argument, its cached children)
    optimizer_v2 = pkg.optimizer_v2.OptimizerV2
    if "_trackable_children" not in vars(optimizer_v2):
        optimizer_v2._trackable_children = trackable_base.Trackable._trackable_children
        lookup = optimizer_v2._lookup_dependency
        optimizer_v2._lookup_dependency = lambda self, name, cached=None: lookup(self, name)
    return pkg


def tf115_checkpoint(tf) -> types.SimpleNamespace:
    """tf.contrib.checkpoint as TF 1.15 assembles it, under TF 2.21: the core names it
    aliases from their TF 2 homes (trackable.base / autotrackable / data_structures,
    checkpoint.checkpoint, the TrackableObjectGraph proto, tf.train.CheckpointManager),
    UniqueNameTracker and dot_graph_from_checkpoint from TF 1.15's contrib/checkpoint/python
    sources, whose moved imports are registered under their TF 1.15 names
    (training.tracking.{base,data_structures,util}, pywrap_tensorflow's
    NewCheckpointReader)."""
    import sys
    import tensorflow.python as tf_python
    from tensorflow.core.protobuf import trackable_object_graph_pb2
    from tensorflow.python.checkpoint import checkpoint as checkpoint_lib
    from tensorflow.python.trackable import autotrackable, data_structures
    from tensorflow.python.trackable import base as trackable_base
    from tensorflow.python.training import py_checkpoint_reader
    tracking = sys.modules.get("tensorflow.python.training.tracking")
    if tracking is None:
        tracking = types.ModuleType("tensorflow.python.training.tracking")
        tracking.__path__ = []
        sys.modules[tracking.__name__] = tracking
    for name, module in (("base", trackable_base), ("data_structures", data_structures),
                         ("util", checkpoint_lib)):
        setattr(tracking, name, module)
        sys.modules[f"{tracking.__name__}.{name}"] = module
    pywrap = types.ModuleType("tensorflow.python.pywrap_tensorflow")
    pywrap.NewCheckpointReader = py_checkpoint_reader.NewCheckpointReader
    sys.modules[pywrap.__name__] = pywrap
    tf_python.pywrap_tensorflow = pywrap
    pkg = tf115_absolute_package("contrib.checkpoint.python", ["containers", "visualize"])
    return types.SimpleNamespace(
        CheckpointableBase=trackable_base.Trackable,
        Checkpointable=autotrackable.AutoTrackable,
        CheckpointableObjectGraph=trackable_object_graph_pb2.TrackableObjectGraph,
        CheckpointManager=tf.train.CheckpointManager,
        List=data_structures.List, Mapping=data_structures.Mapping,
        NoDependency=data_structures.NoDependency,
        UniqueNameTracker=pkg.containers.UniqueNameTracker,
        dot_graph_from_checkpoint=pkg.visualize.dot_graph_from_checkpoint,
        list_objects=checkpoint_lib.list_objects,
        object_metadata=checkpoint_lib.object_metadata)
