"""A 2018-style stateful LSTM with tf.keras: predicting the next value of a damped cosine,
one time step per batch row, states carried from batch to batch (`stateful=True`,
`batch_input_shape`), `shuffle=False`, `reset_states()` after every epoch; then a
sample-by-sample generation loop with `predict` that feeds each prediction back in."""

import numpy as np
import tensorflow as tf

BATCH, STEPS, EPOCHS = 20, 1, 3


def damped_cosine(n, amplitude=10.0, period=120.0, decay=0.002):
    t = np.arange(n, dtype=np.float64)
    return (amplitude * np.cos(2 * np.pi * t / period) * np.exp(-decay * t)).reshape(n, 1, 1)


series = damped_cosine(400)
targets = np.zeros((len(series), 1))
targets[:-1, 0] = series[1:, 0, 0]

glorot = tf.keras.initializers.glorot_uniform
model = tf.keras.Sequential([
    tf.keras.layers.LSTM(16, batch_input_shape=(BATCH, STEPS, 1), return_sequences=True,
                         stateful=True, kernel_initializer=glorot(seed=1),
                         recurrent_initializer=glorot(seed=2)),
    tf.keras.layers.LSTM(16, stateful=True, kernel_initializer=glorot(seed=3),
                         recurrent_initializer=glorot(seed=4)),
    tf.keras.layers.Dense(1, kernel_initializer=glorot(seed=5)),
])
model.compile(loss="mse", optimizer=tf.keras.optimizers.RMSprop(0.01))
print("stateful:", model.stateful)
print("state shapes:", [s.shape.as_list() for s in model.layers[0].states])

for epoch in range(EPOCHS):
    history = model.fit(series, targets, batch_size=BATCH, epochs=1, shuffle=False,
                        verbose=0)
    print("epoch %d loss %.5f" % (epoch, history.history["loss"][0]))
    model.reset_states()

predicted = model.predict(series, batch_size=BATCH)
print("first predictions:", np.round(predicted[:4, 0], 4))
print("mse on the series: %.5f" % np.mean((predicted[:-1, 0] - targets[:-1, 0]) ** 2))

# Generation: each row of the batch continues from its own state.
model.reset_states()
window = series[:BATCH]
for step in range(3):
    window = model.predict(window, batch_size=BATCH).reshape(BATCH, 1, 1)
    print("step %d:" % step, np.round(window[:3, 0, 0], 4))
print("h state norm: %.4f" % np.linalg.norm(tf.keras.backend.get_value(
    model.layers[1].states[0])))
