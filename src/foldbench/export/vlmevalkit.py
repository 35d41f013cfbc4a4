"""``foldbench export --format vlmevalkit``: the TSV files VLMEvalKit reads as custom multiple-choice datasets.

One file per multiple-choice task (a task whose answer is one option letter; others are skipped), named
``foldbench_<name>.tsv``, with the columns VLMEvalKit's multiple-choice datasets use: ``index``, ``image`` (the
prompt's picture as base64 PNG; a list of them when the prompt shows several), ``image_path`` (the file name
VLMEvalKit saves each picture under: one name, or a list as long as the pictures), ``question``, one column per
option letter, ``answer`` (the right letter) and ``category`` (the task, and the item's subtask when it has one).
Put the files in ``$LMUData`` and run ``python run.py --data foldbench_<name> --model <model>``.

VLMEvalKit writes its own prompt around the row (``Question: ...``, ``Options:`` with one line per letter, and
"select the correct answer") and, without a judge model, reads the reply with exact rules that find a bare option
letter among the reply's last words, or an option's text in a short reply. So the ``question`` is the task's prompt
without its JSON reply instructions, ending with a request for the letter alone, and each option column holds the
option's own text where options are values or words (else it names the option in the picture).
"""

from __future__ import annotations

import base64
import csv
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from foldbench.export._output import ExportError, destination, staged
from foldbench.export._source import Source, open_source
from foldbench.export.choices import choice_field
from foldbench.messages import ImagePart, TextPart
from foldbench.tasks.base import Item
from foldbench.tasks.choice_question import ChoiceQuestion
from foldbench.tasks.reply_format import without_reply_format

__all__ = ["export_vlmevalkit", "letter_request", "option_texts", "tsv_name"]


def tsv_name(task_id: str) -> str:
    """The VLMEvalKit dataset name of a task (the TSV file without ``.tsv``).

    >>> tsv_name("pfp/folding-3d-v2")
    'foldbench_pfp_folding_3d'
    """
    return "foldbench_" + task_id.rsplit("-v", 1)[0].replace("/", "_").replace("-", "_")


def letter_request(letters: Sequence[str]) -> str:
    """The closing request of a question: the option letter alone, the form VLMEvalKit's exact rules read.

    >>> letter_request("AB")
    'Answer with the letter of the right option alone: A or B.'
    """
    return f"Answer with the letter of the right option alone: {', '.join(letters[:-1])} or {letters[-1]}."


def option_texts(item: Item, letters: Sequence[str]) -> list[str]:
    """Each option's own text when the item's options are values or words, else a name for the pictured option."""
    question = ChoiceQuestion.of(item)
    options = list(question.option_records) if question is not None else []
    if (
        len(options) == len(letters)
        and all(isinstance(o, str | int | float) and not isinstance(o, bool) for o in options)
        and all(str(o).strip() for o in options)
    ):
        return [" ".join(str(o).split()) for o in options]
    return [f"the option marked {letter} in the picture" for letter in letters]


def _picture_modality(source: Source) -> str | None:
    first = next(iter(source.items()), None)
    if first is None:
        return None
    for modality in source.manifest["modalities"]:
        if any(isinstance(p, ImagePart) for p in source.task.render(first, modality).parts):
            return modality
    return None


def _tsv(source: Source, modality: str, on_item: Callable[[], None] | None) -> tuple[bytes, int]:
    buffer = io.StringIO()
    writer: Any = None
    rows = 0
    for index, item in enumerate(source.items()):
        found = choice_field(source.task, item)
        if found is None:
            raise ExportError(f"{source.directory}: item {item.id} is not multiple choice")
        field, letters = found
        if writer is None:
            writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
            writer.writerow(["index", "image", "image_path", "question", *letters, "answer", "category"])
        prompt = source.task.render(item, modality)
        pictures = [
            base64.b64encode(p.data if p.data is not None else (source.directory / str(p.path)).read_bytes()).decode()
            for p in prompt.parts
            if isinstance(p, ImagePart)
        ]
        texts = (prompt.system, *[p.text for p in prompt.parts if isinstance(p, TextPart)])
        question = "\n\n".join([*(without_reply_format(t) for t in texts if t), letter_request(letters)])
        answer = getattr(source.task.oracle(item), field)
        question_record = ChoiceQuestion.of(item)
        subtask = question_record.subtask if question_record is not None else None
        category = source.manifest["task"] + (f"/{subtask}" if subtask is not None else "")
        image = pictures[0] if len(pictures) == 1 else json.dumps(pictures)
        names = [f"{index}_{k}.png" for k in range(len(pictures))]
        image_path = f"{index}.png" if len(pictures) == 1 else json.dumps(names)
        writer.writerow([index, image, image_path, question, *option_texts(item, letters), answer, category])
        rows += 1
        if on_item is not None:
            on_item()
    return buffer.getvalue().encode(), rows


def export_vlmevalkit(
    datasets: Sequence[Path],
    out: str | Path,
    *,
    on_start: Callable[[str, int], Callable[[], None] | None] | None = None,
) -> list[tuple[str, int]]:
    """Write a TSV file per multiple-choice dataset into the new directory ``out``; returns (name, rows) per file.

    Raises :class:`ExportError` when none of the datasets is a multiple-choice task with pictures.
    """
    sources = [open_source(Path(d)) for d in datasets]
    chosen = []
    for source in sources:
        first = next(iter(source.items()), None)
        modality = _picture_modality(source)
        if first is not None and modality is not None and choice_field(source.task, first) is not None:
            chosen.append((source, modality))
    if not chosen:
        names = ", ".join(s.manifest["task"] for s in sources)
        raise ExportError(f"none of the datasets ({names}) is a multiple-choice task with pictures; nothing to write")
    written = []
    with staged(destination(out)) as stage:
        for source, modality in chosen:
            advance = on_start(f"exporting {source.manifest['task']}", source.count) if on_start else None
            data, rows = _tsv(source, modality, advance)
            name = tsv_name(source.manifest["task"])
            stage.write_bytes(f"{name}.tsv", data)
            written.append((name, rows))
        listing = "\n".join(f"- `{name}.tsv` ({rows} questions)" for name, rows in written)
        readme = (
            "# foldbench for VLMEvalKit\n\n"
            f"{listing}\n\n"
            "Copy the `.tsv` files into `$LMUData` (VLMEvalKit's data folder, `~/LMUData` by default) and run, from "
            "a VLMEvalKit checkout:\n\n"
            f"    python run.py --data {' '.join(n for n, _ in written)} --model <model>\n\n"
            "VLMEvalKit reads a TSV it does not know as a custom multiple-choice dataset (columns `index`, `image`, "
            "`image_path`, `question`, the option letters, `answer`, `category`) and reports accuracy per category. "
            "Each question asks for the option letter alone, which VLMEvalKit's exact matching reads without a "
            "judge model.\n"
        )
        stage.write_bytes("README.md", readme.encode())
    return written
