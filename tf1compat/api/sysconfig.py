"""`tf.sysconfig`: there is no TF C++ library to compile against."""

import os

from tf1compat._version import CXX11_ABI_FLAG, CXX_VERSION, MONOLITHIC_BUILD  # noqa: F401

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def get_include() -> str:
    return os.path.join(_HERE, "include")


def get_lib() -> str:
    return _HERE


def get_compile_flags() -> list:
    return []


def get_link_flags() -> list:
    return []


def get_build_info() -> dict:
    import torch
    return {"is_cuda_build": torch.version.cuda is not None, "cuda_version": torch.version.cuda,
            "is_rocm_build": False}


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('sysconfig', globals())
