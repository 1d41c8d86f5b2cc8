"""The small languages of the ``requires`` and ``effect`` columns.

Every game declares its vocabulary in its manifest; the grammar is shared::

    expression := term (SEP term)*          SEP is '+', ',', ';' or the word 'and'
    term       := [COUNT] WORD arg*
    arg        := NUMBER | WORD | KEY=VALUE

Examples: ``1 blue + 2 any`` (a flip condition), ``limit 2`` (a reward),
``victims color=green count=5`` (a goal).  Parsing happens when the sheet is
loaded, so an unknown word is reported with the row and the list of known words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SEP = re.compile(r"\s*(?:\+|,|;|\band\b)\s*")
_INT = re.compile(r"^\d+$")
_WORD = re.compile(r"^[a-z][a-z0-9_-]*$")


class LangError(ValueError):
    """A value that does not follow the language; the message says why."""


@dataclass(frozen=True)
class Term:
    word: str
    count: int = 1
    args: tuple = ()
    kwargs: tuple = ()  # sorted (key, value) pairs

    def kw(self, key: str, default=None):
        return dict(self.kwargs).get(key, default)

    def __str__(self) -> str:
        parts = []
        if self.count != 1:
            parts.append(str(self.count))
        parts.append(self.word)
        parts += [str(a) for a in self.args]
        parts += [f"{k}={v}" for k, v in self.kwargs]
        return " ".join(parts)


@dataclass(frozen=True)
class Expr:
    terms: tuple[Term, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __iter__(self):
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def words(self) -> list[str]:
        return [t.word for t in self.terms]

    def __str__(self) -> str:
        return " + ".join(str(t) for t in self.terms)


EMPTY = Expr()


@dataclass
class WordSpec:
    """What one word of a language accepts."""

    name: str
    count: str = "none"  # "none", "optional" or "required"
    args: list[str] = field(default_factory=list)  # types: int, word, color, or "a|b|c"
    params: dict[str, str] = field(default_factory=dict)  # key=value parameters and types
    help: str = ""
    icon: str = ""
    label: str = ""

    def signature(self) -> str:
        s = ("[N] " if self.count == "optional" else "N " if self.count == "required" else "")
        s += self.name
        s += "".join(f" <{a}>" for a in self.args)
        s += "".join(f" [{k}=<{t}>]" for k, t in self.params.items())
        return s


@dataclass
class Language:
    name: str
    words: dict[str, WordSpec]
    colors: tuple[str, ...] = ()
    description: str = ""

    def known(self) -> str:
        return ", ".join(sorted(self.words))

    def parse(self, text: str) -> Expr:
        text = (text or "").strip()
        if not text:
            return EMPTY
        terms = []
        for chunk in _SEP.split(text.lower()):
            if not chunk:
                raise LangError(f"'{text}' has an empty term (two separators in a row?)")
            terms.append(self._term(chunk, text))
        return Expr(tuple(terms))

    def _term(self, chunk: str, whole: str) -> Term:
        tokens = chunk.split()
        count = None
        if tokens and _INT.match(tokens[0]):
            count = int(tokens.pop(0))
        if not tokens:
            raise LangError(f"'{chunk}' has a number but no word; known words: {self.known()}")
        word = tokens.pop(0)
        spec = self.words.get(word)
        if spec is None:
            raise LangError(f"unknown word '{word}' in '{whole}'; known words: {self.known()}")
        if count is None:
            if spec.count == "required":
                raise LangError(f"'{chunk}': '{word}' needs a count first, as in '{spec.signature()}'")
            count = 1
        elif spec.count == "none":
            raise LangError(f"'{chunk}': '{word}' takes no count; write '{spec.signature()}'")
        elif count < 1:
            raise LangError(f"'{chunk}': the count must be 1 or more")
        args, kwargs = [], {}
        for tok in tokens:
            if "=" in tok:
                key, _, value = tok.partition("=")
                if key not in spec.params:
                    accepted = ", ".join(spec.params) or "none"
                    raise LangError(f"'{chunk}': '{word}' has no parameter '{key}' (accepted: {accepted})")
                kwargs[key] = self._value(spec.params[key], value, chunk, word)
            else:
                args.append(tok)
        if len(args) != len(spec.args):
            raise LangError(
                f"'{chunk}': '{word}' takes {len(spec.args)} value(s), got {len(args)}; "
                f"write '{spec.signature()}'"
            )
        typed = tuple(self._value(t, a, chunk, word) for t, a in zip(spec.args, args))
        return Term(word, count, typed, tuple(sorted(kwargs.items())))

    def _value(self, kind: str, raw: str, chunk: str, word: str):
        if kind == "int":
            if not _INT.match(raw):
                raise LangError(f"'{chunk}': '{word}' expects a whole number, got '{raw}'")
            return int(raw)
        if kind == "color":
            if raw not in self.colors:
                raise LangError(f"'{chunk}': unknown colour '{raw}'; known colours: {', '.join(self.colors)}")
            return raw
        if "|" in kind:
            choices = kind.split("|")
            if raw not in choices:
                raise LangError(f"'{chunk}': '{raw}' is not one of {', '.join(choices)}")
            return raw
        if not _WORD.match(raw):
            raise LangError(f"'{chunk}': '{raw}' is not a word")
        return raw


def language_from_manifest(name: str, spec: dict, colors: tuple[str, ...]) -> Language:
    """Build a Language from a manifest table (see docs/format.md)."""
    words: dict[str, WordSpec] = {}
    if spec.get("color_words"):
        for c in colors:
            words[c] = WordSpec(c, count="optional", help=f"a card of colour {c}")
    for word, w in (spec.get("words") or {}).items():
        words[word] = WordSpec(
            name=word,
            count=w.get("count", "none"),
            args=list(w.get("args", [])),
            params=dict(w.get("params", {})),
            help=w.get("help", ""),
            icon=w.get("icon", ""),
            label=w.get("label", word),
        )
    return Language(name, words, colors, spec.get("description", ""))
