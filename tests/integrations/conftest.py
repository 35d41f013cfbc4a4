from tests.export.conftest import _cache_dir  # noqa: F401  (a fixture)
