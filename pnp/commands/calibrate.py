"""``pnp calibrate``: a one-sheet duplex test page to read the printer's back offset."""

from __future__ import annotations

import click

from ..console import out
from ..options import (back_offset_option, data_option, duplex_option, out_option, page_option, parse_offset,
                       printer_margin_option)


@click.command()
@data_option
@page_option
@duplex_option(("long", "short"), "How your printer turns the sheet.")
@back_offset_option("Print the back moved as pnp build --back-offset would, to check a correction (both scales "
                    "then read 0).")
@printer_margin_option("Where to draw the dashed frame that shows the unprintable edge.")
@out_option
def calibrate(data, page, duplex, back_offset, printer_margin, out_dir):
    """Write calibration-<page>-<duplex>.pdf: print it duplex, read the back offset off its scales."""
    from generator.sheets.calibrate import calibration_pdf
    from model.atomic import write_files

    offset = parse_offset(back_offset)
    folder = out_dir or (data / "output")
    path = folder / f"calibration-{page}-{duplex}.pdf"
    write_files({path: calibration_pdf(page, duplex, printer_margin, offset)})
    out.print(f"wrote {path}", markup=False, highlight=False)
    out.print("Print it on both sides of one sheet at actual size; the back says how to read it.", markup=False,
              highlight=False)
