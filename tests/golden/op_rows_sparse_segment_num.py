"""Op rows: SparseSegment{Sum,Mean,SqrtN}WithNumSegments (`tf.sparse.segment_*` with
num_segments; the rows past the last segment id are zeros), and TF's errors for ids past
num_segments, unsorted ids and indices out of range."""

import numpy as np

from tests.golden.op_harness import err, f32, row

_DATA = f32(5, 3, seed=70)
_IDX = np.array([0, 2, 3, 3, 4], np.int32)
_SEGS = np.array([0, 0, 2, 2, 3], np.int32)

ROWS = [
    *[row(f"SparseSegment{kind}WithNumSegments", data=_DATA, indices=_IDX, segment_ids=_SEGS,
          num_segments=np.int32(6)) for kind in ("Sum", "Mean", "SqrtN")],
    row("SparseSegmentSumWithNumSegments", data=f32(4, 2, 2, seed=71),
        indices=np.array([3, 1], np.int64), segment_ids=np.array([1, 1], np.int64),
        num_segments=np.int64(2)),
    row("SparseSegmentMeanWithNumSegments", data=f32(4, 3, seed=72).astype(np.float64),
        indices=np.array([], np.int32), segment_ids=np.array([], np.int32),
        num_segments=np.int32(3)),
    row("SparseSegmentSqrtNWithNumSegments", data=f32(3, 2, seed=73),
        indices=np.array([0, 1, 2], np.int32), segment_ids=np.array([0, 1, 1], np.int32),
        num_segments=np.int64(2)),
    err("SparseSegmentSumWithNumSegments", data=_DATA, indices=_IDX, segment_ids=_SEGS,
        num_segments=np.int32(3)),
    err("SparseSegmentMeanWithNumSegments", data=_DATA, indices=_IDX,
        segment_ids=np.array([0, 2, 1, 2, 3], np.int32), num_segments=np.int32(5)),
    err("SparseSegmentSqrtNWithNumSegments", data=_DATA, indices=np.array([0, 7], np.int32),
        segment_ids=np.array([0, 1], np.int32), num_segments=np.int32(2)),
]
