"""The bounds of a template's work, kept where the work is made.

One rendering (a side of a design, a reference sheet) has a ``Budget``: its time,
its loop iterations in all, its macros calling macros.  ``loop`` counts every loop
(the sandbox's code generator puts it around each one), ``template_range`` bounds
``range()``, ``guard_filter`` wraps every filter so that its arguments and result
are checked, ``check_str_call`` bounds the string methods that make long strings,
``joined`` checks the size of what a block, macro or set block rendered before it
is joined (every value printed in it was counted by the sandbox's ``finalize``), and
``stream`` counts a template's output as it streams, raising past a bound inside the
template's own frame, at the line that wrote the chunk (``shape`` counts its elements
and their nesting in the whole text; ``stream(detailed=True)`` finds the line).  The bounds are ``art.limits.Limits``.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
import time
import types

from markupsafe import Markup

from ..art.limits import Limits, in_force


class LimitError(Exception):
    """A template (or a picture SVG) went past one of its bounds: the message says which, for the user."""


class HelperError(ValueError):
    """A helper was given a value it cannot take: the message says which, for the user."""


# ---------------------------------------------------------------- the budget of one rendering
class _Local(threading.local):
    budget = None  # the budget of the rendering under way in this thread


_local = _Local()


class Budget:
    """What one rendering may still spend: loop iterations, time, nested macro calls."""

    __slots__ = ("limits", "deadline", "loops", "calls", "ticks", "printable")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.loops = limits.loops
        self.calls = 0
        self.ticks = 0
        self.printable = limits.printed  # characters of values ({{ value }}) it may still print

    def tick(self) -> None:
        """Now and then (every 16th time), stop a rendering past its time."""
        self.ticks += 1
        if (self.ticks & 15) == 0 and time.monotonic() > self.deadline:
            raise LimitError(f"the template ran for more than {self.limits.seconds:g} s (the time a design may take)")


def current_budget() -> Budget:
    """The budget of the rendering under way in this thread; outside one (a macro called from
    Python), a budget of its own for the call, never kept for a later rendering."""
    return _local.budget or Budget(in_force())


class Rendering:
    """The budget of a rendering, for the time it renders (a rendering inside another shares its budget)."""

    __slots__ = ("limits", "outer")

    def __init__(self, limits: Limits):
        self.limits = limits

    def __enter__(self):
        self.outer = _local.budget
        if self.outer is None:
            _local.budget = Budget(self.limits)
        return _local.budget

    def __exit__(self, *exc):
        _local.budget = self.outer


def loop(iterable):
    """A loop's items, counted against the rendering's loop iterations (and its time, now and then)."""
    budget = current_budget()
    for item in iterable:
        budget.loops -= 1
        if (budget.loops & 1023) == 0:
            if budget.loops < 0:
                raise LimitError(f"the template's loops ran more than {budget.limits.loops:,} times in all")
            budget.tick()
        yield item


def template_range(*args):
    """``range`` for templates, refused beyond ``Limits.items`` items."""
    found = range(*args)
    limit = current_budget().limits.items
    if len(found) > limit:
        raise LimitError(f"range() of {len(found):,} items; a template may loop over at most {limit:,}")
    return found


# ---------------------------------------------------------------- sizes
def size_of(value, limit: int, depth: int = 0) -> int:
    """About the number of characters ``value`` prints as (``str``), counted until ``limit`` is passed."""
    kind = type(value)
    if kind is str or kind is Markup:
        return len(value)
    if kind is int:
        return value.bit_length() // 3 + 2
    if kind in (list, tuple, set, frozenset, dict):
        if depth > 20:
            return limit + 1
        items = value.items() if kind is dict else value
        total = 2
        for item in items:
            total += 2 + size_of(item, limit, depth + 1)
            if total > limit:
                break
        return total
    return 24


def too_long(what: str, size: int, limit: int, unit: str = "characters") -> LimitError:
    return LimitError(f"{what} of {size:,} {unit}; a template may make at most {limit:,}")


def check_value(value, what: str = "a value"):
    """``value`` when it is within the bounds of one string or list, else LimitError."""
    kind = type(value)
    limits = current_budget().limits
    if (kind is str or kind is Markup) and len(value) > limits.string:
        raise too_long(what, len(value), limits.string)
    if (kind is list or kind is tuple) and len(value) > limits.items:
        raise too_long(what, len(value), limits.items, "items")
    if kind is int and value.bit_length() > limits.bits:
        raise LimitError(f"a whole number of {value.bit_length():,} bits; a template may make at most "
                         f"{limits.bits:,}")
    return value


def check_big_ints(args, limit: int, what: str) -> None:
    """Refuse a whole number beyond ``limit`` among ``args`` (a width, a count, a fill ...)."""
    for value in args:
        if type(value) is int and abs(value) > limit:
            raise LimitError(f"{what} was given {value:,}; a template may ask for at most {limit:,}")


#: A format field (``%...`` or ``{...}``) with a number of seven digits or more in it.
_WIDE_FIELD = re.compile(r"%[-+ #0*]*\d{7,}|%[-+ #0*\d]*\.\d{7,}|\{[^{}]*\d{7,}[^{}]*\}")
_DIGITS = re.compile(r"\d{7,}")


def check_format(text: str, args, limit: int) -> None:
    """Refuse a format string (``%`` or ``str.format``) whose fields ask for a width or precision beyond ``limit``."""
    found = _WIDE_FIELD.search(text) if ("%" in text or "{" in text) else None
    if found is not None:
        asked = int(_DIGITS.search(found.group(0)).group(0))
        if asked > limit:
            raise LimitError(f"a format field '{found.group(0)[:30]}' asks for {asked:,} characters; "
                             f"a template may make at most {limit:,}")
    check_big_ints(args, limit, "a format")


def check_formatted(text: str, values, limit: int, what: str) -> None:
    """Refuse formatting ``text`` with ``values`` (``%`` or ``str.format``) when its fields ask for,
    or the result may be, a string beyond ``limit``; ``what`` names the formatting in the message."""
    check_format(text, values, limit)
    size = len(text) + sum(size_of(v, limit) for v in values)
    if size > limit:
        raise too_long(what, size, limit)


def finalize(value):
    """Every ``{{ value }}`` before it is written: no number that is not finite, no value too large to print."""
    kind = type(value)
    if kind is str or kind is Markup:
        budget = _local.budget
        if budget is not None:
            budget.printable -= len(value)
            if budget.printable < 0:
                most = budget.limits.printed
                raise too_long("printed values ({{ }}) in all", most - budget.printable, most)
        return value
    if kind is int or kind is bool:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise HelperError(f"the template printed the number {value}; numbers must be finite")
        return value
    if kind in (list, tuple, dict, set, frozenset):
        limit = current_budget().limits.string
        size = size_of(value, limit)
        if size > limit:
            raise too_long("a printed value", size, limit)
    return value


def add(left, right):
    """``left + right`` in a template: numbers as Python adds them, strings and lists within their bounds."""
    a, b = type(left), type(right)
    if (a is float or a is int) and (b is float or b is int):
        return left + right
    if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        limits = current_budget().limits
        size = len(left) + len(right)
        limit = limits.string if isinstance(left, str) else limits.items
        if size > limit:
            raise too_long("a sum", size, limit, "characters" if isinstance(left, str) else "items")
    return check_value(left + right, "'+'")


def mul(left, right):
    """``left * right`` in a template: numbers as Python multiplies them (whole numbers within their
    bits), a string or list repeated within its bounds."""
    a, b = type(left), type(right)
    if a is float or b is float:  # a number, or a TypeError
        return left * right
    if a is int and b is int and left.bit_length() + right.bit_length() <= 64:
        return left * right
    limits = current_budget().limits
    if a is int and b is int:
        if left.bit_length() + right.bit_length() > limits.bits + 1:
            raise LimitError(f"a product of about {left.bit_length() + right.bit_length():,} bits; "
                             f"a template may make at most {limits.bits:,}")
        return left * right
    seq, n = (left, right) if b is int else (right, left)
    if type(n) is int and isinstance(seq, (str, list, tuple)):
        size = len(seq) * max(n, 0)
        limit = limits.string if isinstance(seq, str) else limits.items
        if size > limit:
            raise too_long("a repeated value", size, limit, "characters" if isinstance(seq, str) else "items")
    return check_value(left * right, "'*'")


def fmt(value, digits=2) -> str:
    """``|fmt(d)``: a number with ``d`` decimals (at most 20)."""
    if type(digits) is not int or not 0 <= digits <= 20:
        raise HelperError(f"|fmt({digits!r}): give the decimals as a whole number from 0 to 20")
    return f"{value:.{digits}f}"


fmt.pnp_guarded = True  # checked itself: no wrapper


#: Filters that make a string from their value (its size checked before they run).
_STRINGS = frozenset({"capitalize", "center", "e", "escape", "filesizeformat", "forceescape", "format", "indent",
                      "lower", "replace", "string", "striptags", "title", "tojson", "trim", "truncate", "upper",
                      "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr", "join", "fmt"})
#: Filters that take a width or a count (refused beyond the bounds before they run).
_SIZED = frozenset({"batch", "center", "fmt", "indent", "slice", "truncate", "wordwrap"})
#: Filters whose result may be many times larger than what they are given (worked out before they run).
_GROWS = frozenset({"center", "indent", "join", "replace", "wordwrap"})
_SCALARS = frozenset({int, float, bool, type(None)})
def guard_filter(name: str, fn):
    """A filter with its arguments and result checked against the bounds."""
    from jinja2.utils import _PassArg

    start = 1 if _PassArg.from_obj(fn) is not None else 0
    stringy = name in _STRINGS
    grows = name in _GROWS
    sized = name in _SIZED
    count_limit = "items" if name in ("batch", "slice") else "string"

    def guarded(*args, **kwargs):
        limits = current_budget().limits
        value = args[start] if len(args) > start else None
        rest = args[start + 1:]
        kind = type(value)
        if kind is types.GeneratorType or kind is map or kind is filter:  # a lazy sequence: its items, bounded
            items, total = [], 0
            for item in itertools.islice(value, limits.items + 1):  # (and what they hold, as they are made)
                items.append(item)
                total += size_of(item, limits.printed)
                if total > limits.printed:
                    raise too_long(f"|{name} of a sequence", total, limits.printed, "characters in its items")
            if len(items) > limits.items:
                raise too_long(f"|{name} of a sequence", len(items), limits.items, "items")
            args = (*args[:start], items, *rest)
            value = items
            kind = list
        plain = not kwargs
        for v in rest:  # arguments that are numbers, and small ones, ask for nothing large
            if type(v) not in _SCALARS or (type(v) is int and not -1000 <= v <= 1000):
                plain = False
                break
        if sized and not plain:
            check_big_ints((*rest, *kwargs.values()), getattr(limits, count_limit), f"|{name}")
        if name == "sum" and isinstance(value, (list, tuple)):  # lists added up: their items, before they are
            first = kwargs.get("start", rest[1] if len(rest) > 1 else 0)  # (each sum copies all so far)
            total = sum(len(v) for v in (first, *value) if type(v) in (list, tuple))
            if total > limits.items:
                raise too_long("|sum of lists", total, limits.items, "items")
        if stringy and (grows or not plain or kind not in _SCALARS):
            size = size_of(value, limits.string) + sum(size_of(a, limits.string) for a in (*rest, *kwargs.values()))
            if grows or size > limits.string:
                size = _grown(name, value, rest, kwargs, size, limits.string)
            if size > limits.string:
                raise too_long(f"|{name}", size, limits.string)
            if name == "format" and isinstance(value, str):
                check_format(value, rest, limits.string)
        found = fn(*args, **kwargs)
        if type(found) is str and len(found) <= limits.string:  # most filters: a short string
            return found
        return check_value(found, f"|{name}")

    if hasattr(fn, "jinja_pass_arg"):
        guarded.jinja_pass_arg = fn.jinja_pass_arg
    guarded.__name__ = getattr(fn, "__name__", name)
    return guarded


def _grown(name: str, value, rest, kwargs, size: int, limit: int) -> int:
    """An upper bound of the size a filter that can multiply its input makes."""
    text = value if isinstance(value, str) else ""
    if name == "indent":
        width = rest[0] if rest else kwargs.get("width", 4)
        each = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        return len(text) + (text.count("\n") + 1) * max(each, 0)
    if name == "replace" and len(rest) >= 2 and isinstance(rest[0], str) and isinstance(rest[1], str):
        return _replaced_size(text, rest[0], rest[1])
    if name == "wordwrap":
        wrap = rest[2] if len(rest) > 2 else kwargs.get("wrapstring") or "\n"
        return len(text) * (1 + len(wrap) if isinstance(wrap, str) else 2)
    if name == "center":
        width = rest[0] if rest else kwargs.get("width", 80)
        return max(len(text), width if isinstance(width, int) else 0)
    if name == "join":
        sep = rest[0] if rest else kwargs.get("d", "")
        items = len(value) if isinstance(value, (list, tuple, set, frozenset, dict)) else 0
        return size + items * (len(sep) if isinstance(sep, str) else 0)
    return size


def _replaced_size(text: str, old: str, new: str) -> int:
    """The size of ``text`` with every ``old`` replaced by ``new`` (an upper bound where it shrinks)."""
    count = text.count(old) if old else len(text) + 1
    return len(text) + count * max(len(new) - len(old), 0)


def check_str_call(text: str, name: str, args, kwargs, limits: Limits) -> None:
    """Refuse a string method call that would make a string beyond the bounds."""
    values = (*args, *kwargs.values())
    if name in ("center", "ljust", "rjust", "zfill", "expandtabs"):
        check_big_ints(values, limits.string, f"{name}()")
        if name == "expandtabs":
            width = values[0] if values and type(values[0]) is int else 8
            if len(text) + text.count("\t") * max(width, 0) > limits.string:
                raise too_long("expandtabs()", len(text) + text.count("\t") * width, limits.string)
    elif name == "replace" and len(values) >= 2 and isinstance(values[0], str) and isinstance(values[1], str):
        size = _replaced_size(text, values[0], values[1])
        if size > limits.string:
            raise too_long("replace()", size, limits.string)
    elif name == "translate" and values and isinstance(values[0], dict):
        longest = max((len(v) for v in values[0].values() if isinstance(v, str)), default=1)
        if len(text) * max(longest, 1) > limits.string:
            raise too_long("translate()", len(text) * longest, limits.string)
    elif name == "join" and values:
        items = values[0]
        if isinstance(items, (list, tuple)):
            size = sum(size_of(i, limits.string) for i in items) + len(text) * len(items)
            if size > limits.string:
                raise too_long("join()", size, limits.string)


def joined(parts: list, limit: int) -> str:
    """The text of what a block, macro, call or set block rendered (its parts), its size
    checked before it is joined."""
    try:
        size = sum(map(len, parts))
    except TypeError:
        size = sum(len(str(p)) for p in parts)
    if size > limit:
        raise too_long("rendered text", size, limit)
    return "".join(parts)


_TAG = re.compile(r"<[/!?]?|/>")


def _nested(chunk: str, depth: int, limit: int) -> int:
    """The depth after ``chunk``, its tags followed one by one (it may nest past ``limit``)."""
    for tag in _TAG.findall(chunk):
        if tag == "<":
            depth += 1
            if depth > limit:
                raise LimitError(f"the template nests elements more than {limit} deep")
        elif tag in ("</", "/>"):
            depth -= 1
    return depth


def stream(chunks, limits: Limits, detailed: bool = False) -> str:
    """The text of a rendering's chunks, its size checked as they come (and, ``detailed``, its
    elements and how deeply they nest): past a bound, the error is raised inside the template
    (its frame, at the line that wrote the chunk)."""
    parts = []
    size = elements = depth = 0
    most, most_elements, most_depth = limits.output, limits.elements, limits.nesting
    if not detailed:  # a batch of chunks at a time, counted at C speed (the line said: the batch's last)
        try:
            while True:
                batch = list(itertools.islice(chunks, 16))
                if not batch:
                    return "".join(parts)
                size += sum(map(len, batch))
                if size > most:
                    raise too_long("rendered text", size, most)
                parts += batch
        except LimitError as exc:
            if isinstance(chunks, types.GeneratorType):
                chunks.throw(exc)  # raised in the template's frame, at its line
            raise
    try:
        for chunk in chunks:
            size += len(chunk)
            if size > most:
                raise too_long("rendered text", size, most)
            if "<" in chunk:
                closing = chunk.count("</")
                opened = chunk.count("<") - closing - chunk.count("<!") - chunk.count("<?")
                elements += opened
                if depth + opened > most_depth:
                    depth = _nested(chunk, depth, most_depth)
                else:
                    depth += opened - closing - chunk.count("/>")
                if elements > most_elements:
                    raise LimitError(f"the template wrote more than {most_elements:,} elements")
            elif "/>" in chunk:
                depth -= chunk.count("/>")
            parts.append(chunk)
    except LimitError as exc:
        if isinstance(chunks, types.GeneratorType):
            chunks.throw(exc)  # raised in the template's frame, at its line
        raise
    return "".join(parts)


def shape(text: str, limits: Limits) -> str | None:
    """What is wrong with a rendering's elements (too many, nested too deeply), if anything:
    counted in the whole text at once (``stream(detailed=True)`` finds the line)."""
    opened = text.count("<") - text.count("</") - text.count("<!") - text.count("<?")
    if opened > limits.elements:
        return f"the template wrote more than {limits.elements:,} elements"
    if opened > limits.nesting and max(itertools.accumulate(map(_STEPS.__getitem__, _TAG.findall(text)))) > limits.nesting:
        return f"the template nests elements more than {limits.nesting} deep"
    return None


#: How each tag changes the depth (an opening tag, a closing one, one that closes itself, a comment ...).
_STEPS = {"<": 1, "</": -1, "/>": -1, "<!": 0, "<?": 0}
