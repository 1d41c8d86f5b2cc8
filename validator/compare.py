"""``pnp validate GAME --compare REF``: did my change help?

The reference REF is one of

* another data folder (its ``cards.csv``, ``goals.csv`` and ``templates/``),
* a git revision of the data folder (the sheets and manifests as committed there), or
* a saved ``summary.json`` (or the validation folder holding it; its ``games.csv``
  beside it, when there, pairs the games).

A folder or a revision is played with the same options and the same game seeds as
the deck now (common random numbers), so each headline figure's difference is a
paired one: its 95% interval comes from a paired bootstrap over the games, far
narrower than two separate runs would give.  A summary is checked first: the same
game and the same rules hash (engine and options), and its run settings (players,
games, seed, bots, rules options, boxes) are adopted.  :func:`compare_game` returns
the figures side by side, the verdicts that changed, and the cards whose impact
moved; ``worse`` lists the verdicts that got worse (the command's exit code).

A verdict near its threshold flips with noise, so a change of status counts as
*worse* only when it is no noise: the check does not depend on chance (the static
checks, the sample size), or the headline figure behind it (:data:`BEHIND`) moved
beyond its interval, which leaves out 0.  Any other
flip is *within noise*: shown, with the figure's interval, and not counted.  The K
checks a figure measures share the 5% error of the exit code (Bonferroni): each
figure's move is read from its interval at 1 - 5%/K, so two runs of one deck exit 1
at most 5% of the time, however many of its verdicts sit on their thresholds.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from model.errors import CommandLineError, PnpError
from validator.kit import get_spec, rules_hash

from .figures import Games, difference, gate_interval, paired, read_games_csv, unpaired
from .validate import Options, validate_game, with_expansions
from .verdicts import PASS, RANK, judged

#: the headline figure whose move tells a generic check's change from noise
BEHIND = {"seat balance": "seat-spread", "ties": "tie-rate", "stalls": "stall-rate", "game length": "median-minutes"}
#: checks that do not depend on chance: any change of theirs is a change
CERTAIN = ("static checks", "sample")
ALPHA = 0.05  # the share of comparisons of a deck with itself that may exit 1
#: what a summary's run record sets, and the option it is taken into
ADOPTED = {"players": "players", "games": "games", "master_seed": "seed", "skill_games_per_pair": "skill_games"}
SHEETS = ("cards.csv", "cards.xlsx", "goals.csv", "goals.xlsx")


@dataclass
class Ref:
    kind: str  # "folder", "revision" or "summary"
    label: str  # in the report: "data folder ../old", "revision HEAD~1 (3f2a9c1)", "summary out/summary.json"
    text: str = ""  # as --compare gave it
    root: Path | None = None  # a folder (or the revision's sheets, extracted) to load
    summary: dict | None = None
    games_csv: Path | None = None
    temp: tempfile.TemporaryDirectory | None = None

    def close(self) -> None:
        if self.temp is not None:
            self.temp.cleanup()
            self.temp = None


@dataclass
class Comparison:
    slug: str
    title: str
    ref: Ref
    figures: dict  # key -> reference, value, difference, low, high, paired (or why not: unpaired_because)
    verdicts: list[dict]  # check, reference, now, messages, change (worse / within noise / better / same / new /
    # gone), figure (the headline figure behind it, or None), moved (its interval leaves out 0)
    cards: list[dict]  # cards whose effect moved most
    summary: dict  # this deck's summary.json
    reference: dict  # the reference's summary (re-judged with this run's thresholds)
    files: list[Path] = field(default_factory=list)
    result: object = None  # this deck's validate.Result

    @property
    def worse(self) -> list[dict]:
        return [v for v in self.verdicts if v["change"] == "worse"]


# ------------------------------------------------------------------ the reference
def resolve_ref(text: str, data_dir: Path, read: bool = True) -> Ref | None:
    """What ``--compare REF`` names, or one line (exit 2) saying it is none of the three.  With ``read``
    False, only the check: None, and a revision is not read out of git."""
    path = Path(text)
    if path.is_dir():
        if (path / "summary.json").is_file():  # (a validation folder may hold a cards.csv table of its own)
            return _summary_ref(path / "summary.json", text)
        if any((path / s).is_file() for s in SHEETS[:2]):
            if not (path / "templates").is_dir():
                raise CommandLineError(f"--compare {text}: the folder holds a cards sheet but no templates/ with "
                                       "the games' manifests: not a data folder")
            return Ref("folder", f"data folder {text}", text, root=path)
        raise CommandLineError(f"--compare {text}: the folder holds neither cards.csv (a data folder) nor "
                               "summary.json (a validation folder)")
    if path.is_file():
        if path.suffix == ".json":
            return _summary_ref(path, text)
        raise CommandLineError(f"--compare {text}: not a data folder, a git revision or a summary.json")
    rev = _revision(text, data_dir)
    if rev is None:
        raise CommandLineError(f"--compare {text}: not a data folder, a summary.json, nor a git revision of the "
                               f"data folder ({Path(data_dir).resolve()})")
    return _revision_ref(text, rev, data_dir) if read else None


def _summary_ref(path: Path, text: str) -> Ref:
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CommandLineError(f"--compare {text}: not a readable summary.json ({exc})") from None
    if not isinstance(summary, dict) or not isinstance(summary.get("run"), dict) or "game" not in summary["run"]:
        raise CommandLineError(f"--compare {text}: not a summary.json of pnp validate (no run record)")
    games = path.parent / "games.csv"
    return Ref("summary", f"summary {text}", text, summary=summary, games_csv=games if games.is_file() else None)


def _git(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(data_dir), *args], capture_output=True, check=False)


def _revision(text: str, data_dir: Path) -> str | None:
    if text.startswith("-"):
        return None
    try:
        got = _git(data_dir, "rev-parse", "--verify", "--quiet", f"{text}^{{commit}}")
    except OSError:  # no git on this machine
        return None
    return got.stdout.decode().strip() if got.returncode == 0 else None


def _revision_ref(text: str, commit: str, data_dir: Path) -> Ref:
    """The sheets and manifests of the data folder as committed at ``commit``, extracted to a temporary
    folder (templates/ whole: a manifest may name the files beside it)."""
    prefix = _git(data_dir, "rev-parse", "--show-prefix").stdout.decode().strip()
    listed = _git(data_dir, "ls-tree", "-r", "--name-only", "--full-tree", commit, "--", prefix or ".")
    names = [n for n in listed.stdout.decode().splitlines()
             if n[len(prefix):] in SHEETS or n[len(prefix):].startswith("templates/")]
    if not any(n[len(prefix):] in SHEETS[:2] for n in names):
        raise CommandLineError(f"--compare {text}: revision {commit[:7]} has no cards.csv in "
                               f"{prefix or 'the repository root'}")
    temp = tempfile.TemporaryDirectory(prefix="pnp-compare-")
    root = Path(temp.name)
    for name in names:
        blob = _git(data_dir, "show", f"{commit}:{name}")
        if blob.returncode != 0:
            temp.cleanup()
            raise CommandLineError(f"--compare {text}: cannot read {name} at {commit[:7]}")
        target = root / name[len(prefix):]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return Ref("revision", f"revision {text} ({commit[:7]})", text, root=root, temp=temp)


def adopt_summary(ref: Ref, slug: str, opts: Options, given: set[str], spec) -> Options:
    """The run settings of a reference summary, for every option not given on the command line; an option
    given that contradicts it, another game, or another rules hash is one line (exit 2)."""
    run = ref.summary["run"]
    if run["game"] != slug:
        raise CommandLineError(f"--compare {ref.text}: a summary of {run['game']}, not of {slug}")
    if "headline" not in ref.summary:
        raise CommandLineError(f"--compare {ref.text}: the summary has no headline figures (an older pnp made "
                               "it); compare against the data folder or a git revision instead")
    out = replace(opts)
    for key, name in ADOPTED.items():
        value = run.get(key)
        if value is None:
            continue
        if name in given and getattr(opts, name) != value:
            flag = {"seed": "--seed", "skill_games": "--skill-games"}.get(name, f"--{name}")
            raise CommandLineError(f"--compare {ref.text}: {flag} {getattr(opts, name)} differs from the summary's "
                                   f"{value}; both sides must play the same games")
        setattr(out, name, value)
    bots = ",".join(run["bots"]) if len(set(run["bots"])) > 1 else run["bots"][0]
    if "bots" in given and opts.bots and opts.bots != bots:
        raise CommandLineError(f"--compare {ref.text}: --bots {opts.bots} differs from the summary's {bots}")
    out.bots = bots
    rules = {k: v for k, v in run.get("rules_options", {}).items() if k in spec.params}
    if "rules" in given and spec.options(opts.rules) != spec.options(rules):
        raise CommandLineError(f"--compare {ref.text}: the --rule options differ from the summary's; both sides "
                               "must play the same rules")
    out.rules = rules
    if "expansions" in run:
        out.expansions = set(run["expansions"])
    mine = rules_hash(spec, spec.options(out.rules))
    if run.get("rules_hash") != mine:
        raise CommandLineError(f"--compare {ref.text}: the summary was made with another rules engine or rules "
                               f"options (rules hash {run.get('rules_hash')}, this run's {mine}); compare against "
                               "the data folder or a git revision instead")
    return out


# ------------------------------------------------------------------ the comparison
def compare_game(data, ref: Ref, opts: Options, progress: Callable | None = None) -> Comparison:
    """Play this deck (writing its validation folder as ``pnp validate`` does) and the reference on the same
    seeds, and compare; a folder or revision reference's game is loaded from its root (``load_folder``)."""
    spec = get_spec(data)
    th = opts.thresholds.bind(spec)
    ref_data = None
    if ref.kind != "summary":  # the reference loaded and compiled before anything is played
        ref_data = load_folder(ref.root, data.slug, ref.text)
        try:
            spec.make(with_expansions(ref_data, opts.expansions), opts.players, **opts.rules)
        except PnpError as exc:
            raise CommandLineError(f"--compare {ref.text}: the reference cannot be played: "
                                   f"{str(exc).splitlines()[0]}") from None
    sides = 1 if ref.kind == "summary" else 2

    def halves(first: bool):  # one progress bar over both runs
        if progress is None:
            return None
        return lambda slug, done, total: progress(slug, done + (0 if first else total), sides * total)

    mine = validate_game(data, replace(opts, per_game=True), halves(True))
    if ref.kind == "summary":
        reference = dict(ref.summary)
        a_games = _saved_games(ref, mine.games, spec)
    else:
        theirs = validate_game(ref_data, replace(opts, per_game=True, write=False), halves(False))
        reference = theirs.summary
        a_games = theirs.games
    judged(reference, th, spec)  # the reference judged with this run's thresholds
    figures = _figures(a_games, mine.games, reference, mine.summary, spec, opts.seed, _why_unpaired(ref, a_games),
                       gate_level(mine.summary["verdicts"], spec))
    verdicts = verdict_changes(reference["verdicts"], mine.summary["verdicts"], figures, spec)
    cards = cards_moved(spec, reference, mine.summary)
    out = Comparison(data.slug, data.title, ref, figures, verdicts, cards, mine.summary, reference, result=mine)
    if opts.write:
        from model.atomic import write_files

        from .compare_report import render_compare

        folder = Path(opts.out) / data.slug / "validation"
        record = compare_record(out)
        out.files = write_files({folder / "compare.json": json.dumps(record, indent=2) + "\n",
                                 folder / "compare.html": render_compare(out)})
    return out


def _saved_games(ref: Ref, games: Games, spec) -> Games | None:
    """The reference summary's own games (games.csv beside it), when they are the games played now."""
    if ref.games_csv is None:
        return None
    try:
        saved = read_games_csv(ref.games_csv, spec.stalls)
    except (OSError, ValueError, IndexError):
        return None
    return saved if saved.seeds == games.seeds else None


def _why_unpaired(ref: Ref, games: Games | None) -> str:
    """Why the reference's games cannot be paired with this run's (when they cannot)."""
    if ref.kind != "summary" or games is not None:
        return "the engine's own figures are not in games.csv"
    if ref.games_csv is None:
        return "the reference summary has no games.csv beside it"
    return "the games.csv beside the reference summary holds other games (other seeds or a later edit)"


def _figures(a: Games | None, b: Games, reference: dict, summary: dict, spec, seed: int,
             why: str = "the reference's games are not at hand", gate: float | None = None) -> dict:
    """Paired differences where both sides' games are at hand, else differences of the two runs' own figures
    (``unpaired_because`` says why); ``gate``: the confidence of the interval the exit code reads."""
    figures = unpaired(reference["headline"], summary["headline"], gate)
    for f in figures.values():
        f["unpaired_because"] = why
    if a is not None and len(a) == len(b) and a.seeds == b.seeds:
        figures.update(paired(a, b, spec, seed=seed, gate=gate))
    keys = list(summary["headline"])
    return {k: figures[k] for k in keys if k in figures}


def behind(check: str, spec=None) -> str | None:
    """The headline figure whose move tells a change of ``check`` from noise: a generic check's
    (:data:`BEHIND`), or the engine's figure that names the check (``Figure.check``); None: no figure
    measures it."""
    if check in BEHIND:
        return BEHIND[check]
    return next((f.key for f in getattr(spec, "figures", ()) if f.check and f.check == check), None)


def gate_level(verdicts: list[dict], spec=None) -> float:
    """The confidence of the intervals whose move counts a verdict worse: the checks a figure measures (K of
    them) share the exit code's 5% error: 1 - 5% / K."""
    return 1 - ALPHA / max(1, sum(1 for v in verdicts if behind(v["check"], spec)))


def moved(f: dict | None) -> bool:
    """A figure's difference whose interval leaves out 0 (the gate's interval when it has one)."""
    if not f or f.get("low") is None:
        return False
    low, high = gate_interval(f)
    return low > 0 or high < 0


def verdict_changes(before: list[dict], after: list[dict], figures: dict | None = None, spec=None) -> list[dict]:
    """Each check's status before and after (matched by check name and order): worse, within noise, better, same,
    new, gone.  A check that got worse (or is new and not PASS) is *worse* when it does not depend on chance
    (:data:`CERTAIN`) or the figure behind it moved beyond its interval (``figures``: the comparison's); else
    *within noise*."""
    def keyed(verdicts):
        seen: dict[str, int] = {}
        out = {}
        for v in verdicts:
            n = seen[v["check"]] = seen.get(v["check"], 0) + 1
            out[(v["check"], n)] = v
        return out

    a, b = keyed(before), keyed(after)
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        va, vb = a.get(key), b.get(key)
        if va is None:
            change = "new" if vb["status"] == PASS else "worse"
        elif vb is None:
            change = "gone"
        else:
            d = RANK[vb["status"]] - RANK[va["status"]]
            change = "worse" if d > 0 else "better" if d < 0 else "same"
        key_figure = behind(key[0], spec)
        f = (figures or {}).get(key_figure) if key_figure else None
        m = moved(f)
        if change == "worse" and key[0] not in CERTAIN and not m:
            change = "within noise"
        out.append({"check": key[0], "reference": va["status"] if va else None, "now": vb["status"] if vb else None,
                    "reference_message": va["message"] if va else None, "message": vb["message"] if vb else None,
                    "change": change, "figure": key_figure, "moved": m})
    return out


def cards_moved(spec, before: dict, after: dict, top: int = 12) -> list[dict]:
    """The cards whose measured effect (``GameSpec.card_effects``) moved most between the two runs, with
    each side's interval and the difference's (half-widths added in quadrature); ``clear`` when that
    interval leaves out 0."""
    effects = getattr(spec, "card_effects", None)
    if effects is None:
        return []
    a = {r["id"]: r for r in effects(before)}
    b = {r["id"]: r for r in effects(after)}
    out = []
    for cid in list(b) + [c for c in a if c not in b]:
        ra, rb = a.get(cid), b.get(cid)
        if ra is None or rb is None or ra["value"] is None or rb["value"] is None:
            out.append({"id": cid, "name": (rb or ra)["name"], "measure": (rb or ra)["measure"],
                        "reference": ra, "now": rb, "difference": None, "low": None, "high": None, "clear": False})
            continue
        d, half = difference(ra, rb)
        out.append({"id": cid, "name": rb["name"], "measure": rb["measure"], "reference": ra, "now": rb,
                    "difference": round(d, 2), "low": round(d - half, 2), "high": round(d + half, 2),
                    "clear": d - half > 0 or d + half < 0})
    out.sort(key=lambda r: (r["difference"] is not None, abs(r["difference"] or 0)), reverse=True)
    return [r for r in out if r["difference"] is None or r["difference"] != 0][:top]


def compare_record(c: Comparison) -> dict:
    """compare.json: the reference, both run records, the figures, verdict changes and cards that moved."""
    return {"game": c.slug, "reference": {"kind": c.ref.kind, "label": c.ref.label},
            "run": c.summary["run"], "reference_run": c.reference["run"],
            "figures": c.figures, "verdicts": c.verdicts, "worse": len(c.worse), "cards": c.cards}


def load_folder(root: Path, slug: str, label: str) -> object:
    """The game's data from a reference folder (a data folder, or a revision's sheets); ``label`` is the
    reference as --compare named it."""
    from model.sheets import load_project

    try:
        project = load_project(root, [slug])
    except PnpError as exc:
        raise CommandLineError(f"--compare {label}: the reference's sheets do not load: "
                               f"{str(exc).splitlines()[0]}") from None
    return project.games[slug]


__all__ = ["Ref", "Comparison", "resolve_ref", "adopt_summary", "compare_game", "verdict_changes", "behind", "moved",
           "gate_level", "cards_moved", "load_folder"]
