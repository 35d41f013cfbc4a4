"""The HTML of the human-baseline pages: everything shown is escaped, nothing is loaded from elsewhere (styles and
the small scripts are inline; pictures and videos come from the server's ``/files/``, which serves only the files
of the item being shown).

An item page shows the material (pictures at the size a model gets them, click to enlarge) on the left and, in a
panel that stays in view, the question and the answer controls; choices answer by click or keyboard."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from urllib.parse import quote

from foldbench.human.forms import DIRECTIONS, FOLD_CODES, LETTERS, SHAPES, SIZES, AnswerForm
from foldbench.human.questions import ParticipantQuestion
from foldbench.messages import ImagePart, Part, TextPart, VideoPart
from foldbench.pft.grid import NUM_POSITIONS, triangle_vertices
from foldbench.tasks.base import Item

__all__ = ["done_page", "error_page", "index_page", "item_page"]

_STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;padding:0 16px 16px;color:#222;line-height:1.4}
header{display:flex;align-items:center;gap:16px;flex-wrap:wrap;border-bottom:2px solid #446;padding:8px 0}
header h1{font-size:20px;margin:0;flex:1 1 auto}
header progress{width:160px}
main.item{display:flex;gap:20px;align-items:flex-start;margin-top:12px}
.material{flex:1 1 auto;min-width:0;overflow-x:auto}
.material .text{white-space:pre-wrap;font-size:14px;margin:6px 0}
.material img{display:inline-block;vertical-align:top;max-width:none;border:1px solid #ccc;margin:4px;
  cursor:zoom-in}
.material img.zoomed{position:fixed;inset:0;width:100vw;height:100vh;object-fit:contain;background:#fff;margin:0;
  z-index:10;cursor:zoom-out;border:0}
.material video{display:block;max-width:100%}
.panel{flex:0 0 400px;position:sticky;top:8px;max-height:calc(100vh - 16px);overflow:auto;background:#f4f5fa;
  border:1px solid #ccd;border-radius:6px;padding:10px 12px}
.question{white-space:pre-wrap;font-size:15px}
.mono{font-family:ui-monospace,monospace;font-size:13px}
button{font-size:15px;margin:2px;padding:4px 10px;cursor:pointer}
.choices{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
.choices button{font-size:18px;min-width:72px;width:auto;white-space:nowrap;padding:8px 14px}
.choices button.picked{outline:3px solid #f4b942}
kbd{font-size:12px;color:#666;border:1px solid #bbb;border-radius:3px;padding:0 4px;margin-right:6px}
svg polygon{fill:#fff;stroke:#446;stroke-width:.02;cursor:pointer}
svg polygon.on{fill:#f4b942}
svg text{font-size:.22px;pointer-events:none;fill:#555}
.holes td{padding:2px 4px}
.steps span{display:inline-block;border:1px solid #446;padding:2px 6px;margin:2px}
.start{max-width:760px}
.start label{font-weight:600;display:block;margin-top:12px}
.start input{font-size:18px;padding:4px 8px}
"""

_ZOOM_SCRIPT = """
document.querySelectorAll('.material img').forEach(i=>i.addEventListener('click',()=>i.classList.toggle('zoomed')));
document.addEventListener('keydown',e=>{if(e.key==='Escape')document.querySelectorAll('img.zoomed')
  .forEach(i=>i.classList.remove('zoomed'));});
"""

_CHOICE_SCRIPT = """
const form=document.getElementById('answer');
const choices=[...document.querySelectorAll('button[name=choice]')];
let picked=null;
function pick(b){choices.forEach(c=>c.classList.remove('picked'));picked=b;b.classList.add('picked');b.focus();}
document.addEventListener('keydown',e=>{
  if(e.ctrlKey||e.metaKey||e.altKey)return;
  const key=e.key.toUpperCase();
  const byKey=choices.find(b=>b.dataset.key===key||b.dataset.number===key);
  if(byKey){e.preventDefault();pick(byKey);return;}
  if(e.key==='Enter'&&picked){e.preventDefault();form.requestSubmit(picked);}
});
"""

_HOLES_SCRIPT = """
const form=document.getElementById('answer');
const holes=document.getElementById('holes');
function addHole(loc){
  const row=document.createElement('tr');row.id='hole-'+loc;
  row.innerHTML=document.getElementById('hole-template').innerHTML.replaceAll('LOC',loc);
  holes.appendChild(row);
}
document.querySelectorAll('svg polygon').forEach(p=>p.addEventListener('click',()=>{
  const loc=p.dataset.loc;const row=document.getElementById('hole-'+loc);
  if(row){row.remove();p.classList.remove('on');}else{addHole(loc);p.classList.add('on');}
}));
const steps=document.getElementById('steps');
document.querySelectorAll('button.fold').forEach(b=>b.addEventListener('click',e=>{
  e.preventDefault();const s=document.createElement('span');
  s.innerHTML=b.dataset.code+'<input type="hidden" name="'+steps.dataset.field+'" value="'+b.dataset.code+'">';
  steps.appendChild(s);
}));
const undo=document.getElementById('undo');
undo.addEventListener('click',e=>{e.preventDefault();if(steps.lastElementChild)steps.lastElementChild.remove();});
document.addEventListener('keydown',e=>{
  if(e.key==='Enter'&&!(e.target instanceof HTMLButtonElement)){e.preventDefault();
    form.requestSubmit(document.getElementById('submit'));}
});
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _page(title: str, body: str, *, script: str = "") -> str:
    tail = f"<script>{script}</script>" if script else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>{body}{tail}</body></html>"
    )


def _material_html(parts: Sequence[Part], *, monospace: bool) -> str:
    pieces = []
    for part in parts:
        if isinstance(part, TextPart):
            pieces.append(f'<div class="text{" mono" if monospace else ""}">{_e(part.text)}</div>')
        elif isinstance(part, ImagePart):
            if part.path is not None:
                src = f"/files/{quote(part.path)}"
            else:
                src = "data:image/png;base64," + base64.b64encode(part.data or b"").decode("ascii")
            pieces.append(f'<img alt="{_e(part.label)}" title="click to enlarge" src="{_e(src)}">')
        elif isinstance(part, VideoPart):
            pieces.append(f'<video controls preload="auto" src="/files/{_e(quote(part.path))}"></video>')
    return f'<section class="material">{"".join(pieces)}</section>'


def _sheet_svg() -> str:
    polygons = []
    for position in range(NUM_POSITIONS):
        vertices = triangle_vertices(position)
        points = " ".join(f"{x},{y}" for x, y in vertices)
        cx = sum(x for x, _ in vertices) / 3
        cy = sum(y for _, y in vertices) / 3
        loc = position + 1
        polygons.append(
            f'<polygon id="tri-{loc}" data-loc="{loc}" points="{points}"></polygon>'
            f'<text x="{cx - 0.09:.2f}" y="{cy + 0.08:.2f}">{loc}</text>'
        )
    return (
        '<svg viewBox="-0.05 -0.05 4.1 4.1" width="320" height="320" aria-label="the unfolded sheet">'
        + "".join(polygons)
        + "</svg>"
    )


def _select(name: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)
    return f'<select name="{_e(name)}">{options}</select>'


def _hole_template() -> str:
    cells = (
        "<td>triangle LOC</td>"
        f"<td>{_select('shape-LOC', SHAPES)}</td><td>{_select('size-LOC', SIZES)}</td>"
        f"<td>{_select('dir-LOC', DIRECTIONS)}°</td>"
        '<td><input type="hidden" name="loc" value="LOC"></td>'
    )
    return f'<template id="hole-template">{cells}</template>'


def _fold_builder(field: str, label: str) -> str:
    buttons = "".join(f'<button class="fold" data-code="{c}">{c}</button>' for c in FOLD_CODES)
    return (
        f"<p>{_e(label)} (click in order):</p><div>{buttons}</div>"
        f'<div class="steps" id="steps" data-field="{_e(field)}"></div><button id="undo">remove last</button>'
    )


def _choice_buttons(values: Sequence[str], *, letters_only: bool) -> str:
    buttons = []
    for number, value in enumerate(values, start=1):
        key = value if letters_only and len(value) == 1 else ""
        hint = str(number) if letters_only else (f"{number}" if number <= 9 else "")
        buttons.append(
            f'<button type="submit" name="choice" value="{_e(value)}" data-key="{key if letters_only else ""}" '
            f'data-number="{hint}"><kbd>{_e(hint)}</kbd>{_e(value)}</button>'
        )
    return f'<div class="choices">{"".join(buttons)}</div>'


def _form_body(form: AnswerForm) -> tuple[str, str]:
    """The form's inputs and its script."""
    if form.kind == "letters":
        return _choice_buttons(form.choices or LETTERS, letters_only=True), _CHOICE_SCRIPT
    if form.kind == "choice":
        return _choice_buttons(form.choices, letters_only=False), _CHOICE_SCRIPT
    steps = ("unfolding", "Unfolding steps") if form.kind == "holes" else ("fold", "Folds")
    body = (
        f'{_sheet_svg()}<table class="holes"><tbody id="holes"></tbody></table>{_hole_template()}'
        f"{_fold_builder(*steps)}"
        '<p><button type="submit" id="submit">Submit</button></p>'
    )
    return body, _HOLES_SCRIPT


def item_page(
    *,
    title: str,
    item: Item,
    question: ParticipantQuestion,
    form: AnswerForm,
    form_token: str,
    position: int,
    total: int,
) -> str:
    """The page of one item: the material on the left, the question and the answer form in a panel beside it."""
    inputs, script = _form_body(form)
    has_pictures = any(not isinstance(part, TextPart) for part in question.material)
    body = (
        f"<header><h1>{_e(title)}</h1><span>Question {position + 1} of {total}</span>"
        f'<progress value="{position}" max="{total}"></progress></header>'
        '<main class="item">'
        f"{_material_html(question.material, monospace=not has_pictures)}"
        f'<aside class="panel"><div class="question">{_e(question.question)}</div>'
        f'<form method="post" action="/answer" id="answer" data-kind="{form.kind}">'
        f'<input type="hidden" name="item" value="{_e(item.id)}">'
        f'<input type="hidden" name="form_token" value="{_e(form_token)}">'
        f"{inputs}</form></aside></main>"
    )
    return _page(f"{title} — question {position + 1} of {total}", body, script=_ZOOM_SCRIPT + script)


def done_page(*, title: str, answered: int, total: int) -> str:
    """The closing page, once a participant has answered every item."""
    return _page(
        f"{title} — thank you",
        f'<div class="start"><h1>Thank you!</h1><p>You answered {answered} of {total} questions; every answer is '
        "stored. You may close this page now.</p></div>",
    )


def index_page(*, title: str, total: int, kind: str, access_token: str | None) -> str:
    """The start page: what the study is and how it works, and a labelled field for the participant id. It
    never lists who has taken part."""
    hidden = "" if access_token is None else f'<input type="hidden" name="token" value="{_e(access_token)}">'
    keys = (
        "You can also answer with the keyboard: the letter or number of an option, then Enter."
        if kind in ("letters", "choice")
        else "You answer on a drawing of the sheet: click triangles to mark holes and add folds with buttons."
    )
    body = (
        f'<div class="start"><h1>{_e(title)}</h1>'
        f"<p>You will see {total} questions about folded paper, one at a time. Each shows pictures (or a "
        "description) of the paper; the question and the answer buttons are in the panel beside them. Click a "
        "picture to enlarge it, and click again (or press Escape) to go back.</p>"
        f"<p>{_e(keys)}</p>"
        "<p>Take the time you need, but please answer each question on your own. The time from showing a question "
        "to your answer is recorded. Your answer to a question cannot be changed once submitted.</p>"
        "<p>You may stop at any time: come back to this page, enter the same participant id, and you continue "
        "where you left off.</p>"
        f'<form method="post" action="/start">{hidden}'
        '<label for="participant">Participant id (letters, digits, _ or -, as given to you)</label>'
        '<input name="participant" id="participant" pattern="[A-Za-z0-9_\\-]{1,32}" maxlength="32" required '
        'autocomplete="off" autofocus> <button type="submit">Start</button></form></div>'
    )
    return _page(title, body)


def error_page(message: str) -> str:
    """A short page for an error status."""
    return _page("error", f"<p>{_e(message)}</p>")
