"""Golden cases: `tf.contrib.text` skip-gram sampling. TF 2.21 has no
SkipGramGenerateCandidates kernel: the oracle is TF 1.15's skip_gram_ops.py under TF
2.21 with a stand-in for the op that covers fixed windows (min_skips == max_skips) only
(scripts/oracle_contrib.py, `tf115_skip_gram`); vocabulary filtering, subsampling with
seeded random draws, batching and argument errors are TF 1.15's Python on TF's ops."""

import os
import tempfile

import numpy as np

_WORDS = [b"the", b"quick", b"brown", b"fox", b"jumps", b"over", b"the", b"lazy", b"dog"]


def _text(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.text
    import oracle_contrib
    return oracle_contrib.tf115_skip_gram(tf)


def case_fixed_windows(tf):
    text = _text(tf)
    out = {}
    with tf.Graph().as_default():
        words = tf.constant(_WORDS)
        ids = tf.constant(np.arange(10, 17, dtype=np.int64))
        runs = {"two": text.skip_gram_sample(words, min_skips=2, max_skips=2),
                "slice_self": text.skip_gram_sample(words, min_skips=1, max_skips=1, start=2,
                                                    limit=4, emit_self_as_target=True),
                "self_only": text.skip_gram_sample(ids, min_skips=0, max_skips=0,
                                                   emit_self_as_target=True),
                "none": text.skip_gram_sample(ids, min_skips=0, max_skips=0),
                "past_end": text.skip_gram_sample(ids, min_skips=3, max_skips=3, start=4,
                                                  limit=10)}
        with tf.Session() as sess:
            for key, pair in runs.items():
                tokens, labels = sess.run(pair)
                out[key] = {"tokens": tokens, "labels": labels, "dtype": str(tokens.dtype)}
    return out


def _vocab_file(directory):
    path = os.path.join(directory, "vocab.csv")
    with open(path, "w") as f:
        f.write("the,fr,40\nquick,en,3\nbrown,en,1\nfox,en,9\nover,x,12\ndog,y,2\nlazy,z,5\n")
    return path


def case_text_vocab_filter_and_subsample(tf):
    text = _text(tf)
    out = {}
    with tempfile.TemporaryDirectory() as directory:
        path = _vocab_file(directory)
        with tf.Graph().as_default():
            tf.set_random_seed(42)
            words = tf.constant(_WORDS * 6)
            filtered = text.skip_gram_sample_with_text_vocab(
                words, path, vocab_token_index=0, vocab_freq_index=2, vocab_min_count=3,
                min_skips=1, max_skips=1)
            sampled = text.skip_gram_sample_with_text_vocab(
                words, path, vocab_freq_index=2, vocab_min_count=2, vocab_subsampling=0.05,
                min_skips=1, max_skips=1, seed=7)
            sized = text.skip_gram_sample_with_text_vocab(
                words, path, vocab_freq_index=2, vocab_subsampling=0.1, corpus_size=100,
                min_skips=2, max_skips=2, emit_self_as_target=True, seed=3)
            with tf.Session() as sess:
                sess.run(tf.tables_initializer())
                out["filtered"] = sess.run(filtered)
                out["sampled"] = [sess.run(sampled) for _ in range(3)]
                out["sized"] = sess.run(sized)
    return out


def case_batched_pairs(tf):
    text = _text(tf)
    with tf.Graph().as_default():
        tokens, labels = text.skip_gram_sample(tf.constant(_WORDS), min_skips=1, max_skips=1,
                                               batch_size=4)
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            batches = [sess.run([tokens, labels]) for _ in range(3)]
            coord.request_stop()
            sess.run(tokens.graph.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
                     .cancel_op)
            coord.join(threads)
    return {"batches": batches, "shape": tokens.shape.as_list()}


def case_argument_errors(tf):
    text = _text(tf)
    out = {}
    words = tf.constant(_WORDS)
    calls = {
        "min_count_without_table": lambda: text.skip_gram_sample(words, vocab_min_count=1),
        "subsampling_without_corpus": lambda: text.skip_gram_sample(
            words, vocab_freq_table=object(), vocab_subsampling=0.1),
        "table_not_initializable": lambda: text.skip_gram_sample(
            words, vocab_freq_table=object(), vocab_min_count=1),
        "same_columns": lambda: text.skip_gram_sample_with_text_vocab(
            words, "unused", vocab_token_index=1, vocab_freq_index=1),
        "negative_column": lambda: text.skip_gram_sample_with_text_vocab(
            words, "unused", vocab_token_index=-1),
    }
    with tempfile.TemporaryDirectory() as directory:
        path = _vocab_file(directory)
        calls["column_out_of_range"] = lambda: text.skip_gram_sample_with_text_vocab(
            words, path, vocab_freq_index=3)
        calls["corpus_too_small"] = lambda: text.skip_gram_sample_with_text_vocab(
            words, path, vocab_freq_index=2, corpus_size=10)
        calls["subsampling_out_of_range"] = lambda: text.skip_gram_sample_with_text_vocab(
            words, path, vocab_freq_index=2, vocab_subsampling=1.5)
        for key, call in calls.items():
            try:
                call()
                out[key] = "no error"
            except ValueError as e:
                out[key] = str(e).replace(directory, "<dir>")
    return out
