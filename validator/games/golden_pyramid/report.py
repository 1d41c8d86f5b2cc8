"""The Golden Pyramid's report sections and verdicts, read from summary.json's ``golden`` block."""

from __future__ import annotations

from validator.kit import ReportSection, Verdict
from validator.kit.html import BLUE, GREEN, ORANGE, RED, ci, esc, num, pct, plt, svg, table

from .stats import th_get

SOURCE_NAMES = {"vp_levels": "tile levels (1-4 per tile with its symbol)",
                "vp_columns": "column colours (2/3/4 of a colour, two pairs)",
                "vp_neighbours": "neighbouring columns of the same colour",
                "builder_penalties": "builder out of place (-1)",
                "forced_penalties": "forced builder moves (-1)",
                "vp_spent": "spent (empty-hand draws, trading after a refresh)",
                "vp_bonus": "end bonus for the highest level (2/3/4)"}


def _stat(h, key="mean", digits=1) -> str:
    return num(h.get(key) if h else None, digits)


def _levels_plot(levels: list[dict], games: int) -> str:
    """The share of games in which each level is complete, by turn."""
    hists = [(lv["level"], {int(k): v for k, v in lv["histogram"].items()}) for lv in levels if lv["histogram"]]
    if not hists or not games:
        return ""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(6.4, 2.4))
    for (level, hist), colour in zip(hists, (BLUE, GREEN, ORANGE, RED)):
        xs = sorted(hist)
        done, ys = 0, []
        for x in xs:
            done += hist[x]
            ys.append(done / games)
        ax.step([xs[0] - 1] + xs, [0.0] + ys, where="post", color=colour, label=f"level {level}")
    ax.set_xlabel("turn")
    ax.set_ylabel("share of games")
    ax.set_title("levels complete, by turn")
    ax.set_ylim(0, 1.02)
    ax.legend(frameon=False, loc="lower right")
    return "<div class='plot'>" + svg(fig) + "</div>"


def sections(summary: dict) -> list[ReportSection]:
    s = summary.get("golden")
    if not s or not s.get("games"):
        return []
    out = []
    n = s["players"]
    rows = [[f"level {lv['level']}", ci(lv["completed"]), _stat(lv["turns"]), _stat(lv["turns"], "median", 0),
             f"{_stat(lv['turns'], 'p5', 0)}-{_stat(lv['turns'], 'p95', 0)}", _stat(lv["rounds"])]
            for lv in s["levels"]]
    body = table(["level", "games completing it", "mean turn", "median", "5-95%", "mean round"], rows)
    body += (f"<p class='muted'>The game ends at once when level 4 is built: its row is the end of the game. "
             f"{n} players; a round is {n} turns.</p>")
    out.append(ReportSection("golden-progress", "Pyramid progress",
                             "How many turns until each level of the pyramid is complete, and until the end.",
                             body + _levels_plot(s["levels"], s["decided"])))
    src = s["vp_sources"]
    rows = [[esc(SOURCE_NAMES[k]), num(v["per_player"], 2), num(v["per_winner"], 2)] for k, v in src.items()]
    fv = s["final_vp"]
    body = table(["source", "VP per player and game", "VP per winner and game"], rows)
    body += (f"<p>Final score: mean {_stat(fv['all'])} VP (winners {_stat(fv['winners'])}); highest level "
             "contributed to, by share of players: "
             + ", ".join(f"level {esc(k)}: {pct(v / max(1, sum(s['top_level']['all'].values())))}"
                         for k, v in s["top_level"]["all"].items()) + ".</p>")
    out.append(ReportSection("golden-vp", "Victory points by source",
                             "Where the points come from: a source that decides games, or one that never counts.",
                             body))
    t = s["tiles"]
    body = table(["figure", "value"], [
        ["tiles built per game", num(t["per_game"])],
        ["tiles built without their symbol (no tile points)", ci(t["no_symbol"])],
        ["... per game", _stat(t["no_symbol_per_game"], "mean", 2)],
        ["tiles built with the builder out of place (-1)", ci(t["builder_penalties"])],
        ["forced builder moves per game", num(t["forced_moves_per_game"], 2)]])
    out.append(ReportSection("golden-tiles", "Tiles and symbols",
                             "Tiles taken without their symbol: the symbol stacks run out when the deck's symbols "
                             "and the tiles do not match.", body))
    m, tr = s["market"], s["trading"]
    rows = [["market replacements per game (3 of a colour; setup included)", _stat(m["replaced_per_game"], "mean", 2)],
            ["... games where the bag could not give a better market", esc(m["stuck"])],
            ["2:1 trades with the market per game", num(m["trades_per_game"], 2)],
            ["market refreshes per game (optional rule)", num(m["refreshes_per_game"], 2)],
            ["offers to players per game", num(tr["offers_per_game"], 2)],
            ["offers accepted", ci(tr["accepted"])],
            ["games with a trade between players", ci(tr["games_with_a_trade"]) if tr["games_with_a_trade"] else "-"],
            ["trades whose offerer won the game", ci(tr["offerer_won"])],
            ["trades whose accepting player won the game", ci(tr["accepter_won"])],
            ["win rate of players who traded", ci(tr["traders_win"])],
            ["win rate of players who did not", ci(tr["others_win"])]]
    diff = tr["difference"]
    body = table(["figure", "value"], rows)
    if diff:
        more = "more" if diff[0] >= 0 else "less"
        body += (f"<p>Players who traded win {num(abs(diff[0]) * 100)} points {more} often than the others "
                 f"<span class='muted'>[{num(diff[1] * 100)}, {num(diff[2] * 100)}]</span> - a correlation: "
                 "bots accept an offer only when it helps them, and offer when they are short.</p>")
    out.append(ReportSection("golden-trade", "Market and trading",
                             "Market churn and how often trades happen, and who gains from them.", body))
    fs = s["first_seat"]
    if fs["advantage"] is not None:
        side = "above" if fs["advantage"] >= 0 else "below"
        body = (f"<p>Seat 1 (the start player) wins {num(abs(fs['advantage']) * 100)} points {side} a fair share "
                f"<span class='muted'>[{num(fs['low'] * 100)}, {num(fs['high'] * 100)}]</span> with {n} players. "
                "Whether the advantage holds with 2, 4 and 6 players takes one run per player count: "
                "<code>pnp validate golden-pyramid --players 2</code>, <code>--players 4</code>, "
                "<code>--players 6</code>.</p>")
        out.append(ReportSection("golden-seats", "First player", "Is the start player's advantage real?", body,
                                 into="outcome"))
    st = s["stalls"]
    body = table(["figure", "value"], [
        ["turns begun by a player who could build nowhere", ci(st["blocked_turns"])],
        ["rounds per game in which nobody could build", _stat(st["blocked_rounds_per_game"], "mean", 2)],
        ["longest such run per game (rounds): mean / max",
         f"{_stat(st['longest_blocked'], 'mean', 2)} / {_stat(st['longest_blocked'], 'max', 0)}"],
        [f"games with {st['blocked_run']}+ such rounds in a row", ci(st["games_blocked"])],
        ["longest stretch without a new tile (rounds): mean / max",
         f"{_stat(st['longest_idle'], 'mean', 2)} / {_stat(st['longest_idle'], 'max', 0)}"],
        ["games ended by the stall-rounds rule", esc(st["stall_ends"])],
        ["turns passed for want of any action", esc(st["passes"])],
        ["cards drawn with an empty hand per game (1 VP each)", num(st["empty_draws_per_game"], 2)]])
    out.append(ReportSection("golden-stalls", "Stalls",
                             "Stretches in which nobody can build: the pyramid waits while players gather.", body))
    return out


def verdicts(summary: dict, th) -> list[Verdict]:
    s = summary.get("golden")
    if not s or not s.get("games"):
        return []
    out = []
    share = s["tiles"]["no_symbol"]
    warn = th_get(th, "no_symbol_warn")
    if share["rate"] is not None:
        status = "WARN" if share["rate"] > warn else "PASS"
        out.append(Verdict(status, "tiles without symbol", f"{pct(share['rate'])} of tiles were built without their "
                           f"symbol (no tile points); warn above {pct(warn)}"))
    g = s["stalls"]["games_blocked"]
    warn = th_get(th, "blocked_games_warn")
    fail = th_get(th, "blocked_games_fail")
    if g["rate"] is not None:
        status = "FAIL" if g["low"] > fail else "WARN" if g["rate"] > warn else "PASS"
        out.append(Verdict(status, "nobody can build", f"{pct(g['rate'])} of games had {s['stalls']['blocked_run']}+ "
                           f"rounds in a row in which no player could build (warn above {pct(warn)})"))
    fs = s["first_seat"]
    warn = th_get(th, "first_seat_warn")
    fail = th_get(th, "first_seat_fail")
    if fs["advantage"] is not None:
        status = "FAIL" if fs["low"] > fail else "WARN" if fs["advantage"] > warn else "PASS"
        side = "above" if fs["advantage"] >= 0 else "below"
        out.append(Verdict(status, "first player", f"seat 1 (the start player) wins {num(abs(fs['advantage']) * 100)} "
                           f"points {side} a fair share with {s['players']} players (95%: {num(fs['low'] * 100)} to "
                           f"{num(fs['high'] * 100)}); warn above +{num(warn * 100)}"))
    churn = s["market"]["replaced_per_game"]
    warn = th_get(th, "market_churn_warn")
    if churn and churn.get("mean") is not None:
        status = "WARN" if churn["mean"] > warn else "PASS"
        out.append(Verdict(status, "market churn", f"the market was replaced {num(churn['mean'], 2)} times per game "
                           f"(3 or more cubes of a colour); warn above {num(warn, 1)}"))
    return out

