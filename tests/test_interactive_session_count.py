"""`tf.InteractiveSession`: TF logs an error (and goes on) when a second one is opened while
another is still open, as notebooks that re-run their first cell do; closing twice counts
once."""

import logging

import tf1compat as tf
from tf1compat.util import tf_logging


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.levelno, record.getMessage()))


def test_second_interactive_session_logs_error_and_close_counts_once() -> None:
    records = _Records()
    logger = tf_logging.get_logger()
    logger.addHandler(records)
    try:
        with tf.Graph().as_default():
            # Sessions other tests left open count too: compare against the count after
            # the first one.
            first = tf.InteractiveSession()
            before = len(records.messages)
            second = tf.InteractiveSession()
            assert len(records.messages) == before + 1
            level, text = records.messages[-1]
            assert level == logging.ERROR
            assert text.startswith("An interactive session is already active.")
            assert tf.constant(3).eval() == 3       # the newest one is the default
            second.close()
            second.close()
            first.close()
            third = tf.InteractiveSession()
            third.close()
            assert len(records.messages) == 2 * before + 1
    finally:
        logger.removeHandler(records)
