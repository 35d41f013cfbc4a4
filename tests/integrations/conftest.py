from tests.export.conftest import _cache_dir, every_task_dataset  # noqa: F401  (fixtures)
from tests.support.fake_openai import fake_openai_server  # noqa: F401  (fixture)
