"""Templates are data: the sandbox a game's templates render in, and the bounds of their work.

A game folder may come from anyone (a forum, a co-designer, a playtest group),
and opening it with ``build``, ``check``, ``export``, ``watch`` or ``preview``
must be as safe as opening a PDF.  Its templates render in Jinja2's immutable
sandbox, made stricter (``Sandbox``):

- a template reads attributes of plain values (strings, numbers, lists,
  dicts), of the game's rows and manifest (``model``), of the geometry of
  ``nets`` and of Jinja2's own loop, namespace and macro objects; nothing
  starting with ``_``, no file path, module, class or function is handed out,
  and it calls only the methods of those values, its macros and the helpers
  given to it, each wrapped (``helpers``) so that its arguments are checked
  (``lipsum`` and ``pprint`` are gone: they serve no card);
- every piece of work has a bound (``Limits``): the characters of a string and
  the items of a list it makes, the characters it renders (in all, and in any
  block, macro or ``set`` block), its loop iterations in all, macros calling
  macros, numbers (no inf or nan; no integer of thousands of digits), the SVG
  elements it writes and how deeply they nest, and its time.  A template past a
  bound stops at once with one line at its file and line;
- ``include``, ``import`` and ``extends`` read templates only inside the
  game's template folder and the generator's own (``FolderLoader``): a link that
  leads out of them, or a file larger than ``Limits.template_bytes``, is not read.

The bounds are kept where the work is made: Jinja2's code generator is asked
to count loop iterations (``loop``), to check every buffer a macro or block
fills (``Buffer``) and every ``~`` (``Sandbox.sandbox_join``); the binary
operators that make large values are intercepted (``Sandbox.call_binop``), every
call goes through ``Sandbox.call``, every filter through a wrapper, and the
output is counted as it streams (``stream``), so that an error is raised in
the template's own frame, at its line.  Picture SVG files have bounds of their
own here too (``svg_shape``).  ``LIMITS`` holds the bounds in force;
``PNP_LIMITS`` (``seconds=30,elements=100000``) changes them for a run.
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
import types
from dataclasses import dataclass, fields, replace
from pathlib import Path, PurePath

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.environment import TemplateModule
from jinja2.exceptions import SecurityError
from jinja2.runtime import BlockReference, Context, LoopContext, Macro, Namespace, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Cycler, Joiner
from markupsafe import Markup

from model.errors import PnpError

#: Bump when what the sandbox compiles or checks changes (compiled templates are kept by it).
REVISION = 1


@dataclass(frozen=True)
class Limits:
    """The bounds of a template's work and of a picture SVG file (docs/security.md)."""

    seconds: float = 10.0  # to render one side of a design, or a reference sheet
    string: int = 1_000_000  # characters in one string a template makes
    items: int = 100_000  # items in one list it makes (range() included)
    output: int = 4_000_000  # characters it renders, and any block, macro or set block of it
    loops: int = 1_000_000  # loop iterations in one rendering, all loops together
    calls: int = 50  # macros calling macros, nested
    number: float = 1e9  # the largest number a helper or an SVG attribute takes
    bits: int = 4_096  # the largest whole number a template makes, in bits (about 1,200 digits)
    elements: int = 50_000  # SVG (or reference XML) elements a template's output holds
    nesting: int = 100  # elements nested in one another, in a template's output or a picture SVG
    template_bytes: int = 1_000_000  # a template file's size
    text: int = 20_000  # characters of one text() or rich() value
    picture_bytes: int = 8 * 2**20  # a picture SVG file's size
    picture_elements: int = 30_000  # elements of a picture SVG file


class LimitsError(PnpError):
    """``PNP_LIMITS`` names a bound that does not exist or a value that is not one: a mistake of
    the command's environment, said before anything runs."""

    exit_code = 2


def _from_environment(text: str | None) -> Limits:
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


LIMITS = _from_environment(os.environ.get("PNP_LIMITS"))


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


def _budget() -> Budget:
    found = getattr(_local, "budget", None)
    if found is None:  # a template rendered outside ``Template.render`` (a module imported at its first use)
        found = _local.budget = Budget(LIMITS)
    return found


class _Rendering:
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
    budget = _budget()
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
    limit = _budget().limits.items
    if len(found) > limit:
        raise LimitError(f"range() of {len(found):,} items; a template may loop over at most {limit:,}")
    return found


# ---------------------------------------------------------------- sizes
def _size(value, limit: int, depth: int = 0) -> int:
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
            total += 2 + _size(item, limit, depth + 1)
            if total > limit:
                break
        return total
    return 24


def _too_long(what: str, size: int, limit: int, unit: str = "characters") -> LimitError:
    return LimitError(f"{what} of {size:,} {unit}; a template may make at most {limit:,}")


def check_value(value, what: str = "a value"):
    """``value`` when it is within the bounds of one string or list, else LimitError."""
    kind = type(value)
    limits = _budget().limits
    if (kind is str or kind is Markup) and len(value) > limits.string:
        raise _too_long(what, len(value), limits.string)
    if (kind is list or kind is tuple) and len(value) > limits.items:
        raise _too_long(what, len(value), limits.items, "items")
    if kind is int and value.bit_length() > limits.bits:
        raise LimitError(f"a whole number of {value.bit_length():,} bits; a template may make at most "
                         f"{limits.bits:,}")
    return value


def _check_big_ints(args, limit: int, what: str) -> None:
    """Refuse a whole number beyond ``limit`` among ``args`` (a width, a count, a fill ...)."""
    for value in args:
        if type(value) is int and abs(value) > limit:
            raise LimitError(f"{what} was given {value:,}; a template may ask for at most {limit:,}")


_FIELD = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?|\{[^{}]*\}")


def _check_format(text: str, args, limit: int) -> None:
    """Refuse a format string (``%`` or ``str.format``) whose fields ask for a width or precision beyond ``limit``."""
    if "%" not in text and "{" not in text:
        return
    for found in _FIELD.finditer(text):
        for digits in re.findall(r"\d+", found.group(0)):
            if len(digits) > 9 or int(digits) > limit:
                raise LimitError(f"a format field '{found.group(0)[:30]}' asks for {int(digits):,} characters; "
                                 f"a template may make at most {limit:,}")
    _check_big_ints(args, limit, "a format")


# ---------------------------------------------------------------- what a template may touch
_PLAIN = frozenset({str, Markup, int, float, bool, type(None), list, tuple, dict, set, frozenset, range,
                    types.MappingProxyType})
_RUNTIME = frozenset({LoopContext, Namespace, Macro, BlockReference, Cycler, Joiner, TemplateModule,
                      jinja2.runtime.TemplateReference})
#: Modules whose classes a template may read and whose methods it may call: the rows, the manifest and
#: its small languages, and the geometry of fold-up components.
OPEN_MODULES = ("model.manifest", "model.sheets", "model.lang", "generator.nets")
_OWNERS: dict[type, bool] = {}


def _owner_ok(kind: type) -> bool:
    """Whether a template may read attributes of values of this type."""
    found = _OWNERS.get(kind)
    if found is None:
        found = _OWNERS[kind] = (kind in _PLAIN or kind in _RUNTIME or kind is Confined
                                 or getattr(kind, "__module__", "") in OPEN_MODULES
                                 or (issubclass(kind, (str, dict, list, tuple)) and kind.__module__ != "builtins"
                                     and not issubclass(kind, PurePath)))
    return found


class _Helper:
    """A function a template may call: a wrapped helper (its arguments checked) or a sandboxed ``format``."""

    __slots__ = ("name", "fn", "__weakref__")

    def __init__(self, name: str, fn):
        self.name, self.fn = name, fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<helper {self.name}>"


#: Callables a template may call besides its values' methods, its macros and the helpers.
_OPEN_CALLABLES = frozenset({dict, Namespace, Cycler, Joiner, template_range, loop})


def callable_ok(obj) -> bool:
    """Whether a template may call ``obj``."""
    kind = type(obj)
    if kind is _Helper or kind in (Macro, Joiner, LoopContext, BlockReference):
        return True
    try:
        if obj in _OPEN_CALLABLES:
            return True
    except TypeError:  # not hashable
        return False
    if kind is types.BuiltinMethodType:  # a method of a string, list, dict ... (mutating ones are refused apart)
        owner = obj.__self__
        return not isinstance(owner, type) and _owner_ok(type(owner)) and not isinstance(owner, types.ModuleType)
    if kind is types.MethodType:
        module = getattr(obj.__func__, "__module__", "")
        return _owner_ok(type(obj.__self__)) and not isinstance(obj.__self__, type) and (
            module in OPEN_MODULES or module in ("jinja2.runtime", "jinja2.utils", "markupsafe"))
    if kind is types.FunctionType:  # the geometry of nets, named as its functions
        return obj.__module__ == "generator.nets" and not obj.__name__.startswith("_")
    return False


def value_ok(value) -> bool:
    """Whether a template may be handed ``value`` (an attribute or an item it read)."""
    kind = type(value)
    return kind in _PLAIN or _owner_ok(kind) or callable_ok(value)


def _name_of(obj) -> str:
    """What a value is, in a designer's words."""
    kind = type(obj)
    if isinstance(obj, PurePath):
        return "a file path"
    if isinstance(obj, types.ModuleType):
        return "a module"
    if isinstance(obj, type):
        return "a class"
    if kind in (types.MethodType, types.BuiltinMethodType):
        return "a method"
    if kind is types.FunctionType:
        return "a function"
    names = {"Card": "card", "Manifest": "game", "Deck": "deck", "Size": "size", "str": "a string", "Markup": "a string",
             "dict": "a dict", "list": "a list", "tuple": "a list", "int": "a number", "float": "a number",
             "_Helper": "a helper", "Confined": "nets"}
    return names.get(kind.__name__, kind.__name__)


class Confined:
    """A module's public functions for templates (``nets``), imported the first time one is used."""

    def __init__(self, module: str, names: tuple[str, ...] | None = None):
        self._module, self._names, self._found = module, names, None

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._found is None:
            import importlib

            self._found = importlib.import_module(self._module)
        value = getattr(self._found, name, None)
        if (value is None or (self._names is not None and name not in self._names)
                or getattr(value, "__module__", None) != self._module or isinstance(value, types.ModuleType)):
            raise AttributeError(name)
        return value


NETS = Confined("generator.nets")


# ---------------------------------------------------------------- compiled code that counts
class _Guarded(CodeGenerator):
    """Jinja2's code generator, with every loop counted (``loop``), every buffer a
    block, macro or set block fills checked (``Buffer``) and every ``~`` checked."""

    def visit_Template(self, node, frame=None):
        for found in node.find_all(nodes.For):
            found.iter = nodes.Call(nodes.ImportedName(f"{__name__}.loop"), [found.iter], [], None, None,
                                    lineno=found.iter.lineno)
        super().visit_Template(node, frame)

    def _output_child_to_const(self, node, frame, finalize):
        if isinstance(node, nodes.TemplateData):
            return super()._output_child_to_const(node, frame, finalize)
        raise nodes.Impossible()  # every {{ value }} meets ``_finalize`` when it runs, constants too

    def visit_Const(self, node, frame):
        if isinstance(node.value, float) and not math.isfinite(node.value):  # 1e309: written so that it runs
            self.write(f"float({str(node.value)!r})")
            return
        super().visit_Const(node, frame)

    def buffer(self, frame):
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.sandbox_buffer()")

    def visit_Concat(self, node, frame):
        if frame.eval_ctx.volatile:
            markup = "context.eval_ctx.volatile"
        else:
            markup = "True" if frame.eval_ctx.autoescape else "False"
        self.write(f"environment.sandbox_join({markup}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


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
            raise _too_long("rendered text", self.size, self.limit)
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
            raise _too_long("rendered text", self.size, limits.output)
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


class _Template(jinja2.Template):
    """A template whose rendering is bounded (``Limits``) and streamed through ``stream``."""

    def render(self, *args, **kwargs) -> str:
        env = self.environment
        with _Rendering(env.limits):
            ctx = self.new_context(dict(*args, **kwargs))
            try:
                return stream(self.root_render_func(ctx), env.limits)
            except Exception:
                env.handle_exception()

    def make_module(self, vars=None, shared=False, locals=None):
        ctx = self.new_context(vars, shared, locals)
        with _Rendering(self.environment.limits):
            out = Output(self.environment.limits)
            body = []
            chunks = self.root_render_func(ctx)
            for chunk in chunks:
                try:
                    out.add(chunk)
                except LimitError as exc:
                    chunks.throw(exc)  # raised in the template's frame, at its line
                    raise
                body.append(chunk)
        return TemplateModule(self, ctx, body)


# ---------------------------------------------------------------- the environment
def _finalize(value):
    """Every ``{{ value }}`` before it is written: no number that is not finite, no value too large to print."""
    kind = type(value)
    if kind is str or kind is Markup or kind is int or kind is bool:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise HelperError(f"the template printed the number {value}; numbers must be finite")
        return value
    if kind in (list, tuple, dict, set, frozenset):
        limit = _budget().limits.string
        size = _size(value, limit)
        if size > limit:
            raise _too_long("a printed value", size, limit)
    return value


#: Filters that make a string from their value (its size checked before they run).
_STRINGS = frozenset({"capitalize", "center", "e", "escape", "filesizeformat", "forceescape", "format", "indent",
                      "lower", "replace", "string", "striptags", "title", "tojson", "trim", "truncate", "upper",
                      "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr", "join", "fmt"})
#: Filters that take a width or a count (refused beyond the bounds before they run).
_SIZED = frozenset({"batch", "center", "fmt", "indent", "slice", "truncate", "wordwrap"})
#: Filters gone from the sandbox: they print the inside of objects (file paths included) or lorem ipsum.
_GONE_FILTERS = ("pprint",)
_GONE_GLOBALS = ("lipsum",)


def _guard_filter(name: str, fn):
    """A filter with its arguments and result checked against the bounds."""
    from jinja2.utils import _PassArg

    passed = _PassArg.from_obj(fn) is not None
    stringy = name in _STRINGS

    def guarded(*args, **kwargs):
        budget = _budget()
        limits = budget.limits
        budget.tick()
        start = 1 if passed else 0
        value = args[start] if len(args) > start else None
        rest = args[start + 1:]
        if isinstance(value, (types.GeneratorType, map, filter)):  # a lazy sequence: its items, bounded
            import itertools

            items = list(itertools.islice(value, limits.items + 1))
            if len(items) > limits.items:
                raise _too_long(f"|{name} of a sequence", len(items), limits.items, "items")
            args = (*args[:start], items, *rest)
            value = items
        if name in _SIZED:
            _check_big_ints((*rest, *kwargs.values()), limits.items if name in ("batch", "slice") else limits.string,
                            f"|{name}")
        if stringy:
            size = _size(value, limits.string) + sum(_size(a, limits.string) for a in (*rest, *kwargs.values()))
            if name in ("indent", "replace", "wordwrap", "center", "join") or size > limits.string:
                size = _grown(name, value, rest, kwargs, size, limits.string)
            if size > limits.string:
                raise _too_long(f"|{name}", size, limits.string)
            if name == "format" and isinstance(value, str):
                _check_format(value, rest, limits.string)
        return check_value(fn(*args, **kwargs), f"|{name}")

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


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, stricter: see the module's text."""

    code_generator_class = _Guarded
    template_class = _Template
    intercepted_binops = frozenset({"+", "*", "**", "%"})

    def __init__(self, *args, limits: Limits | None = None, **kwargs):
        kwargs.setdefault("finalize", _finalize)
        super().__init__(*args, **kwargs)
        self.limits = limits or LIMITS
        for name in _GONE_GLOBALS:
            self.globals.pop(name, None)
        for name in _GONE_FILTERS:
            self.filters.pop(name, None)
        self.globals["range"] = template_range
        self.guard_filters()

    def guard_filters(self) -> None:
        """Wrap every filter (call again after adding one)."""
        for name, fn in list(self.filters.items()):
            if not getattr(fn, "pnp_guarded", False):
                guarded = _guard_filter(name, fn)
                guarded.pnp_guarded = True
                self.filters[name] = guarded

    # -------------------------------------------------------- reading values
    def is_safe_attribute(self, obj, attr, value) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return _owner_ok(type(obj)) and value_ok(value)

    def is_safe_callable(self, obj) -> bool:
        return callable_ok(obj)

    def unsafe_undefined(self, obj, attribute, value=None):
        from jinja2.sandbox import modifies_known_mutable

        why = ("a template changes nothing it is given" if modifies_known_mutable(obj, attribute) else
               "a template reads its values and calls its helpers only (docs/security.md)")
        if value is None and not attribute.startswith("_"):
            value = getattr(obj, attribute, None)
        kind = _name_of(value) if isinstance(value, (PurePath, types.ModuleType, type)) else None
        what = f"'{attribute}' of {_name_of(obj)}" + (f" is {kind}, not open" if kind else " is not open")
        return self.undefined(f"{what} to templates: {why}", name=attribute, obj=obj, exc=SecurityError)

    def getitem(self, obj, argument):
        found = super().getitem(obj, argument)
        if not value_ok(found) and not isinstance(found, jinja2.Undefined):
            return self.unsafe_undefined(obj, str(argument), found)
        return found

    def wrap_str_format(self, value):
        found = super().wrap_str_format(value)
        if found is None:
            return None
        text = value.__self__
        limit = self.limits.string

        def formatted(*args, **kwargs):
            _check_format(text, (*args, *kwargs.values()), limit)
            size = len(text) + sum(_size(a, limit) for a in (*args, *kwargs.values()))
            if size > limit:
                raise _too_long("format()", size, limit)
            return check_value(found(*args, **kwargs), "format()")
        return _Helper("format", formatted)

    # -------------------------------------------------------- work
    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - the names Jinja2's own call uses
        budget = _budget()
        budget.tick()
        if not callable_ok(__obj):
            raise SecurityError(f"calling {_callable_name(__obj)} is not open to templates: a template calls "
                                 "its helpers, its macros and its values' methods only (docs/security.md)")
        limits = budget.limits
        kind = type(__obj)
        if kind is types.BuiltinMethodType or kind is types.MethodType:
            owner = __obj.__self__
            if isinstance(owner, str):
                _check_str_call(owner, __obj.__name__, args, kwargs, limits)
        elif kind is Macro:
            budget.calls += 1
            try:
                if budget.calls > limits.calls:
                    raise LimitError(f"macros call macros more than {limits.calls} deep (macro '{__obj.name}')")
                return __context.call(__obj, *args, **kwargs)
            finally:
                budget.calls -= 1
        return check_value(__context.call(__obj, *args, **kwargs), f"{_callable_name(__obj)}()")

    def call_binop(self, context, operator, left, right):
        a, b = type(left), type(right)
        if (a is int or a is float) and (b is int or b is float):
            if operator == "**" and a is int and b is int and right > 0 and abs(left) > 1:
                if right * left.bit_length() > self.limits.bits + 1:
                    raise LimitError(f"{left} ** {right} is a number of about {right * left.bit_length():,} bits; "
                                     f"a template may make at most {self.limits.bits:,}")
            elif operator == "*" and a is int and b is int:
                if left.bit_length() + right.bit_length() > self.limits.bits + 1:
                    raise LimitError(f"a product of about {left.bit_length() + right.bit_length():,} bits; "
                                     f"a template may make at most {self.limits.bits:,}")
            return self.binop_table[operator](left, right)
        limits = self.limits
        if operator == "*":
            seq, n = (left, right) if b is int else (right, left)
            if type(n) is int and isinstance(seq, (str, list, tuple)):
                size = len(seq) * max(n, 0)
                limit = limits.string if isinstance(seq, str) else limits.items
                if size > limit:
                    raise _too_long("a repeated value", size, limit, "characters" if isinstance(seq, str) else "items")
        elif operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
            size = len(left) + len(right)
            limit = limits.string if isinstance(left, str) else limits.items
            if size > limit:
                raise _too_long("a sum", size, limit, "characters" if isinstance(left, str) else "items")
        elif operator == "%" and isinstance(left, str):
            values = right if isinstance(right, tuple) else (right,)
            _check_format(left, values, limits.string)
            size = len(left) + sum(_size(v, limits.string) for v in values)
            if size > limits.string:
                raise _too_long("a formatted string", size, limits.string)
        return check_value(self.binop_table[operator](left, right), f"'{operator}'")

    def sandbox_buffer(self) -> Buffer:
        return Buffer(self.limits.output)

    def sandbox_join(self, markup: bool, items) -> str:
        """``a ~ b``: its size checked before it is made."""
        limit = self.limits.string
        size = 0
        for item in items:
            size += _size(item, limit)
        if size > limit:
            raise _too_long("a joined string ('~')", size, limit)
        return markup_join(items) if markup else str_join(items)

    @staticmethod
    def concat(parts) -> str:
        """A buffer's or a block's text (a block's chunks counted as they come)."""
        if type(parts) is Buffer:
            return "".join(parts)
        return stream(parts, _budget().limits)


def _callable_name(obj) -> str:
    name = getattr(obj, "__name__", None) or getattr(obj, "name", None) or type(obj).__name__
    return f"'{name}'"


def _check_str_call(text: str, name: str, args, kwargs, limits: Limits) -> None:
    """Refuse a string method call that would make a string beyond the bounds."""
    values = (*args, *kwargs.values())
    if name in ("center", "ljust", "rjust", "zfill", "expandtabs"):
        _check_big_ints(values, limits.string, f"{name}()")
        if name == "expandtabs":
            width = values[0] if values and type(values[0]) is int else 8
            if len(text) + text.count("\t") * max(width, 0) > limits.string:
                raise _too_long("expandtabs()", len(text) + text.count("\t") * width, limits.string)
    elif name == "replace" and len(values) >= 2 and isinstance(values[0], str) and isinstance(values[1], str):
        count = text.count(values[0]) if values[0] else len(text) + 1
        size = len(text) + count * max(len(values[1]) - len(values[0]), 0)
        if size > limits.string:
            raise _too_long("replace()", size, limits.string)
    elif name == "join" and values:
        items = values[0]
        if isinstance(items, (list, tuple)):
            size = sum(_size(i, limits.string) for i in items) + len(text) * len(items)
            if size > limits.string:
                raise _too_long("join()", size, limits.string)


# ---------------------------------------------------------------- reading templates
class FolderLoader(jinja2.BaseLoader):
    """Templates from a list of folders (the game's, then the generator's own), read only
    from inside them: no name with ``..``, no link leading out, nothing larger than
    ``Limits.template_bytes``."""

    def __init__(self, folders, limits: Limits | None = None):
        self.folders = [Path(f) for f in folders]
        self.limits = limits or LIMITS

    def get_source(self, environment, template):
        from jinja2.loaders import split_template_path

        pieces = split_template_path(template)  # refuses '..'
        for folder in self.folders:
            path = folder.joinpath(*pieces)
            if path.is_file():
                break
        else:
            raise jinja2.TemplateNotFound(template)
        real, root = path.resolve(), folder.resolve()
        if not real.is_relative_to(root):
            raise SecurityError(f"template '{template}' is a link that leads out of its folder; templates are read "
                                "only inside the game's template folder")
        size = real.stat().st_size
        if size > self.limits.template_bytes:
            raise LimitError(f"template '{template}' is {size:,} bytes; a template may be at most "
                             f"{self.limits.template_bytes:,}")
        with open(real, "rb") as fh:
            source = fh.read(self.limits.template_bytes + 1).decode("utf-8")
        mtime = os.path.getmtime(real)
        return source, os.path.normpath(path), lambda: os.path.exists(real) and os.path.getmtime(real) == mtime


# ---------------------------------------------------------------- the helpers a template calls
def _number(helper: str, name: str, value, low: float, high: float, limit: float):
    """A helper's numeric argument, checked: a finite number between ``low`` and ``high``."""
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


def _text_value(helper: str, value, limit: int):
    if isinstance(value, str) and len(value) > limit:
        raise HelperError(f"{helper}(): a text of {len(value):,} characters; a text may have at most {limit:,}")
    return value


#: Each helper's numeric arguments: name -> (position, low, high); sizes in mm.
_COORD, _SIZE = 1e5, 1e4
_NUMBERS = {
    "text": {"x": (1, -_COORD, _COORD), "y": (2, -_COORD, _COORD), "w": (3, -_SIZE, _SIZE), "h": (4, -_SIZE, _SIZE),
             "size": (5, 0.01, 200), "min_size": (6, 0.01, 200), "line_height": (None, 0.1, 10),
             "opacity": (None, 0, 1)},
    "picture": {"x": (1, -_COORD, _COORD), "y": (2, -_COORD, _COORD), "w": (3, -_SIZE, _SIZE), "h": (4, -_SIZE, _SIZE)},
    "icon": {"cx": (1, -_COORD, _COORD), "cy": (2, -_COORD, _COORD), "size": (3, -_SIZE, _SIZE)},
}


def _checked(helper: str, fn, limits: Limits):
    spec = _NUMBERS.get(helper, {})

    def run(*args, **kwargs):
        args = list(args)
        for name, (at, low, high) in spec.items():
            if at is not None and at < len(args):
                args[at] = _number(helper, name, args[at], low, high, limits.number)
            elif name in kwargs:
                kwargs[name] = _number(helper, name, kwargs[name], low, high, limits.number)
        if helper in ("text", "rich") and args:
            _text_value(helper, args[0], limits.text)
        for value in (*args, *kwargs.values()):
            if isinstance(value, str) and len(value) > limits.string:
                raise _too_long(f"{helper}()", len(value), limits.string)
        return fn(*args, **kwargs)
    return _Helper(helper, run)


def helpers(kit, limits: Limits | None = None) -> dict:
    """The helpers of one rendered design, for its template: ``kit``'s (``render.Kit``), each
    with its arguments checked, and the geometry of ``nets``."""
    limits = limits or LIMITS
    return {name: _checked(name, getattr(kit, name), limits)
            for name in ("text", "icon", "picture", "pal", "describe", "rich")} | {"nets": NETS}


# ---------------------------------------------------------------- errors, in the template's words
def problem_text(exc: BaseException) -> str | None:
    """What to tell the designer for an error the sandbox raised (None: not one of its own)."""
    if isinstance(exc, (LimitError, HelperError)):
        return str(exc)
    if isinstance(exc, SecurityError):
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
    others = sorted(p for p in folder.rglob("*.j2") if p.is_file() and p != first)
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


# ---------------------------------------------------------------- numbers in SVG
_SUSPECT = re.compile(r"\b(?:inf(?:inity)?|nan)\b|\d{10}|\d[eE]\+?0*[1-9]\d", re.I)
_ATTRIBUTE = re.compile(r"""\s([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_NUMBER = re.compile(r"[-+]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)
#: Attributes that hold names, digests or text rather than numbers.
_WORDS = ("data-", "href", "xlink:", "id", "class", "font-family", "xmlns", "style", "lang", "xml:")


def svg_number_problem(svg: str, limit: float | None = None) -> str | None:
    """What is wrong with the numbers of an SVG's attributes, if anything: a number that is not
    finite or beyond ``limit`` (``Limits.number``) cannot be drawn into a PDF."""
    if not _SUSPECT.search(svg):
        return None
    limit = limit or LIMITS.number
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
    limits = limits or LIMITS
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
