"""The bounds of a template's work, kept where the work is made.

One rendering (a side of a design, a reference sheet) has a ``Budget``: its time,
its loop iterations in all, its macros calling macros.  ``loop`` counts every loop
(the sandbox's code generator puts it around each one), ``template_range`` bounds
``range()``, ``guard_filter`` wraps every filter so that its arguments and result
are checked, ``check_str_call`` bounds the string methods that make long strings,
``Buffer`` counts what a block, macro or set block renders as it grows, and
``stream`` counts a template's output (its size, its elements and how deeply they
nest) as it streams, raising past a bound inside the template's own frame, at the
line that wrote the chunk.  The bounds are ``art.limits.Limits``.
"""

from __future__ import annotations

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
_local = threading.local()


class Budget:
    """What one rendering may still spend: loop iterations, time, nested macro calls."""

    __slots__ = ("limits", "deadline", "loops", "calls")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.loops = limits.loops
        self.calls = 0

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise LimitError(f"the template ran for more than {self.limits.seconds:g} s (the time a design may take)")


def current_budget() -> Budget:
    """The budget of the rendering under way in this thread; outside one (a macro called from
    Python), a budget of its own for the call, never kept for a later rendering."""
    found = getattr(_local, "budget", None)
    return found if found is not None else Budget(in_force())


class Rendering:
    """The budget of a rendering, for the time it renders (a rendering inside another shares its budget)."""

    __slots__ = ("limits", "outer")

    def __init__(self, limits: Limits):
        self.limits = limits

    def __enter__(self):
        self.outer = getattr(_local, "budget", None)
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


_FIELD = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?|\{[^{}]*\}")


def check_format(text: str, args, limit: int) -> None:
    """Refuse a format string (``%`` or ``str.format``) whose fields ask for a width or precision beyond ``limit``."""
    if "%" not in text and "{" not in text:
        return
    for found in _FIELD.finditer(text):
        for digits in re.findall(r"\d+", found.group(0)):
            if len(digits) > 9 or int(digits) > limit:
                raise LimitError(f"a format field '{found.group(0)[:30]}' asks for {int(digits):,} characters; "
                                 f"a template may make at most {limit:,}")
    check_big_ints(args, limit, "a format")


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
        budget = current_budget()
        limits = budget.limits
        budget.tick()
        value = args[start] if len(args) > start else None
        rest = args[start + 1:]
        kind = type(value)
        if kind is types.GeneratorType or kind is map or kind is filter:  # a lazy sequence: its items, bounded
            import itertools

            items = list(itertools.islice(value, limits.items + 1))
            if len(items) > limits.items:
                raise too_long(f"|{name} of a sequence", len(items), limits.items, "items")
            args = (*args[:start], items, *rest)
            value = items
        if sized:
            check_big_ints((*rest, *kwargs.values()), getattr(limits, count_limit), f"|{name}")
        if stringy and (grows or kwargs or kind not in _SCALARS or any(type(a) not in _SCALARS for a in rest)):
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
        count = text.count(rest[0]) if rest[0] else len(text) + 1
        return len(text) + count * max(len(rest[1]) - len(rest[0]), 0)
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
        count = text.count(values[0]) if values[0] else len(text) + 1
        size = len(text) + count * max(len(values[1]) - len(values[0]), 0)
        if size > limits.string:
            raise too_long("replace()", size, limits.string)
    elif name == "join" and values:
        items = values[0]
        if isinstance(items, (list, tuple)):
            size = sum(size_of(i, limits.string) for i in items) + len(text) * len(items)
            if size > limits.string:
                raise too_long("join()", size, limits.string)


class Buffer(list):
    """What a block, macro, call or set block renders, counted as it grows."""

    __slots__ = ("size", "limit")

    def __init__(self, limit: int):
        super().__init__()
        self.size = 0
        self.limit = limit

    def append(self, item) -> None:
        self.extend((item,))

    def extend(self, items) -> None:
        items = tuple(items)
        for item in items:  # the generated code appends strings only
            self.size += len(item) if isinstance(item, str) else 0
        if self.size > self.limit:
            raise too_long("rendered text", self.size, self.limit)
        list.extend(self, items)


_TAG = re.compile(r"<[/!?]?|/>")


class Output:
    """What a template renders as it streams: its size, its elements and how deep they nest."""

    __slots__ = ("limits", "size", "elements", "depth")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.size = self.elements = self.depth = 0

    def add(self, chunk: str) -> None:
        limits = self.limits
        self.size += len(chunk)
        if self.size > limits.output:
            raise too_long("rendered text", self.size, limits.output)
        if "<" not in chunk and "/>" not in chunk:
            return
        opening = chunk.count("<")
        closing = chunk.count("</")
        opened = opening - closing - chunk.count("<!") - chunk.count("<?")
        self.elements += opened
        if self.elements > limits.elements:
            raise LimitError(f"the template wrote more than {limits.elements:,} elements")
        if self.depth + opened > limits.nesting:  # it may nest too deeply: follow its tags one by one
            depth = self.depth
            for tag in _TAG.findall(chunk):
                if tag == "<":
                    depth += 1
                    if depth > limits.nesting:
                        raise LimitError(f"the template nests elements more than {limits.nesting} deep")
                elif tag in ("</", "/>"):
                    depth -= 1
            self.depth = depth
        else:
            self.depth += opened - closing - chunk.count("/>")


def stream(chunks, limits: Limits) -> str:
    """The text of a rendering's chunks, checked as they come: past a bound, the error is
    raised inside the template (its frame, at the line that wrote the chunk)."""
    out = Output(limits)
    parts = []
    for chunk in chunks:
        try:
            out.add(chunk)
        except LimitError as exc:
            if isinstance(chunks, types.GeneratorType):
                chunks.throw(exc)  # raised in the template's frame, at its line
            raise
        parts.append(chunk)
    return "".join(parts)


