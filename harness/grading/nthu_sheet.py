"""The NTHU TA's whole grading sheet (docs/nthu.md, "From the form's CSV to the sheet"): every
repository of the form's roster fetched with its history (harness.grading.repos), the commit the
deadline grades, the late rule, the version-control point, the advanced bonus, the plagiarism
chronology and the TA's decisions, summed:

    points = (baselines + vcs + ranking + advanced) x late_factor x plagiarism_factor

The ladder, the builds and the ranking are harness.grading.nthu_class's, run on OUT/repos (the
graded commits' files); this module picks what is graded before and adds its fields after
(`Sheet.students`, `Sheet.amend`). Commit dates are the student's repository's own: a student
can forge them; the report says so and names the graded commit.
"""
import csv
import datetime
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..variants.nthu.grading import BASELINES
from . import repos
from ..runs.results import write_json
from .common import GRADEBOOK_JSON, ClassError, Student, add_gradebook_column
from .roster import Roster, parse_time

LATE_FACTOR = 0.6                  # the course: late within the grace period -40 %
COURSE_GRACE = datetime.timedelta(hours=2)
POLICIES = ("course", "deadline")
ADVANCED = {"mcts": 1, "nnue": 2}  # the course's bonus per algorithm
ADVANCED_NEEDS = 3                 # baselines 1..3 passed
PLAGIARIZED_FACTOR = 0.5
REPOS = "repos"
TEMPLATE = "template"
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".py", ".c")
CSV_FIELDS = ["id", "commit", "commit_date", "late", "late_factor", "later_commits", "vcs_commits", "vcs",
              "advanced", "plagiarism", "plagiarism_factor", "baselines_points", "ranking_points",
              "similarity_chronology"]


@dataclass
class SheetSettings:
    """What the sheet needs (typed; the command line's options are read in harness/commands)."""
    deadline: Optional[datetime.datetime] = None
    late_policy: str = "course"
    grace: datetime.timedelta = COURSE_GRACE
    vcs_min_commits: int = 3
    template: Optional[str] = None          # a git URL or folder
    advanced: Optional[str] = None          # BONUS.csv
    plagiarism: Optional[str] = None        # DECISIONS.csv
    ranking_bonus: Sequence[float] = ()
    roster: Optional[Roster] = None         # with a repository column: the repositories to fetch
    class_dir: Optional[str] = None         # else: the class folder (its git folders get the deadline)
    fetch: repos.FetchSettings = field(default_factory=repos.FetchSettings)
    resume: bool = False

    def recorded(self) -> dict:
        return {"deadline": self.deadline.isoformat() if self.deadline else None, "late_policy": self.late_policy,
                "grace_hours": self.grace.total_seconds() / 3600, "vcs_min_commits": self.vcs_min_commits,
                "template": self.template, "advanced": self.advanced, "plagiarism": self.plagiarism}


def parse_grace(text: str) -> datetime.timedelta:
    """--grace: `2h`, `90m`, `1.5h`, `45min`, `0`."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(h|hours?|m|min|minutes?|s|)\s*", text or "", re.IGNORECASE)
    if not match:
        raise ClassError(f"--grace '{text}': give a duration such as 2h, 90m or 0")
    unit = (match[2] or "h").lower()[0]
    return datetime.timedelta(seconds=float(match[1]) * {"h": 3600, "m": 60, "s": 1}[unit])


def parse_deadline(text: str) -> datetime.datetime:
    try:
        return parse_time(text)
    except ValueError as exc:
        raise ClassError(f"--deadline: {exc}") from None


def _table(path: str, option: str, columns: Sequence[str]) -> List[Tuple[int, Dict[str, str]]]:
    """(line, row) of a small CSV of the TA's, with `columns` required (any case)."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            headers = [h.strip().lower() for h in next(reader, [])]
            missing = [c for c in columns if c not in headers]
            if missing:
                raise ClassError(f"{option} {path}:1: no column {', '.join(missing)} (expected: {', '.join(columns)})")
            rows = []
            for cells in reader:
                if any(c.strip() for c in cells):
                    rows.append((reader.line_num, {h: (cells[i].strip() if i < len(cells) else "")
                                                   for i, h in enumerate(headers)}))
            return rows
    except OSError as exc:
        raise ClassError(f"{option} {path}: cannot be read ({exc.strerror or exc})") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise ClassError(f"{option} {path}: {exc}") from None


def read_advanced(path: str, students: Sequence[str]) -> Dict[str, str]:
    """--advanced BONUS.csv (`student`, `algorithm` MCTS or NNUE) -> {student: "MCTS"|"NNUE"}."""
    found: Dict[str, str] = {}
    for line, row in _table(path, "--advanced", ("student", "algorithm")):
        algorithm = row["algorithm"].lower()
        if algorithm not in ADVANCED:
            raise ClassError(f"--advanced {path}:{line}: algorithm '{row['algorithm']}': MCTS or NNUE")
        if row["student"] not in students:
            raise ClassError(f"--advanced {path}:{line}: '{row['student']}' is not a student of this class")
        if row["student"] in found:
            raise ClassError(f"--advanced {path}:{line}: '{row['student']}' again")
        found[row["student"]] = algorithm.upper()
    return found


def read_decisions(path: str, students: Sequence[str]) -> Dict[str, Tuple[str, str]]:
    """--plagiarism DECISIONS.csv (`plagiarizer`, `plagiarized`) -> {student: (role, the other)}."""
    found: Dict[str, Tuple[str, str]] = {}
    for line, row in _table(path, "--plagiarism", ("plagiarizer", "plagiarized")):
        for role, other in (("plagiarizer", "plagiarized"), ("plagiarized", "plagiarizer")):
            name = row[role]
            if name not in students:
                raise ClassError(f"--plagiarism {path}:{line}: '{name}' is not a student of this class")
            if found.get(name, (role,))[0] != role:
                raise ClassError(f"--plagiarism {path}:{line}: '{name}' is both a plagiarizer and plagiarized")
            if found.get(name, (None, None))[0] != "plagiarizer":     # a plagiarizer's 0 is kept
                found[name] = (role, row[other])
    return found


def _hours(delta: datetime.timedelta) -> str:
    return f"{delta.total_seconds() / 3600:.1f} h"


def _iso(stamp: int, zone: Optional[datetime.tzinfo]) -> str:
    """A commit's date, in the deadline's zone."""
    return datetime.datetime.fromtimestamp(stamp, zone or datetime.timezone.utc).isoformat(timespec="seconds")


def graded_commit(commits: List[Tuple[str, int]], settings: SheetSettings) -> Tuple[Optional[Tuple[str, int]], int]:
    """(the graded commit, or None; how many commits of the branch's line come after it): the
    newest commit of HEAD's first-parent line dated at or before the deadline (policy
    `deadline`) or deadline + grace (`course`)."""
    if settings.deadline is None:
        return (commits[0] if commits else None), 0
    cutoff = settings.deadline + (settings.grace if settings.late_policy == "course" else datetime.timedelta(0))
    limit = cutoff.timestamp()
    for index, (sha, stamp) in enumerate(commits):
        if stamp <= limit:
            return (sha, stamp), index
    return None, len(commits)


def late_rule(commit_time: Optional[int], submitted: Optional[datetime.datetime],
              settings: SheetSettings) -> Tuple[float, List[str]]:
    """(late factor, reasons): the course's -40 % within the grace, 0 after it; policy
    `deadline` never deducts."""
    if settings.deadline is None or settings.late_policy != "course":
        return 1.0, []
    factor, reasons = 1.0, []
    if commit_time is not None and commit_time > settings.deadline.timestamp():
        factor = LATE_FACTOR
        reasons.append(f"graded commit {_hours(datetime.timedelta(seconds=commit_time - settings.deadline.timestamp()))}"
                       f" after the deadline (x{LATE_FACTOR:g})")
    if submitted is not None and submitted > settings.deadline:
        late = submitted - settings.deadline
        if submitted > settings.deadline + settings.grace:
            factor = 0.0
            reasons.append(f"submitted {_hours(late)} late (the form's Timestamp; after the {_hours(settings.grace)}"
                           f" grace: 0)")
        else:
            factor = min(factor, LATE_FACTOR)
            reasons.append(f"submitted {_hours(late)} late (the form's Timestamp, within the grace: x{LATE_FACTOR:g})")
    return factor, reasons


class Sheet:
    """The hook harness.grading.nthu_class calls: `students` before building, `amend` on the rows
    before the reports and the gradebook are written, `csv_fields`/`csv_cells` for gradebook.csv,
    `report_lines` for the student's report."""

    def __init__(self, settings: SheetSettings, say: Callable[[str], None] = print):
        self.settings, self.say = settings, say
        self.zone = settings.deadline.tzinfo if settings.deadline else None
        self.info: Dict[str, dict] = {}        # per student: commit, dates, late, vcs, ...
        self.template_commits: set = set()
        self.csv_fields = CSV_FIELDS
        self.advanced: Optional[Dict[str, str]] = None                  # --advanced, once read
        self.decisions: Dict[str, Tuple[str, str]] = {}                 # --plagiarism

    # ------------------------------------------------------------------ before the build
    def class_path(self) -> str:
        s = self.settings
        return s.roster.path if s.roster is not None and s.class_dir is None else s.class_dir

    def _entries(self, out: str) -> List[Tuple[str, Optional[str], Optional[str], Optional[datetime.datetime]]]:
        """(student, URL or None, problem, submitted) per student of the roster or the class folder."""
        s = self.settings
        found = []
        if s.class_dir is None:
            for e in s.roster.entries:
                try:
                    url, problem = repos.url_of(e.repo or "", os.path.dirname(os.path.abspath(s.roster.path))), None
                except repos.RepoError as exc:
                    url, problem = None, f"{exc} (roster line {e.line})"
                found.append((e.student, url, problem, e.submitted))
            return found
        from .common import find_students
        submitted = {e.student: e.submitted for e in s.roster.entries} if s.roster else {}
        for student in find_students(s.class_dir):
            git_dir = os.path.join(student.path, ".git")
            if student.problem or not os.path.isdir(git_dir):
                found.append((student.name, None, student.problem or "", submitted.get(student.name)))
            else:
                found.append((student.name, "file://" + student.path, None, submitted.get(student.name)))
        return found

    def students(self, out: str, say: Callable[[str], None]) -> List[Student]:
        """Every student to grade: its repository fetched into OUT/repos/NAME and the graded
        commit's files written there; a student that cannot be fetched or has no commit before
        the deadline is a Student with that problem (graded 0 with it)."""
        s = self.settings
        root = os.path.join(out, REPOS)
        os.makedirs(root, exist_ok=True)
        note = repos.fetch_note(s.fetch)
        if note:
            say(f"note: the repositories' fetch: {note}")
        if s.template:
            self._template(out, say)
        result = []
        for name, url, problem, submitted in self._entries(out):
            info = self.info.setdefault(name, {"submitted": submitted.isoformat() if submitted else None})
            if url is None and problem == "":
                # a class folder's student without git: graded as it is, no deadline (a copy in
                # OUT/repos, so that folder holds the whole class, as --similar compares it)
                folder = os.path.join(root, name)
                if os.path.lexists(folder):
                    shutil.rmtree(folder)
                shutil.copytree(os.path.join(s.class_dir, name), folder, symlinks=True,
                                ignore=shutil.ignore_patterns(".git"))
                result.append(Student(name, os.path.abspath(folder)))
                info["note"] = "not a git repository: graded as it is, no deadline applied"
                say(f"note: {name}: {info['note']}")
                continue
            if url is None:
                result.append(Student(name, os.path.join(root, name), problem))
                info["problem"] = problem
                say(f"{name}: {problem}: graded 0")
                continue
            folder = os.path.join(root, name)
            try:
                what = repos.fetch(url, folder, s.fetch, s.resume)
                commits = repos.head_commits(folder)
                chosen, later = graded_commit(commits, s)
                info.update(branch=repos.branch_name(folder), later_commits=later, url=url)
                if chosen is None:
                    first = _iso(commits[-1][1], self.zone) if commits else "none"
                    raise repos.RepoError(f"no commit on {info['branch']} dated before the deadline"
                                          f"{' + grace' if s.late_policy == 'course' else ''} (the first: {first})")
                info.update(commit=chosen[0], commit_time=chosen[1], commit_date=_iso(chosen[1], self.zone))
                mark = os.path.join(folder, ".git", "grader-extracted")
                kept = open(mark).read().strip() if os.path.isfile(mark) else None
                if not (s.resume and kept == chosen[0]):
                    repos.extract(folder, chosen[0], s.fetch)
                    with open(mark, "w") as handle:
                        handle.write(chosen[0])
                mine = [sha for sha, _ in repos.history(folder, chosen[0]) if sha not in self.template_commits]
                info["vcs_commits"] = len(mine)
                say(f"{name}: {what}; graded {chosen[0][:12]} ({info['commit_date']}), {later} later commits")
                result.append(Student(name, os.path.abspath(folder)))
            except repos.RepoError as exc:
                info["problem"] = str(exc)
                say(f"{name}: {exc}: graded 0")
                result.append(Student(name, os.path.abspath(folder), str(exc)))
        self.read_tables([student.name for student in result])
        return result

    def read_tables(self, names: Sequence[str]) -> None:
        """--advanced and --plagiarism read before anything is built: a bad line stops at once."""
        s = self.settings
        self.advanced = read_advanced(s.advanced, names) if s.advanced else {}
        self.decisions = read_decisions(s.plagiarism, names) if s.plagiarism else {}

    def _template(self, out: str, say: Callable[[str], None]) -> None:
        s = self.settings
        folder = os.path.join(out, TEMPLATE)
        try:
            repos.fetch(repos.url_of(s.template), folder, s.fetch, s.resume)
            self.template_commits = {sha for sha, _ in repos.history(folder, "HEAD")}
            head = repos.head_commits(folder)[0][0]
            repos.extract(folder, head, s.fetch)
        except repos.RepoError as exc:
            raise ClassError(f"--template {s.template}: {exc}") from None
        say(f"template {s.template}: {len(self.template_commits)} commits, not counted for version control")

    # ------------------------------------------------------------------ after the ladder
    def amend(self, rows: List[dict]) -> None:
        """Each row gets the sheet's fields and its points, summed as the course does."""
        s = self.settings
        if self.advanced is None:
            self.read_tables([r["student"] for r in rows])
        advanced, decisions = self.advanced, self.decisions
        ids = {e.student: e.id for e in s.roster.entries} if s.roster else {}
        bonus = list(s.ranking_bonus)
        for row in rows:
            name = row["student"]
            info = self.info.get(name, {})
            rank = row.get("rank")
            ranking = bonus[rank - 1] if rank is not None and rank <= len(bonus) else 0.0
            baselines = row["points"] - ranking if row.get("build") == "ok" else 0.0
            late_factor, late_reasons = late_rule(info.get("commit_time"), _when(info.get("submitted")), s)
            if info.get("problem"):
                late_factor = 1.0
            vcs_count = info.get("vcs_commits")
            vcs_bonus = 1 if vcs_count is not None and vcs_count >= s.vcs_min_commits else 0
            algorithm = advanced.get(name)
            passed = [row["baselines"].get(b, {}).get("passed") for b in BASELINES[:ADVANCED_NEEDS]]
            entry = None
            if algorithm:
                given = all(passed)
                entry = {"algorithm": algorithm, "bonus": ADVANCED[algorithm.lower()] if given else 0,
                         "reason": None if given else f"baselines 1-{ADVANCED_NEEDS} not all passed: no bonus"}
            role = decisions.get(name)
            plagiarism_factor = 1.0 if role is None else (0.0 if role[0] == "plagiarizer" else PLAGIARIZED_FACTOR)
            advanced_points = entry["bonus"] if entry else 0
            total = (baselines + vcs_bonus + ranking + advanced_points) * late_factor * plagiarism_factor
            row.update({
                "id": ids.get(name),
                "commit": info.get("commit"), "commit_date": info.get("commit_date"),
                "branch": info.get("branch"), "submitted": info.get("submitted"),
                "late": bool(late_reasons), "late_reasons": late_reasons, "late_factor": late_factor,
                "later_commits": info.get("later_commits"),
                "vcs": {"commits": vcs_count, "bonus": vcs_bonus, "needed": s.vcs_min_commits},
                "advanced": entry,
                "plagiarism": None if role is None else {"role": role[0], "other": role[1]},
                "points_breakdown": {"baselines": _number(baselines), "vcs": vcs_bonus, "ranking": _number(ranking),
                                     "advanced": advanced_points, "late_factor": late_factor,
                                     "plagiarism_factor": plagiarism_factor},
                "points": _number(round(total, 2)),
            })
            if info.get("problem"):
                row["repository_problem"] = info["problem"]

    def csv_cells(self, row: dict) -> dict:
        b = row.get("points_breakdown") or {}
        plag = row.get("plagiarism")
        return {"id": row.get("id"), "commit": row.get("commit"), "commit_date": row.get("commit_date"),
                "late": " | ".join(row.get("late_reasons") or []) or "no", "late_factor": row.get("late_factor"),
                "later_commits": row.get("later_commits"), "vcs_commits": (row.get("vcs") or {}).get("commits"),
                "vcs": (row.get("vcs") or {}).get("bonus"),
                "advanced": "" if not row.get("advanced") else
                f"{row['advanced']['algorithm']} +{row['advanced']['bonus']}" +
                (f" ({row['advanced']['reason']})" if row["advanced"]["reason"] else ""),
                "plagiarism": "" if not plag else f"{plag['role']} ({plag['other']})",
                "plagiarism_factor": b.get("plagiarism_factor"), "baselines_points": b.get("baselines"),
                "ranking_points": b.get("ranking"),
                "similarity_chronology": " | ".join(c["text"] for c in row.get("similarity_chronology") or [])}

    def report_lines(self, row: dict) -> List[str]:
        """The student's report: the graded commit and the points' breakdown."""
        b = row.get("points_breakdown")
        if not b:
            return []
        lines = ["", "## Points", ""]
        if row.get("commit"):
            lines.append(f"- graded commit: {row['commit']} ({row['commit_date']}) on {row.get('branch')}; "
                         f"{row.get('later_commits') or 0} later commits not graded. Commit dates are your "
                         f"repository's own (they can be forged); the TA may check them against GitHub's.")
        if row.get("repository_problem"):
            lines.append(f"- repository: {row['repository_problem']}")
        lines += [f"- baselines: {b['baselines']}",
                  f"- version control: +{b['vcs']} ({row['vcs']['commits'] if row['vcs']['commits'] is not None else 'no'}"
                  f" commits of yours, {row['vcs']['needed']} needed)",
                  f"- ranking: +{b['ranking']}",
                  f"- advanced: +{b['advanced']}" + (f" ({row['advanced']['algorithm']}"
                                                      + (f": {row['advanced']['reason']}" if row['advanced']['reason'] else "")
                                                      + ")" if row.get("advanced") else ""),
                  f"- late: x{b['late_factor']:g}" + (f" ({'; '.join(row['late_reasons'])})" if row.get("late_reasons") else ""),
                  f"- plagiarism: x{b['plagiarism_factor']:g}" + (
                      f" ({row['plagiarism']['role']}, with {row['plagiarism']['other']})" if row.get("plagiarism") else ""),
                  f"- points = ({b['baselines']} + {b['vcs']} + {b['ranking']} + {b['advanced']}) x {b['late_factor']:g}"
                  f" x {b['plagiarism_factor']:g} = {row['points']}"]
        return lines

    # ------------------------------------------------------------------ plagiarism chronology
    def chronology(self, pairs: List[dict], class_dir: str) -> None:
        """Each flagged pair gets "chronology": per student the committer date of the earliest
        commit (of the graded commit's history) whose tree holds the pair's longest shared
        fragment, and which was first."""
        for pair in pairs:
            if not pair.get("flagged") or not pair.get("fragments"):
                continue
            longest = pair["fragments"][0]
            sides = {}
            for key in ("a", "b"):
                name = pair[key]
                sides[key] = first_holding(os.path.join(class_dir, name), self.info.get(name, {}).get("commit"),
                                           longest[key]["file"], longest[key]["lines"], self.zone)
            pair["chronology"] = describe_chronology(pair["a"], pair["b"], sides["a"], sides["b"])


def _when(text: Optional[str]) -> Optional[datetime.datetime]:
    return datetime.datetime.fromisoformat(text) if text else None


def _number(value: float):
    return int(value) if float(value) == int(value) else value


def _squeeze(data: bytes) -> bytes:
    return re.sub(rb"\s+", b"", data)


def fragment_text(folder: str, path: str, lines: Sequence[int]) -> Optional[bytes]:
    full = os.path.join(folder, path)
    if os.path.islink(full) or not os.path.isfile(full):
        return None
    with open(full, "rb") as handle:
        text = handle.read(4 << 20).split(b"\n")
    return _squeeze(b"\n".join(text[lines[0] - 1:lines[1]]))


def first_holding(folder: str, commit: Optional[str], path: str, lines: Sequence[int],
                  zone: Optional[datetime.tzinfo] = None) -> Optional[dict]:
    """{"commit", "date"} of the earliest commit reachable from `commit` whose tree holds the
    text of `path`'s `lines` (white space aside), in any source file; None if unknown."""
    if commit is None:
        return None
    needle = fragment_text(folder, path, lines)
    if not needle:
        return None
    blobs = repos.Blobs(folder)
    held: Dict[str, bool] = {}
    try:
        for sha, stamp in repos.history(folder, commit):
            files = [b for b, p in blobs.tree(sha) if p.lower().endswith(SOURCE_SUFFIXES)]
            todo = [b for b in files if b not in held]
            for blob, data in blobs.contents(todo).items():
                held[blob] = needle in _squeeze(data)
            if any(held.get(b) for b in files):
                return {"commit": sha, "date": _iso(stamp, zone)}
    except repos.RepoError:
        return None
    return None


def describe_chronology(a: str, b: str, first_a: Optional[dict], first_b: Optional[dict]) -> dict:
    """{"a", "b", "earlier", "later", "text"}: "earlier: A 2026-06-12, later: B 2026-06-19"."""
    out = {"a": first_a, "b": first_b, "earlier": None, "later": None}
    if first_a is None or first_b is None:
        missing = [n for n, f in ((a, first_a), (b, first_b)) if f is None]
        out["text"] = f"commit dates unknown for {', '.join(missing)} (not a repository fetched by the grader)"
        return out
    if first_a["date"] == first_b["date"]:
        out["text"] = f"same date: {a} and {b} {first_a['date'][:10]}"
        return out
    (early, e), (late, lt) = sorted(((a, first_a), (b, first_b)), key=lambda x: x[1]["date"])
    out.update(earlier=early, later=late, text=f"earlier: {early} {e['date'][:10]}, later: {late} {lt['date'][:10]}")
    return out


def student_similarity(pairs: Sequence[dict]) -> Dict[str, List[dict]]:
    """Per student, its flagged pairs: {"other", "similarity", "text"} (the chronology's text)."""
    found: Dict[str, List[dict]] = {}
    for pair in pairs:
        if not pair.get("flagged"):
            continue
        text = (pair.get("chronology") or {}).get("text", "")
        for me, other in ((pair["a"], pair["b"]), (pair["b"], pair["a"])):
            found.setdefault(me, []).append({"other": other, "similarity": pair["similarity"],
                                             "earlier": (pair.get("chronology") or {}).get("earlier"),
                                             "text": f"{pair['similarity'] * 100:.1f} % with {other}"
                                                     + (f" ({text})" if text else "")})
    return found


def add_chronology(out: str, pairs: Sequence[dict]) -> None:
    """gradebook.json's rows get `similarity_chronology` (their flagged pairs, who was first) and
    gradebook.csv its column, once `--similar` has run."""
    found = student_similarity(pairs)
    path = os.path.join(out, GRADEBOOK_JSON)
    with open(path, encoding="utf-8") as handle:
        book = json.load(handle)
    for row in book["students"]:
        row["similarity_chronology"] = found.get(row["student"], [])
    write_json(path, book)
    add_gradebook_column(out, "similarity_chronology", {
        name: " | ".join(entry["text"] for entry in entries) for name, entries in found.items()})
