"""`tf.train.summary_iterator`: reads back the `tf.Event` records of an events file."""

from __future__ import annotations

from typing import Any, Iterator

from tf1compat.serialization.messages import Event


def summary_iterator(path: Any) -> Iterator[Event]:
    """Yields each record of the events file at `path` parsed as a `tf.Event`, in order."""
    # Imported here: tf1compat.data imports the summary package indirectly.
    from tf1compat.data.tf_record import tf_record_iterator
    for record in tf_record_iterator(path):
        yield Event.FromString(record)
