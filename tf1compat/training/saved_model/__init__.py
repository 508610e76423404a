"""TF1 SavedModels (`tf.saved_model`): builder, loader, signatures, constants.

Layout on disk (TF's): `<export_dir>/saved_model.pb` (TF's SavedModel protobuf: the
MetaGraphDefs with tags and SignatureDefs) and `<export_dir>/variables/variables.*`
(the checkpoint of a sharded Saver, in TF's layout: `variables.index` + `.data-*`, which
real TensorFlow restores). It loads SavedModels written by tf1compat (earlier ones with
`variables/variables.safetensors` too) or by TF 1.x-style builders.
"""
