"""The runtime: runs and their parameters, resource limits, bounded I/O, parallel executors."""

__all__: list[str] = []
