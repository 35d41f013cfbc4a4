"""The HTML of the human-baseline pages: everything shown is escaped, nothing is loaded from elsewhere (styles and
the small script are inline; pictures and videos come from the dataset through ``/files/``)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from urllib.parse import quote

from foldbench.human.forms import DIRECTIONS, FOLD_CODES, LETTERS, SHAPES, SIZES, AnswerForm
from foldbench.messages import ImagePart, Prompt, TextPart, VideoPart
from foldbench.pft.grid import NUM_POSITIONS, triangle_vertices
from foldbench.tasks.base import Item

__all__ = ["done_page", "error_page", "index_page", "item_page"]

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:12px;color:#222}
.prompt{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:13px;background:#f6f6f6;padding:8px}
.prompt img{display:block;max-width:min(100%,420px);border:1px solid #ccc;margin:4px}
.prompt video{display:block;max-width:min(100%,560px)}
.bar{display:flex;justify-content:space-between;color:#555}
form{margin-top:12px;border-top:2px solid #446;padding-top:8px}
button{font-size:15px;margin:2px;padding:4px 10px}
.letters button{font-size:22px;width:64px}
svg polygon{fill:#fff;stroke:#446;stroke-width:.02;cursor:pointer}
svg polygon.on{fill:#f4b942}
svg text{font-size:.22px;pointer-events:none;fill:#555}
.holes td{padding:2px 6px}
.steps span{display:inline-block;border:1px solid #446;padding:2px 6px;margin:2px}
"""

_SCRIPT = """
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
if(undo){undo.addEventListener('click',e=>{e.preventDefault();if(steps.lastElementChild)steps.lastElementChild.remove();});}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _page(title: str, body: str, *, script: str = "") -> str:
    tail = f"<script>{script}</script>" if script else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>{body}{tail}</body></html>"
    )


def _with_token(url: str, token: str | None) -> str:
    return url if token is None else f"{url}{'&' if '?' in url else '?'}token={quote(token, safe='')}"


def _prompt_html(prompt: Prompt, token: str | None) -> str:
    pieces = []
    for part in prompt.parts:
        if isinstance(part, TextPart):
            pieces.append(_e(part.text))
        elif isinstance(part, ImagePart):
            if part.path is not None:
                src = _with_token(f"/files/{quote(part.path)}", token)
            else:
                src = "data:image/png;base64," + base64.b64encode(part.data or b"").decode("ascii")
            pieces.append(f'<img alt="{_e(part.label)}" src="{_e(src)}">')
        elif isinstance(part, VideoPart):
            src = _with_token(f"/files/{quote(part.path)}", token)
            pieces.append(f'<video controls preload="auto" src="{_e(src)}"></video>')
    return f'<div class="prompt">{"".join(pieces)}</div>'


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


def _form_body(form: AnswerForm) -> tuple[str, str]:
    """The form's inputs and its script."""
    if form.kind == "letters":
        buttons = "".join(f'<button type="submit" name="choice" value="{c}">{c}</button>' for c in LETTERS)
        return f'<div class="letters">{buttons}</div>', ""
    if form.kind == "choice":
        buttons = "".join(f'<button type="submit" name="choice" value="{_e(c)}">{_e(c)}</button>' for c in form.choices)
        return f'<div class="letters choices">{buttons}</div>', ""
    holes_label = "Holes on the unfolded sheet" if form.kind == "holes" else "Holes to punch on the folded paper"
    steps = ("unfolding", "Unfolding steps") if form.kind == "holes" else ("fold", "Folds")
    body = (
        f"<p>{holes_label}: click a triangle to add a hole there (click again to remove it), then set its shape, "
        "size and direction.</p>"
        f'{_sheet_svg()}<table class="holes"><tbody id="holes"></tbody></table>{_hole_template()}'
        f"{_fold_builder(*steps)}"
        '<p><button type="submit" id="submit">submit answer</button></p>'
    )
    return body, _SCRIPT


def item_page(
    *,
    item: Item,
    prompt: Prompt,
    form: AnswerForm,
    participant: str,
    position: int,
    total: int,
    shown_ms: int,
    token: str | None,
) -> str:
    """The page of one item: the prompt exactly as a model gets it (text, pictures, video), then the form."""
    inputs, script = _form_body(form)
    action = _with_token(f"/p/{quote(participant)}/answer", token)
    body = (
        f'<div class="bar"><span>participant {_e(participant)}</span>'
        f"<span>item {position + 1} of {total}</span></div>"
        f"{_prompt_html(prompt, token)}"
        f'<form method="post" action="{_e(action)}" id="answer" data-kind="{form.kind}">'
        f'<input type="hidden" name="item" value="{_e(item.id)}">'
        f'<input type="hidden" name="shown" value="{shown_ms}">'
        "<p>Answer with the form below (it writes the answer in the format the question asks for).</p>"
        f"{inputs}</form>"
    )
    return _page(f"{item.id} — foldbench", body, script=script)


def done_page(participant: str, total: int) -> str:
    """Shown when a participant has answered every item."""
    return _page(
        "done — foldbench",
        f"<h1>Thank you, {_e(participant)}</h1><p>All {total} items are answered and stored.</p>",
    )


def index_page(*, task: str, run: str, participants: Sequence[str], token: str | None) -> str:
    """The start page: a participant id field, and the participants who have begun."""
    action = "/start"
    hidden = "" if token is None else f'<input type="hidden" name="token" value="{_e(token)}">'
    links = "".join(f'<li><a href="{_e(_with_token("/p/" + quote(p), token))}">{_e(p)}</a></li>' for p in participants)
    body = (
        f"<h1>{_e(task)}</h1><p>Run {_e(run)}. Enter your participant id to start or continue.</p>"
        f'<form method="get" action="{action}">{hidden}<input name="participant" id="participant" '
        'pattern="[A-Za-z0-9_-]{1,32}" required> <button type="submit">start</button></form>'
        f"<ul>{links}</ul>"
    )
    return _page("foldbench human baseline", body)


def error_page(message: str) -> str:
    """A short page for an error status."""
    return _page("error", f"<p>{_e(message)}</p>")
