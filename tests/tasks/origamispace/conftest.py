from tests.support.fake_openai import fake_openai_server  # noqa: F401  (a fixture)
