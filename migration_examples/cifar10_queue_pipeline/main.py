"""The CIFAR-10 input pipeline of TF 1.x's tutorial (cifar10_input.py), unchanged in
spirit: binary files of fixed-length records (1 label byte + 32x32x3 image bytes) read
with FixedLengthRecordReader from a string_input_producer, decoded with decode_raw,
distorted (random crop, flip, brightness, contrast, per-image standardization) and
batched by shuffle_batch with 16 preprocessing threads; evaluation batches come from
tf.train.batch over one epoch. The data is a local binary fixture the script writes
itself. Thread timing decides which example lands in which batch, in TF as here, so the
script prints what does not depend on it: graph facts, batch shapes and ranges, the
multiset of an epoch, and whether a softmax classifier learns from the queue."""
import os
import tempfile

import numpy as np
import tensorflow as tf

IMAGE_SIZE = 24
NUM_CLASSES = 10
LABEL_BYTES, HEIGHT, WIDTH, DEPTH = 1, 32, 32, 3
RECORD_BYTES = LABEL_BYTES + HEIGHT * WIDTH * DEPTH
RECORDS_PER_FILE = 120


# -- the local fixture: CIFAR-10's binary format -----------------------------------------------
def write_fixture(data_dir):
    rng = np.random.RandomState(2017)
    for i in range(1, 6):
        labels = rng.randint(0, NUM_CLASSES, size=RECORDS_PER_FILE).astype(np.uint8)
        # Each class has its own balance of colours, which survives the per-image
        # standardization, so a linear model can learn something.
        tint = np.array([23, 67, 131], np.int32)[None, :, None, None]
        base = labels[:, None, None, None].astype(np.int32) * tint % 256
        noise = rng.randint(-40, 41, size=(RECORDS_PER_FILE, DEPTH, HEIGHT, WIDTH))
        images = np.clip(base + noise, 0, 255).astype(np.uint8)
        with open(os.path.join(data_dir, "data_batch_%d.bin" % i), "wb") as f:
            for label, image in zip(labels, images):
                f.write(bytes([label]) + image.tobytes())
    with open(os.path.join(data_dir, "test_batch.bin"), "wb") as f:
        for k in range(100):
            f.write(bytes([k % NUM_CLASSES]) +
                    np.full(DEPTH * HEIGHT * WIDTH, k % 251, np.uint8).tobytes())


data_dir = tempfile.mkdtemp()
write_fixture(data_dir)
print("files:", sorted(os.listdir(data_dir)))
print("bytes per file:", os.path.getsize(os.path.join(data_dir, "data_batch_1.bin")))


# -- cifar10_input.py -------------------------------------------------------------------------
def read_cifar10(filename_queue):
    class CIFAR10Record(object):
        pass
    result = CIFAR10Record()
    result.height, result.width, result.depth = HEIGHT, WIDTH, DEPTH
    reader = tf.FixedLengthRecordReader(record_bytes=RECORD_BYTES)
    result.key, value = reader.read(filename_queue)
    record_bytes = tf.decode_raw(value, tf.uint8)
    result.label = tf.cast(tf.strided_slice(record_bytes, [0], [LABEL_BYTES]), tf.int32)
    depth_major = tf.reshape(
        tf.strided_slice(record_bytes, [LABEL_BYTES], [RECORD_BYTES]),
        [result.depth, result.height, result.width])
    result.uint8image = tf.transpose(depth_major, [1, 2, 0])
    return result


def _generate_image_and_label_batch(image, label, min_queue_examples, batch_size, shuffle):
    num_preprocess_threads = 16
    if shuffle:
        images, label_batch = tf.train.shuffle_batch(
            [image, label], batch_size=batch_size, num_threads=num_preprocess_threads,
            capacity=min_queue_examples + 3 * batch_size,
            min_after_dequeue=min_queue_examples)
    else:
        images, label_batch = tf.train.batch(
            [image, label], batch_size=batch_size, num_threads=num_preprocess_threads,
            capacity=min_queue_examples + 3 * batch_size)
    tf.summary.image("images", images)
    return images, tf.reshape(label_batch, [batch_size])


def distorted_inputs(data_dir, batch_size):
    filenames = [os.path.join(data_dir, "data_batch_%d.bin" % i) for i in range(1, 6)]
    filename_queue = tf.train.string_input_producer(filenames)
    read_input = read_cifar10(filename_queue)
    reshaped_image = tf.cast(read_input.uint8image, tf.float32)
    distorted_image = tf.random_crop(reshaped_image, [IMAGE_SIZE, IMAGE_SIZE, 3])
    distorted_image = tf.image.random_flip_left_right(distorted_image)
    distorted_image = tf.image.random_brightness(distorted_image, max_delta=63)
    distorted_image = tf.image.random_contrast(distorted_image, lower=0.2, upper=1.8)
    float_image = tf.image.per_image_standardization(distorted_image)
    float_image.set_shape([IMAGE_SIZE, IMAGE_SIZE, 3])
    read_input.label.set_shape([1])
    min_queue_examples = int(RECORDS_PER_FILE * 5 * 0.4)
    return _generate_image_and_label_batch(float_image, read_input.label,
                                           min_queue_examples, batch_size, shuffle=True)


def inputs(data_dir, batch_size, num_epochs=None):
    filenames = [os.path.join(data_dir, "test_batch.bin")]
    filename_queue = tf.train.string_input_producer(filenames, num_epochs=num_epochs)
    read_input = read_cifar10(filename_queue)
    reshaped_image = tf.cast(read_input.uint8image, tf.float32)
    resized_image = tf.image.resize_image_with_crop_or_pad(reshaped_image, IMAGE_SIZE,
                                                           IMAGE_SIZE)
    float_image = tf.image.per_image_standardization(resized_image)
    float_image.set_shape([IMAGE_SIZE, IMAGE_SIZE, 3])
    read_input.label.set_shape([1])
    return _generate_image_and_label_batch(float_image, read_input.label, 20, batch_size,
                                           shuffle=False)


# -- graph ------------------------------------------------------------------------------------
tf.set_random_seed(1)
with tf.name_scope("train_input"):
    images, labels = distorted_inputs(data_dir, batch_size=32)
with tf.name_scope("eval_input"):
    eval_images, eval_labels = inputs(data_dir, batch_size=20, num_epochs=1)
print("images:", images.name, images.shape, images.dtype.name)
print("labels:", labels.name, labels.shape, labels.dtype.name)
runners = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
print("queue runners:", [(qr.name, len(qr.enqueue_ops)) for qr in runners])
print("summaries:", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
print("queue ops:", sorted({op.type for op in tf.get_default_graph().get_operations()
                            if "Queue" in op.type or "Reader" in op.type}))

logits = tf.layers.dense(tf.layers.flatten(images), NUM_CLASSES,
                         kernel_initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                     logits=logits))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=global_step)

# -- run ----------------------------------------------------------------------------------------
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    print("threads:", len(threads))

    img, lab = sess.run([images, labels])
    print("train batch:", img.shape, img.dtype, lab.shape, lab.dtype)
    print("labels in range:", bool(lab.min() >= 0 and lab.max() < NUM_CLASSES))
    print("standardized:", bool(np.all(np.abs(img.mean(axis=(1, 2, 3))) < 1e-4)),
          bool(np.all(np.abs(img.std(axis=(1, 2, 3)) - 1.0) < 1e-3)))

    first = np.mean([sess.run(loss) for _ in range(5)])
    for _ in range(60):
        sess.run(train_op)
    last = np.mean([sess.run(loss) for _ in range(5)])
    print("steps:", sess.run(global_step))
    print("initial loss:", round(float(np.log(NUM_CLASSES)), 4))
    print("loss went down:", bool(last < first))

    # One epoch of evaluation data, as a multiset (batches are filled by 16 threads).
    seen = []
    try:
        while True:
            e_img, e_lab = sess.run([eval_images, eval_labels])
            seen.extend(zip(e_lab.tolist(), np.round(e_img.sum(axis=(1, 2, 3)), 2).tolist()))
    except tf.errors.OutOfRangeError:
        print("eval epoch done")
    print("eval examples:", len(seen))
    print("eval label counts:", np.bincount([l for l, _ in seen], minlength=10).tolist())
    print("eval checksum zero:", all(abs(s) < 1e-2 for _, s in seen))

    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=10)
    print("threads alive:", sum(t.is_alive() for t in threads))
