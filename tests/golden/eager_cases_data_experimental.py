"""Eager golden cases: `tf.data.experimental` datasets iterated in Python (the Iris
tutorial's make_csv_dataset loop, seeded sampling, scan, grouping, single elements)."""

import os
import tempfile

from tests.golden.eager_cases_data import _values
from tests.golden.harness import catch


def case_make_csv_dataset_iris_loop(tf):
    path = os.path.join(tempfile.mkdtemp(), "iris_training.csv")
    with open(path, "w") as f:
        f.write("120,4,setosa,versicolor,virginica\n6.4,2.8,5.6,2.2,2\n5.0,2.3,3.3,1.0,1\n"
                "4.9,2.5,4.5,1.7,2\n4.9,3.1,1.5,0.1,0\n5.7,3.8,1.7,0.3,0\n")
    names = ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]
    ds = tf.data.experimental.make_csv_dataset(path, 2, column_names=names,
                                               label_name="species", num_epochs=1,
                                               shuffle=False)

    def pack_features_vector(features, labels):
        return tf.stack(list(features.values()), axis=1), labels

    packed = ds.map(pack_features_vector)
    features, labels = next(iter(packed))
    return {"first": [features.numpy(), labels.numpy()],
            "all": [_values(x) for x in packed]}


def case_sampling_and_scan(tf):
    E = tf.data.experimental
    sampled = E.sample_from_datasets([tf.data.Dataset.range(4), tf.data.Dataset.range(10, 14)],
                                     seed=5)
    scanned = tf.data.Dataset.range(5).apply(E.scan(tf.constant(0, tf.int64),
                                                    lambda s, x: (s + x, s)))
    return {"sampled": [int(x) for x in sampled], "scanned": [int(x) for x in scanned],
            "random": [int(x) for x in E.RandomDataset(3).take(3)],
            "counter": [int(x) for x in E.Counter(2, 3).take(3)]}


def case_grouping_and_single_element(tf):
    E = tf.data.experimental
    grouped = tf.data.Dataset.range(7).apply(E.group_by_window(
        lambda x: x % 2, lambda k, d: d.batch(2), 2))
    single = E.get_single_element(tf.data.Dataset.from_tensors((1, "a")))
    return {"grouped": [_values(x) for x in grouped], "single": _values(single),
            "cardinality": int(E.cardinality(tf.data.Dataset.range(10).batch(4))),
            "empty": catch(lambda: E.get_single_element(tf.data.Dataset.range(0)))}
