from collections.abc import Iterator

import pytest

from tests.export.conftest import _cache_dir  # noqa: F401  (a fixture)


@pytest.fixture(scope="package")
def local_ray() -> Iterator[None]:
    """One local Ray instance (2 CPUs) for the Ray tests of this package, started once: starting Ray takes 5-13 s
    of wall time on a loaded machine. Its modules are in the ``ray`` xdist group, so they run on one worker."""
    ray = pytest.importorskip("ray", reason="the 'ray' extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
