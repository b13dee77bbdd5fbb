"""The runtime: runs and their parameters, resource limits, bounded I/O, parallel executors."""
