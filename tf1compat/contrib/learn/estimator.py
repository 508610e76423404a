"""`tf.contrib.learn.Estimator`, `ModelFnOps` and `SKCompat` (TF 1.0-1.4's Estimator API).

The contrib Estimator runs on tf1compat's core `tf.estimator.Estimator`: its `model_fn`
(returning `ModelFnOps` or a `(predictions, loss, train_op)` tuple) is adapted to one that
returns an `EstimatorSpec`, and `fit`/`evaluate`/`predict` map onto `train`/`evaluate`/
`predict`. Numpy `x`/`y` become an input_fn as TF's data feeder made them (arrays keep
their dtype, a 1-D `x` is one column, a [rows, 1] `y` a vector, `batch_size=None` means all
rows per batch): `fit` shuffles and repeats, `evaluate`/`predict` read the rows once in
order. The mode strings ("train",
"eval", "infer") are the core ModeKeys' own.
"""

from __future__ import annotations

import collections
import inspect
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from tf1compat.data import dataset_ops
from tf1compat.estimator import model_fn as core_model_fn
from tf1compat.estimator.estimator import Estimator as CoreEstimator
from tf1compat.contrib.learn import saved_model_export_utils as export_utils
from tf1compat.contrib.learn.metric_spec import make_metrics_ops
from tf1compat.estimator.util import fn_args
from tf1compat.framework import dtypes, tensor_shape
from tf1compat.training.sessions.basic_session_run_hooks import FeedFnHook
from tf1compat.util import tf_logging

__all__ = ["Estimator", "ModelFnOps", "SKCompat", "NotFittedError", "GraphRewriteSpec"]

_TRAIN, _EVAL, _INFER = "train", "eval", "infer"
_deprecation_logged = False


def _log_deprecation_once() -> None:
    """TF's @deprecated on BaseEstimator.__init__ logged this once per process."""
    global _deprecation_logged
    if _deprecation_logged:
        return
    _deprecation_logged = True
    caller = inspect.stack()[2]
    tf_logging.warning(
        "From %s:%d: BaseEstimator.__init__ (from tensorflow.contrib.learn.python.learn."
        "estimators.estimator) is deprecated and will be removed in a future version.\n"
        "Instructions for updating:\nPlease replace uses of any Estimator from "
        "tf.contrib.learn with an Estimator from tf.estimator.*", caller.filename,
        caller.lineno)


class ModelFnOps:
    """What a contrib `model_fn` returns: the ops of one mode (`tf.contrib.learn.ModelFnOps`).

    `predictions` is required in INFER mode, `loss` in TRAIN and EVAL, `train_op` in TRAIN.
    """

    def __init__(self, mode: str, predictions: Any = None, loss: Any = None,
                 train_op: Any = None, eval_metric_ops: Any = None,
                 output_alternatives: Any = None, training_chief_hooks: Any = None,
                 training_hooks: Any = None, scaffold: Any = None):
        if mode == _INFER and predictions is None:
            raise ValueError("Missing predictions.")
        if mode in (_TRAIN, _EVAL) and loss is None:
            raise ValueError("Missing loss.")
        if mode == _TRAIN and train_op is None:
            raise ValueError("Missing train_op.")
        self.mode = mode
        self.predictions = predictions
        self.loss = loss
        self.train_op = train_op
        self.eval_metric_ops = eval_metric_ops or {}
        self.output_alternatives = output_alternatives
        self.training_chief_hooks = list(training_chief_hooks or [])
        self.training_hooks = list(training_hooks or [])
        self.scaffold = scaffold

    def estimator_spec(self, default_serving_output_alternative_key: Any = None) -> Any:
        """The same ops as a core `tf.estimator.EstimatorSpec` (the output alternatives
        are exported by the contrib Estimator's `export_savedmodel` itself)."""
        del default_serving_output_alternative_key
        # The core Estimator reports mean(loss) as "loss" itself and refuses a metric of that
        # name; contrib's heads define it as exactly that mean (of their EVAL-mode loss).
        # A lone Tensor (TF evaluated it once after the loop) is its own update op.
        metrics = {k: v if isinstance(v, (tuple, list)) else (v, v)
                   for k, v in self.eval_metric_ops.items() if k != "loss"}
        return core_model_fn.EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss,
            train_op=self.train_op if self.mode == _TRAIN else None,
            eval_metric_ops=metrics,
            training_chief_hooks=self.training_chief_hooks,
            training_hooks=self.training_hooks, scaffold=self.scaffold)


def _text_as_bytes(array: np.ndarray) -> np.ndarray:
    """An object array's str items as UTF-8 bytes: TF fed them to string placeholders as
    they were; the Dataset under this feeder wants bytes."""
    if array.dtype != object or not any(isinstance(v, str) for v in array.reshape(-1)):
        return array
    return np.vectorize(lambda v: v.encode("utf8") if isinstance(v, str) else v,
                        otypes=[object])(array)


def _feature_array(array: Any) -> np.ndarray:
    """`x` as TF's data feeder fed it: its own dtype (float64 with TF's warning), a 1-D
    array as one column."""
    array = _text_as_bytes(np.asarray(array))
    if array.dtype == np.float64:
        tf_logging.warning("float64 is not supported by many models, consider casting to "
                           "float32.")
    return array.reshape(-1, 1) if array.ndim == 1 else array


def _label_array(array: Any) -> np.ndarray:
    """`y` as TF's data feeder fed it: a [rows, 1] column becomes a [rows] vector."""
    array = _text_as_bytes(np.asarray(array))
    if array.dtype == np.float64:
        tf_logging.warning("float64 is not supported by many models, consider casting to "
                           "float32.")
    return array.reshape(-1) if array.ndim == 2 and array.shape[1] == 1 else array


def _each(value: Any, fn: Callable[[Any], Any]) -> Any:
    """`fn` of an array, or of each array of a dict."""
    return {k: fn(v) for k, v in value.items()} if isinstance(value, dict) else fn(value)


def _get_input_fn(x: Any, y: Any, input_fn: Any, batch_size: Optional[int], shuffle: bool,
                  epochs: Optional[int]) -> Callable[[], Any]:
    """The input_fn for `x`/`y` arrays, or `input_fn` itself (exactly one must be given)."""
    if input_fn is None:
        if x is None:
            raise ValueError("Either x or input_fn must be provided.")
        if batch_size is not None and batch_size <= 0:
            raise ValueError("Invalid batch_size %d." % batch_size)
        features = _each(x, _feature_array)
        labels = None if y is None else _each(y, _label_array)
        return _data_feeder_input_fn(features, labels, batch_size, shuffle, epochs)
    if x is not None or y is not None:
        raise ValueError("Can not provide both input_fn and x or y.")
    if batch_size is not None:
        raise ValueError("Can not provide both input_fn and batch_size.")
    return input_fn


def _data_feeder_input_fn(features: Any, labels: Any, batch_size: Optional[int],
                          shuffle: bool, epochs: Optional[int]) -> Callable[[], Any]:
    """Batches as TF's data feeder drew them: rows in order or permuted (RandomState(42)),
    a new permutation after every epoch, batches of `batch_size` (all rows when None) that
    do not cross epochs, `epochs` times (None: forever)."""
    first = next(iter(features.values())) if isinstance(features, dict) else features
    rows = first.shape[0]
    batch = rows if batch_size is None else int(batch_size)

    def batches() -> Any:
        random_state = np.random.RandomState(42)
        order = random_state.permutation(rows) if shuffle else np.arange(rows)
        epoch = 0
        while epochs is None or epoch < epochs:
            for start in range(0, rows, batch):
                picked = order[start:start + batch]
                taken = _each(features, lambda a: a[picked])
                yield taken if labels is None else (taken, _each(labels, lambda a: a[picked]))
            order = random_state.permutation(rows)
            epoch += 1

    def input_fn() -> Any:
        parts = (features,) if labels is None else (features, labels)
        types = tuple(_each(p, lambda a: dtypes.as_dtype(a.dtype)) for p in parts)
        shapes = tuple(_each(p, lambda a: tensor_shape.TensorShape((None,) + a.shape[1:]))
                       for p in parts)
        if labels is None:
            types, shapes = types[0], shapes[0]
        return dataset_ops.Dataset.from_generator(batches, types, shapes)
    return input_fn


class Estimator:
    """`tf.contrib.learn.Estimator(model_fn, model_dir, config, params,
    feature_engineering_fn)`: `model_fn(features, labels, mode, params, config, model_dir)`
    (any subset after `features`; `targets` is accepted for `labels`) returns `ModelFnOps`
    or `(predictions, loss, train_op)`."""

    def __init__(self, model_fn: Any = None, model_dir: Optional[str] = None,
                 config: Any = None, params: Optional[Dict[str, Any]] = None,
                 feature_engineering_fn: Any = None):
        _log_deprecation_once()
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        args = fn_args(model_fn)
        if params is not None and "params" not in args:
            raise ValueError(f"Estimator's model_fn ({model_fn}) does not have a params "
                             f"argument, but params ({params}) were passed to the "
                             "Estimator's constructor.")
        if params is None and "params" in args:
            tf_logging.warning("Estimator's model_fn (%s) includes params argument, but "
                               "params are not passed to Estimator.", model_fn)
        self._model_fn = model_fn
        self._params = params
        self._model_fn_args = args
        self._feature_engineering_fn = feature_engineering_fn or (lambda f, l: (f, l))
        self._eval_metrics: Any = None
        self._core = CoreEstimator(self._spec_model_fn, model_dir=model_dir, config=config)

    # -- properties ---------------------------------------------------------------------------
    @property
    def model_dir(self) -> str:
        return self._core.model_dir

    @property
    def config(self) -> Any:
        return self._core.config

    @property
    def params(self) -> Optional[Dict[str, Any]]:
        return self._params

    def get_variable_value(self, name: str) -> np.ndarray:
        return self._core.get_variable_value(name)

    def get_variable_names(self) -> List[str]:
        return self._core.get_variable_names()

    # -- the model_fn adapter -----------------------------------------------------------------
    def _call_model_fn(self, features: Any, labels: Any, mode: str, params: Any,
                       config: Any) -> ModelFnOps:
        """Calls the user's model_fn with the arguments it names; a 3-tuple becomes
        ModelFnOps as in TF."""
        features, labels = self._feature_engineering_fn(features, labels)
        # TF passed features and labels by position (older model_fns call them targets).
        args = self._model_fn_args
        kwargs: Dict[str, Any] = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = params
        if "config" in args:
            kwargs["config"] = config
        if "model_dir" in args:
            kwargs["model_dir"] = self.model_dir
        result = self._model_fn(features, labels, **kwargs)
        if isinstance(result, core_model_fn.EstimatorSpec):
            raise ValueError("tf.contrib.learn.Estimator's model_fn must return ModelFnOps "
                             "or (predictions, loss, train_op), not an EstimatorSpec "
                             "(use tf.estimator.Estimator for that)")
        if not isinstance(result, ModelFnOps):
            if not isinstance(result, (tuple, list)) or len(result) != 3:
                raise ValueError("Unrecognized value returned by model_fn, please return "
                                 "ModelFnOps.")
            result = ModelFnOps(mode=mode, predictions=result[0], loss=result[1],
                                train_op=result[2])
        if mode == _EVAL and self._eval_metrics:
            # evaluate(metrics=...) adds its metrics to the model_fn's, on the features and
            # labels the model_fn saw; a lone Tensor is both value and update (as in TF).
            for key, metric in make_metrics_ops(self._eval_metrics, features, labels,
                                                result.predictions).items():
                result.eval_metric_ops[key] = metric if isinstance(metric, (tuple, list)) \
                    else (metric, metric)
        return result

    def _spec_model_fn(self, features: Any, labels: Any, mode: str, config: Any) -> Any:
        # The contrib model_fn gets the params given to this Estimator (None or a dict).
        return self._call_model_fn(features, labels, mode, self._params,
                                   config).estimator_spec()

    # -- fit / evaluate / predict -------------------------------------------------------------
    def fit(self, x: Any = None, y: Any = None, input_fn: Any = None,
            steps: Optional[int] = None, batch_size: Optional[int] = None,
            monitors: Any = None, max_steps: Optional[int] = None) -> "Estimator":
        """Trains for `steps` more steps (or up to `max_steps`) on `x`/`y` or `input_fn`;
        `monitors` are SessionRunHooks (such as ValidationMonitor)."""
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        feed = _get_input_fn(x, y, input_fn, batch_size, shuffle=True, epochs=None)
        self._core.train(feed, hooks=list(monitors or []), steps=steps, max_steps=max_steps)
        return self

    def partial_fit(self, x: Any = None, y: Any = None, input_fn: Any = None,
                    steps: int = 1, batch_size: Optional[int] = None,
                    monitors: Any = None) -> "Estimator":
        """`fit` for `steps` steps (default 1)."""
        return self.fit(x=x, y=y, input_fn=input_fn, steps=steps, batch_size=batch_size,
                        monitors=monitors)

    def evaluate(self, x: Any = None, y: Any = None, input_fn: Any = None,
                 feed_fn: Any = None, batch_size: Optional[int] = None,
                 steps: Optional[int] = None, metrics: Any = None, name: Optional[str] = None,
                 checkpoint_path: Optional[str] = None, hooks: Any = None,
                 log_progress: bool = True) -> Dict[str, Any]:
        """Evaluates the latest checkpoint on `x`/`y` (read once) or `input_fn`; returns the
        model_fn's eval metrics plus `metrics` (MetricSpecs, or TF's older bare functions),
        `loss` and `global_step`; `feed_fn` feeds each step (a FeedFnHook)."""
        del log_progress  # TF only used it to choose a log level
        hooks = list(hooks or [])
        if feed_fn is not None:
            if input_fn is None:
                raise ValueError("feed_fn can only be given with input_fn.")
            hooks.append(FeedFnHook(feed_fn))
        feed = _get_input_fn(x, y, input_fn, batch_size, shuffle=False, epochs=1)
        self._eval_metrics = metrics
        try:
            return self._core.evaluate(feed, steps=steps, hooks=hooks,
                                       checkpoint_path=checkpoint_path, name=name)
        finally:
            self._eval_metrics = None

    def predict(self, x: Any = None, input_fn: Any = None, batch_size: Optional[int] = None,
                outputs: Any = None, as_iterable: bool = True,
                iterate_batches: bool = False) -> Any:
        """Predictions for `x` or `input_fn`: an iterator of examples (of batches with
        `iterate_batches`), or with `as_iterable=False` all of them as arrays."""
        feed = _get_input_fn(x, None, input_fn, batch_size, shuffle=False, epochs=1)
        if as_iterable:
            return self._core.predict(feed, predict_keys=outputs,
                                      yield_single_examples=not iterate_batches)
        return _concatenate(list(self._core.predict(feed, predict_keys=outputs,
                                                    yield_single_examples=False)))


    def export_savedmodel(self, export_dir_base: Any, serving_input_fn: Any,
                          default_output_alternative_key: Optional[str] = None,
                          assets_extra: Optional[Dict[str, str]] = None, as_text: bool = False,
                          checkpoint_path: Optional[str] = None,
                          graph_rewrite_specs: Any = None,
                          strip_default_attrs: bool = False) -> bytes:
        """Exports the latest checkpoint (or `checkpoint_path`) as a SavedModel under
        `<export_dir_base>/<timestamp>` with a signature per output alternative (head) of
        the INFER-mode ModelFnOps, `"default_input_alternative:<head>"`, and
        `serving_default` (`default_output_alternative_key`, needed with several heads);
        `serving_input_fn` returns `InputFnOps`. Returns the directory (bytes)."""
        from tf1compat.estimator.estimator_export import export_to_timestamped_dir
        from tf1compat.framework.graph import Graph, GraphKeys, add_to_collection
        from tf1compat.framework.random_seed import set_random_seed
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.runtime.session import Session
        from tf1compat.training.saving import checkpoint_state
        from tf1compat.training.saving.saver import Saver
        from tf1compat.variables.collections import (local_variables_initializer,
                                                     tables_initializer)
        tags, rewrites = ["serve"], []
        if graph_rewrite_specs is not None:
            specs = list(graph_rewrite_specs)
            if not specs or specs[0].transforms:
                raise ValueError("The first element of graph_rewrite_specs must specify no "
                                 "transforms.")
            transformed = [spec.transforms for spec in specs[1:] if spec.transforms]
            if transformed:
                raise NotImplementedError(
                    "tf.contrib.learn.Estimator.export_savedmodel: the graph_rewrite_specs "
                    f"transforms {list(transformed[0])} need TF's Graph Transform Tool, which "
                    "tf1compat does not have (specs without transforms are supported)")
            tags, rewrites = list(specs[0].tags), specs[1:]
        if serving_input_fn is None:
            raise ValueError("serving_input_fn must be defined.")
        checkpoint_path = checkpoint_path or checkpoint_state.latest_checkpoint(self.model_dir)
        if not checkpoint_path:
            raise NotFittedError(f"Couldn't find trained model at {self.model_dir}.")
        def add_meta_graph(builder: Any) -> None:
            with Graph().as_default() as g:
                self._core._create_and_assert_global_step(g)
                set_random_seed(self.config.tf_random_seed)
                input_ops = serving_input_fn()
                inputs, features = export_utils.get_input_alternatives(input_ops)
                # TF's stopgap record of the features expected at serving time.
                for key in input_ops.features.keys():
                    add_to_collection(export_utils.COLLECTION_DEF_KEY_FOR_INPUT_FEATURE_KEYS,
                                      key)
                ops = self._call_model_fn(features, None, _INFER, self._params, self.config)
                outputs, default_key = export_utils.get_output_alternatives(
                    ops, default_output_alternative_key)
                init_op = group(local_variables_initializer(), tables_initializer())
                signatures = export_utils.build_all_signature_defs(inputs, outputs,
                                                                   default_key)
                with Session(config=self.config.session_config) as session:
                    saver = ops.scaffold.saver if ops.scaffold is not None and \
                        ops.scaffold.saver is not None else Saver(sharded=True)
                    saver.restore(session, checkpoint_path)
                    builder.add_meta_graph_and_variables(
                        session, tags, signature_def_map=signatures,
                        assets_collection=g.get_collection(GraphKeys.ASSET_FILEPATHS),
                        main_op=init_op, strip_default_attrs=strip_default_attrs)
                _add_rewritten_meta_graphs(builder, rewrites)

        return export_to_timestamped_dir(export_dir_base, add_meta_graph, as_text,
                                         assets_extra)


# One meta graph of export_savedmodel: its tags and the Graph Transform Tool transforms.
GraphRewriteSpec = collections.namedtuple("GraphRewriteSpec", ["tags", "transforms"])


def _add_rewritten_meta_graphs(builder: Any, specs: List[Any]) -> None:
    """The first meta graph again under each spec's tags: what TF 1.15's
    `meta_graph_transform` makes of a spec without transforms (graph, saver, collections
    and signatures copied, the tags replaced)."""
    base = builder._saved_model.meta_graphs[0]
    for spec in specs:
        meta = type(base)()
        meta.CopyFrom(base)
        del meta.meta_info_def.tags[:]
        meta.meta_info_def.tags.extend(spec.tags)
        builder._saved_model.meta_graphs.append(meta)


class NotFittedError(ValueError, AttributeError):
    """Raised (as TF 1.15's contrib Estimator did) when exporting before any training."""


def _concatenate(batches: List[Any]) -> Any:
    """Joins per-batch predictions (arrays or dicts of arrays) along the batch axis."""
    if not batches:
        return {}
    if isinstance(batches[0], dict):
        return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}
    return np.concatenate(batches)


class SKCompat:
    """scikit-learn style `fit(x, y)`/`score`/`predict` over a contrib Estimator."""

    def __init__(self, estimator: Estimator):
        self._estimator = estimator

    def fit(self, x: Any, y: Any, batch_size: int = 128, steps: Optional[int] = None,
            max_steps: Optional[int] = None, monitors: Any = None) -> "SKCompat":
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps,
                            max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x: Any, y: Any, batch_size: int = 128, steps: Optional[int] = None,
              metrics: Any = None, name: Optional[str] = None) -> Dict[str, Any]:
        return self._estimator.evaluate(x=x, y=y, batch_size=batch_size, steps=steps,
                                        metrics=metrics, name=name)

    def predict(self, x: Any, batch_size: int = 128, outputs: Any = None) -> Any:
        return self._estimator.predict(x=x, batch_size=batch_size, outputs=outputs,
                                       as_iterable=False)
