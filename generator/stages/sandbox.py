"""Templates are data: the sandbox a game's templates render in.

A game folder may come from anyone (a forum, a co-designer, a playtest group),
and opening it with ``build``, ``check``, ``export``, ``watch`` or ``preview``
must be as safe as opening a PDF (docs/security.md).  Its templates render in
Jinja2's immutable sandbox, made stricter (``Sandbox``):

- a template reads attributes of plain values (strings, numbers, lists, dicts),
  of the game's rows and manifest (``model``), of the geometry of ``nets`` and of
  Jinja2's own loop, namespace and macro objects; nothing starting with ``_``, no
  file path, module, class or function is handed out, and it calls only the
  methods of those values, its macros and the helpers given to it, each wrapped
  so that its arguments are checked (``guards.helpers``); ``lipsum`` and
  ``pprint`` are gone (they serve no card);
- its work is bounded (``bounds.py``, the bounds in ``art/limits.py``): Jinja2's
  code generator is asked to count loop iterations, to check every buffer a
  block, macro or set block fills and every ``~``; the binary operators that
  make large values are intercepted (``Sandbox.call_binop``), every call goes
  through ``Sandbox.call``, every filter through a wrapper, every printed value
  through ``finalize`` (no number that is not finite), and the output is counted
  as it streams, so that an error is raised in the template's own frame, at its
  line;
- ``include``, ``import`` and ``extends`` read templates only inside the game's
  template folder and the generator's own (``guards.FolderLoader``).
"""

from __future__ import annotations

import math
import types
from pathlib import PurePath

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.environment import TemplateModule
from jinja2.exceptions import SecurityError
from jinja2.runtime import BlockReference, LoopContext, Macro, Namespace, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Cycler, Joiner
from markupsafe import Markup

from ..art.limits import Limits, in_force
from . import bounds
from .bounds import (LimitError, Rendering, check_formatted, current_budget, finalize, fmt, joined, shape,
                     check_str_call, check_value, guard_filter, loop, size_of, stream, template_range, too_long)

#: Bump when what the sandbox compiles or checks changes (compiled templates are kept by it).
REVISION = 3


# ---------------------------------------------------------------- what a template may touch
_PLAIN = frozenset({str, Markup, int, float, bool, type(None), list, tuple, dict, set, frozenset, range,
                    types.MappingProxyType})
_RUNTIME = frozenset({LoopContext, Namespace, Macro, BlockReference, Cycler, Joiner, TemplateModule,
                      jinja2.runtime.TemplateReference})
#: Modules whose classes a template may read and whose methods it may call: the rows, the manifest and
#: its small languages, and the geometry of fold-up components.
OPEN_MODULES = ("model.manifest", "model.sheets", "model.lang", "generator.sheets.nets")
_OWNERS: dict[type, bool] = {}


def owner_ok(kind: type) -> bool:
    """Whether a template may read attributes of values of this type."""
    found = _OWNERS.get(kind)
    if found is None:
        found = _OWNERS[kind] = (kind in _PLAIN or kind in _RUNTIME or kind is Confined
                                 or getattr(kind, "__module__", "") in OPEN_MODULES
                                 or (issubclass(kind, (str, dict, list, tuple)) and kind.__module__ != "builtins"
                                     and not issubclass(kind, PurePath)))
    return found


class Helper:
    """A function a template may call: a helper, its arguments checked by ``check`` (which gives
    them back, numbers made numbers) before it runs, or a sandboxed ``format``."""

    __slots__ = ("name", "fn", "check", "__weakref__")

    def __init__(self, name: str, fn, check=None):
        self.name, self.fn, self.check = name, fn, check

    def __call__(self, *args, **kwargs):
        if self.check is not None:
            args = self.check(args, kwargs)
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<helper {self.name}>"


#: Callables a template may call besides its values' methods, its macros and the helpers.
_OPEN_CALLABLES = frozenset({dict, Namespace, Cycler, Joiner, template_range, loop})


def callable_ok(obj) -> bool:
    """Whether a template may call ``obj``."""
    kind = type(obj)
    if kind is Helper or kind in (Macro, Joiner, LoopContext, BlockReference):
        return True
    try:
        if obj in _OPEN_CALLABLES:
            return True
    except TypeError:  # not hashable
        return False
    if kind is types.BuiltinMethodType:  # a method of a string, list, dict ... (mutating ones are refused apart)
        owner = obj.__self__
        return not isinstance(owner, type) and owner_ok(type(owner)) and not isinstance(owner, types.ModuleType)
    if kind is types.MethodType:
        module = getattr(obj.__func__, "__module__", "")
        return owner_ok(type(obj.__self__)) and not isinstance(obj.__self__, type) and (
            module in OPEN_MODULES or module in ("jinja2.runtime", "jinja2.utils", "markupsafe"))
    if kind is types.FunctionType:  # the geometry of nets, named as its functions
        return obj.__module__ == "generator.sheets.nets" and not obj.__name__.startswith("_")
    return False


def value_ok(value) -> bool:
    """Whether a template may be handed ``value`` (an attribute or an item it read)."""
    kind = type(value)
    return kind in _PLAIN or owner_ok(kind) or callable_ok(value)


#: How the game's own values are called in messages, by type name.
OWNER_NAMES = {"Card": "card", "Manifest": "game", "Deck": "deck", "Size": "size", "Confined": "nets"}
_VALUE_NAMES = {**OWNER_NAMES, "str": "a string", "Markup": "a string", "dict": "a dict", "list": "a list",
                "tuple": "a list", "int": "a number", "float": "a number", "Helper": "a helper"}


def name_of(obj) -> str:
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
    return _VALUE_NAMES.get(kind.__name__, kind.__name__)


class Confined:
    """A module's public functions for templates (``nets``), imported the first time one is used."""

    def __init__(self, module: str):
        self._module, self._found = module, None

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._found is None:
            import importlib

            self._found = importlib.import_module(self._module)
        value = getattr(self._found, name, None)
        if value is None or getattr(value, "__module__", None) != self._module or isinstance(value, types.ModuleType):
            raise AttributeError(name)
        return value


NETS = Confined("generator.sheets.nets")


# ---------------------------------------------------------------- compiled code that counts
#: The name a loop's counter is written under in the code made (``_Guarded.visit_For``).
_LOOP = "pnp-loop"


class _Guarded(CodeGenerator):
    """Jinja2's code generator, with every loop counted (``loop``), every buffer a
    block, macro or set block fills checked when it is joined, and every ``~`` checked."""

    def visit_For(self, node, frame):
        if not (isinstance(node.iter, nodes.Call) and isinstance(node.iter.node, nodes.ImportedName)
                and node.iter.node.importname == _LOOP):
            node.iter = nodes.Call(nodes.ImportedName(_LOOP), [node.iter], [], None, None, lineno=node.iter.lineno)
        super().visit_For(node, frame)

    def visit_Template(self, node, frame=None):
        # the bounds' functions the code calls most, as names of the template's own module
        self.writeline(f"from {bounds.__name__} import add as pnp_add, mul as pnp_mul, finalize as pnp_finalize")
        super().visit_Template(node, frame)

    def _make_finalize(self):
        found = super()._make_finalize()
        self._finalize = self._FinalizeInfo(found.const, "pnp_finalize(")
        return self._finalize

    def _arithmetic(self, node, frame, op: str, checked: str, plain: tuple) -> None:
        """``left op right``: as Python runs it when a constant of a ``plain`` type makes the result a
        number or a TypeError (``B + 3``, ``w * 0.5``), else through the bounds' ``checked``."""
        if any(isinstance(side, nodes.Const) and type(side.value) in plain for side in (node.left, node.right)):
            self.write("(")
            self.visit(node.left, frame)
            self.write(f" {op} ")
        else:
            self.write(f"{checked}(")
            self.visit(node.left, frame)
            self.write(", ")
        self.visit(node.right, frame)
        self.write(")")

    def visit_Add(self, node, frame):
        self._arithmetic(node, frame, "+", "pnp_add", (int, float))

    def visit_Mul(self, node, frame):
        self._arithmetic(node, frame, "*", "pnp_mul", (float,))

    def visit_ImportedName(self, node, frame):
        if node.importname == _LOOP:
            self.write("environment.sandbox_loop")
            return
        super().visit_ImportedName(node, frame)

    def _output_child_to_const(self, node, frame, finalize):
        if isinstance(node, nodes.TemplateData):
            return super()._output_child_to_const(node, frame, finalize)
        raise nodes.Impossible()  # every {{ value }} meets ``_finalize`` when it runs, constants too

    def visit_Const(self, node, frame):
        if isinstance(node.value, float) and not math.isfinite(node.value):  # 1e309: written so that it runs
            self.write(f"float({str(node.value)!r})")
            return
        super().visit_Const(node, frame)

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


class _Template(jinja2.Template):
    """A template whose rendering is bounded (``Limits``) and streamed through ``stream``."""

    def render(self, *args, **kwargs) -> str:
        env = self.environment
        with Rendering(env.limits):
            try:
                text = stream(self.root_render_func(self.new_context(dict(*args, **kwargs))), env.limits)
                wrong = shape(text, env.limits)
                if wrong is None:
                    return text
                # too many elements, or nested too deeply: rendered again, followed chunk by chunk,
                # to say it at the line that wrote them
                stream(self.root_render_func(self.new_context(dict(*args, **kwargs))), env.limits, detailed=True)
                raise LimitError(wrong)
            except Exception:
                env.handle_exception()

    def make_module(self, vars=None, shared=False, locals=None):
        ctx = self.new_context(vars, shared, locals)
        with Rendering(self.environment.limits):
            body = stream(self.root_render_func(ctx), self.environment.limits)
        return TemplateModule(self, ctx, [body])


# ---------------------------------------------------------------- the environment
#: Filters gone from the sandbox: they print the inside of objects (file paths included) or lorem ipsum.
#: The values a template reads from a value it may read without further checks: no callable, nothing internal.
_READ_AS_IS = frozenset({str, Markup, int, float, bool, type(None), tuple, list, dict})
_GONE_FILTERS = ("pprint",)
_GONE_GLOBALS = ("lipsum",)


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, stricter: see the module's text."""

    code_generator_class = _Guarded
    template_class = _Template
    intercepted_binops = frozenset({"**", "%"})

    def __init__(self, *args, limits: Limits | None = None, **kwargs):
        kwargs.setdefault("finalize", finalize)
        super().__init__(*args, **kwargs)
        self.limits = limits or in_force()
        for name in _GONE_GLOBALS:
            self.globals.pop(name, None)
        for name in _GONE_FILTERS:
            self.filters.pop(name, None)
        self.globals["range"] = template_range
        self.filters["fmt"] = fmt
        self.guard_filters()

    def guard_filters(self) -> None:
        """Wrap every filter (call again after adding one)."""
        for name, fn in list(self.filters.items()):
            if not getattr(fn, "pnp_guarded", False):
                guarded = guard_filter(name, fn)
                guarded.pnp_guarded = True
                self.filters[name] = guarded

    # -------------------------------------------------------- reading values
    def getattr(self, obj, attribute):
        # the common case first: a plain value (a string, a number, a list ...) of a value a
        # template may read (a card's column, a loop's index): no method, nothing internal
        try:
            value = getattr(obj, attribute)
        except Exception:  # none, or one that fails when read: as Jinja2's own sandbox says it
            return super().getattr(obj, attribute)
        if type(value) in _READ_AS_IS and attribute[:1] != "_" and owner_ok(type(obj)):
            return value
        return super().getattr(obj, attribute)

    def is_safe_attribute(self, obj, attr, value) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return owner_ok(type(obj)) and value_ok(value)

    def is_safe_callable(self, obj) -> bool:
        return callable_ok(obj)

    def unsafe_undefined(self, obj, attribute, value=None):
        from jinja2.sandbox import modifies_known_mutable

        why = ("a template changes nothing it is given" if modifies_known_mutable(obj, attribute) else
               "a template reads its values and calls its helpers only (docs/security.md)")
        if value is None and not attribute.startswith("_"):
            value = getattr(obj, attribute, None)
        kind = name_of(value) if isinstance(value, (PurePath, types.ModuleType, type)) else None
        what = f"'{attribute}' of {name_of(obj)}" + (f" is {kind}, not open" if kind else " is not open")
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
            check_formatted(text, (*args, *kwargs.values()), limit, "format()")
            return check_value(found(*args, **kwargs), "format()")
        return Helper("format", formatted)

    # -------------------------------------------------------- work
    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - the names Jinja2's own call uses
        kind = type(__obj)
        if kind is Helper:  # a helper: its own wrapper checks its arguments
            kwargs.pop("_block_vars", None)  # what Jinja2's Context.call takes away
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        budget = current_budget()
        budget.tick()
        if not callable_ok(__obj):
            raise SecurityError(f"calling {_callable_name(__obj)} is not open to templates: a template calls "
                                 "its helpers, its macros and its values' methods only (docs/security.md)")
        limits = budget.limits
        if kind is types.BuiltinMethodType or kind is types.MethodType:
            owner = __obj.__self__
            if isinstance(owner, str):
                check_str_call(owner, __obj.__name__, args, kwargs, limits)
        elif kind is Macro:
            budget.calls += 1
            try:
                if budget.calls > limits.calls:
                    raise LimitError(f"macros call macros more than {limits.calls} deep (macro '{__obj.name}')")
                return __context.call(__obj, *args, **kwargs)
            finally:
                budget.calls -= 1
        return check_value(__context.call(__obj, *args, **kwargs), f"{_callable_name(__obj)}()")

    def call_binop(self, context, operator, left, right):  # ``**`` and ``%`` (``+`` and ``*``: bounds.add, mul)
        a, b = type(left), type(right)
        limits = self.limits
        if operator == "**" and a is int and b is int and right > 0 and abs(left) > 1:
            bits = right * math.log2(abs(left))  # (the result has about this many bits)
            if bits > limits.bits + 1:
                raise LimitError(f"{left} ** {right} is a number of about {bits:,.0f} bits; "
                                 f"a template may make at most {limits.bits:,}")
        elif operator == "%" and isinstance(left, str):
            check_formatted(left, right if isinstance(right, tuple) else (right,), limits.string, "a formatted string")
        try:
            return check_value(self.binop_table[operator](left, right), f"'{operator}'")
        except OverflowError:  # (a float too large: 10.0 ** 400)
            raise LimitError(f"{left!r} {operator} {right!r} is too large a number to make") from None

    sandbox_loop = staticmethod(loop)


    def sandbox_join(self, markup: bool, items) -> str:
        """``a ~ b``: its size checked before it is made."""
        limit = self.limits.string
        size = 0
        for item in items:
            size += size_of(item, limit)
        if size > limit:
            raise too_long("a joined string ('~')", size, limit)
        return markup_join(items) if markup else str_join(items)

    @staticmethod
    def concat(parts) -> str:
        """A buffer's or a block's text, its size checked (a block's chunks as they come)."""
        limits = current_budget().limits
        if type(parts) is list:
            return joined(parts, limits.output)
        return stream(parts, limits)


def _callable_name(obj) -> str:
    name = getattr(obj, "__name__", None) or getattr(obj, "name", None) or type(obj).__name__
    return f"'{name}'"


