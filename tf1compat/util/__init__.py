"""Utilities at the bottom of the layers, importing only `framework`: `nest` (nested structures), `gfile`, `tf_logging`, `app` and `flags`."""
