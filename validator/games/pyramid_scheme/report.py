"""Pyramid Scheme's part of the report: the Goals, Rewards and Cards sections
(with their plots), the deck-exhaustion line of the Outcome section, the
verdicts on them, and cards.csv and goals.csv."""

from __future__ import annotations

from validator.kit import ReportSection, Verdict
from validator.kit.html import PURPLE, ci, esc, num, pct, plt, svg, table

PASS, WARN = "PASS", "WARN"

#: thresholds of the verdicts below: section -> key -> (default, help)
THRESHOLDS = {
    "deck": {
        "exhaustion_rate_warn": (0.25, "share of games ended by an exhausted deck (the rulebook calls it rare): "
                                       "above this WARN"),
        "dead_cards_warn": (True, "WARN when a design is never placed, or a victim with a condition never flips"),
        "goal_rate_warn": (0.02, "WARN when a goal is completed in fewer than this share of the games it is open "
                                 "(the whole 95% interval below it)"),
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
        n = int(th.get("deck", "min_sample"))
        dead = [c["id"] for c in s["cards"]
                if c["dead"] and (c["drawn"] >= n if c["placed"] == 0 else c["placed"] >= n)]
        out.append(Verdict(WARN if dead else PASS, "dead cards",
                           f"{len(dead)} design(s) never placed or never flipped: {', '.join(dead[:8])}"
                           f"{' ...' if len(dead) > 8 else ''}" if dead else
                           f"no victim stays unplaced or unflipped over {n}+ chances"))
    rate = th.get("deck", "goal_rate_warn")
    rare = [g for g in s["goals"] if g["dealt"] and g["high"] < rate]
    out.append(Verdict(WARN if rare else PASS, "goals",
                       ("rarely completed: " + ", ".join(f"{g['name']} {g['rate'] * 100:.1f}%" for g in rare))
                       if rare else f"no goal is confidently completed in under {rate * 100:g}% of its games"))
    impact = th.get("deck", "card_impact_warn")
    strong = [c for c in s["cards"]
              if c["win_diff"] is not None and (c["diff_low"] > impact or c["diff_high"] < -impact)]
    out.append(Verdict(WARN if strong else PASS, "card impact",
                       ("placing these changes the win rate by more than "
                        f"{impact * 100:.0f} points (95% confidence): "
                        + ", ".join(f"{c['id']} {c['win_diff'] * 100:+.0f}" for c in strong[:8]))
                       if strong else f"no design moves its owner's win rate by more than {impact * 100:.0f} points "
                                      "with 95% confidence"))
    return out


# ------------------------------------------------------------------ plots
def plot_goals(s: dict) -> str:
    pyplot = plt()
    goals = [g for g in s["goals"] if g["dealt"]]
    fig, ax = pyplot.subplots(figsize=(6.2, 0.28 * len(goals) + 0.8))
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
    fig, ax = pyplot.subplots(figsize=(6.4, 0.16 * len(rows) + 0.9))
    ys = list(range(len(rows)))
    for y, c in zip(ys, rows):
        col = COLOURS.get(c["color"], "#555")
        ax.plot([c["diff_low"], c["diff_high"]], [y, y], color=col, lw=1.2)
        ax.plot([c["win_diff"]], [y], "o", color=col, ms=3)
    ax.axvline(0, color="#1d1d1f", lw=0.8)
    ax.set_yticks(ys, [f"{c['id']} {c['name']}" for c in rows], fontsize=6)
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
    body = (table(["goal", "requires", "open in", "completed", "rate [95% CI]", "mean turn"], rows, left=2)
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
