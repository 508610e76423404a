"""Golden cases: the summary-writer ops behind tf.contrib.summary (SummaryWriter,
CreateSummaryFileWriter, Write{Scalar,Histogram,Image,Audio,Graph}Summary, WriteSummary,
FlushSummaryWriter), run through tf.raw_ops in TF 2.21; the events file is read back
with tf.train.summary_iterator: steps, tags, values, histograms, image and audio headers,
tensors."""

import glob
import os
import tempfile

import numpy as np

from tests.golden.harness import catch, requires


def _events(tf, logdir):
    files = sorted(glob.glob(os.path.join(logdir, "*")))
    out = {"files": [os.path.basename(f).endswith(".v2") for f in files]}
    rows = []
    for f in files:
        for e in tf.train.summary_iterator(f):
            if e.file_version:
                rows.append(["version", e.file_version])
                continue
            if e.graph_def:
                rows.append(["graph", int(e.step), len(e.graph_def) > 0])
            for v in e.summary.value:
                kind = v.WhichOneof("value")
                row = [int(e.step), v.tag, kind]
                if kind == "simple_value":
                    row.append(float(v.simple_value))
                elif kind == "histo":
                    row += [v.histo.min, v.histo.max, v.histo.num, v.histo.sum,
                            list(v.histo.bucket)]
                elif kind == "image":
                    row += [v.image.height, v.image.width, v.image.colorspace]
                elif kind == "audio":
                    row += [v.audio.sample_rate, v.audio.num_channels,
                            v.audio.length_frames, v.audio.content_type]
                elif kind == "tensor":
                    row += [tf.make_ndarray(v.tensor).tolist(),
                            v.metadata.plugin_data.plugin_name]
                rows.append(row)
    # The writes of one run happen in no fixed order: sort each step's events by tag.
    out["events"] = rows[:2] + sorted(rows[2:], key=lambda r: (r[0], r[1]))
    return out


@requires("raw_ops")
def case_writer_ops(tf):
    logdir = tempfile.mkdtemp()
    raw = tf.raw_ops
    writer = raw.SummaryWriter(shared_name="w")
    create = raw.CreateSummaryFileWriter(writer=writer, logdir=logdir, max_queue=10,
                                         flush_millis=100000, filename_suffix=".v2")
    step = tf.placeholder(tf.int64, [])
    meta = tf.SummaryMetadata()
    meta.plugin_data.plugin_name = "custom"
    writes = [
        raw.WriteScalarSummary(writer=writer, step=step, tag="loss",
                               value=tf.cast(step, tf.float32) * 0.5),
        raw.WriteScalarSummary(writer=writer, step=step, tag="count", value=np.int32(4)),
        raw.WriteHistogramSummary(writer=writer, step=step, tag="h",
                                  values=tf.constant([1.0, -2.0, 2.0, 30.0])),
        raw.WriteImageSummary(writer=writer, step=step, tag="img",
                              tensor=tf.constant(np.linspace(0, 1, 2 * 3 * 4 * 3).reshape(
                                  2, 3, 4, 3).astype(np.float32)),
                              bad_color=tf.constant([255, 0, 0, 255], tf.uint8),
                              max_images=2),
        raw.WriteAudioSummary(writer=writer, step=step, tag="wav",
                              tensor=tf.constant(np.zeros((1, 8), np.float32)),
                              sample_rate=8000.0, max_outputs=1),
        raw.WriteSummary(writer=writer, step=step, tensor=tf.constant([[1, 2], [3, 4]]),
                         tag="t", summary_metadata=meta.SerializeToString()),
    ]
    graph_write = raw.WriteGraphSummary(writer=writer, step=np.int64(0),
                                        tensor=tf.get_default_graph().as_graph_def()
                                        .SerializeToString())
    flush = raw.FlushSummaryWriter(writer=writer)
    with tf.Session() as sess:
        before = catch(lambda: sess.run(writes[0], {step: 1}))
        sess.run(create)
        sess.run(graph_write)
        for s in (1, 2):
            sess.run(writes, {step: s})
        sess.run(create)          # same logdir: keeps the file
        sess.run(flush)
        out = _events(tf, logdir)
    out["before_create"] = before
    out["scalar_rank"] = catch(lambda: raw.WriteScalarSummary(
        writer=writer, step=np.int64(0), tag="x", value=tf.constant([1.0])))
    return out
