"""Golden cases: `tf.contrib.eager.Network` (tfe.Network), as aymericdamien's
neural_network_eager_api.py subclasses it.

TF 2.x has no tf.contrib: under real TF the class is TF 1.15's own
contrib/eager/python/network.py (from the TF 1.15 sources in /tmp/tf115src), run on TF
2.15, whose tensorflow.python.layers / keras internals it needs; recording only.
"""

import os

import numpy as np

from tests.golden.harness import catch

TF_VERSION = "2.15"
_TF115_NETWORK = "/tmp/tf115src/tensorflow_core/contrib/eager/python/network.py"


def _network_class(tf):
    if tf.__name__.startswith("tf1compat"):
        return tf.contrib.eager.Network
    namespace = {"__name__": "tf115_network"}
    with open(_TF115_NETWORK) as source:
        # TF 2.15's tf.layers classes live in Keras: the Network must derive from theirs.
        code = source.read().replace("from tensorflow.python.layers import base",
                                     "from keras.src.legacy_tf_layers import base")
    exec(compile(code, os.path.basename(_TF115_NETWORK), "exec"), namespace)
    return namespace["Network"]


def case_tfe_network_tracks_dense_layers(tf):
    """A Network of three tracked Dense layers: variable names under the network's scope
    (a second instance numbered), weights in tracking order, get_layer, outputs."""
    network_class = _network_class(tf)

    class NeuralNet(network_class):
        def __init__(self):
            super(NeuralNet, self).__init__()
            self.layer1 = self.track_layer(tf.layers.Dense(5, activation=tf.nn.relu))
            self.layer2 = self.track_layer(tf.layers.Dense(4, activation=tf.nn.relu))
            self.out_layer = self.track_layer(tf.layers.Dense(3))

        def call(self, x):
            return self.out_layer(self.layer2(self.layer1(x)))

    tf.set_random_seed(3)
    x = tf.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6))
    first, second = NeuralNet(), NeuralNet()
    out1, out2 = first(x), second(x)
    again = first(x * 2.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([out1, out2, again])
    return {"variables": [v.name for v in first.variables],
            "second_variables": [v.name for v in second.trainable_weights],
            "global": sorted(v.name for v in tf.global_variables()),
            "non_trainable": len(first.non_trainable_weights),
            "layers": [layer.name for layer in first.layers],
            "by_index": first.get_layer(index=1).name,
            "by_name": first.get_layer(name=first.layers[2].name) is first.out_layer,
            "network_names": [first.name, second.name],
            "out": values[0], "out_second": values[1], "out_again": values[2]}


def case_tfe_network_errors(tf):
    """Bad uses: tracking something that is not a tf.layers Layer, a '/' in the name,
    a layer index out of range, get_layer without arguments, add_variable / add_loss."""
    network_class = _network_class(tf)

    class Net(network_class):
        def call(self, x):
            return x

    net = Net(name="net")
    return {
        "track_non_layer": catch(lambda: net.track_layer(lambda x: x)),
        "slash_name": catch(lambda: Net(name="a/b"), message=True),
        "index_out_of_range": catch(lambda: net.get_layer(index=0), message=True),
        "no_name_or_index": catch(lambda: net.get_layer(), message=True),
        "unknown_name": catch(lambda: net.get_layer(name="dense"), message=True),
        "add_loss": catch(lambda: net.add_loss(tf.constant(1.0))),
        "trainable_off": catch(lambda: setattr(net, "trainable", False), message=True),
    }
