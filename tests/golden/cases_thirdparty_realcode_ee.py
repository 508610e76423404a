"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ee).

* google/dopamine v2 (tag v2, July 2019; gin-config 0.1.4, gym 0.15.7, a stand-in
  `atari_py` module since no Atari ROMs are used): all 16 of its test files ran unchanged
  under both, test by test with the same outcome: 165 tests, sum_tree (16),
  prioritized_replay_buffer (13), iteration_statistics, gym_lib, implicit_quantile (5)
  and rainbow (26) pass; the failures are the same on both sides and the environment's
  (numpy 2 refusing `assertNotEqual` of arrays of other shapes and uint8 overflow, root
  being allowed to create the "unwritable" directories, the Atari tests needing ROMs).
  The one exception is rainbow's testZeroDimensionalTargetSupport, which expects TF 1.x's
  "Index out of range" slicing message: tf1compat gives it, TF 2.21 words it otherwise.
  Seeded CartPole runs of run_experiment.Runner with the project's dqn_cartpole,
  c51_cartpole and rainbow_cartpole gin files (2 iterations of 300 training + 100 eval
  steps, 100-transition warm-up, batch 32, the gin files' `/gpu:0` under soft placement)
  gave TF's episode returns; DQN's weights after ~150 Adam steps matched to 9e-7 relative.
  C51 and Rainbow did not at first: their atom support is `tf.linspace(-vmax, vmax, 51)`,
  and tf1compat's LinSpace was torch.linspace, which counts the upper half back from
  `stop` (7.2 -> 7.1999998 where TF has 7.200001). Rainbow's Bellman-shifted atoms then
  split their mass differently (target distribution off by 1.2e-6 on the first batch),
  which its learning rate of 0.09 and prioritized replay amplified to a 10% weight
  difference within one iteration. Fixed: LinSpace is TF's kernel (`start + step * i`,
  the last element `stop`), with TF's graph-build and run-time checks. Since then C51
  ends its 2 iterations as TF does with oneDNN off (Q values -1.8536133 / 2.1772566 here,
  -1.8536146 / 2.1772563 there; TF with oneDNN on differs from both by 1e-4), and
  Rainbow's first update matches to 1.5e-8 (TF on vs off: 1.1e-8); its weights then
  drift apart at the rate TF's own two settings do (2e-6 after 40 updates, 6e-6 after 50
  between TF's), until near update 50 the runs jump apart (7e-4) and diverge under the
  gin file's learning rate of 0.09 (TF's two settings were compared for 50 updates only).
* tensorflow/models research/real_nvp's real_nvp_utils.py (the repository's snapshot is over
  the size that can be brought here, so only this file was read; the model file was not
  run): its squeeze / unsqueeze / ordered squeeze, depool, sparse_to_dense one-hot,
  convnet with train-mode batch norm, weight-normed conv, lagged batch_norm_log_diff and
  stable_var on a seeded 4x8x8x3 batch, then 5 Adam steps: seeded initial values, every
  output and the losses equal TF's (1412.5586 vs 1412.5587), variables after the steps
  within 2.4e-5 relative. The last case pins the lagged batch norm; the module's own
  version reads the moving mean and step for the lagged mean with nothing ordering those
  reads against their updates in the same run (a race in the program: TF's order varies,
  tf1compat reads first), so the case orders them.
"""

import numpy as np

from tests.golden.harness import catch, tolerance


def _raw_linspace(tf, start, stop, num):
    """The LinSpace op itself: TF 2.x's `tf.compat.v1.linspace` is `linspace_nd` (several
    ops, same values), TF 1.15's and tf1compat's `tf.lin_space` is this one op."""
    return tf.raw_ops.LinSpace(start=start, stop=stop, num=num)


def case_linspace_values_bitwise(tf):
    """LinSpace's values bit for bit: float32 and float64 supports (C51's [-10, 10] over 51
    atoms), a decreasing range, num=1 and a num fed at run time."""
    specs = [(-10.0, 10.0, 51, tf.float32), (-1.0, 1.0, 7, tf.float32),
             (0.0, 1.0, 11, tf.float32), (-3.0, 7.0, 33, tf.float32),
             (-1.0, 1.0, 7, tf.float64), (5.0, -2.0, 9, tf.float32), (3.0, 5.0, 1, tf.float32)]
    outs = [_raw_linspace(tf, tf.constant(a, dt), tf.constant(b, dt), n)
            for a, b, n, dt in specs]
    num = tf.placeholder(tf.int32, [])
    fed = _raw_linspace(tf, tf.constant(-5.0), tf.constant(5.0), num)
    with tf.Session() as sess:
        values = sess.run(outs) + [sess.run(fed, {num: 21})]
    bits = [v.view(np.int64 if v.dtype == np.float64 else np.int32).tolist() for v in values]
    return {"bits": bits, "static_shapes": [o.shape.as_list() for o in outs + [fed]]}


def case_linspace_errors(tf):
    """LinSpace's checks: rank-0 start/stop/num and a constant num > 0 at graph build
    (ValueError), then at run time a fed num <= 0 or a fed non-scalar start
    (InvalidArgumentError)."""
    def build(start, stop, num):
        return lambda: _raw_linspace(tf, start, stop, num).shape.as_list()

    graph_time = {
        "start_rank1": catch(build(tf.constant([1.0]), tf.constant(2.0), 3), message=True),
        "stop_rank1": catch(build(tf.constant(1.0), tf.constant([2.0]), 3), message=True),
        "num_zero": catch(build(tf.constant(1.0), tf.constant(2.0), 0), message=True),
        "num_negative": catch(build(tf.constant(1.0), tf.constant(2.0), -3), message=True),
    }
    num = tf.placeholder(tf.int32, [])
    start = tf.placeholder(tf.float32)
    by_num = _raw_linspace(tf, tf.constant(1.0), tf.constant(2.0), num)
    by_start = _raw_linspace(tf, start, tf.constant(2.0), 3)

    def last_line(fn):
        out = catch(fn)
        if "error" not in out:
            return out
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the kernel's own message is recorded
            out["kernel"] = [x for x in e.message.splitlines() if "num" in x or "scalar" in x][-1]
        return out

    with tf.Session() as sess:
        run_time = {
            "num_zero": last_line(lambda: sess.run(by_num, {num: 0})),
            "num_negative": last_line(lambda: sess.run(by_num, {num: -2})),
            "num_one": catch(lambda: sess.run(by_num, {num: 1})),
            "start_vector": last_line(lambda: sess.run(by_start, {start: [1.0, 2.0]})),
        }
    return {"graph": graph_time, "run": run_time}


@tolerance(rtol=0.0, atol=1e-7)
def case_dopamine_c51_target_distribution(tf):
    """Rainbow's `_build_target_distribution` on a `tf.linspace` support: rewards plus
    gamma^3 times the support (zero for terminals), the next state's distribution of the
    argmax action, and `project_distribution`'s clip / tile / `1 - |z - z_i| / dz`
    weights summed over the 51 atoms. The shifted atoms land within an ulp of support
    points, where a support off by an ulp moves 1e-6 of mass between neighbours."""
    num_atoms, vmax, batch = 51, 10.0, 6
    rng = np.random.RandomState(7)
    support = tf.linspace(-vmax, vmax, num_atoms)
    rewards = tf.constant([1.0, 0.0, 1.0, 3.0, 1.0, 2.0])[:, None]
    terminals = tf.constant([0, 0, 1, 0, 0, 0])
    cumulative_gamma = 0.99 ** 3
    gamma = (cumulative_gamma * (1.0 - tf.cast(terminals, tf.float32)))[:, None]
    tiled = tf.reshape(tf.tile(support, [batch]), [batch, num_atoms])
    target_support = rewards + gamma * tiled
    logits = tf.constant(rng.randn(batch, 2, num_atoms).astype(np.float32))
    probabilities = tf.nn.softmax(logits)
    q_values = tf.reduce_sum(support * probabilities, axis=2)
    argmax = tf.argmax(q_values, axis=1)[:, None]
    indices = tf.concat([tf.range(tf.to_int64(batch))[:, None], argmax], axis=1)
    next_probabilities = tf.gather_nd(probabilities, indices)

    v_min, v_max = support[0], support[-1]
    delta_z = (support[1:] - support[:-1])[0]
    clipped = tf.clip_by_value(target_support, v_min, v_max)[:, None, :]
    tiled_clipped = tf.tile([clipped], [1, 1, num_atoms, 1])
    target = tf.reshape(tf.tile(support[:, None], [batch, 1]), [batch, num_atoms, 1])
    quotient = tf.clip_by_value(1 - tf.abs(tiled_clipped - target) / delta_z, 0, 1)
    projection = tf.reshape(tf.reduce_sum(quotient * next_probabilities[:, None, :], 3),
                            [batch, num_atoms])
    with tf.Session() as sess:
        values = sess.run({"support": support, "delta_z": delta_z, "projection": projection})
    values["support_bits"] = values["support"].view(np.int32).tolist()
    return values


def case_real_nvp_lagged_batch_norm(tf):
    """research/real_nvp's batch_norm_log_diff with a lag: moments over N, H, W, the
    variance through the max-scaled square, moving statistics mixed in through
    `stop_gradient` and debiased by `1 - lag ** (step + 1)`, and the updates (assign_sub of
    a check_numerics'd delta under `colocate_with`, a float step counter) tied in by
    adding `0 * new_mean * new_var * new_step`; three runs on one batch."""
    lag, decay = 0.95, 0.1
    x = tf.constant(np.random.RandomState(0).randn(4, 5, 5, 3).astype(np.float32) * 2 + 1)
    with tf.variable_scope("bn"):
        var = tf.get_variable("var", [3], initializer=tf.constant_initializer(1.0),
                              trainable=False)
        mean = tf.get_variable("mean", [3], initializer=tf.constant_initializer(0.0),
                               trainable=False)
        step = tf.get_variable("step", [], initializer=tf.constant_initializer(0.0),
                               trainable=False)
    batch_mean, _ = tf.nn.moments(x, [0, 1, 2], name="batch_norm")
    squares = tf.square(x - batch_mean)
    max_sqr = tf.reduce_max(squares, [0, 1, 2])
    batch_var = tf.reduce_mean(squares / max_sqr, [0, 1, 2]) * max_sqr
    used_mean = batch_mean - (1 - lag) * (batch_mean - tf.stop_gradient(mean))
    used_mean /= (1.0 - lag ** (step + 1))
    used_var = batch_var - (1 - lag) * (batch_var - tf.stop_gradient(var))
    used_var /= (1.0 - lag ** (step + 1))
    # The project reads `mean` and `step` for used_mean with nothing ordering those reads
    # against their updates in the same run (TF's order varies; tf1compat reads first):
    # here the updates wait for both reads.
    with tf.control_dependencies([used_mean, used_var]):
        with tf.name_scope("bn", "AssignMovingAvg", [mean, batch_mean, decay]), \
                tf.colocate_with(mean):
            new_mean = tf.assign_sub(mean, tf.check_numerics(decay * (mean - batch_mean),
                                                              "NaN in moving mean."))
        with tf.name_scope("bn", "AssignMovingAvg", [var, batch_var, decay]), \
                tf.colocate_with(var):
            new_var = tf.assign_sub(var, tf.check_numerics(decay * (var - batch_var),
                                                           "NaN in moving variance."))
        with tf.name_scope("bn", "IncrementTime", [step]), tf.colocate_with(step):
            new_step = tf.assign_add(step, 1.0)
    used_var += 0.0 * new_mean * new_var * new_step + 1e-8
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        runs = [sess.run([used_mean, used_var]) for _ in range(3)]
        return {"runs": runs, "state": sess.run([mean, var, step]),
                "names": [new_mean.op.name, new_var.op.name, new_step.op.name]}
