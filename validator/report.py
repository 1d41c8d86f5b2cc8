"""The validation folder: report.html (self-contained, plots inline as SVG drawn
by matplotlib), summary.json and the engine's own csv files
(``GameSpec.csv_files``).  games.csv is streamed by the run.

The generic sections (run record, static checks, length, outcome, lead and
drama, skill, failures) read only the generic blocks of summary.json; an
engine's sections (``GameSpec.sections``) come between drama and skill.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from model import csvsafe
from model.atomic import write_files
from validator.kit import get_spec
from validator.kit.spec import option_text
from validator.kit.html import BLUE, GREEN, GREY, ORANGE, RED, bars, ci, esc, num, pct, plt, svg, table, whole_numbers

CAVEAT = "Bots are not people: read these figures as the deck's tendencies under simple, tireless play."

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#1d1d1f;
background:#f6f6f4;line-height:1.45}
main{max-width:1060px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:1.6rem;margin:.2em 0 .1em}h2{font-size:1.2rem;margin:1.8em 0 .3em;border-bottom:2px solid #e4e4e0;
padding-bottom:.2em}h3{font-size:1rem;margin:1.2em 0 .3em}
.sub{color:#666;margin:0 0 1em}.look{margin:.2em 0 .6em}.caveat{color:#777;font-size:.85rem;font-style:italic;
margin:.3em 0 .8em}
table{border-collapse:collapse;margin:.4em 0 .8em;font-size:.88rem}th,td{padding:3px 9px;border-bottom:1px solid #eee;
text-align:right;vertical-align:top;white-space:nowrap}td.l{white-space:normal}
th{background:#f3f3f0;font-weight:600;white-space:normal}td.l,th.l{text-align:left}
.wide{overflow-x:auto;max-width:100%}
.badge{display:inline-block;min-width:44px;text-align:center;font-weight:700;border-radius:4px;padding:1px 6px;
color:#fff;font-size:.8rem}
.PASS{background:#2b8a3e}.WARN{background:#d9822b}.FAIL{background:#c92a2a}
.big{font-size:1.3rem;padding:4px 14px}
.verdicts td{border-bottom:1px solid #eee}.plot svg{max-width:100%;height:auto}
.grid{display:flex;flex-wrap:wrap;gap:18px}.grid>div{flex:1 1 420px}
code{background:#f1f1ee;padding:0 4px;border-radius:3px}
.dead{background:#fff3e0}.muted{color:#999}
.matrix td{text-align:center;min-width:90px}
nav a{margin-right:12px;font-size:.88rem}
"""


# ------------------------------------------------------------------ files
def _csv_text(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csvsafe.row(header))
    w.writerows(csvsafe.row(r) for r in rows)  # (a card named "=cmd|..." stays text in a spreadsheet)
    return buf.getvalue()


def write_outputs(out_dir: Path, summary: dict, game, spec, drawing=None) -> list[Path]:
    """summary.json, the engine's tables and report.html (with the charts ``drawing`` - a
    :class:`validator.drawing.Drawing` - drew while the games were played, where their figures have not
    changed since), all made before any is written."""
    files = {out_dir / "summary.json": json.dumps(summary, indent=2, sort_keys=False) + "\n"}
    if spec.csv_files is not None:
        for name, (header, rows) in spec.csv_files(summary).items():
            files[out_dir / name] = _csv_text(header, rows)
    files[out_dir / "report.html"] = render_html(summary, spec, drawing.done(summary) if drawing is not None else None)
    return write_files(files)


# ------------------------------------------------------------------ plots
def plot_minutes(length: dict) -> str:
    pyplot = plt()
    hist = length["minutes_histogram"]
    box = length["box_minutes"]
    fig, ax = pyplot.subplots(figsize=(6.2, 2.6))
    xs = [float(k) for k in hist]
    ys = list(hist.values())
    # one-minute bins
    bins: dict[int, int] = {}
    for x, y in zip(xs, ys):
        bins[int(x)] = bins.get(int(x), 0) + y
    if box:
        ax.axvspan(box[0], box[1], color=GREEN, alpha=0.12, label=f"box {box[0]:g}-{box[1]:g} min")
    bars(ax, list(bins), list(bins.values()), width=0.9, align="edge", color=BLUE)
    med = length["minutes"]["median"]
    if med is not None:
        ax.axvline(med, color="#1d1d1f", lw=1, ls="--", label=f"median {med:.1f}")
    ax.set_xlabel("estimated minutes per game")
    ax.set_ylabel("games")
    ax.legend(frameon=False, loc="upper right")
    return svg(fig)


def plot_turns(length: dict) -> str:
    pyplot = plt()
    hist = length["turns_histogram"]
    fig, ax = pyplot.subplots(figsize=(6.2, 2.4))
    turns = [int(k) for k in hist]
    bars(ax, turns, list(hist.values()), width=0.9, color=GREY)
    whole_numbers(ax, turns)
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    return svg(fig)


def plot_seats(outcome: dict) -> str:
    pyplot = plt()
    seats = outcome["seats"]
    fig, ax = pyplot.subplots(figsize=(4.2, 2.6))
    xs = [r["seat"] for r in seats]
    shares = [_share_of(r) for r in seats]
    ys = [x["value"] or 0 for x in shares]
    err = [[max(0.0, y - (x["low"] or 0)) for y, x in zip(ys, shares)],
           [max(0.0, (x["high"] or 0) - y) for y, x in zip(ys, shares)]]
    ax.bar(xs, ys, color=BLUE, yerr=err, capsize=4)
    ax.axhline(outcome["fair_share"], color=RED, lw=1, ls="--", label="mean seat")
    ax.set_xticks(xs, [f"seat {x}" for x in xs])
    ax.set_ylabel("share of the wins (95% CI)")
    ax.set_ylim(0, max(0.05, max((x["high"] or 0) for x in shares) * 1.15))
    ax.legend(frameon=False)
    return svg(fig)


def _share_of(r: dict) -> dict:
    """A seat's share of the wins (a shared win split evenly), or its win rate in a summary made before shares."""
    return r.get("share") or {"value": r["rate"], "low": r["low"], "high": r["high"]}


def _share_text(x: dict) -> str:
    if x.get("value") is None:
        return "-"
    return f"{x['value'] * 100:.1f}% <span class='muted'>[{x['low'] * 100:.1f}, {x['high'] * 100:.1f}]</span>"


def plot_drama(d: dict) -> str:
    pyplot = plt()
    fig, (left, right) = pyplot.subplots(1, 2, figsize=(6.4, 2.3), gridspec_kw={"width_ratios": [1, 1.2]})
    changes = {int(k): v for k, v in d["lead_changes"]["histogram"].items()}
    bars(left, list(changes), list(changes.values()), width=0.8, color=GREY)
    whole_numbers(left, list(changes))
    left.set_xlabel("lead changes per game")
    left.set_ylabel("games")
    tenths = [0] * 11  # 0-9%, ..., 90-99% of the game, and the end
    for k, v in d["decided"]["histogram"].items():
        tenths[int(k) // 10] += v
    bars(right, [b * 10 + 5 for b in range(10)], tenths[:10], width=9, color=BLUE)
    bars(right, [106], [tenths[10]], width=9, color=ORANGE)
    right.set_xticks([0, 20, 40, 60, 80, 106], ["0", "20", "40", "60", "80%", "end"])
    right.set_xlabel("when the winner took the lead for good")
    right.set_ylabel("games")
    fig.tight_layout()
    return svg(fig)


#: the generic charts by name, and the summary block each draws
_CHARTS = {"minutes": plot_minutes, "turns": plot_turns, "seats": plot_seats, "drama": plot_drama}
_CHART_INPUTS = (("minutes", "length"), ("turns", "length"), ("seats", "outcome"), ("drama", "drama"))


# ------------------------------------------------------------------ html
def _section(anchor: str, title: str, look: str, body: str) -> str:
    return (f"<section id='{anchor}'><h2>{esc(title)}</h2><p class='look'>{look}</p>"
            f"<p class='caveat'>{esc(CAVEAT)}</p>{body}</section>")


def _drama_body(d: dict, chart) -> str:
    lc, cb, dec = d["lead_changes"], d["comebacks"], d["decided"]
    n = d["games_with_one_winner"]
    rows = [["lead changes per game", num(lc["mean"], 2), num(lc["median"]), num(lc["p5"]), num(lc["p95"]),
             num(lc["max"], 0)]]
    p = dec["percent_of_game"]
    if p:
        rows.append(["% of the game after which the winner led for good", num(p["mean"]), num(p["median"]),
                     num(p["p5"]), num(p["p95"]), num(p["max"], 0)])
    deficit = cb["deficit_overcome"]
    if deficit:
        rows.append(["largest gap a winner closed (standing points)", num(deficit["mean"]), num(deficit["median"]),
                     num(deficit["p5"]), num(deficit["p95"]), num(deficit["max"])])
    shares = [
        ["the lead changed at least once", ci(lc["games_with_a_change"])],
        ["the winner was behind at some point (a comeback)", ci(cb["winner_behind"])],
        ["decided in the first half (the winner led from then on)", ci(dec["first_half"])],
        ["the winner led from the first round to the end", ci(dec["led_throughout"])],
        ["the winner did not lead alone before the end", ci(dec["not_before_the_end"])],
    ]
    worst = ", ".join(f"{_ordinal(int(k))} {pct(v / n if n else None)}" for k, v in cb["winner_worst_place"].items())
    return ("<div class='grid'><div>"
            + table(["per game", "mean", "median", "5th pct", "95th pct", "max"], rows)
            + f"<p>{num(lc['per_round'], 2)} lead changes per round with a leader. The winner spent "
              f"{pct(cb['rounds_behind_share'])} of the rounds behind; lowest place the winner fell to: "
              f"{esc(worst) or '-'}.</p></div><div>"
            + table(["share of games", "[95% CI]"], shares)
            + "</div></div>"
            + f"<div class='plot'>{chart('drama', d)}</div>"
            + f"<p class='muted'>Standings are read at the start of every round and once at the end of the game, "
              f"in {esc(d['sample'])} (the lead-change figures count all of them, the others the games with one "
              f"winner). Standing: {esc(d['standing'])}. The leader is the player strictly ahead of everyone still "
              "in; a shared lead is skipped when counting lead changes. A player who outlasts the others leads alone "
              "at the end by definition.</p>")


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def render_html(s: dict, spec=None, drawing=None) -> str:
    """report.html from summary.json alone (``spec``: the engine, found from the run record when not given;
    ``drawing``: charts and sections drawn while the games were played, taken where they still hold)."""
    spec = spec or get_spec(s["run"]["game"])
    if drawing is not None:
        chart = drawing.chart
        engine = drawing.engine_sections(s) if spec.sections is not None else []
    else:
        def chart(name, block):
            return _CHARTS[name](block)

        engine = list(spec.sections(s)) if spec.sections is not None else []
    extra: dict[str, list[str]] = {}  # generic section anchor -> engine bodies appended to it
    own = []
    for sec in engine:
        if sec.into:
            extra.setdefault(sec.into, []).append(sec.body)
        else:
            own.append(sec)
    run = s["run"]
    timing = s["timing"]
    verdict = s["verdict"]
    parts = []
    parts.append(f"<h1>{esc(run['title'])}: deck validation</h1>")
    parts.append(f"<p class='sub'>{run['games']:,} simulated games, {run['players']} players, bots "
                 f"{esc(', '.join(sorted(set(run['bots']))))}, master seed {run['master_seed']}</p>")
    parts.append(f"<p><span class='badge big {verdict}'>{verdict}</span></p>")
    parts.append(table(["", "check", "finding"],
                       [[badge(v["status"]), esc(v["check"]), esc(v["message"])]
                        for v in s["verdicts"]], left=3, cls="verdicts"))
    if s.get("until_sure"):
        from .sure import lines as sure_lines

        parts.append("<p class='look'>" + "<br>".join(esc(line) for line in sure_lines(s)) + "</p>")
    nav = [("run", "run record"), ("static", "static checks"), ("length", "length"), ("outcome", "outcome")]
    if s.get("players"):
        nav.append(("players", "player counts"))
    if s.get("drama"):
        nav.append(("drama", "drama"))
    nav += [(sec.anchor, sec.title.lower()) for sec in own]
    nav += [("skill", "skill"), ("failures", "failures")]
    parts.append("<nav>" + "".join(f"<a href='#{esc(a)}'>{esc(t)}</a>" for a, t in nav) + "</nav>")

    def section(anchor: str, title: str, look: str, body: str) -> str:
        return _section(anchor, title, look, body + "".join(extra.get(anchor, [])))

    # run record
    rows = [
        ["game", f"{esc(run['title'])} (<code>{esc(run['game'])}</code>)"],
        ["deck hash", f"<code>{run['deck_hash']}</code>"],
        ["rules hash", f"<code>{run['rules_hash']}</code>"],
        ["tool version", esc(run["tool_version"])],
        ["bots (by player)", esc(", ".join(run["bots"]))],
        ["games", f"{run['games']:,} (+ {run['skill_games_per_pair']:,} per bot pairing for the skill matrix)"],
        ["players", run["players"]],
        ["master seed", run["master_seed"]],
        ["turn cap", run["turn_cap"]],
        ["strict invariants", "on" if run["strict"] else "off"],
        ["rules options", esc(", ".join(f"{k.replace('_', '-')}={option_text(v)}"
                                        for k, v in run["rules_options"].items()))],
        ["thresholds", esc(run["thresholds_source"])],
        ["wall time", f"{timing['wall_seconds']:.1f} s"],
        ["games per second", f"{timing['games_per_second']:,} (main games, {timing['workers']} "
                             f"worker{'s' if timing['workers'] != 1 else ''}"
                             f"{', Dask ' + esc(timing['scheduler']) if timing['scheduler'] else ''})"],
    ]
    parts.append(section("run", "Run record", "What was simulated: the same deck hash, rules hash, options and seed "
                         "give the same figures.", table(["", ""], rows, left=2) + _readings_body(run)))

    # static checks
    if s["static"]:
        body = table(["severity", "where", "problem"], [[esc(p["severity"]), f"<code>{esc(p['where'])}</code>",
                                                         esc(p["message"])] for p in s["static"]], left=3)
    else:
        body = "<p>No problems: the sheets and the engine's own deck checks found nothing.</p>"
    parts.append(section("static", "Static deck checks", "Problems found in the sheets before any game is played: "
                         "errors here make the verdict FAIL.", body))

    # length
    L = s["length"]
    rows = []
    for key, label in (("turns", "turns"), ("rounds", "rounds"), ("actions", "decisions"), ("minutes", "minutes")):
        m = L[key]
        rows.append([label, num(m["mean"]), num(m["median"]), num(m["p5"]), num(m["p95"]), num(m["min"], 0),
                     num(m["max"], 0)])
    box = L["box_minutes"]
    look = (f"Is the median (dashed) inside the box's {box[0]:g}-{box[1]:g} minutes (green band)? A wide spread means "
            "some games drag or end abruptly." if box else "How long games last; the manifest gives no playtime.")
    inside = f"<p>{ci(L['inside_box'])} of games fall inside the box.</p>" if "inside_box" in L else ""
    run_th = run["thresholds"]["time"]
    model = (f"<p class='muted'>Minutes are estimated as {run_th['seconds_per_turn']:g} s per turn plus "
             f"{run_th['seconds_per_action']:g} s per decision a player takes"
             f"{' plus ' + format(run_th['setup_minutes'], 'g') + ' min setup' if run_th['setup_minutes'] else ''}; "
             "change them in the thresholds file.</p>")
    body = (table(["", "mean", "median", "5th pct", "95th pct", "min", "max"], rows) + inside + model +
            f"<div class='grid'><div class='plot'>{chart('minutes', L)}</div><div class='plot'>{chart('turns', L)}</div>"
            "</div>")
    parts.append(section("length", "Game length", look, body))

    # outcome
    O = s["outcome"]
    seat_rows = [[f"seat {r['seat']}" + (" (starts)" if r["seat"] == 1 else ""), _share_text(_share_of(r)), ci(r),
                  r["count"], r["solo_wins"], r["of"]] for r in O["seats"]]
    spread = O.get("seat_spread_interval") or [None, None]
    spread_text = pct(O["seat_spread"]) + ("" if spread[0] is None else
                                           f" <span class='muted'>[{spread[0] * 100:.1f}, {spread[1] * 100:.1f}]"
                                           "</span>")
    ends = [[esc(v["label"]), v["count"], pct(v["rate"])] for v in O["ends"].values()]
    elim = [[esc(v["label"]), v["count"], num(v["per_game"], 2), num(v["mean_turn"]),
             " / ".join(str(x) for x in v["by_seat"])] for v in O["eliminations"].values()]
    body = ("<div class='grid'><div>"
            + table(["seat", "share of the wins [95% CI]", "win rate [95% CI]", "wins", "solo wins", "games"],
                    seat_rows)
            + f"<p>A shared win gives each winner an equal part of the game (the share); the win rate counts it "
              f"as a win for each. The mean seat's share {pct(O['fair_share'])}; spread between the best and the "
              f"worst seat {spread_text}. Ties {ci(O['ties'])}; completed {ci(O['completed'])}; turn cap "
              f"{ci(O['turn_cap'])}.</p>"
            + f"</div><div class='plot'>{chart('seats', O)}</div></div>"
            + "<h3>How games ended</h3>" + table(["end", "games", "share"], ends))
    if elim:
        body += ("<h3>How players were eliminated</h3>"
                 + table(["cause", "players", "per game", "mean turn", "by seat 1 / 2 / ..."], elim))
    body += _counters_body(s, spec)
    parts.append(section("outcome", "Outcome", "Does any seat win clearly more than the mean seat (the dashed "
                         "line)? Ties, stalls and turn-cap hits should be rare.", body))

    if s.get("players"):
        parts.append(section("players", "Seat balance by player count", "Is the start player's edge real (its "
                             "interval above zero) at some player counts and not at others?", _players_body(s)))

    # lead changes, comebacks, decisiveness
    if s.get("drama"):
        parts.append(section("drama", "Lead and drama", "Does the lead change hands and do winners come from "
                             "behind, or does whoever leads after the first rounds usually win? A game decided early "
                             "plays its last rounds as a formality.", _drama_body(s["drama"], chart)))

    # the engine's own sections
    for sec in own:
        parts.append(section(sec.anchor, sec.title, sec.look, sec.body))

    # skill
    sk = s["skill"]
    matrix = sk["matrix"]
    if matrix:
        names = [b for b in sk["bots"] if b in matrix]
        rows = []
        for a in names:
            row = [f"<b>{esc(a)}</b>"]
            for b in names:
                r = matrix[a].get(b)
                row.append("-" if a == b or r is None else ci(r))
            rows.append(row)
        some = next(iter(next(iter(matrix.values())).values()))
        body = (table(["row bot's seat win rate against the column bot"] + names, rows, cls="matrix")
                + f"<p class='muted'>{some['games']:,} games per pairing, seats alternating between the two bots "
                  f"(one seat in {len(O['seats'])}: {pct(1 / len(O['seats']))}; a shared win counts for each "
                  "winner). If the stronger bot does not win more, luck dominates.</p>")
    elif run["skill_games_per_pair"]:
        body = "<p>No skill matrix: the engine offers no heuristic for the greedy and search bots.</p>"
    else:
        body = "<p>Skill games were not run (--skill-games 0).</p>"
    ri = sk["richness"]
    forced = ri["forced_share"]
    body += (f"<h3>Decision richness</h3><p>Per turn: {ci(ri['turns_with_choice'])} of turns hold at least one real "
             "choice (two or more legal actions). Per decision: of the "
             f"{ri['decisions']:,} decisions, {pct(None if forced is None else 1 - forced)} offered a choice and "
             f"{pct(forced)} were forced (a single legal action); {num(ri['legal_actions_mean'])} legal actions "
             "per decision on average. A turn often holds several decisions, so a turn with a choice may also "
             "hold forced ones.</p>")
    ladder = list(sk["bots"])[::-1]  # strongest first
    look = ("Skill pays when " + " and ".join(f"{esc(b)} beats {esc(a)}" for b, a in zip(ladder, ladder[1:])) + "."
            if len(ladder) >= 2 else "Skill pays when a stronger bot beats a weaker one.")
    parts.append(section("skill", "Skill", look,
                         body))

    # failures
    if s["failures"]:
        rules = " ".join(f"--rule {k.replace('_', '-')}={v}" for k, v in run["rules_options"].items()
                         if v != run["rules_defaults"].get(k))
        rows = [[esc(f["label"]), esc(f["stream"]), f["count"], "<br>".join(
            f"<code>pnp validate {esc(run['game'])} --replay {e['seed']} --players {run['players']} "
            f"--bots {esc(e['bots'])}{' ' + esc(rules) if rules else ''}</code>"
            for e in f["examples"][:3])] for f in s["failures"]]
        body = table(["failure", "games of", "count", "replay (first games)"], rows, left=2)
    else:
        body = ("<p>None: no position without a legal action, no repeated position, no game reached the turn cap "
                f"of {run['turn_cap']}.</p>")
    parts.append(section("failures", "Failures", "Positions the rules do not cover, loops and turn-cap hits; each "
                         "seed replays its game move by move.", body))

    return page(f"{run['title']}: deck validation ({verdict})", parts)


def page(title: str, parts: list[str], css: str = "") -> str:
    """A self-contained page of the validator's reports: the report's stylesheet (and ``css``), then
    ``parts``, one per line."""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{esc(title)}</title>"
            f"<style>{CSS}{css}</style></head><body><main>" + "\n".join(parts) + "</main></body></html>\n")


def badge(status: str) -> str:
    """A verdict's PASS / WARN / FAIL badge."""
    return f"<span class='badge {esc(status)}'>{esc(status)}</span>"


def _readings_body(run: dict) -> str:
    """The rules options in play that are not the rulebook's literal text: readings of a silent or unclear
    rulebook, the engine's own additions, and options set on the command line."""
    readings = run.get("readings") or []
    if not readings:
        return "<p>Every rules option in play is the rulebook as written.</p>"
    rows = []
    for r in readings:
        others = ", ".join(f"<code>--rule {esc(r['option'])}={esc(o)}</code>" for o in r.get("others", []))
        rows.append([f"<code>{esc(r['option'])}={esc(option_text(r['value']))}</code>", esc(r["reading"]), others or "-"])
    return ("<h3>Readings in play</h3><p class='muted'>Where the rulebook is silent or reads two ways, the option "
            "below says which reading these games played (docs/rules-notes.md quotes each sentence).</p>"
            + table(["option", "reading", "the other reading"], rows, left=3))


def _players_body(s: dict) -> str:
    rows, verdicts = [], []
    for block in s["players"]:
        edge = block["first_edge"]
        seats = " / ".join(pct(_share_of(r)["value"]) for r in block["seats"])
        spread = block.get("seat_spread_interval") or [None, None]
        spread_text = "-" if block.get("seat_spread") is None else (
            f"{block['seat_spread'] * 100:.1f} pts" + ("" if spread[0] is None else
                                                       f" [{spread[0] * 100:.1f}, {spread[1] * 100:.1f}]"))
        if edge is None:
            rows.append([block["players"], f"{block['games']:,}", seats, spread_text, "-"])
            continue
        rows.append([block["players"], f"{block['games']:,}", seats, spread_text,
                     f"{edge['value'] * 100:+.1f} pts [{edge['low'] * 100:+.1f}, {edge['high'] * 100:+.1f}]"])
        real = "real" if edge["low"] > 0 else "a disadvantage" if edge["high"] < 0 else "not shown"
        verdicts.append(f"{block['players']} players: {real}")
    return (table(["players", "games", "share of the wins by seat 1 / 2 / ...", "spread [95% CI]",
                   "start player's edge over the mean seat [95% CI]"], rows)
            + f"<p>The start player's edge: {esc('; '.join(verdicts))}. Each count is played with the same bots and "
              "master seed; the main run gives its own count's row.</p>")


def _counters_body(s: dict, spec) -> str:
    """The engine's declared counters (totals and per game) and per-player counters (by seat)."""
    games = s["run"]["games"]
    out = ""
    counts = s.get("counts") or {}
    if counts:
        rows = [[esc(k.replace("_", " ")), esc(spec.counters.get(k, "")), f"{v:,}",
                 num(v / games if games else None, 2)] for k, v in counts.items()]
        out += "<h3>Counted per game</h3>" + table(["counter", "what it counts", "total", "per game"], rows, left=2)
    per_player = s.get("per_player") or {}
    if per_player:
        rows = [[esc(k.replace("_", " ")), esc(v["label"]), f"{v['total']:,}", num(v["per_game"], 2),
                 " / ".join(str(x) for x in v["by_seat"])] for k, v in per_player.items()]
        out += "<h3>Counted per player</h3>" + table(["counter", "what it counts", "total", "per game",
                                                      "by seat 1 / 2 / ..."], rows, left=2)
    return out
