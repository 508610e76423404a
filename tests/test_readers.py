"""The TFRecordReader's block reader against the record-at-a-time RecordReader (checked
against TF by the tfrecord goldens): the same records, offsets and DataLoss messages for
every truncation and every corrupted byte of a small file; and reader/queue behaviours
the goldens cannot pin down (timeouts, cancellation)."""

from __future__ import annotations

import gzip
import io
import os
import tempfile
from typing import Any, List

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.data._readers import _RecordBlocks
from tf1compat.serialization import tfrecord


# One scratch folder for the module, removed at exit (was one mkdtemp per comparison).
_SCRATCH = tempfile.TemporaryDirectory()


def _file_bytes(records: List[bytes]) -> bytes:
    return b"".join(tfrecord.encode_record(r) for r in records)


def _reference(data: bytes) -> List[Any]:
    path = os.path.join(_SCRATCH.name, "r.tfrecord")
    with open(path, "wb") as f:
        f.write(data)
    reader = tfrecord.RecordReader(path)
    out: List[Any] = []
    for _ in range(10):
        offset = reader.offset
        try:
            record = reader.read()
        except tf.errors.DataLossError as e:
            out.append(("error", e.message))
            continue
        if record is None:
            out.append("end")
            break
        out.append((offset, record))
    reader.close()
    return out


def _blocks(data: bytes, block: int) -> List[Any]:
    reader = _RecordBlocks(io.BytesIO(data))
    reader._BLOCK = block
    out: List[Any] = []
    for _ in range(10):
        try:
            found = reader.next()
        except tf.errors.DataLossError as e:
            out.append(("error", e.message))
            continue
        if found is None:
            out.append("end")
            break
        out.append(found)
    return out


RECORDS = [b"first", b"", b"x" * 40, b"last one"]


@pytest.mark.parametrize("block", [7, 64, 1 << 18])
def test_block_reader_matches_record_reader_on_truncations(block):
    data = _file_bytes(RECORDS)
    for cut in range(len(data) + 1):
        assert _blocks(data[:cut], block) == _reference(data[:cut]), cut


@pytest.mark.parametrize("block", [13, 1 << 18])
def test_block_reader_matches_record_reader_on_corruptions(block):
    data = bytearray(_file_bytes(RECORDS))
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x5A
        if i < 8 or 20 <= i < 28:
            continue   # a corrupted length: both read garbage lengths (covered by cuts)
        assert _blocks(bytes(bad), block) == _reference(bytes(bad)), i


def test_tfrecord_reader_gzip_and_big_records(tmp_path):
    folder = str(tmp_path)
    records = [bytes([i % 251]) * (i * 997 % 9000) for i in range(40)]
    plain = os.path.join(folder, "plain.tfrecord")
    zipped = os.path.join(folder, "zipped.tfrecord")
    with open(plain, "wb") as f:
        f.write(_file_bytes(records))
    with open(zipped, "wb") as f:
        f.write(gzip.compress(_file_bytes(records)))
    tf.reset_default_graph()
    q = tf.FIFOQueue(4, tf.string)
    plain_read = tf.TFRecordReader().read_up_to(q, 100)
    gzip_read = tf.TFRecordReader(options=tf.python_io.TFRecordOptions(
        tf.python_io.TFRecordCompressionType.GZIP)).read_up_to(q, 100)
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[plain, zipped]]))
        keys, values = sess.run(plain_read)
        assert list(values) == records
        assert keys[1] == plain.encode() + b":" + str(16 + len(records[0])).encode()
        _, values = sess.run(gzip_read)
        assert list(values) == records


def test_reader_read_blocks_until_deadline_and_keeps_state():
    tf.reset_default_graph()
    q = tf.FIFOQueue(4, tf.string)
    reader = tf.IdentityReader()
    key, _ = reader.read(q)
    with tf.Session() as sess:
        for _ in range(3):
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(key, options=tf.RunOptions(timeout_in_ms=5))
        sess.run(q.enqueue("w"))
        assert sess.run(key) == b"w"
        assert sess.run(reader.num_records_produced()) == 1


def test_shared_queue_by_name_in_one_session():
    tf.reset_default_graph()
    a = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    b = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    c = tf.FIFOQueue(6, tf.int32, shapes=[[]], shared_name="shared")
    with tf.Session() as sess:
        sess.run(a.enqueue(7))
        assert sess.run(b.dequeue()) == 7
        with pytest.raises(tf.errors.InvalidArgumentError, match="capacity 5 but requested "
                                                                 "capacity was 6"):
            sess.run(c.size())
    with tf.Session() as other:      # resources belong to their session
        assert other.run(b.size()) == 0


def test_enqueue_copies_fed_values():
    tf.reset_default_graph()
    q = tf.FIFOQueue(5, tf.float32, shapes=[[2]])
    p = tf.placeholder(tf.float32, [2])
    with tf.Session() as sess:
        fed = np.array([1.0, 2.0], np.float32)
        sess.run(q.enqueue(p), {p: fed})
        fed[:] = 9.0                   # the caller reuses its buffer
        np.testing.assert_array_equal(sess.run(q.dequeue()), [1.0, 2.0])


def test_abandoned_tfrecord_pass_closes_its_file():
    """A TFRecordDataset iterator re-initialized or dropped mid-file closes the file it
    was reading (ALBERT's run_pretraining evaluation left it to the garbage collector, a
    ResourceWarning)."""
    import gc
    import warnings
    path = os.path.join(_SCRATCH.name, "a.tfrecord")
    with open(path, "wb") as f:
        f.write(_file_bytes([b"r0", b"r1", b"r2"]))
    with tf.Graph().as_default():
        it = tf.data.TFRecordDataset(path).make_initializable_iterator()
        nxt = it.get_next()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            with tf.Session() as sess:
                for _ in range(2):
                    sess.run(it.initializer)
                    assert sess.run(nxt) == b"r0"
            gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
