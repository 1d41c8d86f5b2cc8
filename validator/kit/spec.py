"""What an engine declares about itself: the spec the registry, runner, metrics,
report and command line read.  One per engine package, built at import."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from model.errors import CommandLineError, PnpError


@dataclass(frozen=True)
class Param:
    """One rules option: a documented switch with a default (``--rule KEY=VALUE``).

    ``reading`` is set when the default is not the rulebook's literal text - the
    rulebook is silent, a sentence reads two ways, or the engine adds something
    of its own: one sentence saying what the default does and what it stands for.
    The report's run record lists every such default in play with its option
    (``GameSpec.readings``).  Empty: the default is the rulebook as written."""

    default: Any
    help: str
    choices: tuple = ()
    reading: str = ""

    def parse(self, name: str, raw: str):
        """The option's value from a command-line string ``raw``."""
        d = self.default
        if isinstance(d, bool):
            low = raw.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise CommandLineError(f"rules option {name}: '{raw}' is not true or false")
        if isinstance(d, int):
            try:
                value = int(raw)
            except ValueError:
                raise CommandLineError(f"rules option {name}: '{raw}' is not a whole number") from None
            if value < 0:
                raise CommandLineError(f"rules option {name}: {value} must be 0 or more")
            return value
        if isinstance(d, float):
            try:
                return float(raw)
            except ValueError:
                raise CommandLineError(f"rules option {name}: '{raw}' is not a number") from None
        if self.choices and raw not in self.choices:
            raise CommandLineError(f"rules option {name}: '{raw}' is not one of {', '.join(self.choices)}")
        return raw


@dataclass(frozen=True)
class ReportSection:
    """One section of report.html an engine adds: an anchor, a title, one line
    saying what to look for, and the HTML body (already escaped).

    With ``into`` set to the anchor of a generic section (``outcome``,
    ``length``, ``skill`` ...) the body is appended to that section instead
    (title and look are then not shown)."""

    anchor: str
    title: str
    look: str
    body: str
    into: str = ""


@dataclass(frozen=True)
class Figure:
    """A headline figure an engine adds to the generic ones (summary.json's ``headline``, sweep.csv's
    columns, ``--compare`` and ``pnp tune --goal``): a whole number per game - the record's ``counter``,
    or 1 when the game ended for one of ``ends`` - summarised over the games by ``kind``: ``mean``,
    ``median``, ``p95`` (95th percentile) or ``rate`` (the share of games, in percent, whose value is
    not 0).  ``check`` names the engine's own verdict (``GameSpec.verdicts``) that the figure
    measures, if one does: ``pnp validate --compare`` then counts that verdict worse only when the
    figure moved beyond its paired interval (a verdict no figure measures flips within noise)."""

    key: str  # as goals and sweep.csv name it, e.g. "worst-sips-p95"
    label: str
    kind: str = "mean"
    counter: str = ""
    ends: tuple[str, ...] = ()
    unit: str = ""
    check: str = ""  # the engine's verdict this figure measures: --compare counts it worse only if the figure moved

    def value(self, record) -> int:
        if self.ends:
            return 1 if record.end in self.ends else 0
        return int(record.counters.get(self.counter, 0))


@dataclass(frozen=True)
class Verdict:
    """One PASS/WARN/FAIL line of the report (``status``), named by ``check``."""

    status: str
    check: str
    message: str

    def as_dict(self) -> dict:
        return {"status": self.status, "check": self.check, "message": self.message}


class StatsExtension(Protocol):
    """An engine's own statistics over many games (per-card usage, fees, sips ...).

    Like the generic tally it holds only counts, so ``merge`` is exact and
    order-free and the figures are the same for any worker count."""

    def add(self, record, bots: tuple[str, ...]) -> None: ...

    def merge(self, other: "StatsExtension") -> None: ...

    def summarize(self, game, tally, th) -> dict:
        """Keys added to summary.json (beside the generic ones).  A key that is
        already a generic block whose value is a dict (e.g. ``outcome``) adds
        its entries to that block."""
        ...


@dataclass(frozen=True)
class Heuristic:
    """An engine's judgement for the generic bots: ``scores(observation, actions)``
    rates each action for the greedy bot (higher is better); ``evaluate(state,
    player)`` rates a (determinized) position for the search bot."""

    scores: Callable[[Any, list[int]], list[float]]
    evaluate: Callable[[Any, int], float]


@dataclass(frozen=True)
class Study:
    """Games an engine's statistics play beside the main run (a comparison of configurations, one bot against
    another ...), cut into parts that the runner's pool plays with the run's own games: ``play(part)`` runs
    in a worker process for each of ``parts`` (a module-level function; a part pickles, and is a few dozen
    games' work at most), then ``finish(results)`` - the results in the parts' order - runs in the main process
    and gives keys for summary.json, merged as the stats extension's are (a dict for a block that exists adds
    its entries to it).  Seed the games from the part, never from the worker: the figures must not depend on
    which worker played what."""

    parts: list
    play: Callable[[Any], Any]
    finish: Callable[[list], dict]
    cost: float = 0.05  # seconds of work per part, roughly


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of the validator needs to know about an engine."""

    slug: str
    title: str
    min_players: int
    max_players: int
    params: dict[str, Param]
    make: Callable[..., Any]  # make(data: model.sheets.Game, players: int, **options) -> kit Game
    package: str = ""  # the engine's package (hashed into the rules hash with the kit)
    end_reasons: dict[str, str] = field(default_factory=dict)  # code -> sentence for the report
    elimination_causes: dict[str, str] = field(default_factory=dict)
    standing: str = ""  # what State.standings() measures, for the lead and drama figures
    score_name: str = "score"  # games.csv's column of the final per-player values
    counters: dict[str, str] = field(default_factory=dict)  # per-game counter -> what it counts
    per_player: dict[str, str] = field(default_factory=dict)  # per-player counter -> what it counts
    stalls: tuple[str, ...] = ("turn-cap", "loop", "stuck")  # end reasons that mean "no result"
    static_checks: Callable[..., list] | None = None  # static_checks(data, players) -> [Problem]
    heuristic: Heuristic | None = None  # for the generic greedy and search bots
    bots: dict[str, Callable[..., Any]] = field(default_factory=dict)  # engine's own bots: name -> cls(rng, game)
    skill_bots: tuple[str, ...] = ("random", "greedy", "search")  # the skill matrix's bots, weakest first
    skill_games: int = 60  # games per pairing of the skill matrix when --skill-games is not given
    default_bots: str = "greedy"  # the bots of the main games when --bots is not given
    stats: Callable[[], StatsExtension] | None = None  # a fresh stats extension
    sections: Callable[[dict], list[ReportSection]] | None = None  # report sections from summary.json
    verdicts: Callable[[dict, Any], list] | None = None  # extra verdicts from (summary, thresholds)
    thresholds: dict[str, dict[str, tuple]] = field(default_factory=dict)  # section -> key -> (default, help)
    time: dict[str, float] = field(default_factory=dict)  # time model defaults: seconds_per_turn ...
    csv_files: Callable[[dict], dict[str, tuple[list, list]]] | None = None  # name -> (header, rows)
    # fast_play(game, chance, bots, opts) -> (finished state, play statistics) of the game the runner's protocol
    # loop would play with these bot objects, or None (before drawing anything) when it does not take them
    fast_play: Callable[..., Any] | None = None
    figures: tuple[Figure, ...] = ()  # headline figures of the engine's own, beside the generic ones
    # card_effects(summary) -> [{id, name, measure, value, low, high}]: each card's measured effect (in points or
    # percent, with its 95% interval), which ``pnp validate --compare`` lists when it moves
    card_effects: Callable[[dict], list[dict]] | None = None
    # thresholds (section, key) that set games the engine's statistics play beside the main run (in-process
    # comparisons); sweeps and tuning set them to 0, since every variant would play them again
    side_games: tuple[tuple[str, str], ...] = ()
    # studies(game, thresholds) -> [Study]: the games the engine's statistics play beside the main run, played by
    # the run's pool (validate only: a sweep and tuning set the side games above to 0, which leaves none)
    studies: Callable[[Any, Any], list] | None = None

    @property
    def module(self) -> str:
        return self.package

    def options(self, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        values = {k: p.default for k, p in self.params.items()}
        for k, v in (overrides or {}).items():
            if k not in self.params:
                raise PnpError(f"unknown rules option '{k}' for {self.slug}; known: {', '.join(sorted(self.params))}")
            values[k] = v
        return values

    def readings(self, values: dict[str, Any]) -> list[dict]:
        """The run record's readings: every option whose value in ``values`` is its
        default and whose default is not the rulebook's literal text (``Param.reading``),
        and every option set away from its default on the command line."""
        out = []
        for name, p in self.params.items():
            value = values.get(name, p.default)
            key = name.replace("_", "-")
            if value != p.default:
                out.append({"option": key, "value": value, "default": p.default, "set": True,
                            "reading": f"set with --rule {key}={option_text(value)} (default {option_text(p.default)})"})
            elif p.reading:
                others = ([option_text(not p.default)] if isinstance(p.default, bool) else
                          [c for c in p.choices if c != p.default])
                out.append({"option": key, "value": value, "default": p.default, "set": False,
                            "reading": p.reading, "others": others})
        return out

    def parse_options(self, pairs: list[str]) -> dict[str, Any]:
        """``["key=value", ...]`` from the command line into typed option values."""
        out = {}
        for pair in pairs:
            key, sep, raw = pair.partition("=")
            key = key.strip().replace("_", "-")
            name = key.replace("-", "_")
            if not sep:
                raise CommandLineError(f"--rule '{pair}' is not KEY=VALUE")
            if name not in self.params:
                known = ", ".join(sorted(k.replace("_", "-") for k in self.params))
                raise CommandLineError(f"unknown rules option '{key}' for {self.slug}; known: {known}")
            out[name] = self.params[name].parse(key, raw.strip())
        return out


def option_text(value) -> str:
    """An option value as the command line writes it (``true``, ``false``, ``3``, ``end``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
