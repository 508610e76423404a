"""RaggedTensors (TF 1.15's `tensorflow/python/ops/ragged`): `tf.RaggedTensor`, its value
and the `tf.ragged` functions, built on the ops layer's graph ops."""
