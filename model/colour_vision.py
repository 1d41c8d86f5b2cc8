"""Can a colour-blind player tell a game's palette colours apart?

Every pair of palette colours (their ``fill``) is simulated as seen with
protanopia, deuteranopia and tritanopia, with the model of Machado, Oliveira
and Fernandes (2009) at full severity, and compared with the CIEDE2000 colour
difference; both come from ``coloraide`` (a pure-Python colour library whose
import costs a tenth of a second, so every build can afford the check).  A
pair closer than ``THRESHOLD`` for some kind of vision is a warning, unless
the palette gives the two colours another cue that differs: a ``mark`` (a
shape) or a ``letter``.  Normal vision is checked too: two colours too close
for anyone are reported the same way.

Why 10: a CIEDE2000 difference of about 2 is the smallest a trained eye sees
side by side; a player glancing at cards across a table, in poor light, needs
far more.  10 is the difference at which palette tools commonly call two
colours clearly distinct; it is an engineering choice, documented in
docs/printing.md, not a standard.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from .errors import Problem

THRESHOLD = 10.0  # CIEDE2000
VISIONS = {  # name shown to users -> coloraide's filter (None: normal vision)
    "normal vision": None,
    "protanopia": "protan",
    "deuteranopia": "deutan",
    "tritanopia": "tritan",
}


def parse_hex(value: str) -> tuple[float, float, float] | None:
    """'#rrggbb' or '#rgb' -> sRGB in 0..1; None for anything else."""
    text = str(value).strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        return None
    try:
        return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return None


@lru_cache(maxsize=1024)
def seen(srgb: tuple[float, float, float], deficiency: str | None):
    """An sRGB colour as seen with ``deficiency`` (None: as it is), a coloraide Color."""
    from coloraide import Color

    colour = Color("srgb", list(srgb))
    if deficiency is not None:
        colour = colour.filter(deficiency, 1.0, method="machado").clip()
    return colour


def difference(a: tuple[float, float, float], b: tuple[float, float, float], deficiency: str | None) -> float:
    """CIEDE2000 between two sRGB colours as seen with ``deficiency``."""
    return float(seen(a, deficiency).delta_e(seen(b, deficiency), method="2000"))


@dataclass(frozen=True)
class Confusion:
    first: str
    second: str
    visions: tuple[str, ...]  # the kinds of vision that can hardly tell them apart
    worst: float  # the smallest difference found
    cued: bool  # the palette gives them a mark or a letter that differs


def _cue(entry: dict, key: str) -> str:
    return str(entry.get(key) or "").strip().lower()


def confusions(palette: dict[str, dict], threshold: float = THRESHOLD) -> list[Confusion]:
    """Every pair of palette colours closer than ``threshold`` for some kind of vision."""
    colours = {name: parse_hex(entry.get("fill", "")) for name, entry in palette.items()}
    out = []
    for a, b in itertools.combinations([n for n, c in colours.items() if c is not None], 2):
        found = {vision: difference(colours[a], colours[b], deficiency) for vision, deficiency in VISIONS.items()}
        close = tuple(v for v, d in found.items() if d < threshold)
        if not close:
            continue
        ea, eb = palette[a], palette[b]
        cued = any(_cue(ea, k) and _cue(eb, k) and _cue(ea, k) != _cue(eb, k) for k in ("mark", "letter"))
        out.append(Confusion(a, b, close, min(found[v] for v in close), cued))
    return out


def palette_warnings(manifest, threshold: float = THRESHOLD) -> list[Problem]:
    """One warning per pair of a game's palette colours that some players cannot
    tell apart and that the cards do not tell apart otherwise."""
    where = f"templates/{manifest.slug}/game.toml"
    out = []
    for c in confusions(manifest.palette, threshold):
        if c.cued:
            continue
        fa, fb = manifest.palette[c.first].get("fill"), manifest.palette[c.second].get("fill")
        out.append(Problem(where, None, f"palette.{c.second}",
                           f"'{c.first}' ({fa}) and '{c.second}' ({fb}) are hard to tell apart with "
                           f"{', '.join(c.visions)} (CIEDE2000 {c.worst:.1f}, below {threshold:g}) and the cards "
                           f"carry no other cue; give them a different mark or letter", "warning"))
    return out
