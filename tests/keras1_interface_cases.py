"""Cases of Keras 2.2.4's Keras 1 argument conversions, shared by the recorder
(scripts/record_keras1_interfaces.py, under Keras 2.2.4's own interfaces.py) and the test
(tests/test_keras_legacy.py, under tf1compat.keras.legacy.interfaces).

A case is (rule name, the class or method name the call is on, positional arguments after
`self`, keyword arguments)."""

from __future__ import annotations

import types
import warnings
from typing import Any, Dict, List, Tuple

import numpy as np


def Self(owner: str) -> Any:   # noqa: N802 (stands for the instance)
    """An instance of a class named `owner` (the warning names the call after it)."""
    return type(owner, (), {})()


class Generator:
    """A generator argument that knows its batch size (samples_per_epoch is divided)."""
    batch_size = 16

    def __repr__(self) -> str:
        return "<generator>"


def encode(value: Any) -> Any:
    """`value` as JSON: tuples tagged, dicts as ordered pairs, arrays and objects named."""
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[k, encode(v)] for k, v in value.items()]}
    if isinstance(value, np.ndarray):
        return {"array": value.tolist()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return {"object": type(value).__name__}


GEN = Generator()
CASES: Dict[str, Tuple[str, str, List[Any], Dict[str, Any]]] = {
    "dense": ("legacy_dense_support", "Dense", [],
              {"output_dim": 10, "init": "normal", "W_regularizer": None, "bias": False,
               "activation": "relu"}),
    "dense_positional_ok": ("legacy_dense_support", "Dense", [10], {"activation": "relu"}),
    "dense_too_many": ("legacy_dense_support", "Dense", [10, "relu"], {}),
    "dense_duplicate": ("legacy_dense_support", "Dense", [], {"output_dim": 3, "units": 4}),
    "dense_long_values": ("legacy_dense_support", "Dense", [np.zeros(3)],
                          {"init": "a_very_long_initializer_name", "b_constraint": 12345678901234}),
    "dropout": ("legacy_dropout_support", "Dropout", [], {"p": 0.5}),
    "embedding": ("legacy_embedding_support", "Embedding", [1000, 64],
                  {"init": "uniform", "W_regularizer": None, "dropout": 0.2,
                   "input_length": 10}),
    "embedding_dropout_only": ("legacy_embedding_support", "Embedding", [10, 4],
                               {"dropout": 0.2}),
    "pooling1d": ("legacy_pooling1d_support", "MaxPooling1D", [],
                  {"pool_length": 2, "stride": 1, "border_mode": "same"}),
    "pooling2d": ("legacy_pooling2d_support", "MaxPooling2D", [(2, 2)],
                  {"border_mode": "same", "dim_ordering": "th"}),
    "pooling2d_default_ordering": ("legacy_pooling2d_support", "AveragePooling2D", [],
                                   {"dim_ordering": "default"}),
    "pooling3d": ("legacy_pooling3d_support", "MaxPooling3D", [],
                  {"dim_ordering": "tf", "border_mode": "valid"}),
    "global_pooling": ("legacy_global_pooling_support", "GlobalAveragePooling2D", [],
                       {"dim_ordering": "th"}),
    "prelu": ("legacy_prelu_support", "PReLU", [], {"init": "zero"}),
    "gaussiannoise": ("legacy_gaussiannoise_support", "GaussianNoise", [], {"sigma": 0.1}),
    "gaussiandropout": ("legacy_gaussiandropout_support", "GaussianDropout", [], {"p": 0.1}),
    "lstm": ("legacy_recurrent_support", "LSTM", [],
             {"output_dim": 32, "init": "glorot_uniform", "inner_init": "orthogonal",
              "inner_activation": "hard_sigmoid", "W_regularizer": None,
              "U_regularizer": None, "b_regularizer": None, "dropout_W": 0.2,
              "dropout_U": 0.1, "return_sequences": True}),
    "gru_consume_less": ("legacy_recurrent_support", "GRU", [8], {"consume_less": "gpu"}),
    "lstm_forget_bias_one": ("legacy_recurrent_support", "LSTM", [8],
                             {"forget_bias_init": "one"}),
    "lstm_forget_bias_other": ("legacy_recurrent_support", "LSTM", [8],
                               {"forget_bias_init": "zero"}),
    "simplernn_input_dim": ("legacy_recurrent_support", "SimpleRNN", [],
                            {"output_dim": 4, "input_dim": 3, "input_length": 7}),
    "upsampling1d": ("legacy_upsampling1d_support", "UpSampling1D", [], {"length": 3}),
    "upsampling2d": ("legacy_upsampling2d_support", "UpSampling2D", [(2, 2)],
                     {"dim_ordering": "tf"}),
    "conv1d": ("legacy_conv1d_support", "Conv1D", [],
               {"nb_filter": 64, "filter_length": 3, "border_mode": "valid",
                "subsample_length": 1, "activation": "relu", "input_dim": 100,
                "input_length": 400}),
    "conv2d_positional": ("legacy_conv2d_support", "Conv2D", [32, 3, 3],
                          {"border_mode": "same", "input_shape": (28, 28, 1)}),
    "conv2d_ambiguous": ("legacy_conv2d_support", "Conv2D", [32, 3, 3], {"padding": "same"}),
    "conv2d_nb_col": ("legacy_conv2d_support", "Convolution2D", [32, 5], {"nb_col": 3}),
    "conv2d_keywords": ("legacy_conv2d_support", "Conv2D", [64],
                        {"nb_row": 3, "nb_col": 3, "subsample": (2, 2),
                         "dim_ordering": "th", "init": "he_normal", "bias": True}),
    "conv2d_all_keywords": ("legacy_conv2d_support", "Conv2D", [],
                            {"nb_filter": 16, "nb_row": 3, "nb_col": 3}),
    "conv2d_keras2": ("legacy_conv2d_support", "Conv2D", [32, (3, 3)],
                      {"strides": 2, "padding": "same"}),
    "conv2d_too_many": ("legacy_conv2d_support", "Conv2D", [32, 3, 3, 3], {}),
    "conv3d_positional": ("legacy_conv3d_support", "Conv3D", [8, 3, 3, 3],
                          {"border_mode": "same"}),
    "conv3d_keywords": ("legacy_conv3d_support", "Conv3D", [8],
                        {"kernel_dim1": 2, "kernel_dim2": 3, "kernel_dim3": 4}),
    "conv3d_dim3": ("legacy_conv3d_support", "Conv3D", [8, 2, 3], {"kernel_dim3": 4}),
    "separable_conv2d": ("legacy_separable_conv2d_support", "SeparableConv2D", [16, 3, 3],
                         {"init": "he_normal", "border_mode": "same"}),
    "deconv2d": ("legacy_deconv2d_support", "Conv2DTranspose", [16, 3, 3, (None, 8, 8, 16)],
                 {"subsample": (2, 2)}),
    "deconv2d_output_shape_kw": ("legacy_deconv2d_support", "Conv2DTranspose", [16, (3, 3)],
                                 {"output_shape": (None, 8, 8, 16)}),
    "convlstm2d": ("legacy_convlstm2d_support", "ConvLSTM2D", [],
                   {"nb_filter": 4, "nb_row": 3, "nb_col": 3, "border_mode": "same",
                    "forget_bias_init": "one", "dropout_W": 0.1}),
    "batchnorm": ("legacy_batchnorm_support", "BatchNormalization", [],
                  {"mode": 0, "axis": 1, "beta_init": "zero", "gamma_init": "one"}),
    "batchnorm_mode2": ("legacy_batchnorm_support", "BatchNormalization", [], {"mode": 2}),
    "batchnorm_positional": ("legacy_batchnorm_support", "BatchNormalization", [1], {}),
    "zeropadding2d_dict": ("legacy_zeropadding2d_support", "ZeroPadding2D", [],
                           {"padding": {"top_pad": 1, "right_pad": 2}}),
    "zeropadding2d_dict_positional": ("legacy_zeropadding2d_support", "ZeroPadding2D",
                                      [{"left_pad": 3}], {}),
    "zeropadding3d": ("legacy_zeropadding3d_support", "ZeroPadding3D", [(1, 1, 1)],
                      {"dim_ordering": "th"}),
    "cropping2d": ("legacy_cropping2d_support", "Cropping2D", [((1, 1), (2, 2))],
                   {"dim_ordering": "tf"}),
    "spatialdropout1d": ("legacy_spatialdropout1d_support", "SpatialDropout1D", [],
                         {"p": 0.2}),
    "spatialdropout2d": ("legacy_spatialdropoutNd_support", "SpatialDropout2D", [],
                         {"p": 0.2, "dim_ordering": "th"}),
    "lambda_too_many": ("legacy_lambda_support", "Lambda", ["f", None, None], {}),
    "fit_generator": ("legacy_generator_methods_support", "fit_generator", [GEN],
                      {"samples_per_epoch": 320, "nb_epoch": 3, "nb_val_samples": 64,
                       "validation_data": None, "pickle_safe": True, "nb_worker": 2,
                       "max_q_size": 5}),
    "fit_generator_plain_generator": ("legacy_generator_methods_support", "fit_generator",
                                      [], {"generator": [1, 2], "samples_per_epoch": 100}),
    "evaluate_generator": ("legacy_generator_methods_support", "evaluate_generator", [GEN],
                           {"val_samples": 10}),
    "predict_generator_keras2": ("legacy_generator_methods_support", "predict_generator",
                                 [GEN, 4], {"verbose": 1}),
    "model": ("legacy_model_constructor_support", "Model", [],
              {"input": "x", "output": "y", "name": "m"}),
    "input_layer": ("legacy_input_support", "InputLayer", [], {"input_dtype": "int32"}),
    "add_weight_keras1": ("legacy_add_weight_support", "MyLayer", [(3, 4), "kernel"],
                          {"initializer": "zeros"}),
    "get_updates_keras1": ("legacy_get_updates_support", "SGD", [["p"], {}, "loss"], {}),
    "get_updates_keras1_kw": ("legacy_get_updates_support", "SGD", [["p"], {}],
                              {"loss": "loss"}),
}


def run_case(interfaces: types.ModuleType, rule: str, owner: str, args: list,
             kwargs: dict) -> dict:
    """Applies `interfaces.<rule>` (Keras 2.2.4's module or tf1compat's) to a stand-in
    method and calls it: the converted arguments or the error, and the warnings."""
    def target(*a, **k):
        return a, k
    target.__name__ = owner      # a method rule names the warning after the function
    decorated = getattr(interfaces, rule)(target)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out_args, out_kwargs = decorated(Self(owner), *args, **kwargs)
            result = {"args": encode(list(out_args[1:])), "kwargs": encode(out_kwargs)}
        except Exception as error:   # noqa: BLE001 (recorded and compared)
            result = {"error": type(error).__name__, "message": str(error)}
    result["warnings"] = [[w.category.__name__, str(w.message)] for w in caught]
    return result
