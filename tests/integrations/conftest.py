from tests.export.conftest import _cache_dir  # noqa: F401  (a fixture)
from tests.support.fake_openai import fake_openai_server  # noqa: F401  (fixture)
