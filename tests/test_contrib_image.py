"""tf.contrib.image (no TF oracle for the Python layer: TF 2 has no contrib; the op has
goldens in tests/golden/cases_contrib_image.py): rotations and translations against
numpy, transform composition, ranks 2-4, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tf1compat as tf

ci = tf.contrib.image
IMG = np.arange(20, dtype=np.float32).reshape(4, 5)


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _run(x, feed=None):
    with tf.Session() as sess:
        return sess.run(x, feed)


def test_translate_shifts_and_fills_with_zeros():
    out = _run(ci.translate(IMG, [2, 1]))
    want = np.zeros_like(IMG)
    want[1:, 2:] = IMG[:-1, :-2]
    np.testing.assert_array_equal(out, want)
    # Per-image translations of a batch with channels.
    batch = np.stack([IMG, IMG * 2])[..., None].repeat(3, axis=3)
    out = _run(ci.translate(batch, [[1, 0], [0, -1]]))
    np.testing.assert_array_equal(out[0, :, 1:, 0], IMG[:, :-1])
    np.testing.assert_array_equal(out[1, :-1, :, 2], 2 * IMG[1:, :])


def test_rotate_quarter_turns_match_rot90():
    square = np.arange(25, dtype=np.float32).reshape(5, 5)
    out = _run(ci.rotate(square, math.pi / 2))
    np.testing.assert_allclose(out, np.rot90(square), atol=1e-4)
    images = np.stack([square, square])[..., None]
    out = _run(ci.rotate(tf.constant(images), [math.pi, -math.pi / 2],
                         interpolation="BILINEAR"))
    np.testing.assert_allclose(out[0, :, :, 0], np.rot90(square, 2), atol=1e-3)
    np.testing.assert_allclose(out[1, :, :, 0], np.rot90(square, -1), atol=1e-3)
    assert ci.rotate(tf.constant(images), 0.3).get_shape().as_list() == [2, 5, 5, 1]


def test_compose_transforms_and_matrix_round_trip():
    shift = ci.translations_to_projective_transforms([1.0, 2.0])
    back = ci.translations_to_projective_transforms([-1.0, -2.0])
    rot = ci.angles_to_projective_transforms(0.5, 4.0, 5.0)
    identity, composed, round_trip = _run([
        ci.compose_transforms(shift, back), ci.compose_transforms(rot, shift),
        ci.matrices_to_flat_transforms(ci.flat_transforms_to_matrices(rot))])
    np.testing.assert_allclose(identity, [[1, 0, 0, 0, 1, 0, 0, 0]], atol=1e-6)
    rot_m = np.append(_run(rot)[0], 1).reshape(3, 3)
    shift_m = np.append(_run(shift)[0], 1).reshape(3, 3)
    np.testing.assert_allclose(np.append(composed[0], 1).reshape(3, 3), rot_m @ shift_m,
                               rtol=1e-5)
    np.testing.assert_allclose(round_trip, _run(rot), rtol=1e-6)
    with pytest.raises(ValueError, match="cannot be empty"):
        ci.compose_transforms()


def test_transform_output_shape_dtypes_and_errors():
    out = _run(ci.transform(IMG.astype(np.uint8), [1, 0, 0, 0, 1, 0, 0, 0],
                            output_shape=[2, 3]))
    np.testing.assert_array_equal(out, IMG[:2, :3].astype(np.uint8))
    assert out.dtype == np.uint8
    with pytest.raises(TypeError, match="Invalid dtype"):
        ci.transform(tf.constant([[True]]), [1, 0, 0, 0, 1, 0, 0, 0])
    with pytest.raises(TypeError, match="rank between 2 and 4"):
        ci.transform(tf.zeros([1, 1, 1, 1, 1]), [1, 0, 0, 0, 1, 0, 0, 0])
    with pytest.raises(TypeError, match="rank 1 or 2"):
        ci.transform(IMG, tf.zeros([1, 1, 8]))
    with pytest.raises(ValueError, match="2 elements"):
        ci.transform(IMG, [1, 0, 0, 0, 1, 0, 0, 0], output_shape=[1, 2, 3])
    with pytest.raises(TypeError, match="rank 0 or 1"):
        ci.angles_to_projective_transforms([[0.1]], 4.0, 4.0)
    op = ci.rotate(IMG, 0.1).op
    assert op.type == "StridedSlice"
    assert any(o.type == "ImageProjectiveTransformV2" and o.get_attr("interpolation") ==
               b"NEAREST" for o in tf.get_default_graph().get_operations())


def test_rotate_gradient_flows_to_images():
    x = tf.constant(IMG[None, :, :, None])
    y = ci.rotate(x, 0.3, interpolation="BILINEAR")
    grad, = tf.gradients(tf.reduce_sum(y), x)
    g = _run(grad)
    assert g.shape == (1, 4, 5, 1) and np.isfinite(g).all() and g.sum() > 0


def _bilinear(img, y, x):
    """numpy: img [h, w, c] at (y, x), clamped as dense_image_warp clamps."""
    h, w = img.shape[:2]
    y0 = int(min(max(np.floor(y), 0), h - 2))
    x0 = int(min(max(np.floor(x), 0), w - 2))
    ay = min(max(y - y0, 0.0), 1.0)
    ax = min(max(x - x0, 0.0), 1.0)
    top = img[y0, x0] + ax * (img[y0, x0 + 1] - img[y0, x0])
    bottom = img[y0 + 1, x0] + ax * (img[y0 + 1, x0 + 1] - img[y0 + 1, x0])
    return top + ay * (bottom - top)


def test_dense_image_warp_against_numpy():
    rs = np.random.RandomState(0)
    image = rs.uniform(size=(2, 4, 5, 3))
    flow = rs.uniform(-1.5, 1.5, size=(2, 4, 5, 2))
    out = _run(ci.dense_image_warp(tf.constant(image), tf.constant(flow)))
    for b in range(2):
        for y in range(4):
            for x in range(5):
                want = _bilinear(image[b], y - flow[b, y, x, 0], x - flow[b, y, x, 1])
                np.testing.assert_allclose(out[b, y, x], want, rtol=1e-10)
    # Zero flow is the identity; the gradient reaches image and flow.
    img = tf.constant(image)
    fl = tf.constant(np.zeros((2, 4, 5, 2)))
    warped = ci.dense_image_warp(img, fl)
    np.testing.assert_allclose(_run(warped), image)
    g_img, g_flow = tf.gradients(tf.reduce_sum(warped), [img, fl])
    assert _run(g_img).shape == image.shape and _run(g_flow).shape == (2, 4, 5, 2)


def test_interpolate_spline_interpolates_and_reproduces_affine_functions():
    rs = np.random.RandomState(1)
    train = rs.uniform(size=(1, 8, 2))
    query = rs.uniform(size=(1, 5, 2))
    affine = lambda p: 2.0 * p[..., :1] - 3.0 * p[..., 1:] + 0.5   # noqa: E731
    for order in (1, 2, 3):
        at_train, at_query = _run([
            ci.interpolate_spline(train, affine(train), train, order),
            ci.interpolate_spline(train, affine(train), query, order)])
        np.testing.assert_allclose(at_train, affine(train), atol=1e-6)
        np.testing.assert_allclose(at_query, affine(query), atol=1e-6)
    # Non-affine values: the spline passes through every training point...
    values = np.sin(3 * train[..., :1]) + train[..., 1:] ** 2
    np.testing.assert_allclose(_run(ci.interpolate_spline(train, values, train, 2)), values,
                               atol=1e-6)
    # ...and with regularization it no longer does, but stays close.
    smooth = _run(ci.interpolate_spline(train, values, train, 2, regularization_weight=0.1))
    assert not np.allclose(smooth, values, atol=1e-6)
    assert np.abs(smooth - values).max() < 0.5


def test_interpolate_spline_against_numpy_thin_plate():
    rs = np.random.RandomState(2)
    train, query = rs.uniform(size=(1, 6, 2)), rs.uniform(size=(1, 4, 2))
    values = rs.normal(size=(1, 6, 1))

    def phi(r):                     # order 2 on squared distances: 0.5 r log r
        return 0.5 * r * np.log(np.maximum(r, 1e-10))

    c = train[0]
    d2 = ((c[:, None] - c[None]) ** 2).sum(-1)
    b = np.concatenate([c, np.ones((6, 1))], 1)
    lhs = np.block([[phi(d2), b], [b.T, np.zeros((3, 3))]])
    w_v = np.linalg.solve(lhs, np.concatenate([values[0], np.zeros((3, 1))]))
    q2 = ((query[0][:, None] - c[None]) ** 2).sum(-1)
    want = phi(q2) @ w_v[:6] + np.concatenate([query[0], np.ones((4, 1))], 1) @ w_v[6:]
    got = _run(ci.interpolate_spline(train, values, query, 2))
    np.testing.assert_allclose(got[0], want, rtol=1e-6, atol=1e-9)


def test_sparse_image_warp_uniform_shift_and_boundary():
    rs = np.random.RandomState(3)
    image = rs.uniform(size=(1, 6, 7, 2))
    source = np.array([[[1.0, 1.0], [4.0, 2.0], [2.0, 5.0], [5.0, 5.0]]])
    # Every control point moves by (0.5, -1): the spline reproduces the constant flow.
    warped, flow = ci.sparse_image_warp(tf.constant(image), source, source + [0.5, -1.0])
    got_warped, got_flow = _run([warped, flow])
    np.testing.assert_allclose(got_flow, np.broadcast_to([0.5, -1.0], (1, 6, 7, 2)),
                               atol=1e-6)
    dense = _run(ci.dense_image_warp(tf.constant(image), tf.constant(got_flow)))
    np.testing.assert_allclose(got_warped, dense, atol=1e-9)
    # Zero flow pinned at the boundary: the flow vanishes on the image's corners.
    _, pinned = ci.sparse_image_warp(tf.constant(image), source, source + [0.5, -1.0],
                                     num_boundary_points=2)
    pinned = _run(pinned)
    for y, x in ((0, 0), (0, 6), (5, 0), (5, 6)):
        np.testing.assert_allclose(pinned[0, y, x], [0.0, 0.0], atol=1e-6)


def _flood_fill_labels(images):
    """numpy: scipy.ndimage.label-style numbering over a batch (row-major first pixel)."""
    out = np.zeros(images.shape, np.int64)
    next_id = 1
    for b in range(images.shape[0]):
        for y in range(images.shape[1]):
            for x in range(images.shape[2]):
                if images[b, y, x] == 0 or out[b, y, x]:
                    continue
                stack = [(y, x)]
                out[b, y, x] = next_id
                while stack:
                    cy, cx = stack.pop()
                    for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                        if (0 <= ny < images.shape[1] and 0 <= nx < images.shape[2] and
                                not out[b, ny, nx] and
                                images[b, ny, nx] == images[b, cy, cx]):
                            out[b, ny, nx] = next_id
                            stack.append((ny, nx))
                next_id += 1
    return out


def test_connected_components_against_flood_fill():
    rs = np.random.RandomState(4)
    images = (rs.uniform(size=(3, 7, 9)) < 0.5).astype(np.int32) * rs.randint(1, 3, (3, 7, 9))
    images[2] = 0                                         # an empty image
    spiral = np.array([[1, 1, 1, 1], [0, 0, 0, 1], [1, 1, 0, 1], [1, 0, 0, 1],
                       [1, 1, 1, 1]], bool)
    got, got_bool, got_2d = _run([ci.connected_components(images),
                                  ci.connected_components(images > 0),
                                  ci.connected_components(spiral)])
    np.testing.assert_array_equal(got, _flood_fill_labels(images))
    np.testing.assert_array_equal(got_bool, _flood_fill_labels(images > 0))
    np.testing.assert_array_equal(got_2d, np.where(spiral, 1, 0))
    assert got.dtype == np.int32            # TF 1.15 renumbers with an int32 range
    np.testing.assert_array_equal(_run(ci.connected_components(np.ones((2, 2), bool))),
                                  np.ones((2, 2)))
    with pytest.raises(TypeError, match="rank 2"):
        ci.connected_components(np.zeros(3))


def _greedy_match(distance: np.ndarray, valid: int, top_k: int) -> tuple:
    """TF 1.15's BipartiteMatch restated: repeatedly match the free row and free column
    with the smallest distance (first in row-major order on ties)."""
    rows, columns = distance.shape
    row_to_col, col_to_row = -np.ones(rows, np.int32), -np.ones(columns, np.int32)
    limit = top_k if top_k > 0 else valid * columns
    for _ in range(min(limit, valid, columns)):
        free = distance[:valid].astype(np.float64).copy()
        free[row_to_col[:valid] >= 0, :] = np.inf
        free[:, col_to_row >= 0] = np.inf
        r, c = np.unravel_index(np.argmin(free), free.shape)
        row_to_col[r], col_to_row[c] = c, r
    return row_to_col, col_to_row


def test_bipartite_match_against_greedy_numpy():
    rs = np.random.RandomState(5)
    distance = rs.uniform(size=(6, 4)).astype(np.float32)
    ties = np.array([[1, 1, 2], [1, 1, 2], [0.5, 3, 3]], np.float32)
    cases = [(distance, -1.0, -1), (distance, 3.0, -1), (distance, 4.9, 2),
             (distance.T.copy(), -1.0, 0), (distance, 0.0, -1), (ties, -1.0, -1)]
    outs = [ci.bipartite_match(d, valid, top_k=k) for d, valid, k in cases]
    assert [o.dtype for o in outs[0]] == [tf.int32, tf.int32]
    assert outs[0][0].get_shape().as_list() == [6]
    assert outs[0][1].get_shape().as_list() == [4]
    assert outs[0][0].op.type == "BipartiteMatch"
    for (d, valid, k), got in zip(cases, _run(outs)):
        want = _greedy_match(d, int(valid + 0.1) if valid >= 0 else len(d), k)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


def test_bipartite_match_errors():
    too_many = ci.bipartite_match(np.zeros((2, 3), np.float32), 5.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="at least 5 rows in distance_mat, but only got 2 rows"):
        _run(too_many)
    two = ci.bipartite_match(np.zeros((2, 3), np.float32), [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="with 1 element, but got 2"):
        _run(two)
    with pytest.raises(ValueError, match="rank 2"):
        ci.bipartite_match(np.zeros(3, np.float32), -1.0)
    with pytest.raises(TypeError):
        ci.bipartite_match(tf.zeros([2, 2], tf.int32), -1.0)
