"""Blind baselines for multiple-choice datasets: can the answer be found without reading the question?

A choice dataset is only worth running if no rule that looks at the options alone (or at the item records without
the question) beats chance. :func:`audit_dataset` reads a dataset directory, turns each item into a
:class:`ChoiceItem` (its answer index, its option pictures, and its option records when it has them), and scores a
battery of such rules:

* **pixel medoid / outlier** under several distances: L1 on grey pixels (48 px and 12 px squares), the Jaccard
  distance of ink masks (anything not white) and of dark-ink masks, and the L1 distance of colour histograms;
  the medoid is the option with the smallest summed distance to the others, the outlier the largest;
* **extremes**: the option with the most / least ink (pixels not white) and the most / least dark ink;
* **record medoid / outlier**: the same on the option records, with the number of differing JSON leaves as the
  distance, and the records with the most / least leaves;
* **odd one out by containment**: when options are outlines (folded states, silhouettes), the true ones may nest
  as a chain (each inside the previous); the rule picks the option whose removal leaves the longest chain of the
  others under ink-mask containment (one ink mask inside another when at least :data:`CONTAIN_FRACTION` of its
  pixels are ink in the other);
* **text and numbers** (when options have records, e.g. names, orders or values written as text): the medoid /
  outlier under the Jaccard distance of character bigrams, the longest / shortest option, and, when the options
  carry numbers, the medoid / outlier under the L1 distance of their numbers and the largest / smallest value
  (so a distractor set of the answer ±1 and ±2, which makes the answer the middle value, is flagged);
* **reference-aware** (when items show a reference or question picture, read with
  :func:`foldbench.tasks.choice_fields.reference_picture`): the option nearest to / farthest from that picture by ink
  area (pixels not white), by grey-level distance (L1 on 48 px grey pictures) and by outline overlap (the
  Jaccard distance of ink masks); a task whose answer is meant to resemble its reference (OrigamiBench's
  one-step associative: the reference plus one fold) declares so with :data:`REFERENCE_LIKENESS_ATTRIBUTE`, and
  these rules are then reported as *expected by design* rather than flagged (never silently left out);
* **letter**: always answering the most frequent answer letter of the dataset.

Ties are split: a rule that picks k options, one of them right, scores 1/k for the item, so a rule that cannot
tell options apart scores exactly chance. Each accuracy comes with a Wilson 95 % interval; a baseline is
*flagged* when its accuracy lies outside the band ``chance ± margin`` (15-35 % for four options with the default
margin of 0.10).

**Plugging in a family.** :func:`read_choice_items` asks each reader of :data:`CHOICE_READERS` in turn; a reader
takes the parsed ``items.jsonl`` lines and the dataset directory and returns the items as :class:`ChoiceItem`, or
None when the dataset is not of its kind. The default reader reads each line as a
:class:`~foldbench.tasks.choice_question.ChoiceQuestion`: its answer must be a letter, and it needs one picture
per option (optionally with a reference picture and one record per option) or, for options that are text or
values only, two records or more.
A family with another layout adds its reader with :func:`register_choice_reader`.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from foldbench import jsontext
from foldbench.errors import FoldbenchError
from foldbench.tasks.choice import GREY_SIZE, MASK_SIZE, WHITE_LEVEL
from foldbench.tasks.choice_question import ChoiceQuestion

__all__ = [
    "CHOICE_READERS",
    "DEFAULT_MARGIN",
    "REFERENCE_LIKENESS_ATTRIBUTE",
    "AuditError",
    "AuditReport",
    "BaselineResult",
    "ChoiceItem",
    "ChoiceReader",
    "audit_choice_items",
    "audit_dataset",
    "read_choice_items",
    "reference_likeness_reason",
    "register_choice_reader",
    "wilson_interval",
]

DEFAULT_MARGIN = 0.10
"""A baseline is flagged when its accuracy leaves ``chance ± DEFAULT_MARGIN``."""
COARSE_SIZE = 12
DARK_LEVEL = 100
"""Grey levels below this count as dark ink (outlines, strokes)."""
HISTOGRAM_LEVELS = 4
"""Colour histograms quantise each RGB channel to this many levels."""
CONTAIN_FRACTION = 0.97
"""One ink mask lies inside another when at least this fraction of its pixels are ink in the other."""
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
REFERENCE_LIKENESS_ATTRIBUTE = "reference_likeness_by_design"
"""A task class attribute: a sentence saying why its answer is meant to look like its reference picture (the
reference-aware rules are then reported as expected, not flagged); absent or None for every other task."""
REFERENCE_RULE_PREFIX = "reference "
"""The names of the reference-aware rules start with this."""


class AuditError(FoldbenchError, ValueError):
    """A dataset the audit cannot read as a multiple-choice dataset."""


@dataclass(frozen=True, slots=True)
class ChoiceItem:
    """One multiple-choice question as the audit sees it: never the question itself."""

    id: str
    """The item id."""
    answer: int
    """The index of the right option."""
    option_images: tuple[Path, ...]
    """One picture per option (may be empty when the family has none)."""
    option_records: tuple[Any, ...] = ()
    """One JSON-like record per option (may be empty)."""
    reference_image: Path | None = None
    """The reference or question picture the options are compared with, when the item shows one."""


ChoiceReader = Callable[[Sequence[Mapping[str, Any]], Path], list[ChoiceItem] | None]


def _standard_reader(records: Sequence[Mapping[str, Any]], root: Path) -> list[ChoiceItem] | None:
    """Items whose :class:`~foldbench.tasks.choice_question.ChoiceQuestion` has a letter answer and option
    pictures or records."""
    items: list[ChoiceItem] = []
    for record in records:
        question = ChoiceQuestion.of_record(record)
        if question is None or question.answer not in LETTERS:
            return None
        records_shown = question.option_records
        pictures = tuple(root / p for p in question.option_pictures)
        if pictures:
            option_records = records_shown if len(records_shown) == len(pictures) else ()
        elif len(records_shown) >= 2:
            option_records = records_shown
        else:
            return None
        index = LETTERS.index(question.answer)
        if index >= len(pictures or option_records):
            raise AuditError(f"item {record.get('id')}: answer {question.answer} but only "
                             f"{len(pictures or option_records)} options")
        reference = question.reference_picture if pictures else None
        items.append(ChoiceItem(str(record.get("id")), index, pictures, option_records,
                                root / reference if reference is not None else None))
    return items


CHOICE_READERS: list[ChoiceReader] = [_standard_reader]
"""The readers :func:`read_choice_items` tries, in order."""


def register_choice_reader(reader: ChoiceReader) -> None:
    """Add a reader for another dataset layout (tried before the default one)."""
    CHOICE_READERS.insert(0, reader)


def read_choice_items(directory: Path) -> list[ChoiceItem]:
    """The items of a dataset directory as choice items; :class:`AuditError` when no reader understands them."""
    path = Path(directory) / "items.jsonl"
    if not path.exists():
        raise AuditError(f"{directory} has no items.jsonl; is it a foldbench dataset?")
    try:
        records = [jsontext.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        raise AuditError(f"{path}: not JSON lines: {error}") from None
    if not records:
        raise AuditError(f"{path} holds no items")
    for reader in CHOICE_READERS:
        items = reader(records, Path(directory))
        if items is not None:
            return items
    raise AuditError(
        f"{directory} is not a multiple-choice dataset the audit can read (it needs a letter answer and one "
        "picture or record per option; generate PFP datasets with panels on)"
    )


# ---- statistics -----------------------------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson_interval(25, 100); round(low, 3), round(high, 3)
    (0.175, 0.343)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # at p = 0 or 1 the interval ends exactly at p (rounding would put it a hair inside)
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class BaselineResult:
    """One blind rule's score on a dataset."""

    name: str
    description: str
    accuracy: float
    low: float
    high: float
    items: int
    flagged: bool
    expected: str | None = None
    """Why this rule is meant to find the answer on this task (then it is never flagged), or None."""


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Every baseline's result, the band they were held to, and the answer-letter counts."""

    items: int
    options: int
    chance: float
    band: tuple[float, float]
    baselines: tuple[BaselineResult, ...]
    letters: dict[str, int]

    @property
    def flagged(self) -> list[BaselineResult]:
        """The baselines outside the band."""
        return [b for b in self.baselines if b.flagged]

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "items": self.items,
            "options": self.options,
            "chance": self.chance,
            "band": list(self.band),
            "letters": self.letters,
            "flagged": [b.name for b in self.flagged],
            "baselines": [
                {
                    "name": b.name,
                    "description": b.description,
                    "accuracy": b.accuracy,
                    "interval": [b.low, b.high],
                    "items": b.items,
                    "flagged": b.flagged,
                    "expected": b.expected,
                }
                for b in self.baselines
            ],
        }

    def to_markdown(self, title: str = "audit") -> str:
        """The report as a Markdown table."""
        low, high = self.band
        lines = [
            f"# {title}",
            "",
            f"{self.items} items, {self.options} options, chance {self.chance:.1%}, band {low:.0%}-{high:.0%}; "
            f"answer letters {', '.join(f'{k} {v}' for k, v in sorted(self.letters.items()))}.",
            "",
            "| baseline | accuracy | 95 % interval | flag |",
            "|---|---|---|---|",
        ]
        for b in self.baselines:
            flag = "**outside band**" if b.flagged else ("expected by design" if b.expected else "")
            lines.append(f"| {b.name} | {b.accuracy:.1%} | {b.low:.1%}-{b.high:.1%} | {flag} |")
        lines += ["", f"{len(self.flagged)} of {len(self.baselines)} baselines outside the band."]
        reasons = sorted({b.expected for b in self.baselines if b.expected})
        if reasons:
            names = ", ".join(b.name for b in self.baselines if b.expected)
            lines += ["", f"Not held to the band ({names}): {'; '.join(reasons)}"]
        return "\n".join(lines) + "\n"


# ---- features -------------------------------------------------------------------------------------------------


FEW_COLOURS = 1024
"""Pictures with at most this many distinct colours are counted colour by colour, not pixel by pixel."""


def _colour_counts(rgb: Image.Image, bins: int) -> np.ndarray:
    """How many pixels of an RGB picture fall in each bin of the quantised colour cube (``float32``); a picture
    of few colours (drawings) is counted per colour, which gives the same counts in a fraction of the time."""
    colours = rgb.getcolors(FEW_COLOURS)
    if colours is None:
        pixels = np.asarray(rgb, dtype=np.int32).reshape(-1, 3)
        weights = None
    else:
        pixels = np.array([colour for _, colour in colours], dtype=np.int32).reshape(-1, 3)
        weights = np.array([count for count, _ in colours], dtype=np.float64)
    levels = pixels * HISTOGRAM_LEVELS // 256
    codes = (levels[:, 0] * HISTOGRAM_LEVELS + levels[:, 1]) * HISTOGRAM_LEVELS + levels[:, 2]
    return np.bincount(codes, weights=weights, minlength=bins).astype(np.float32)


def _load(paths: Sequence[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Grey squares (fine and coarse), ink and dark-ink masks, and colour histograms of option pictures."""
    greys, coarse, inks, darks, histograms = [], [], [], [], []
    bins = HISTOGRAM_LEVELS**3
    for path in paths:
        try:
            with Image.open(path) as opened:
                rgb = opened.convert("RGB")
        except (OSError, ValueError) as error:
            raise AuditError(f"cannot read option picture {path}: {error}") from None
        grey = rgb.convert("L")
        greys.append(np.asarray(grey.resize((GREY_SIZE, GREY_SIZE), Image.Resampling.BOX), dtype=np.float32))
        coarse.append(np.asarray(grey.resize((COARSE_SIZE, COARSE_SIZE), Image.Resampling.BOX), dtype=np.float32))
        square = np.asarray(grey.resize((MASK_SIZE, MASK_SIZE), Image.Resampling.NEAREST))
        inks.append(square < WHITE_LEVEL)
        darks.append(square < DARK_LEVEL)
        histogram = _colour_counts(rgb, bins)
        histograms.append(histogram / max(1.0, float(histogram.sum())))
    return (
        np.stack([g.ravel() for g in greys]),
        np.stack([c.ravel() for c in coarse]),
        np.stack([np.stack([i.ravel() for i in inks]), np.stack([d.ravel() for d in darks])]),
        np.stack(histograms),
    )


def _l1(features: np.ndarray) -> np.ndarray:
    """Pairwise L1 distances within each item: (items, options, d) -> (items, options, options)."""
    return np.abs(features[:, :, None, :] - features[:, None, :, :]).sum(axis=-1)


def _jaccard(masks: np.ndarray) -> np.ndarray:
    """Pairwise Jaccard distances of boolean masks within each item."""
    a = masks[:, :, None, :]
    b = masks[:, None, :, :]
    inter = (a & b).sum(axis=-1)
    union = (a | b).sum(axis=-1)
    return 1.0 - np.where(union > 0, inter / np.maximum(union, 1), 1.0)


def _leaves(record: Any, prefix: str = "") -> dict[str, Any]:
    """A JSON-like record flattened to ``{path: leaf}`` (floats rounded to 3 decimals)."""
    if isinstance(record, Mapping):
        out: dict[str, Any] = {}
        for key, value in record.items():
            out.update(_leaves(value, f"{prefix}/{key}"))
        return out
    if isinstance(record, list | tuple):
        out = {}
        for index, value in enumerate(record):
            out.update(_leaves(value, f"{prefix}/{index}"))
        return out
    return {prefix: round(record, 3) if isinstance(record, float) else record}


def _record_distances(records: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Pairwise leaf-difference counts of option records, and each record's leaf count."""
    distances = np.zeros((len(records), len(records[0]), len(records[0])), dtype=np.float32)
    sizes = np.zeros((len(records), len(records[0])), dtype=np.float32)
    for n, options in enumerate(records):
        flat = [_leaves(o) for o in options]
        for i, a in enumerate(flat):
            sizes[n, i] = len(a)
            for j in range(i):
                b = flat[j]
                differing = sum(1 for key in a.keys() | b.keys() if a.get(key) != b.get(key))
                distances[n, i, j] = distances[n, j, i] = differing
    return distances, sizes


def _text(record: Any) -> str:
    """An option record as text: a string as it is, anything else as canonical JSON."""
    return record if isinstance(record, str) else json.dumps(record, sort_keys=True, ensure_ascii=False)


def _bigrams(text: str) -> frozenset[str]:
    folded = " ".join(text.lower().split())
    return frozenset(folded[i : i + 2] for i in range(max(1, len(folded) - 1)))


def _text_features(records: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Pairwise Jaccard distances of the options' character bigrams, and the options' text lengths."""
    items, options = len(records), len(records[0])
    distances = np.zeros((items, options, options), dtype=np.float32)
    lengths = np.zeros((items, options), dtype=np.float32)
    for n, row in enumerate(records):
        texts = [_text(o) for o in row]
        grams = [_bigrams(t) for t in texts]
        for i, a in enumerate(grams):
            lengths[n, i] = len(texts[i])
            for j in range(i):
                b = grams[j]
                distances[n, i, j] = distances[n, j, i] = 1.0 - len(a & b) / max(1, len(a | b))
    return distances, lengths


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
"""A number written in option text ("3 layers", "45°", "2.5 units")."""


def _number_leaves(record: Any) -> list[float]:
    """The numbers of a record in leaf order: numeric leaves, and numbers written in its text leaves (booleans
    are not numbers here)."""
    values = _leaves(record).values() if isinstance(record, Mapping | list | tuple) else [record]
    numbers: list[float] = []
    for value in values:
        if isinstance(value, str):
            numbers.extend(float(match) for match in _NUMBER.findall(value[:1000]))
        elif isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            numbers.append(float(value))
    return numbers


def _numeric_features(records: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray] | None:
    """Pairwise L1 distances of the options' numeric leaves and each option's sum of them, or None when the
    options carry no numbers; an item whose options carry different numbers of numbers scores all ties."""
    items, options = len(records), len(records[0])
    distances = np.zeros((items, options, options), dtype=np.float64)
    totals = np.zeros((items, options), dtype=np.float64)
    found = False
    for n, row in enumerate(records):
        vectors = [_number_leaves(o) for o in row]
        if not vectors[0] or any(len(v) != len(vectors[0]) for v in vectors):
            continue
        found = True
        array = np.array(vectors)
        distances[n] = np.abs(array[:, None, :] - array[None, :, :]).sum(axis=-1)
        totals[n] = array.sum(axis=1)
    return (distances, totals) if found else None


def _credit(scores: np.ndarray, answers: np.ndarray, *, largest: bool) -> np.ndarray:
    """Per item, the credit of picking the option(s) with the largest (or smallest) score: 1/k when the answer
    is among k tied picks, else 0."""
    best = scores.max(axis=1, keepdims=True) if largest else scores.min(axis=1, keepdims=True)
    picked = np.isclose(scores, best, rtol=1e-6, atol=1e-6)
    hit = picked[np.arange(len(answers)), answers]
    return np.where(hit, 1.0 / picked.sum(axis=1), 0.0)


def _medoid_outlier(distances: np.ndarray, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = distances.sum(axis=2)
    return _credit(total, answers, largest=False), _credit(total, answers, largest=True)


def _containment(masks: np.ndarray) -> np.ndarray:
    """``inside[n, i, j]``: within item ``n``, option ``j``'s ink lies inside option ``i``'s (``i != j``)."""
    inter = (masks[:, :, None, :] & masks[:, None, :, :]).sum(axis=-1)
    amount = masks.sum(axis=-1)
    inside = inter >= CONTAIN_FRACTION * np.maximum(amount[:, None, :], 1)
    options = masks.shape[1]
    inside[:, np.arange(options), np.arange(options)] = False
    return inside


def _longest_chain(inside: np.ndarray, amount: np.ndarray, members: Sequence[int]) -> int:
    """The most options of ``members`` that nest as a chain (each inside the one before), for one item: the
    longest path through the containment relation, taken from the most ink to the least."""
    order = sorted(members, key=lambda k: (-amount[k], k))
    length = dict.fromkeys(order, 1)
    for position, inner in enumerate(order):
        for outer in order[:position]:
            if inside[outer, inner]:
                length[inner] = max(length[inner], length[outer] + 1)
    return max(length.values(), default=0)


def _chain_breaker(masks: np.ndarray) -> np.ndarray:
    """Per item and option, the length of the longest containment chain of the other options (the option whose
    removal leaves the longest chain is the one that breaks the chain)."""
    inside = _containment(masks)
    amounts = masks.sum(axis=-1)
    items, options = masks.shape[:2]
    scores = np.zeros((items, options), dtype=np.float32)
    for n in range(items):
        for k in range(options):
            scores[n, k] = _longest_chain(inside[n], amounts[n], [j for j in range(options) if j != k])
    return scores


def _reference_credits(references: Sequence[Path], grey: np.ndarray, ink: np.ndarray, answers: np.ndarray
                       ) -> list[tuple[str, str, np.ndarray]]:
    """The reference-aware rules: per item, the option nearest to / farthest from its reference picture by ink
    area, grey-level distance and outline overlap (``grey`` and ``ink`` are the options' features, shaped
    ``(items, options, d)``)."""
    reference_grey, _, reference_masks, _ = _load(references)
    reference_ink = reference_masks[0]
    area = np.abs(ink.sum(axis=-1).astype(np.float32) - reference_ink.sum(axis=-1).astype(np.float32)[:, None])
    pixels = np.abs(grey - reference_grey[:, None, :]).sum(axis=-1)
    inter = (ink & reference_ink[:, None, :]).sum(axis=-1)
    union = (ink | reference_ink[:, None, :]).sum(axis=-1)
    overlap = 1.0 - np.where(union > 0, inter / np.maximum(union, 1), 1.0)
    credits = []
    for name, description, distance in (
        ("ink area", "difference of ink area (pixels not white)", area),
        ("grey L1", "L1 distance of 48 px grey pictures", pixels),
        ("outline IoU", "Jaccard distance of ink masks (outline overlap)", overlap),
    ):
        credits.append((f"{REFERENCE_RULE_PREFIX}nearest by {name}",
                        f"the option with the least {description} to the reference picture",
                        _credit(distance, answers, largest=False)))
        credits.append((f"{REFERENCE_RULE_PREFIX}farthest by {name}",
                        f"the option with the most {description} to the reference picture",
                        _credit(distance, answers, largest=True)))
    return credits


def _prefix_chain_breaker(records: Sequence[Sequence[Any]]) -> np.ndarray | None:
    """Per item and option, the length of the longest chain of the other options' records, each a prefix of the
    next (records that are sequences: fold sequences, move lists), or None when some record is not a list; the
    option whose removal leaves the longest chain is the one a reader of the options alone would call odd."""
    if not all(isinstance(o, list | tuple) for row in records for o in row):
        return None
    items, options = len(records), len(records[0])
    scores = np.zeros((items, options), dtype=np.float32)
    for n, row in enumerate(records):
        lists = [list(o) for o in row]
        inside = np.array(
            [[i != j and lists[j][: len(lists[i])] == lists[i] for j in range(options)] for i in range(options)]
        )
        amounts = np.array([-len(o) for o in lists], dtype=np.float32)  # the shortest first, as the chain grows
        for k in range(options):
            scores[n, k] = _longest_chain(inside, amounts, [j for j in range(options) if j != k])
    return scores


# ---- the audit ------------------------------------------------------------------------------------------------


def reference_likeness_reason(task_id: str | None) -> str | None:
    """Why the registered task ``task_id`` means its answer to look like its reference picture
    (:data:`REFERENCE_LIKENESS_ATTRIBUTE`), or None (also for an unknown or missing id)."""
    if not task_id:
        return None
    from foldbench.errors import UnknownNameError
    from foldbench.tasks import make

    try:
        task = make(task_id)
    except (UnknownNameError, KeyError):
        unversioned = re.sub(r"-v\d+$", "", task_id)  # a dataset of an earlier version: the task's latest
        try:
            task = make(unversioned)
        except (UnknownNameError, KeyError):
            return None
    reason = getattr(task, REFERENCE_LIKENESS_ATTRIBUTE, None)
    return reason if isinstance(reason, str) and reason else None


def audit_choice_items(items: Sequence[ChoiceItem], *, margin: float = DEFAULT_MARGIN,
                       reference_likeness: str | None = None) -> AuditReport:
    """Score every blind baseline on ``items`` (all with the same number of options).

    ``reference_likeness``, when given, says why the answer is meant to look like the reference picture: the
    reference-aware rules are then reported with that reason and never flagged."""
    if not items:
        raise AuditError("no items to audit")
    counts = {len(item.option_images) or len(item.option_records) for item in items}
    if len(counts) != 1 or min(counts) < 2:
        raise AuditError(f"the audit needs the same number (at least 2) of options in every item, got {counts}")
    options = counts.pop()
    answers = np.array([item.answer for item in items])
    credits: list[tuple[str, str, np.ndarray]] = []
    if all(len(item.option_images) == options for item in items):
        paths = [p for item in items for p in item.option_images]
        grey, coarse, masks, histograms = _load(paths)
        shape = (len(items), options)
        grey, coarse = grey.reshape(*shape, -1), coarse.reshape(*shape, -1)
        ink, dark = masks[0].reshape(*shape, -1), masks[1].reshape(*shape, -1)
        histograms = histograms.reshape(*shape, -1)
        for name, description, distances in (
            ("grey L1", "L1 distance of 48 px grey pictures", _l1(grey)),
            ("coarse grey L1", "L1 distance of 12 px grey pictures", _l1(coarse)),
            ("ink IoU", "Jaccard distance of ink masks (not white)", _jaccard(ink)),
            ("dark IoU", "Jaccard distance of dark-ink masks", _jaccard(dark)),
            ("colour histogram", "L1 distance of colour histograms", _l1(histograms)),
        ):
            medoid, outlier = _medoid_outlier(distances, answers)
            credits.append((f"{name} medoid", f"least summed {description}", medoid))
            credits.append((f"{name} outlier", f"most summed {description}", outlier))
        for name, mask in (("ink", ink), ("dark ink", dark)):
            amount = mask.sum(axis=-1).astype(np.float32)
            credits.append((f"most {name}", f"the option with the most {name}", _credit(amount, answers, largest=True)))
            credits.append(
                (f"least {name}", f"the option with the least {name}", _credit(amount, answers, largest=False))
            )
        credits.append(
            (
                "containment odd one out",
                "the option whose removal leaves the longest chain of nested ink masks",
                _credit(_chain_breaker(ink), answers, largest=True),
            )
        )
        references = [item.reference_image for item in items]
        if all(reference is not None for reference in references):
            credits += _reference_credits([r for r in references if r is not None], grey, ink, answers)
    if all(len(item.option_records) == options for item in items):
        distances, sizes = _record_distances([item.option_records for item in items])
        medoid, outlier = _medoid_outlier(distances, answers)
        credits.append(("record medoid", "least summed count of differing record fields", medoid))
        credits.append(("record outlier", "most summed count of differing record fields", outlier))
        credits.append(("largest record", "the record with the most fields", _credit(sizes, answers, largest=True)))
        credits.append(("smallest record", "the record with the fewest fields", _credit(sizes, answers, largest=False)))
        records = [item.option_records for item in items]
        text_distances, lengths = _text_features(records)
        medoid, outlier = _medoid_outlier(text_distances, answers)
        credits.append(("text medoid", "least summed Jaccard distance of character bigrams", medoid))
        credits.append(("text outlier", "most summed Jaccard distance of character bigrams", outlier))
        credits.append(("longest text", "the option written longest", _credit(lengths, answers, largest=True)))
        credits.append(("shortest text", "the option written shortest", _credit(lengths, answers, largest=False)))
        chain = _prefix_chain_breaker(records)
        if chain is not None:
            credits.append(("prefix chain odd one out", "the option whose removal leaves the longest chain of records "
                            "each a prefix of the next", _credit(chain, answers, largest=True)))
        numeric = _numeric_features(records)
        if numeric is not None:
            number_distances, totals = numeric
            medoid, outlier = _medoid_outlier(number_distances, answers)
            credits.append(("numeric medoid", "least summed L1 distance of the options' numbers", medoid))
            credits.append(("numeric outlier", "most summed L1 distance of the options' numbers", outlier))
            credits.append(("largest value", "the option whose numbers sum highest",
                            _credit(totals, answers, largest=True)))
            credits.append(("smallest value", "the option whose numbers sum lowest",
                            _credit(totals, answers, largest=False)))
    letters = Counter(LETTERS[a] for a in answers)
    for letter in LETTERS[:options]:
        letters.setdefault(letter, 0)
    letter_counts = np.array([letters[letter] for letter in LETTERS[:options]], dtype=np.float32)
    credits.append(
        (
            "most frequent letter",
            "always the dataset's most frequent answer letter",
            _credit(np.broadcast_to(letter_counts, (len(items), options)), answers, largest=True),
        )
    )
    chance = 1.0 / options
    band = (max(0.0, chance - margin), min(1.0, chance + margin))
    results = []
    for name, description, credit in credits:
        accuracy = float(credit.mean())
        low, high = wilson_interval(float(credit.sum()), len(items))
        expected = reference_likeness if name.startswith(REFERENCE_RULE_PREFIX) else None
        outside = not band[0] <= accuracy <= band[1]
        results.append(
            BaselineResult(name, description, accuracy, low, high, len(items), outside and expected is None, expected)
        )
    return AuditReport(len(items), options, chance, band, tuple(results), dict(sorted(letters.items())))


def _dataset_task(directory: Path) -> str | None:
    """The task id of a dataset's first item, or None."""
    with (Path(directory) / "items.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                try:
                    task = json.loads(line).get("task")
                except (json.JSONDecodeError, AttributeError):
                    return None
                return task if isinstance(task, str) else None
    return None


def audit_dataset(directory: Path, *, margin: float = DEFAULT_MARGIN) -> AuditReport:
    """Read a dataset directory and audit it (see the module docstring); the reference-aware rules of a task
    that means its answer to resemble its reference are reported as expected (:func:`reference_likeness_reason`)."""
    items = read_choice_items(Path(directory))
    reason = reference_likeness_reason(_dataset_task(Path(directory)))
    return audit_choice_items(items, margin=margin, reference_likeness=reason)
