"""Perception probes for Paper Folding Puzzles: answers checked against the fold codes' meaning and against the
drawn option pictures (holes counted by flood fill), and pairing with the single-step items of the same seed."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.pfp.perception import LETTERS, fold_questions

#: What the first fold moves, read off the fold codes' definition (c+ the side the normal points to, thirds the
#: outer third at the low or high end).
MOVED = {
    "Hc+": "top", "Hc-": "bottom", "Hh": "top", "Hl": "bottom",
    "Vc+": "right", "Vc-": "left", "Vh": "right", "Vl": "left",
    "Dc+": "lower right", "Dc-": "upper left", "Dh": "lower right", "Dl": "upper left",
    "Ac+": "upper right", "Ac-": "lower left", "Ah": "upper right", "Al": "lower left",
}  # fmt: skip


def _enclosed_white_regions(png: bytes) -> int:
    """White regions of a picture that do not touch its border (holes inside the paper), as 4-connected regions
    of white runs (runs of one row joined to the overlapping runs of the row above); regions of a few anti-aliased
    pixels are left out."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    white = pixels.min(axis=2) > 235
    height, width = white.shape
    parent: list[int] = []
    size: list[int] = []
    border: list[bool] = []

    def root(run: int) -> int:
        while parent[run] != run:
            parent[run] = parent[parent[run]]
            run = parent[run]
        return run

    above: list[tuple[int, int, int]] = []
    for y in range(height):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], white[y].astype(np.int8), [0]))))
        row = []
        for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
            run = len(parent)
            parent.append(run)
            size.append(stop - start)
            border.append(y in (0, height - 1) or start == 0 or stop == width)
            for other_start, other_stop, other in above:
                if max(start, other_start) < min(stop, other_stop):  # the runs share a column: joined
                    a, b = root(run), root(other)
                    if a != b:
                        parent[b] = a
                        size[a] += size[b]
                        border[a] = border[a] or border[b]
            row.append((start, stop, run))
        above = row
    roots = {root(run) for run in range(len(parent))}
    return sum(1 for r in roots if not border[r] and size[r] >= 6)


@pytest.fixture(scope="module")
def probes_and_sources():
    probes = list(make("pfp/single-step-perception").generate(40, 8, knobs={"questions": 4}))
    sources = list(make("pfp/single-step").generate(20, 8))
    return probes, sources


def test_probes_ask_about_the_single_step_items_of_the_same_seed(probes_and_sources) -> None:
    from foldbench.tasks.probes import configuration_hash

    probes, sources = probes_and_sources
    by_id = {source.id: source for source in sources}
    for probe in probes:
        source = by_id[probe.metadata["source_item"]]  # among the first 40 / 4 items, or twice as many
        assert probe.inputs["puzzle"] == source.inputs["puzzle"] and probe.inputs["images"] == source.inputs["images"]
        assert probe.metadata["source_seed"] == source.seed
        assert probe.metadata["configuration"] == configuration_hash(source.inputs)
        assert probe.target["answer"] in probe.inputs["choices"]
    assert len({p.metadata["source_item"] for p in probes}) > 5


def test_answers_agree_with_the_fold_codes_and_the_pictures(probes_and_sources) -> None:
    probes, sources = probes_and_sources
    task = make("pfp/single-step")
    checked = set()
    for source in sources:
        pictures = dict(task.assets(source))
        for kind, text, _choices, answer in fold_questions(source.inputs):
            codes = source.metadata["folds"]
            if kind == "fold_count":
                assert int(answer) == len(codes)
            elif kind == "fold_side":
                assert answer == MOVED[codes[0][0]]
            elif kind == "cutout_count":
                assert int(answer) == len(source.metadata["cutouts"])
            elif kind in ("option_holes", "most_holes"):
                counts = [_enclosed_white_regions(pictures[path]) for path in source.inputs["images"]["options"]]
                if kind == "option_holes":
                    letter = text.split("option ")[1][0]
                    assert int(answer) == counts[LETTERS.index(letter)], (source.id, counts)
                else:
                    assert counts.count(max(counts)) == 1 and answer == LETTERS[counts.index(max(counts))]
            checked.add(kind)
    assert {"fold_count", "fold_side", "cutout_count", "option_holes"} <= checked


def test_the_oracle_is_right_and_replies_are_strict(probes_and_sources) -> None:
    probes, _ = probes_and_sources
    task = make("pfp/single-step-perception")
    item = probes[0]
    assert task.score(item, task.oracle(item)).values["correct"] == 1.0
    assert task.score(item, task.parse(item, "the answer is " + item.target["answer"])).values == {
        "correct": 0.0,
        "parse_failure": 1.0,
    }


def test_the_questions_knob_is_bounded() -> None:
    with pytest.raises(InvalidKnobError, match="'questions'"):
        next(make("pfp/single-step-perception").generate(1, 0, knobs={"questions": 9}))
