"""The compiled Pyramid Shambo game: the pieces from cards.csv, the rules options,
and the payment plans (which pieces change hands to settle a debt).

Pieces are the rows with a colour and a ``number`` (pips): the ``large``,
``medium`` and ``small`` decks of the sheet.  Each player takes every piece of
one colour (colours in the palette's order: player 1 the first colour that has
pieces).  The fee unit and the knock-out bonus are the pips of a ``small``
piece.  A holding is a bit mask over the pieces, so a payment plan is a handful
of masks; the plans a holding settles alone are memoised per holding and debt,
the others made afresh from memoised subsets (a memo of those would hold every
pair of holdings seen: it measured slower, and grows with the games played).
"""

from __future__ import annotations

from collections import Counter

from model.errors import InputErrors, Problem, RulesError
from validator.kit import Game

from .constants import CHANGE_OTHER, CHANGE_PAYEE, EXACT, OVERPAY, PARAMS, SHORT, UNDERPAY

PIECE_DECKS = ("large", "medium", "small")
SMALL_DECK = "small"
MEMO_LIMIT = 200_000  # memoised plan lists kept before the memo is cleared
_MISSING = object()
_SHARED: dict = {}  # the memos of each compiled game in this process, by its tables


def _kept(memo: dict, key, value):
    """``value`` stored in ``memo`` under ``key`` (the memo cleared first once it holds
    ``MEMO_LIMIT`` entries), and returned."""
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


class MaskPieces(dict):
    """mask -> the indices of its pieces in order, filled as masks are asked for."""

    def __missing__(self, mask: int) -> tuple:
        out = []
        i = 0
        m = mask
        while m:
            if m & 1:
                out.append(i)
            m >>= 1
            i += 1
        return _kept(self, mask, tuple(out))


class MaskPips(dict):
    """mask -> its pips, filled as masks are asked for (summed a byte of the mask at a time)."""

    def __init__(self, pips: list[int]):
        super().__init__()
        self.tables = []  # one per byte of a mask: the pips of each byte value
        for lo in range(0, len(pips), 8):
            self.tables.append([sum(pips[lo + b] for b in range(8) if x >> b & 1 and lo + b < len(pips))
                                for x in range(256)])

    def __missing__(self, mask: int) -> int:
        s = 0
        m = mask
        for t in self.tables:
            s += t[m & 255]
            m >>= 8
        return _kept(self, mask, s)


class Piece:
    __slots__ = ("index", "id", "name", "color", "pips", "deck", "row")

    def __init__(self, index, id, name, color, pips, deck, row):
        self.index, self.id, self.name, self.color, self.pips, self.deck, self.row = \
            index, id, name, color, pips, deck, row


class ShamboGame(Game):
    """Tables built once from the sheet, shared by every state of every game."""

    spec = None  # the GameSpec (set by the package)

    def __init__(self, data, players: int, **options):
        SPEC = self.spec
        opts = SPEC.options(options)
        self.o = opts
        self.players = players
        from .checks import static_checks

        errors = [p for p in static_checks(data, players) if p.is_error]
        if errors:
            raise InputErrors(errors)
        rows = [c for c in data.cards if c.deck in PIECE_DECKS and c.number is not None]
        palette = list(data.manifest.colors)
        base_colors = [c for c in palette if any(r.color == c for r in rows)]
        stashes = opts["stashes"]
        if stashes == "auto":
            nstash = 1 if players <= len(base_colors) else 2
        else:
            nstash = int(stashes)
        if players > nstash * len(base_colors):
            more = "" if nstash == 2 else "; a second stash (--rule stashes=2) seats up to " \
                f"{2 * len(base_colors)}"
            raise RulesError(f"Pyramid Shambo with {players} players needs {players} colours; "
                             f"{nstash} stash(es) of the sheet's pieces have {nstash * len(base_colors)}{more}")
        self.stashes = nstash
        self.colors: list[str] = []
        pieces: list[Piece] = []
        for k in range(nstash):
            for col in base_colors:
                name = col if k == 0 else f"{col}#{k + 1}"
                self.colors.append(name)
                mine = sorted((r for r in rows if r.color == col), key=lambda r: (r.number, r.row))
                for r in mine:
                    for copy in range(r.count):
                        pid = r.id if k == 0 else f"{r.id}#{k + 1}"
                        if r.count > 1:
                            pid = f"{pid}.{copy + 1}"
                        pieces.append(Piece(len(pieces), pid, r.name if k == 0 else f"{r.name} (stash {k + 1})",
                                            len(self.colors) - 1, r.number, r.deck, r.row))
        self.pieces = pieces
        self.N = len(pieces)
        self.PIPS = [p.pips for p in pieces]
        self.COLOR = [p.color for p in pieces]
        self.BIT = [1 << i for i in range(self.N)]
        self.PIPSF = [float(v) for v in self.PIPS]
        self.colmask = [0] * len(self.colors)
        for p in pieces:
            self.colmask[p.color] |= 1 << p.index
        # the pieces of a colour are consecutive: colour -> (first index, end)
        self.color_span = [(min(i for i in range(self.N) if self.COLOR[i] == c),
                            max(i for i in range(self.N) if self.COLOR[i] == c) + 1) for c in range(len(self.colors))]
        assert all(self.COLOR[i] == c for c, (a, b) in enumerate(self.color_span) for i in range(a, b))
        self.small_mask = 0
        for p in pieces:
            if p.deck == SMALL_DECK:
                self.small_mask |= 1 << p.index
        self.unit = min(p.pips for p in pieces if p.deck == SMALL_DECK)
        self.max_pip = max(self.PIPS)
        self.player_color = list(range(players))  # player i plays colour i
        self.others = [[q for q in range(players) if q != p] for p in range(players)]  # in seat order
        self.seats_after = [[(p + k) % players for k in range(1, players + 1)] for p in range(players)]
        self.start_hold = [self.colmask[c] for c in self.player_color]
        self.total_pips = sum(self.PIPS)
        self.escalation = opts["escalation"]
        self.showdown = bool(opts["showdown"]) and players > 2
        self.showdown_bonus = opts["showdown_bonus"] == "doubled"
        self.overpay = opts["no_change"] == "overpay"
        self.bonus_skip = opts["bonus_without_small"] == "skip"
        self._attach_memos()
        self.pips_of = [0] * self.players  # pips of each player's starting holding
        for p, m in enumerate(self.start_hold):
            self.pips_of[p] = self.pips(m)
        self.held_at_start = 0
        for m in self.start_hold:
            self.held_at_start |= m
        from .heuristics import piece_risk_values

        self.piece_risk_values = piece_risk_values(self)  # the bots' values of pieces by their colour's risk
        assert [a for a, b in self.color_span[:players]] == [0] + [b for a, b in self.color_span[:players - 1]]

    # -- memos: pure caches of what the tables decide.  Pickled copies (a worker's
    # batches) carry the tables only and share one set of memos per process.
    _MEMOS = ("_subsets", "_overpays", "_memo1", "pieces_of", "mask_pips")

    def _attach_memos(self) -> None:
        key = (self.N, tuple(self.PIPS), tuple(self.COLOR), self.players, self.unit,
               tuple(sorted(self.o.items())))
        memos = _SHARED.get(key)
        if memos is None:
            # subsets by mask | pips << N; minimal overpayments by mask | due << N; own plans by
            # holding | due << N; the pieces of a mask; the pips of a mask
            memos = _SHARED[key] = ({}, {}, {}, MaskPieces(), MaskPips(self.PIPS))
        for name, memo in zip(self._MEMOS, memos):
            setattr(self, name, memo)
        self.own_plans_memo = self._memo1

    def __getstate__(self):
        d = dict(self.__dict__)
        for name in self._MEMOS + ("own_plans_memo",):
            d.pop(name, None)
        return d

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        self._attach_memos()

    def components(self) -> Counter:
        return Counter(p.id for p in self.pieces)

    def component_label(self, component) -> str:
        return f"piece {component}"

    def new_initial_state(self, chance):
        from .state import ShamboState

        return ShamboState(self, chance)

    # -- helpers on masks
    def pips(self, mask: int) -> int:
        return self.mask_pips[mask]

    def bits(self, mask: int) -> list[int]:
        return list(self.pieces_of[mask])

    def describe_mask(self, mask: int) -> str:
        return "+".join(self.pieces[i].id for i in self.bits(mask)) or "nothing"

    # -- subsets by pips, memoised by one int: the mask (N bits) and the pips above it (one
    # int is cheaper to hash and keep than a tuple)
    def subsets_sum(self, mask: int, target: int) -> tuple:
        """Every sub-mask of ``mask`` whose pips add up to ``target`` (canonical order)."""
        key = target << self.N | mask
        memo = self._subsets
        try:
            return memo[key]
        except KeyError:
            pass
        bits = self.pieces_of[mask]
        pips = self.PIPS
        out = []

        def rec(i, left, acc):
            if left == 0:
                out.append(acc)
                return
            for j in range(i, len(bits)):
                b = bits[j]
                v = pips[b]
                if v <= left:
                    rec(j + 1, left - v, acc | (1 << b))

        if target >= 0:
            rec(0, target, 0)
        return _kept(memo, key, tuple(out))

    def minimal_overpays(self, mask: int, due: int) -> tuple:
        """Sub-masks paying more than ``due`` from which no piece can be left out
        without paying less than ``due``; the smallest overpayments first."""
        key = due << self.N | mask
        memo = self._overpays
        try:
            return memo[key]
        except KeyError:
            pass
        bits = self.pieces_of[mask]
        pips = self.PIPS
        limit = due + self.max_pip - 1
        found = []

        def rec(i, s, acc, smallest):
            if s > due:
                if s - smallest < due:
                    found.append((s, acc))
                return
            for j in range(i, len(bits)):
                b = bits[j]
                v = pips[b]
                if s + v <= limit:
                    rec(j + 1, s + v, acc | (1 << b), min(smallest, v))

        rec(0, 0, 0, 1 << 30)
        found.sort(key=lambda x: x[0])
        return _kept(memo, key, tuple(found))

    # -- payment plans
    def plans(self, hold: list[int], payer: int, payee: int, due: int, alive: list[bool]) -> list[tuple]:
        """The ways to settle a debt of ``due`` pips from ``payer`` to ``payee``.

        A plan is ``(kind, give, back, maker, broken, pieces, paid)``: ``give``
        goes from the payer to the payee, ``back`` (change) from the payee to the
        payer; with an uninvolved ``maker``, the payer first exchanges the piece
        ``broken`` for the maker's smaller ``pieces`` of the same pips; ``paid``
        is what the payee gains.  The rules, in order: pay exactly if the
        holding allows; holding at most the fee, pay everything; else overpay
        and take change from the payee (a minimal overpayment if one allows it,
        else the smallest overpayment that does); else break a piece with an uninvolved
        player (the candidates in seat order from the payee's left); else (no
        change anywhere) overpay or underpay by the ``no_change`` option.
        """
        hp = hold[payer]
        got = self._memo1.get(hp | due << self.N, _MISSING)
        if got is _MISSING:
            got = self.own_plans(hp, due)
        if got is not None:
            return got
        return self.change_plans(hold, payer, payee, due, alive)

    def change_plans(self, hold: list[int], payer: int, payee: int, due: int, alive: list[bool]) -> list[tuple]:
        """``plans`` when the payer's holding alone cannot settle the debt (``own_plans`` is
        None).  Made afresh from memoised parts (a memo of these would hold every pair of
        holdings seen, which costs more to search than to make them)."""
        hp = hold[payer]
        hw = hold[payee]
        n, subsets = self.N, self._subsets
        try:
            over = self._overpays[due << n | hp]  # (minimal_overpays, memoised)
        except KeyError:
            over = self.minimal_overpays(hp, due)
        got = []
        for s_pips, s in over:
            change = s_pips - due
            try:
                backs = subsets[change << n | hw]  # (subsets_sum, memoised)
            except KeyError:
                backs = self.subsets_sum(hw, change)
            for r in backs:
                got.append((CHANGE_PAYEE, s, r, -2, 0, 0, due))
        if got:
            return got
        got = self._payee_change_beyond_minimal(hp, hw, due)
        if got:
            return got
        others = [q for q in self.seats_after[payee][:-1] if q != payer and alive[q]]  # from the payee's left
        return self._plans_others(hold, hp, due, others)

    def _payee_change_beyond_minimal(self, hp: int, hw: int, due: int) -> list[tuple]:
        """"The player being paid must make change if possible": when no minimal overpayment leaves the
        payee a change to give, the smallest overpayment of any pieces the payee can give change for (e.g.
        two 3-pip pieces for a 2-pip fee, change 4 given as two 2-pip pieces, where one 3 would need a
        1-pip change the payee does not hold).  Every such set at that amount, with every change."""
        total, have = self.pips(hp), self.pips(hw)
        for paid in range(due + 1, min(total, due + have) + 1):
            backs = self.subsets_sum(hw, paid - due)
            if not backs:
                continue
            sets = self.subsets_sum(hp, paid)
            if sets:
                return [(CHANGE_PAYEE, s, r, -2, 0, 0, due) for s in sets for r in backs]
        return []

    def own_plans(self, hp: int, due: int):
        """The plans that need nothing but the payer's holding (exact, or
        everything held), or None when change is needed; memoised."""
        key = hp | due << self.N if due >= 0 else (hp, due)
        memo = self._memo1
        got = memo.get(key, _MISSING)
        if got is not _MISSING:
            return got
        if due <= 0:
            got = [(EXACT, 0, 0, -1, 0, 0, 0)]
        else:
            total = self.pips(hp)
            if total <= due:
                got = [(SHORT if total < due else EXACT, hp, 0, -1, 0, 0, total)]
            else:
                exact = self.subsets_sum(hp, due)
                got = [(EXACT, s, 0, -1, 0, 0, due) for s in exact] if exact else None
        return _kept(memo, key, got)

    def _plans_others(self, hold, hp: int, due: int, others: list[int]) -> list[tuple]:
        """``plans`` when the payee cannot make change either.  First the breaks, maker by
        maker: the payer exchanges a piece ``broken`` for the maker's ``pieces`` of the same
        pips (two or more: a single piece of the same pips is an exchange, not change), then
        pays; in canonical order (made afresh: the subsets they are made of are memoised)."""
        pips, n, memo, subsets = self.PIPS, self.N, self._subsets, self.subsets_sum
        big = [(1 << t, pips[t]) for t in self.pieces_of[hp] if pips[t] >= 2]  # what could be broken
        out = []
        for m in others:
            hm = hold[m]
            if not hm & (hm - 1):  # (one piece or none: no change)
                continue
            for broken, v in big:
                try:
                    splits = memo[v << n | hm]  # (subsets_sum, memoised)
                except KeyError:
                    splits = subsets(hm, v)
                for pieces in splits:
                    if pieces & (pieces - 1):  # two or more pieces
                        after = (hp & ~broken) | pieces
                        try:
                            pays = memo[due << n | after]
                        except KeyError:
                            pays = subsets(after, due)
                        for s in pays:
                            out.append((CHANGE_OTHER, s, 0, m, broken, pieces, due))
        if out:
            return out
        if self.overpay:
            over = self.minimal_overpays(hp, due)
            least = over[0][0]
            return [(OVERPAY, s, 0, -1, 0, 0, v) for v, s in over if v == least]
        for v in range(due - 1, -1, -1):
            under = self.subsets_sum(hp, v)
            if under:
                return [(UNDERPAY, s, 0, -1, 0, 0, v) for s in under]
        return [(UNDERPAY, 0, 0, -1, 0, 0, 0)]  # unreachable: the empty set pays 0



def make(data, players: int, **options) -> ShamboGame:
    if not 2 <= players <= 10:
        raise RulesError(f"Pyramid Shambo takes 2-10 players (6-10 with a second stash), not {players}")
    return ShamboGame(data, players, **options)


def problem(card, column: str, message: str, severity: str = "error") -> Problem:
    return Problem(card.sheet, card.row, column, message, severity)


__all__ = ["ShamboGame", "make", "PARAMS"]
