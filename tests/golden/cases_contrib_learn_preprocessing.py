"""Golden cases: `tf.contrib.learn.preprocessing` (VocabularyProcessor and its
vocabularies). TF 2.x has no contrib: the oracle is TF 1.15's own preprocessing modules,
executed under TF 2.21 (scripts/oracle_contrib.py, `tf115_package`)."""

import numpy as np


def _preprocessing(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.learn.preprocessing
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.learn.python.learn.preprocessing",
                                        ["categorical_vocabulary", "text", "categorical"])


_DOCS = ["I like cats and dogs", "CamelCase words and HTTPServer", "dogs like dogs",
         "a very long document with many many words in it indeed", "unknown", ""]


def case_vocabulary_processor(tf):
    pre = _preprocessing(tf)
    vp = pre.VocabularyProcessor(6)
    x = np.array(list(vp.fit_transform(_DOCS)))
    return {"x": x, "size": len(vp.vocabulary_),
            "unseen": np.array(list(vp.transform(["dogs and birds", "", "I I I"]))),
            "reverse": list(vp.reverse(x[:3])),
            "tokens": list(pre.tokenizer(["HTTPServer's CamelCase-ish x_y  ABCd naïve"]))}


def case_vocabulary_processor_min_frequency(tf):
    pre = _preprocessing(tf)
    vp = pre.VocabularyProcessor(4, min_frequency=1)
    x = np.array(list(vp.fit_transform(_DOCS * 2 + ["zebra zebra zebra"])))
    return {"x": x, "size": len(vp.vocabulary_),
            "words": [vp.vocabulary_.reverse(i) for i in range(len(vp.vocabulary_))]}


def case_categorical_vocabulary_trim(tf):
    pre = _preprocessing(tf)
    out = {}
    for min_f, max_f in ((1, -1), (0, 3), (0, -1)):
        v = pre.CategoricalVocabulary()
        for w in ["x", "y", "y", "z", "z", "z", "w", "w", "w", "q"]:
            v.add(w)
        v.trim(min_f, max_f)
        out[f"{min_f}_{max_f}"] = {"ids": [v.get(k) for k in "qwxyz"], "len": len(v),
                                    "reverse": [v.reverse(i) for i in range(len(v))]}
    frozen = pre.CategoricalVocabulary(unknown_token="?", support_reverse=False)
    frozen.add("a")
    frozen.freeze()
    out["frozen"] = [frozen.get("a"), frozen.get("b"), len(frozen)]
    try:
        frozen.reverse(0)
    except ValueError as e:
        out["no_reverse"] = str(e)
    return out


def case_byte_and_categorical_processors(tf):
    pre = _preprocessing(tf)
    bp = pre.ByteProcessor(6)
    b = np.array(list(bp.transform(["héllo world", b"ab", ""])))
    cp = pre.CategoricalProcessor()
    rows = [["a", 1], ["b", float("nan")], ["a", 2], ["c", 1]]
    c = np.array(list(cp.fit_transform(rows)))
    shared = pre.CategoricalProcessor(share=True)
    s = np.array(list(shared.fit_transform([["a", "b"], ["b", "c"]])))
    # (ByteProcessor.reverse: TF 1.15's calls ndarray.tostring, gone from numpy 2: see
    # tests/test_contrib_learn_preprocessing.py)
    return {"bytes": b, "categorical": c,
            "unseen": np.array(list(cp.transform([["z", 2]]))), "shared": s}
