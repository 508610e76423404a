"""`tf.contrib.predictor` (TF 1.15): a callable over a serving signature.

`predictor({"x": value, ...})` feeds the signature's inputs and returns
`{output_key: value}` from the predictor's own Session (and graph):

- from_saved_model(export_dir, signature_def_key=None | signature_def=None |
  input_names=..., output_names=..., tags="serve"): a SavedModel's signature (default
  "serving_default"; "default_input_alternative:<key>" is tried too).
- from_estimator(estimator, serving_input_receiver_fn, output_key=None): the Estimator's
  PREDICT graph on its serving inputs, restored from its latest checkpoint.
- from_contrib_estimator: tf.contrib.learn's Estimators are not provided.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.util import tf_logging

__all__ = ["Predictor", "SavedModelPredictor", "CoreEstimatorPredictor", "from_saved_model",
           "from_estimator", "from_contrib_estimator"]

_DEFAULT_TAGS = "serve"
_DEFAULT_INPUT_ALTERNATIVE_FORMAT = "default_input_alternative:{}"


class Predictor:
    """Runs the fetch tensors of a signature for a dict of input values."""

    _graph: Any
    _session: Any
    _feed_tensors: Dict[str, Any]
    _fetch_tensors: Dict[str, Any]

    def __call__(self, input_dict: Dict[str, Any]) -> Dict[str, Any]:
        """{input key: value} -> {output key: value}; unknown keys raise ValueError and
        inputs given as None are not fed."""
        input_keys = set(input_dict.keys())
        expected_keys = set(self.feed_tensors.keys())
        unexpected_keys = input_keys - expected_keys
        if unexpected_keys:
            raise ValueError(f"Got unexpected keys in input_dict: {unexpected_keys}\n"
                             f"expected: {expected_keys}")
        feed_dict = {self.feed_tensors[key]: input_dict[key] for key in self.feed_tensors
                     if input_dict.get(key) is not None}
        return self._session.run(fetches=self.fetch_tensors, feed_dict=feed_dict)

    @property
    def graph(self) -> Any:
        """The predictor's graph."""
        return self._graph

    @property
    def session(self) -> Any:
        """The predictor's session."""
        return self._session

    @property
    def feed_tensors(self) -> Dict[str, Any]:
        """{input key: tensor}."""
        return self._feed_tensors

    @property
    def fetch_tensors(self) -> Dict[str, Any]:
        """{output key: tensor}."""
        return self._fetch_tensors

    def __repr__(self) -> str:
        return (f"{type(self).__name__} with feed tensors {self._feed_tensors} and fetch "
                f"tensors {self._fetch_tensors}")


def get_signature_def_by_key(meta_graph_def: Any, signature_def_key: str) -> Any:
    """The MetaGraphDef's SignatureDef named `signature_def_key` (ValueError if none)."""
    if signature_def_key not in meta_graph_def.signature_def:
        raise ValueError(f"No SignatureDef with key '{signature_def_key}' found in "
                         "MetaGraphDef.")
    return meta_graph_def.signature_def[signature_def_key]


def _get_signature_def(meta_graph_def: Any, signature_def_key: str) -> Any:
    try:
        return get_signature_def_by_key(meta_graph_def, signature_def_key)
    except ValueError as e:
        formatted_key = _DEFAULT_INPUT_ALTERNATIVE_FORMAT.format(signature_def_key)
        try:
            signature_def = get_signature_def_by_key(meta_graph_def, formatted_key)
        except ValueError:
            raise ValueError(f'Got signature_def_key "{signature_def_key}". Available '
                             f"signatures are {list(meta_graph_def.signature_def)}. "
                             f"Original error:\n{e}") from None
        tf_logging.warning('Could not find signature def "%s". Using "%s" instead',
                           signature_def_key, formatted_key)
        return signature_def


def _check_signature_arguments(signature_def_key: Any, signature_def: Any, input_names: Any,
                               output_names: Any) -> None:
    if (input_names is None) != (output_names is None):
        raise ValueError("input_names and output_names must both be specified or both be "
                         "unspecified.")
    if ((signature_def_key is not None) + (signature_def is not None) +
            (input_names is not None) > 1):
        raise ValueError("You must specify at most one of signature_def_key OR "
                         "signature_def OR (input_names AND output_names).")


class SavedModelPredictor(Predictor):
    """A SavedModel loaded into its own graph and session."""

    def __init__(self, export_dir: Any, signature_def_key: Optional[str] = None,
                 signature_def: Any = None, input_names: Optional[Dict[str, str]] = None,
                 output_names: Optional[Dict[str, str]] = None, tags: Any = None,
                 graph: Any = None, config: Any = None):
        from tf1compat.framework.graph import Graph
        from tf1compat.runtime.session import Session
        from tf1compat.training.saved_model.loader import load
        from tf1compat.training.saved_model.signature_constants import \
            DEFAULT_SERVING_SIGNATURE_DEF_KEY
        _check_signature_arguments(signature_def_key, signature_def, input_names,
                                   output_names)
        tags = tags or _DEFAULT_TAGS
        tag_list = tags.split(",") if isinstance(tags, str) else list(tags)
        self._graph = graph or Graph()
        with self._graph.as_default():
            self._session = Session(config=config)
            meta_graph_def = load(self._session, tag_list, export_dir)
        if input_names is None:
            if signature_def is None:
                signature_def = _get_signature_def(
                    meta_graph_def, signature_def_key or DEFAULT_SERVING_SIGNATURE_DEF_KEY)
            input_names = {k: v.name for k, v in signature_def.inputs.items()}
            output_names = {k: v.name for k, v in signature_def.outputs.items()}
        self._feed_tensors = {k: self._graph.get_tensor_by_name(v)
                              for k, v in input_names.items()}
        self._fetch_tensors = {k: self._graph.get_tensor_by_name(v)
                               for k, v in output_names.items()}


class CoreEstimatorPredictor(Predictor):
    """A `tf.estimator.Estimator`'s PREDICT graph on `serving_input_receiver_fn()`'s
    inputs, in a MonitoredSession restored from the Estimator's model_dir."""

    def __init__(self, estimator: Any, serving_input_receiver_fn: Any,
                 output_key: Optional[str] = None, graph: Any = None, config: Any = None):
        from tf1compat.estimator.export.export_lib import build_all_signature_defs
        from tf1compat.estimator.mode_keys import ModeKeys
        from tf1compat.framework.graph import Graph
        from tf1compat.training.saved_model.signature_constants import \
            DEFAULT_SERVING_SIGNATURE_DEF_KEY
        from tf1compat.training.sessions.monitored_session import (ChiefSessionCreator,
                                                                   MonitoredSession)
        self._graph = graph or Graph()
        with self._graph.as_default():
            receiver = serving_input_receiver_fn()
            spec = estimator._call_model_fn(receiver.features, None, ModeKeys.PREDICT,
                                            estimator.config)
            signatures = build_all_signature_defs(
                receiver.receiver_tensors, spec.export_outputs,
                receiver.receiver_tensors_alternatives)
            signature_def = signatures[output_key or DEFAULT_SERVING_SIGNATURE_DEF_KEY]
            self._session = MonitoredSession(session_creator=ChiefSessionCreator(
                checkpoint_dir=estimator.model_dir, config=config))
        self._feed_tensors = {k: self._graph.get_tensor_by_name(v.name)
                              for k, v in signature_def.inputs.items()}
        self._fetch_tensors = {k: self._graph.get_tensor_by_name(v.name)
                               for k, v in signature_def.outputs.items()}


def from_saved_model(export_dir: Any, signature_def_key: Optional[str] = None,
                     signature_def: Any = None, input_names: Optional[Dict[str, str]] = None,
                     output_names: Optional[Dict[str, str]] = None, tags: Any = None,
                     graph: Any = None, config: Any = None) -> Predictor:
    """A Predictor over a SavedModel signature (see SavedModelPredictor)."""
    return SavedModelPredictor(export_dir=export_dir, signature_def_key=signature_def_key,
                               signature_def=signature_def, input_names=input_names,
                               output_names=output_names, tags=tags, graph=graph,
                               config=config)


def from_estimator(estimator: Any, serving_input_receiver_fn: Any,
                   output_key: Optional[str] = None, graph: Any = None,
                   config: Any = None) -> Predictor:
    """A Predictor over a `tf.estimator.Estimator` (see CoreEstimatorPredictor)."""
    from tf1compat.estimator.estimator import Estimator
    if not isinstance(estimator, Estimator):
        raise TypeError("Expected estimator to be of type tf.python.estimator.Estimator, "
                        f"but got type {type(estimator).__name__}.")
    return CoreEstimatorPredictor(estimator, serving_input_receiver_fn,
                                  output_key=output_key, graph=graph, config=config)


def from_contrib_estimator(estimator: Any, prediction_input_fn: Any,
                           input_alternative_key: Optional[str] = None,
                           output_alternative_key: Optional[str] = None, graph: Any = None,
                           config: Any = None) -> Predictor:
    """tf.contrib.learn's Estimators are not provided by tf1compat, so neither is a
    Predictor over one."""
    from tf1compat.estimator.estimator import Estimator
    if isinstance(estimator, Estimator):
        raise TypeError("Expected estimator to be of type tf.contrib.learn.Estimator, but "
                        "got type tf.python.estimator.Estimator. You likely want to call "
                        "from_estimator.")
    raise NotImplementedError("tf.contrib.predictor.from_contrib_estimator needs a "
                              "tf.contrib.learn Estimator, which tf1compat does not provide: "
                              "use a tf.estimator.Estimator with from_estimator")
