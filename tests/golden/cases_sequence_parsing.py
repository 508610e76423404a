"""Golden cases: batched SequenceExample parsing (`tf.io.parse_sequence_example`) and
multi-value FixedLenSequenceFeature steps in `parse_single_sequence_example`."""

from tests.golden.harness import catch, describe


def _example(tf, steps, c, words=()):
    e = tf.train.SequenceExample()
    e.context.feature["c"].int64_list.value.extend([c])
    e.context.feature["cs"].bytes_list.value.extend([b"x"] * c)
    for i in range(steps):
        e.feature_lists.feature_list["f"].feature.add().float_list.value.extend([i, i + .5])
        e.feature_lists.feature_list["v"].feature.add().int64_list.value.extend(range(i))
    for w in words:
        e.feature_lists.feature_list["w"].feature.add().bytes_list.value.extend([w])
    return e.SerializeToString()


def _features(tf):
    context = {"c": tf.io.FixedLenFeature([], tf.int64, default_value=7),
               "cs": tf.io.VarLenFeature(tf.string)}
    lists = {"f": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
             "v": tf.io.VarLenFeature(tf.int64),
             "w": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)}
    return context, lists


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def case_parse_sequence_example(tf):
    records = [_example(tf, 2, 1, [b"a"]), _example(tf, 3, 2, [b"b", b"cd", b"e"]),
               _example(tf, 0, 0)]
    context, lists = _features(tf)
    c, f, n = tf.io.parse_sequence_example(records, context, lists)
    fed = tf.placeholder(tf.string, [None])
    c2, f2, n2 = tf.io.parse_sequence_example(fed, {"c": context["c"]}, {"f": lists["f"]},
                                             example_names=["e0", "e1"], name="fed")
    bad = tf.io.parse_sequence_example(
        fed, None, {"f": tf.io.FixedLenSequenceFeature([2], tf.float32)},
        example_names=["first", "second"])
    shapes = {k: describe(t) for k, t in
              [("c", c["c"]), ("cs", c["cs"].indices), ("f", f["f"]), ("v", f["v"].indices),
               ("w", f["w"]), ("n", n["f"]), ("fed_c", c2["c"]), ("fed_f", f2["f"]),
               ("fed_n", n2["f"])]}
    single_c, single_f = tf.io.parse_single_sequence_example(records[1], context, lists)
    return {"batch": _run(tf, [c, f, n]), "shapes": shapes,
            "fed": _run(tf, [c2, f2, n2], {fed: records[:2]}),
            "missing": catch(lambda: _run(tf, bad, {fed: [records[0], records[2]]})),
            "single": _run(tf, [single_c, single_f]),
            "scalar": catch(lambda: tf.io.parse_sequence_example(records[0], context, lists),
                            message=True),
            "no_features": catch(lambda: tf.io.parse_sequence_example(records), message=True)}


def case_sequence_parsing_op_names(tf):
    """The graph TF builds: the dense defaults' Const in the ParseSequenceExample scope,
    then debug_name and the keys converted in the ParseSequenceExampleV2 op's scope."""
    context, lists = _features(tf)
    one = tf.placeholder(tf.string, [], name="one")
    many = tf.placeholder(tf.string, [None], name="many")
    tf.io.parse_single_sequence_example(one, context, lists, example_name="ex")
    tf.io.parse_sequence_example(many, {"c": context["c"]}, {"f": lists["f"]},
                                 example_names=["e0", "e1"])
    return [(op.name, op.type) for op in tf.get_default_graph().get_operations()]
