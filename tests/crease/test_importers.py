from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.importers import parse_cp_text, parse_svg_text, read_crease_pattern

# a 1 x 3 strip of stamps in ORIPA units (y down), creases unassigned
CP_TEXT = "\n".join([
    "1 -150 -50 150 -50", "1 150 -50 150 50", "1 150 50 -150 50", "1 -150 50 -150 -50",
    "2 -50 -50 -50 50", "3 50 -50 50 50",
])

OPX_TEXT = """<?xml version="1.0" encoding="UTF-8"?>
<java version="1.8.0" class="java.beans.XMLDecoder">
 <object class="oripa.DataSet">
  <void property="lines"><array class="oripa.OriLineProxy" length="6">
{lines}
  </array></void>
 </object>
</java>"""


def _opx_line(kind: int, x0: float, y0: float, x1: float, y1: float) -> str:
    props = "".join(f'<void property="{n}"><double>{v}</double></void>' for n, v in
                    (("x0", x0), ("y0", y0), ("x1", x1), ("y1", y1)))
    return f'<void index="0"><object class="oripa.OriLineProxy"><void property="type"><int>{kind}</int></void>' \
           f'{props}</object></void>'


def test_cp_text_parses_types() -> None:
    segments, letters = parse_cp_text(CP_TEXT)
    assert segments.shape == (6, 2, 2)
    assert letters == ["B", "B", "B", "B", "M", "V"]


def test_cp_errors_name_the_line() -> None:
    with pytest.raises(CreasePatternSyntaxError) as caught:
        parse_cp_text("1 0 0 1 0\n2 0 0 x 1\n")
    assert caught.value.where["line"] == 2
    with pytest.raises(CreasePatternSyntaxError):
        parse_cp_text("7 0 0 1 1\n")


def test_all_formats_give_the_same_pattern(tmp_path: Path) -> None:
    cp = tmp_path / "strip.cp"
    cp.write_text(CP_TEXT)
    lines = [line.split() for line in CP_TEXT.splitlines()]
    opx = tmp_path / "strip.opx"
    opx.write_text(OPX_TEXT.format(lines="\n".join(_opx_line(int(k), *map(float, rest)) for k, *rest in lines)))
    colours = {"1": "black", "2": "#FF0000", "3": "blue"}
    svg = tmp_path / "strip.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"><g>' + "".join(
        f'<line style="stroke:{colours[k]};stroke-width:2" x1="{a}" y1="{b}" x2="{c}" y2="{d}"/>'
        for k, a, b, c, d in lines) + "</g></svg>")
    counts = {compile_crease_pattern(read_crease_pattern(path)).state_count for path in (cp, opx, svg)}
    faces = {read_crease_pattern(path).face_count for path in (cp, opx, svg)}
    assert faces == {3}
    assert counts == {1}


def test_svg_paths_polylines_and_inherited_strokes() -> None:
    text = ('<svg xmlns="http://www.w3.org/2000/svg"><g stroke="black"><path d="M0 0 H10 V10 H0 Z"/></g>'
            '<polyline points="0,0 10,10" stroke="#00ff00"/></svg>')
    segments, letters = parse_svg_text(text)
    assert len(segments) == 5
    assert letters == ["B", "B", "B", "B", "U"]


def test_bad_inputs_are_typed(tmp_path: Path) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><line")
    with pytest.raises(CreasePatternSyntaxError) as caught:
        read_crease_pattern(broken)
    assert caught.value.code == "E_CP_SYNTAX_UNEXPECTED_TOKEN"
    unknown = tmp_path / "pattern.txt"
    unknown.write_text("x")
    with pytest.raises(CreasePatternSyntaxError):
        read_crease_pattern(unknown)
    empty = tmp_path / "empty.cp"
    empty.write_text("")
    with pytest.raises(CreasePatternSyntaxError):
        read_crease_pattern(empty)
