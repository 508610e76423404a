"""Versions: the TF version legacy code checks (`tf.__version__`) and tf1compat's own."""

# TF1 scripts check `tf.__version__.startswith("1.")`; we present the last TF1 release.
TF_VERSION = "1.15.5"
GIT_VERSION = "v1.15.5-tf1compat"
COMPILER_VERSION = "tf1compat (PyTorch backend)"
CXX_VERSION = 201703          # the C++ standard TF is built with (__cplusplus)
CXX11_ABI_FLAG = 1
MONOLITHIC_BUILD = 0
GRAPH_DEF_VERSION = 27
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

# The package's own version (pyproject.toml).
PACKAGE_VERSION = "0.1.0"
