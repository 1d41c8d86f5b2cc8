"""A sheet file (``cards.csv``, ``cards.xlsx`` ...) read into its header and rows of text.

Every cell is text, as it was typed; control characters and invisible format characters are
removed (with a warning); a sheet past the bounds (``MAX_ROWS``, ``MAX_COLUMNS``) is one error,
found before a workbook is read into a table.  What the values mean is ``model.sheets``' business.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from .errors import Problems
from .manifest import BASE_COLUMNS, COMMON_COLUMNS

#: the most rows and columns a sheet may have (a game has tens to hundreds of designs): a workbook of a few
#: kilobytes can declare a cell a million rows down and sixteen thousand columns across
MAX_ROWS, MAX_COLUMNS = 10_000, 200


def _decode(path: Path, problems: Problems) -> str | None:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.error(path.name, line, None,
                       f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the sheet as 'CSV UTF-8'")
        return None
    if not text.strip():
        problems.error(path.name, None, None, "the file is empty; expected a header row such as "
                       + ", ".join(BASE_COLUMNS + COMMON_COLUMNS))
        return None
    return text


#: Characters a cell cannot print (control characters; U+FFFE, U+FFFF): removed, with a warning.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
#: The format characters that change the direction of writing (marks, embeddings, overrides, isolates).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Joiners, kept between two visible characters (an emoji sequence such as a family, a ligature's control).
JOINERS = frozenset("\u200c\u200d")
#: A flag of a region is a black flag followed by tag characters, and is kept whole.
BLACK_FLAG, TAGS = "\U0001F3F4", range(0xE0020, 0xE0080)


def _printable(file: str, row: int, column: str | None, value: str, problems: Problems) -> str:
    """A cell without the characters no output can print (control characters, and invisible format
    characters but a joiner inside an emoji sequence), each kind with a warning; a line break saved as
    CR LF or CR is LF."""
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    found = _UNPRINTABLE.findall(value)
    if found:
        distinct = list(dict.fromkeys(found))
        names = ", ".join(f"U+{ord(c):04X}" for c in distinct)
        problems.warn(file, row, column, f"invisible control character{'s' if len(distinct) > 1 else ''} {names} "
                      f"removed: {'they' if len(distinct) > 1 else 'it'} cannot be printed")
        value = _UNPRINTABLE.sub("", value)
    if value.isascii():
        return value
    return _without_format_characters(file, row, column, value, problems)


def _without_format_characters(file: str, row: int, column: str | None, value: str, problems: Problems) -> str:
    """``value`` without its invisible format characters (Unicode's category Cf: zero-width spaces,
    byte-order marks, direction overrides ...), with one warning naming them; a joiner between two
    visible characters and the tags of a flag stay."""
    import unicodedata

    kept, removed = [], []
    for i, c in enumerate(value):
        if c.isascii() or unicodedata.category(c) != "Cf":
            kept.append(c)
        elif c in JOINERS and 0 < i < len(value) - 1 and not value[i - 1].isspace() and not value[i + 1].isspace():
            kept.append(c)
        elif ord(c) in TAGS and kept and (kept[-1] == BLACK_FLAG or ord(kept[-1]) in TAGS):
            kept.append(c)
        else:
            removed.append(c)
    if not removed:
        return value
    distinct = list(dict.fromkeys(removed))
    names = ", ".join(f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed').lower()})" for c in distinct)
    many = len(distinct) > 1
    why = (", and one that turns the writing around would make the sheet read otherwise than the card"
           if any(c in BIDI_CONTROLS for c in distinct) else "")
    problems.warn(file, row, column, f"invisible format character{'s' if many else ''} {names} removed: "
                  f"{'they print' if many else 'it prints'} nothing{why}")
    return "".join(kept)


def read_table(path: Path, problems: Problems) -> tuple[list[str], list[tuple[int, dict]]] | None:
    """Header and (spreadsheet row number, values) of a CSV or XLSX sheet; control
    characters are removed from every cell (with a warning)."""
    found = _read_table(path, problems)
    if found is None:
        return None
    raw_header, rows = found
    named = {h: _printable(path.name, 1, None, h, problems) for h in dict.fromkeys(raw_header)}
    header = [named[h] for h in raw_header]
    clean = []
    for number, values in rows:
        clean.append((number, {named[h]: _printable(path.name, number, named[h] or None, v, problems)
                               for h, v in values.items()}))
    return header, clean


def csv_delimiter(text: str) -> str:
    """The separator of a CSV text: the one of ``,``, ``;`` and tab its first line holds most
    (spreadsheet programs in many locales save "CSV" with semicolons or tabs)."""
    return max(",;\t", key=text.split("\n", 1)[0].count)


def _too_large(rows: int, columns: int) -> str:
    what = f"more than {MAX_ROWS:,} rows" if rows > MAX_ROWS else f"{columns:,} columns"
    return (f"has {what}; a sheet holds at most {MAX_ROWS:,} rows of {MAX_COLUMNS} columns (one row per "
            "design; check for a stray cell far below or to the right)")


def _workbook_too_large(path: Path) -> str | None:
    """Why the workbook's first sheet (the one read) is too large to read, or None: read row by row,
    as its cells are stored, before pandas makes a table of every row and column up to its farthest cell."""
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        sheet.reset_dimensions()  # (the size a workbook declares may be anything)
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > MAX_ROWS + 1:
                return _too_large(number - 1, 0)
            while row and row[-1] is None:
                row = row[:-1]
            if len(row) > MAX_COLUMNS:
                return _too_large(0, len(row))
    finally:
        book.close()
    return None


def _read_table(path: Path, problems: Problems) -> tuple[list[str], list[tuple[int, dict]]] | None:
    if path.suffix.lower() in (".xlsx", ".xls"):
        import pandas as pd  # only XLSX input pays for pandas

        try:
            wrong = _workbook_too_large(path)
            if wrong:
                problems.error(path.name, None, None, wrong)
                return None
            frame = pd.read_excel(path, dtype=str, keep_default_na=False)
        except Exception as exc:  # noqa: BLE001 - any reader failure is the user's file
            problems.error(path.name, None, None, f"cannot read the workbook: {exc}")
            return None
        header = [str(c).strip() for c in frame.columns]
        rows = [(i + 2, {h: str(v) for h, v in zip(header, r)}) for i, r in enumerate(frame.itertuples(index=False))]
        return header, rows
    text = _decode(path, problems)
    if text is None:
        return None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    try:
        lines = list(reader)
    except csv.Error as exc:
        problems.error(path.name, reader.line_num, None, f"not a readable CSV file: {exc}")
        return None
    if len(lines) > MAX_ROWS + 1 or len(lines[0]) > MAX_COLUMNS:
        problems.error(path.name, None, None, _too_large(len(lines) - 1, len(lines[0])))
        return None
    header = [h.strip() for h in lines[0]]
    rows = []
    for index, values in enumerate(lines[1:], start=2):
        if not any(v.strip() for v in values):
            continue
        if len(values) > len(header) and any(v.strip() for v in values[len(header):]):
            problems.error(path.name, index, None,
                           f"row has {len(values)} values but the header has {len(header)} columns")
            continue
        rows.append((index, {h: (values[i] if i < len(values) else "") for i, h in enumerate(header)}))
    return header, rows
