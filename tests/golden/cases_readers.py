"""Golden cases: TF's readers (TFRecordReader with compression, TextLineReader,
WholeFileReader, FixedLengthRecordReader, IdentityReader) over files each case writes,
fed from queues of file names: keys, values, counters, reset, serialized state, errors,
and whole pipelines (string_input_producer -> reader -> parse/decode -> batch). Keys are
recorded relative to the case's temporary directory."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, describe


class _Dir:
    """A temporary directory of input files; `rel` strips it from reader keys."""

    def __init__(self):
        self.path = tempfile.mkdtemp()

    def file(self, name, data):
        path = os.path.join(self.path, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def rel(self, value):
        if isinstance(value, (list, tuple)):
            return [self.rel(v) for v in value]
        if isinstance(value, np.ndarray):
            return [self.rel(v) for v in value.tolist()]
        prefix = (self.path + os.sep).encode()
        return value[len(prefix):] if value.startswith(prefix) else value


def _records(tf, d, name, records, options=None):
    path = os.path.join(d.path, name)
    with tf.python_io.TFRecordWriter(path, options) as w:
        for r in records:
            w.write(r)
    return path


def _read_n(tf, sess, d, fetch, n, timeout_ms=2000):
    out = []
    for _ in range(n):
        try:
            out.append(d.rel(sess.run(fetch, options=tf.RunOptions(timeout_in_ms=timeout_ms))))
        except tf.errors.OpError as e:
            out.append(type(e).__name__)
    return out


def case_reader_graph(tf):
    fq = tf.FIFOQueue(10, tf.string)
    readers = [tf.TFRecordReader(), tf.TextLineReader(skip_header_lines=2),
               tf.WholeFileReader(name="whole"), tf.FixedLengthRecordReader(8, header_bytes=1),
               tf.IdentityReader(),
               tf.TFRecordReader(options=tf.python_io.TFRecordOptions(
                   tf.python_io.TFRecordCompressionType.GZIP))]
    r = readers[0]
    k, v = r.read(fq)
    ku, vu = r.read_up_to(fq, 3)
    ops = [r.num_records_produced(), r.num_work_units_completed(), r.serialize_state()]
    reset = r.reset()
    restore = readers[2].restore_state(ops[2])
    return {"refs": [describe(x.reader_ref) for x in readers],
            "types": [x.reader_ref.op.type for x in readers],
            "serialize": [x.supports_serialize for x in readers],
            "read": [describe(k), describe(v)], "up_to": [describe(ku), describe(vu)],
            "named": [r.read(fq, name="my_read").key.name, r.read(fq).value.name],
            "ops": [describe(x) for x in ops], "reset": [reset.name, reset.type],
            "restore": [restore.name, restore.type],
            "attrs": [readers[1].reader_ref.op.get_attr("skip_header_lines"),
                      readers[3].reader_ref.op.get_attr("record_bytes"),
                      readers[3].reader_ref.op.get_attr("hop_bytes"),
                      readers[5].reader_ref.op.get_attr("compression_type")]}


def case_tf_record_reader(tf):
    d = _Dir()
    a = _records(tf, d, "a.tfrecord", [b"rec%d" % i for i in range(3)])
    b = _records(tf, d, "b.tfrecord", [b"x" * 5, b"", b"yy"])
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.TFRecordReader()
    k, v = r.read(fq)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[a, b]]))
        sess.run(fq.close())
        out = _read_n(tf, sess, d, [k, v], 7)
        return {"out": out, "counters": sess.run([r.num_records_produced(),
                                                  r.num_work_units_completed()]),
                "end": catch(lambda: sess.run(k), message=True)}


def case_tf_record_reader_compressed(tf):
    d = _Dir()
    out = {}
    for kind in ("GZIP", "ZLIB"):
        opts = tf.python_io.TFRecordOptions(getattr(tf.python_io.TFRecordCompressionType,
                                                    kind))
        path = _records(tf, d, f"c_{kind}.tfrecord", [b"one", b"two" * 10, b"three"], opts)
        fq = tf.FIFOQueue(10, tf.string)
        r = tf.TFRecordReader(options=opts)
        k, v = r.read(fq)
        with tf.Session() as sess:
            sess.run(fq.enqueue([path]))
            out[kind] = _read_n(tf, sess, d, [k, v], 3)
    return out


def case_tf_record_reader_read_up_to(tf):
    d = _Dir()
    a = _records(tf, d, "a.tfrecord", [b"a%d" % i for i in range(3)])
    b = _records(tf, d, "b.tfrecord", [b"b%d" % i for i in range(4)])
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.TFRecordReader()
    n = tf.placeholder(tf.int64, [])
    keys, values = r.read_up_to(fq, n)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[a, b, a]]))
        sess.run(fq.close())
        out = []
        for count in (2, 2, 5, 1, 10, 3):
            try:
                got = sess.run([keys, values], {n: count})
                out.append([d.rel(got[0]), got[1]])
            except tf.errors.OpError as e:
                out.append(type(e).__name__)
        return {"out": out, "produced": sess.run(r.num_records_produced())}


def case_tf_record_reader_errors(tf):
    d = _Dir()
    text = d.file("text.txt", b"this is not a record file, but it is long enough\n")
    good = _records(tf, d, "good.tfrecord", [b"fine"])
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.TFRecordReader()
    k, v = r.read(fq)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[os.path.join(d.path, "missing"), good, text, good]]))
        missing = catch(lambda: sess.run(k))
        first = d.rel(sess.run([k, v]))
        bad = catch(lambda: sess.run(k), message=True)
        again = catch(lambda: sess.run(k))
        return {"missing": missing, "first": first, "bad": bad, "again": again,
                "counters": sess.run([r.num_records_produced(),
                                      r.num_work_units_completed()]),
                "serialize": catch(lambda: sess.run(r.serialize_state())),
                "reset": sess.run(r.reset()),
                "after_reset": sess.run([r.num_records_produced(),
                                         r.num_work_units_completed()]),
                "next": d.rel(sess.run([k, v]))}


def case_tf_record_reader_truncated(tf):
    """Files cut inside a header (the end of the file, as TF) or inside a record
    (DataLossError naming the offset), plain and GZIP-compressed."""
    import gzip
    d = _Dir()
    full = open(_records(tf, d, "full.tfrecord", [b"one", b"two" * 5, b"three" * 3]),
                "rb").read()
    paths = [d.file(f"cut{cut}.tfrecord", full[:cut]) for cut in (1, 11, 12, 15, 30, 40)]
    paths.append(d.file("cut.gz", gzip.compress(full[:40])))
    out = {}
    for i, path in enumerate(paths):
        fq = tf.FIFOQueue(10, tf.string)
        r = tf.TFRecordReader(options=tf.python_io.TFRecordOptions(
            tf.python_io.TFRecordCompressionType.GZIP) if path.endswith(".gz") else None)
        k, v = r.read(fq)
        with tf.Session() as sess:
            sess.run(fq.enqueue(path))
            sess.run(fq.close())
            got = []
            for _ in range(4):
                try:
                    got.append(d.rel(sess.run([k, v])))
                except tf.errors.OpError as e:
                    got.append([type(e).__name__] + [line for line in e.message.split("\n")
                                                     if "record at" in line])
            out[os.path.basename(path)] = got
    return out


def case_text_line_reader(tf):
    d = _Dir()
    a = d.file("a.csv", b"header1\nheader2\nl1\n\nl3\r\nl4")
    b = d.file("b.csv", b"only-header\n")
    c = d.file("c.csv", b"h\nh2\nx\n")
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.TextLineReader(skip_header_lines=2)
    k, v = r.read(fq)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[a, b, c]]))
        sess.run(fq.close())
        out = _read_n(tf, sess, d, [k, v], 6)
        return {"out": out, "counters": sess.run([r.num_records_produced(),
                                                  r.num_work_units_completed()])}


def case_text_line_reader_decode_csv(tf):
    d = _Dir()
    a = d.file("data.csv", b"id,x,name\n1,0.5,a\n2,,b\n3,1.5,\n")
    q = tf.train.string_input_producer([a], num_epochs=1, shuffle=False)
    r = tf.TextLineReader(skip_header_lines=1)
    key, line = r.read(q)
    cols = tf.decode_csv(line, record_defaults=[[0], [-1.0], ["?"]])
    ids, xs, names = tf.train.batch(cols, batch_size=2, allow_smaller_final_batch=True)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        out = []
        try:
            while True:
                out.append(sess.run([ids, xs, names]))
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    return {"out": out, "cols": [describe(c) for c in cols]}


def case_whole_file_reader(tf):
    d = _Dir()
    a = d.file("a.bin", bytes(range(10)))
    b = d.file("b.bin", b"")
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.WholeFileReader()
    k, v = r.read(fq)
    ku, vu = r.read_up_to(fq, 5)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[a, b, a, os.path.join(d.path, "nope"), a]]))
        out = _read_n(tf, sess, d, [k, v], 2)
        state = sess.run(r.serialize_state())
        up_to = d.rel(sess.run([ku, vu]))
        missing = catch(lambda: sess.run(k))
        again = catch(lambda: sess.run(k))
        produced = sess.run([r.num_records_produced(), r.num_work_units_completed()])
        sess.run(r.restore_state(state))
        restored = sess.run([r.num_records_produced(), r.num_work_units_completed()])
        bad = catch(lambda: sess.run(r.restore_state(b"\xff\xff")))
        return {"out": out, "up_to": up_to, "missing": missing, "again": again,
                "produced": produced, "restored": restored, "bad_state": bad,
                "after_bad": sess.run(r.num_records_produced()), "state_len": len(state)}


def case_fixed_length_record_reader(tf):
    d = _Dir()
    data = bytes(range(23))
    a = d.file("a.bin", data)
    fq = tf.FIFOQueue(10, tf.string)
    plain = tf.FixedLengthRecordReader(record_bytes=4, header_bytes=2, footer_bytes=3)
    hop = tf.FixedLengthRecordReader(record_bytes=4, header_bytes=2, footer_bytes=3,
                                     hop_bytes=3)
    wide = tf.FixedLengthRecordReader(record_bytes=3, hop_bytes=5)
    big = tf.FixedLengthRecordReader(record_bytes=30)
    reads = [r.read(fq) for r in (plain, hop, wide, big)]
    with tf.Session() as sess:
        out = {}
        for name, (k, v) in zip(("plain", "hop", "wide", "big"), reads):
            sess.run(fq.enqueue([a]))
            results = []
            for _ in range(8):
                try:
                    results.append(d.rel(sess.run([k, v], options=tf.RunOptions(
                        timeout_in_ms=200))))
                except tf.errors.DeadlineExceededError:
                    results.append("waiting")
                    break
            out[name] = results
        return out


def case_fixed_length_record_reader_gzip(tf):
    import gzip
    import zlib
    d = _Dir()
    payload = bytes(range(40))
    g = d.file("a.gz", gzip.compress(payload))
    z = d.file("a.z", zlib.compress(payload))
    fq = tf.FIFOQueue(10, tf.string)
    rg = tf.FixedLengthRecordReader(record_bytes=16, header_bytes=4, encoding="GZIP")
    rz = tf.FixedLengthRecordReader(record_bytes=16, header_bytes=4, encoding="ZLIB")
    kg, vg = rg.read(fq)
    kz, vz = rz.read(fq)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([[g, z]]))
        sess.run(fq.close())
        return {"gzip": _read_n(tf, sess, d, [kg, vg], 3),
                "zlib": _read_n(tf, sess, d, [kz, vz], 1)}


def case_fixed_length_record_reader_errors(tf):
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.FixedLengthRecordReader(record_bytes=4, header_bytes=-1)
    k, _ = r.read(fq)
    with tf.Session() as sess:
        return catch(lambda: sess.run(k), message=True)


def case_identity_reader(tf):
    fq = tf.FIFOQueue(10, tf.string)
    r = tf.IdentityReader()
    k, v = r.read(fq)
    ku, vu = r.read_up_to(fq, 3)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([["w1", "w2", "w3", "w4", "w5"]]))
        first = sess.run([k, v])
        many = sess.run([ku, vu])
        state = sess.run(r.serialize_state())
        counters = sess.run([r.num_records_produced(), r.num_work_units_completed()])
        sess.run(r.reset())
        reset = sess.run([r.num_records_produced(), r.num_work_units_completed()])
        sess.run(r.restore_state(state))
        return {"first": first, "many": many, "state": state, "counters": counters,
                "reset": reset, "restored": sess.run([r.num_records_produced(),
                                                      r.num_work_units_completed()]),
                "last": sess.run([k, v])}


def case_reader_queue_not_strings(tf):
    fq = tf.FIFOQueue(10, tf.int32)
    two = tf.FIFOQueue(10, [tf.string, tf.string])
    r = tf.IdentityReader()
    with tf.Session() as sess:
        sess.run(fq.enqueue(1))
        sess.run(two.enqueue(["a", "b"]))
        return {"ints": catch(lambda: sess.run(r.read(fq)), message=True),
                "two": catch(lambda: sess.run(r.read(two)), message=True)}


def case_reader_empty_closed_queue(tf):
    fq = tf.FIFOQueue(10, tf.string, shared_name="names")
    r = tf.WholeFileReader()
    with tf.Session() as sess:
        sess.run(fq.close())
        return {"read": catch(lambda: sess.run(r.read(fq)), message=True),
                "up_to": catch(lambda: sess.run(r.read_up_to(fq, 2)), message=True),
                "timeout": catch(lambda: sess.run(
                    r.read(tf.FIFOQueue(2, tf.string)),
                    options=tf.RunOptions(timeout_in_ms=20)))}


def case_readers_share_a_queue(tf):
    fq = tf.FIFOQueue(10, tf.string)
    r1, r2 = tf.IdentityReader(), tf.IdentityReader()
    k1, _ = r1.read(fq)
    k2, _ = r2.read(fq)
    with tf.Session() as sess:
        sess.run(fq.enqueue_many([["a", "b", "c"]]))
        first, second, third = sess.run(k1), sess.run(k2), sess.run(k1)
        return {"keys": [first, second, third],
                "counts": sess.run([r1.num_records_produced(), r2.num_records_produced()])}


# -- pipelines -------------------------------------------------------------------------------------

def _example(tf, label, values, name):
    feature = {"label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
               "values": tf.train.Feature(float_list=tf.train.FloatList(value=values)),
               "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[name]))}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def case_pipeline_tfrecord_parse_batch(tf):
    d = _Dir()
    files = [_records(tf, d, f"part-{i}.tfrecord",
                      [_example(tf, i * 10 + j, [float(j), float(i)], b"n%d" % j)
                       for j in range(3)]) for i in range(2)]
    q = tf.train.string_input_producer(files, num_epochs=2, shuffle=False)
    r = tf.TFRecordReader()
    key, serialized = r.read(q)
    features = tf.parse_single_example(serialized, {
        "label": tf.FixedLenFeature([], tf.int64),
        "values": tf.FixedLenFeature([2], tf.float32),
        "name": tf.FixedLenFeature([], tf.string)})
    batch = tf.train.batch([key, features["label"], features["values"], features["name"]],
                           batch_size=4, allow_smaller_final_batch=True)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        out = []
        try:
            while True:
                k, label, values, name = sess.run(batch)
                out.append([d.rel(k), label, values, name])
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    return {"out": out, "batch": [describe(t) for t in batch]}


def case_pipeline_fixed_length_decode_raw(tf):
    d = _Dir()
    record = 1 + 2 * 2 * 3
    data = b"".join(bytes([i % 10]) + bytes(range(i, i + 12)) for i in range(6))
    path = d.file("data.bin", data)
    q = tf.train.string_input_producer([path], num_epochs=1, shuffle=False)
    r = tf.FixedLengthRecordReader(record_bytes=record)
    _, value = r.read(q)
    raw = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(raw, [0], [1]), tf.int32)
    image = tf.reshape(tf.strided_slice(raw, [1], [record]), [2, 2, 3])
    images, labels = tf.train.batch([tf.cast(image, tf.float32), label], batch_size=3)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        out = [sess.run([images, labels]) for _ in range(2)]
        end = catch(lambda: sess.run(labels))
        coord.request_stop()
        coord.join(threads)
    return {"out": out, "end": end, "raw": describe(raw), "images": describe(images)}
