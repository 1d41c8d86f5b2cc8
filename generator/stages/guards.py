"""What a template reads and calls, and its mistakes in words.

``FolderLoader`` reads a game's templates only inside its folders; ``helpers``
wraps the helpers a template calls (``kit.Kit``'s) so that their arguments are
checked against the bounds (``art/limits.py``) before they run; ``problem_text``
and ``written_at`` say a template's mistake at its file and line.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import jinja2
from jinja2.exceptions import SecurityError

from ..art.limits import Limits, in_force
from ..draw.text import STEP
from .bounds import HelperError, LimitError
from .keys import folder_files
from .sandbox import NETS, Helper


# ---------------------------------------------------------------- reading templates
class FolderLoader(jinja2.BaseLoader):
    """Templates from a list of folders (the game's, then the generator's own), read only
    from inside them: no name with ``..``, no link leading out, nothing larger than
    ``Limits.template_bytes``."""

    def __init__(self, folders, limits: Limits | None = None):
        self.folders = [(os.fspath(f), os.path.realpath(f)) for f in folders]
        self.limits = limits or in_force()

    def get_source(self, environment, template):
        from jinja2.loaders import split_template_path

        pieces = split_template_path(template)  # refuses '..'
        for folder, root in self.folders:
            path = os.path.join(folder, *pieces)
            if os.path.isfile(path):
                break
        else:
            raise jinja2.TemplateNotFound(template)
        real = os.path.realpath(path)
        if os.path.commonpath((real, root)) != root:
            raise SecurityError(f"template '{template}' is a link that leads out of its folder; templates are read "
                                "only inside the game's template folder")
        with open(real, "rb") as fh:
            data = fh.read(self.limits.template_bytes + 1)
        if len(data) > self.limits.template_bytes:
            size = os.path.getsize(real)
            raise LimitError(f"template '{template}' is {size:,} bytes; a template may be at most "
                             f"{self.limits.template_bytes:,}")
        mtime = os.path.getmtime(real)

        def unchanged() -> bool:
            return os.path.exists(real) and os.path.getmtime(real) == mtime
        return data.decode("utf-8"), os.path.normpath(path), unchanged


# ---------------------------------------------------------------- the helpers a template calls
def _number(helper: str, name: str, value, low: float, high: float, limit: float):
    """A helper's numeric argument, checked: a finite number between ``low`` and ``high``."""
    kind = type(value)
    if (kind is int or kind is float) and low <= value <= high and -limit <= value <= limit:
        return value  # the common case (inf and nan compare false)
    if value is None:
        return value
    if type(value) is bool or not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise HelperError(f"{helper}(): {name} must be a number, not {_shown(value)}") from None
    if not math.isfinite(value):
        raise HelperError(f"{helper}(): {name} is {value}; it must be a finite number")
    low, high = max(low, -limit), min(high, limit)
    if not low <= value <= high:
        raise HelperError(f"{helper}(): {name} is {value:g}; it must be between {low:g} and {high:g}")
    return value


def _shown(value) -> str:
    text = repr(value) if isinstance(value, str) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _fitting(args, kwargs: dict, limits: Limits) -> None:
    """Refuse a text() that would be set at so many sizes, each of so many characters, that it
    would take minutes (``text(long, ..., size=200, min_size=0.01)``: a thousand sizes)."""
    value = "" if args[0] is None else str(args[0])
    size = args[5] if len(args) > 5 else kwargs.get("size", 3.5)
    least = args[6] if len(args) > 6 else kwargs.get("min_size")
    least = size * 0.6 if least is None else least
    if not isinstance(size, (int, float)) or not isinstance(least, (int, float)):
        return
    sizes = max(1.0, (size - least) / STEP + 1)
    if sizes * len(value) > limits.fitting:
        raise HelperError(f"text(): {len(value):,} characters tried at {sizes:,.0f} sizes ({size:g} down to "
                          f"{least:g} mm) is more work than a text may take ({limits.fitting:,} characters times "
                          "sizes); give it a narrower size range (min_size) or fewer characters")


#: Each helper's numeric arguments: (name, position or None for keyword only, low, high); sizes in mm.
_COORD, _SIZE = 1e5, 1e4
_NUMBERS = {
    "text": (("x", 1, -_COORD, _COORD), ("y", 2, -_COORD, _COORD), ("w", 3, -_SIZE, _SIZE), ("h", 4, -_SIZE, _SIZE),
             ("size", 5, 0.01, 200), ("min_size", 6, 0.01, 200), ("line_height", None, 0.1, 10),
             ("opacity", None, 0, 1)),
    "picture": (("x", 1, -_COORD, _COORD), ("y", 2, -_COORD, _COORD), ("w", 3, -_SIZE, _SIZE),
                ("h", 4, -_SIZE, _SIZE)),
    "icon": (("cx", 1, -_COORD, _COORD), ("cy", 2, -_COORD, _COORD), ("size", 3, -_SIZE, _SIZE)),
}


class Checked:
    """A helper's arguments checked before it runs: its numbers finite and in range, its text
    not too long (``_NUMBERS``, ``Limits``)."""

    __slots__ = ("name", "spec", "limits")

    def __init__(self, name: str, limits: Limits):
        self.name, self.spec, self.limits = name, _NUMBERS.get(name, ()), limits

    def __call__(self, args: tuple, kwargs: dict) -> tuple:
        limits = self.limits
        largest = limits.number
        for name, at, low, high in self.spec:
            if at is not None and at < len(args):
                value = args[at]
            elif name in kwargs:
                value = kwargs[name]
            else:
                continue
            kind = type(value)
            if (kind is int or kind is float) and low <= value <= high and -largest <= value <= largest:
                continue  # the common case (inf and nan compare false)
            value = _number(self.name, name, value, low, high, largest)
            if at is not None and at < len(args):
                args = (*args[:at], value, *args[at + 1:])
            else:
                kwargs[name] = value
        for value in args:
            if type(value) is str and len(value) > limits.text:
                if len(value) > limits.string or self.name in ("text", "rich"):
                    raise HelperError(f"{self.name}(): a text of {len(value):,} characters; a text may have at "
                                      f"most {limits.text:,}")
        if self.name == "text" and args:
            _fitting(args, kwargs, limits)
        return args


def helpers(kit, limits: Limits | None = None) -> dict:
    """The helpers of one rendered design, for its template: ``kit``'s (``render.Kit``), each
    with its arguments checked, and the geometry of ``nets``."""
    limits = limits or in_force()
    return {name: Helper(name, getattr(kit, name), Checked(name, limits))
            for name in ("text", "icon", "picture", "pal", "describe", "rich")} | {"nets": NETS}


# ---------------------------------------------------------------- errors, in the template's words
def problem_text(exc: BaseException) -> str | None:
    """What to tell the designer for an error the sandbox raised (None: not one of its own)."""
    if isinstance(exc, (LimitError, HelperError, SecurityError)):
        return str(exc)
    if isinstance(exc, RecursionError):
        return ("templates call, include, extend or import one another without end (or nest too deeply to "
                "read); break the circle")
    if isinstance(exc, MemoryError):
        return "the template asked for more memory than there is; make it smaller"
    return None


ERRORS = (LimitError, SecurityError, RecursionError, MemoryError)


def written_at(folder: Path, template: str, needle: str) -> tuple[str, int] | None:
    """(template name, line) where ``needle`` is written once in the game's templates: in
    ``template`` itself, else in one other template of the folder (a macro file it imports,
    a base it extends); None when it is written nowhere or in several places."""
    if not needle:
        return None
    folder = Path(folder)
    first = folder / template
    others = [p for p in folder_files(folder, "*.j2") if p != first]
    for group in ([first], others):
        found = []
        for path in group:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if needle not in text:
                continue
            found += [(path.relative_to(folder).as_posix(), n)
                      for n, line in enumerate(text.splitlines(), 1) if needle in line]
        if found:
            return found[0] if len(found) == 1 else None
    return None


