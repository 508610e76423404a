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
