"""What the class graders share: the class's student folders, a fingerprint of a student's
sources (a changed student is graded again), the class's progress with the time left, the
gradebook's files, and the one-line errors."""
import datetime
import hashlib
import os
import shutil
import sys
import time
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional

from ..isolation import box as boxing
from ..runs.results import ResultsError, write_json
from ..view.csv_out import write_csv
from .report import project_version

GRADEBOOK_JSON, GRADEBOOK_CSV = "gradebook.json", "gradebook.csv"
STUDENTS = "students"
CLASS_PAGE = "index.html"          # the class page (grading/handout.py)
SKIPPED_DIRS = (".git", "build")       # never part of a student's sources (build/: outputs, stale binaries)


class ClassError(ResultsError):
    """The class folder or the output folder cannot be used; one line of text."""


class Student(NamedTuple):
    name: str
    path: str                       # absolute path of the student's folder (or of what stands there)
    problem: Optional[str] = None   # why it cannot be graded at all (a file where a folder should be)


def find_students(class_dir: str) -> List[Student]:
    """One entry per name in CLASS_DIR (hidden names aside): a folder is a student; anything else
    is a student with a problem, graded as missing, so the class goes on."""
    if not os.path.exists(class_dir):
        raise ClassError(f"class folder '{class_dir}' does not exist")
    if not os.path.isdir(class_dir):
        raise ClassError(f"'{class_dir}' is not a folder: grade takes a folder with a folder per student")
    students = []
    for name in sorted(os.listdir(class_dir)):
        if name.startswith((".", "_")):
            continue
        full = os.path.abspath(os.path.join(class_dir, name))
        problem = None if os.path.isdir(full) else f"{os.path.join(class_dir, name)} is a file, not a student's folder"
        students.append(Student(name, full, problem))
    if not students:
        raise ClassError(f"no student folders in {class_dir}")
    return students


def source_files(folder: str) -> List[str]:
    """A student's files (relative paths, sorted), build outputs and .git left out."""
    found = []
    for where, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not (where == folder and d in SKIPPED_DIRS) and d != ".git")
        found.extend(os.path.relpath(os.path.join(where, n), folder) for n in names)
    return sorted(found)


def sources_sha256(folder: str) -> str:
    """One fingerprint of every source file's name and bytes: it changes when any source does."""
    digest = hashlib.sha256()
    for rel in source_files(folder):
        path = os.path.join(folder, rel)
        digest.update(rel.encode() + b"\0")
        try:
            if os.path.islink(path):
                digest.update(b"link:" + os.readlink(path).encode())
            else:
                with open(path, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
        except OSError as exc:
            digest.update(f"unreadable: {exc.strerror}".encode())
        digest.update(b"\0")
    return digest.hexdigest()


def out_folder(out: str, student: str) -> str:
    return os.path.join(out, STUDENTS, student)


def read_json(path: str) -> Optional[dict]:
    import json
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


class Clock:
    """The class's progress: units done over the total (which may shrink, as a ladder stops
    early), with the time left estimated from the pace so far. str(): "12/80 games, about 3 min left".
    No estimate before ESTIMATE_AFTER of the work left at the start is done: the first units (a
    ladder's first rung, Congo's quick parts) are the fast ones, and an estimate from them was
    5 times too short."""

    ESTIMATE_AFTER = 0.25

    def __init__(self, total: int, unit: str, done: int = 0):
        self.total, self.unit, self.done, self.kept = total, unit, done, done
        self.started = time.monotonic()

    def add(self, count: int = 1) -> None:
        self.done += count

    def __str__(self) -> str:
        text = f"{self.done}/{self.total} {self.unit}"
        new = self.done - self.kept
        if new >= self.ESTIMATE_AFTER * max(self.total - self.kept, 1) and self.done < self.total:
            left = (time.monotonic() - self.started) / new * (self.total - self.done)
            text += f", about {left / 60:.0f} min left" if left >= 90 else f", about {left:.0f} s left"
        return text


class Sayer:
    """Progress lines: at most one every `every` seconds (and every forced one)."""

    def __init__(self, say: Callable[[str], None], every: float = 5.0):
        self.say, self.every, self.last = say, every, 0.0

    def __call__(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= self.every:
            self.last = now
            self.say(text)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def gradebook_of(class_dir: str, variant: str, box, settings: dict, rows: List[dict]) -> dict:
    """A class's gradebook: what was graded, when, by which version in which box, with which
    settings, and a row per student."""
    return {"class": os.path.abspath(class_dir), "variant": variant,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "version": project_version(), "isolation": boxing.isolation(box), "settings": settings,
            "students": rows}


def write_gradebook(out: str, gradebook: dict, fields: List[str], flat: Callable[[dict], Dict[str, object]]) -> None:
    """gradebook.json as it is, gradebook.csv one row per student (`flat` gives a row's cells;
    harness.view.csv_out writes them, formula cells neutralised)."""
    write_json(os.path.join(out, GRADEBOOK_JSON), gradebook)
    write_csv(os.path.join(out, GRADEBOOK_CSV), fields, (flat(row) for row in gradebook["students"]))


def add_gradebook_column(out: str, name: str, cells: Dict[str, object], after: Optional[str] = None) -> None:
    """OUT/gradebook.csv gains (or refreshes) column `name`: each row's cell is `cells[student]`
    (empty when absent); the column goes after `after`, else last. Written by the one CSV writer."""
    import csv
    table = os.path.join(out, GRADEBOOK_CSV)
    with open(table, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields, rows = list(reader.fieldnames or []), list(reader)
    if name not in fields:
        fields.insert(fields.index(after) + 1 if after in fields else len(fields), name)
    write_csv(table, fields, [{**row, name: cells.get(row["student"])} for row in rows])


def check_out(class_dir: str, out: str, resume: bool, force: bool) -> None:
    """--out is usable: outside the class, and not a finished grading unless resumed or forced."""
    class_abs, out_abs = os.path.realpath(class_dir), os.path.realpath(out)
    if out_abs == class_abs or out_abs.startswith(class_abs + os.sep):
        raise ClassError(f"--out {out} is inside the class folder {class_dir}; choose a folder outside it")
    if os.path.exists(os.path.join(out, GRADEBOOK_JSON)) and not (resume or force):
        raise ClassError(f"{out} already holds a gradebook; add --resume to continue that grading, "
                         f"--force to start over, or choose another --out")


def run_class_grading(args, grade: Callable[[Any], dict], summary: Callable[[dict], List[str]]) -> int:
    """The grade command for a class of programs: `grade(executor)` (on --cluster's Dask runner, or
    None for the local pool, closed at the end whatever happens), then its summary, the box and
    what was written, on stdout."""
    from ..runs.cluster import runner as cluster_runner
    executor = cluster_runner(args.cluster)
    try:
        gradebook = grade(executor)
    finally:
        if executor is not None:
            executor.close()
    print("\n".join(summary(gradebook)))
    print(f"isolation: {gradebook['isolation']}")
    print(f"written: {os.path.join(args.out, GRADEBOOK_CSV)}, {os.path.join(args.out, GRADEBOOK_JSON)}, "
          f"{os.path.join(args.out, CLASS_PAGE)}, reports in {os.path.join(args.out, STUDENTS)}")
    return 0


def joined(items: Iterable[str]) -> str:
    return " | ".join(items)


# ----------------------------------------------------------------------------- one resume rule

RUN_SETTINGS = "grading.json"       # OUT/grading.json: the class folder and the settings a grading began with
OPTION_NAMES = {"class": "the class folder", "move_timeout": "--move-timeout", "memory_mb": "--memory-mb",
                "build_timeout": "--build-timeout", "ranking_bonus": "--ranking-bonus",
                "rules_penalty": "--rules-penalty", "cases": "--cases", "seed": "--seed",
                "run_timeout": "--run-timeout", "boxed": "--no-box"}


def open_class_run(out: str, class_dir: str, settings: dict, keep: bool, force: bool) -> None:
    """The one resume rule of every class grader: the class folder and `settings` (those a
    result depends on) are recorded in OUT/grading.json; a run that keeps what OUT holds (`keep`:
    --resume, --only, --exclude) with another class folder or a changed setting is refused in one
    line naming it, before anything is written. --force starts over (the record is replaced)."""
    path = os.path.join(out, RUN_SETTINGS)
    now = {"class": os.path.realpath(class_dir), **settings}
    old = read_json(path) if keep and not force else None
    if old is not None:
        for key, value in now.items():
            if key in old and old[key] != value:
                name = OPTION_NAMES.get(key, key)
                raise ClassError(f"{out} holds a grading made with {name} {_shown(old[key])}, not {_shown(value)}: "
                                 f"give the same {name} to resume it, --force to start over, or another --out")
    os.makedirs(out, exist_ok=True)
    write_json(path, now)


def _shown(value) -> str:
    if isinstance(value, list):
        return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value) or "(none)"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# ----------------------------------------------------------------------------- --only, --exclude

def names_option(text: Optional[str]) -> List[str]:
    """--only / --exclude's value: NAME,NAME,... (none: an empty list)."""
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def select_students(names: List[str], only: List[str], exclude: List[str], class_dir: str) -> List[str]:
    """The students of `names` this run grades: those of --only (all without it), less those of
    --exclude. A name that is not in the class is a one-line ClassError."""
    for option, given in (("--only", only), ("--exclude", exclude)):
        unknown = [name for name in given if name not in names]
        if unknown:
            raise ClassError(f"{option}: no student {', '.join(unknown)} in {class_dir}")
    chosen = [name for name in names if (not only or name in only) and name not in exclude]
    if not chosen and not exclude:
        raise ClassError(f"--only: nobody left to grade in {class_dir}")
    return chosen


def kept_rows(out: str, names: List[str], graded: List[str], exclude: List[str]) -> Dict[str, dict]:
    """The rows of OUT's gradebook kept as they are (--only regrades some students, the other rows stay
    byte for byte): every student of `names` not graded now and not excluded, who has a row."""
    book = read_json(os.path.join(out, GRADEBOOK_JSON)) or {}
    old = {row.get("student"): row for row in book.get("students", []) if isinstance(row, dict)}
    return {name: old[name] for name in names if name not in graded and name not in exclude and name in old}


def drop_excluded(out: str, exclude: List[str]) -> None:
    """An excluded student's folder under OUT/students/ goes (their old reports with it)."""
    for name in exclude:
        shutil.rmtree(out_folder(out, name), ignore_errors=True)
