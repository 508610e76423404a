"""Golden cases: tf.keras compile / fit / evaluate / predict in TF1 graph mode (tf-keras's
v1 loop): history values, metric names, progress-bar text (time fields masked), callback
order and logs, sample and class weights, multi-output models, the *_on_batch methods
and the errors of bad data."""

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import (captured, data, history, make_recorder, mlp,
                                     set_weights, weights_of)


@tolerance(rtol=2e-5, atol=1e-6)
def case_fit_history_progbar(tf):
    model = mlp(tf)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae", "acc"])
    x, y = data(10)
    h, screen = captured(lambda: model.fit(x, y, batch_size=4, epochs=3, shuffle=False))
    return {"history": history(h), "screen": screen, "names": model.metrics_names,
            "params": {k: v for k, v in sorted(h.params.items())}, "epoch": h.epoch,
            "weights": weights_of(model),
            "types": sorted({type(v).__name__ for vs in h.history.values() for v in vs})}


@tolerance(rtol=2e-5, atol=1e-6)
def case_fit_shuffle_validation_split_verbose2(tf):
    np.random.seed(3)
    model = mlp(tf, outputs=3, out_activation="softmax")
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    x, y = data(20, classes=3)
    h, screen = captured(lambda: model.fit(x, y, batch_size=5, epochs=2, verbose=2,
                                           validation_split=0.25))
    return {"history": history(h), "screen": screen, "weights": weights_of(model)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_callback_order_and_logs(tf):
    # tf-keras's v1 loop shuffles the validation rows in fit whatever `shuffle` says (its
    # recursive call keeps model_iteration's shuffle=True): seeded, so the batch logs of
    # the validation pass are the same rows on both sides.
    np.random.seed(5)
    model = mlp(tf, outputs=1, out_activation="sigmoid")
    model.compile(tf.keras.optimizers.RMSprop(0.01), "binary_crossentropy",
                  metrics=["acc", "mse"])
    x, y = data(7, outputs=1)
    y = (y > 0).astype(np.float32)
    recorder = make_recorder(tf)()
    model.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False,
              validation_data=(x[:4], y[:4]), callbacks=[recorder])
    fit_events = recorder.events
    recorder.events = []
    model.evaluate(x, y, batch_size=4, verbose=0, callbacks=[recorder])
    eval_events = recorder.events
    recorder.events = []
    model.predict(x, batch_size=4, callbacks=[recorder])
    return {"fit": fit_events, "params": recorder.params_seen, "evaluate": eval_events,
            "predict": recorder.events}


@tolerance(rtol=2e-5, atol=1e-6)
def case_evaluate_predict_verbose(tf):
    model = mlp(tf)
    model.compile("sgd", "mae", metrics=["mse"])
    x, y = data(9)
    result, screen = captured(lambda: model.evaluate(x, y, batch_size=4, verbose=1))
    predicted, predict_screen = captured(lambda: model.predict(x, batch_size=4, verbose=1))
    scalar = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    set_weights(scalar)
    scalar.compile("sgd", "mse")
    only_loss = scalar.evaluate(x, y[:, :1], verbose=0)
    return {"result": result, "screen": screen, "predicted": predicted,
            "predict_screen": predict_screen, "only_loss": only_loss,
            "only_loss_type": type(only_loss).__name__}


@tolerance(rtol=2e-5, atol=1e-6)
def case_multi_output(tf):
    inp = tf.keras.Input((3,), name="features")
    hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inp)
    out_a = tf.keras.layers.Dense(2, name="reg")(hidden)
    out_b = tf.keras.layers.Dense(3, activation="softmax", name="cls")(hidden)
    model = tf.keras.Model(inp, [out_a, out_b])
    set_weights(model, 4)
    model.compile(tf.keras.optimizers.Adam(0.05),
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 0.5, "cls": 2.0},
                  metrics={"reg": ["mae"], "cls": ["acc", "acc"]})
    x, y_a = data(8)
    _, y_b = data(8, classes=3, seed=2)
    h, screen = captured(lambda: model.fit({"features": x}, {"reg": y_a, "cls": y_b},
                                           batch_size=3, epochs=2, shuffle=False))
    evaluated = model.evaluate(x, [y_a, y_b], verbose=0)
    shared = tf.keras.Model(inp, [out_a, tf.keras.layers.Dense(2, name="other")(hidden)])
    shared.compile("sgd", "mse", metrics=["mae"])
    return {"names": model.metrics_names, "history": history(h), "screen": screen,
            "evaluated": evaluated, "shared_names": shared.metrics_names}


@tolerance(rtol=2e-5, atol=1e-6)
def case_sample_and_class_weights(tf):
    model = mlp(tf, outputs=3, out_activation="softmax")
    model.compile(tf.keras.optimizers.SGD(0.2, momentum=0.9), "categorical_crossentropy",
                  metrics=["acc"], weighted_metrics=["acc"])
    x, labels = data(10, classes=3)
    y = tf.keras.utils.to_categorical(labels, 3)
    weights = np.linspace(0.5, 2.0, 10)
    h1 = model.fit(x, y, sample_weight=weights, batch_size=4, epochs=2, verbose=0,
                   shuffle=False)
    h2 = model.fit(x, y, class_weight={0: 1.0, 1: 3.0, 2: 0.5}, batch_size=5, epochs=1,
                   verbose=0, shuffle=False)
    evaluated = model.evaluate(x, y, sample_weight=weights, verbose=0)
    plain = model.evaluate(x, y, verbose=0)
    placeholders = sorted(op.name for op in tf.get_default_graph().get_operations()
                          if op.type in ("Placeholder", "PlaceholderWithDefault"))
    return {"h1": history(h1), "h2": history(h2), "evaluated": evaluated, "plain": plain,
            "names": model.metrics_names, "placeholders": placeholders,
            "weights": weights_of(model)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_on_batch_methods(tf):
    model = mlp(tf)
    model.compile(tf.keras.optimizers.Adagrad(0.1), "mse", metrics=["mae"])
    x, y = data(6)
    first = model.train_on_batch(x, y)
    second = model.train_on_batch(x[:3], y[:3], reset_metrics=False)
    third = model.train_on_batch(x[3:], y[3:], reset_metrics=False)
    tested = model.test_on_batch(x, y)
    predicted = model.predict_on_batch(x[:2])
    loss_only = mlp(tf, seed=5)
    loss_only.compile("sgd", "mse")
    return {"first": first, "second": second, "third": third, "tested": tested,
            "predicted": predicted, "loss_only": loss_only.train_on_batch(x, y),
            "loss_only_type": type(loss_only.train_on_batch(x, y)).__name__}


@tolerance(rtol=5e-5, atol=1e-6)
def case_keras_optimizers(tf):
    x, y = data(8)
    out = {}
    makers = {
        "sgd": lambda: tf.keras.optimizers.SGD(0.1),
        "momentum": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
        "nesterov": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
        "decay": lambda: tf.keras.optimizers.SGD(0.1, decay=0.5),
        "rmsprop": lambda: tf.keras.optimizers.RMSprop(0.01),
        "rmsprop_centered_momentum": lambda: tf.keras.optimizers.RMSprop(
            0.01, momentum=0.5, centered=True),
        "rmsprop_centered": lambda: tf.keras.optimizers.RMSprop(0.01, centered=True),
        "adagrad": lambda: tf.keras.optimizers.Adagrad(0.1),
        "adadelta": lambda: tf.keras.optimizers.Adadelta(1.0),
        "adam": lambda: tf.keras.optimizers.Adam(0.01),
        "amsgrad": lambda: tf.keras.optimizers.Adam(0.01, amsgrad=True),
        "adamax": lambda: tf.keras.optimizers.Adamax(0.01),
        "nadam": lambda: tf.keras.optimizers.Nadam(0.01),
        "ftrl": lambda: tf.keras.optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
        "clipnorm": lambda: tf.keras.optimizers.SGD(0.1, clipnorm=0.5),
        "clipvalue": lambda: tf.keras.optimizers.SGD(0.1, clipvalue=0.05),
    }
    for name, make in makers.items():
        tf.reset_default_graph()
        model = mlp(tf)
        optimizer = make()
        model.compile(optimizer, "mse")
        h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        out[name] = {"loss": history(h)["loss"], "weights": weights_of(model),
                     "variables": [v.name for v in tf.global_variables()],
                     "config": optimizer.get_config(),
                     "optimizer_weights": [w.name for w in optimizer.weights],
                     "iterations": tf.keras.backend.get_value(optimizer.iterations)}
    for name in ("sgd", "rmsprop", "adagrad", "adadelta", "adam", "adamax", "nadam",
                 "ftrl"):
        tf.reset_default_graph()
        model = mlp(tf)
        model.compile(name, "mse")
        out["by_name_" + name] = {"class": type(model.optimizer).__name__,
                                  "config": model.optimizer.get_config()}
    return out


@tolerance(rtol=5e-5, atol=1e-6)
def case_tf_train_optimizer(tf):
    model = mlp(tf)
    model.compile(tf.train.AdamOptimizer(0.01), "mse", metrics=["mae"])
    x, y = data(8)
    h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"history": history(h), "weights": weights_of(model),
            "variables": [v.name for v in tf.global_variables()],
            "type": type(model.optimizer).__name__}


@tolerance(rtol=2e-5, atol=1e-6)
def case_optimizer_hyperparameters(tf):
    model = mlp(tf)
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.5)
    model.compile(opt, "mse")
    x, y = data(8)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    before = tf.keras.backend.get_value(opt.lr)
    tf.keras.backend.set_value(opt.lr, 0.25)
    opt.momentum = 0.75
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    return {"before": before, "lr": tf.keras.backend.get_value(opt.learning_rate),
            "momentum": tf.keras.backend.get_value(opt.momentum),
            "weights": weights_of(model), "opt_weights": opt.get_weights(),
            "config": opt.get_config()}


def case_bad_data_errors(tf):
    model = mlp(tf)
    model.compile("sgd", "mse")
    x, y = data(6)
    return {
        "wrong_rank": catch(lambda: model.fit(x[:, :, None], y, verbose=0), message=True),
        "wrong_dim": catch(lambda: model.fit(x[:, :2], y, verbose=0), message=True),
        "target_dim": catch(lambda: model.fit(x, y[:, :1], verbose=0), message=True),
        "lengths": catch(lambda: model.fit(x, y[:4], verbose=0), message=True),
        "list": catch(lambda: model.fit([x, x], y, verbose=0), message=True),
        "not_compiled": catch(lambda: mlp(tf).fit(x, y, verbose=0), message=True),
        "val_steps": catch(lambda: model.fit(x, y, validation_steps=2, verbose=0),
                           message=True),
        "sample_weight_2d": catch(lambda: model.fit(x, y, sample_weight=np.ones((6, 2)),
                                                    verbose=0), message=True),
        "class_weight_missing": catch(lambda: model.fit(
            x, tf.keras.utils.to_categorical([0, 1, 2, 0, 1, 2], 3)[:, :2],
            class_weight={0: 1.0}, verbose=0), message=True),
        "categorical_1d": catch(lambda: _cce(tf).fit(x, np.ones((6, 1)), verbose=0),
                                message=True),
    }


def _cce(tf):
    model = mlp(tf, outputs=1)
    model.compile("sgd", "categorical_crossentropy")
    return model


@tolerance(rtol=2e-5, atol=1e-6)
def case_unbuilt_sequential_and_subclassed(tf):
    seq = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones"),
                               tf.keras.layers.Dense(1, kernel_initializer="ones")])
    seq.compile("sgd", "mse")
    x, y = data(6, outputs=1)
    h = seq.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False)

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.a = tf.keras.layers.Dense(2, kernel_initializer="ones")
            self.b = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, inputs):
            return self.b(self.a(inputs))

    net = Net()
    net.compile(tf.keras.optimizers.SGD(0.01), "mae", metrics=["mse"])
    h2 = net.fit(x, y, batch_size=6, epochs=2, verbose=0)
    return {"history": history(h), "weights": [w.name for w in seq.weights],
            "inputs": [t.name for t in seq.inputs], "outputs": [t.name for t in seq.outputs],
            "net": history(h2), "net_names": net.metrics_names,
            "net_inputs": [t.name for t in net.inputs],
            "net_output_names": net.output_names,
            "net_weights": [w.name for w in net.weights]}


@tolerance(rtol=2e-5, atol=1e-6)
def case_user_session_and_graph(tf):
    x, y = data(8)
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.keras.backend.set_session(sess)
        model = mlp(tf)
        model.compile("sgd", "mse")
        model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        out = sess.run(model.output, {model.input: x[:2]})
        same = tf.keras.backend.get_session() is sess
    return {"out": out, "same": same}


@tolerance(rtol=2e-5, atol=1e-6)
def case_regularizer_and_add_loss(tf):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(3, input_shape=(3,), kernel_regularizer=tf.keras.regularizers.l2(
            0.1), activity_regularizer=tf.keras.regularizers.l1(0.01)),
        tf.keras.layers.Dense(2)])
    set_weights(model, 7)
    model.compile("sgd", "mse", metrics=["mse"])
    x, y = data(8)
    h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"history": history(h), "evaluate": model.evaluate(x, y, verbose=0)}
