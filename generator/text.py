"""Text that fits its box: SVG has no wrapping, so we measure with reportlab's
metrics for the same embedded font, break into lines, and shrink the size in
small steps until the lines fit; text that fits at no size down to ``min_size``
is cut with an ellipsis and reported."""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.pdfbase.pdfmetrics import stringWidth

from .fonts import ensure_faces, face


@dataclass
class Fitted:
    lines: list[str]
    size: float
    overflow: bool
    needed: float  # height the text needed at min_size, mm


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking; explicit newlines and '|' force a break."""
    lines: list[str] = []
    for para in text.replace("|", "\n").split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            trial = f"{line} {word}"
            if stringWidth(trial, font, size) <= width:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def fit(text: str, width: float, height: float, size: float, min_size: float, font: str,
        line_height: float = 1.2, step: float = 0.2) -> Fitted:
    ensure_faces(font)
    s = size
    while True:
        lines = wrap(text, font, s, width)
        too_wide = any(stringWidth(line, font, s) > width for line in lines)
        needed = len(lines) * s * line_height
        if needed <= height + 1e-6 and not too_wide:
            return Fitted(lines, s, False, needed)
        if s <= min_size + 1e-9:
            break
        s = max(round(s - step, 4), min_size)  # the last try is min_size itself
    # Overflow at min_size: keep what fits, end with an ellipsis.
    s = min_size
    lines = wrap(text, font, s, width)
    max_lines = max(1, int((height + 1e-6) // (s * line_height)))
    kept = lines[:max_lines]
    for i, line in enumerate(kept[:-1]):  # a word wider than the box, on any line, is cut too
        if stringWidth(line, font, s) > width:
            kept[i] = _cut(line, font, s, width)
    if len(lines) > max_lines or too_wide:
        kept[-1] = _cut(kept[-1], font, s, width)
    return Fitted(kept, s, True, len(lines) * s * line_height)


def _cut(line: str, font: str, size: float, width: float) -> str:
    """The line shortened until it fits ``width`` with an ellipsis after it."""
    while line and stringWidth(line + "…", font, size) > width:
        line = line[:-1]
    return line.rstrip() + "…"


def svg_lines(fitted: Fitted, x: float, y: float, width: float, height: float, *, family: str, bold: bool,
              anchor: str, valign: str, fill: str, line_height: float, extra: str = "") -> str:
    """One <text> per line (svglib renders tspans poorly), baseline-positioned."""
    s = fitted.size
    block = len(fitted.lines) * s * line_height
    if valign == "middle":
        top = y + (height - block) / 2
    elif valign == "bottom":
        top = y + height - block
    else:
        top = y
    tx = {"start": x, "middle": x + width / 2, "end": x + width}[anchor]
    weight = ' font-weight="bold"' if bold else ""
    out = []
    for i, line in enumerate(fitted.lines):
        baseline = top + i * s * line_height + s * 0.8 + (line_height - 1) * s / 2
        out.append(
            f'<text x="{tx:.3f}" y="{baseline:.3f}" font-family="{family}" font-size="{s:.3f}"{weight} '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{escape(line)}</text>'
        )
    return "".join(out)


def measure(text: str, family: str, size: float, bold: bool = False) -> float:
    name = face(family, bold)
    ensure_faces(name)
    return stringWidth(text, name, size)
