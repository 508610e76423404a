"""A small CNN classifier in the TF 1.x style (tf.layers, placeholders, a Session loop
with tf.train.MomentumOptimizer), trained on synthetic 16x16 "digits".

The model is built when the module is imported; the training loop runs when it is run as
a script. to_pytorch.py (docs/migrating.md's worked example) imports it, trains it the
same way, exports it to a torch module and fine-tunes it in plain PyTorch.
"""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
rng = np.random.RandomState(0)

n_classes, n_train, size = 10, 512, 16
prototypes = rng.rand(n_classes, size, size, 1).astype(np.float32)
train_labels = rng.randint(0, n_classes, size=n_train).astype(np.int64)
train_images = (prototypes[train_labels] +
                0.3 * rng.randn(n_train, size, size, 1)).astype(np.float32)

x = tf.placeholder(tf.float32, [None, size, size, 1], name="images")
y = tf.placeholder(tf.int64, [None], name="labels")

conv1 = tf.layers.conv2d(x, 8, 3, padding="same", activation=tf.nn.relu, name="conv1")
pool1 = tf.layers.max_pooling2d(conv1, 2, 2, name="pool1")
conv2 = tf.layers.conv2d(pool1, 16, 3, padding="same", activation=tf.nn.relu, name="conv2")
pool2 = tf.layers.max_pooling2d(conv2, 2, 2, name="pool2")
hidden = tf.layers.dense(tf.layers.flatten(pool2), 32, activation=tf.nn.relu, name="fc")
logits = tf.layers.dense(hidden, n_classes, name="logits")

loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                      logits=logits))
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
learning_rate, momentum, batch_size = 0.02, 0.9, 32
train_op = tf.train.MomentumOptimizer(learning_rate, momentum).minimize(loss)


def batch(step):
    """The training batch of a step (the data cycle through in order)."""
    start = (step * batch_size) % n_train
    return train_images[start:start + batch_size], train_labels[start:start + batch_size]


def train(sess, steps, report_every=5):
    """TF1-style training: `steps` runs of the train op, the loss printed now and then."""
    for step in range(steps):
        images, labels = batch(step)
        _, value = sess.run([train_op, loss], {x: images, y: labels})
        if step % report_every == 0 or step == steps - 1:
            print("step %2d loss %.5f" % (step, value))


if __name__ == "__main__":
    print("variables:", [v.name for v in tf.trainable_variables()])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        train(sess, 30)
        print("accuracy %.3f" % sess.run(accuracy, {x: train_images, y: train_labels}))
