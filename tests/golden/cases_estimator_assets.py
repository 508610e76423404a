"""Golden cases: SavedModel assets (recorded under TF 2.15 + tensorflow-estimator): the
vocabulary files of `categorical_column_with_vocabulary_file` columns land in the
ASSET_FILEPATHS collection; `export_saved_model` copies them into `assets/` (basenames,
collisions of different files suffixed `_1`, ...) and records AssetFileDefs (in TF1's
builder: `saved_model_assets` collection entries); loading feeds the asset tensors the
copies' paths, so the SavedModel works after the original files are gone."""

import os
import shutil

import numpy as np

from tests.golden.estimator_util import listing, model_dir
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _write(path, words):
    with open(path, "w") as f:
        f.write("\n".join(words) + "\n")


def _meta_assets(meta):
    """AssetFileDefs of a loaded MetaGraphDef (both of TF's places)."""
    out = {"asset_file_def": sorted([a.filename, a.tensor_info.name]
                                    for a in meta.asset_file_def)}
    if "saved_model_assets" in meta.collection_def:
        entries = []
        for any_proto in meta.collection_def["saved_model_assets"].any_list.value:
            entries.append([any_proto.type_url, bytes(any_proto.value)])
        out["collection"] = sorted(entries)
    out["asset_filepaths"] = list(
        meta.collection_def["asset_filepaths"].node_list.value) \
        if "asset_filepaths" in meta.collection_def else None
    return out


def case_export_vocabulary_file_assets(tf):
    out = {}
    with model_dir() as d:
        vocab_dir = os.path.join(d, "vocab")
        os.makedirs(os.path.join(vocab_dir, "other"))
        colors = os.path.join(vocab_dir, "colors.txt")
        sizes = os.path.join(vocab_dir, "other", "colors.txt")   # same basename, other file
        _write(colors, ["red", "green", "blue"])
        _write(sizes, ["small", "large"])
        color = tf.feature_column.categorical_column_with_vocabulary_file(
            "color", colors, vocabulary_size=3)
        size = tf.feature_column.categorical_column_with_vocabulary_file(
            "size", sizes, num_oov_buckets=1)
        columns = [tf.feature_column.indicator_column(color),
                   tf.feature_column.embedding_column(
                       size, 2, initializer=tf.constant_initializer(0.5))]
        est = tf.estimator.DNNClassifier(
            [3], columns, model_dir=os.path.join(d, "model"), n_classes=2,
            config=tf.estimator.RunConfig(tf_random_seed=3))
        x = {"color": np.array([["red"], ["blue"], ["green"], ["pink"]]),
             "size": np.array([["small"], ["large"], ["huge"], ["small"]])}
        y = np.array([1, 0, 1, 0])
        est.train(tf.estimator.inputs.numpy_input_fn(x, y, batch_size=4, num_epochs=None,
                                                     shuffle=False), steps=3)
        spec = tf.feature_column.make_parse_example_spec(
            [color, size])
        receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)
        export_dir = est.export_saved_model(os.path.join(d, "export"), receiver)
        export_dir = export_dir.decode() if isinstance(export_dir, bytes) else export_dir
        out["files"] = listing(export_dir)
        with open(os.path.join(export_dir, "assets", "colors.txt")) as f:
            out["asset_colors"] = f.read()
        with open(os.path.join(export_dir, "assets", "colors.txt_1")) as f:
            out["asset_colors_1"] = f.read()
        # Move the SavedModel and delete the vocabularies: loading must use assets/.
        moved = os.path.join(d, "moved")
        shutil.copytree(export_dir, moved)
        shutil.rmtree(vocab_dir)
        examples = []
        for c, s in (("red", "small"), ("blue", "huge"), ("pink", "large")):
            ex = tf.train.Example()
            ex.features.feature["color"].bytes_list.value.append(c.encode())
            ex.features.feature["size"].bytes_list.value.append(s.encode())
            examples.append(ex.SerializeToString())
        with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], moved)
            out["meta"] = _meta_assets(meta)
            sig = meta.signature_def["predict"]
            fetch = {k: v.name for k, v in sig.outputs.items() if k in ("probabilities",
                                                                       "class_ids")}
            out["predict"] = sess.run(fetch, {sig.inputs["examples"].name: examples})
    return out


def case_builder_assets_collection(tf):
    out = {}
    with model_dir() as d:
        vocab = os.path.join(d, "words.txt")
        _write(vocab, ["a", "b", "c"])
        with tf.Graph().as_default() as g:
            table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                tf.lookup.TextFileIndex.LINE_NUMBER), -1)
            out["collection"] = [t.name for t in g.get_collection(
                tf.GraphKeys.ASSET_FILEPATHS)]
            words = tf.placeholder(tf.string, [None], name="words")
            ids = tf.identity(table.lookup(words), name="ids")
            export = os.path.join(d, "export")
            with tf.Session() as sess:
                sess.run(tf.tables_initializer())
                builder = tf.saved_model.builder.SavedModelBuilder(export)
                builder.add_meta_graph_and_variables(
                    sess, ["serve"], assets_collection=g.get_collection(
                        tf.GraphKeys.ASSET_FILEPATHS),
                    main_op=tf.tables_initializer())
                builder.save()
        out["files"] = listing(export)
        os.remove(vocab)
        with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], export)
            out["meta"] = _meta_assets(meta)
            out["ids"] = sess.run("ids:0", {"words:0": ["c", "a", "z"]})
        # A non-constant asset path is refused, as in TF.
        with tf.Graph().as_default() as g, tf.Session() as sess:
            path = tf.placeholder(tf.string, [])
            builder = tf.saved_model.builder.SavedModelBuilder(os.path.join(d, "bad"))
            out["non_constant"] = catch(lambda: builder.add_meta_graph_and_variables(
                sess, ["serve"], assets_collection=[path]))
    return out
