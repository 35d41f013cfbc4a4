"""Datasets the OrigamiSpace tests share: generated once per run, whichever module and worker asks first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.datasets import FOLDABILITY_AUDIT, shared_datasets


@pytest.fixture(scope="session")
def foldability_audit_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The foldability audit's dataset (:data:`tests.support.datasets.FOLDABILITY_AUDIT`); read-only."""
    return shared_datasets(tmp_path_factory, {0: FOLDABILITY_AUDIT})[0]
