"""Integrations with other tools: scikit-learn estimators, the pytest plugin, plotting."""

__all__: list[str] = []
