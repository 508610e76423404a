"""A 2018-era standalone-Keras functional model: padded token sequences through an
Embedding and an LSTM, merged (`keras.layers.merge.concatenate`) with a dense branch of
numeric features, a custom loss written with backend ops, `Adam(lr=..., decay=...)`,
`to_categorical`, callbacks, `model.to_json` / `model_from_json` and `K.gradients`.
Synthetic data (no download).
"""
from __future__ import print_function

import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.callbacks import LambdaCallback, ReduceLROnPlateau
from keras.layers import Dense, Embedding, Input, LSTM
from keras.layers.merge import concatenate
from keras.models import Model, model_from_json
from keras.optimizers import Adam
from keras.preprocessing.sequence import pad_sequences
from keras.utils import to_categorical

np.random.seed(7)
tf.set_random_seed(7)

vocab, maxlen, num_classes = 30, 8, 3
rng = np.random.RandomState(3)
labels = rng.randint(0, num_classes, size=240)
sequences = [list(rng.randint(1 + 9 * c, 10 + 9 * c, size=rng.randint(3, 12)))
             for c in labels]
x_text = pad_sequences(sequences, maxlen=maxlen)
print('padded:', x_text.shape, x_text.dtype, x_text[0].tolist())
print('truncated post:', pad_sequences([[1, 2, 3, 4]], maxlen=3, truncating='post',
                                       padding='post', value=-1).tolist())
x_num = (labels[:, None] + rng.randn(240, 4) * 0.8).astype('float32')
y = to_categorical(labels, num_classes)

text_in = Input(shape=(maxlen,), name='text')
num_in = Input(shape=(4,), name='numbers')
h_text = LSTM(12)(Embedding(vocab, 8)(text_in))
h_num = Dense(8, activation='tanh')(num_in)
merged = concatenate([h_text, h_num])
out = Dense(num_classes, activation='softmax', name='out')(merged)
model = Model(inputs=[text_in, num_in], outputs=out)
print('layers:', [layer.__class__.__name__ for layer in model.layers])
print('merged shape:', K.int_shape(merged))


def smoothed_crossentropy(y_true, y_pred):
    y_true = y_true * 0.9 + 0.1 / num_classes
    return -K.sum(y_true * K.log(K.clip(y_pred, K.epsilon(), 1.0)), axis=-1)


model.compile(optimizer=Adam(lr=0.02, decay=1e-3), loss=smoothed_crossentropy,
              metrics=['accuracy'])
lines = []
model.fit([x_text, x_num], y, batch_size=24, epochs=5, verbose=0, shuffle=False,
          validation_split=0.25,
          callbacks=[ReduceLROnPlateau(monitor='loss', factor=0.5, patience=1),
                     LambdaCallback(on_epoch_end=lambda epoch, logs: lines.append(
                         'epoch %d loss=%.4f acc=%.4f val_loss=%.4f' % (
                             epoch + 1, logs['loss'], logs['acc'], logs['val_loss'])))])
print('\n'.join(lines))
print('lr after fit: %.5f' % K.get_value(model.optimizer.lr))
print('iterations:', K.get_value(model.optimizer.iterations))

probs = model.predict([x_text[:5], x_num[:5]])
print('probs:', np.round(probs, 4).tolist())

clone = model_from_json(model.to_json())
clone.set_weights(model.get_weights())
print('clone agrees:', bool(np.allclose(clone.predict([x_text, x_num]),
                                        model.predict([x_text, x_num]), atol=1e-6)))

# backend ops on their own: variables, a placeholder function, gradients
v = K.variable(np.array([[1., 2.], [3., 4.]]), name='v')
print('eval:', K.eval(K.dot(v, K.transpose(v))).tolist(), K.eval(K.mean(v, axis=0)).tolist())
x = K.placeholder(shape=(None, 2))
loss = K.sum(K.square(K.dot(x, v)))
f = K.function([x], [loss] + K.gradients(loss, [v]))
value, grad = f([np.array([[1., -1.], [0.5, 2.]], dtype='float32')])
print('loss: %.4f' % value, 'grad:', grad.tolist())
print('dtypes:', K.dtype(v), K.ndim(v), K.int_shape(x))
