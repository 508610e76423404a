"""Golden cases: `tf.distribute.cluster_resolver` (TF 2.21): TFConfigClusterResolver
(TF_CONFIG read at each call), SimpleClusterResolver, UnionResolver (merged clusters,
errors) and SlurmClusterResolver from SLURM_* variables. Each case restores the
environment it changes. (num_accelerators of a TF_CONFIG resolver is not recorded: TF
opens a session on the master to list its devices.)
"""

import contextlib
import json
import os

from tests.golden.harness import catch

_KEYS = ("TF_CONFIG", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_NODELIST",
         "SLURM_STEP_TASKS_PER_NODE", "CUDA_VISIBLE_DEVICES")


@contextlib.contextmanager
def _environment(**values):
    saved = {k: os.environ.get(k) for k in _KEYS}
    try:
        for k in _KEYS:
            os.environ.pop(k, None)
        os.environ.update(values)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _jobs(spec):
    """as_dict() with dict jobs as [index, address] pairs in TF's order (JSON keys are
    strings)."""
    return {job: tasks if isinstance(tasks, list) else [[i, a] for i, a in tasks.items()]
            for job, tasks in spec.as_dict().items()}


def case_tf_config_resolver(tf):
    cr = tf.distribute.cluster_resolver
    config = {"cluster": {"worker": ["h0:1", "h1:2"], "ps": ["p:3"], "chief": ["c:4"]},
              "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}
    out = {}
    with _environment(TF_CONFIG=json.dumps(config)):
        r = cr.TFConfigClusterResolver()
        out["full"] = [_jobs(r.cluster_spec()), r.task_type, r.task_id, r.rpc_layer,
                       r.environment, r.master(), r.master("ps", 0),
                       r.master("chief", 0, rpc_layer="http")]
        r2 = cr.TFConfigClusterResolver(task_type="ps", task_id=0, rpc_layer="",
                                        environment="google")
        out["overridden"] = [r2.task_type, r2.task_id, r2.rpc_layer, r2.environment,
                             r2.master()]
        os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["h0:1"]}})
        out["one_task"] = [r.master(), r.task_type, r.task_id]
        os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["a:1", "b:1"]},
                                              "session_master": "grpc://s:9"})
        out["session_master"] = [r.master(), r.master("worker", 1)]
        del os.environ["TF_CONFIG"]
        out["none"] = [_jobs(r.cluster_spec()), r.master(), r.task_type, r.rpc_layer]
        r.task_type, r.task_id = "worker", 3
        out["set"] = [r.task_type, r.task_id]
    out["is_resolver"] = isinstance(r, cr.ClusterResolver)
    return out


def case_simple_and_union_resolvers(tf):
    cr = tf.distribute.cluster_resolver
    spec = tf.train.ClusterSpec({"worker": ["a:1", "b:2"]})
    s = cr.SimpleClusterResolver(spec, master="grpc://a:1", task_type="worker", task_id=0,
                                 num_accelerators={"GPU": 2}, rpc_layer="grpc")
    out = {"simple": [s.master(), s.master("worker", 1), s.master("worker", 1, rpc_layer="x"),
                      s.num_accelerators(), s.environment, s.task_type, s.task_id,
                      s.rpc_layer, _jobs(s.cluster_spec())],
           "simple_default": [cr.SimpleClusterResolver(spec).master(),
                              cr.SimpleClusterResolver(spec).num_accelerators(),
                              cr.SimpleClusterResolver(spec).task_type],
           "simple_errors": [catch(lambda: cr.SimpleClusterResolver({"worker": ["a"]}), True),
                             catch(lambda: cr.SimpleClusterResolver(spec, master=3), True)]}
    s2 = cr.SimpleClusterResolver(tf.train.ClusterSpec({"ps": ["p:1"], "worker": {3: "w3:1"}}),
                                  task_type="ps", task_id=0)
    u = cr.UnionResolver(s, s2)
    out["union"] = [_jobs(u.cluster_spec()), u.master(), u.task_type, u.task_id,
                    u.rpc_layer, u.num_accelerators(), u.master("ps", 0), u.environment]
    u2 = cr.UnionResolver(s2, s, task_type="worker", task_id=1, rpc_layer="http")
    out["union_overrides"] = [_jobs(u2.cluster_spec()), u2.master(), u2.task_type,
                              u2.task_id, u2.rpc_layer, u2.master("worker", 3)]
    lists = cr.UnionResolver(s, cr.SimpleClusterResolver(tf.train.ClusterSpec(
        {"worker": ["c:3"], "ps": ["p:0"]})))
    out["union_lists"] = _jobs(lists.cluster_spec())
    duplicate = cr.SimpleClusterResolver(tf.train.ClusterSpec({"worker": {3: "x:1"}}))
    out["union_errors"] = [
        catch(lambda: cr.UnionResolver(), True),
        catch(lambda: cr.UnionResolver(s, foo=1), True),
        catch(lambda: cr.UnionResolver(s, 3), True),
        catch(lambda: cr.UnionResolver(s2, duplicate).cluster_spec(), True)]
    return out


def case_slurm_resolver(tf):
    cr = tf.distribute.cluster_resolver
    slurm = dict(SLURM_PROCID="3", SLURM_STEP_NUM_TASKS="4",
                 SLURM_STEP_NODELIST="node[01-02]", SLURM_STEP_TASKS_PER_NODE="2(x2)",
                 CUDA_VISIBLE_DEVICES="0,1,2,3")
    out = {}
    with _environment(**slurm):
        r = cr.SlurmClusterResolver()
        out["default"] = [_jobs(r.cluster_spec()), r.task_type, r.task_id, r.master(),
                          r.num_accelerators(), os.environ["CUDA_VISIBLE_DEVICES"],
                          list(r.get_task_info()), r.rpc_layer]
        os.environ["CUDA_VISIBLE_DEVICES"] = "0,1,2,3"
        r = cr.SlurmClusterResolver(jobs={"ps": 1, "worker": 3}, port_base=9000,
                                    rpc_layer="http")
        out["jobs"] = [r.master(), _jobs(r.cluster_spec()), r.task_type, r.task_id,
                       r.master(), r.master("ps", 0), os.environ["CUDA_VISIBLE_DEVICES"]]
        r = cr.SlurmClusterResolver(tasks_per_node={"b": 1, "a": 3}, gpus_per_node=3,
                                    auto_set_gpu=False)
        out["tasks_per_node"] = [_jobs(r.cluster_spec()), r.task_type, r.task_id,
                                 r.num_accelerators(), os.environ["CUDA_VISIBLE_DEVICES"]]
        os.environ["SLURM_STEP_NODELIST"] = "gpu[1-2,07],login"
        os.environ["SLURM_STEP_TASKS_PER_NODE"] = "1(x3),1"
        r = cr.SlurmClusterResolver(gpus_per_node=1)
        out["hostlist"] = _jobs(r.cluster_spec())
        out["errors"] = [
            catch(lambda: cr.SlurmClusterResolver(jobs={"worker": 3}, gpus_per_node=1), True),
            catch(lambda: cr.SlurmClusterResolver(gpus_per_node=1, gpus_per_task=3), True)]
        os.environ["SLURM_STEP_NODELIST"] = "bad[1-2"
        out["bad_hostlist"] = catch(lambda: cr.SlurmClusterResolver(gpus_per_node=1))
        del os.environ["SLURM_PROCID"]
        out["outside_slurm"] = catch(lambda: cr.SlurmClusterResolver(), True)
    return out
