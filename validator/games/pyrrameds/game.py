"""The compiled game: card tables and the pyramid's geometry, built once from the
rows of the boxes in play and shared by every state (picklable)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from model.errors import InputErrors, PnpError
from validator.kit import Game

from .checks import present
from .spec import (COUNTED, DECK_KIND, FLEX, MEDICINE, NONUM, OPERATION, PATIENT, ROW, ROW_BY_BOX, WILD, Codes)


@dataclass(frozen=True)
class Design:
    """One row of cards.csv as the report shows it."""

    id: str
    name: str
    deck: str
    box: str
    color: str
    number: int | None
    requires: str
    effect: str
    where: str


def parse_boxes(value: str, data) -> list[str]:
    """The boxes named by the ``boxes`` option, base first then in the manifest's order.

    ``all`` (or empty) is every box that has rows (``pnp validate --expansion`` hands
    the engine the chosen boxes' rows only); otherwise names joined by ``+`` or ``,``;
    base is always played.  An unknown name is an error listing the known ones."""
    known = list(data.manifest.expansions)
    raw = (value or "all").replace(",", "+").strip()
    if raw == "all":
        return present(data)
    names = [n.strip() for n in raw.split("+") if n.strip()]
    bad = [n for n in names if n not in known]
    if bad:
        raise PnpError(f"unknown expansion '{bad[0]}' for pyrrameds; known: {', '.join(known)}")
    wanted = set(names) | {"base"}
    return [b for b in known if b in wanted]


def boxes_option(expansions) -> str:
    """The ``boxes`` option for ``pnp validate --expansion A --expansion B`` (none: every box)."""
    names = [e for e in (expansions or ()) if e != "base"]
    return "+".join(["base", *names]) if expansions else "all"


class Geometry:
    """Positions of a pyramid grown above (layer +k) and below (layer -k) a starting
    row of R cards; layer k holds R - |k| positions.  A position's x is doubled so
    the staircase's half steps are whole numbers: index i of layer k is at 2i + |k|.

    SUP: the supports (the 1 or 2 positions of the previous layer, towards the row);
    OUT: the positions it supports; NB: the touching positions a patient's path may
    step to, with the step's vertical (+1 up, -1 down, 0 sideways) and horizontal
    (+1 right, -1 left; 0 for a corner step when ``corner_sideways`` is false: the
    rule backward=vertical, where a step to the next layer counts only as up or
    down) direction."""

    def __init__(self, R: int, touching: bool, corner_sideways: bool = True):
        self.R = R
        at: dict[tuple[int, int], int] = {}
        layer, x = [], []
        for k in [0] + [s * d for d in range(1, R) for s in (1, -1)]:
            for i in range(R - abs(k)):
                at[(k, 2 * i + abs(k))] = len(layer)
                layer.append(k)
                x.append(2 * i + abs(k))
        self.P = len(layer)
        self.LAYER, self.X = tuple(layer), tuple(x)
        self.at = at
        sup, out, nb = [], [[] for _ in range(self.P)], []
        for p in range(self.P):
            k, xx = layer[p], x[p]
            if k == 0:
                sup.append(())
            else:
                prev = k - (1 if k > 0 else -1)
                sup.append(tuple(at[(prev, xx + d)] for d in (-1, 1)))
                for s in sup[-1]:
                    out[s].append(p)
            steps = []
            for dv in (1, -1):
                for dh in (-1, 1):
                    q = at.get((k + dv, xx + dh))
                    if q is not None:
                        steps.append((q, dv, dh if corner_sideways else 0))
            if touching:
                for dh in (-1, 1):
                    q = at.get((k, xx + 2 * dh))
                    if q is not None:
                        steps.append((q, 0, dh))
            nb.append(tuple(sorted(steps)))
        self.SUP = tuple(sup)
        self.OUT = tuple(tuple(sorted(o)) for o in out)
        self.NB = tuple(nb)
        self.ROWPOS = tuple(p for p in range(self.P) if layer[p] == 0)
        self.FIRST = tuple(sorted(p for p in range(self.P) if abs(layer[p]) == 1))

    def pos(self, name: str) -> int:
        """The position named as :meth:`name` writes it: "row 3", "+1.2", "-2.1"."""
        name = name.strip()
        if name.startswith("row"):
            k, i = 0, int(name[3:])
        else:
            layer, _, index = name.partition(".")
            k, i = int(layer), int(index)
        p = self.at.get((k, 2 * (i - 1) + abs(k)))
        if p is None:
            raise ValueError(f"no position '{name}' in a pyramid with a row of {self.R}")
        return p

    def name(self, p: int) -> str:
        """A position in words: layer (+ above the row, - below) and place from the left."""
        k = self.LAYER[p]
        i = (self.X[p] - abs(k)) // 2 + 1
        return "row" + f" {i}" if k == 0 else f"{'+' if k > 0 else ''}{k}.{i}"


def parse_seats(text: str, players: int) -> tuple[int, ...]:
    """The rules option fewer-cards: ``none`` or seats joined with ``+`` (1 starts) -> 1 or 0 per seat."""
    text = str(text).strip()
    out = [0] * players
    if text in ("", "none", "0"):
        return tuple(out)
    for part in text.split("+"):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise PnpError(f"rules option fewer-cards: '{text}' is not none or seats 1-{players} joined with +, "
                           "e.g. 3+4")
        out[int(part) - 1] = 1
    return tuple(out)


class Pyrrameds(Game):
    """One box selection at one player count; every number, type, need and effect comes from the rows."""

    spec = None  # the GameSpec (set by the package)

    def __init__(self, data, players: int, **options):
        from .checks import engine_problems

        SPEC = self.spec
        o = SPEC.options(options)
        if not SPEC.min_players <= players <= SPEC.max_players:
            raise PnpError(f"Pyrrameds takes {SPEC.min_players}-{SPEC.max_players} players, not {players}")
        self.players = players
        self.o = o
        self.boxes = tuple(parse_boxes(o["boxes"], data))
        self.data = data  # every row, for the report's comparison of box selections
        self.row = o["row"] or max([ROW] + [ROW_BY_BOX.get(b, ROW) for b in self.boxes])
        if self.row < 2:
            raise PnpError("rules option row: the starting row needs at least 2 cards")
        self.start_medicine, self.start_patients = o["start_medicine"], o["start_patients"]
        self.fewer = parse_seats(o["fewer_cards"], players)  # per seat: 1 when dealt one card fewer (house rule)
        self.choose_number = o["wild_number"] == "choose"
        self.flexible = o["wild_type"] == "flexible"
        self.path_extra = o["path_extra"] == "non-medicine"
        self.keep_rule = o["swap_check"] == "keep"
        self.under_check = o["under_check"]
        self.reveal_op = o["reveal_operation"] == "free"
        self.stalemate = o["stalemate"]
        self.random_show = o["shown_card"] == "random"
        self.title = data.title
        problems = [p for p in engine_problems(data, set(self.boxes), players, self.row, o) if p.is_error]
        if problems:
            raise InputErrors(problems)
        self._compile(data)
        self.geo = Geometry(self.row, o["path_steps"] == "touching", o["backward"] == "axis")
        self.codes = Codes(self.NC, self.geo.P, self.NCH, players)

    def _compile(self, data) -> None:
        colors = [c for c in data.manifest.colors if c != WILD]
        cards = [c for c in data.select(set(self.boxes)) if c.deck in DECK_KIND]
        self.types = tuple(colors)
        tindex = {c: i for i, c in enumerate(colors)}
        col = data.manifest.decks["medicine"].columns.get("number") if "medicine" in data.manifest.decks else None
        lo = col.min if col is not None and col.min is not None else 1
        hi = col.max if col is not None and col.max is not None else 9
        self.numbers = tuple(range(lo, hi + 1))
        designs, kind, num, typ, wnum, need, nwild, nreq, want, eff, design = [], [], [], [], [], [], [], [], [], [], []
        for card in cards:
            d = len(designs)
            designs.append(Design(card.id, card.name, card.deck, card.expansion, card.color or "", card.number,
                                  str(card.requires), str(card.effect), card.where))
            k = DECK_KIND[card.deck]
            t, n, wn, nd, nw, ef = -1, NONUM, False, (0,) * len(colors), 0, ()
            if k == MEDICINE:
                t = FLEX if card.color == WILD else tindex[card.color]
                wn = card.number is None
                n = NONUM if wn else card.number
            elif k == OPERATION:
                n = card.number
                ef = tuple((term.word, (term.args[0] if term.args else 1) if term.word in COUNTED else 1)
                           for term in card.effect)
            else:
                counts = [0] * len(colors)
                for term in card.requires:
                    if term.word == WILD:
                        nw += term.count
                    else:
                        counts[tindex[term.word]] += term.count
                nd = tuple(counts)
            w = 0  # the types a patient wants, as a bit mask (all types for a ? need)
            if k == PATIENT:
                w = (1 << len(colors)) - 1 if nw else sum(1 << i for i, x in enumerate(nd) if x)
            for _ in range(card.count):
                kind.append(k)
                num.append(n)
                typ.append(t)
                wnum.append(wn)
                need.append(nd)
                nwild.append(nw)
                nreq.append(sum(nd) + nw)
                want.append(w)
                eff.append(ef)
                design.append(d)
        self.designs = tuple(designs)
        self.KIND, self.NUM, self.TYPE, self.WNUM = tuple(kind), tuple(num), tuple(typ), tuple(wnum)
        self.NEED, self.NWILD, self.NREQ, self.WANT = tuple(need), tuple(nwild), tuple(nreq), tuple(want)
        self.EFFECT, self.DESIGN = tuple(eff), tuple(design)
        self.NC = len(kind)
        self.medicine = tuple(c for c in range(self.NC) if kind[c] == MEDICINE)
        self.patients = tuple(c for c in range(self.NC) if kind[c] == PATIENT)
        self.others = tuple(c for c in range(self.NC) if kind[c] == OPERATION)
        # the types a wildcard type may be named as: the types of the medicine in play
        self.choice_types = tuple(sorted({t for t in typ if t >= 0})) or tuple(range(len(colors)))
        wild_type = not self.flexible and any(t == FLEX for t in typ)
        wild_num = self.choose_number and any(wnum)
        self.NT = len(self.choice_types) if wild_type else 1
        self.NN = len(self.numbers) if wild_num else 1
        self.NCH = self.NT * self.NN
        # a card whose type or number is named when it is placed
        self.NAMED = tuple((t == FLEX and wild_type) or (w and wild_num) for t, w in zip(typ, wnum))

    # -- kit protocol
    def new_initial_state(self, chance):
        from .state import State

        return State.new(self, chance)

    def components(self) -> Counter:
        return Counter(range(self.NC))

    def component_label(self, c) -> str:
        return self.label(c)

    # -- words
    def label(self, c: int) -> str:
        d = self.designs[self.DESIGN[c]]
        k = self.KIND[c]
        if k == MEDICINE:
            return f"{d.name} ({d.color} {d.number if d.number is not None else '?'}, {d.id})"
        if k == OPERATION:
            return f"{d.name} (operation {d.number}: {d.effect}, {d.id})"
        return f"{d.name} (patient: {d.requires}, {d.id})"

    def effective(self, c: int, ch: int | None = 0) -> tuple[int, int]:
        """The (type, number) card ``c`` has once placed with choice ``ch``: a wildcard
        type or number takes the named one (wild-type=choose, wild-number=choose).
        ``ch`` None: laid in the starting row, where nobody names anything (a ? number
        stays blank, an `any` type counts as every type)."""
        t, n = self.TYPE[c], self.NUM[c]
        if ch is None:
            return t, n
        ti, ni = divmod(ch, self.NN)
        if t == FLEX and not self.flexible:
            t = self.choice_types[ti]
        if self.WNUM[c] and self.choose_number:
            n = self.numbers[ni]
        return t, n

    def type_name(self, t: int) -> str:
        return "any type" if t == FLEX else self.types[t] if t >= 0 else "no type"
