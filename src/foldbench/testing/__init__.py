"""Helpers for testing foldbench and code built on it: a scripted OpenAI-compatible server
(:mod:`~foldbench.testing.fake_openai`), two toy task families (:mod:`~foldbench.testing.toy_task`), hostile reply
texts for parsers (:mod:`~foldbench.testing.hostile_text`), model requests over small PNG files
(:mod:`~foldbench.testing.model_requests`) and a headless-browser driver (:mod:`~foldbench.testing.cdp`).

They are used by foldbench's own tests and benchmark scripts; nothing else in the package imports them.
"""
