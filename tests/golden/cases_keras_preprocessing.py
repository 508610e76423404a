"""Golden cases: `tf.keras.preprocessing` (sequence, text, image) against tf-keras 2.21.

Recorded with a TF venv that also has scipy and Pillow (tf-keras's image transforms call
scipy.ndimage; tf1compat reimplements that resampling). Python's `hash` is randomized per
process, so `one_hot` is checked for range only and dicts filled in set order
(`word_docs`, `index_docs`) are compared sorted.
"""

import json
import os
import random
import tempfile

import numpy as np

from tests.golden.harness import catch
from tests.golden.keras_util import captured, history, mlp

_TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "cat, dog; cat?",
          "A new-line\nand\ttabs", ""]


def case_pad_sequences(tf):
    pad = tf.keras.preprocessing.sequence.pad_sequences
    seqs = [[1, 2, 3], [4, 5], [6], []]
    out = {}
    for padding in ("pre", "post"):
        for truncating in ("pre", "post"):
            out[f"{padding}_{truncating}"] = pad(seqs, maxlen=2, padding=padding,
                                                 truncating=truncating, value=-1)
    out["default"] = pad(seqs)
    out["float"] = pad([[0.5, 1.5], [2.25]], dtype="float32", value=0.125)
    out["int64_maxlen5"] = pad(seqs, maxlen=5, dtype="int64")
    out["nested"] = pad([[[1, 2], [3, 4]], [[5, 6]]], padding="post")
    strings = pad([["a", "bb"], ["ccc"]], dtype=object, value="<pad>")
    out["strings_object"] = [[str(s) for s in row] for row in strings]
    unicode = pad([["a", "bb"], ["ccc"]], dtype="<U5", value="_")
    out["strings_unicode"] = [[str(s) for s in row] for row in unicode]
    out["str_value_int_dtype"] = catch(lambda: pad([[1]], value="x"))
    out["bad_padding"] = catch(lambda: pad(seqs, padding="middle"), message=True)
    out["bad_truncating"] = catch(lambda: pad(seqs, maxlen=1, truncating="x"), message=True)
    out["not_iterable"] = catch(lambda: pad([1, 2]))
    return out


def case_timeseries_generator(tf):
    seq = tf.keras.preprocessing.sequence
    data = np.arange(50, dtype=np.float32).reshape(25, 2)
    targets = np.arange(25) * 10
    out = {}
    for name, kwargs in {"plain": dict(length=4, batch_size=3),
                         "stride": dict(length=5, sampling_rate=2, stride=3, batch_size=2),
                         "reverse": dict(length=3, reverse=True, start_index=2,
                                         end_index=20, batch_size=4)}.items():
        gen = seq.TimeseriesGenerator(data, targets, **kwargs)
        out[name] = {"len": len(gen), "first": list(gen[0]), "last": list(gen[len(gen) - 1])}
    np.random.seed(3)
    shuffled = seq.TimeseriesGenerator(data, targets, length=2, shuffle=True, batch_size=5)
    out["shuffled"] = list(shuffled[0])
    small = seq.TimeseriesGenerator([1, 2, 3, 4], [5, 6, 7, 8], length=1, batch_size=2)
    out["config"] = json.loads(small.to_json())
    out["too_short"] = catch(lambda: seq.TimeseriesGenerator(data, targets, length=30),
                             message=True)
    out["lengths_differ"] = catch(lambda: seq.TimeseriesGenerator(data, targets[:3],
                                                                  length=2), message=True)
    return out


def case_sampling_table_and_skipgrams(tf):
    seq = tf.keras.preprocessing.sequence
    out = {"table": seq.make_sampling_table(12), "table_factor":
           seq.make_sampling_table(6, sampling_factor=0.01)}
    random.seed(7)
    couples, labels = seq.skipgrams([1, 2, 3, 0, 4, 5, 2], vocabulary_size=8, window_size=2,
                                    seed=11)
    out["skipgrams"] = {"couples": couples, "labels": labels}
    random.seed(7)
    couples, labels = seq.skipgrams([3, 1, 4, 1, 5], vocabulary_size=6, window_size=1,
                                    negative_samples=0.5, categorical=True, seed=5,
                                    sampling_table=[1.0, 0.2, 0.9, 1.0, 0.5, 1.0])
    out["categorical_sampled"] = {"couples": couples, "labels": labels}
    couples, labels = seq.skipgrams([1, 2, 3], vocabulary_size=4, window_size=1,
                                    negative_samples=0, shuffle=False)
    out["unshuffled"] = {"couples": couples, "labels": labels}
    return out


def _tables(tok):
    return {"word_counts": [list(kv) for kv in tok.word_counts.items()],
            "word_index": sorted(tok.word_index.items(), key=lambda kv: kv[1]),
            "word_docs": sorted(tok.word_docs.items()),
            "index_docs": sorted(tok.index_docs.items()),
            "document_count": tok.document_count}


def case_tokenizer(tf):
    text = tf.keras.preprocessing.text
    out = {}
    tok = text.Tokenizer()
    tok.fit_on_texts(_TEXTS)
    out["plain"] = _tables(tok)
    out["sequences"] = tok.texts_to_sequences(_TEXTS + ["unknown words cat"])
    out["back"] = tok.sequences_to_texts([[1, 2, 3], [99, 4]])
    for mode in ("binary", "count", "freq", "tfidf"):
        out[f"matrix_{mode}"] = tok.texts_to_matrix(_TEXTS[:3], mode=mode)
    out["bad_mode"] = catch(lambda: tok.texts_to_matrix(_TEXTS[:1], mode="nope"))
    oov = text.Tokenizer(num_words=4, oov_token="<OOV>")
    oov.fit_on_texts(_TEXTS)
    out["oov"] = _tables(oov)
    out["oov_sequences"] = oov.texts_to_sequences(_TEXTS + ["zebra the"])
    out["oov_back"] = oov.sequences_to_texts([[1, 2, 3, 7, 50]])
    out["oov_matrix"] = oov.texts_to_matrix(_TEXTS[:2], mode="count")
    limited = text.Tokenizer(num_words=3)
    limited.fit_on_texts(_TEXTS)
    out["limited_sequences"] = limited.texts_to_sequences(_TEXTS)
    chars = text.Tokenizer(char_level=True, lower=False)
    chars.fit_on_texts(["abca", "Bad"])
    out["char_level"] = _tables(chars)
    out["char_sequences"] = chars.texts_to_sequences(["aBc"])
    lists = text.Tokenizer()
    lists.fit_on_texts([["Hello", "World"], ["hello"]])
    out["word_lists"] = _tables(lists)
    restored = text.tokenizer_from_json(oov.to_json())
    out["json_config"] = {k: (json.loads(v) if k in ("word_counts", "word_index") else v)
                          for k, v in json.loads(oov.to_json())["config"].items()
                          if k not in ("word_docs", "index_docs", "index_word")}
    out["restored_sequences"] = restored.texts_to_sequences(_TEXTS)
    out["restored_matrix"] = restored.texts_to_matrix(_TEXTS[:2], mode="tfidf")
    seqs = text.Tokenizer(num_words=6)
    seqs.fit_on_sequences([[1, 2, 2], [3, 1]])
    out["fit_on_sequences"] = seqs.sequences_to_matrix([[1, 2, 2, 9]], mode="tfidf")
    out["unfitted_matrix"] = catch(lambda: text.Tokenizer().texts_to_matrix(["a"]),
                                   message=True)
    out["bad_kwarg"] = catch(lambda: text.Tokenizer(foo=1))
    return out


def case_word_helpers(tf):
    text = tf.keras.preprocessing.text
    out = {"words": text.text_to_word_sequence("Hello, World! It's a (test)."),
           "words_split": text.text_to_word_sequence("a-b-c d", filters="", split="-"),
           "words_keep_case": text.text_to_word_sequence("Ab CD", lower=False),
           "md5": text.hashing_trick("the quick brown fox the", 20, hash_function="md5"),
           "custom_hash": text.hashing_trick("aa b ccc", 5, hash_function=len)}
    hashed = text.one_hot("one two three two", 7)
    out["one_hot"] = {"length": len(hashed), "in_range": all(1 <= h < 7 for h in hashed),
                      "repeat_equal": hashed[1] == hashed[3]}
    return out


def _image(seed=0, shape=(6, 5, 3)):
    return np.random.RandomState(seed).uniform(0, 255, size=shape).astype(np.float32)


def case_apply_affine_transform(tf):
    image = tf.keras.preprocessing.image
    x = _image()
    out = {}
    params = {"rotate": dict(theta=33), "shift": dict(tx=1.5, ty=-2.25),
              "shear": dict(shear=20), "zoom": dict(zx=0.7, zy=1.3),
              "all": dict(theta=-15, tx=0.5, ty=1, shear=10, zx=1.2, zy=0.9)}
    for fill in ("nearest", "constant", "reflect", "wrap"):
        for name, p in params.items():
            out[f"{fill}_{name}"] = image.apply_affine_transform(
                x, row_axis=0, col_axis=1, channel_axis=2, fill_mode=fill, cval=7.0, **p)
    out["channels_first"] = image.apply_affine_transform(
        np.transpose(x, (2, 0, 1)), theta=40, zx=0.8, row_axis=1, col_axis=2,
        channel_axis=0, fill_mode="constant")
    out["order0"] = image.apply_affine_transform(x, theta=25, row_axis=0, col_axis=1,
                                                 channel_axis=2, order=0)
    out["identity"] = image.apply_affine_transform(x, row_axis=0, col_axis=1,
                                                   channel_axis=2)
    out["bad_axes"] = catch(lambda: image.apply_affine_transform(x, row_axis=0, col_axis=0),
                            message=True)
    out["bad_rank"] = catch(lambda: image.apply_affine_transform(x[0], theta=1),
                            message=True)
    return out


def case_random_image_functions(tf):
    image = tf.keras.preprocessing.image
    x = _image(1, (3, 7, 6))
    out = {}
    np.random.seed(4)
    out["rotation"] = image.random_rotation(x, 30)
    out["shift"] = image.random_shift(x, 0.2, 0.3, fill_mode="reflect")
    out["shear"] = image.random_shear(x, 25, fill_mode="constant", cval=1.0)
    out["zoom"] = image.random_zoom(x, (0.6, 1.4), fill_mode="wrap")
    out["zoom_identity"] = image.random_zoom(x, (1, 1))
    out["channel_shift"] = image.random_channel_shift(x, 40.0)
    out["apply_channel_shift"] = image.apply_channel_shift(x, -30.0, channel_axis=0)
    last = np.transpose(x, (1, 2, 0))
    out["brightness"] = image.random_brightness(last, (0.5, 1.5))
    out["brightness_noscale"] = image.apply_brightness_shift(last * 2 - 100, 1.3, False)
    out["bad_zoom"] = catch(lambda: image.random_zoom(x, (1, 2, 3)), message=True)
    return out


def case_image_arrays_and_files(tf):
    image = tf.keras.preprocessing.image
    out = {}
    x = _image(2, (4, 5, 3))
    img = image.array_to_img(x)
    out["rgb"] = {"mode": img.mode, "size": list(img.size), "array": image.img_to_array(img)}
    out["unscaled"] = image.img_to_array(image.array_to_img(x, scale=False))
    grey = image.array_to_img(x[:, :, :1] * 4, scale=False)
    out["int32_grey"] = {"mode": grey.mode, "array": image.img_to_array(grey)}
    out["rgba_first"] = image.img_to_array(
        image.array_to_img(np.transpose(_image(3, (4, 5, 4)), (2, 0, 1)),
                           data_format="channels_first"), data_format="channels_first")
    out["bad_channels"] = catch(lambda: image.array_to_img(np.zeros((2, 2, 2))),
                                message=True)
    out["bad_rank"] = catch(lambda: image.array_to_img(np.zeros((2, 2))), message=True)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.png")
        image.save_img(path, _image(4, (8, 12, 3)))
        out["loaded"] = image.img_to_array(image.load_img(path))
        out["grey"] = image.img_to_array(image.load_img(path, color_mode="grayscale"))
        out["rgba"] = image.img_to_array(image.load_img(path, color_mode="rgba"))
        for interp in ("nearest", "bilinear", "bicubic"):
            out[f"resized_{interp}"] = image.img_to_array(
                image.load_img(path, target_size=(5, 4), interpolation=interp))
        out["aspect"] = image.img_to_array(image.load_img(path, target_size=(4, 4),
                                                          keep_aspect_ratio=True))
        out["bad_interp"] = catch(lambda: image.load_img(path, target_size=(2, 2),
                                                         interpolation="magic"), message=True)
        out["bad_mode"] = catch(lambda: image.load_img(path, color_mode="cmyk"),
                                message=True)
    return out


def _augmenting(image, **kwargs):
    return image.ImageDataGenerator(rotation_range=20, width_shift_range=0.2,
                                    height_shift_range=[1, 2], shear_range=10,
                                    zoom_range=0.2, channel_shift_range=5.0,
                                    horizontal_flip=True, vertical_flip=True,
                                    fill_mode="reflect", **kwargs)


def case_image_data_generator_flow(tf):
    image = tf.keras.preprocessing.image
    x = np.stack([_image(i, (6, 6, 3)) for i in range(5)])
    y = np.arange(5)
    out = {}
    gen = _augmenting(image, rescale=1 / 255.0)
    it = gen.flow(x, y, batch_size=2, seed=3)
    out["len"] = len(it)
    out["batches"] = [list(next(it)) for _ in range(4)]
    out["indexed"] = list(it[1])
    weighted = gen.flow(x, y, batch_size=3, shuffle=False, sample_weight=np.ones(5) * 2,
                        seed=1)
    out["weighted"] = list(weighted[1])
    misc = image.ImageDataGenerator().flow((x, [y * 2.0]), y, batch_size=2, shuffle=False)
    out["misc"] = next(misc)
    out["params"] = {k: (None if v is None else float(v))
                     for k, v in _augmenting(image).get_random_transform((6, 6, 3),
                                                                         seed=9).items()}
    out["random_transform"] = _augmenting(image).random_transform(x[0], seed=2)
    split = image.ImageDataGenerator(validation_split=0.4)
    out["subset"] = {s: list(next(split.flow(x, y % 2 * 0 + np.array([0, 1, 0, 1, 0]),
                                             batch_size=5, shuffle=False, subset=s)))
                     for s in ("training", "validation")}
    out["bad_subset_classes"] = catch(lambda: split.flow(x, y, subset="training"),
                                      message=True)
    out["bad_rank"] = catch(lambda: image.ImageDataGenerator().flow(x[0]), message=True)
    out["bad_zoom"] = catch(lambda: image.ImageDataGenerator(zoom_range=(1, 2, 3)),
                            message=True)
    out["bad_format"] = catch(lambda: image.ImageDataGenerator(data_format="nchw"))
    return out


def case_image_data_generator_fit_standardize(tf):
    image = tf.keras.preprocessing.image
    x = np.stack([_image(i, (4, 4, 3)) for i in range(6)])
    out = {}
    gen = image.ImageDataGenerator(featurewise_center=True,
                                   featurewise_std_normalization=True, rescale=0.5)
    gen.fit(x)
    out["mean"], out["std"] = gen.mean, gen.std
    out["standardized"] = gen.standardize(np.copy(x[0]) * 0.5)
    sample = image.ImageDataGenerator(samplewise_center=True,
                                      samplewise_std_normalization=True)
    out["samplewise"] = sample.standardize(np.copy(x[1]))
    zca = image.ImageDataGenerator(zca_whitening=True, zca_epsilon=0.1)
    zca.fit(x[:, :2, :2, :])
    out["zca_matrix"] = zca.zca_whitening_matrix
    out["zca"] = zca.standardize(np.copy(x[0, :2, :2, :]))
    aug = image.ImageDataGenerator(featurewise_center=True, rotation_range=30)
    aug.fit(x, augment=True, rounds=2, seed=5)
    out["augmented_mean"] = aug.mean
    first = image.ImageDataGenerator(featurewise_center=True, data_format="channels_first")
    first.fit(np.transpose(x, (0, 3, 1, 2)))
    out["channels_first_mean"] = first.mean
    out["preprocessing_function"] = image.ImageDataGenerator(
        preprocessing_function=lambda a: a - 1.0, rescale=2.0).standardize(np.copy(x[2]))
    out["fit_bad_rank"] = catch(lambda: gen.fit(x[0]), message=True)
    return out


def case_flow_from_directory(tf):
    image = tf.keras.preprocessing.image
    out = {}
    with tempfile.TemporaryDirectory() as d:
        for c, cls in enumerate(["dogs", "cats", "birds"]):
            os.makedirs(os.path.join(d, cls, "sub"))
            for i in range(3 - c % 2):
                where = os.path.join(d, cls, "sub" if i == 2 else "", f"img{i}.png")
                image.save_img(where, _image(10 * c + i, (6, 7, 3)))
        with open(os.path.join(d, "cats", "notes.txt"), "w") as f:
            f.write("not an image")
        gen = image.ImageDataGenerator(rescale=1 / 255.0, horizontal_flip=True,
                                       validation_split=0.34)
        for mode in ("categorical", "binary", "sparse", "input", None):
            it, screen = captured(lambda: gen.flow_from_directory(
                d, target_size=(4, 5), class_mode=mode, batch_size=3, seed=2))
            batch = next(it)
            out[str(mode)] = {"screen": screen, "batch": list(batch) if isinstance(
                batch, tuple) else batch}
        it, screen = captured(lambda: gen.flow_from_directory(
            d, target_size=(6, 7), color_mode="grayscale", classes=["cats", "dogs"],
            shuffle=False, batch_size=4))
        out["listing"] = {"screen": screen, "filenames": it.filenames,
                          "classes": it.classes, "class_indices": it.class_indices,
                          "len": len(it), "batch": list(it[0])}
        for subset in ("training", "validation"):
            it, screen = captured(lambda: gen.flow_from_directory(
                d, target_size=(3, 3), shuffle=False, subset=subset, class_mode="sparse"))
            out[subset] = {"screen": screen, "filenames": it.filenames}
        # (the message lists a set: its order varies between processes)
        out["bad_mode"] = catch(lambda: gen.flow_from_directory(d, class_mode="raw"))
        out["bad_color"] = catch(lambda: gen.flow_from_directory(d, color_mode="hsv"))
    return out


def case_fit_on_image_iterators(tf):
    image = tf.keras.preprocessing.image
    seq = tf.keras.preprocessing.sequence
    rng = np.random.RandomState(0)
    x = rng.uniform(size=(10, 1, 3, 1)).astype(np.float32)
    y = rng.uniform(size=(10, 2)).astype(np.float32)
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(1, 3, 1)),
                                 tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    model.set_weights([np.random.RandomState(1).uniform(-0.5, 0.5, w.shape)
                       .astype(np.float32) for w in model.get_weights()])
    model.compile("sgd", "mse")
    flow = image.ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=4, seed=1,
                                                               shuffle=False)
    # shuffle=False: tf-keras shuffles a Sequence's batches with Python's unseeded random.
    h, screen = captured(lambda: model.fit(flow, epochs=2, verbose=2, shuffle=False))
    # tf-keras's enqueuer may prefetch past the end of fit (moving the seeded draws), so
    # evaluate reads an iterator without random transforms.
    plain = image.ImageDataGenerator().flow(x, y, batch_size=4, shuffle=False)
    out = {"history": history(h), "screen": screen,
           "evaluate": model.evaluate(plain, verbose=0)}
    series = np.sin(np.arange(40, dtype=np.float32) / 3).reshape(20, 2)
    ts = seq.TimeseriesGenerator(series, series, length=3, batch_size=5)
    rnn = mlp(tf, inputs=6, outputs=2)
    rnn.compile("sgd", "mse")
    flat = tf.keras.Sequential([tf.keras.layers.Reshape((6,), input_shape=(3, 2)), rnn])
    flat.compile("sgd", "mse")
    h, _ = captured(lambda: flat.fit(ts, epochs=2, verbose=0, shuffle=False))
    out["timeseries_history"] = history(h)
    return out


def case_flow_from_dataframe(tf):
    import pandas as pd
    image = tf.keras.preprocessing.image
    out = {}
    with tempfile.TemporaryDirectory() as d:
        names = []
        for i in range(6):
            names.append(f"im{i}.png")
            image.save_img(os.path.join(d, names[-1]), _image(40 + i, (5, 6, 3)))
        df = pd.DataFrame({"filename": names + ["missing.png", "notes.txt"],
                           "label": ["a", "b", "a", "c", "b", "a", "a", "b"],
                           "pair": [["a", "b"], ["c"], ["a"], ["b", "c"], ["c"], ["a"],
                                    ["a"], ["b"]],
                           "w": np.arange(8, dtype=np.float64) / 2,
                           "t1": np.arange(8, dtype=np.float32),
                           "t2": np.arange(8, dtype=np.float32) * -1})
        gen = image.ImageDataGenerator(rescale=1 / 255.0, vertical_flip=True,
                                       validation_split=0.5)
        runs = {"categorical": dict(y_col="label", weight_col="w"),
                "multilabel": dict(y_col="pair"),
                "sparse_classes": dict(y_col="label", class_mode="sparse",
                                       classes=["b", "a"]),
                "raw": dict(y_col="t1", class_mode="raw"),
                "multi_output": dict(y_col=["t1", "t2"], class_mode="multi_output"),
                "input": dict(class_mode="input", color_mode="grayscale"),
                "none_training": dict(class_mode=None, subset="training"),
                "unvalidated": dict(y_col="label", validate_filenames=False,
                                    class_mode="sparse", shuffle=False)}
        for name, kwargs in runs.items():
            args = dict(directory=d, target_size=(4, 4), batch_size=3, seed=7)
            args.update(kwargs)
            it, screen = captured(lambda: gen.flow_from_dataframe(df, **args))
            entry = {"screen": screen, "filenames": it.filenames, "len": len(it)}
            if name != "unvalidated":
                batch = next(it)
                entry["batch"] = list(batch) if isinstance(batch, tuple) else batch
            out[name] = entry
        binary = df[df.label != "c"]
        it, _ = captured(lambda: gen.flow_from_dataframe(
            binary, d, y_col="label", class_mode="binary", target_size=(2, 2),
            shuffle=False))
        out["binary"] = {"classes": it.classes, "class_indices": it.class_indices,
                         "batch": list(it[0])}
        out["binary_three"] = catch(lambda: gen.flow_from_dataframe(
            df, d, y_col="label", class_mode="binary"), message=True)
        out["not_strings"] = catch(lambda: gen.flow_from_dataframe(
            df, d, x_col="w"), message=True)
        out["multi_output_not_list"] = catch(lambda: gen.flow_from_dataframe(
            df, d, y_col="t1", class_mode="multi_output"), message=True)
        out["weight_not_numeric"] = catch(lambda: gen.flow_from_dataframe(
            df, d, y_col="label", weight_col="label"), message=True)
    return out
