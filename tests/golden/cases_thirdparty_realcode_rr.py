"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-rr).

* magenta/magenta v1.1.7's models/sketch_rnn (model.py, rnn.py, utils.py,
  sketch_rnn_train.py; magenta's package __init__ replaced by an empty one, it imports all
  of magenta.music; no tests exist for sketch_rnn at any tag): on a fake stroke-3 dataset
  (72 sketches of 24 strokes, saved as a regular array since numpy 2 refuses pickled
  object arrays), small hparams, graph seed 1 set after its reset_graph, it ran unchanged
  with its LSTM, LayerNormLSTM and HyperLSTM cells (its own RNNCell subclasses that never
  call the base __init__), conditional and unconditional, with recurrent dropout and
  contrib's DropoutWrapper: per-step costs for 6 steps, `evaluate_model`, `sample()` at
  temperature 0.5 and greedy, then `sketch_rnn_train.main` for 41 steps (its step-20/40
  logs, valid/eval costs, checkpoints) and inference through `load_env` / `load_model` /
  `load_checkpoint` (tf1compat restoring TF's checkpoint): all printed numbers equal to
  the digits printed (costs to 1e-7 relative; HyperLSTM with dropout 3e-4 by step 40,
  Adam amplifying rounding in near-zero gradients). One condition: with recurrent dropout
  TF itself differs run to run from step 3 on: `tf.nn.dropout` inside dynamic_rnn's
  while loop draws from one stateful random op, whose chunks TF hands to the iterations
  in executor order when `parallel_iterations=32` lets them run ahead; tf1compat gives
  the sequential order, which is TF's with parallel_iterations=1 (compared that way, all
  equal). contrib.training.HParams: 67 behaviours probed (parse of lists, bools, ints
  from floats, indexed assignment, parse_json, set_hparam / add_hparam type rules, get
  defaults, errors) equal TF 1.15's own hparam.py; the case restates the ones sketch-rnn
  leans on.
* ericjang/draw (HEAD 56bb940) on fake MNIST: failed at `mnist.input_data` because
  tf1compat's `tensorflow.examples.tutorials.mnist` package did not import its modules as
  TF 1.x's __init__ does (fixed; test_datasets::test_mnist_package_imports_its_modules).
  Then unchanged: without attention the per-iteration Lx / Lz match to 5e-7 for 6
  iterations; with attention iterations 0-1 are equal and the run drifts from
  iteration 2 (Lz 3e-4 relative by iteration 6): gradients agree to 8e-6 of each
  tensor's largest element, and Adam's first step (effective epsilon 3e-7) turns the
  rounding of the ~1e-6 gradient elements into 1e-4 parameter differences. TF is
  deterministic here, so this is float drift, not order.
* wiseodd/generative-models (HEAD b930d5f), its 23 TF scripts (matplotlib a no-op
  stand-in, scipy 1.17.1 added, on the TF side a stand-in for the unused
  `torch.autograd` import of three VAE scripts), 4 printed iterations each (0, 1000,
  2000, 3000 handed to their `range(1000000)`; magan's 1,000 x 1,000 loops cut alike on
  both sides), fake MNIST, graph seed 1: 20 of 23 print TF's losses to all 4 printed
  digits, their trained parameters within 4e-5 of the largest element. WGAN
  (`sess.run([D_solver, D_loss, clip_D])`) did not train its critic at all: the clip's
  Assign and the RMSProp update of the same variable, unordered, were each ordered after
  the other's "read" of it, the cycle dropped every read-before-update edge of the run,
  and the Assign then ran before the gradient op, which differentiated with respect to
  the newly assigned value (zero gradient). Fixed (runtime/plan_order.py): several
  updates of one variable in a run are no longer each other's reads, and a read feeding
  one of them does not hold back another (DCGAN's two batch-norm updates of one moving
  average, cases_thirdparty_realcode_pp, still both apply); TF keeps the update in all
  300 runs of the restated case. Three still print other numbers than TF, and TF differs from
  itself run to run on all three (e.g. dualgan's first D loss 0.01158 / 0.01164 / 0.01107
  in three TF runs): WGAN and DualGAN, whose critic's forward read and the clip are
  unordered (which runs first is TF's cost model, docs/ARCHITECTURE.md "Unordered reads
  and writes"), and CoGAN, which groups two `apply_gradients` of one AdamOptimizer: both
  `_finish` ops update beta1_power / beta2_power unordered against the other group's
  Adam ops, so TF multiplies the powers 1.0-1.5 times a run (a race; tf1compat reads both
  before either update, once a run).
"""

import json

import numpy as np

from tests.golden.cases_contrib_training_hparam_proto import _training
from tests.golden.harness import catch, tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


def case_wgan_clip_and_update_in_one_run(tf):
    """wgan_tensorflow.py: the critic's RMSProp update and the weight clipping
    `p.assign(tf.clip_by_value(p, -c, c))` run in one `sess.run`, unordered; TF runs the
    short clip chain apart from the update, so the update is never lost (weights inside
    the clip range, so either order gives the same values)."""
    x = tf.placeholder(tf.float32, [4, 3])
    w = tf.Variable(_seeded([3, 2], 1, 0.005))
    b = tf.Variable(tf.zeros([2]))
    critic = tf.matmul(x, w) + b
    loss = tf.reduce_mean(critic * [1.0, -1.0])
    train = tf.train.RMSPropOptimizer(1e-4).minimize(-loss, var_list=[w, b])
    clip = [p.assign(tf.clip_by_value(p, -0.01, 0.01)) for p in (w, b)]
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    out = []
    for i in range(4):
        sess.run([train, clip], {x: _seeded([4, 3], 10 + i)})
        out.append(sess.run([w, b]))
    return out


def case_assign_and_update_of_one_variable(tf):
    """The same race reduced: a plain Assign of a variable's own (unchanged) value and a
    gradient-descent step on it in one run keep the step."""
    v = tf.Variable([1.0, 2.0])
    loss = tf.reduce_sum(tf.square(v))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    keep = v.assign(tf.identity(v))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run([train, keep])
    first = sess.run(v)
    sess.run([keep, train])
    return [first, sess.run(v)]


class _FlatLSTM:
    """sketch-rnn's rnn.LSTMCell, restated: an RNNCell subclass that never calls the base
    __init__, keeps [c, h] as one flat state and drops the candidate (recurrent dropout
    without memory loss)."""

    def __init__(self, tf, num_units, keep_prob):
        self.tf, self.num_units, self.keep_prob = tf, num_units, keep_prob

    @property
    def state_size(self):
        return 2 * self.num_units

    @property
    def output_size(self):
        return self.num_units

    def __call__(self, x, state, scope=None):
        tf = self.tf
        with tf.variable_scope(scope or "LSTMCell"):
            c, h = tf.split(state, 2, 1)
            w_xh = tf.get_variable("W_xh", [x.get_shape().as_list()[1], 4 * self.num_units])
            w_hh = tf.get_variable("W_hh", [self.num_units, 4 * self.num_units])
            bias = tf.get_variable("bias", [4 * self.num_units],
                                   initializer=tf.constant_initializer(0.0))
            hidden = tf.matmul(tf.concat([x, h], 1), tf.concat([w_xh, w_hh], 0)) + bias
            i, j, f, o = tf.split(hidden, 4, 1)
            g = tf.nn.dropout(tf.tanh(j), self.keep_prob)
            new_c = c * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * g
            new_h = tf.tanh(new_c) * tf.sigmoid(o)
            return new_h, tf.concat([new_c, new_h], 1)


def _cell(tf, units, keep):
    cell = type("FlatLSTM", (tf.nn.rnn_cell.RNNCell,), dict(vars(_FlatLSTM)))
    return cell(tf, units, keep)


@tolerance(rtol=2e-5, atol=1e-6)
def case_sketch_rnn_encoder_decoder_step(tf):
    """sketch-rnn's model: a bidirectional encoder of custom flat-state cells over
    sequences of different lengths, z = mu + sigma * eps, the decoder's initial state
    tanh(linear(z)), recurrent dropout in both loops (parallel_iterations=1: TF's own
    order otherwise varies), an Adam step on clipped gradients; then the sampler's feeds
    of non-placeholder tensors (a strided slice of the input, the initial state)."""
    tf.set_random_seed(3)
    batch, steps, units = 3, 5, 4
    data = tf.placeholder(tf.float32, [batch, steps + 1, 5])
    lengths = tf.placeholder(tf.int32, [batch])
    with tf.variable_scope("vector_rnn", initializer=tf.random_uniform_initializer(-0.3, 0.3,
                                                                                   seed=4)):
        x_in, x_out = data[:, :steps, :], data[:, 1:, :]
        _, (fw, bw) = tf.nn.bidirectional_dynamic_rnn(
            _cell(tf, units, 0.8), _cell(tf, units, 0.8), x_out, sequence_length=lengths,
            dtype=tf.float32, parallel_iterations=1, swap_memory=True, scope="ENC_RNN")
        last_h = tf.concat([tf.split(fw, 2, 1)[1], tf.split(bw, 2, 1)[1]], 1)
        mu = tf.layers.dense(last_h, 2, name="mu")
        presig = tf.layers.dense(last_h, 2, name="sigma")
        z = mu + tf.exp(presig / 2.0) * tf.random_normal([batch, 2])
        init = tf.tanh(tf.layers.dense(z, 2 * units, name="init"))
        dec_in = tf.concat([x_in, tf.tile(tf.reshape(z, [batch, 1, 2]), [1, steps, 1])], 2)
        out, final = tf.nn.dynamic_rnn(_cell(tf, units, 0.8), dec_in, initial_state=init,
                                       parallel_iterations=1, swap_memory=True, scope="RNN")
        pred = tf.layers.dense(tf.reshape(out, [-1, units]), 5, name="out")
    kl = tf.maximum(-0.5 * tf.reduce_mean(1 + presig - tf.square(mu) - tf.exp(presig)), 0.2)
    cost = tf.reduce_mean(tf.square(pred - tf.reshape(x_out, [-1, 5]))) + 0.01 * kl
    opt = tf.train.AdamOptimizer(0.01)
    gvs = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in opt.compute_gradients(cost)]
    train = opt.apply_gradients(gvs)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feed = {data: _seeded([batch, steps + 1, 5], 5), lengths: [5, 3, 4]}
    costs = [sess.run([cost, train], feed)[0] for _ in range(3)]
    sample = sess.run([out, final], {x_in: _seeded([batch, steps, 5], 6),
                                     init: _seeded([batch, 2 * units], 7), z: _seeded([batch, 2], 8)})
    return {"costs": costs, "sample": sample,
            "names": sorted(v.name for v in tf.trainable_variables())}


def case_hparams_as_sketch_rnn_uses_them(tf):
    """contrib.training.HParams as sketch_rnn_train does: parse of a list, a bool given
    as 0 / false, an int given a float, copy through values(), JSON round trip, and the
    type rules of set_hparam."""
    training = _training(tf)

    def base():
        return training.HParams(data_set=["a.npz"], num_steps=10, lr=0.001, flag=True,
                                name="lstm", ids=[1, 2])

    def parsed(text):
        return sorted(base().parse(text).values().items())

    def set_one(name, value):
        h = base()
        h.set_hparam(name, value)
        return sorted(h.values().items())

    copy = training.HParams(**base().values())
    copy.flag = 0                                  # plain attributes are not checked
    return {
        "list": parsed("data_set=[x.npz,y.npz]"), "list_one": catch(lambda: parsed("data_set=z.npz")),
        "bool0": parsed("flag=0"), "bool_false": parsed("flag=false"),
        "several": parsed("lr=3,num_steps=41,name=hyper"), "index": catch(lambda: parsed("ids[1]=7")),
        "int_from_float": catch(lambda: parsed("num_steps=1.5")),
        "unknown": catch(lambda: parsed("nope=3")), "twice": catch(lambda: parsed("lr=3,lr=4")),
        "json": sorted(base().parse_json(json.dumps({"lr": 1, "flag": False, "ids": [9]}))
                       .values().items()),
        "json_bool_from_int": catch(lambda: base().parse_json('{"flag": 0}'), message=True),
        "to_json": base().to_json(sort_keys=True), "copy": sorted(copy.values().items()),
        "set_float_to_int": catch(lambda: set_one("num_steps", 2.5)),
        "set_int_to_float": set_one("lr", 2), "set_list": catch(lambda: set_one("lr", [1.0])),
        "get": [base().get("zz", 5), catch(lambda: base().get("lr", "s"))],
        "str": str(training.HParams(a=1, b="x")),
    }


@tolerance(rtol=2e-5, atol=1e-6)
def case_draw_attention_read_write(tf):
    """DRAW's attention: filterbanks from (gx, gy, log sigma2, log delta, log gamma),
    a read glimpse Fy x Fx^T and a write patch Fy^T w Fx, with their gradients."""
    batch, size, n = 2, 6, 3
    h = tf.constant(_seeded([batch, 4], 11))
    img = tf.constant(np.abs(_seeded([batch, size * size], 12)))
    params = tf.layers.dense(h, 5, kernel_initializer=tf.constant_initializer(
        _seeded([4, 5], 13, 0.5)))
    gx_, gy_, log_sigma2, log_delta, log_gamma = tf.split(params, 5, 1)
    gx, gy = (size + 1) / 2 * (gx_ + 1), (size + 1) / 2 * (gy_ + 1)
    sigma2, delta = tf.exp(log_sigma2), (size - 1) / (n - 1) * tf.exp(log_delta)
    grid = tf.reshape(tf.cast(tf.range(n), tf.float32), [1, -1])
    mu_x = tf.reshape(gx + (grid - n / 2 - 0.5) * delta, [-1, n, 1])
    mu_y = tf.reshape(gy + (grid - n / 2 - 0.5) * delta, [-1, n, 1])
    a = tf.reshape(tf.cast(tf.range(size), tf.float32), [1, 1, -1])
    s2 = tf.reshape(sigma2, [-1, 1, 1])
    fx = tf.exp(-tf.square(a - mu_x) / (2 * s2))
    fy = tf.exp(-tf.square(a - mu_y) / (2 * s2))
    fx = fx / tf.maximum(tf.reduce_sum(fx, 2, keep_dims=True), 1e-8)
    fy = fy / tf.maximum(tf.reduce_sum(fy, 2, keep_dims=True), 1e-8)
    glimpse = tf.matmul(fy, tf.matmul(tf.reshape(img, [-1, size, size]),
                                      tf.transpose(fx, perm=[0, 2, 1])))
    glimpse = tf.reshape(glimpse, [-1, n * n]) * tf.exp(log_gamma)
    w = tf.reshape(glimpse, [batch, n, n])
    patch = tf.reshape(tf.matmul(tf.transpose(fy, perm=[0, 2, 1]), tf.matmul(w, fx)),
                       [batch, size * size]) / tf.exp(log_gamma)
    loss = tf.reduce_sum(tf.square(patch - img))
    grads = tf.gradients(loss, tf.trainable_variables())
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return sess.run([glimpse, patch, loss, grads])

