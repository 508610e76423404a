"""`tf.contrib.rnn` (TF 1.15): the core cells, wrappers and static RNNs under their contrib
names, plus LSTMBlockCell, GRUBlockCell(V2), LayerNormBasicLSTMCell, the projection and
embedding wrappers and the stacked bidirectional RNNs (tf1compat/contrib/rnn/contrib_cells.py),
LSTMBlockWrapper and LSTMBlockFusedCell (tf1compat/contrib/rnn/lstm_fused.py), the research
cells (ConvLSTMCell family, SRU, IndRNN/Indy*, NAS, UGRNN, IntersectionRNN,
CoupledInputForgetGateLSTMCell, PhasedLSTMCell, GLSTMCell:
tf1compat/contrib/rnn/more_cells.py) and
the wrappers and fused-RNN adaptors (AttentionCellWrapper, HighwayWrapper, CompiledWrapper,
FusedRNNCell, FusedRNNCellAdaptor, TimeReversedFusedRNN:
tf1compat/contrib/rnn/cell_wrappers.py), and the time-frequency LSTMs (TimeFreqLSTMCell,
GridLSTMCell, BidirectionalGridLSTMCell: tf1compat/contrib/rnn/grid_cells.py). Other names
raise an error naming them."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.rnn.cell_base import LayerRNNCell, LSTMStateTuple, RNNCell
from tf1compat.rnn.cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell, MultiRNNCell
from tf1compat.contrib.rnn.contrib_cells import (EmbeddingWrapper, GRUBlockCell, GRUBlockCellV2,
                                                 InputProjectionWrapper, LayerNormBasicLSTMCell,
                                                 LSTMBlockCell, OutputProjectionWrapper,
                                                 stack_bidirectional_dynamic_rnn,
                                                 stack_bidirectional_rnn)
from tf1compat.contrib.rnn.grid_cells import (BidirectionalGridLSTMCell, GridLSTMCell,
                                              TimeFreqLSTMCell)
from tf1compat.contrib.rnn.lstm_fused import LSTMBlockFusedCell, LSTMBlockWrapper
from tf1compat.contrib.rnn.more_cells import (Conv1DLSTMCell, Conv2DLSTMCell, Conv3DLSTMCell,
                                              ConvLSTMCell, CoupledInputForgetGateLSTMCell,
                                              GLSTMCell, IndRNNCell, IndyGRUCell,
                                              IndyLSTMCell,
                                              IntersectionRNNCell, NASCell, PhasedLSTMCell,
                                              SRUCell, UGRNNCell)
from tf1compat.contrib.rnn.cell_wrappers import (AttentionCellWrapper, CompiledWrapper,
                                                 FusedRNNCell, FusedRNNCellAdaptor,
                                                 HighwayWrapper, TimeReversedFusedRNN)
from tf1compat.rnn.dynamic import best_effort_batch_size as best_effort_input_batch_size
from tf1compat.rnn.dynamic import transpose_batch_time
from tf1compat.rnn.static import (static_bidirectional_rnn, static_rnn,
                                  static_state_saving_rnn)
from tf1compat.rnn.wrappers import DeviceWrapper, DropoutWrapper, ResidualWrapper

__getattr__ = _missing("tf.contrib.rnn")
