"""What a sheet holds, in words: the ``note`` lines a build prints per sheet size (how many
fit, the bleed kept, what another bleed or printer margin would hold, and when crop marks had
no room)."""

from __future__ import annotations

from .layout import LEAST_BLEED, LayoutError, Sheet, fmt_mm, grid, page_name


def sheet_notes(page: str | tuple[float, float], sheet: Sheet, width: float, height: float, *,
                keep: float | None = None) -> list[str]:
    """What a sheet holds and the bleed it keeps, in words, with what another bleed or
    printer margin would hold; and when marks had no room, that cut lines are drawn in full."""
    name = page_name(page)
    b = sheet.bleed
    how = f"{sheet.cols} x {sheet.rows}{', turned' if sheet.turned else ''}"
    if sheet.fold is not None:
        shape = "landscape" if sheet.page_w > sheet.page_h else "portrait"
        folded = "down the middle" if sheet.fold[0] == "vertical" else "across"
        head = f"{name} gutterfold: {sheet.per_page} per page ({how} each side, {shape}, folded {folded})"
    else:
        head = f"{name}: {sheet.per_page} per page ({how})"
    kept = sheet.kept_bleed
    if b <= 0:
        bleed = "no bleed"
    elif sheet.shared:
        bleed = f"neighbours share their cut lines, {fmt_mm(sheet.edge_bleed)} mm bleed kept around the sheet"
    elif kept >= b - 1e-9:
        bleed = f"the full {fmt_mm(b)} mm bleed kept on every side"
    else:
        bleed = f"{fmt_mm(kept)} mm of the {fmt_mm(b)} mm bleed kept on every side"
    more = []
    if not sheet.shared and keep is None and b > LEAST_BLEED and sheet.fold is None:
        try:
            other = grid(page, width, height, b, printer_margin=sheet.printer_margin, keep=LEAST_BLEED,
                         marks=sheet.crop)
        except LayoutError:
            other = None
        if other is not None and other.per_page > sheet.per_page:
            more.append(f"--bleed {fmt_mm(LEAST_BLEED)} fits {other.per_page}")
    if sheet.printer_margin > 0 and sheet.fold is None:
        try:
            edge = grid(page, width, height, b, printer_margin=0, keep=keep, shared=sheet.shared, marks=sheet.crop)
        except LayoutError:
            edge = None
        if edge is not None and edge.per_page > sheet.per_page:
            more.append(f"{edge.per_page} with --printer-margin 0 (a printer that prints to the edge)")
    notes = [f"{head}, {bleed}" + ("; " + "; ".join(more) if more else "")]
    for ok, lines in ((sheet.marks_x, "left and right"), (sheet.marks_y, "top and bottom")):
        if sheet.crop and not ok:
            notes.append(f"{name}: a {fmt_mm(width)} x {fmt_mm(height)} mm component leaves no room for crop marks at "
                         f"the {lines} inside the {fmt_mm(sheet.printer_margin)} mm printer margin; its cut lines "
                         "are drawn in full")
    return notes
