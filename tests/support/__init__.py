"""Test support shared across the test packages (a scripted OpenAI-compatible server, ...)."""
