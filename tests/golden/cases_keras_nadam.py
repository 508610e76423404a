"""Golden cases: tf-keras's legacy `Nadam` (what `tf.keras.optimizers.Nadam` is under TF1
behaviour) step by step: its momentum-cache schedule (`momentum_cache` weight, the
`schedule_decay` powers of 0.96), the `m`/`v` slots and the variables after each batch,
for dense and sparse (Embedding) gradients."""

import numpy as np

from tests.golden.harness import tolerance
from tests.golden.keras_util import data, mlp, set_weights


def _steps(tf, model, optimizer, batches):
    """Per `train_on_batch`: the loss, every variable, the momentum cache and the
    optimizer's iteration count."""
    sess = tf.keras.backend.get_session()
    out = []
    for x, y in batches:
        loss = model.train_on_batch(x, y)
        out.append({"loss": np.float64(loss),
                    "weights": [np.asarray(w, np.float64) for w in model.get_weights()],
                    "optimizer": [np.asarray(w, np.float64) for w in
                                  sess.run(optimizer.weights)]})
    return out


@tolerance(rtol=2e-5, atol=1e-6)
def case_nadam_dense_per_step(tf):
    x, y = data(20)
    batches = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 20, 4)]
    out = {}
    for name, make in (("default", lambda: tf.keras.optimizers.Nadam()),
                       ("tuned", lambda: tf.keras.optimizers.Nadam(
                           learning_rate=0.05, beta_1=0.8, beta_2=0.95, epsilon=1e-4,
                           schedule_decay=0.05)),
                       ("clipnorm", lambda: tf.keras.optimizers.Nadam(0.02, clipnorm=0.1))):
        tf.reset_default_graph()
        model = mlp(tf, seed=3)
        optimizer = make()
        model.compile(optimizer, "mse")
        out[name] = {"steps": _steps(tf, model, optimizer, batches),
                     "weight_names": [w.name for w in optimizer.weights],
                     "config": optimizer.get_config()}
    return out


@tolerance(rtol=2e-5, atol=1e-6)
def case_nadam_sparse_per_step(tf):
    L = tf.keras.layers
    model = tf.keras.Sequential([L.Embedding(6, 3, input_length=2), L.Flatten(), L.Dense(2)])
    set_weights(model, 11)
    optimizer = tf.keras.optimizers.Nadam(0.05, schedule_decay=0.01)
    model.compile(optimizer, "mse")
    rng = np.random.RandomState(5)
    batches = [(rng.randint(0, 6, size=(3, 2)), rng.randn(3, 2).astype(np.float32))
               for _ in range(4)]
    return {"steps": _steps(tf, model, optimizer, batches)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_nadam_fit_epochs(tf):
    """`fit` over several epochs (the cache keeps multiplying across epochs)."""
    x, y = data(12)
    model = mlp(tf, seed=4)
    model.compile(tf.keras.optimizers.Nadam(0.01), "mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=5, epochs=4, verbose=0, shuffle=False)
    return {"history": {k: np.asarray(v, np.float64) for k, v in history.history.items()},
            "weights": [np.asarray(w, np.float64) for w in model.get_weights()],
            "momentum_cache": np.float64(tf.keras.backend.get_value(
                model.optimizer.weights[1]))}
