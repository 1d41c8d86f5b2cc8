"""Variants of a deck for ``pnp sweep`` and ``pnp tune``: what ``--vary`` changes, checked
before anything is played.

A ``--vary`` spec names one thing to vary and its values:

* ``count:ID=1..4`` - how many copies of the card ``ID`` (a row's ``count``);
* ``COLUMN:ID=2,3`` - any other column of that card's deck (``number``, ``color``,
  ``symbol``, ``requires`` ..., a game's own columns), checked as the sheet's cells are;
* ``rule:KEY=a,b`` - a rules option (``--rule KEY=VALUE``, docs/rules-notes.md);
* ``players=3..5`` - the number of players;
* ``bots=greedy,random`` - the bots (one name for every seat, or one per seat joined
  with ``+``: ``greedy+random+random+random``).

Values are a comma-separated list; a whole-number item may be a range ``a..b``
(both ends included).  Several ``--vary`` make a grid (every combination), which
``sample`` thins to a seeded random sample.  Every mistake - an unknown card id,
column, option, value, an empty range, a value the engine cannot play - is a
:class:`~model.errors.CommandLineError`: one line, exit 2, and nothing is run.
"""

from __future__ import annotations

import difflib
import itertools
import random
import re
from dataclasses import dataclass, field, replace

from model.errors import CommandLineError, PnpError
from model.manifest import COMMON_COLUMNS

from .kit.spec import option_text

MAX_GRID = 2000  # variants a grid may hold without --sample

_SPEC = re.compile(r"^\s*([A-Za-z][\w-]*)(?::([^=]+))?\s*=(.*)$")


@dataclass(frozen=True)
class Axis:
    """One varied thing: ``kind`` (count, column, rule, players, bots), what it names (``target``: a card id,
    an option key), the column, and its values with their labels as written."""

    kind: str
    name: str  # as sweep.csv's column and the report name it: count:g15, number:g15, rule:keep-fewer, players
    target: str = ""
    column: str = ""
    values: tuple = ()
    labels: tuple[str, ...] = ()
    base: object = None  # the value of the deck and options as they are (None: not among the values)
    base_label: str = ""


@dataclass
class Variant:
    """One point of the grid: the data, players, rules options and bots it plays, and the changes from the
    deck as it is (sheet rows, options) that make it."""

    index: int
    point: tuple[str, ...]  # each axis's value label
    data: object
    players: int
    rules: dict
    bots: str | None
    changes: list[str] = field(default_factory=list)
    game: object = None  # the compiled rules Game (made by :func:`compile_variants`)

    @property
    def label(self) -> str:
        return " ".join(self.point) or "as it is"

    @property
    def values(self) -> tuple[str, ...]:
        """Each axis's value label, as written (empty for the deck as it is played beside the grid)."""
        return tuple(p.split("=", 1)[1] for p in self.point)

    @property
    def current(self) -> bool:
        """Whether this variant is the deck and options as they are."""
        return not self.changes


def _fail(spec_text: str, message: str):
    raise CommandLineError(f"--vary {spec_text}: {message}")


def _items(spec_text: str, raw: str) -> list[str]:
    """The comma-separated values, integer ranges ``a..b`` expanded; an empty list or range is an error."""
    out: list[str] = []
    for item in raw.split(","):
        item = item.strip()
        if not item:
            continue
        m = re.fullmatch(r"([+-]?\d+)\s*\.\.\s*([+-]?\d+)", item)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if b < a:
                _fail(spec_text, f"the range {item} is empty (write the smaller number first, e.g. {b}..{a})")
            out.extend(str(x) for x in range(a, b + 1))
        elif ".." in item:
            _fail(spec_text, f"'{item}' is not a range of whole numbers such as 1..4")
        else:
            out.append(item)
    if not out:
        _fail(spec_text, "no values; give a list such as 2,3 or a range such as 1..4")
    if len(set(out)) != len(out):
        dup = next(x for x in out if out.count(x) > 1)
        _fail(spec_text, f"the value {dup} is given twice")
    return out


def _suggest(word: str, known) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def parse_vary(spec_text: str, data, spec, players: int) -> Axis:
    """One ``--vary`` spec as an :class:`Axis` of checked values (for the game ``data`` and its engine)."""
    m = _SPEC.match(spec_text)
    if not m:
        _fail(spec_text, "expected KIND:ID=VALUES (count:ID=1..4, number:ID=2,3), rule:KEY=a,b, players=3..5 "
                         "or bots=greedy,random")
    kind, target, raw = m.group(1).strip(), (m.group(2) or "").strip(), m.group(3)
    values = _items(spec_text, raw)
    if kind == "players" and not target:
        return _players_axis(spec_text, values, spec, players)
    if kind == "bots" and not target:
        return _bots_axis(spec_text, values, spec, players)
    if kind == "rule":
        return _rule_axis(spec_text, target, values, spec)
    if not target:
        _fail(spec_text, f"unknown kind '{kind}'; vary count:ID, a column (number:ID ...), rule:KEY, players or "
                         "bots")
    return _card_axis(spec_text, kind, target, values, data)


def _players_axis(spec_text, values, spec, players) -> Axis:
    out = []
    for v in values:
        if not re.fullmatch(r"\d+", v):
            _fail(spec_text, f"'{v}' is not a number of players")
        n = int(v)
        if not spec.min_players <= n <= spec.max_players:
            _fail(spec_text, f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {n}")
        out.append(n)
    return Axis("players", "players", values=tuple(out), labels=tuple(values),
                base=players if players in out else None, base_label=str(players))


def _bots_axis(spec_text, values, spec, players) -> Axis:
    from .bots import parse_bots

    for v in values:
        try:
            parse_bots(v.replace("+", ","), players, spec)
        except PnpError as exc:
            _fail(spec_text, str(exc))
    base = spec.default_bots
    return Axis("bots", "bots", values=tuple(values), labels=tuple(values),
                base=base if base in values else None, base_label=base)


def _rule_axis(spec_text, key, values, spec) -> Axis:
    name = key.replace("-", "_")
    if not key or name not in spec.params:
        known = sorted(k.replace("_", "-") for k in spec.params)
        _fail(spec_text, f"unknown rules option '{key}' for {spec.slug}{_suggest(key.replace('_', '-'), known)}; "
                         f"known: {', '.join(known)}")
    param = spec.params[name]
    out = []
    for v in values:
        try:
            out.append(param.parse(key, v))
        except PnpError as exc:
            _fail(spec_text, str(exc))
    label = key.replace("_", "-")
    default = param.default
    return Axis("rule", f"rule:{label}", target=name, values=tuple(out), labels=tuple(values),
                base=default if default in out else None, base_label=option_text(default))


def _card_axis(spec_text, column, card_id, values, data) -> Axis:
    from model.sheets import check_cell

    cards = {c.id: c for c in data.cards}
    card = cards.get(card_id)
    if card is None:
        _fail(spec_text, f"unknown card id '{card_id}' in {data.slug}{_suggest(card_id, cards)}")
    deck = data.manifest.decks[card.deck]
    if column == "count":
        out = []
        for v in values:
            if not re.fullmatch(r"\d+", v) or int(v) < 1:
                _fail(spec_text, f"'{v}' is not a count; give whole numbers of copies, 1 or more")
            out.append(int(v))
        return Axis("count", f"count:{card_id}", target=card_id, column="count", values=tuple(out),
                    labels=tuple(values), base=card.count if card.count in out else None, base_label=str(card.count))
    if column not in deck.columns:
        known = ["count"] + list(deck.columns)
        _fail(spec_text, f"unknown column '{column}' for a {card.deck} of {data.slug}"
                         f"{_suggest(column, known)}; its columns: {', '.join(known)}")
    out = []
    for v in values:
        try:
            out.append(check_cell(data.manifest, card.deck, column, v))
        except PnpError as exc:
            _fail(spec_text, str(exc))
    now = card.get(column)
    return Axis("column", f"{column}:{card_id}", target=card_id, column=column, values=tuple(out),
                labels=tuple(values), base=now if now in out else None, base_label="" if now is None else str(now))


# ------------------------------------------------------------------ the grid
def grid(axes: list[Axis], sample: int | None = None, seed: int = 1) -> list[tuple[int, ...]]:
    """The points of the grid (value indices per axis, in order); with ``sample`` a seeded random sample of
    that many, in grid order."""
    names = [a.name for a in axes]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise CommandLineError(f"--vary {dup} is given twice; give all its values in one --vary")
    sizes = [len(a.values) for a in axes]
    total = 1
    for s in sizes:
        total *= s
    if sample is not None:
        if sample < 1:
            raise CommandLineError("--sample must be 1 or more")
        if sample >= total:
            sample = None
    if sample is None and total > MAX_GRID:
        raise CommandLineError(f"the grid holds {total:,} variants; give --sample N to play a random sample of them "
                               f"(at most {MAX_GRID:,} without it)")
    points = list(itertools.product(*[range(s) for s in sizes]))
    if sample is not None:
        chosen = sorted(random.Random(seed).sample(range(total), sample))
        points = [points[i] for i in chosen]
    return points


def make_variants(data, spec, axes: list[Axis], points, players: int, rules: dict, bots: str | None) \
        -> list[Variant]:
    """The variants of these grid points, each with its data, options and the changes that make it (from the
    deck as it is, played with ``players``, the rules options ``rules`` and ``bots``)."""
    effective = spec.options(rules)
    out = []
    for index, point in enumerate(points):
        cards = list(data.cards)
        v_players, v_rules, v_bots = players, dict(rules), bots
        labels, changes = [], []
        for axis, i in zip(axes, point):
            value, label = axis.values[i], axis.labels[i]
            labels.append(f"{axis.name}={label}")
            if axis.kind == "players":
                v_players = value
                if value != players:
                    changes.append(f"--players {value}")
            elif axis.kind == "bots":
                v_bots = value.replace("+", ",")
                if v_bots != (bots or spec.default_bots):
                    changes.append(f"--bots {v_bots}")
            elif axis.kind == "rule":
                v_rules[axis.target] = value
                if value != effective[axis.target]:
                    changes.append(f"--rule {axis.name[5:]}={label}")
            else:
                k = next(j for j, c in enumerate(cards) if c.id == axis.target)
                card = cards[k]
                now = card.get(axis.column)
                if value != now:
                    cards[k] = _with(card, axis.column, value)
                    changes.append(f"{card.sheet}:{card.row} {card.id} ({card.name}): {axis.column} "
                                   f"{'' if now is None else now} -> {label}")
        v_data = data if cards == list(data.cards) else type(data)(data.manifest, cards)
        out.append(Variant(index, tuple(labels), v_data, v_players, v_rules, v_bots, changes))
    return out


def _with(card, column: str, value):
    if column == "count" or column in COMMON_COLUMNS:
        return replace(card, **{column: value})
    extra = tuple((k, value if k == column else v) for k, v in card.extra)
    if column not in dict(card.extra):
        extra += ((column, value),)
    return replace(card, extra=extra)


def compile_variants(variants: list[Variant], spec) -> None:
    """Compile each variant's rules Game, before anything is played: data or options the engine cannot play
    are one line naming the variant (exit 2)."""
    from .bots import parse_bots

    seen: dict = {}
    for v in variants:
        key = (id(v.data), v.players, tuple(sorted(v.rules.items())))
        try:
            if key not in seen:
                seen[key] = spec.make(v.data, v.players, **v.rules)
            v.game = seen[key]
            parse_bots(v.bots or spec.default_bots, v.players, spec)
        except PnpError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise CommandLineError(f"variant {v.label}: {spec.title} cannot play it: {first}") from None
