"""The compiled game: every table the rules read, built once from the sheet's rows.

The playing cards (role ``play``) with their colours, values and symbols; the
tiles per symbol; the column pieces per colour; the builders; and the cards set
aside for the score track (any other role).  Edit a row and the simulation
follows.
"""

from __future__ import annotations

from collections import Counter

from model.errors import InputErrors, PnpError
from validator.kit import Game

from . import geometry as geo
from .checks import bag_count, engine_problems, rows, setup_numbers
from .constants import BUILD, PARAMS


class GoldenPyramid(Game):
    """The deck and the rules options, shared by every state of a run (picklable)."""

    spec = None  # set by the package's __init__ once SPEC exists

    def __init__(self, data, players: int, **options):
        unknown = [k for k in options if k not in PARAMS]
        if unknown:
            raise PnpError(f"unknown rules option '{unknown[0]}' for golden-pyramid; known: "
                           + ", ".join(sorted(k.replace("_", "-") for k in PARAMS)))
        opts = {k: p.default for k, p in PARAMS.items()}
        opts.update(options)
        self.options = opts
        if not 2 <= players <= 6:
            raise PnpError(f"The Golden Pyramid is for 2-6 players, not {players}")
        problems = [p for p in engine_problems(data, players, opts["bag_cubes"]) if p.is_error]
        if problems:
            raise InputErrors(problems)
        self.players = players
        self.market_refresh = bool(opts["market_refresh"])
        self.near = geo.NEAR_BELOW if opts["builder_near"] == "below" else geo.NEAR
        # per builder position: the build actions it stands near (no -1 for the builder)
        self.near_builds = tuple(frozenset(BUILD + x for x in range(geo.NPOS) if b in self.near[x])
                                 for b in range(geo.NPOS))
        self.near_of = tuple(tuple(x for x in range(geo.NPOS) if b in self.near[x]) for b in range(geo.NPOS))
        # the same for the heuristic's nearness: with what an empty place there is worth (1 on the builder's
        # level or above, 0.3 below), and those of the level above
        self.near_weights = tuple(tuple((x, 1.0 if geo.LEVEL[x] >= geo.LEVEL[b] else 0.3) for x in self.near_of[b])
                                  for b in range(geo.NPOS))
        self.near_above = tuple(tuple(x for x in self.near_of[b] if geo.LEVEL[x] == geo.LEVEL[b] + 1)
                                for b in range(geo.NPOS))
        self.own_forced_free = opts["own_forced_move"] == "free"
        self.negative_vp = bool(opts["negative_vp"])
        self.stall_rounds = int(opts["stall_rounds"])
        self.hand_limit = int(opts["hand_limit"])
        self.keep_fewer = bool(opts["keep_fewer"])
        self.market_size, self.start_cubes, self.start_cards = setup_numbers(players)
        self._compile(data, players, int(opts["bag_cubes"]))

    def _compile(self, data, players: int, bag_cubes: int) -> None:
        play, aside, tiles, columns, builders = rows(data)
        palette = list(data.manifest.colors)
        colours = [c for c in palette if any(r.color == c for r in columns)]
        colours += [r.color for r in columns if r.color not in colours]
        self.colours = tuple(dict.fromkeys(colours))
        cidx = {c: i for i, c in enumerate(self.colours)}
        self.K = len(self.colours)
        symbols = [r.symbol for r in tiles] + [r.symbol for r in play]
        self.symbols = tuple(dict.fromkeys(symbols))
        sidx = {s: i for i, s in enumerate(self.symbols)}
        self.S = len(self.symbols)
        # playing cards
        self.D = len(play)
        self.d_id = tuple(r.id for r in play)
        self.d_name = tuple(r.name for r in play)
        self.d_where = tuple(f"{r.sheet}:{r.row}" for r in play)
        self.d_col = tuple(cidx[r.color] for r in play)
        self.d_val = tuple(int(r.number) for r in play)
        self.d_sym = tuple(sidx[r.symbol] for r in play)
        self.d_count = tuple(r.count for r in play)
        self.deck0 = tuple(d for d in range(self.D) for _ in range(self.d_count[d]))
        self.bits = tuple((i + 1).bit_length() for i in range(len(self.deck0)))  # of a random index <= i
        self.aside = tuple(r.id for r in aside for _ in range(r.count))
        # tiles: one component id per symbol (the first row showing it)
        self.tile_count = [0] * self.S
        self.tile_id = [""] * self.S
        for r in tiles:
            s = sidx[r.symbol]
            self.tile_count[s] += r.count
            self.tile_id[s] = self.tile_id[s] or r.id
        self.tile_count = tuple(self.tile_count)
        self.tile_id = tuple(self.tile_id)
        # column pieces: the bag's share for this player count, the rest stays in the box
        count = [0] * self.K
        self.col_id = [""] * self.K
        for r in columns:
            c = cidx[r.color]
            count[c] += r.count
            self.col_id[c] = self.col_id[c] or r.id
        self.col_id = tuple(self.col_id)
        self.col_total = tuple(count)
        self.bag0 = tuple(bag_count(n, players, bag_cubes) for n in count)
        self.builder_id = tuple(r.id for r in builders for _ in range(r.count))
        self.builder_colour = tuple(r.color for r in builders for _ in range(r.count))
        self.by_value_desc = tuple(sorted(range(self.D), key=lambda d: (-self.d_val[d], d)))
        K = self.K  # a market trade's code: (colour taken, colour given, colour put in the bag)
        self.market_code = tuple((t, gv, o) for t in range(K) for gv in range(K) for o in range(K))

    def __getstate__(self) -> dict:
        """What a worker process receives: the game without the caches worked out from it."""
        state = self.__dict__.copy()
        state.pop("_heuristic_tables", None)
        state.pop("_components", None)
        return state

    # -- protocol
    def new_initial_state(self, chance):
        from .state import State

        return State(self, chance)

    def components(self) -> Counter:
        """Every physical piece the game uses, by component id (computed once; read-only)."""
        cached = self.__dict__.get("_components")
        if cached is not None:
            return cached
        c = Counter()
        for d in range(self.D):
            c[self.d_id[d]] += self.d_count[d]
        c.update(self.aside)
        for s in range(self.S):
            if self.tile_count[s]:
                c[self.tile_id[s]] += self.tile_count[s]
        for k in range(self.K):
            c[self.col_id[k]] += self.col_total[k]
        c.update(self.builder_id)
        self._components = c
        return c

    def component_label(self, component) -> str:
        return f"'{component}'"

    # -- words
    def card(self, d: int) -> str:
        return self.d_name[d]

    def colour(self, c: int) -> str:
        return self.colours[c]

    def symbol(self, s: int) -> str:
        return self.symbols[s]


def make(data, players: int, **options) -> GoldenPyramid:
    return GoldenPyramid(data, players, **options)
