"""Datasets the OrigamiBench tests share: generated once per run, whichever module and worker asks first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.datasets import ONE_STEP_AUDITS, shared_datasets


@pytest.fixture(scope="session")
def one_step_audit_datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each one-step task's audited dataset by task id (:data:`tests.support.datasets.ONE_STEP_AUDITS`);
    read-only."""
    return shared_datasets(tmp_path_factory, ONE_STEP_AUDITS)
