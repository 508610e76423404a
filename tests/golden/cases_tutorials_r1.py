"""Golden cases from TF's own r1 tutorials (tensorflow/docs, site/en/r1/tutorials), the
patterns that failed under tf1compat when the notebooks were run as scripts."""

from __future__ import annotations


def case_distributed_iterator_is_a_python_iterator(tf):
    """distribute/training_loops: `loss = train_step(next(train_iterator))` on the
    iterator of `strategy.experimental_distribute_dataset(...)`, in graph mode."""
    strategy = tf.distribute.MirroredStrategy()
    dataset = tf.data.Dataset.range(8).batch(2 * strategy.num_replicas_in_sync)
    iterator = strategy.experimental_distribute_dataset(dataset).make_initializable_iterator()
    first = next(iterator)
    second = iterator.get_next()
    with tf.Session() as sess:
        sess.run(iterator.initializer)
        values = [sess.run(first), sess.run(second)]
    return {"replicas": strategy.num_replicas_in_sync, "values": values,
            "shape": first.shape.as_list(), "dtype": first.dtype.name,
            "iter_is_self": iter(iterator) is iterator}


def case_custom_sparse_loss_on_sequence_outputs(tf):
    """sequences/text_generation: a loss function of (labels, logits) applying
    sparse_categorical_crossentropy to [batch, time, vocab] logits, fitted on [batch, time]
    labels. tf-keras makes the target placeholder [?, ?, ?] and feeds the labels without
    holding them against it."""
    import numpy as np
    init = tf.keras.initializers
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(7, 4, input_shape=[None],
                                  embeddings_initializer=init.RandomUniform(seed=1)),
        tf.keras.layers.Dense(7, kernel_initializer=init.glorot_uniform(seed=2))])

    def loss(labels, logits):
        return tf.keras.losses.sparse_categorical_crossentropy(labels, logits,
                                                               from_logits=True)
    model.compile(optimizer=tf.train.GradientDescentOptimizer(0.5), loss=loss)
    rs = np.random.RandomState(0)
    x, y = rs.randint(0, 7, (8, 5)), rs.randint(0, 7, (8, 5))
    numpy_fit = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    dataset_fit = model.fit(dataset, epochs=1, steps_per_epoch=2, verbose=0)
    return {"target_shape": model._targets[0].shape.as_list(),
            "numpy": numpy_fit.history["loss"], "dataset": dataset_fit.history["loss"],
            "evaluate": model.evaluate(x, y, batch_size=4, verbose=0)}
