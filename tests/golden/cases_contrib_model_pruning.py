"""Golden cases: `tf.contrib.model_pruning`. TF 2.x has no contrib: the oracle is TF 1.15's
contrib/model_pruning/python package (layers/core_layers.py, layers/layers.py,
pruning_utils.py, pruning.py, strip_pruning_vars_lib.py) run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_absolute_package`), with
TF 1.15's contrib HParams and model_variable; contrib's xavier initializer is stood in by
glorot_uniform (the cases pass their own initializers). The masked layers' graphs (names,
types, inputs), variables and collections, the masks, thresholds and sparsity of pruning
steps over a schedule (element-wise and block pruning, per-weight sparsity), the checks on
the hparams, the summaries and the stripped GraphDef are recorded."""

import numpy as np

from tests.golden.harness import catch

_ORACLE = []


def _pruning(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.model_pruning
    if _ORACLE:
        return _ORACLE[0]
    import functools
    import sys
    import types

    import oracle_contrib
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import variable_scope
    messages = oracle_contrib.tf115_message_module(
        "contrib/training/python/training/hparam_pb2.py", ["HParamDef"])
    hparam = oracle_contrib.tf115_package(
        "contrib.training.python.training", ["hparam"],
        stubs={"tensorflow.contrib.training.python.training": {"hparam_pb2": messages}})
    variables = oracle_contrib.tf115_functions(
        "contrib/framework/python/ops/variables.py", ["variable", "model_variable"],
        {"ops": ops, "variable_scope": variable_scope, "functools": functools,
         "dtypes": tf.dtypes, "variables": types.SimpleNamespace(
             VariableSynchronization=tf.VariableSynchronization,
             VariableAggregation=tf.VariableAggregation)})

    def collect_named_outputs(collections, alias, outputs):
        if collections:
            tf.add_to_collections(collections, outputs)
        return outputs

    stubs = {
        "tensorflow.contrib.framework.python.ops": {
            "add_arg_scope": lambda fn: fn, "variables": types.SimpleNamespace(**variables)},
        "tensorflow.contrib.layers.python.layers": {
            "initializers": types.SimpleNamespace(
                xavier_initializer=tf.glorot_uniform_initializer),
            "utils": types.SimpleNamespace(
                collect_named_outputs=collect_named_outputs,
                get_variable_collections=oracle_contrib.get_variable_collections)},
        "tensorflow.contrib.training.python.training": {
            "hparam": types.SimpleNamespace(HParams=hparam.HParams)}}
    for name, attrs in stubs.items():
        vars(sys.modules.setdefault(name, types.ModuleType(name))).update(attrs)
    layers = oracle_contrib.tf115_absolute_package("contrib.model_pruning.python.layers",
                                                   ["core_layers", "layers"])
    package = oracle_contrib.tf115_absolute_package(
        "contrib.model_pruning.python", ["pruning_utils", "pruning", "strip_pruning_vars_lib"])
    out = types.SimpleNamespace(**{k: v for k, v in vars(package.pruning).items()
                                   if not k.startswith("_")})
    out.masked_conv2d = layers.layers.masked_conv2d
    out.masked_fully_connected = layers.layers.masked_fully_connected
    out.strip_pruning_vars_fn = package.strip_pruning_vars_lib.strip_pruning_vars_fn
    out.masked_layers = layers.core_layers
    _ORACLE.append(out)
    return out


def _graph_ops(graph):
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in graph.get_operations()]


def _collections(tf, mp):
    return {"masks": [v.name for v in mp.get_masks()],
            "thresholds": [v.name for v in mp.get_thresholds()],
            "weights": [v.name for v in mp.get_weights()],
            "masked_weights": [t.name for t in mp.get_masked_weights()],
            "model_variables": [v.name for v in tf.model_variables()],
            "trainable": [v.name for v in tf.trainable_variables()],
            "global": [v.name for v in tf.global_variables()]}


def _images(seed=0, shape=(2, 6, 6, 3)):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def case_masked_layers_graph(tf):
    mp = _pruning(tf)
    graph = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [2, 6, 6, 3], name="x")
    y = mp.masked_conv2d(x, 4, 3, weights_initializer=tf.random_normal_initializer(seed=1))
    y = mp.masked_conv2d(y, 2, [3, 2], stride=2, padding="VALID", activation_fn=None,
                         weights_initializer=tf.random_normal_initializer(seed=2),
                         biases_initializer=tf.constant_initializer(0.5), scope="conv2")
    z = mp.masked_fully_connected(tf.reshape(y, [2, -1]), 5,
                                  weights_initializer=tf.random_normal_initializer(seed=3))
    w = mp.masked_fully_connected(z, 3, activation_fn=tf.nn.tanh, biases_initializer=None,
                                  weights_initializer=tf.random_normal_initializer(seed=4),
                                  scope="logits")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        masks = mp.get_masks()
        sess.run(masks[0].assign(tf.cast(tf.random_uniform(masks[0].shape, seed=5) > 0.5,
                                         tf.float32)))
        values = sess.run([y, z, w], {x: _images()})
    return {"ops": _graph_ops(graph), "collections": _collections(tf, mp),
            "shapes": [t.shape.as_list() for t in (y, z, w)], "values": values}


def case_masked_layer_classes(tf):
    mp = _pruning(tf)
    x = tf.placeholder(tf.float32, [2, 5, 5, 2], name="x")
    conv = mp.masked_layers.MaskedConv2D(3, 2, padding="same", use_bias=True,
                                         kernel_initializer=tf.ones_initializer(),
                                         name="mconv")
    y = conv.apply(x)
    dense = mp.masked_layers.MaskedFullyConnected(
        4, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.1),
        name="mdense")
    z = dense.apply(tf.reshape(y, [2, 5, 15]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y, z], {x: _images(1, (2, 5, 5, 2))})
    # tf.tensordot's insides (TF: Reshape, MatMul, Reshape) are tf1compat's one Einsum
    ops = [op for op in _graph_ops(tf.get_default_graph()) if "/Tensordot" not in op[0]]
    return {"ops": ops, "collections": _collections(tf, mp),
            "conv": [conv.mask.name, conv.kernel.name, conv.threshold.name, conv.bias.name,
                     conv.masked_kernel.name],
            "dense": [dense.mask.name, dense.kernel.name, dense.threshold.name,
                      dense.bias.name, dense.masked_kernel.name],
            "z_shape": z.shape.as_list(), "values": values}


def case_apply_mask(tf):
    mp = _pruning(tf)
    with tf.variable_scope("layer"):
        w = tf.get_variable("w", [4, 3], initializer=tf.random_normal_initializer(seed=6))
    masked = mp.apply_mask(w)
    again = catch(lambda: mp.apply_mask(w))
    scoped = mp.apply_mask(w, scope="other")
    with tf.variable_scope("other", reuse=True):
        shared = mp.apply_mask(w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([masked, scoped, shared])
    return {"ops": _graph_ops(tf.get_default_graph()), "collections": _collections(tf, mp),
            "names": [masked.name, scoped.name, shared.name], "again": again,
            "values": values}


def _train_with_pruning(tf, mp, hparams, steps, build=None, sparsity=None, fetch=None):
    """Weights of a few shapes (or `build(rng)`'s), one pruning object; at each step the
    conditional mask update runs, then the global step increments. Returns per step
    `fetch(pruning)`'s values (default: the masks, thresholds, last update step and
    sparsity)."""
    rng = np.random.RandomState(7)
    if build is None:
        with tf.variable_scope("conv1"):
            w1 = tf.get_variable("weights", [3, 3, 2, 4], initializer=tf.constant_initializer(
                rng.randn(3, 3, 2, 4).astype(np.float32)))
        with tf.variable_scope("fc1"):
            w2 = tf.get_variable("weights", [6, 8], initializer=tf.constant_initializer(
                rng.randn(6, 8).astype(np.float32)))
        mp.apply_mask(w1, "conv1")
        mp.apply_mask(w2, "fc1")
    else:
        build(rng)
    global_step = tf.train.get_or_create_global_step()
    p = mp.Pruning(mp.get_pruning_hparams().parse(hparams), global_step=global_step,
                   sparsity=sparsity)
    update = p.conditional_mask_update_op()
    increment = tf.assign_add(global_step, 1)
    if fetch is None:
        def fetch(p):
            return {"masks": mp.get_masks(), "thresholds": mp.get_thresholds(),
                    "last": p._last_update_step, "sparsity": p._sparsity,
                    "weight_sparsity": mp.get_weight_sparsity()}
    fetches = fetch(p)
    history = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(steps):
            sess.run(update)
            history.append(sess.run(fetches))
            sess.run(increment)
    return history


def case_pruning_schedule(tf):
    mp = _pruning(tf)
    return _train_with_pruning(
        tf, mp, "begin_pruning_step=1,end_pruning_step=7,pruning_frequency=2,"
        "target_sparsity=0.75,initial_sparsity=0.1,sparsity_function_begin_step=1,"
        "sparsity_function_end_step=6,sparsity_function_exponent=2.0,threshold_decay=0.5",
        steps=9)


def case_pruning_weight_sparsity_map(tf):
    mp = _pruning(tf)
    return _train_with_pruning(
        tf, mp, "pruning_frequency=1,target_sparsity=0.5,sparsity_function_end_step=3,"
        "weight_sparsity_map=[fc1:0.25]", steps=4)


def case_block_pruning(tf):
    mp = _pruning(tf)

    def build(rng):
        for name, shape in [("avg", [8, 6]), ("conv", [1, 1, 6, 5]), ("odd", [5, 7])]:
            with tf.variable_scope(name):
                w = tf.get_variable("weights", shape, initializer=tf.constant_initializer(
                    rng.randn(*shape).astype(np.float32)))
            mp.apply_mask(w, name)
    out = {"avg": _train_with_pruning(
        tf, mp, "pruning_frequency=1,target_sparsity=0.5,sparsity_function_end_step=2,"
        "block_height=2,block_width=3,block_dims_map=[odd:2x2]", steps=3, build=build)}
    with tf.Graph().as_default():
        out["max"] = _train_with_pruning(
            tf, mp, "pruning_frequency=1,target_sparsity=0.6,sparsity_function_end_step=2,"
            "block_height=-1,block_width=2,block_pooling_function=MAX", steps=3,
            build=build)
    return out


def case_pruning_external_sparsity_and_mask_update_op(tf):
    mp = _pruning(tf)
    sparsity = tf.Variable(0.3, name="ConstantSparsity")
    out = {"history": _train_with_pruning(tf, mp, "pruning_frequency=3", steps=4,
                                          sparsity=sparsity)}
    with tf.Graph().as_default():
        with tf.variable_scope("w"):
            w = tf.get_variable("weights", [4, 4], initializer=tf.constant_initializer(
                np.arange(16, dtype=np.float32).reshape(4, 4) - 7.5))
        mp.apply_mask(w, "w")
        step = tf.Variable(5, name="step")
        p = mp.Pruning(mp.get_pruning_hparams().parse("name=prune,target_sparsity=0.4"),
                       global_step=step)
        op = p.mask_update_op()
        out["op"] = [op.name, op.type, sorted(c.name for c in op.control_inputs)]
        out["second"] = catch(lambda: p._get_mask_assign_ops())
        out["ops"] = _graph_ops(tf.get_default_graph())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(op)
            out["after"] = sess.run([mp.get_masks(), mp.get_thresholds(),
                                     p._last_update_step])
    return out


def case_hparams_and_checks(tf):
    mp = _pruning(tf)
    hp = mp.get_pruning_hparams()
    out = {"defaults": sorted((k, str(v)) for k, v in hp.values().items())}
    tf.train.get_or_create_global_step()
    for text in ["begin_pruning_step=-1", "begin_pruning_step=5,end_pruning_step=3",
                 "sparsity_function_begin_step=-2", "sparsity_function_end_step=0",
                 "threshold_decay=1.0", "initial_sparsity=1.0", "target_sparsity=-0.1",
                 "weight_sparsity_map=[a:1.5]", "block_dims_map=[a:2x2x2]",
                 "begin_pruning_step=5,end_pruning_step=-1"]:
        def build(text=text):
            with tf.Graph().as_default():
                tf.train.get_or_create_global_step()
                mp.Pruning(mp.get_pruning_hparams().parse(text))
                return "ok"
        out[text] = catch(build, message=True)
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        with tf.variable_scope("a"):
            w = tf.get_variable("w", [4, 4])
        mp.apply_mask(w, "a")
        with tf.variable_scope("ab"):
            w = tf.get_variable("w", [4, 4])
        mp.apply_mask(w, "ab")
        p = mp.Pruning(mp.get_pruning_hparams().parse("weight_sparsity_map=[a:0.3,b:0.2]"))
        out["multiple"] = catch(p.mask_update_op, message=True)
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        with tf.variable_scope("a"):
            w = tf.get_variable("w", [4, 4])
        mp.apply_mask(w, "a")
        p = mp.Pruning(mp.get_pruning_hparams().parse(
            "block_height=2,block_pooling_function=MIN"))
        out["pooling"] = catch(p.mask_update_op, message=True)
    return out


def case_pruning_summaries_and_shared_step(tf):
    mp = _pruning(tf)
    tf.train.get_or_create_global_step()
    with tf.variable_scope("fc"):
        w = tf.get_variable("weights", [3, 3])
    mp.apply_mask(w, "fc")
    p = mp.Pruning()
    p.add_pruning_summaries()
    again = mp.Pruning()
    summaries = tf.get_collection(tf.GraphKeys.SUMMARIES)
    return {"summaries": [[s.name, s.op.type, s.op.inputs[0].op.name] for s in summaries],
            "last_update_steps": [p._last_update_step.name, again._last_update_step.name],
            "sparsity": [p._sparsity.name, again._sparsity.name],
            "variables": [v.name for v in tf.global_variables()]}


def case_strip_pruning_vars(tf):
    mp = _pruning(tf)
    x = tf.placeholder(tf.float32, [2, 6, 6, 3], name="x")
    y = mp.masked_conv2d(x, 4, 3, weights_initializer=tf.random_normal_initializer(seed=1))
    z = mp.masked_fully_connected(tf.reshape(y, [2, -1]), 5,
                                  weights_initializer=tf.random_normal_initializer(seed=3))
    tf.identity(z, name="out")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for mask, seed in zip(mp.get_masks(), (8, 9)):
            sess.run(mask.assign(tf.cast(tf.random_uniform(mask.shape, seed=seed) > 0.4,
                                         tf.float32)))
        frozen = tf.graph_util.convert_variables_to_constants(
            sess, tf.get_default_graph().as_graph_def(), ["out"])
        expected = sess.run("out:0", {"x:0": _images(2)})
    stripped = mp.strip_pruning_vars_fn(frozen, ["out"])
    nodes = [[n.name, n.op, list(n.input)] for n in stripped.node]
    with tf.Graph().as_default():
        tf.import_graph_def(stripped, name="")
        with tf.Session() as sess:
            got = sess.run("out:0", {"x:0": _images(2)})
    return {"nodes": nodes, "expected": expected, "stripped": got}
