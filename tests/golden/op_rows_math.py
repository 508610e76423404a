"""Op rows: elementwise math (unary, binary, comparisons), casts, reductions."""

from tests.golden.op_harness import err, f32, i32, pos, row

ROWS = [
    row("MatMul", a=f32(2, 3), b=f32(3, 4, seed=1)),
    row("MatMul", a=f32(3, 2), b=f32(3, 4, seed=1), transpose_a=True),
    err("MatMul", a=f32(2, 3), b=f32(2, 3)),
    row("Unique", x=i32(6)),
    row("Sqrt", x=pos(2, 3)),
    row("Sum", input=f32(2, 3), axis=[1], keep_dims=True),
    row("Split", axis=0, value=f32(4, 2), num_split=2),
]
