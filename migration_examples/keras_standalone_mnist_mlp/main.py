"""A 2018-era standalone-Keras script (keras/examples/mnist_mlp.py with the idioms of its
day): `import keras` with the TensorFlow backend, `keras.layers.core`, `np_utils`, an
explicit session handed to Keras, `lr=`, callbacks, HDF5 save/load and `K.function`.
Trained on synthetic 784-pixel "digits" (no download).
"""
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
import keras
from keras import backend as K
from keras.callbacks import EarlyStopping, History, ModelCheckpoint
from keras.layers.core import Activation, Dense, Dropout
from keras.models import Sequential, load_model
from keras.optimizers import RMSprop
from keras.utils import np_utils

np.random.seed(1337)
tf.set_random_seed(1337)

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
K.tensorflow_backend.set_session(sess)
print('backend:', K.backend(), K.image_data_format(), K.floatx(), K.epsilon())
print('same session:', K.get_session() is sess)
print('gpus is a list:', isinstance(K.tensorflow_backend._get_available_gpus(), list))

batch_size = 32
num_classes = 10
epochs = 4

rng = np.random.RandomState(0)
prototypes = rng.rand(num_classes, 784)


def make_split(n):
    labels = rng.randint(0, num_classes, size=n)
    images = prototypes[labels] + rng.randn(n, 784) * 0.6
    return np.clip(images, 0, 1).astype('float32'), labels


(x_train, y_train), (x_test, y_test) = make_split(600), make_split(100)
print(x_train.shape[0], 'train samples')
print(x_test.shape[0], 'test samples')

y_train = np_utils.to_categorical(y_train, num_classes)
y_test = np_utils.to_categorical(y_test, num_classes)
print('one-hot:', y_train.shape, y_train.dtype)

model = Sequential()
model.add(Dense(64, input_shape=(784,)))
model.add(Activation('relu'))
model.add(Dropout(0.2))
model.add(Dense(64, activation='relu'))
model.add(Dropout(0.2))
model.add(Dense(num_classes, activation='softmax'))
model.summary()

model.compile(loss='categorical_crossentropy', optimizer=RMSprop(lr=0.001),
              metrics=['accuracy'])
print('metrics:', model.metrics_names)

workdir = tempfile.mkdtemp()
best_path = os.path.join(workdir, 'best.h5')
history = History()
model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, verbose=0,
          validation_split=0.2,
          callbacks=[history, EarlyStopping(monitor='val_loss', patience=2),
                     ModelCheckpoint(best_path, monitor='val_loss', save_best_only=True)])
print('history keys:', sorted(history.history.keys()))
for key in sorted(history.history):
    print(key, ['%.4f' % value for value in history.history[key]])

score = model.evaluate(x_test, y_test, verbose=0)
print('Test loss: %.4f' % score[0])
print('Test accuracy: %.4f' % score[1])

# the hidden layer's activations, read with a backend function (test phase: no dropout)
get_hidden = K.function([model.layers[0].input, K.learning_phase()], [model.layers[1].output])
hidden = get_hidden([x_test[:4], 0])[0]
print('hidden:', hidden.shape, '%.4f' % hidden.sum())

best = load_model(best_path)
print('restored layers:', [layer.__class__.__name__ for layer in best.layers])
print('restored optimizer:', best.optimizer.__class__.__name__)
model_path = os.path.join(workdir, 'mlp.h5')
model.save(model_path)
restored = load_model(model_path)
print('predicted:', restored.predict(x_test[:10]).argmax(axis=1).tolist())
print('true:     ', y_test[:10].argmax(axis=1).tolist())
print('same predictions after reload:',
      bool(np.allclose(restored.predict(x_test), model.predict(x_test), atol=1e-6)))
shutil.rmtree(workdir)
