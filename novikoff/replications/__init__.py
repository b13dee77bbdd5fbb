"""The source documents' experiments: their tables recomputed, their items indexed, baselines."""

__all__: list[str] = []
