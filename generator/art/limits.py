"""The bounds of the work a game folder can ask for, and the checks of SVG that keep to them.

A game folder may come from anyone (docs/security.md).  ``Limits`` holds every
bound: of a template's work (the sandbox, ``stages/sandbox.py``), of a picture or
icon SVG file, of the numbers an SVG may hold.  ``LIMITS`` is the set in force;
``PNP_LIMITS`` (``seconds=30,elements=100000``) changes it for a run: the bounds
are the person's who runs pnp, never the folder's.

``svg_shape`` streams through an SVG file (a picture, an icon) counting its
elements and how deeply they nest, stopping at the first bound passed, before
anything builds its tree; ``svg_number_problem`` finds a number in an SVG's
attributes that no PDF can hold (not finite, or too large); ``display_list_problem``
the same in what a drawing comes to.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, fields, replace

from model.errors import PnpError


@dataclass(frozen=True)
class Limits:
    """The bounds of a template's work and of a picture SVG file (docs/security.md)."""

    seconds: float = 10.0  # to render one side of a design, or a reference sheet
    string: int = 1_000_000  # characters in one string a template makes
    items: int = 100_000  # items in one list it makes (range() included)
    output: int = 4_000_000  # characters it renders, and any block, macro or set block of it
    printed: int = 16_000_000  # characters of the values it prints ({{ value }}) in all, a macro's again where printed
    loops: int = 1_000_000  # loop iterations in one rendering, all loops together
    calls: int = 50  # macros calling macros, nested
    number: float = 1e9  # the largest number a helper or an SVG attribute takes
    bits: int = 4_096  # the largest whole number a template makes, in bits (about 1,200 digits)
    elements: int = 50_000  # SVG (or reference XML) elements a template's output holds
    nesting: int = 100  # elements nested in one another, in a template's output or a picture SVG
    template_bytes: int = 1_000_000  # a template file's size
    text: int = 20_000  # characters of one text() or rich() value
    fitting: int = 2_000_000  # characters times the sizes one text() may try to fit them at
    picture_bytes: int = 8 * 2**20  # a picture SVG file's size
    picture_elements: int = 30_000  # elements of a picture SVG file


class LimitsError(PnpError):
    """``PNP_LIMITS`` names a bound that does not exist or a value that is not one: a mistake of
    the command's environment, said before anything runs."""

    exit_code = 2


def from_environment(text: str | None) -> Limits:
    """``LIMITS`` with the changes ``PNP_LIMITS`` names (``name=value`` pairs, comma-separated)."""
    found = Limits()
    if not text:
        return found
    known = {f.name: f.type for f in fields(Limits)}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in known:
            raise LimitsError(f"PNP_LIMITS: unknown limit '{name}'; known: {', '.join(known)}")
        try:
            number = float(value) if name in ("seconds", "number") else int(value)
        except ValueError:
            raise LimitsError(f"PNP_LIMITS: {name}={value.strip()!r} is not a number") from None
        if not number > 0 or not math.isfinite(number):
            raise LimitsError(f"PNP_LIMITS: {name} must be a number above 0")
        found = replace(found, **{name: number})
    return found


LIMITS = from_environment(os.environ.get("PNP_LIMITS"))


def in_force() -> Limits:
    """The bounds in force (``LIMITS``, looked up when asked: a test may set others)."""
    return LIMITS


# ---------------------------------------------------------------- numbers in SVG
_SUSPECT = re.compile(r"\b(?:inf(?:inity)?|nan)\b|\d{10}|\d[eE]\+?0*[1-9]\d", re.I)
_NOT_FINITE = ("inf", "nan", "Inf", "NaN", "INF", "NAN")
_ATTRIBUTE = re.compile(r"""\s([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_NUMBER = re.compile(r"[-+]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)
#: Attributes that hold names, digests or text rather than numbers.
_WORDS = ("data-", "href", "xlink:", "id", "class", "font-family", "xmlns", "style", "lang", "xml:")


def svg_number_problem(svg: str, limit: float | None = None, quick: bool = False) -> str | None:
    """What is wrong with the numbers of an SVG's attributes, if anything: a number that is not
    finite or beyond ``limit`` (``Limits.number``) cannot be drawn into a PDF.  ``quick``: looked
    for only when the text holds a word a number that is not finite is written as (the SVG a
    template writes: a number too large to draw is found in what its drawing comes to,
    ``display_list_problem``)."""
    if quick:
        if not any(word in svg for word in _NOT_FINITE):
            return None
    elif not _SUSPECT.search(svg):
        return None
    limit = limit or in_force().number
    for found in _ATTRIBUTE.finditer(svg):
        name = found.group(1)
        value = found.group(2) if found.group(2) is not None else found.group(3)
        if name.startswith(_WORDS) or value.lstrip().startswith("#") or not _SUSPECT.search(value):
            continue  # a name, a digest, a colour ...
        for token in _NUMBER.findall(value):
            number = float(token)
            if not math.isfinite(number) or abs(number) > limit:
                shown = value if len(value) <= 40 else value[:37] + "..."
                return (f'{name}="{shown}" holds the number {token}; numbers in SVG must be finite and at most '
                        f"{limit:,.0f}")
    return None


def display_list_problem(display_list) -> str | None:
    """A number in a display list's calls that a PDF cannot hold (not finite, or too large to write)."""
    stack = [display_list.ops]
    while stack:
        for value in stack.pop():
            kind = type(value)
            if kind is float:
                if not math.isfinite(value) or abs(value) > 1e15:
                    return f"its drawing comes to the number {value:g}, which a PDF cannot hold; use smaller numbers"
            elif kind is tuple or kind is list:
                stack.append(value)
            elif kind is dict:
                stack.append(tuple(value.values()))
    return None


# ---------------------------------------------------------------- the shape of a picture SVG
def svg_shape(data: bytes, limits: Limits | None = None) -> str | None:
    """What makes an SVG file (a picture, an icon) too large to read, if anything: its elements,
    how deeply they nest; found by streaming through it (stopping at the first bound passed),
    before anything builds its tree.  (Its size in bytes is checked before it is read.)"""
    limits = limits or in_force()
    from xml.parsers import expat

    parser = expat.ParserCreate()
    state = {"elements": 0, "depth": 0}

    class Stop(Exception):
        pass

    def start(name, attrs):
        state["elements"] += 1
        state["depth"] += 1
        if state["elements"] > limits.picture_elements:
            raise Stop(f"has more than {limits.picture_elements:,} elements; simplify it (fewer shapes, paths "
                       "joined), or save it as a PNG")
        if state["depth"] > limits.nesting:
            raise Stop(f"nests elements more than {limits.nesting} deep; flatten its groups")

    def end(name):
        state["depth"] -= 1

    def declared(*args):
        raise Stop("")  # a DTD or entities: never expanded here, refused by the reader that follows (svgsafe)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = declared
    try:
        parser.Parse(data, True)
    except Stop as exc:
        return str(exc) or None
    except expat.ExpatError:
        return None  # not well-formed: the reader that follows says where
    return None
