"""`slim.nets.inception`: Inception v1, v2 and v3 under one name."""

# ruff: noqa: F401
from tf1compat.contrib.slim.nets.inception_v1 import (inception_v1, inception_v1_arg_scope,
                                                      inception_v1_base)
from tf1compat.contrib.slim.nets.inception_v2 import (inception_v2, inception_v2_arg_scope,
                                                      inception_v2_base)
from tf1compat.contrib.slim.nets.inception_v3 import (inception_v3, inception_v3_arg_scope,
                                                      inception_v3_base)
