"""Golden cases for `tf.test.create_local_cluster` (issue 19): servers of one in-process
cluster whose sessions share the variables of the tasks they are placed on."""

from __future__ import annotations

import socket
import sys
import threading
import types

from tests.golden.harness import catch


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _cluster(tf, workers: int, ps: int):
    # TF's create_local_cluster imports portpicker, which the oracle venv lacks: a stand-in
    # with its one function used (tf1compat does not import it).
    sys.modules.setdefault("portpicker", types.SimpleNamespace(pick_unused_port=_free_port))
    return tf.test.create_local_cluster(num_workers=workers, num_ps=ps)


def case_local_cluster_servers_and_shared_variables(tf):
    workers, ps_servers = _cluster(tf, 2, 1)
    targets = [s.target for s in workers + ps_servers]
    with tf.Graph().as_default():
        with tf.device("/job:ps/task:0"):
            shared = tf.Variable(1.0, name="shared")
        with tf.device("/job:worker/task:1"):
            add = shared.assign_add(2.0)
        own = tf.Variable(5.0, name="own")           # on the session's own task
        with tf.Session(workers[0].target) as s0:
            s0.run(tf.global_variables_initializer())
        with tf.Session(workers[1].target) as s1:
            added = s1.run(add)
            own_elsewhere = catch(lambda: s1.run(own))
        with tf.Session(workers[0].target) as s0:
            again = s0.run([shared, own])
    return {"counts": [len(workers), len(ps_servers)],
            "targets": [t.startswith("grpc://localhost:") for t in targets],
            "distinct": len(set(targets)),
            "jobs": sorted(workers[0].server_def.cluster.job[i].name
                           for i in range(len(workers[0].server_def.cluster.job))),
            "server_defs": [(s.server_def.job_name, s.server_def.task_index)
                            for s in workers + ps_servers],
            "added": added, "own_elsewhere": own_elsewhere, "again": again}


def case_local_cluster_threads_update_one_ps_variable(tf):
    workers, _ = _cluster(tf, 2, 1)
    with tf.Graph().as_default() as graph:
        with tf.device("/job:ps/task:0"):
            counter = tf.Variable(0, name="counter")
            step = tf.assign_add(counter, 1)
        with tf.Session(workers[0].target) as sess:
            sess.run(counter.initializer)

        def work(target):
            with tf.Session(target, graph=graph) as sess:
                for _ in range(5):
                    sess.run(step)

        threads = [threading.Thread(target=work, args=(w.target,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with tf.Session(workers[1].target) as sess:
            return {"counter": sess.run(counter)}
