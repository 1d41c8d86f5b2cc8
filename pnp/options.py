"""Options shared by several commands: each defined once, here; README.md's table of options
says which commands take which (a test holds the two together)."""

from __future__ import annotations

from pathlib import Path

import click


def data_option(f):
    """Every command's: the data folder."""
    return click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
                        show_default=True, help="Folder with cards.csv, goals.csv and templates/.")(f)


def out_option(f):
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="Output folder  [default: DATA/output]")(f)


def expansion_option(f):
    return click.option("--expansion", "expansions", multiple=True,
                        help="Use only the base game plus this expansion (repeatable).")(f)


def explicit(ctx: click.Context, name: str) -> bool:
    """Whether the user gave option ``name`` on the command line."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


class PageSize(click.ParamType):
    """``a4``, ``letter``, ``a3``, ``tabloid``, ``a5`` or ``WxH`` in millimetres (``200x280``)."""

    name = "page"

    def convert(self, value, param, ctx):
        from generator.sheets.layout import LayoutError, page_size

        text = str(value).strip().lower().replace(" ", "")
        try:
            page_size(text)
        except LayoutError as exc:
            self.fail(str(exc), param, ctx)
        return text

    def get_metavar(self, param, ctx=None):
        return "a4|letter|a3|tabloid|a5|WxH"


def page_option(f):
    from generator.build import BuildOptions

    return click.option("--page", type=PageSize(), default=BuildOptions.page, show_default=True,
                        help="Paper size: a4, letter, a3, tabloid, a5, or WxH in millimetres (e.g. 200x280).")(f)


def parse_offset(value: str) -> tuple[float, float]:
    """``--back-offset X,Y``: millimetres, X to the right, Y down; at most what the calibration sheet reads."""
    from generator.sheets.layout import MAX_OFFSET

    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not X,Y in millimetres, e.g. 0.5,-1") from None
    if not all(abs(v) <= MAX_OFFSET for v in (x, y)):  # (nan too)
        raise click.BadParameter(f"'{value}': a back offset is at most {MAX_OFFSET:g} mm either way (what pnp "
                                 "calibrate reads); printers lay their backs off by a few millimetres",
                                 param_hint="'--back-offset'")
    return x, y


def duplex_option(modes, help: str):
    """``--duplex``, with the modes a command takes."""
    from generator.build import BuildOptions

    return click.option("--duplex", type=click.Choice(list(modes)), default=BuildOptions.duplex, show_default=True,
                        help=help)


def back_offset_option(help: str = "Shift the backs by X (right) and Y (down) millimetres to correct a printer."):
    from generator.build import BuildOptions

    return click.option("--back-offset", default="{},{}".format(*(f"{v:g}" for v in BuildOptions.back_offset)),
                        show_default=True, metavar="X,Y", help=help)


def printer_margin_option(help: str = "The edge of the paper the printer cannot print, in mm; artwork, crop marks "
                                      "and footers stay inside it."):
    from generator.build import BuildOptions
    from generator.sheets.layout import MAX_PRINTER_MARGIN

    return click.option("--printer-margin", type=click.FloatRange(0, MAX_PRINTER_MARGIN),
                        default=BuildOptions.printer_margin, show_default=True, metavar="MM", help=help)


def no_cache_option(f):
    return click.option("--no-cache", is_flag=True,
                        help="Render and parse every design again, without reading or writing the build cache "
                             "(OUT/.pnp-cache).")(f)


def profile_option(help: str):
    """``--profile``: a print shop's CMYK output profile (an ICC file)."""
    return click.option("--profile", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        metavar="FILE.icc", help=help)


def port_option(help: str):
    return click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help=help)


def seed_option(help: str):
    from validator.validate import RunOptions

    return click.option("--seed", type=int, default=RunOptions.seed, show_default=True, help=help)


def workers_option(f):
    from validator.validate import RunOptions

    return click.option("--workers", type=click.IntRange(min=1), default=RunOptions.workers,
                        help="Local worker processes  [default: all cores]")(f)


def scheduler_option(f):
    from validator.validate import RunOptions

    return click.option("--scheduler", metavar="ADDR", default=RunOptions.scheduler,
                        help="Run the games on an existing Dask cluster, e.g. tcp://127.0.0.1:8786.")(f)


def rule_option(help: str):
    return click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help=help)


def thresholds_option(f):
    return click.option("--thresholds", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help="Thresholds file (TOML)  [default: DATA/validate.toml if present, else built-in]")(f)


def until_sure_options(until_sure_help: str, per: str):
    """``--until-sure`` and its budget: ``--max-games`` (at most N games ``per``, e.g. "per variant") and
    ``--max-seconds``."""
    options = [
        click.option("--until-sure", is_flag=True, help=until_sure_help),
        click.option("--max-games", type=click.IntRange(min=1), default=None, metavar="N",
                     help=f"With --until-sure: at most N games {per}  [default: 32 x --games]"),
        click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=None, metavar="S",
                     help="With --until-sure: start no look that would end after S seconds (the result then depends "
                          "on the machine's speed)."),
    ]

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def move_timeout_option(f):
    from validator.validate import Options

    return click.option("--move-timeout", type=click.FloatRange(min=0.1), default=Options.move_timeout,
                        show_default=True, metavar="SECONDS",
                        help="The longest one game may take in a worker (and one action, when the game is played "
                             "again to find the fault) before the run stops, naming the game.")(f)
