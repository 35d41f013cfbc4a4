"""A real generation through the local ``transformers`` adapter: one picture, one question, at most 8 tokens.

Usage: python bench/check_transformers_local.py MODEL_DIR

Needs ``pip install 'foldbench[local]'`` and a local vision-language model directory; the test suite cannot
run it (no weights ship with the project), so it is a manual check. Exits 1 when the reply carries an error or
its token count falls outside 1-8.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from foldbench.models.transformers_local import TransformersModel
from foldbench.tasks.base import ImagePart, TextPart
from foldbench.testing.model_requests import make_request, write_png


async def _ask(model_dir: str, folder: Path) -> int:
    write_png(folder / "a.png", (255, 255, 255), size=64)
    adapter = TransformersModel(model_dir, max_new_tokens=8)
    try:
        reply = await adapter.complete(make_request(folder, (ImagePart("a.png"), TextPart("What colour is this?"))))
    finally:
        await adapter.aclose()
    print(f"reply: {reply.text!r}; completion tokens: {reply.completion_tokens}; error: {reply.error}")
    tokens_ok = reply.completion_tokens is not None and 1 <= reply.completion_tokens <= 8
    return 0 if reply.error is None and tokens_ok else 1


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python bench/check_transformers_local.py MODEL_DIR")
    with tempfile.TemporaryDirectory() as folder:
        sys.exit(asyncio.run(_ask(sys.argv[1], Path(folder))))


if __name__ == "__main__":
    main()
