"""Herald's game master: entry point, config, storage, sessions, delivery, timers, drawing kit."""

__version__ = "0.1.0"
