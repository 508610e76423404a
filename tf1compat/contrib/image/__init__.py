"""`tf.contrib.image` (TF 1.15): projective transforms of images (transforms.py),
dense_image_warp, interpolate_spline and sparse_image_warp (warps.py); connected_components
and bipartite_match.
Any other name raises an error naming it (framework/unsupported_api.py gives the
reason)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.image.transforms import (angles_to_projective_transforms, bipartite_match,
                                                compose_transforms, connected_components,
                                                flat_transforms_to_matrices,
                                                matrices_to_flat_transforms, rotate,
                                                transform, translate,
                                                translations_to_projective_transforms)
from tf1compat.contrib.image.warps import (dense_image_warp, interpolate_spline,
                                           sparse_image_warp)

__getattr__ = _missing("tf.contrib.image")
