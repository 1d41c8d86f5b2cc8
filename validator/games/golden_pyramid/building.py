"""Rules of building: which tiles a player can build, the build itself, its score, the builder
placement and the forced moves (a mixin of the State)."""

from __future__ import annotations

from bisect import bisect_left

from . import geometry as geo
from .constants import BUILD, COLOUR, COLUMN_POINTS, FORCED, PLACE, SYMBOL_CARD, TILE

LEVEL, SUPPORT, SUPPORT_TILES, COLUMN_NEIGHBOURS = geo.LEVEL, geo.SUPPORT, geo.SUPPORT_TILES, geo.COLUMN_NEIGHBOURS
LEVEL_POSITIONS, NPOS, TOP, CARRIES = geo.LEVEL_POSITIONS, geo.NPOS, geo.LEVELS, geo.CARRIES
AFFECTS, NO_NEIGHBOURS, neighbour_colours = geo.AFFECTS, geo.NO_NEIGHBOURS, geo.neighbour_colours
BUILD_ACTION = tuple(BUILD + t for t in range(NPOS))
OFFSET = geo.OFFSET  # the first position of each level


def column_points(colours) -> int:
    """VP for the colours of a tile's four columns: 2/3/4 of one colour 1/2/4, two pairs 3."""
    key = tuple(colours)
    v = _COLUMN_POINTS.get(key)
    if v is None:
        v = _COLUMN_POINTS[key] = _column_points(key)
    return v


_COLUMN_POINTS: dict = {}  # column_points by the colours (at most K ** 4 of them)
_OPEN_TABLES: dict = {}  # _open_changed's tables by the open positions
_EMPTY_PYRAMID: list = []  # the tables of the empty pyramid, once worked out (see Building._empty_pyramid)
OPEN_MEMO_LIMIT = 100_000


def _column_points(colours) -> int:
    counts = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    return COLUMN_POINTS[tuple(sorted(counts.values(), reverse=True))]


class Building:
    __slots__ = ()

    # ------------------------------------------------------------------ what can be built
    def _pairs(self, p: int) -> int:
        """Columns the player could name and pay for: per colour, the fewer of cards and cubes."""
        pairs = 0
        for h, k in zip(self.hand_col[p], self.cubes[p]):
            pairs += h if h < k else k
        return pairs

    def _reach(self, p: int) -> int:
        """The highest level player ``p`` holds what a tile needs for (0: none): every level up to it
        can be built, level 1 with any card, an upper level with a card of at least its value that
        leaves four columns to name and pay for."""
        held = self.held[p]
        if not held:
            return 0
        if self.cube_n[p] < 4 or self.hand_n[p] < 5:  # fewer than four columns besides the tile's card
            return 1
        hand_col, cubes = self.hand_col[p], self.cubes[p]
        pairs = 0
        for h, k in zip(hand_col, cubes):
            pairs += h if h < k else k
        if pairs < 4:
            return 1
        val = self.g.d_val
        top = 1
        if pairs > 4:
            for d in held:
                if val[d] > top:
                    top = val[d]
        else:  # exactly four columns: the tile card must not be one of them
            col = self.g.d_col
            for d in held:
                if val[d] > top and hand_col[col[d]] > cubes[col[d]]:
                    top = val[d]
        return top if top < TOP else TOP

    def _buildable_levels(self, p: int) -> list[bool] | None:
        """Per level, whether player ``p`` holds what a tile there needs (None: no level)."""
        if self.undealt >= 0 and p != self.undealt:
            self._deal()
        reach = self._reach(p)
        return [False] + [lv <= reach for lv in range(1, TOP + 1)] if reach else None

    def can_build(self, p: int) -> bool:
        """Whether player ``p`` could build a tile anywhere now."""
        if self.undealt >= 0 and p != self.undealt:
            self._deal()
        return self.open_cut[self._reach(p)] > 0

    def _symbol_legal(self, p: int) -> list[int]:
        """The cards that may name the tile: value >= level, leaving four columns to name and pay for;
        a card whose symbol still has tiles must be used if there is one."""
        g = self.g
        level = LEVEL[self.b_pos]
        held, hand_col, cubes = self.held[p], self.hand_col[p], self.cubes[p]
        col, val, sym = g.d_col, g.d_val, g.d_sym
        pairs = self._pairs(p) if level > 1 else 0
        left = self.tiles_left
        cands = []
        matching = []
        for d in held:
            if val[d] >= level and (level == 1 or pairs - (hand_col[col[d]] <= cubes[col[d]]) >= 4):
                cands.append(SYMBOL_CARD + d)
                if left[sym[d]]:
                    matching.append(SYMBOL_CARD + d)
        return matching or cands

    def _can_move(self, p: int) -> bool:
        b = self.builder[p]
        builders = self.builder
        for t in self.stand[LEVEL[b]]:
            if t != b and t not in builders:
                return True
        return False

    def _destinations(self, p: int) -> list[int]:
        """Tiles the builder of ``p`` may move to: same level, built, not under four columns, no other builder."""
        b = self.builder[p]
        builders = self.builder
        return [t for t in self.stand[LEVEL[b]] if t != b and t not in builders]

    # ------------------------------------------------------------------ what the pyramid shows
    def _empty_pyramid(self) -> None:
        """The tables read from the pyramid of a new game (empty): worked out once, the same for every game
        (tuples: the rules replace them, never change them)."""
        if not _EMPTY_PYRAMID:
            self._pyramid_changed()
            _EMPTY_PYRAMID.append((self.open, self.stand, self.nbs, self.open_acts, self.open_cut, self.open_top))
        self.open, self.stand, self.nbs, self.open_acts, self.open_cut, self.open_top = _EMPTY_PYRAMID[0]

    def _pyramid_changed(self) -> None:
        """Work out again everything read from the pyramid (after a test edits it directly)."""
        tile, ncol, col = self.tile, self.ncol, self.col
        self.open = tuple(t for t in range(NPOS) if tile[t] < 0 and all(tile[x] >= 0 for x in SUPPORT_TILES[t]))
        self.stand = tuple(tuple(t for t in LEVEL_POSITIONS[lv] if tile[t] >= 0 and ncol[t] < 4)
                           for lv in range(TOP + 1))
        self.nbs = tuple(neighbour_colours(col, t) if SUPPORT[t] else NO_NEIGHBOURS for t in range(NPOS))
        self._open_changed()

    def _open_changed(self) -> None:
        """The tables read from the open positions: the build actions, how many of them lie at each
        level or below (positions are numbered level by level), the highest open level (remembered by
        the open positions; ``self.open`` itself stays the state's own tuple)."""
        opn = self.open
        tables = _OPEN_TABLES.get(opn)
        if tables is None:
            if len(_OPEN_TABLES) >= OPEN_MEMO_LIMIT:
                _OPEN_TABLES.clear()
            tables = _OPEN_TABLES[opn] = (tuple(map(BUILD_ACTION.__getitem__, opn)),
                                          (0,) + tuple([bisect_left(opn, first) for first in OFFSET[1:]]) + (len(opn),),
                                          LEVEL[opn[-1]] if opn else 1)
        self.open_acts, self.open_cut, self.open_top = tables

    # ------------------------------------------------------------------ the build
    def _symbol_chosen(self, p: int, d: int) -> None:
        self._from_hand(p, d)
        self.b_sym = d
        self.b_cards.append(d)
        s = self.g.d_sym[d]
        if self.tiles_left[s]:
            self._tile_chosen(p, s)
        else:
            self.phase = TILE

    def _tile_chosen(self, p: int, s: int) -> None:
        self.b_tile = s
        if LEVEL[self.b_pos] == 1:
            self._resolve_build(p)
        else:
            self.phase = COLOUR

    def _colour_chosen(self, p: int, d: int) -> None:
        c = self.g.d_col[d]
        self._from_hand(p, d)
        self.b_cards.append(d)
        self.cubes[p][c] -= 1
        self.cube_n[p] -= 1
        self.b_cols.append(c)
        if len(self.b_cols) == 4:
            self._resolve_build(p)

    def _resolve_build(self, p: int) -> None:
        if not self.pyr_own:
            self._own_pyramid()
        if not self.pv_own:
            self._own_pv()
        g = self.g
        pos = self.b_pos
        level = LEVEL[pos]
        s = self.b_tile
        matched = s == g.d_sym[self.b_sym]
        self.tiles_left[s] -= 1
        self.tile[pos] = s
        self.owner[pos] = p
        self.discard.extend(self.b_cards)
        pv = self.pv
        gained = level if matched else 0
        pv["vp_levels"][p] += gained
        pv["tiles"][p] += 1
        self.cnt["builds"] += 1
        if not matched:
            pv["no_symbol"][p] += 1
            self.cnt["no_symbol"] += 1
        forced = []
        pattern = nbs = 0
        cols = self.b_cols
        if level > 1:
            colmap = self.col
            ncol = self.ncol
            neighbours = COLUMN_NEIGHBOURS[pos]
            for k, q in enumerate(SUPPORT[pos]):
                c = cols[k]
                for nq in neighbours[k]:
                    if colmap[nq] == c:
                        nbs += 1
            pattern = column_points(cols)
            for k, q in enumerate(SUPPORT[pos]):
                colmap[q] = cols[k]
                t = q >> 2
                ncol[t] += 1
                if ncol[t] == 4 and t in self.builder:
                    forced.append(self.builder.index(t))
            pv["vp_columns"][p] += pattern
            pv["vp_neighbours"][p] += nbs
            gained += pattern + nbs
        self.vp[p] += gained
        b = self.builder[p]
        penalty = b < 0 or b not in g.near[pos]
        if self.log is not None:
            name = g.symbols[s]
            words = f"P{p + 1} builds {'an' if name[:1] in 'aeiou' else 'a'} {name} tile on {geo.describe_pos(pos)}"
            if level > 1:
                words += f" on {', '.join(g.colours[c] for c in cols)} columns (+{pattern} colours, +{nbs} neighbours)"
            if not matched:
                words += f" with {g.d_name[self.b_sym]} (no tile of its symbol left: no tile points)"
            self._event(words + f": +{gained}" + ("; builder out of place: -1" if penalty else ""))
        if penalty:
            self._lose(p, 1, "builder_penalties")
            self.cnt["builder_penalties"] += 1
        first = self.level_built[p][level] == 0
        self.level_built[p][level] += 1
        if level > self.top[p]:
            self.top[p] = level
        self.built += 1
        self._idle_gap()
        self.last_build = self.turns
        self._built(pos, level)
        self.b_cards = []
        self.b_cols = []
        if level == TOP:
            self._finish("pyramid")
            return
        # forced moves come after the builder placement, in turn order from the builder
        self.b_forced = sorted(forced, key=lambda o: (o - p) % self.n) if forced else forced
        if (LEVEL[b] if b >= 0 else 0) <= level:
            if first:
                self.builder[p] = pos
                if self.log is not None:
                    self._event(f"P{p + 1} places the builder on the new tile (first tile of level {level})")
            else:
                self.phase = PLACE
                return
        self._after_placement(p)

    def _after_placement(self, p: int) -> None:
        pos = self.b_pos
        self.forced = []
        for o in self.b_forced:
            if o == p and self.builder[p] == pos:
                if not self.g.own_forced_free:
                    self._lose(o, 1, "forced_penalties")
                    self.cnt["forced_moves"] += 1
                continue
            self._lose(o, 1, "forced_penalties")
            self.cnt["forced_moves"] += 1
            self.forced.append(o)
        self.b_forced = []
        self._next_forced()

    def _next_forced(self) -> None:
        while self.forced:
            o = self.forced.pop(0)
            if self._destinations(o):
                if self.log is not None:
                    self._event(f"a fourth column lands under P{o + 1}'s builder: it must move (-1)")
                self.cur = o
                self.phase = FORCED
                return
            if self.log is not None:
                self._event(f"a fourth column lands under P{o + 1}'s builder and no free tile is left: it stays (-1)")
        self.cur = self.tp
        self._end_turn()

    def _built(self, pos: int, level: int) -> None:
        """Bring the pyramid's tables up to date after a tile at ``pos`` (its columns in place)."""
        tile = self.tile
        opn = list(self.open)
        opn.remove(pos)
        opened = False
        for u in CARRIES[pos]:
            for x in SUPPORT_TILES[u]:
                if tile[x] < 0:
                    break
            else:
                opn.append(u)
                opened = True
        if opened:
            opn.sort()
        self.open = tuple(opn)
        self._open_changed()
        ncol = self.ncol
        stand = list(self.stand)
        stand[level] = tuple(sorted(stand[level] + (pos,)))
        if level > 1:
            for t in SUPPORT_TILES[pos]:
                if ncol[t] == 4:  # covered by four columns: nobody stands on it any more
                    stand[level - 1] = tuple([t for t in stand[level - 1] if ncol[t] < 4])
                    break
            col = self.col
            nbs = list(self.nbs)
            for u in AFFECTS[pos]:
                if tile[u] < 0:
                    nbs[u] = neighbour_colours(col, u)
            self.nbs = tuple(nbs)
        self.stand = tuple(stand)
        first = OFFSET[level - 1]
        if min(tile[first:first + len(LEVEL_POSITIONS[level])]) >= 0:  # the level is complete
            self.level_turn[level - 1] = self.turns

    def _lose(self, p: int, k: int, key: str) -> None:
        if not self.g.negative_vp:
            k = min(k, max(self.vp[p], 0))
        self.vp[p] -= k
        if not self.pv_own:
            self._own_pv()
        self.pv[key][p] += k
