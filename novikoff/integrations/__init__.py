"""Integrations with other tools: scikit-learn estimators, the pytest plugin, plotting."""
