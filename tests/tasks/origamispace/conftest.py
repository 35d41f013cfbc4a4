"""Datasets the OrigamiSpace tests share: generated once per run, whichever module and worker asks first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.datasets import FOLDABILITY_AUDIT, ORDERING_AUDIT, PATTERN_PREDICTION_AUDIT, shared_datasets


@pytest.fixture(scope="session")
def foldability_audit_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The foldability audit's dataset (:data:`tests.support.datasets.FOLDABILITY_AUDIT`); read-only."""
    return shared_datasets(tmp_path_factory, {0: FOLDABILITY_AUDIT})[0]


@pytest.fixture(scope="session")
def pattern_prediction_audit_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pattern prediction's audited dataset (:data:`tests.support.datasets.PATTERN_PREDICTION_AUDIT`); read-only."""
    return shared_datasets(tmp_path_factory, {0: PATTERN_PREDICTION_AUDIT})[0]


@pytest.fixture(scope="session")
def ordering_audit_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Multi-step ordering's audited dataset (:data:`tests.support.datasets.ORDERING_AUDIT`); read-only."""
    return shared_datasets(tmp_path_factory, {0: ORDERING_AUDIT})[0]
