"""The validation folder: report.html (self-contained, plots inline as SVG drawn
by matplotlib), summary.json, cards.csv and goals.csv.  games.csv
is streamed by the run."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

from model.atomic import write_file

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
th{background:#f3f3f0;font-weight:600}td.l,th.l{text-align:left}
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
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def write_outputs(out_dir: Path, summary: dict, game, spec) -> list[Path]:
    files = []
    files.append(write_file(out_dir / "summary.json", json.dumps(summary, indent=2, sort_keys=False) + "\n"))
    card_cols = ["id", "name", "deck", "color", "number", "requires", "effect", "drawn", "placed", "flipped",
                 "placed_per_game", "flip_rate", "player_games_placed", "win_rate_placed", "win_rate_not_placed",
                 "win_diff", "diff_low", "diff_high", "dead"]
    files.append(write_file(out_dir / "cards.csv", _csv_text(
        card_cols, [["" if c[k] is None else c[k] for k in card_cols] for c in summary["cards"]])))
    goal_cols = ["id", "name", "requires", "dealt", "claimed", "rate", "low", "high", "mean_turn"]
    files.append(write_file(out_dir / "goals.csv", _csv_text(
        goal_cols, [["" if g[k] is None else g[k] for k in goal_cols] for g in summary["goals"]])))
    files.append(write_file(out_dir / "report.html", render_html(summary)))
    return files


# ------------------------------------------------------------------ plots
BLUE, GREY, GREEN, RED, PURPLE, ORANGE = "#4c6ef5", "#868e96", "#2b8a3e", "#c92a2a", "#7950f2", "#d9822b"


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"svg.hashsalt": "pnp-validate", "svg.fonttype": "none", "font.size": 9,
                                "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def plot_minutes(s: dict) -> str:
    plt = _plt()
    hist = s["length"]["minutes_histogram"]
    box = s["length"]["box_minutes"]
    fig, ax = plt.subplots(figsize=(6.2, 2.6))
    xs = [float(k) for k in hist]
    ys = list(hist.values())
    # one-minute bins
    bins: dict[int, int] = {}
    for x, y in zip(xs, ys):
        bins[int(x)] = bins.get(int(x), 0) + y
    if box:
        ax.axvspan(box[0], box[1], color="#2b8a3e", alpha=0.12, label=f"box {box[0]:g}-{box[1]:g} min")
    ax.bar(list(bins), list(bins.values()), width=0.9, align="edge", color="#4c6ef5")
    med = s["length"]["minutes"]["median"]
    if med is not None:
        ax.axvline(med, color="#1d1d1f", lw=1, ls="--", label=f"median {med:.1f}")
    ax.set_xlabel("estimated minutes per game")
    ax.set_ylabel("games")
    ax.legend(frameon=False, loc="upper right")
    return _svg(fig)


def plot_turns(s: dict) -> str:
    plt = _plt()
    hist = s["length"]["turns_histogram"]
    fig, ax = plt.subplots(figsize=(6.2, 2.4))
    ax.bar([int(k) for k in hist], list(hist.values()), width=0.9, color="#868e96")
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    return _svg(fig)


def plot_seats(s: dict) -> str:
    plt = _plt()
    seats = s["outcome"]["seats"]
    fig, ax = plt.subplots(figsize=(4.2, 2.6))
    xs = [r["seat"] for r in seats]
    ys = [r["rate"] or 0 for r in seats]
    err = [[y - r["low"] for y, r in zip(ys, seats)], [r["high"] - y for y, r in zip(ys, seats)]]
    ax.bar(xs, ys, color="#4c6ef5", yerr=err, capsize=4)
    ax.axhline(s["outcome"]["fair_share"], color="#c92a2a", lw=1, ls="--", label="fair share")
    ax.set_xticks(xs, [f"seat {x}" for x in xs])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, max(0.05, max(r["high"] for r in seats) * 1.15))
    ax.legend(frameon=False)
    return _svg(fig)


def plot_drama(s: dict) -> str:
    d = s["drama"]
    plt = _plt()
    fig, (left, right) = plt.subplots(1, 2, figsize=(6.4, 2.3), gridspec_kw={"width_ratios": [1, 1.2]})
    changes = {int(k): v for k, v in d["lead_changes"]["histogram"].items()}
    left.bar(list(changes), list(changes.values()), width=0.8, color=GREY)
    left.set_xlabel("lead changes per game")
    left.set_ylabel("games")
    tenths = [0] * 11  # 0-9%, ..., 90-99% of the game, and the end
    for k, v in d["decided"]["histogram"].items():
        tenths[int(k) // 10] += v
    right.bar([b * 10 + 5 for b in range(10)], tenths[:10], width=9, color=BLUE)
    right.bar([106], [tenths[10]], width=9, color=ORANGE)
    right.set_xticks([0, 20, 40, 60, 80, 106], ["0", "20", "40", "60", "80%", "end"])
    right.set_xlabel("when the winner took the lead for good")
    right.set_ylabel("games")
    fig.tight_layout()
    return _svg(fig)


def plot_goals(s: dict) -> str:
    plt = _plt()
    goals = [g for g in s["goals"] if g["dealt"]]
    fig, ax = plt.subplots(figsize=(6.2, 0.28 * len(goals) + 0.8))
    names = [g["name"] for g in goals][::-1]
    rates = [g["rate"] or 0 for g in goals][::-1]
    lows = [(g["rate"] or 0) - g["low"] for g in goals][::-1]
    highs = [g["high"] - (g["rate"] or 0) for g in goals][::-1]
    ax.barh(names, rates, xerr=[lows, highs], color="#7950f2", capsize=2)
    ax.set_xlim(0, 1)
    ax.set_xlabel("completed when open (95% CI)")
    return _svg(fig)


def plot_cards(s: dict) -> str | None:
    plt = _plt()
    rows = [c for c in s["cards"] if c["win_diff"] is not None]
    if not rows:
        return None
    rows.sort(key=lambda c: c["win_diff"])
    colors = {"green": "#2b9348", "blue": "#1d6fd1", "pink": "#d6336c", "yellow": "#e0a800"}
    fig, ax = plt.subplots(figsize=(6.4, 0.16 * len(rows) + 0.9))
    ys = list(range(len(rows)))
    for y, c in zip(ys, rows):
        col = colors.get(c["color"], "#555")
        ax.plot([c["diff_low"], c["diff_high"]], [y, y], color=col, lw=1.2)
        ax.plot([c["win_diff"]], [y], "o", color=col, ms=3)
    ax.axvline(0, color="#1d1d1f", lw=0.8)
    ax.set_yticks(ys, [f"{c['id']} {c['name']}" for c in rows], fontsize=6)
    ax.set_xlabel("win rate when placed minus when not (95% CI)")
    return _svg(fig)


# ------------------------------------------------------------------ html
def _e(x) -> str:
    return html.escape(str(x))


def _pct(x, digits=1) -> str:
    return "-" if x is None else f"{x * 100:.{digits}f}%"


def _ci(r: dict) -> str:
    if r.get("rate") is None:
        return "-"
    return f"{r['rate'] * 100:.1f}% <span class='muted'>[{r['low'] * 100:.1f}, {r['high'] * 100:.1f}]</span>"


def _num(x, digits=1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _table(header: list[str], rows: list[list], left: int = 1, cls: str = "", row_cls=None) -> str:
    out = [f"<table class='{cls}'><tr>"]
    out += [f"<th class='{'l' if i < left else ''}'>{_e(h)}</th>" for i, h in enumerate(header)]
    out.append("</tr>")
    for j, r in enumerate(rows):
        rc = row_cls[j] if row_cls else ""
        out.append(f"<tr class='{rc}'>" + "".join(f"<td class='{'l' if i < left else ''}'>{v}</td>"
                                                   for i, v in enumerate(r)) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _section(anchor: str, title: str, look: str, body: str) -> str:
    return (f"<section id='{anchor}'><h2>{_e(title)}</h2><p class='look'>{look}</p>"
            f"<p class='caveat'>{_e(CAVEAT)}</p>{body}</section>")


def _drama_body(d: dict) -> str:
    lc, cb, dec = d["lead_changes"], d["comebacks"], d["decided"]
    n = d["games_with_one_winner"]
    rows = [["lead changes per game", _num(lc["mean"], 2), _num(lc["median"]), _num(lc["p5"]), _num(lc["p95"]),
             _num(lc["max"], 0)]]
    p = dec["percent_of_game"]
    if p:
        rows.append(["% of the game after which the winner led for good", _num(p["mean"]), _num(p["median"]),
                     _num(p["p5"]), _num(p["p95"]), _num(p["max"], 0)])
    deficit = cb["deficit_overcome"]
    if deficit:
        rows.append(["largest gap a winner closed (standing points)", _num(deficit["mean"]), _num(deficit["median"]),
                     _num(deficit["p5"]), _num(deficit["p95"]), _num(deficit["max"])])
    shares = [
        ["the lead changed at least once", _ci(lc["games_with_a_change"])],
        ["the winner was behind at some point (a comeback)", _ci(cb["winner_behind"])],
        ["decided in the first half (the winner led from then on)", _ci(dec["first_half"])],
        ["the winner led from the first round to the end", _ci(dec["led_throughout"])],
        ["the winner did not lead alone before the end", _ci(dec["not_before_the_end"])],
    ]
    worst = ", ".join(f"{_ordinal(int(k))} {_pct(v / n if n else None)}" for k, v in cb["winner_worst_place"].items())
    return ("<div class='grid'><div>"
            + _table(["per game", "mean", "median", "5th pct", "95th pct", "max"], rows)
            + f"<p>{_num(lc['per_round'], 2)} lead changes per round with a leader. The winner spent "
              f"{_pct(cb['rounds_behind_share'])} of the rounds behind; lowest place the winner fell to: "
              f"{_e(worst) or '-'}.</p></div><div>"
            + _table(["share of games", "[95% CI]"], shares)
            + "</div></div>"
            + f"<div class='plot'>{plot_drama({'drama': d})}</div>"
            + f"<p class='muted'>Standings are read at the start of every round and once at the end of the game, "
              f"in {_e(d['sample'])} (the lead-change figures count all of them, the others the games with one "
              f"winner). Standing: {_e(d['standing'])}. The leader is the player strictly ahead of everyone still "
              "in; a shared lead is skipped when counting lead changes. A player who outlasts the others leads alone "
              "at the end by definition.</p>")


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def render_html(s: dict) -> str:
    run = s["run"]
    timing = s["timing"]
    verdict = s["verdict"]
    parts = []
    parts.append(f"<h1>{_e(run['title'])}: deck validation</h1>")
    parts.append(f"<p class='sub'>{run['games']:,} simulated games, {run['players']} players, bots "
                 f"{_e(', '.join(sorted(set(run['bots']))))}, master seed {run['master_seed']}</p>")
    parts.append(f"<p><span class='badge big {verdict}'>{verdict}</span></p>")
    parts.append(_table(["", "check", "finding"],
                        [[f"<span class='badge {v['status']}'>{v['status']}</span>", _e(v["check"]), _e(v["message"])]
                         for v in s["verdicts"]], left=3, cls="verdicts"))
    parts.append("<nav>" + "".join(f"<a href='#{a}'>{t}</a>" for a, t in (
        ("run", "run record"), ("static", "static checks"), ("length", "length"), ("outcome", "outcome"),
        ("drama", "drama"), ("goals", "goals"), ("rewards", "rewards"), ("cards", "cards"), ("skill", "skill"),
        ("failures", "failures"))) + "</nav>")

    # run record
    rows = [
        ["game", f"{_e(run['title'])} (<code>{_e(run['game'])}</code>)"],
        ["deck hash", f"<code>{run['deck_hash']}</code>"],
        ["rules hash", f"<code>{run['rules_hash']}</code>"],
        ["tool version", _e(run["tool_version"])],
        ["bots (by player)", _e(", ".join(run["bots"]))],
        ["games", f"{run['games']:,} (+ {run['skill_games_per_pair']} per bot pairing for the skill matrix)"],
        ["players", run["players"]],
        ["master seed", run["master_seed"]],
        ["turn cap", run["turn_cap"]],
        ["strict invariants", "on" if run["strict"] else "off"],
        ["rules options", _e(", ".join(f"{k.replace('_', '-')}={v}" for k, v in run["rules_options"].items()))],
        ["thresholds", _e(run["thresholds_source"])],
        ["wall time", f"{timing['wall_seconds']:.1f} s"],
        ["games per second", f"{timing['games_per_second']:,} (main games, {timing['workers']} worker(s)"
                             f"{', Dask ' + _e(timing['scheduler']) if timing['scheduler'] else ''})"],
    ]
    parts.append(_section("run", "Run record", "What was simulated: the same deck hash, rules hash, options and seed "
                          "give the same figures.", _table(["", ""], rows, left=2)))

    # static checks
    if s["static"]:
        body = _table(["severity", "where", "problem"], [[_e(p["severity"]), f"<code>{_e(p['where'])}</code>",
                                                          _e(p["message"])] for p in s["static"]], left=3)
    else:
        body = "<p>No problems: counts match the rulebook, colours and numbers are evenly spread, every condition " \
               "and goal can be met.</p>"
    parts.append(_section("static", "Static deck checks", "Problems found in the sheets before any game is played: "
                          "errors here make the verdict FAIL.", body))

    # length
    L = s["length"]
    rows = []
    for key, label in (("turns", "turns"), ("rounds", "rounds"), ("actions", "decisions"), ("minutes", "minutes")):
        m = L[key]
        rows.append([label, _num(m["mean"]), _num(m["median"]), _num(m["p5"]), _num(m["p95"]), _num(m["min"], 0),
                     _num(m["max"], 0)])
    box = L["box_minutes"]
    look = (f"Is the median (dashed) inside the box's {box[0]:g}-{box[1]:g} minutes (green band)? A wide spread means "
            "some games drag or end abruptly." if box else "How long games last; the manifest gives no playtime.")
    inside = f"<p>{_ci(L['inside_box'])} of games fall inside the box.</p>" if "inside_box" in L else ""
    run_th = run["thresholds"]["time"]
    model = (f"<p class='muted'>Minutes are estimated as {run_th['seconds_per_turn']:g} s per turn plus "
             f"{run_th['seconds_per_action']:g} s per decision (actions, police placements, reward choices)"
             f"{' plus ' + format(run_th['setup_minutes'], 'g') + ' min setup' if run_th['setup_minutes'] else ''}; "
             "change them in the thresholds file.</p>")
    body = (_table(["", "mean", "median", "5th pct", "95th pct", "min", "max"], rows) + inside + model +
            f"<div class='grid'><div class='plot'>{plot_minutes(s)}</div><div class='plot'>{plot_turns(s)}</div></div>")
    parts.append(_section("length", "Game length", look, body))

    # outcome
    O = s["outcome"]
    seat_rows = [[f"seat {r['seat']}" + (" (starts)" if r["seat"] == 1 else ""), _ci(r), r["count"], r["solo_wins"],
                  r["of"]] for r in O["seats"]]
    ends = [[_e(v["label"]), v["count"], _pct(v["rate"])] for v in O["ends"].values()]
    elim = [[_e(v["label"]), v["count"], _num(v["per_game"], 2), _num(v["mean_turn"]),
             " / ".join(str(x) for x in v["by_seat"])] for v in O["eliminations"].values()]
    deck = O["deck_end_winning_smart_asses"]
    deck_line = (f"<p>When the deck ran out, the winner had {deck['median']:.0f} smart-asses (median; "
                 f"{deck['min']:.0f}-{deck['max']:.0f}).</p>" if deck else "")
    body = ("<div class='grid'><div>"
            + _table(["seat", "win rate [95% CI]", "wins", "solo wins", "games"], seat_rows)
            + f"<p>Fair share {_pct(O['fair_share'])}; spread {_pct(O['seat_spread'])}. Ties {_ci(O['ties'])}; "
              f"completed {_ci(O['completed'])}; turn cap {_ci(O['turn_cap'])}.</p>"
            + f"</div><div class='plot'>{plot_seats(s)}</div></div>"
            + "<h3>How games ended</h3>" + _table(["end", "games", "share"], ends) + deck_line
            + "<h3>How players were eliminated</h3>"
            + _table(["cause", "players", "per game", "mean turn", "by seat 1 / 2 / ..."], elim))
    parts.append(_section("outcome", "Outcome", "Does any seat win clearly more than its fair share (the dashed "
                          "line)? Ties, stalls and turn-cap hits should be rare.", body))

    # lead changes, comebacks, decisiveness
    if s.get("drama"):
        parts.append(_section("drama", "Lead and drama", "Does the lead change hands and do winners come from "
                              "behind, or does whoever leads after the first rounds usually win? A game decided early "
                              "plays its last rounds as a formality.", _drama_body(s["drama"])))

    # goals
    rows = [[_e(g["name"]), f"<code>{_e(g['requires'])}</code>", g["dealt"], g["claimed"],
             _ci({"rate": g["rate"], "low": g["low"], "high": g["high"]}) if g["dealt"] else "-",
             _num(g["mean_turn"])] for g in s["goals"]]
    body = (_table(["goal", "requires", "open in", "completed", "rate [95% CI]", "mean turn"], rows, left=2)
            + f"<div class='plot'>{plot_goals(s)}</div>")
    parts.append(_section("goals", "Goals", "Goals that are almost never completed never send police; goals that "
                          "are always completed early decide games by themselves.", body))

    # rewards
    rows = [[_e(r["reward"]), r["gained"], _num(r["per_game"], 2), r["had_effect"], _pct(r["effect_rate"])]
            for r in s["rewards"]]
    counts = s["counts"]
    count_line = ("<p>" + ", ".join(f"{_e(k.replace('_', ' '))}: {v:,}" for k, v in counts.items()) + "</p>"
                  if counts else "")
    body = _table(["reward", "gained", "per game", "had an effect", "share"], rows) + count_line + (
        "<p class='muted'>Had an effect: a token was taken from the supply, a target was chosen, a card discarded. "
        "Short counts are rewards lost because the supply was empty.</p>")
    parts.append(_section("rewards", "Rewards", "Rewards gained but seldom with an effect point at an empty supply "
                          "or a reward players do not want.", body))

    # cards
    crow, ccls = [], []
    for c in s["cards"]:
        diff = ("-" if c["win_diff"] is None else
                f"{c['win_diff'] * 100:+.1f} <span class='muted'>[{c['diff_low'] * 100:+.1f}, "
                f"{c['diff_high'] * 100:+.1f}]</span>")
        crow.append([f"<code>{_e(c['id'])}</code>", _e(c["name"]), _e(c["color"] or c["deck"]),
                     "" if c["number"] is None else c["number"], _e(c["requires"]), _e(c["effect"]), c["drawn"],
                     c["placed"], c["flipped"], _pct(c["flip_rate"], 0), _pct(c["win_rate_placed"]), diff])
        ccls.append("dead" if c["dead"] else "")
    dead = [c["id"] for c in s["cards"] if c["dead"]]
    forest = plot_cards(s)
    body = ((f"<p>Dead cards (never placed, or never flipped although they have a condition): "
             f"{_e(', '.join(dead))}.</p>" if dead else "<p>No dead cards.</p>")
            + (f"<div class='plot'>{forest}</div>" if forest else "")
            + _table(["id", "name", "colour", "no.", "requires", "effect", "drawn", "placed", "flipped", "flip rate",
                      "win rate placed", "difference [95% CI]"], crow, left=6, row_cls=ccls)
            + f"<p class='muted'>The difference compares the win rate of players who placed the card with those who "
              f"did not; it is shown from {run['thresholds']['deck']['min_sample']} player-games on. Correlation, "
              "not cause: strong players place more cards.</p>")
    parts.append(_section("cards", "Cards", "Look for intervals far from zero (cards that decide games) and for dead "
                          "cards (highlighted).", body))

    # skill
    sk = s["skill"]
    matrix = sk["matrix"]
    if matrix:
        names = [b for b in sk["bots"] if b in matrix]
        rows = []
        for a in names:
            row = [f"<b>{_e(a)}</b>"]
            for b in names:
                r = matrix[a].get(b)
                row.append("-" if a == b or r is None else _ci(r))
            rows.append(row)
        some = next(iter(next(iter(matrix.values())).values()))
        body = (_table(["row bot's seat win rate against the column bot"] + names, rows, cls="matrix")
                + f"<p class='muted'>{some['games']} games per pairing, seats alternating between the two bots "
                  f"(fair share {_pct(O['fair_share'])}). If the stronger bot does not win more, luck dominates.</p>")
    else:
        body = "<p>Skill games were not run (--skill-games 0).</p>"
    ri = sk["richness"]
    body += (f"<h3>Decision richness</h3><p>{_ci(ri['turns_with_choice'])} of turns offer a real choice (two or more "
             f"legal actions); {_num(ri['legal_actions_mean'])} legal actions per decision on average; "
             f"{_pct(ri['forced_share'])} of decisions are forced.</p>")
    parts.append(_section("skill", "Skill", "A deck rewards skill when search beats greedy and greedy beats random.",
                          body))

    # failures
    if s["failures"]:
        rules = " ".join(f"--rule {k.replace('_', '-')}={v}" for k, v in run["rules_options"].items()
                         if v != run["rules_defaults"].get(k))
        rows = [[_e(f["label"]), _e(f["stream"]), f["count"], "<br>".join(
            f"<code>pnp validate {_e(run['game'])} --replay {e['seed']} --players {run['players']} "
            f"--bots {_e(e['bots'])}{' ' + _e(rules) if rules else ''}</code>"
            for e in f["examples"][:3])] for f in s["failures"]]
        body = _table(["failure", "games of", "count", "replay (first games)"], rows, left=2)
    else:
        body = ("<p>None: no position without a legal action, no repeated position, no game reached the turn cap "
                f"of {run['turn_cap']}.</p>")
    parts.append(_section("failures", "Failures", "Positions the rules do not cover, loops and turn-cap hits; each "
                          "seed replays its game move by move.", body))

    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{_e(run['title'])}: "
            f"deck validation ({verdict})</title><style>{CSS}</style></head><body><main>"
            + "\n".join(parts) + "</main></body></html>\n")
