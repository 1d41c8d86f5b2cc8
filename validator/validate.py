"""``pnp validate`` as a library: static checks, simulation, summary, verdicts, files.

:func:`validate_game` runs everything for one game and writes
``<out>/<game>/validation/``; :func:`replay` plays one game move by move.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from model import __version__
from model.atomic import AtomicFile
from model.errors import CommandLineError, Problem
from validator.kit import Verdict, get_spec, has_rules, rules_hash
from validator.kit.stats import diff_interval
from validator.kit.stats import rate as _rate

from .bots import known_bots, parse_bots
from .checks import deck_checks, sheet_checks
from .failures import replay_failure
from .figures import Games, headline
from .metrics import Tally, TimeModel, hist_summary
from .runner import PlayOptions, Pool, Stream, game_seed, games_csv_header, play, run_streams
from .thresholds import Thresholds

SKILL_BOTS = ("random", "greedy", "search")
DRAMA_GAMES = 2000  # the first games of the main run whose standings feed the lead and drama figures
PASS, WARN, FAIL = "PASS", "WARN", "FAIL"
RANK = {PASS: 0, WARN: 1, FAIL: 2}


@dataclass
class RunOptions:
    """What every run of simulated games takes: ``pnp validate``'s (:class:`Options`), and ``pnp sweep``'s and
    ``pnp tune``'s for every variant (``validator.sweep.SweepOptions``)."""

    games: int = 1000
    players: int = 4
    seed: int = 1
    workers: int | None = None
    scheduler: str | None = None
    bots: str | None = None  # None: the engine's default bots (greedy for most)
    rules: dict = field(default_factory=dict)
    thresholds: Thresholds = field(default_factory=Thresholds)
    out: Path = Path("output")
    expansions: set[str] | None = None  # the boxes to play with (the base game plus expansions); None: every box
    write: bool = True
    connect_timeout: float = 10.0  # seconds to reach a Dask scheduler


@dataclass
class Options(RunOptions):
    strict: bool = False
    skill_games: int | None = None  # games per bot pairing of the skill matrix (None: the engine's, GameSpec.skill_games)
    sweep: tuple[int, ...] = ()  # further player counts whose seat balance is measured beside the main run
    sweep_games: int = 1000  # games per further player count
    drama_games: int = DRAMA_GAMES  # the first games of the main run that feed the lead and drama figures
    per_game: bool = False  # keep the main games' per-game values (Result.games: a paired comparison reads them)


@dataclass
class Result:
    slug: str
    title: str
    summary: dict
    verdicts: list[Verdict]
    files: list[Path]
    seconds: float
    games: object = None  # figures.Games of the main games, with Options.per_game

    @property
    def status(self) -> str:
        return worst(v.status for v in self.verdicts)


def worst(statuses) -> str:
    out = PASS
    for s in statuses:
        if RANK[s] > RANK[out]:
            out = s
    return out


# ------------------------------------------------------------------ hashes
def deck_hash(data) -> str:
    h = hashlib.sha256()
    for c in sorted(data.cards, key=lambda c: (c.deck, c.id)):
        h.update(repr((c.deck, c.id, c.count, c.color, c.number, c.symbol, str(c.requires), str(c.effect),
                       c.expansion)).encode())
    return h.hexdigest()[:16]


# ------------------------------------------------------------------ the run
def validate_game(data, opts: Options, progress: Callable[[str, int, int], None] | None = None) -> Result:
    """Simulate one game's deck and write its validation folder: every file, or none when
    anything fails (an engine's statistics, verdicts or sections included)."""
    pending: list = []
    try:
        return _validate_game(data, opts, progress, pending)
    except BaseException:
        for writer in pending:
            writer.abort()
        raise


def _validate_game(data, opts: Options, progress, pending: list) -> Result:
    started = time.perf_counter()
    spec = get_spec(data)  # (the game's data: its folder's rules count too)
    data = with_expansions(data, opts.expansions)
    if not spec.min_players <= opts.players <= spec.max_players:
        raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, "
                               f"not {opts.players}")
    if opts.games < 1:
        raise CommandLineError("--games must be 1 or more")
    rules = spec.options(opts.rules)
    game = spec.make(data, opts.players, **opts.rules)
    problems = static_problems(spec, data, opts.players)
    bots = parse_bots(opts.bots or spec.default_bots, opts.players, spec)
    th = opts.thresholds.bind(spec)
    model = time_model(th)
    play_opts = PlayOptions(strict=opts.strict, turn_cap=int(th.get("stalls", "turn_cap")))
    out_dir = Path(opts.out) / data.slug / "validation"
    files: list[Path] = []
    writer = _GamesWriter(out_dir / "games.csv", games_csv_header(spec)) if opts.write else None
    if writer:
        pending.append(writer)
    skill_games = spec.skill_games if opts.skill_games is None else opts.skill_games
    pairs = _pairs(skill_bots(spec)) if skill_games else []
    skill_total = skill_games * len(pairs)
    done = {"n": 0}

    def advance(n: int) -> None:
        done["n"] += n
        if progress:
            progress(data.slug, done["n"], opts.games + skill_total)

    per_game = Games() if opts.per_game else None
    on_rows = writer.write if writer else None
    if per_game is not None:
        def on_rows(rows, write=on_rows):
            per_game.add_rows(rows, spec.stalls)
            if write is not None:
                write(rows)
    streams = [Stream("main", game, "main", opts.seed, opts.games, [bots], play_opts, model,
                      on_rows, min(opts.games, opts.drama_games),
                      on_values=None if per_game is None else
                      (lambda values: per_game.add_values([f.key for f in spec.figures], values)))]
    for a, b in pairs:
        streams.append(Stream((a, b), game, f"skill:{a}:{b}", opts.seed, skill_games,
                              _pair_patterns(a, b, opts.players), play_opts, model))
    sweep = sorted({n for n in opts.sweep if n != opts.players})
    for n in sweep:
        if not spec.min_players <= n <= spec.max_players:
            raise CommandLineError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {n}")
        names = opts.bots if opts.bots and "," not in opts.bots else spec.default_bots
        streams.append(Stream(("players", n), spec.make(data, n, **opts.rules), f"players:{n}", opts.seed,
                              opts.sweep_games, [parse_bots(names, n, spec)], play_opts, model))
    skill_total += opts.sweep_games * len(sweep)
    try:
        with Pool(opts.workers, opts.scheduler, opts.connect_timeout) as pool:
            t0 = time.perf_counter()
            main_done = {}

            def advance_main(n: int) -> None:
                advance(n)
                if done["n"] >= opts.games and "t" not in main_done:
                    main_done["t"] = time.perf_counter() - t0

            tallies = run_streams(pool, streams, advance_main)
            main_seconds = main_done.get("t", time.perf_counter() - t0)
            workers = pool.workers
    except BaseException:
        if writer:
            writer.abort()
        raise
    tally = tallies.pop("main")
    by_players = {n: tallies.pop(("players", n)) for n in sweep}
    skill = tallies
    meta = run_record(data, spec, rules, opts.players, opts.games, opts.seed, bots, skill_games, play_opts.turn_cap,
                      opts.strict, th, opts.expansions)
    summary = summarize(game, spec, tally, skill, problems, meta, th)
    if sweep:
        summary["players"] = players_summary({opts.players: tally, **by_players})
    verdicts = judged(summary, th, spec)
    seconds = time.perf_counter() - started
    summary["timing"] = {
        "wall_seconds": round(seconds, 3),
        "simulation_seconds": round(main_seconds, 3),
        "games_per_second": round(opts.games / main_seconds, 1) if main_seconds > 0 else None,
        "workers": workers,
        "scheduler": opts.scheduler,
    }
    if opts.write:
        from .report import write_outputs

        files += write_outputs(out_dir, summary, game, spec)
    if writer:
        files.insert(0, writer.commit())  # games.csv last: the other files are written by then
    return Result(data.slug, data.title, summary, verdicts, files, seconds, per_game)


def static_problems(spec, data, players: int) -> list[Problem]:
    """The deck's static problems, sorted: the engine's own checks (``GameSpec.static_checks``), else the
    sheets' generic ones."""
    if spec.static_checks is not None:
        return sorted(spec.static_checks(data, players))
    return sorted(sheet_checks(data))


def time_model(th: Thresholds) -> TimeModel:
    """The minutes a game takes, from its turns and actions, with the thresholds' time settings."""
    return TimeModel(th.get("time", "seconds_per_turn"), th.get("time", "seconds_per_action"),
                     th.get("time", "setup_minutes"))


def run_record(data, spec, rules: dict, players: int, games: int, seed: int, bots, skill_games: int, turn_cap: int,
               strict: bool, th: Thresholds, expansions: set[str] | None) -> dict:
    """summary.json's ``run`` block: what was simulated, so that the same record gives the same figures."""
    meta = {
        "game": data.slug,
        "title": data.title,
        "tool_version": __version__,
        "deck_hash": deck_hash(data),
        "rules_hash": rules_hash(spec, rules),
        "rules_options": rules,
        "rules_defaults": spec.options(),
        "readings": spec.readings(rules),  # every option in play whose value is not the rulebook's literal text
        "players": players,
        "games": games,
        "master_seed": seed,
        "bots": list(bots),
        "skill_games_per_pair": skill_games,
        "turn_cap": turn_cap,
        "strict": strict,
        "thresholds": th.as_dict(),
        "thresholds_source": th.source,
        "playtime": data.manifest.playtime,
    }
    if expansions is not None:
        meta["expansions"] = sorted(expansions)
    return meta


def with_expansions(data, expansions: set[str] | None):
    """The game's data with the cards of the chosen boxes only (None: every box)."""
    if expansions is None:
        return data
    from model.sheets import Game

    return Game(data.manifest, data.select(expansions))


def skill_bots(spec) -> tuple[str, ...]:
    """The bots of the skill matrix, weakest first: the spec's (random, greedy and search
    unless the engine names its own), those the engine can play."""
    known = known_bots(spec)
    return tuple(b for b in getattr(spec, "skill_bots", SKILL_BOTS) if b in known)


def players_summary(tallies: dict) -> list[dict]:
    """Seat balance per player count: each seat's win rate and the start player's
    edge over a fair share, with 95% intervals."""
    out = []
    for n in sorted(tallies):
        t = tallies[n]
        seats = []
        for seat in range(n):
            r = _rate(t.seat_wins[seat], t.seat_games[seat])
            r["seat"] = seat + 1
            seats.append(r)
        first = seats[0]
        out.append({"players": n, "games": t.games, "fair_share": round(1 / n, 4), "seats": seats,
                    "first_edge": None if first["rate"] is None else {
                        "value": round(first["rate"] - 1 / n, 4), "low": round(first["low"] - 1 / n, 4),
                        "high": round(first["high"] - 1 / n, 4)}})
    return out


def _pairs(names):
    return [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]


def _pair_patterns(a: str, b: str, players: int) -> list[tuple]:
    """Alternating seats, swapped every other game: A B A B / B A B A."""
    one = tuple(a if p % 2 == 0 else b for p in range(players))
    two = tuple(b if p % 2 == 0 else a for p in range(players))
    return [one, two]


class _GamesWriter:
    """games.csv written as batches arrive, into a temporary file renamed at the end."""

    def __init__(self, path: Path, header: list[str]):
        import csv

        self.file = AtomicFile(path)
        self.csv = csv.writer(self.file.fh, lineterminator="\n")
        self.csv.writerow(header)

    def write(self, rows) -> None:
        self.csv.writerows(rows)

    def commit(self) -> Path:
        return self.file.commit()

    def abort(self) -> None:
        self.file.abort()


# ------------------------------------------------------------------ summary
def summarize(game, spec, t: Tally, skill: dict, problems: list[Problem], meta: dict, th: Thresholds) -> dict:
    """summary.json: the generic blocks from the tallies, the engine's stats
    extension's blocks (``GameSpec.stats``), the counters it declares."""
    n_games = t.games
    players = meta["players"]
    box = th.box(meta["playtime"])
    length = {
        "turns": hist_summary(t.turns),
        "rounds": hist_summary(t.rounds),
        "actions": hist_summary(t.actions),
        "minutes": hist_summary(t.tenths, 0.1),
        "box_minutes": list(box) if box else None,
        "turns_histogram": {str(k): v for k, v in sorted(t.turns.items())},
        "minutes_histogram": {f"{k / 10:.1f}": v for k, v in sorted(t.tenths.items())},
    }
    if box:
        inside = sum(c for k, c in t.tenths.items() if box[0] <= k / 10 <= box[1])
        length["inside_box"] = _rate(inside, n_games)
    seats = []
    for s in range(players):
        r = _rate(t.seat_wins[s], t.seat_games[s])
        r["seat"] = s + 1
        r["solo_wins"] = t.seat_solo[s]
        seats.append(r)
    rates = [r["rate"] for r in seats if r["rate"] is not None]
    stall_reasons = tuple(spec.stalls)
    stalls = sum(t.ends[k] for k in stall_reasons)
    outcome = {
        "seats": seats,
        "seat_spread": round(max(rates) - min(rates), 4) if rates else None,
        "fair_share": round(1 / players, 4),
        "ties": _rate(t.ties, n_games),
        "completed": _rate(n_games - stalls, n_games),
        "turn_cap": _rate(t.ends["turn-cap"], n_games),
        "stalls": _rate(stalls, n_games),
        "ends": {k: {"count": t.ends[k], "rate": round(t.ends[k] / n_games, 4), "label": spec.end_reasons.get(k, k)}
                 for k in spec.end_reasons if t.ends[k] or k not in stall_reasons},
        "eliminations": {k: {"count": t.elim[k], "per_game": round(t.elim[k] / n_games, 4),
                             "mean_turn": round(t.elim_turns[k] / t.elim[k], 2) if t.elim[k] else None,
                             "label": spec.elimination_causes.get(k, k),
                             "by_seat": [t.elim_seat[(k, s)] for s in range(players)]}
                         for k in spec.elimination_causes},
    }
    matrix = {}
    for (a, b), st in skill.items():
        for x, y in ((a, b), (b, a)):
            r = _rate(st.bot_wins[x], st.bot_seats[x])
            r["games"] = st.games
            matrix.setdefault(x, {})[y] = r
    richness = {
        "decisions": t.decisions,
        "legal_actions_mean": round(t.legal_sum / t.decisions, 3) if t.decisions else None,
        "forced_share": round(1 - t.choices / t.decisions, 4) if t.decisions else None,
        "turns_with_choice": _rate(t.turns_with_choice, t.turns_total),
    }
    failures = []
    sources = [("main", t, lambda i: tuple(meta["bots"]))]
    for (a, b), st in skill.items():
        patterns = _pair_patterns(a, b, players)
        sources.append((f"skill {a} vs {b}", st, lambda i, patterns=patterns: patterns[i % len(patterns)]))
    for stream, tally, bots_of in sources:
        for kind, (count, examples) in sorted(tally.failures.items()):
            failures.append({"kind": kind, "count": count, "label": spec.end_reasons.get(kind, kind),
                             "stream": stream,
                             "examples": [{"game": i, "seed": s, "bots": _bots_arg(bots_of(i))}
                                          for i, s in examples]})
    static = [{"severity": p.severity, "where": _where(p), "message": p.message} for p in problems]
    summary = {
        "run": meta,
        "static": static,
        "length": length,
        "outcome": outcome,
        "drama": drama_summary(t, spec),
    }
    if t.ext is not None:
        for key, value in t.ext.summarize(game, t, th).items():
            if isinstance(summary.get(key), dict) and isinstance(value, dict):
                summary[key].update(value)  # figures added to a generic block
            else:
                summary[key] = value
    summary["counts"] = {k: t.counts[k] for k in sorted(set(spec.counters) | set(t.counts))}
    if spec.per_player:
        summary["per_player"] = {
            name: {"label": label, "total": sum(t.per_player.get(name, {}).values()),
                   "per_game": round(sum(t.per_player.get(name, {}).values()) / n_games, 4),
                   "by_seat": [t.per_player.get(name, {}).get(s, 0) for s in range(players)]}
            for name, label in spec.per_player.items()}
    summary["skill"] = {"matrix": matrix, "bots": list(skill_bots(spec)), "richness": richness}
    summary["failures"] = failures
    summary["headline"] = headline(t, spec)
    return summary


def drama_summary(t: Tally, spec) -> dict | None:
    """Lead changes, comebacks and when games were decided (see metrics.game_quality),
    over the games that read their standings (the first ``DRAMA_GAMES`` of the
    run); None when the rules engine reports no standings."""
    if not t.q_games:
        return None
    n = t.q_decisive
    return {
        "standing": spec.standing,
        "games": t.q_games,
        "sample": f"the first {t.q_games:,} of {t.games:,} games" if t.q_games < t.games else "every game",
        "lead_changes": {
            **hist_summary(t.q_lead_changes),
            "games_with_a_change": _rate(t.q_games - t.q_lead_changes[0], t.q_games),
            "per_round": round(sum(k * c for k, c in t.q_lead_changes.items()) / t.q_transitions, 4)
            if t.q_transitions else None,
            "histogram": {str(k): v for k, v in sorted(t.q_lead_changes.items())},
        },
        "games_with_one_winner": n,
        "comebacks": {
            "winner_behind": _rate(t.q_behind_games, n),
            "rounds_behind_share": round(t.q_behind_rows / t.q_rows, 4) if t.q_rows else None,
            "winner_worst_place": {str(k): v for k, v in sorted(t.q_worst_place.items())},
            "deficit_overcome": hist_summary(t.q_deficit, 0.1) if t.q_deficit else None,
        },
        "decided": {
            "percent_of_game": hist_summary(t.q_decided) if t.q_decided else None,
            "first_half": _rate(sum(c for k, c in t.q_decided.items() if k <= 50), n),
            "led_throughout": _rate(t.q_wire, n),
            "not_before_the_end": _rate(t.q_late, n),
            "histogram": {str(k): v for k, v in sorted(t.q_decided.items())},
        },
    }


def _bots_arg(bots) -> str:
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)


def _where(p: Problem) -> str:
    s = p.file
    if p.row is not None:
        s += f":{p.row}"
    if p.column:
        s += f":{p.column}"
    return s


# ------------------------------------------------------------------ verdicts
def judge(s: dict, th: Thresholds, spec=None) -> list[Verdict]:
    """PASS/WARN/FAIL lines: the generic checks, the engine's (``GameSpec.verdicts``)
    after the stall check, then skill and decisions.  A WARN follows the point
    estimate; a FAIL needs 95% confidence (the interval itself beyond the
    threshold), so a small run warns rather than fails on noise."""
    out: list[Verdict] = []
    games = s["run"]["games"]
    errors = [p for p in s["static"] if p["severity"] == "error"]
    warnings = [p for p in s["static"] if p["severity"] != "error"]
    if errors:
        out.append(Verdict(FAIL, "static checks", f"{len(errors)} error(s) in the deck, first: {errors[0]['where']}: "
                                                  f"{errors[0]['message']}"))
    elif warnings:
        out.append(Verdict(WARN, "static checks", f"{len(warnings)} warning(s), first: {warnings[0]['where']}: "
                                                  f"{warnings[0]['message']}"))
    else:
        out.append(Verdict(PASS, "static checks", "counts, distributions and conditions are consistent"))

    least = int(th.get("sample", "min_games"))
    if games < least:
        out.append(Verdict(WARN, "sample", f"{games} games are few: intervals are wide and rare events unseen; run "
                                           f"--games {least} or more for firm verdicts"))

    med = s["length"]["minutes"]["median"]
    box = s["length"]["box_minutes"]
    if box and med is not None:
        f = th.get("length", "fail_factor")
        lo, hi = box
        m = s["length"]["minutes"]
        text = f"median {med:.1f} min (5-95%: {m['p5']:.0f}-{m['p95']:.0f}) against the box's {lo:g}-{hi:g} min"
        if lo <= med <= hi:
            out.append(Verdict(PASS, "game length", text))
        elif lo * (1 - f) <= med <= hi * (1 + f):
            out.append(Verdict(WARN, "game length", text))
        else:
            out.append(Verdict(FAIL, "game length", text + f" (beyond {lo * (1 - f):g}-{hi * (1 + f):g})"))

    seats = s["outcome"]["seats"]
    spread = s["outcome"]["seat_spread"]
    if spread is not None and all(r["rate"] is not None for r in seats):
        out.append(_seat_balance(seats, th))
    ties = s["outcome"]["ties"]
    warn, fail = th.get("balance", "tie_rate_warn"), th.get("balance", "tie_rate_fail")
    out.append(Verdict(FAIL if ties["low"] > fail else WARN if ties["rate"] > warn else PASS, "ties",
                       f"{ties['rate'] * 100:.1f}% of games end in a tie"))
    stall = s["outcome"]["stalls"]
    warn, fail = th.get("stalls", "stall_rate_warn"), th.get("stalls", "stall_rate_fail")
    out.append(Verdict(FAIL if stall["rate"] > fail else WARN if stall["rate"] > warn else PASS, "stalls",
                       f"{stall['count']} game(s) stopped without a result ({stall['rate'] * 100:.2f}%: turn cap, "
                       "loops, stuck positions)"))
    if spec is not None and spec.verdicts is not None:
        for v in spec.verdicts(s, th):
            out.append(v if isinstance(v, Verdict) else
                       Verdict(**v) if isinstance(v, dict) else Verdict(v.status, v.check, v.message))
    m = s["skill"]["matrix"]
    names = s["skill"]["bots"]
    if len(names) >= 2 and names[0] in m.get(names[1], {}):
        weak, strong = names[0], names[1]
        g, r = m[strong][weak], m[weak][strong]
        gap = (g["rate"] or 0) - (r["rate"] or 0)
        need = th.get("skill", "skill_gap_warn")
        _, low, high = diff_interval(g["count"], g["of"], r["count"], r["of"])
        line = (f"{strong} wins {g['rate'] * 100:.0f}% of its seats against {weak}'s {r['rate'] * 100:.0f}% "
                f"(the difference {low * 100:+.1f} to {high * 100:+.1f} points, 95%, over {g['games']:,} games)")
        if len(names) >= 3 and strong in m.get(names[2], {}):
            sg, gs = m[names[2]][strong], m[strong][names[2]]
            line += f"; {names[2]} {sg['rate'] * 100:.0f}% against {strong}'s {gs['rate'] * 100:.0f}%"
        if gap <= need:  # the gap a designer asks for is not there: for sure, or the games are too few to tell
            line += (": luck dominates" if high <= need else
                     f": too few games to tell whether the gap reaches {need * 100:.0f} points; "
                     "raise --skill-games")
        out.append(Verdict(PASS if gap > need else WARN, "skill", line))
    ri = s["skill"]["richness"]
    share = ri["turns_with_choice"]["rate"]
    if share is not None:
        out.append(Verdict(PASS if share >= th.get("richness", "choice_share_warn") else WARN, "decisions",
                           richness_text(ri)))
    return out


def judged(summary: dict, th: Thresholds, spec) -> list[Verdict]:
    """The summary's verdicts (:func:`judge`), kept in it too: its overall ``verdict`` and its ``verdicts``."""
    verdicts = judge(summary, th, spec)
    summary["verdict"] = worst(v.status for v in verdicts)
    summary["verdicts"] = [v.as_dict() for v in verdicts]
    return verdicts


def richness_text(ri: dict) -> str:
    """Decision richness in one sentence: per turn (a turn with at least one real choice) and per decision
    (a choice or forced), so the two shares read together."""
    turns = ri["turns_with_choice"]
    text = f"{turns['rate'] * 100:.0f}% of turns hold at least one real choice (two or more legal actions)"
    forced = ri.get("forced_share")
    if forced is not None and ri.get("decisions"):
        text += (f"; of the {ri['decisions']:,} decisions, {(1 - forced) * 100:.1f}% offered a choice and "
                 f"{forced * 100:.1f}% were forced (a single legal action)")
    if ri.get("legal_actions_mean") is not None:
        text += f"; {ri['legal_actions_mean']:.1f} legal actions per decision on average"
    return text


def _seat_balance(seats: list[dict], th: Thresholds) -> Verdict:
    """Seat balance: the best and worst seat's win rates, their difference with Newcombe's 95% interval.  A
    WARN follows the estimate; a FAIL needs the whole interval above the FAIL threshold; a WARN whose interval
    still reaches 0 says that the seats may be even."""
    warn, fail = th.get("balance", "seat_spread_warn"), th.get("balance", "seat_spread_fail")
    best = max(range(len(seats)), key=lambda i: seats[i]["rate"])
    worst = min(range(len(seats)), key=lambda i: seats[i]["rate"])
    b, w = seats[best], seats[worst]
    spread, low, high = diff_interval(b["count"], b["of"], w["count"], w["of"])
    rates = ", ".join(f"{r['rate'] * 100:.1f}%" for r in seats)
    text = (f"win rate by seat {rates}: spread {spread * 100:.1f} points between seat {b['seat']} and seat "
            f"{w['seat']} (95% interval {max(0.0, low) * 100:.1f} to {high * 100:.1f})")
    status = FAIL if low > fail else WARN if spread > warn else PASS
    if status == WARN and low <= 0:
        text += (f"; above the {warn * 100:g}-point warning, but the interval does not rule out even seats: "
                 "more games will tell")
    elif status == WARN:
        text += f"; above the {warn * 100:g}-point warning"
    elif status == FAIL:
        text += f"; above {fail * 100:g} points with 95% confidence"
    return Verdict(status, "seat balance", text)


# ------------------------------------------------------------------ replay
def replay(data, seed: int, players: int, bots_text: str, rules: dict, strict: bool = True,
           turn_cap: int | None = None, expansions: set[str] | None = None,
           thresholds: Thresholds | None = None) -> list[str]:
    """One game, move by move, as lines of text.  The turn cap is the run's
    (``thresholds``, or the engine's defaults) unless given."""
    spec = get_spec(data)
    if turn_cap is None:
        turn_cap = int((thresholds or Thresholds()).bind(spec).get("stalls", "turn_cap"))
    data = with_expansions(data, expansions)
    game = spec.make(data, players, **rules)
    bots = parse_bots(bots_text or spec.default_bots, players, spec)
    lines = [f"{spec.title}: replay of game seed {seed}, {players} players, bots {', '.join(bots)}"]
    log: list[str] = []
    first = {"done": False, "step": None}

    def on_action(step, state, player, action):
        first["step"] = step
        if not first["done"]:
            first["done"] = True
            lines.extend(log)
            log.clear()
            lines.append("setup:")
            lines.extend("  " + x for x in state.describe().splitlines())
        else:
            lines.extend("  " + x if not x.startswith("--") else x for x in log)
            log.clear()
        lines.append(f"  [{step}] P{player + 1} ({bots[player]}): {state.action_to_string(action)}")

    try:
        state, _ = play(game, seed, bots, PlayOptions(strict=strict, turn_cap=turn_cap), log=log, on_action=on_action)
        record = state.record()
    except Exception as exc:  # noqa: BLE001 - the moves so far, then the failure in one line
        raise replay_failure(game, seed, first["step"], exc, lines + ["  " + x for x in log]) from None
    lines.extend("  " + x for x in log)
    lines.append(f"end: {spec.end_reasons.get(record.end, record.end)} after {record.turns} turns "
                 f"({record.rounds} rounds, {record.actions} actions)")
    lines.append("final position:")
    lines.extend("  " + x for x in state.describe().splitlines())
    return lines


__all__ = ["Options", "Result", "Verdict", "validate_game", "replay", "deck_checks", "game_seed", "get_spec",
           "has_rules"]
