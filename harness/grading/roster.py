"""The one reader of a class roster (`grade --roster FILE`): a CSV with a row per student, as a
Google Form's export or an LMS's class list gives it.

Columns, found by their header (any case), or named with --roster-columns STUDENT,REPO[,ID]:
- student: the first header containing `student`, `id` or `name`;
- repository: the first containing `repo`, `github` or `url` (an NTHU form; a roster for the
  LMS export alone may have none);
- id (what the LMS matches a student on): the first other header containing `email`, else the
  first other containing `id` or `number`; else the student column itself;
- timestamp: a header `Timestamp` (Google Forms' own) or containing `time`: the submission time,
  in Google Forms' text (`2026/06/20 11:59:00 PM GMT+8`) or ISO (`2026-06-20T23:59:00+08:00`);
  a time without a zone is taken in the deadline's zone.

A student's name becomes a folder name (OUT/repos/NAME, OUT/students/NAME): letters, digits,
`.`, `_` and `-` are kept, anything else becomes `_`. Two rows of one student are refused (the TA
decides which submission counts), as is a row without a student. Every problem is one line
naming the file and the line (`RosterError`).
"""
import csv
import datetime
import io
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from ..runs.results import ResultsError

STUDENT_WORDS = ("student", "id", "name")
REPO_WORDS = ("repo", "github", "url")
MAX_BYTES = 16 << 20


class RosterError(ResultsError):
    """The roster cannot be used; one line naming the file and line."""


@dataclass
class Entry:
    student: str                       # the folder name (safe)
    name: str                          # as typed in the roster
    line: int                          # the CSV line it came from
    repo: Optional[str] = None         # the repository's URL, '' when the cell is empty
    id: Optional[str] = None           # what the LMS matches on (email, student number)
    submitted: Optional[datetime.datetime] = None     # the form's Timestamp


@dataclass
class Roster:
    path: str
    columns: Dict[str, Optional[str]]  # "student", "repo", "id", "timestamp" -> header read (or None)
    entries: List[Entry] = field(default_factory=list)

    def by_student(self) -> Dict[str, Entry]:
        return {e.student: e for e in self.entries}

    def describe(self) -> str:
        """The console's line: which columns were read."""
        shown = ", ".join(f"{key} = '{header}'" for key, header in self.columns.items() if header)
        return f"roster {self.path}: {len(self.entries)} students; columns read: {shown}"


def safe_name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text.strip()).strip("._") or "_"
    return name[:100]


def _find(headers: Sequence[str], words: Sequence[str], skip: Sequence[Optional[str]] = ()) -> Optional[str]:
    for header in headers:
        if header not in skip and any(word in header.lower() for word in words):
            return header
    return None


def pick_columns(path: str, headers: Sequence[str], chosen: Optional[str]) -> Dict[str, Optional[str]]:
    """{"student", "repo", "id", "timestamp"} -> header, by the rules above or --roster-columns."""
    def named(header: str) -> str:
        match = next((h for h in headers if h.strip().lower() == header.strip().lower()), None)
        if match is None:
            raise RosterError(f"{path}:1: no column '{header}' (--roster-columns); the columns are: "
                              f"{', '.join(headers)}")
        return match
    if chosen:
        parts = [p for p in chosen.split(",")]
        if not 1 <= len(parts) <= 3 or not all(p.strip() for p in parts):
            raise RosterError(f"--roster-columns '{chosen}': give STUDENT,REPO or STUDENT,REPO,ID (header names)")
        student = named(parts[0])
        repo = named(parts[1]) if len(parts) > 1 else None
        ident = named(parts[2]) if len(parts) > 2 else None
    else:
        student = _find(headers, STUDENT_WORDS)
        repo = _find(headers, REPO_WORDS, (student,))
        ident = None
    if student is None:
        raise RosterError(f"{path}:1: no student column (a header containing 'student', 'id' or 'name'; "
                          f"or --roster-columns STUDENT,REPO); the columns are: {', '.join(headers)}")
    if ident is None:
        ident = (_find(headers, ("email",), (student, repo)) or _find(headers, ("id", "number"), (student, repo))
                 or student)
    stamp = next((h for h in headers if h.strip().lower() == "timestamp"), None) or \
        _find(headers, ("time",), (student, repo, ident))
    return {"student": student, "repo": repo, "id": ident, "timestamp": stamp}


MONTH_FIRST = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})\s+(.*)$")
YEAR_FIRST = re.compile(r"^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T]+(.*))?$")
CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AaPp][Mm])?\s*(.*)$")
ZONE = re.compile(r"^(?:GMT|UTC)?\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$", re.IGNORECASE)


def parse_time(text: str, zone: Optional[datetime.tzinfo] = None) -> datetime.datetime:
    """A date and time as a form or a TA writes it: `2026/06/20 11:59:00 PM GMT+8`,
    `2026-06-20 23:59 +08:00`, `2026-06-20T15:59:00Z`, `6/20/2026 23:59:00`. No zone: `zone`
    (else UTC). ValueError with the reason."""
    text = text.strip()
    if not text:
        raise ValueError("empty")
    try:
        stamp = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        return stamp if stamp.tzinfo else stamp.replace(tzinfo=zone or datetime.timezone.utc)
    except ValueError:
        pass
    match = YEAR_FIRST.match(text)
    if match:
        year, month, day, rest = int(match[1]), int(match[2]), int(match[3]), match[4] or "00:00"
    else:
        match = MONTH_FIRST.match(text)
        if not match:
            raise ValueError(f"'{text}' is not a date and time (e.g. 2026/06/20 11:59:00 PM GMT+8)")
        month, day, year, rest = int(match[1]), int(match[2]), int(match[3]), match[4]
    clock = CLOCK.match(rest.strip())
    if not clock:
        raise ValueError(f"'{text}': no time of day (e.g. 11:59:00 PM)")
    hour, minute, second = int(clock[1]), int(clock[2]), int(clock[3] or 0)
    if clock[4]:
        if not 1 <= hour <= 12:
            raise ValueError(f"'{text}': hour {hour} with {clock[4]}")
        hour = hour % 12 + (12 if clock[4].lower() == "pm" else 0)
    tz = zone or datetime.timezone.utc
    if clock[5].strip():
        found = ZONE.match(clock[5].strip())
        if not found:
            raise ValueError(f"'{text}': '{clock[5].strip()}' is not a time zone (e.g. GMT+8, +08:00)")
        if found[1]:
            offset = datetime.timedelta(hours=int(found[2]), minutes=int(found[3] or 0))
            tz = datetime.timezone(-offset if found[1] == "-" else offset)
        else:
            tz = datetime.timezone.utc
    try:
        return datetime.datetime(year, month, day, hour, minute, second, tzinfo=tz)
    except ValueError as exc:
        raise ValueError(f"'{text}': {exc}") from None


def read_roster(path: str, columns: Optional[str] = None, zone: Optional[datetime.tzinfo] = None,
                need_repo: bool = False) -> Roster:
    """The roster in `path` (see the module's text). need_repo: a repository column is required."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise RosterError(f"--roster {path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise RosterError(f"--roster {path}: over {MAX_BYTES >> 20} MB: not a class roster")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RosterError(f"{path}:{line}: not UTF-8 text (save the roster as CSV UTF-8)") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        headers = [h.strip() for h in next(reader)]
    except StopIteration:
        raise RosterError(f"{path}: empty: expected a header line and a row per student") from None
    except csv.Error as exc:
        raise RosterError(f"{path}:1: {exc}") from None
    picked = pick_columns(path, headers, columns)
    if need_repo and picked["repo"] is None:
        raise RosterError(f"{path}:1: no repository column (a header containing 'repo', 'github' or 'url'; "
                          f"or --roster-columns STUDENT,REPO); the columns are: {', '.join(headers)}")
    index = {key: headers.index(h) if h else None for key, h in picked.items()}
    roster, seen = Roster(path, picked), {}
    try:
        for cells in reader:
            number = reader.line_num
            if not any(c.strip() for c in cells):
                continue

            def cell(key: str) -> str:
                at = index[key]
                return cells[at].strip() if at is not None and at < len(cells) else ""
            name = cell("student")
            if not name:
                raise RosterError(f"{path}:{number}: no student in column '{picked['student']}'")
            student = safe_name(name)
            if student in seen:
                first, other = seen[student]
                same = "" if other == name else f" ('{other}' and '{name}' are one folder name)"
                raise RosterError(f"{path}:{number}: student '{name}' again (first on line {first}){same}: "
                                  f"keep one row per student")
            seen[student] = (number, name)
            submitted = None
            if index["timestamp"] is not None and cell("timestamp"):
                try:
                    submitted = parse_time(cell("timestamp"), zone)
                except ValueError as exc:
                    raise RosterError(f"{path}:{number}: column '{picked['timestamp']}': {exc}") from None
            roster.entries.append(Entry(student, name, number, cell("repo") if picked["repo"] else None,
                                        cell("id") or None, submitted))
    except csv.Error as exc:
        raise RosterError(f"{path}:{reader.line_num}: {exc}") from None
    if not roster.entries:
        raise RosterError(f"{path}: no student rows under the header")
    return roster
