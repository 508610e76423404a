"""A canned tf.estimator.DNNClassifier over feature columns (the TF 1.x "premade
estimators" tutorial pattern): numeric, bucketized, vocabulary-list embedding, hashed
indicator and crossed columns, numpy_input_fn, train / evaluate / predict / export."""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(7)
n = 200
age = rng.uniform(18, 70, size=n).astype(np.float32)
hours = rng.uniform(10, 60, size=n).astype(np.float32)
job = rng.choice([b"tech", b"sales", b"admin", b"other"], size=n).astype(object)
city = rng.choice([b"paris", b"lyon", b"nice"], size=n).astype(object)
label = ((age > 40) & (hours > 35) | (job == b"tech")).astype(np.int64)

fc = tf.feature_column
age_col = fc.numeric_column("age")
hours_col = fc.numeric_column("hours", normalizer_fn=lambda t: (t - 35.) / 15.)
job_col = fc.categorical_column_with_vocabulary_list(
    "job", ["tech", "sales", "admin"], num_oov_buckets=1)
city_col = fc.categorical_column_with_hash_bucket("city", 5)
columns = [
    hours_col,
    fc.bucketized_column(age_col, boundaries=[25., 35., 45., 55.]),
    fc.embedding_column(job_col, dimension=3),
    fc.indicator_column(city_col),
    fc.indicator_column(fc.crossed_column([job_col, "city"], 12)),
]

model_dir = tempfile.mkdtemp()
classifier = tf.estimator.DNNClassifier(
    hidden_units=[10, 6], feature_columns=columns, model_dir=model_dir,
    optimizer=tf.train.AdagradOptimizer(learning_rate=0.1),
    config=tf.estimator.RunConfig(tf_random_seed=42, save_checkpoints_steps=50,
                                  log_step_count_steps=50))

features = {"age": age, "hours": hours, "job": job, "city": city}
train_input = tf.estimator.inputs.numpy_input_fn(features, label, batch_size=20,
                                                 num_epochs=None, shuffle=False)
classifier.train(train_input, steps=120)
print("variables:")
for name in classifier.get_variable_names():
    print("  ", name, list(classifier.get_variable_value(name).shape))

eval_input = tf.estimator.inputs.numpy_input_fn(features, label, batch_size=50,
                                                num_epochs=1, shuffle=False)
metrics = classifier.evaluate(eval_input)
for key in sorted(metrics):
    print("eval %s: %.5f" % (key, metrics[key]))

predict_input = tf.estimator.inputs.numpy_input_fn(
    {k: v[:5] for k, v in features.items()}, batch_size=5, shuffle=False)
for pred in classifier.predict(predict_input):
    print("predict:", pred["classes"][0].decode(), np.round(pred["probabilities"], 4).tolist())

spec = fc.make_parse_example_spec(columns)
print("parse spec:", sorted((k, type(v).__name__) for k, v in spec.items()))
export_dir = classifier.export_saved_model(
    os.path.join(model_dir, "export"),
    tf.estimator.export.build_parsing_serving_input_receiver_fn(spec))
print("exported:", sorted(os.listdir(export_dir)))
shutil.rmtree(model_dir)
