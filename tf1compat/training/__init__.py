"""`tf.train` machinery, as subsystems: `optimizers/` (Optimizer and its slots), `saving/`
(Saver, checkpoint files and utilities, meta graphs, freezing), `sessions/`
(MonitoredSession, hooks, Supervisor, Coordinator), `saved_model/`; and the small
utilities beside them (global step, learning-rate decay, moving averages, device setters,
input producers)."""
