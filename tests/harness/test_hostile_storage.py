"""A reply with lone surrogates runs through the runner into SQLite and into both reports."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from foldbench.harness import Store, evaluate
from foldbench.harness.report import write_report
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from foldbench.testing.fake_openai import always, lone_surrogate

TASK = make("mentalblackboard/prediction")


def test_a_reply_with_lone_surrogates_is_stored_and_reported(
    tmp_path: Path,
    prediction_dataset: Path,
    fake_openai_server,  # type: ignore[no-untyped-def]
) -> None:
    server = fake_openai_server(always(lone_surrogate('I see \ud800 holes \udc00 {"total_holes": 1')))
    items = read_items(prediction_dataset)[:3]
    model = make_model("openai:fake", base_url=server.base_url, max_retries=0, timeout_s=5)

    async def run() -> None:
        try:
            await evaluate(
                store=store,
                run_name="r",
                task=TASK,
                dataset_dir=prediction_dataset,
                items=items,
                model=model,
                modality="text",
            )
        finally:
            await model.aclose()

    with Store(tmp_path / "runs.db") as store:
        asyncio.run(run())
        rows = list(store.scores("r"))
        assert len(rows) == 3
        assert all(row.text.startswith("I see \ufffd holes \ufffd") for row in rows)
        assert all(row.parse_failure is not None for row in rows)
        markdown, html = write_report(store, "r", tmp_path / "report", task=TASK, items=items)
    assert "\ufffd" in markdown.read_text(encoding="utf-8") + html.read_text(encoding="utf-8")


@pytest.mark.parametrize("text", ["plain ASCII prompt", "un trou en étoile ☆", 'quotes " and \\ and a tab\t'])
def test_a_prompt_encoded_by_the_caller_is_stored_as_the_store_encodes_it(tmp_path: Path, text: str) -> None:
    from foldbench.harness.store import TurnRecord, _json
    from foldbench.models.base import ModelReply
    from foldbench.models.fingerprint import keyed_record

    record = {"system": None, "parts": [{"type": "text", "text": text}]}
    key, record_json = keyed_record("m", {}, record)
    with Store(tmp_path / "runs.db") as store:
        store.record_turn(
            run="r", item_id="i", turn=TurnRecord(0, key, record, prompt_json=record_json), model="m", params={},
            reply=ModelReply("ok"),
        )  # fmt: skip
        stored = store._db.execute("SELECT prompt FROM requests WHERE key = ?", (key,)).fetchone()[0]
    assert stored == _json(record)
