"""Golden cases: `tf.contrib.training.HParams.to_proto` / `from_proto` and `HParamDef`.

Under the oracle these are TF 1.15's contrib/training/python/training/hparam.py with its
generated hparam_pb2 rebuilt from the serialized schema (scripts/oracle_contrib.py,
`tf115_package`, `tf115_message_module`), run under TF 2.21."""


_ORACLE = []


def _training(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.training
    if _ORACLE:  # hparam.py registers its proto functions once per process
        return _ORACLE[0]
    import oracle_contrib
    messages = oracle_contrib.tf115_message_module(
        "contrib/training/python/training/hparam_pb2.py", ["HParamDef"])
    module = oracle_contrib.tf115_package(
        "contrib.training.python.training", ["hparam"],
        stubs={"tensorflow.contrib.training.python.training": {"hparam_pb2": messages}})
    module.HParamDef = messages.HParamDef
    _ORACLE.append(module)
    return module


def _entries(proto):
    """Each hparam's oneof field and its serialized entry, by name (map order is the
    runtime's, so the whole message's bytes are not compared)."""
    return {name: [value.WhichOneof("kind"), value.SerializeToString()]
            for name, value in sorted(proto.hparam.items())}


def case_to_proto(tf):
    training = _training(tf)
    hparams = training.HParams(learning_rate=0.25, layers=[64, 32], name="adam",
                               use_bias=True, flags=[True, False], rates=[0.5, 1.5],
                               tags=["a", "bc"], steps=7, raw=b"\x01\x02")
    proto = hparams.to_proto()
    restored = training.HParams.from_proto(proto)
    again = training.HParams(hparam_def=training.HParamDef.FromString(
        proto.SerializeToString()))
    return {"type": type(proto).DESCRIPTOR.full_name, "entries": _entries(proto),
            "values": sorted(restored.values().items()),
            "types": sorted((k, type(v).__name__) for k, v in again.values().items()),
            "list_types": sorted((k, [type(x).__name__ for x in v])
                                 for k, v in again.values().items() if isinstance(v, list)),
            "size": proto.ByteSize()}


def case_from_handmade_proto(tf):
    training = _training(tf)
    proto = training.HParamDef()
    proto.hparam["n"].int64_value = 3
    proto.hparam["lr"].float_value = 0.1
    proto.hparam["s"].bytes_value = b"text"
    proto.hparam["ok"].bool_value = False
    proto.hparam["ids"].int64_list.value.extend([1, 2, 3])
    proto.hparam["words"].bytes_list.value.extend([b"x", b"yz"])
    hparams = training.HParams(hparam_def=proto)
    hparams.parse("n=5,words=[p,q,r]")
    return {"values": sorted(hparams.values().items()),
            "entries": _entries(hparams.to_proto())}


def case_proto_errors(tf):
    training = _training(tf)
    errors = []
    proto = training.HParams(a=1).to_proto()
    for attempt in [lambda: training.HParams(hparam_def=proto, b=2),
                    lambda: training.HParams(a=None).to_proto(),
                    lambda: training.HParams(a=[{"x": 1}]).to_proto()]:
        try:
            attempt()
            errors.append(None)
        except (ValueError, TypeError, AttributeError) as e:
            errors.append([type(e).__name__, str(e)])
    return errors


def case_hparams_collection_in_meta_graph(tf):
    training = _training(tf)
    with tf.Graph().as_default() as g:
        tf.add_to_collection("hparams", training.HParams(batch=16, lr=0.5))
        meta = tf.train.export_meta_graph(graph=g)
    collection = meta.collection_def["hparams"]
    return {"kind": collection.WhichOneof("kind"),
            "entries": [_entries(training.HParamDef.FromString(b))
                        for b in collection.bytes_list.value]}
