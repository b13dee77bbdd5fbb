"""Labelled data: the exact dataset, its readers, transforms, examples and multiclass data.

The names of :mod:`novikoff.data.dataset` are re-exported here, so ``from novikoff.data
import Dataset`` keeps working.
"""

from novikoff.data.dataset import Dataset, exact_rows, map_labels, plain_features, sign_labels, validate_bias

__all__ = ["Dataset", "exact_rows", "map_labels", "plain_features", "sign_labels", "validate_bias"]
