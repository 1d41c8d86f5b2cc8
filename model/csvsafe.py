"""Cells of the CSV files pnp writes, made safe to open in a spreadsheet.

A text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read by
spreadsheet programs as a formula (``=cmd|' /C calc'!A0`` runs a program in some of them).  Card
names come from a stranger's sheet, and manifest.csv and the validator's tables carry them, so
such a cell is written with a leading apostrophe, which spreadsheets show as text and do not
print.  Numbers (``-3.5``) are left as they are.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """``value``, with an apostrophe before a text that a spreadsheet would read as a formula."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def row(values) -> list:
    return [cell(v) for v in values]
