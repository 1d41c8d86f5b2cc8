"""``pnp calibrate``: a one-sheet duplex test page to read the printer's back offset."""

from __future__ import annotations

import click

from generator.build import BuildOptions
from generator.sheets.layout import MAX_PRINTER_MARGIN

from ..console import out
from ..options import out_option, page_option
from .build import parse_offset


@click.command()
@page_option
@click.option("--duplex", type=click.Choice(["long", "short"]), default=BuildOptions.duplex, show_default=True,
              help="How your printer turns the sheet.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Print the back moved as pnp build --back-offset would, to check a correction (both scales "
                   "then read 0).")
@click.option("--printer-margin", type=click.FloatRange(0, MAX_PRINTER_MARGIN), default=BuildOptions.printer_margin,
              show_default=True, metavar="MM", help="Where to draw the dashed frame that shows the unprintable edge.")
@out_option
def calibrate(page, duplex, back_offset, printer_margin, out_dir):
    """Write calibration-<page>-<duplex>.pdf: print it duplex, read the back offset off its scales."""
    from pathlib import Path

    from generator.sheets.calibrate import calibration_pdf
    from model.atomic import write_files

    offset = parse_offset(back_offset)
    folder = out_dir or Path("output")
    path = folder / f"calibration-{page}-{duplex}.pdf"
    write_files({path: calibration_pdf(page, duplex, printer_margin, offset)})
    out.print(f"wrote {path}", markup=False, highlight=False)
    out.print("Print it on both sides of one sheet at actual size; the back says how to read it.", markup=False,
              highlight=False)
