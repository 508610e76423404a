"""tf.contrib.learn.preprocessing beyond the goldens (tests/golden/
cases_contrib_learn_preprocessing.py): save/restore, pickles naming TF 1.x's module
paths, ByteProcessor.reverse, and the text-classification tutorial pattern."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np

import tf1compat as tf

pre = tf.contrib.learn.preprocessing


def test_save_and_restore_round_trip(tmp_path):
    vp = pre.VocabularyProcessor(5, min_frequency=0)
    x = np.array(list(vp.fit_transform(["a b c", "b c d e f g"])))
    path = str(tmp_path / "vocab")
    vp.save(path)
    back = pre.VocabularyProcessor.restore(path)
    assert np.array_equal(np.array(list(back.transform(["a b c", "b c d e f g"]))), x)
    assert len(back.vocabulary_) == len(vp.vocabulary_) == 8   # 7 words and <UNK>


def test_a_processor_pickled_by_tf1_loads_under_the_shim(tmp_path):
    # TF 1.x's pickle names TF's module paths: write one so (the classes' and the
    # tokenizer's __module__ set to TF's), then load it in a fresh process.
    path = str(tmp_path / "vocab.pkl")
    write = textwrap.dedent(f"""
        import pickle, tf1compat
        tf1compat.install()
        from tensorflow.contrib import learn
        pre = learn.preprocessing
        for obj in (pre.VocabularyProcessor, pre.CategoricalVocabulary, pre.tokenizer):
            obj.__module__ = "tensorflow.contrib.learn.python.learn.preprocessing.text"
        vp = pre.VocabularyProcessor(3)
        list(vp.fit_transform(["x y", "y z"]))
        data = pickle.dumps(vp)
        assert b"tensorflow.contrib.learn.python.learn.preprocessing.text" in data
        assert b"tf1compat" not in data
        open({path!r}, "wb").write(data)
    """)
    read = textwrap.dedent(f"""
        import tf1compat
        tf1compat.install()
        from tensorflow.contrib import learn
        vp = learn.preprocessing.VocabularyProcessor.restore({path!r})
        print(list(vp.transform(["z y x w"]))[0].tolist())
    """)
    for code in (write, read):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("\n")[-1] == "[3, 2, 1]"


# A stand-in for TF 1.x's preprocessing modules: classes of TF's names and module paths
# (plain pickle.loads/dumps there is what TF 1.x's restore/save do).
_FAKE_TF1 = textwrap.dedent("""
    import pickle, sys, types
    PKG = "tensorflow.contrib.learn.python.learn.preprocessing"
    for name in ["tensorflow", "tensorflow.contrib", "tensorflow.contrib.learn",
                 "tensorflow.contrib.learn.python", "tensorflow.contrib.learn.python.learn",
                 PKG, PKG + ".text", PKG + ".categorical_vocabulary"]:
        sys.modules[name] = types.ModuleType(name)
    text, cv = sys.modules[PKG + ".text"], sys.modules[PKG + ".categorical_vocabulary"]
    class VocabularyProcessor: pass
    class CategoricalVocabulary: pass
    def tokenizer(it):
        for v in it:
            yield v.split()
    for obj, mod in [(VocabularyProcessor, text), (CategoricalVocabulary, cv),
                     (tokenizer, text)]:
        obj.__module__ = mod.__name__
        setattr(mod, obj.__name__, obj)
""")


def _run(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().split("\n")[-1]


def test_save_writes_the_pickle_tf1_restores(tmp_path):
    # eval.py under TF 1.x on a run trained here: TF's restore (plain pickle.loads)
    # must find its own classes; the file names no tf1compat module.
    vp = pre.VocabularyProcessor(4)
    list(vp.fit_transform(["x y", "y z"]))
    path = str(tmp_path / "vocab")
    vp.save(path)
    assert b"tf1compat" not in open(path, "rb").read()
    read = _FAKE_TF1 + textwrap.dedent(f"""
        vp = pickle.loads(open({path!r}, "rb").read())
        voc = vp.vocabulary_
        print(type(vp) is VocabularyProcessor, type(voc) is CategoricalVocabulary,
              vp._tokenizer is tokenizer, vp.max_document_length, vp.min_frequency,
              voc._mapping, voc._reverse_mapping, dict(voc._freq), voc._freeze)
    """)
    assert _run(read) == ("True True True 4 0 {'<UNK>': 0, 'x': 1, 'y': 2, 'z': 3} "
                          "['<UNK>', 'x', 'y', 'z'] {'x': 1, 'y': 2, 'z': 1} True")


def test_restore_reads_tf1_pickles_without_install(tmp_path):
    # A pickle as TF 1.x writes it (GLOBAL references to its module paths), restored
    # with `import tf1compat as tf` alone: the paths resolve to tf1compat's classes.
    path = str(tmp_path / "vocab")
    write = _FAKE_TF1 + textwrap.dedent(f"""
        import collections
        voc = CategoricalVocabulary()
        voc.__dict__.update(_unknown_token="<UNK>", _mapping={{"<UNK>": 0, "b": 1, "a": 2}},
                            _support_reverse=True, _reverse_mapping=["<UNK>", "b", "a"],
                            _freq=collections.defaultdict(int, b=2, a=1), _freeze=True)
        vp = VocabularyProcessor()
        vp.__dict__.update(max_document_length=3, min_frequency=0, vocabulary_=voc,
                           _tokenizer=tokenizer)
        open({path!r}, "wb").write(pickle.dumps(vp))
        print("ok")
    """)
    assert _run(write) == "ok"
    back = pre.VocabularyProcessor.restore(path)
    assert type(back) is pre.VocabularyProcessor
    assert type(back.vocabulary_) is pre.CategoricalVocabulary
    assert back._tokenizer is pre.tokenizer
    assert [r.tolist() for r in back.transform(["a b c d"])] == [[2, 1, 0]]


def test_byte_processor_reverse():
    bp = pre.ByteProcessor(4)
    rows = list(bp.transform(["hé", "abcdef", b"\xff"]))
    assert list(bp.reverse(rows)) == ["hé", "abcd", ""]


def test_text_classification_pattern():
    # dennybritz/cnn-text-classification-tf: fit on all texts, feed the id matrix.
    texts = ["good movie", "bad movie", "good good film"]
    max_len = max(len(t.split(" ")) for t in texts)
    vp = pre.VocabularyProcessor(max_len)
    x = np.array(list(vp.fit_transform(texts)))
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int32, [None, max_len])
        emb = tf.Variable(tf.random_uniform([len(vp.vocabulary_), 4], -1.0, 1.0))
        pooled = tf.reduce_max(tf.nn.embedding_lookup(emb, ids), axis=1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(pooled, {ids: x}).shape == (3, 4)
    assert x.tolist() == [[1, 2, 0], [3, 2, 0], [1, 1, 4]]
