"""Op rows: TF's whole-sequence LSTM ops BlockLSTM and BlockLSTMV2 (contrib/rnn/lstm_fused.py)
over their full length (TF leaves the outputs past seq_len_max unwritten); gradients are
golden-checked in tests/golden/cases_contrib_rnn_fused.py, where TF's gradient reads only
the cs and h outputs."""

import numpy as np

from tests.golden.op_harness import f32, row

_ARGS = dict(seq_len_max=np.int64(4), x=f32(4, 2, 3), cs_prev=f32(2, 5, seed=1),
             h_prev=f32(2, 5, seed=2), w=f32(8, 20, seed=3), wci=f32(5, seed=4),
             wcf=f32(5, seed=5), wco=f32(5, seed=6), b=f32(20, seed=7))

ROWS = [
    row("BlockLSTM", **_ARGS, forget_bias=1.0, cell_clip=-1.0, use_peephole=False,
        with_grad=False),
    row("BlockLSTM", **_ARGS, forget_bias=0.5, cell_clip=0.3, use_peephole=True,
        with_grad=False),
    row("BlockLSTMV2", **_ARGS, cell_clip=0.0, use_peephole=True, with_grad=False),
]
