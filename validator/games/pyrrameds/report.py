"""Pyrrameds' report sections, verdicts and extra CSV files, read from summary.json's
``pyrrameds`` block (written by stats.py)."""

from __future__ import annotations

from html import escape

from validator.kit import ReportSection
from validator.kit.html import FONT_SIZE

from .stats import th_get


def _table(header: list[str], rows: list[list], hot: set[int] | None = None) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = []
    for i, r in enumerate(rows):
        cls = ' class="hot"' if hot and i in hot else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{escape(_fmt(v))}</td>" for v in r) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return "" if not ci else f" (95% interval {100 * ci[0]:.1f}-{100 * ci[1]:.1f}%)"


def _bars(rows: list[dict]) -> str:
    """An inline SVG of mean game length (turns) per box selection and player count."""
    rows = [r for r in rows if "turns_mean" in r]
    if not rows:
        return ""
    boxes = list(dict.fromkeys(r["boxes"] for r in rows))
    players = sorted({r["players"] for r in rows})
    top = max(r["turns_p90"] for r in rows) or 1
    gw = max(90, 7 * max(len(b) for b in boxes) + 10)  # a box's group: its bars and its label (11 px text)
    w, h, pad, bw = max(gw * len(boxes), 85 * len(players)) + 60, 200, 40, 18
    colors = ("#2e6da4", "#c0392b", "#4a7c2a", "#d98c1f", "#6c4f9e")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="sans-serif" font-size="{FONT_SIZE}">']
    base = h - 30
    scale = (base - 18) / top
    for i, b in enumerate(boxes):
        x0 = pad + i * gw
        for j, p in enumerate(players):
            r = next((r for r in rows if r["boxes"] == b and r["players"] == p), None)
            if r is None:
                continue
            x = x0 + j * (bw + 2)
            y = base - r["turns_mean"] * scale
            out.append(f'<rect x="{x}" y="{y:.1f}" width="{bw}" height="{base - y:.1f}" '
                       f'fill="{colors[j % len(colors)]}"><title>{escape(b)}, {p} players: mean '
                       f'{r["turns_mean"]} turns</title></rect>')
            y10, y90 = base - r["turns_p10"] * scale, base - r["turns_p90"] * scale
            out.append(f'<line x1="{x + bw / 2}" x2="{x + bw / 2}" y1="{y10:.1f}" y2="{y90:.1f}" stroke="#333"/>')
        out.append(f'<text x="{x0 + len(players) * (bw + 2) / 2:.0f}" y="{h - 12}" text-anchor="middle">'
                   f'{escape(b)}</text>')
    for j, p in enumerate(players):
        out.append(f'<rect x="{pad + j * 85}" y="2" width="11" height="11" fill="{colors[j % len(colors)]}"/>'
                   f'<text x="{pad + j * 85 + 15}" y="12">{p} players</text>')
    out.append(f'<text x="4" y="{base}" >0</text><text x="4" y="{base - top * scale + 4:.1f}">{top}</text>')
    out.append("</svg>")
    return '<div class="plot">' + "".join(out) + "</div>"


def sections(summary: dict) -> list[ReportSection]:
    s = summary.get("pyrrameds")
    if not s:
        return []
    out = []
    boxes = s.get("by_box") or []
    if boxes:
        rows = []
        for r in boxes:
            if "error" in r:
                rows.append([r["boxes"], r["players"], "-", "-", "-", "-", "-", r["error"]])
                continue
            rows.append([r["boxes"], r["players"], r["row"], r["turns_mean"],
                         f'{r["turns_median"]} ({r["turns_p10"]}-{r["turns_p90"]})', _pct(r["seat_rates"][0]),
                         _pct(r["seat_spread"]), f'{r["stalemates"]} of {r["games"]}'])
        body = (f"<p>This run played {escape(' + '.join(s['boxes']))} (a starting row of {s['row']}). Every box "
                f"selection the rows allow, at every player count, {boxes[0]['games']} greedy games each from fixed "
                "seeds: game length in turns (bars: mean; lines: 10th-90th percentile), the start player's win rate, "
                "the spread between the best and worst seat, and games ended by a stalemate.</p>"
                + _bars(boxes)
                + _table(["boxes", "players", "row", "mean turns", "median (p10-p90)", "start player wins",
                          "seat spread", "stalemates"], rows))
        out.append(ReportSection("pyr-boxes", "Boxes and player counts",
                                 "Each expansion should change the length a little and keep the seats even.", body))
    p = s["patients"]
    rows, hot = [], set()
    for i, d in enumerate(p["by_design"]):
        rows.append([d["name"], d["id"], d["box"], d["requires"], d["dealt"], d["placed"], _pct(d["rate"])])
        if d["id"] in p["never_placed"] or (d["rate"] is not None and d["rate"] < 0.2):
            hot.add(i)
    body = (f"<p>On {_pct(p['placeable_share'])}{_ci(p['placeable_ci'])} of the turns a player began holding a "
            "patient, one of them could be placed. Per patient: how often it was dealt into a hand and placed "
            "(highlighted: placed in under 20% of its games, or never).</p>"
            + _table(["patient", "id", "box", "needs", "dealt", "placed", "placed rate"], rows, hot))
    if p["never_placed"]:
        body += f"<p><b>Never placed:</b> {escape(', '.join(p['never_placed']))}.</p>"
    out.append(ReportSection("pyr-patients", "Patients", "A patient nobody can place is dead weight in a hand.",
                             body))
    sw, stl = s["swaps"], s["stalls"]
    ends = [[k, v, _pct(v / max(1, s["games"]))] for k, v in stl["ends"].items()]
    body = (f"<p>A swap was the only kind of move on {_pct(sw['swap_only_share'])}{_ci(sw['swap_only_ci'])} of "
            f"the turns; {sw['swaps_per_game']} swaps per game; {sw['passes']} turns on which a player could "
            f"neither place nor swap. {_pct(stl['stalemate_share'])}{_ci(stl['stalemate_ci'])} of the games ended "
            f"in a stalemate (a whole round without a placement: fewest cards won), {stl['no_result']} without a "
            "result. The stalemate is our ending, not the rulebook's (which ends a game only with an empty hand): "
            "<code>--rule stalemate=never</code> plays without it.</p>" + _table(["end", "games", "share"], ends))
    out.append(ReportSection("pyr-swaps", "Swaps and stalls", "Swaps should be a choice, not the only move; "
                             "stalemates should be rare.", body))
    info = s.get("information")
    mixed = s.get("mixed_bots") or {}
    if info or mixed:
        body = ""
        if info:
            gr, fg = info["greedy"], info["forgetful"]
            lo, hi = info["difference_ci"]
            body += (f"<p>{info['games']} games with greedy and forgetful players on alternate seats (swapped every "
                     f"other game): greedy, which remembers every card it was shown or saw revealed "
                     f"({info['cards_seen_per_game']} per game), won {_pct(gr['rate'])} of its seats; forgetful, "
                     f"the same player without that memory, {_pct(fg['rate'])}. The value of information: "
                     f"{100 * info['difference']:+.1f} points (95% interval {100 * lo:+.1f} to {100 * hi:+.1f}).</p>")
        if mixed:
            body += "<p>Bots of this run's mixed seats:</p>" + _table(
                ["bot", "seats", "wins", "win rate"], [[b, m["seats"], m["wins"], _pct(m["rate"])]
                                                       for b, m in mixed.items()])
        out.append(ReportSection("pyr-info", "Value of information", "Showing cards should matter: if memory "
                                 "wins nothing, the rewards for patients are empty.", body))
    ops = s.get("operations") or []
    if ops:
        pg = s["per_game"]
        rows = [[o["name"], o["id"], o["number"], o["effect"], o["dealt"], o["placed"]] for o in ops]
        body = (f"<p>Per game: {pg['operations']} operations placed, {pg['free_swaps']} free swaps, {pg['given']} "
                f"cards given, {pg['peeks']} hands looked at.</p>"
                + _table(["operation", "id", "number", "effect", "dealt", "placed"], rows))
        out.append(ReportSection("pyr-operations", "Operations", "Every operation should get played.", body))
    return out


def verdicts(summary: dict, th) -> list[dict]:
    s = summary.get("pyrrameds")
    if not s:
        return []
    out = []
    n = int(th_get(th, "pyrrameds", "min_sample", 30))
    out.append(_never_placed("patients placed", "patient", s["patients"]["by_design"], n))
    if s.get("operations"):
        out.append(_never_placed("operations placed", "operation", s["operations"], n))
    share, ci = s["swaps"]["swap_only_share"], s["swaps"]["swap_only_ci"]
    warn = th_get(th, "pyrrameds", "swap_only_warn", 0.25)
    out.append({"status": "WARN" if share > warn else "PASS", "check": "swap as the only move",
                "message": f"{_pct(share)} of turns (WARN above {_pct(warn)})"})
    st, ci = s["stalls"]["stalemate_share"], s["stalls"]["stalemate_ci"]
    warn, fail = th_get(th, "pyrrameds", "stalemate_warn", 0.05), th_get(th, "pyrrameds", "stalemate_fail", 0.25)
    status = "FAIL" if ci[0] > fail else "WARN" if st > warn else "PASS"
    out.append({"status": status, "check": "stalemates",
                "message": f"{_pct(st)} of games ended in a stalemate, our ending where the rulebook has none "
                           f"(WARN above {_pct(warn)}, FAIL above {_pct(fail)} with 95% confidence)"})
    chance = s["patients"]["placeable_share"]
    low = th_get(th, "pyrrameds", "patient_chance_warn", 0.2)
    if chance is not None:
        out.append({"status": "WARN" if chance < low else "PASS", "check": "patients placeable",
                    "message": f"a held patient could be placed on {_pct(chance)} of turns (WARN below {_pct(low)})"})
    return out


def csv_files(summary: dict) -> dict:
    s = summary.get("pyrrameds")
    if not s:
        return {}
    pat = [[d["id"], d["name"], d["box"], d["requires"], d["dealt"], d["placed"], d["rate"]]
           for d in s["patients"]["by_design"]]
    out = {"patients.csv": (["id", "name", "box", "needs", "dealt", "placed", "placed_rate"], pat)}
    if s.get("by_box"):
        rows = [[r["boxes"], r["players"], r.get("row"), r.get("turns_mean"), r.get("turns_median"),
                 r.get("seat_spread"), r.get("stalemates"), r.get("error", "")] for r in s["by_box"]]
        out["boxes.csv"] = (["boxes", "players", "row", "turns_mean", "turns_median", "seat_spread", "stalemates",
                             "error"], rows)
    return out


def _never_placed(check: str, kind: str, designs: list[dict], n: int) -> dict:
    """Every design dealt but never placed, by name and id, with how often it was dealt (those dealt fewer
    than ``n`` times told apart: chance alone may explain them)."""
    never = sorted((d for d in designs if d["dealt"] and not d["placed"]), key=lambda d: -d["dealt"])
    if not never:
        dealt = [d for d in designs if d["dealt"]]
        if not dealt:
            return {"status": "PASS", "check": check, "message": f"no {kind} was dealt"}
        low = min(dealt, key=lambda d: (d["placed"] / d["dealt"], d["id"]))
        return {"status": "PASS", "check": check,
                "message": f"every {kind} dealt was placed at least once; the least often: {low['name']} "
                           f"({low['id']}) in {_pct(low['placed'] / low['dealt'])} of the {low['dealt']:,} games "
                           "it was dealt"}
    firm = [d for d in never if d["dealt"] >= n]
    few = [d for d in never if d["dealt"] < n]
    parts = []
    if firm:
        parts.append(", ".join(f"{d['name']} ({d['id']}, dealt {d['dealt']:,} times)" for d in firm))
    if few:
        parts.append(f"dealt fewer than {n} times: " + ", ".join(f"{d['name']} ({d['id']}, {d['dealt']})"
                                                                  for d in few))
    return {"status": "WARN", "check": check, "message": "never placed: " + "; ".join(parts)}


def card_effects(summary: dict) -> list[dict]:
    """Each patient's and operation's placed rate (percent of the games it was dealt in), with its Wilson
    interval."""
    from validator.kit.stats import wilson

    s = summary.get("pyrrameds") or {}
    out = []
    for d in list(s.get("patients", {}).get("by_design", [])) + list(s.get("operations", [])):
        if not d["dealt"]:
            out.append({"id": d["id"], "name": d["name"], "measure": "placed in % of the games it was dealt",
                        "value": None, "low": None, "high": None})
            continue
        lo, hi = wilson(d["placed"], d["dealt"])
        out.append({"id": d["id"], "name": d["name"], "measure": "placed in % of the games it was dealt",
                    "value": round(100 * d["placed"] / d["dealt"], 2), "low": round(100 * lo, 2),
                    "high": round(100 * hi, 2)})
    return out
