"""`tf.contrib.slim.queues` (TF 1.15): `QueueRunners`, the context manager slim's
evaluation scripts wrap their Session loops in.

    with slim.queues.QueueRunners(sess):
        images, labels = sess.run([images_batch, labels_batch])

Entering starts (as daemon threads) every QueueRunner of the default graph's
QUEUE_RUNNERS collection under a fresh Coordinator; leaving asks them to stop and joins
them, waiting up to 120 seconds, as slim does, and closes the session if one will not
stop (so no thread stays blocked on its queues).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, List

from tf1compat.framework.graph import GraphKeys, get_default_graph
from tf1compat.training.sessions.coordinator import Coordinator

__all__ = ["QueueRunners"]

_STOP_GRACE_PERIOD_SECS = 120


@contextlib.contextmanager
def QueueRunners(session: Any) -> Iterator[None]:  # noqa: N802 (slim's name)
    """Runs the default graph's queue runners on `session` for the `with` block."""
    coord = Coordinator()
    threads: List[Any] = []
    try:
        for runner in get_default_graph().get_collection(GraphKeys.QUEUE_RUNNERS):
            threads.extend(runner.create_threads(session, coord=coord, daemon=True,
                                                 start=True))
        yield
    finally:
        coord.request_stop()
        try:
            coord.join(threads, stop_grace_period_secs=_STOP_GRACE_PERIOD_SECS)
        except RuntimeError:
            session.close()
