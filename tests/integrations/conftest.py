from tests.export.conftest import _cache_dir, every_task_dataset  # noqa: F401  (fixtures)
