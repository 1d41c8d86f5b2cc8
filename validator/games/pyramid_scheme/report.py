"""Pyramid Scheme's part of the report: the Goals, Rewards and Cards sections
(with their plots), the deck-exhaustion line of the Outcome section, the
verdicts on them, and cards.csv and goals.csv."""

from __future__ import annotations

from validator.kit import ReportSection, Verdict
from validator.kit.html import PURPLE, ci, esc, intervals, num, pct, plt, svg, table

PASS, WARN = "PASS", "WARN"

#: thresholds of the verdicts below: section -> key -> (default, help)
THRESHOLDS = {
    "deck": {
        "exhaustion_rate_warn": (0.25, "share of games ended by an exhausted deck (the rulebook calls it rare): "
                                       "above this WARN"),
        "dead_cards_warn": (True, "WARN when a design is never placed, or a victim with a condition never flips"),
        "goal_rate_warn": (0.02, "WARN when a goal is completed in fewer than this share of the games it is open "
                                 "(the whole 95% interval below it; never completed too)"),
        "goal_rate_high_warn": (0.95, "WARN when a goal is completed in more than this share of the games it is "
                                      "open (the whole 95% interval above it): it decides nothing"),
        "card_impact_warn": (0.10, "WARN when placing a design changes its owner's win rate by more than this "
                                   "(the whole 95% interval beyond it)"),
        "min_sample": (30, "player-games with a design placed before its win-rate difference is shown; draws "
                           "(placements) before a never-placed (never-flipped) design counts as dead"),
    },
}

CARD_COLUMNS = ["id", "name", "deck", "color", "number", "requires", "effect", "drawn", "placed", "flipped",
                "placed_per_game", "flip_rate", "player_games_placed", "win_rate_placed", "win_rate_not_placed",
                "win_diff", "diff_low", "diff_high", "dead"]
GOAL_COLUMNS = ["id", "name", "requires", "dealt", "claimed", "rate", "low", "high", "mean_turn"]
COLOURS = {"green": "#2b9348", "blue": "#1d6fd1", "pink": "#d6336c", "yellow": "#e0a800"}


def csv_files(s: dict) -> dict[str, tuple[list, list]]:
    """cards.csv and goals.csv: one row per card design and per goal."""
    return {
        "cards.csv": (CARD_COLUMNS, [["" if c[k] is None else c[k] for k in CARD_COLUMNS] for c in s["cards"]]),
        "goals.csv": (GOAL_COLUMNS, [["" if g[k] is None else g[k] for k in GOAL_COLUMNS] for g in s["goals"]]),
    }


# ------------------------------------------------------------------ verdicts
def verdicts(s: dict, th) -> list[Verdict]:
    out = []
    ex = s["outcome"]["deck_exhausted"]["rate"]
    limit = th.get("deck", "exhaustion_rate_warn")
    out.append(Verdict(WARN if ex > limit else PASS, "deck exhaustion",
                       f"{ex * 100:.1f}% of games end with the deck exhausted (the rulebook calls it rare; "
                       f"limit {limit * 100:.0f}%)"))
    if th.get("deck", "dead_cards_warn"):
        out.append(_dead_cards(s, int(th.get("deck", "min_sample"))))
    out.append(_goals(s, th.get("deck", "goal_rate_warn"), th.get("deck", "goal_rate_high_warn")))
    out.append(_card_impact(s, th.get("deck", "card_impact_warn")))
    return out


def card_effects(s: dict) -> list[dict]:
    """Each design's win-rate difference (placed against not placed), in points with its 95% interval."""
    return [{"id": c["id"], "name": c["name"], "measure": "owner's win rate when placed minus when not (points)",
             "value": None if c["win_diff"] is None else round(c["win_diff"] * 100, 2),
             "low": None if c["diff_low"] is None else round(c["diff_low"] * 100, 2),
             "high": None if c["diff_high"] is None else round(c["diff_high"] * 100, 2)} for c in s.get("cards", [])]


def card_label(c: dict) -> str:
    """A design as the verdicts name it: its name and, in brackets, its id."""
    return f"{c['name']} ({c['id']})"


def _dead_cards(s: dict, n: int) -> Verdict:
    """Every design never placed, and every victim with a condition never flipped, is named; those with fewer
    than ``n`` chances (draws, placements) are told apart, since chance alone may explain them."""
    dead = [c for c in s["cards"] if c["dead"]]
    if not dead:
        return Verdict(PASS, "dead cards", "every design was placed, and every victim with a condition flipped")
    firm, few = [], []
    for c in sorted(dead, key=lambda c: (c["placed"] > 0, -(c["drawn"] if c["placed"] == 0 else c["placed"]))):
        if c["placed"] == 0:
            text, chances = f"{card_label(c)} never placed (drawn {c['drawn']:,} times)", c["drawn"]
        else:
            text, chances = f"{card_label(c)} never flipped (placed {c['placed']:,} times)", c["placed"]
        (firm if chances >= n else few).append(text)
    parts = []
    if firm:
        parts.append("; ".join(firm[:8]) + (f" and {len(firm) - 8} more" if len(firm) > 8 else ""))
    if few:
        parts.append(f"with fewer than {n} chances: " + "; ".join(few[:4])
                     + (f" and {len(few) - 4} more" if len(few) > 4 else ""))
    return Verdict(WARN, "dead cards", f"{len(dead)} design{'s' if len(dead) != 1 else ''}: " + "; ".join(parts))


def _beyond(x: float, limit: float) -> bool:
    """``x`` strictly above ``limit``, compared exactly (floating point's last digits aside)."""
    return round(x - limit, 9) > 0


def _goals(s: dict, rate: float, high: float) -> Verdict:
    """One rule for every goal, on the completion rate of the games it was open: WARN when the whole 95% interval
    lies under ``rate`` (rarely or never completed) or over ``high`` (nearly always completed); a goal whose
    estimate lies beyond a threshold while its interval reaches back is named as possibly so, which alone is no
    warning (0 completions in 93 games allow up to 4%: too few games to call it under 2%)."""
    goals = [g for g in s["goals"] if g["dealt"]]
    rare = [g for g in goals if _beyond(rate, g["high"])]
    easy = [g for g in goals if _beyond(g["low"], high)]
    maybe_rare = [g for g in goals if g not in rare and _beyond(rate, g["rate"])]
    maybe_easy = [g for g in goals if g not in easy and _beyond(g["rate"], high)]

    def said(g):
        what = "never completed" if not g["claimed"] else f"{g['rate'] * 100:.1f}%"
        return f"{g['name']} {what} [{g['low'] * 100:.1f}, {g['high'] * 100:.1f}] in {g['dealt']:,} games"

    parts = []
    if rare:
        parts.append(f"completed in under {rate * 100:g}% of their games (the whole 95% interval below): "
                     + ", ".join(said(g) for g in rare))
    if easy:
        parts.append(f"completed in over {high * 100:g}% of their games (the whole 95% interval above; a goal "
                     "nearly always met decides nothing): " + ", ".join(said(g) for g in easy))
    if maybe_rare:
        parts.append(f"possibly under {rate * 100:g}% (the interval reaches above it: too few games to tell): "
                     + ", ".join(said(g) for g in maybe_rare))
    if maybe_easy:
        parts.append(f"possibly over {high * 100:g}% (the interval reaches below it: too few games to tell): "
                     + ", ".join(said(g) for g in maybe_easy))
    if rare or easy:
        return Verdict(WARN, "goals", "; ".join(parts))
    if not goals:
        return Verdict(PASS, "goals", "no goal was open in these games")
    low = min(goals, key=lambda g: g["rate"])
    text = (f"every goal's completion rate may lie within {rate * 100:g}-{high * 100:g}%; the rarest: "
            f"{said(low)}")
    return Verdict(PASS, "goals", "; ".join([text] + parts))


def _card_impact(s: dict, impact: float) -> Verdict:
    """Designs whose whole 95% interval of the win-rate difference lies beyond ``impact`` WARN; the largest
    effects are listed in any case, by size, so the line agrees with the Cards table."""
    rows = sorted((c for c in s["cards"] if c["win_diff"] is not None), key=lambda c: (-abs(c["win_diff"]), c["id"]))
    if not rows:
        return Verdict(PASS, "card impact", "too few player-games with each design placed to measure its impact")
    strong = [c for c in rows if c["diff_low"] > impact or c["diff_high"] < -impact]

    def effect(c):
        return (f"{card_label(c)} {c['win_diff'] * 100:+.0f} [{c['diff_low'] * 100:+.0f}, "
                f"{c['diff_high'] * 100:+.0f}]")

    if strong:
        text = (f"placing these moves its owner's win rate by more than {impact * 100:.0f} points with 95% "
                "confidence: " + ", ".join(effect(c) for c in strong[:8]))
        rest = [c for c in rows if c not in strong][:max(0, 5 - len(strong[:8]))]
        if rest:
            text += "; next largest: " + ", ".join(effect(c) for c in rest)
        return Verdict(WARN, "card impact", text)
    return Verdict(PASS, "card impact", f"no design moves its owner's win rate by more than {impact * 100:.0f} points "
                   "with 95% confidence; the largest effects (points, 95% interval): "
                   + ", ".join(effect(c) for c in rows[:6]))


# ------------------------------------------------------------------ plots
def plot_goals(s: dict) -> str:
    pyplot = plt()
    goals = [g for g in s["goals"] if g["dealt"]]
    fig, ax = pyplot.subplots(figsize=(7.0, 0.3 * len(goals) + 0.9))
    names = [g["name"] for g in goals][::-1]
    rates = [g["rate"] or 0 for g in goals][::-1]
    lows = [(g["rate"] or 0) - g["low"] for g in goals][::-1]
    highs = [g["high"] - (g["rate"] or 0) for g in goals][::-1]
    ax.barh(names, rates, xerr=[lows, highs], color=PURPLE, capsize=2)
    ax.set_xlim(0, 1)
    ax.set_xlabel("completed when open (95% CI)")
    return svg(fig)


def plot_cards(s: dict) -> str | None:
    rows = [c for c in s["cards"] if c["win_diff"] is not None]
    if not rows:
        return None
    pyplot = plt()
    rows.sort(key=lambda c: c["win_diff"])
    fig, ax = pyplot.subplots(figsize=(7.6, 0.21 * len(rows) + 1.0))
    ys = list(range(len(rows)))
    intervals(ax, ys, [c["diff_low"] for c in rows], [c["diff_high"] for c in rows], [c["win_diff"] for c in rows],
              [COLOURS.get(c["color"], "#555") for c in rows], lw=1.2, ms=3)
    ax.axvline(0, color="#1d1d1f", lw=0.8)
    ax.set_yticks(ys, [f"{c['name']} ({c['id']})" for c in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("win rate when placed minus when not (95% CI)")
    return svg(fig)


# ------------------------------------------------------------------ sections
def sections(s: dict) -> list[ReportSection]:
    out = []
    deck = s["outcome"]["deck_end_winning_smart_asses"]
    if deck:
        out.append(ReportSection("deck-end", "", "", f"<p>When the deck ran out, the winner had {deck['median']:.0f} "
                                 f"smart-asses (median; {deck['min']:.0f}-{deck['max']:.0f}).</p>", into="outcome"))

    rows = [[esc(g["name"]), f"<code>{esc(g['requires'])}</code>", g["dealt"], g["claimed"],
             ci({"rate": g["rate"], "low": g["low"], "high": g["high"]}) if g["dealt"] else "-",
             num(g["mean_turn"])] for g in s["goals"]]
    never = [g["name"] for g in s["goals"] if g["dealt"] and not g["claimed"]]
    body = (table(["goal", "requires", "open in", "completed", "rate [95% CI]", "mean turn"], rows, left=2,
                  row_cls=["dead" if g["dealt"] and not g["claimed"] else "" for g in s["goals"]])
            + (f"<p>Never completed (highlighted): {esc(', '.join(never))}.</p>" if never else "")
            + f"<div class='plot'>{plot_goals(s)}</div>")
    out.append(ReportSection("goals", "Goals", "Goals that are almost never completed never send police; goals that "
                             "are always completed early decide games by themselves.", body))

    rows = [[esc(r["reward"]), r["gained"], num(r["per_game"], 2), r["had_effect"], pct(r["effect_rate"])]
            for r in s["rewards"]]
    body = table(["reward", "gained", "per game", "had an effect", "share"], rows) + (
        "<p class='muted'>Had an effect: a token was taken from the supply, a target was chosen, a card discarded. "
        "The token flow (tokens spent, police placed, rewards lost to an empty supply, reshuffles) is counted "
        "under <a href='#outcome'>Outcome</a>.</p>")
    out.append(ReportSection("rewards", "Rewards", "Rewards gained but seldom with an effect point at an empty "
                             "supply or a reward players do not want.", body))

    crow, ccls = [], []
    for c in s["cards"]:
        diff = ("-" if c["win_diff"] is None else
                f"{c['win_diff'] * 100:+.1f} <span class='muted'>[{c['diff_low'] * 100:+.1f}, "
                f"{c['diff_high'] * 100:+.1f}]</span>")
        crow.append([f"<code>{esc(c['id'])}</code>", esc(c["name"]), esc(c["color"] or c["deck"]),
                     "" if c["number"] is None else c["number"], esc(c["requires"]), esc(c["effect"]), c["drawn"],
                     c["placed"], c["flipped"], pct(c["flip_rate"], 0), pct(c["win_rate_placed"]), diff])
        ccls.append("dead" if c["dead"] else "")
    dead = [c["id"] for c in s["cards"] if c["dead"]]
    forest = plot_cards(s)
    min_sample = s["run"]["thresholds"]["deck"]["min_sample"]
    body = ((f"<p>Dead cards (never placed, or never flipped although they have a condition): "
             f"{esc(', '.join(dead))}.</p>" if dead else "<p>No dead cards.</p>")
            + (f"<div class='plot'>{forest}</div>" if forest else "")
            + table(["id", "name", "colour", "no.", "requires", "effect", "drawn", "placed", "flipped", "flip rate",
                     "win rate placed", "difference [95% CI]"], crow, left=6, row_cls=ccls)
            + f"<p class='muted'>The difference compares the win rate of players who placed the card with those who "
              f"did not; it is shown from {min_sample} player-games on. Correlation, not cause: strong players place "
              "more cards.</p>")
    out.append(ReportSection("cards", "Cards", "Look for intervals far from zero (cards that decide games) and for "
                             "dead cards (highlighted).", body))
    return out
