"""``pnp build``: the print-ready PDFs of one or more games."""

from __future__ import annotations

import os
import time

import click
from rich.table import Table

from generator.build import BuildOptions
from generator.sheets.layout import DUPLEX_MODES, LAYOUTS

from ..console import err, out, progress_bar, report_problems
from ..options import (back_offset_option, data_option, duplex_option, expansion_option, explicit, no_cache_option,
                       out_option, page_option, parse_offset, printer_margin_option, profile_option)


@click.command()
@click.argument("games", nargs=-1)
@data_option
@page_option
@out_option
@duplex_option(DUPLEX_MODES, "How the printer turns the sheet for backs; none: backs in their own file.")
@back_offset_option()
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default=BuildOptions.layout, show_default=True,
              help="grid: each component keeps its bleed, fronts and backs on facing pages (duplex); shared: "
                   "neighbours share their cut lines (more per page, no bleed between them); gutterfold: each "
                   "front beside its back on one page, to fold and cut (single-sided printers).")
@click.option("--bleed", type=click.FloatRange(0, None), default=None, metavar="MM",
              help="Keep at least this much bleed around each component instead of all of its own, to fit more "
                   "per page  [default: all of it]")
@click.option("--only", "only", multiple=True, metavar="ID[,ID...]",
              help="Just these components, with their backs, in <game>-selected.pdf (to reprint a few); GAME:ID for "
                   "one game's where several have the id.")
@printer_margin_option()
@click.option("--proof", is_flag=True,
              help="Also write <game>-proof.pdf: trim line, safe area and overflowing text outlined on every card.")
@click.option("--soft-proof", is_flag=True,
              help="A proof (--proof) whose colours are shown as they print through a CMYK profile: pnp's own, "
                   "or the shop's with --profile.")
@profile_option("--soft-proof: the print shop's CMYK output profile  [default: pnp's own, Generic CMYK 240% "
                "coated]")
@expansion_option
@no_cache_option
@click.pass_context
def build(ctx, games, data, page, out_dir, duplex, back_offset, layout, bleed, only, printer_margin, proof, soft_proof,
          profile, expansions, no_cache):
    """Build print-ready PDFs: output/<game>/<game>-cards.pdf and -reference.pdf.

    A build whose sheets, templates, options and earlier PDFs are all unchanged writes
    nothing and says the PDFs are up to date (--no-cache builds them again)."""
    start = time.perf_counter()
    ids = tuple(dict.fromkeys(i.strip() for value in only for i in value.split(",") if i.strip()))
    if only and not ids:
        raise click.BadParameter("give one or more ids, e.g. --only g01,g02", param_hint="--only")
    if layout == "gutterfold":
        for name, flag in (("duplex", "--duplex"), ("back_offset", "--back-offset")):
            if explicit(ctx, name):
                raise click.UsageError(f"{flag} does not apply to --layout gutterfold: fronts and backs share a page")
    offset = parse_offset(back_offset)
    if profile is not None and not soft_proof:
        raise click.UsageError("--profile applies to --soft-proof")
    proof = proof or soft_proof
    settings = {}
    if soft_proof:
        from generator.draw.cmyk import load_profile

        settings["proof"] = {"soft": True, "profile": None if profile is None else str(profile),
                             "digest": load_profile(profile).digest}  # a profile that is no CMYK one: exit 2
    out_dir = out_dir or (data / "output")
    record = None
    if not no_cache:
        from generator import uptodate

        options = {"page": page, "duplex": duplex, "back_offset": offset, "layout": layout, "bleed": bleed,
                   "only": ids, "printer_margin": printer_margin, "proof": proof, "expansions": expansions,
                   "soft_proof": settings.get("proof", {}).get("digest")}
        record = (uptodate.command_key(data, out_dir, tuple(games), options), uptodate.inputs_digest(data))
        unchanged = uptodate.unchanged(out_dir, *record)
        if unchanged is not None:  # the warnings are said again, nothing is written
            for line in unchanged["lines"]:
                err.print(line, style="yellow", markup=False, highlight=False)
            n = len(unchanged["files"])
            out.print(f"The PDFs are up to date: nothing they are made from changed since they were built ({n} "
                      f"file{'s' if n != 1 else ''} in {out_dir}); --no-cache builds them again.", markup=False,
                      highlight=False)
            out.print(f"Done in {time.perf_counter() - start:.2f} s.{warnings_line(len(unchanged['lines']))}")
            return
    from generator.build import build_games
    from generator.diskcache import DiskCache, cache_folder
    from model.sheets import load_project

    project = load_project(data, list(games) or None)
    if not games:
        for slug in project.drop_empty():
            err.print(f"skipped {slug}: no rows in the sheets yet")
    boxes = project.select_expansions(expansions, strict=bool(games))
    cache = None if no_cache else DiskCache(cache_folder(out_dir))
    # the picture files the sheets name are read and encoded by a helper while the checks run
    # and the drawing libraries load
    from generator.art.pdfimages import end_ahead, read_ahead

    if read_ahead(list(project.games.values()), cache):
        ctx.call_on_close(end_ahead)
    found = checked(project, cache)
    targets = (("pdf-sheets",) if ids else BuildOptions.targets) + (("proof",) if proof else ())
    chosen = {slug: () for slug in project.games}  # game -> the ids it prints (all of them: ())
    if ids:
        chosen = only_ids(ids, {slug: {c.id for c in g.select(boxes[slug])} for slug, g in project.games.items()})
    jobs = [(project.games[slug], BuildOptions(page, duplex, offset, out_dir, boxes[slug], targets=targets,
                                               layout=layout, printer_margin=printer_margin, bleed=bleed, only=mine,
                                               settings=settings))
            for slug, mine in chosen.items()]
    from rich.progress import TextColumn

    with progress_bar(TextColumn("{task.completed}/{task.total}")) as progress:
        task = progress.add_task("building", total=len(jobs))
        results = build_games(jobs, workers=os.cpu_count() or 1, done=lambda r: progress.advance(task, 1),
                              cache=cache)
    for r in results:
        report_problems(sorted(r.warnings))  # as pnp check lists them
        for note in r.notes:
            err.print(f"note {r.game}: {note}", highlight=False)
    how = "gutterfold" if layout == "gutterfold" else f"duplex {duplex}" + (", shared cut lines" if layout == "shared"
                                                                              else "")
    out.print(summary_table(f"pnp build ({page}, {how}, printer margin {printer_margin:g} mm)", results, found))
    for r in results:
        for f in r.files:
            out.print(f"wrote {f}")
    general, by_game = found
    said = [f"warning {p}" for p in sorted(general + [p for own in by_game.values() for p in own])]
    said += [f"warning {p}" for r in results for p in r.warnings]
    if record is not None and results:
        uptodate.remember(out_dir, *record, [f for r in results for f in r.files], said,
                          {p: d for r in results for p, d in r.pictures.items()})
    out.print(f"Done in {time.perf_counter() - start:.2f} s.{warnings_line(len(said))}")


def only_ids(asked: tuple[str, ...], present: dict[str, set[str]]) -> dict[str, tuple[str, ...]]:
    """``--only``: the ids each game prints, from ``ID`` (in whichever games have it) or
    ``GAME:ID``; an id several games have is printed for each, and a note says which.
    An id found nowhere, or an unknown game, is a mistake on the command line."""
    games = ", ".join(present) or "any game"
    chosen: dict[str, list[str]] = {}
    missing = []
    for item in asked:
        slug, _, ident = item.rpartition(":")
        if slug and slug not in present:
            if ":" in slug or not any(item in ids for ids in present.values()):
                raise click.BadParameter(f"'{item}': no game '{slug}'; games: {games}", param_hint="--only")
            slug, ident = "", item  # an id with a colon in it
        owners = [slug] if slug else [g for g, ids in present.items() if ident in ids]
        if slug and ident not in present[slug]:
            raise click.BadParameter(f"no component with the id '{ident}' in {slug}", param_hint="--only")
        if not owners:
            missing.append(ident)
        elif len(owners) > 1:
            err.print(f"note --only: '{ident}' is in {len(owners)} games, printed for each: {', '.join(owners)} "
                      f"(GAME:ID prints one, e.g. {owners[0]}:{ident})", highlight=False)
        for g in owners:
            chosen.setdefault(g, []).append(ident)
    if missing:
        raise click.BadParameter(f"no component with the id {', '.join(repr(i) for i in missing)} in {games}",
                                 param_hint="--only")
    return {g: tuple(dict.fromkeys(chosen[g])) for g in present if g in chosen}


def checked(project, cache=None):
    """The project's further findings (``pnp check``'s deck and palette checks),
    printed; their errors stop the command as the sheets' do.  Returns
    (sheet-wide problems, {slug: the game's own})."""
    from model.errors import InputErrors

    from ..findings import project_checks

    general, by_game = project_checks(project, cache)
    if cache is not None:
        cache.flush()
    found = sorted(general + [p for own in by_game.values() for p in own])
    if any(p.is_error for p in found):
        raise InputErrors(found)
    report_problems(found)
    return general, by_game


def summary_table(title: str, results, found) -> Table:
    """One row per game: what was built and every warning it got (its rows', its
    checks' and the build's own)."""
    _, by_game = found
    table = Table(title=title, title_justify="left", caption_justify="left",
                  caption="copies: components printed; card pages: fronts and backs; ref. pages: the reference "
                          "sheet; warnings: the sheets', the checks' and the build's")
    for col in ("game", "designs", "copies", "card pages", "ref. pages", "warnings", "seconds"):
        table.add_column(col, justify="left" if col == "game" else "right", no_wrap=col == "game",
                         min_width=max(len(w) for w in col.split()))
    for r in results:
        sheets = sum(n for name, n in r.target_pages.items() if name != "reference")
        table.add_row(r.game, str(sum(d.designs for d in r.decks)), str(r.components), str(sheets),
                      str(r.target_pages.get("reference", 0)),
                      str(len(by_game.get(r.game, [])) + len(r.warnings)), f"{r.seconds:.2f}")
    return table


def warnings_line(n: int) -> str:
    """`` 3 warnings (above).`` after the last line, or nothing."""
    return f" {n} warning{'s' if n != 1 else ''} (above)." if n else ""
