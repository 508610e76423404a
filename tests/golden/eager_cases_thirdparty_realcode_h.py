"""Eager golden cases: TF's r1 eager tutorials (custom_training_walkthrough) iterate a
seeded, shuffled dataset, then iterate `dataset.map(...)` of it: each dataset object that
is iterated reshuffles from its own fresh seed generator, as TF does."""


def _orders(dataset, passes):
    return [[int(x) for x in dataset] for _ in range(passes)]


def case_derived_datasets_restart_the_shuffle_sequence(tf):
    tf.set_random_seed(1234)
    base = tf.data.Dataset.range(8).shuffle(8)
    out = {"base": _orders(base, 3)}
    out["mapped"] = _orders(base.map(lambda x: x * 1), 2)
    out["taken"] = _orders(base.take(8), 1)
    out["base_again"] = _orders(base, 1)
    out["batched"] = [b.numpy().tolist() for b in base.batch(4)]
    out["repeated"] = _orders(base.repeat(2), 1)
    explicit = tf.data.Dataset.range(8).shuffle(8, seed=5)
    out["explicit"] = _orders(explicit, 1) + _orders(explicit.map(lambda x: x + 0), 1)
    fixed = tf.data.Dataset.range(8).shuffle(8, seed=5, reshuffle_each_iteration=False)
    out["fixed"] = _orders(fixed, 2) + _orders(fixed.map(lambda x: x + 0), 1)
    return out


def case_eager_writers_return_none(tf):
    """TF's r1 TFRecord tutorial prints what TFRecordWriter.write returns under eager
    execution: None (the records are written at once), as tf.io.write_file's."""
    import os
    import tempfile
    folder = tempfile.mkdtemp()
    records = os.path.join(folder, "x.tfrecord")
    text = os.path.join(folder, "x.txt")
    written = tf.data.experimental.TFRecordWriter(records).write(
        tf.data.Dataset.from_tensor_slices([b"ab", b"cde"]))
    wrote = tf.io.write_file(text, "hello")
    back = [r.numpy() for r in tf.data.TFRecordDataset(records)]
    return {"write": repr(written), "write_file": repr(wrote), "records": back,
            "text": open(text, "rb").read()}
