"""The source documents' experiments: their tables recomputed, their items indexed, baselines."""
