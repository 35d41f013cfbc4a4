"""The request key: stable across runs and processes, sensitive to everything that can change a reply."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.messages import Conversation, ImagePart, Message, Prompt, TextPart, VideoPart
from foldbench.models import ModelConfigError, PromptInputError, request_fingerprint
from foldbench.models._files import PromptFiles
from foldbench.testing.model_requests import write_png

PARAMS: dict[str, Any] = {"temperature": 0.0, "max_tokens": None, "extra_body": {}}


def _prompt(*parts: TextPart | ImagePart | VideoPart, system: str | None = None) -> Conversation:
    return Prompt(parts=parts, template_version="t1", system=system).conversation()


def test_the_key_is_the_same_in_another_process(tmp_path: Path) -> None:
    write_png(tmp_path / "a.png", (10, 20, 30))
    prompt = _prompt(TextPart("Which?"), ImagePart("a.png"), system="Be brief.")
    here = request_fingerprint("openai:m", PARAMS, prompt, tmp_path)
    code = (
        "import sys; from pathlib import Path\n"
        "from foldbench.models import request_fingerprint\n"
        "from foldbench.messages import ImagePart, Prompt, TextPart\n"
        "p = Prompt(parts=(TextPart('Which?'), ImagePart('a.png')), template_version='t1', system='Be brief.')\n"
        "p = p.conversation()\n"
        "print(request_fingerprint('openai:m', {'extra_body': {}, 'max_tokens': None, 'temperature': 0.0}, p,"
        " Path(sys.argv[1])))\n"
    )
    there = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert there.stdout.strip() == here and len(here) == 64 and int(here, 16) >= 0


def test_images_enter_by_their_bytes_not_their_path(tmp_path: Path) -> None:
    write_png(tmp_path / "a.png", (10, 20, 30))
    write_png(tmp_path / "copy/b.png", (10, 20, 30))
    write_png(tmp_path / "c.png", (10, 20, 31))
    key = {
        name: request_fingerprint("m", PARAMS, _prompt(ImagePart(name)), tmp_path)
        for name in ("a.png", "copy/b.png", "c.png")
    }
    assert key["a.png"] == key["copy/b.png"] != key["c.png"]


def test_rewriting_an_image_changes_the_key_even_with_a_shared_cache(tmp_path: Path) -> None:
    path = write_png(tmp_path / "a.png", (0, 0, 0))
    files = PromptFiles()
    before = request_fingerprint("m", PARAMS, _prompt(ImagePart("a.png")), tmp_path, files=files)
    write_png(path, (0, 0, 0), size=9)
    assert request_fingerprint("m", PARAMS, _prompt(ImagePart("a.png")), tmp_path, files=files) != before


def test_every_ingredient_changes_the_key(tmp_path: Path) -> None:
    write_png(tmp_path / "f0.png", (1, 1, 1))
    write_png(tmp_path / "f1.png", (2, 2, 2))
    (tmp_path / "clip.mp4").write_bytes(b"not really a video")
    base = _prompt(TextPart("Q"), VideoPart("clip.mp4", ("f0.png", "f1.png")), system="S")
    variants = [
        ("m", PARAMS, base),
        ("m2", PARAMS, base),
        ("m", {**PARAMS, "temperature": 0.7}, base),
        ("m", {**PARAMS, "max_tokens": 100}, base),
        ("m", {**PARAMS, "extra_body": {"seed": 1}}, base),
        ("m", PARAMS, _prompt(TextPart("Q"), VideoPart("clip.mp4", ("f0.png", "f1.png")), system=None)),
        ("m", PARAMS, _prompt(TextPart("Q "), VideoPart("clip.mp4", ("f0.png", "f1.png")), system="S")),
        ("m", PARAMS, _prompt(TextPart("Q"), VideoPart("clip.mp4", ("f1.png", "f0.png")), system="S")),
        ("m", PARAMS, _prompt(VideoPart("clip.mp4", ("f0.png", "f1.png")), TextPart("Q"), system="S")),
    ]
    keys = [request_fingerprint(name, params, prompt, tmp_path) for name, params, prompt in variants]
    assert len(set(keys)) == len(keys)


def test_parameter_order_does_not_matter(tmp_path: Path) -> None:
    reordered = dict(reversed(list(PARAMS.items())))
    prompt = _prompt(TextPart("Q"))
    assert request_fingerprint("m", PARAMS, prompt, tmp_path) == request_fingerprint("m", reordered, prompt, tmp_path)


@given(st.lists(st.text(max_size=20), max_size=4), st.lists(st.text(max_size=20), max_size=4))
def test_different_texts_give_different_keys(first: list[str], second: list[str]) -> None:
    a = request_fingerprint("m", PARAMS, _prompt(*map(TextPart, first)), Path("."))
    b = request_fingerprint("m", PARAMS, _prompt(*map(TextPart, second)), Path("."))
    assert (a == b) == (first == second)


def test_missing_files_and_non_json_params_are_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(PromptInputError, match="missing.png"):
        request_fingerprint("m", PARAMS, _prompt(ImagePart("missing.png")), tmp_path)
    with pytest.raises(ModelConfigError, match="not plain JSON"):
        request_fingerprint("m", {"temperature": float("nan")}, _prompt(TextPart("Q")), tmp_path)
    with pytest.raises(ModelConfigError, match="not plain JSON"):
        request_fingerprint("m", {"callback": print}, _prompt(TextPart("Q")), tmp_path)


def test_a_one_shot_prompt_keeps_the_key_of_format_1(tmp_path: Path) -> None:
    """Stored replies to unchanged one-shot prompts stay valid: the key is still the sha256 of the canonical JSON
    of ``{format, model, params, prompt: {system, parts}}``, images by the sha256 of their bytes."""
    import hashlib
    import json

    png = write_png(tmp_path / "a.png", (10, 20, 30)).read_bytes()
    record = {
        "format": "foldbench-request/1",
        "model": "openai:m",
        "params": PARAMS,
        "prompt": {
            "system": "Be brief.",
            "parts": [{"type": "text", "text": "Which?"}, {"type": "image", "sha256": hashlib.sha256(png).hexdigest()}],
        },
    }
    expected = hashlib.sha256(
        json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    prompt = _prompt(TextPart("Which?"), ImagePart("a.png"), system="Be brief.")
    assert request_fingerprint("openai:m", PARAMS, prompt, tmp_path) == expected


def test_an_image_in_memory_is_the_same_request_as_the_same_file(tmp_path: Path) -> None:
    data = write_png(tmp_path / "a.png", (10, 20, 30)).read_bytes()
    on_disk = request_fingerprint("m", PARAMS, _prompt(ImagePart("a.png")), tmp_path)
    in_memory = request_fingerprint("m", PARAMS, _prompt(ImagePart(data=data)), None)
    other = request_fingerprint("m", PARAMS, _prompt(ImagePart(data=data + b"\0")), None)
    assert on_disk == in_memory != other


def test_every_turn_of_a_conversation_changes_the_key(tmp_path: Path) -> None:
    opening = _prompt(TextPart("Guess."))
    turns = [
        opening,
        opening.then(Message("assistant", (TextPart("50"),)), Message("user", (TextPart("higher"),))),
        opening.then(Message("assistant", (TextPart("50"),)), Message("user", (TextPart("lower"),))),
        opening.then(Message("assistant", (TextPart("51"),)), Message("user", (TextPart("higher"),))),
    ]
    keys = [request_fingerprint("m", PARAMS, conversation, tmp_path) for conversation in turns]
    assert len(set(keys)) == len(keys)
    # a user turn in the place of the assistant's is another conversation, not the same text
    swapped = opening.then(Message("user", (TextPart("50"),)), Message("user", (TextPart("higher"),)))
    assert request_fingerprint("m", PARAMS, swapped, tmp_path) not in keys


def test_request_parameters_enter_the_key_only_when_given(tmp_path: Path) -> None:
    prompt = _prompt(TextPart("Q"))
    plain = request_fingerprint("m", PARAMS, prompt, tmp_path)
    assert request_fingerprint("m", PARAMS, prompt, tmp_path, request_params={}) == plain
    assert request_fingerprint("m", PARAMS, prompt, tmp_path, request_params={"max_tokens": 5}) != plain


_plain_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@given(
    model=st.text(max_size=12),
    params=st.dictionaries(st.text(max_size=6), _plain_json, max_size=4),
    record=st.dictionaries(st.text(max_size=6), _plain_json, max_size=4),
    request_params=st.none() | st.dictionaries(st.text(max_size=6), _plain_json, max_size=3),
)
def test_the_key_is_the_hash_of_the_whole_record_and_the_prompt_text_its_own_encoding(
    model: str, params: dict[str, Any], record: dict[str, Any], request_params: dict[str, Any] | None
) -> None:
    import hashlib
    import json

    from foldbench.models.fingerprint import FINGERPRINT_FORMAT, keyed_record, record_fingerprint

    whole: dict[str, Any] = {"format": FINGERPRINT_FORMAT, "model": model, "params": params, "prompt": record}
    if request_params:
        whole["request_params"] = request_params
    text = json.dumps(whole, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    key, prompt = keyed_record(model, params, record, request_params=request_params)
    assert key == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert key == record_fingerprint(model, params, record, request_params=request_params)
    assert prompt == json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
