"""The class's grades for a learning management system, any course (docs/grading.md, "The LMS
export"): with `grade --roster FILE`, each gradebook row gets the roster's `id` (gradebook.json and
a column of gradebook.csv) and OUT/gradebook-lms.csv is written in the shape Canvas's gradebook
import reads (Canvas's own export: `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`, then
one column per assignment), which Moodle's "Import grades: CSV file" reads too (its mapping
screen: map `SIS Login ID` to "Email address" or `SIS User ID` to "ID number", and the
assignment's column to the grade item). With --similar, a `similarity` column (the student's
flagged pairs) follows; neither LMS imports it as a grade (Canvas: choose "ignore" for it).

Cells a student controls (names typed in a form) are neutralised by the one CSV writer
(view/csv_out.py): a spreadsheet shows them as text and never runs them.
"""
import json
import os
from typing import Callable, Dict, List, Optional

from ..runs.results import write_json
from ..view.csv_out import write_csv
from .common import GRADEBOOK_JSON, add_gradebook_column
from .roster import Roster

LMS_CSV = "gradebook-lms.csv"
LMS_FIELDS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def points_of(row: dict):
    """A row's points in any course (CS3243 and NTHU `points`, Congo `score`)."""
    return row.get("points", row.get("score"))


def apply_roster(out: str, roster: Roster, say: Callable[[str], None]) -> dict:
    """gradebook.json's rows get `id`; gradebook.csv gets an `id` column after `student`. Says
    who is in one and not the other. Returns the gradebook."""
    path = os.path.join(out, GRADEBOOK_JSON)
    with open(path, encoding="utf-8") as handle:
        book = json.load(handle)
    ids = {e.student: e.id for e in roster.entries}
    graded = {row["student"] for row in book["students"]}
    for row in book["students"]:
        row["id"] = ids.get(row["student"], row.get("id"))
    missing = sorted(set(ids) - graded)
    unknown = sorted(graded - set(ids))
    if missing:
        say(f"note: in the roster, not graded: {', '.join(missing)}")
    if unknown:
        say(f"note: graded, not in the roster (no id): {', '.join(unknown)}")
    write_json(path, book)
    add_gradebook_column(out, "id", {row["student"]: row.get("id") for row in book["students"]}, after="student")
    return book


def similarity_cells(book: dict) -> Dict[str, str]:
    """Per student, its flagged pairs as one cell: the chronology's text when the NTHU sheet gave
    one, else the pairs from gradebook.json's `similarity_flagged`."""
    cells: Dict[str, List[str]] = {}
    for row in book["students"]:
        for entry in row.get("similarity_chronology") or []:
            cells.setdefault(row["student"], []).append(entry["text"])
    if not cells:
        for a, b, value in book.get("similarity_flagged") or []:
            cells.setdefault(a, []).append(f"{value * 100:.1f} % with {b}")
            cells.setdefault(b, []).append(f"{value * 100:.1f} % with {a}")
    return {name: " | ".join(texts) for name, texts in cells.items()}


def write_lms(out: str, book: dict, roster: Roster, assignment: str, similar: bool) -> str:
    """OUT/gradebook-lms.csv (see the module's text); returns its path."""
    by_student = {e.student: e for e in roster.entries}
    fields = LMS_FIELDS + [assignment] + (["similarity"] if similar else [])
    flagged = similarity_cells(book) if similar else {}
    path = os.path.join(out, LMS_CSV)
    rows = []
    for row in book["students"]:
        entry = by_student.get(row["student"])
        ident = row.get("id") or (entry.id if entry else None)
        email = ident if ident and "@" in ident else None
        cells = {"Student": entry.name if entry else row["student"], "ID": "",
                 "SIS User ID": None if email else ident, "SIS Login ID": email, "Section": "",
                 assignment: points_of(row)}
        if similar:
            cells["similarity"] = flagged.get(row["student"], "")
        rows.append(cells)
    write_csv(path, fields, rows)
    return path


def assignment_name(variant: str, given: Optional[str]) -> str:
    return given or f"Minichess {variant}"
