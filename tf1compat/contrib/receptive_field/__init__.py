"""`tf.contrib.receptive_field` (TF 1.15's receptive_field_api): the receptive field,
effective stride and effective padding of a conv net's output with respect to its input,
computed from its graph (receptive_field.py), and the nodes' compute order and feature-map
sizes (compute_order.py)."""

from tf1compat.contrib.receptive_field.compute_order import get_compute_order
from tf1compat.contrib.receptive_field.receptive_field import \
    compute_receptive_field_from_graph_def

__all__ = ["get_compute_order", "compute_receptive_field_from_graph_def"]
