"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path

import click


def data_option(f):
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
    """``a4``, ``letter``, ``a3``, ``tabloid`` or ``WxH`` in millimetres (``200x280``)."""

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
        return "a4|letter|a3|tabloid|WxH"


def page_option(f):
    from generator.build import BuildOptions

    return click.option("--page", type=PageSize(), default=BuildOptions.page, show_default=True,
                        help="Paper size: a4, letter, a3, tabloid, or WxH in millimetres (e.g. 200x280).")(f)
