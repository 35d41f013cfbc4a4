from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.io.importers import assignment_of_colour, parse_cp_text, parse_svg_text, read_crease_pattern

from .tessellations import opx_text

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
    assert letters == ["B", "B", "B", "B", "U"]  # green: unassigned, as in Flat-Folder's drawings


@pytest.mark.parametrize(("colour", "letter"), [
    ("red", "M"), ("#FF0000", "M"), ("#e53935", "M"), ("rgb(255,0,0)", "M"), ("rgb(100%, 0%, 0%)", "M"),
    ("blue", "V"), ("#00f", "V"), ("#1e40ff", "V"), ("black", "B"), ("#222", "B"), ("lime", "U"), ("#00FF00", "U"),
    ("#808080", "F"), ("yellow", "F"), ("magenta", "F"), ("orange", "U"), ("none", "U"),
])
def test_stroke_colours_follow_the_drawing_conventions(colour: str, letter: str) -> None:
    assert assignment_of_colour(colour) == letter


def _square_base_svg(border: str, transform: str = "") -> str:
    """A waterbomb base (diagonals valley, one midline mountain) in a 100-unit square, bordered by ``border``."""
    creases = ('<line x1="0" y1="0" x2="100" y2="100" stroke="blue"/>'
               '<line x1="100" y1="0" x2="0" y2="100" stroke="blue"/>'
               '<line x1="0" y1="50" x2="100" y2="50" stroke="red"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg"><g transform="{transform}">{border}{creases}'
            '<circle cx="50" cy="50" r="3" stroke="black"/></g></svg>')


@pytest.mark.parametrize("border", [
    '<rect x="0" y="0" width="100" height="100" stroke="black" fill="none"/>',
    '<polygon points="0,0 100,0 100,100 0,100" stroke="#000"/>',
    '<polyline points="0,0 100,0 100,100 0,100 0,0" style="stroke:#000000"/>',
    '<path d="M0 0 h100 v100 h-100 z" stroke="black"/>',
])
@pytest.mark.parametrize("transform", ["", "translate(20 30) scale(2)", "matrix(0 1 -1 0 200 0) rotate(15, 50, 50)"])
def test_a_waterbomb_base_reads_the_same_from_any_border_shape_and_transform(border: str, transform: str) -> None:
    segments, letters = parse_svg_text(_square_base_svg(border, transform))
    compiled = compile_crease_pattern(build_crease_pattern(segments, letters))
    reference = compile_crease_pattern(build_crease_pattern(*parse_svg_text(_square_base_svg(
        '<rect x="0" y="0" width="100" height="100" stroke="black"/>'))))
    assert compiled.pattern.face_count == 6
    assert compiled.state_count == reference.state_count == 1


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


def test_a_tiny_overlap_of_a_mountain_and_a_valley_is_merged_with_a_note() -> None:
    # the mountain runs 0.001 units (1e-5 of the paper) past the point where the valley starts
    text = ('<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="100" height="100" stroke="black"/>'
            '<line x1="0" y1="50" x2="50.001" y2="50" stroke="red"/>'
            '<line x1="50" y1="50" x2="100" y2="50" stroke="blue"/>'
            '<line x1="50" y1="0" x2="50" y2="50" stroke="red"/><line x1="50" y1="50" x2="50" y2="100" stroke="red"/>'
            '</svg>')
    pattern = build_crease_pattern(*parse_svg_text(text))
    assert any("overlapped" in note for note in pattern.notes)
    assert pattern.face_count == 4
    assert compile_crease_pattern(pattern).state_count >= 1


def test_a_long_overlap_of_a_mountain_and_a_valley_is_still_an_error() -> None:
    text = ('<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="100" height="100" stroke="black"/>'
            '<line x1="0" y1="50" x2="60" y2="50" stroke="red"/><line x1="40" y1="50" x2="100" y2="50" stroke="blue"/>'
            '</svg>')
    with pytest.raises(CreasePatternSyntaxError) as caught:
        build_crease_pattern(*parse_svg_text(text))
    assert caught.value.code == "E_CP_CONFLICTING_ASSIGNMENT"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_coordinate_that_is_not_a_finite_number_is_a_syntax_error(tmp_path: Path, value: str) -> None:
    """Java writes NaN and infinities into ORIPA files (a public collection has two such lines); they are
    refused by name, not merged with every other point (which took a minute on a 2,665-line file)."""
    segments = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]], [[0, 0], [1, 1]]],
                        float)
    letters = ["B", "B", "B", "B", "V"]
    drawing = tmp_path / "pattern.opx"
    drawing.write_text(opx_text(segments, letters).replace("<double>1.0</double></void></object>",
                                                           f"<double>{value}</double></void></object>", 1))
    with pytest.raises(CreasePatternSyntaxError) as caught:
        read_crease_pattern(drawing)
    assert caught.value.code == "E_CP_SYNTAX_VALUE_OUT_OF_RANGE" and value in caught.value.message
    moved = segments.copy()
    moved[4, 1, 0] = float(value)
    with pytest.raises(CreasePatternSyntaxError) as caught:
        build_crease_pattern(moved, letters)
    assert caught.value.code == "E_CP_SYNTAX_VALUE_OUT_OF_RANGE" and caught.value.where["index"] == 4
