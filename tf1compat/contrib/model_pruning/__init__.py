"""`tf.contrib.model_pruning` (TF 1.15): magnitude-based weight pruning with mask variables
(pruning.py), masked conv2d / fully connected layers (masked_layers.py), their helpers
(pruning_utils.py) and the GraphDef rewrite that folds the masks into the weights
(strip_pruning_vars.py), the masked LSTM cells (rnn_cells.py) and the slim training loop
with mask updates (learning.py)."""

from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.model_pruning.learning import train
from tf1compat.contrib.model_pruning.masked_layers import (MaskedConv2D, MaskedFullyConnected,
                                                           masked_conv2d, masked_convolution,
                                                           masked_fully_connected)
from tf1compat.contrib.model_pruning.pruning import (Pruning, apply_mask, get_masked_weights,
                                                     get_masks, get_pruning_hparams,
                                                     get_thresholds, get_weight_sparsity,
                                                     get_weights)
from tf1compat.contrib.model_pruning.rnn_cells import MaskedBasicLSTMCell, MaskedLSTMCell
from tf1compat.contrib.model_pruning.strip_pruning_vars import (graph_def_from_checkpoint,
                                                                strip_pruning_vars_fn)

__all__ = ["masked_convolution", "masked_conv2d", "masked_fully_connected", "apply_mask",
           "get_masked_weights", "get_masks", "get_pruning_hparams", "get_thresholds",
           "get_weights", "get_weight_sparsity", "Pruning", "strip_pruning_vars_fn",
           "graph_def_from_checkpoint", "MaskedConv2D", "MaskedFullyConnected",
           "MaskedBasicLSTMCell", "MaskedLSTMCell", "train"]

__getattr__ = _missing("tf.contrib.model_pruning")
