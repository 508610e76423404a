"""Running training: `MonitoredSession` and its hooks, `SessionManager`, `Supervisor`,
`Coordinator`, evaluation loops."""
