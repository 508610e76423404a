"""Saving and restoring: `Saver` and TF's checkpoint files, object-based checkpoints,
meta graphs, checkpoint utilities, freezing graphs (`graph_util`)."""
