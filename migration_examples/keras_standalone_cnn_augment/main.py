"""A 2018-era standalone-Keras CNN (keras/examples/cifar10_cnn.py's shape, shrunk):
`keras.layers.convolutional` / `pooling` / `normalization`, `K.image_data_format()` to
pick the input layout, ImageDataGenerator augmentation fed to `fit_generator`, a
learning-rate schedule callback and `save_weights` / `load_weights`. Synthetic 16x16 RGB
"images" (no download). (`fit_generator(shuffle=False)`: Keras shuffles the batch order of
a Sequence such as `datagen.flow(...)` with Python's unseeded `random`; the flow's own
`seed` still shuffles the samples reproducibly.)
"""
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
import keras
from keras import backend as K
from keras.callbacks import LearningRateScheduler
from keras.layers import Activation, Dense, Dropout, Flatten
from keras.layers.convolutional import Conv2D
from keras.layers.normalization import BatchNormalization
from keras.layers.pooling import MaxPooling2D
from keras.models import Sequential
from keras.optimizers import SGD
from keras.preprocessing.image import ImageDataGenerator

np.random.seed(42)
tf.set_random_seed(42)

num_classes = 4
rng = np.random.RandomState(5)
prototypes = rng.rand(num_classes, 16, 16, 3)
labels = rng.randint(0, num_classes, size=256)
x = np.clip(prototypes[labels] + rng.randn(256, 16, 16, 3) * 0.3, 0, 1).astype('float32')
if K.image_data_format() == 'channels_first':
    x = x.transpose(0, 3, 1, 2)
y = keras.utils.to_categorical(labels, num_classes)
x_train, y_train, x_test, y_test = x[:192], y[:192], x[192:], y[192:]
print('input shape:', x_train.shape[1:], K.image_data_format())

model = Sequential()
model.add(Conv2D(8, (3, 3), padding='same', input_shape=x_train.shape[1:]))
model.add(BatchNormalization())
model.add(Activation('relu'))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Conv2D(16, (3, 3)))
model.add(Activation('relu'))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Dropout(0.25))
model.add(Flatten())
model.add(Dense(32, activation='relu'))
model.add(Dense(num_classes, activation='softmax'))
print('params:', model.count_params())

model.compile(loss='categorical_crossentropy',
              optimizer=SGD(lr=0.05, momentum=0.9, nesterov=True), metrics=['accuracy'])

datagen = ImageDataGenerator(featurewise_center=True, horizontal_flip=True)
datagen.fit(x_train)
print('feature mean: %.4f' % datagen.mean.sum())


def schedule(epoch):
    return 0.05 * (0.5 ** epoch)


history = model.fit_generator(datagen.flow(x_train, y_train, batch_size=32, seed=1),
                              steps_per_epoch=6, epochs=3, verbose=0, shuffle=False,
                              validation_data=(datagen.standardize(x_test.copy()), y_test),
                              callbacks=[LearningRateScheduler(schedule)])
for key in sorted(history.history):
    print(key, ['%.4f' % value for value in history.history[key]])
print('lr: %.5f' % K.get_value(model.optimizer.lr))

workdir = tempfile.mkdtemp()
weights = os.path.join(workdir, 'cnn_weights.h5')
model.save_weights(weights)
fresh = keras.models.clone_model(model)
fresh.load_weights(weights)
test_x = datagen.standardize(x_test.copy())
print('reloaded weights agree:', bool(np.allclose(fresh.predict(test_x), model.predict(test_x),
                                                  atol=1e-6)))
score = model.evaluate(test_x, y_test, verbose=0)
print('test loss %.4f acc %.4f' % tuple(score))
shutil.rmtree(workdir)
