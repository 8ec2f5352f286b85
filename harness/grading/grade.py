"""Grading a whole class: every student's file checked and played against the opponents as the
course would, boxed, on this machine's pool or a Dask cluster, with a gradebook at the end.

A submission is a sub-folder of CLASS_DIR (the folder's name is the student; the file is found
by `harness.grading.submission`'s rule, the Gradescope bundle's: AB.py in any case at any depth, else the
one .py file that defines studentAgent) or a ``.py`` file directly in CLASS_DIR (the stem is the
student); every other entry is named in the gradebook with why it is not graded. Each file is
checked (`harness.grading.file_check`, in the box) and played by `harness.grading.report`'s plans under
``OUT/students/NAME/`` (one series per opponent, results.jsonl appended as games end), so
``--resume`` plays no finished game again and the gradebook is rebuilt from the results. A broken
file never stops the class: its games are lost the way the course loses them (crash,
timeout, illegal move, printing) and a file the check rejects gets the verdict ``rejected``.

Output: ``OUT/gradebook.csv`` and ``OUT/gradebook.json`` (one row per student with the course's
verdict and the Gradescope bundle's points, fields in docs/grading.md) and per student report.json,
report.md and report.html, written for the student (`student_report`). A resume with other
settings is refused (`results.open_group`).
"""
import datetime
import json
import multiprocessing
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ..isolation import box as boxing
from .file_check import check_summary
from .report_html import write_report_html
from .report import (COURSE_GAME_SECONDS, DEFAULT_OPPONENTS, build_report, directory_name, opponent_entry,
                     opponent_score, plan_report, printed_text, project_version, split_points, write_report)
from ..runs.results import (RESULTS_FILE, ResultsError, changed_files, check_free, file_sha256, group_settings,
                            hold_folder, open_group, read_settings, write_json)
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from ..runs.series import RunOptions, RunResult, run_plans
from .common import (GRADEBOOK_CSV, GRADEBOOK_JSON, STUDENTS, drop_excluded, kept_rows, open_class_run,
                     select_students)
from .handout import write_class_page
from .reasons import GAME_FAULTS
from ..view.csv_out import write_csv
from .submission import class_entry, find_submission
from ..variants import DEFAULT_VARIANT

CHECK_FILE = "check.json"
FAULTS = GAME_FAULTS


class GradeError(ResultsError):
    """The class folder or the output folder cannot be used; one line of text."""


@dataclass
class Submission:
    student: str
    path: Optional[str]            # absolute path of the file to grade; None when there is none
    share: str                     # what the box shows it: "folder" (its sub-folder) or "file"
    problem: Optional[str] = None  # why there is no file

    @property
    def folder(self) -> str:
        return directory_name(self.student)


    @property
    def root(self) -> Optional[str]:
        """The folder the student's paths are relative to: their sub-folder, or the class folder
        for a loose file."""
        if self.path is None:
            return None
        if self.share == "file":
            return os.path.dirname(self.path)
        return self.path[:len(self.path) - len(self.shown)].rstrip(os.sep)

    shown: str = ""                # the file as the student knows it: relative to their submission

    @property
    def class_name(self) -> str:
        """The file relative to the class folder (`NAME/AB.py`, a loose `NAME.py`): how its series
        name it (`SeriesPlan.shown`), never by a path of the TA's."""
        return self.shown if self.share == "file" else f"{self.student}/{self.shown}"


def find_submissions(class_dir: str, skipped: Optional[List[dict]] = None) -> List[Submission]:
    """The class's submissions, by student name; each entry of the class folder that is not one
    goes to `skipped` as {"entry", "reason"}."""
    if not os.path.exists(class_dir):
        raise GradeError(f"class folder '{class_dir}' does not exist")
    if not os.path.isdir(class_dir):
        raise GradeError(f"'{class_dir}' is not a folder: grade takes a folder of submissions")
    found: Dict[str, Submission] = {}
    skipped = [] if skipped is None else skipped
    for name in sorted(os.listdir(class_dir)):
        full = os.path.abspath(os.path.join(class_dir, name))
        kind, why = class_entry(name, full)
        if kind == "skip":
            skipped.append({"entry": name, "reason": why})
            continue
        if kind == "folder":
            student = name
            chosen, note = find_submission(full)
            sub = (Submission(student, os.path.join(full, chosen), "folder", shown=chosen) if chosen
                   else Submission(student, None, "folder", note))
        else:
            student = os.path.splitext(name)[0]
            sub = Submission(student, full, "file", shown=name)
        if sub.folder in {s.folder for s in found.values()}:
            raise GradeError(f"two submissions in {class_dir} are both student '{student}' "
                             f"(a folder and a .py file?); rename one")
        found[student] = sub
    if not found:
        raise GradeError(f"no submissions in {class_dir}: expected sub-folders with AB.py or .py files"
                         + (f" ({len(skipped)} entries not graded: "
                            f"{'; '.join(e['entry'] + ': ' + e['reason'] for e in skipped[:3])})" if skipped else ""))
    return list(found.values())


def _cached_check(sub: Submission, out: str, sha: Optional[str], move_timeout: float,
                  box: boxing.BoxSettings, reuse: bool) -> dict:
    """The course's check of the file (its problems naming the file as the student knows it),
    kept in OUT/students/NAME/check.json with its sha256."""
    path = os.path.join(out, CHECK_FILE)
    if reuse and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                kept = json.load(handle)
            if kept.get("sha256") == sha and kept.get("shown") == sub.shown:
                return kept["check"]
        except (ValueError, KeyError, OSError):
            pass
    check = _relative(check_summary(sub.path, move_timeout, box, name=sub.shown), sub.root)
    os.makedirs(out, exist_ok=True)
    write_json(path, {"sha256": sha, "shown": sub.shown, "check": check})
    return check


def _relative(data, root: Optional[str]):
    """`data` (report or check structures) with every path under the student's submission
    folder `root` written relative to it: what the student is shown names no TA's folder."""
    if root is None:
        return data
    prefix = root.rstrip(os.sep) + os.sep
    if isinstance(data, str):
        return data.replace(prefix, "")
    if isinstance(data, list):
        return [_relative(item, root) for item in data]
    if isinstance(data, dict):
        return {key: _relative(value, root) for key, value in data.items()}
    return data


def _relative_file(path: str, root: Optional[str]) -> None:
    """The page at `path` with the student's folder `root` left out of every path (`_relative`)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(_relative(text, root))


def _check_one(args: tuple) -> dict:
    return _cached_check(*args)


def _check_all(submissions: List[Submission], out: str, shas: Dict[str, Optional[str]], move_timeout: float,
               shares: Dict[str, boxing.BoxSettings], resume: bool, jobs: Optional[int],
               say: Callable[[str], None]) -> Dict[str, dict]:
    """Every file's check, `jobs` at a time. In processes (spawned: this process may hold a Dask
    client's threads), not threads: Python 3.11's ast.parse is not safe in parallel threads."""
    say(f"checking {len(submissions)} files")
    work = [(sub, os.path.join(out, STUDENTS, sub.folder), shas[sub.student], move_timeout, shares[sub.share],
             resume) for sub in submissions]
    jobs = min(max(1, jobs or os.cpu_count() or 1), len(work))
    if jobs <= 1:
        results = [_check_one(item) for item in work]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_check_one, work)
    return {sub.student: result for sub, result in zip(submissions, results)}


def _faults(entries: Dict[str, dict]) -> Dict[str, int]:
    total: Dict[str, int] = {}
    for e in entries.values():
        for reason, count in e["lost_by"].items():
            if reason in FAULTS:
                total[reason] = total.get(reason, 0) + count
    return total


def course_points(report: Optional[dict], check: Optional[dict], points: float, partial: bool,
                  opponents: Sequence[str]) -> dict:
    """The points the Gradescope bundle would give (`report.opponent_score`, the same rule and
    options): {"total", "of", "opponents": {name: points}}. A file missing or rejected by the
    course's check scores 0 (the course scores it 0, and the bundle plays no game of it)."""
    shares = split_points(points, opponents)
    entries = report["opponents"] if report else {}
    scored = {name: 0.0 for name in opponents}
    if report is not None and (check is None or check["accepted"]):
        for name in opponents:
            e = entries.get(name)
            if e is not None:
                scored[name] = opponent_score(shares[name], e["pass_mark"], e["course_not_lost"], e["games"],
                                              partial, name)[0]
    return {"total": round(sum(scored.values()), 2), "of": points, "partial": partial, "opponents": scored}


def _longest_game(entries: Dict[str, dict]) -> Optional[float]:
    """The longest thinking over one game, in seconds (3 decimals); None when the file never
    moved (a file that fails at import has no game of its own to time)."""
    moved = [e["game_seconds_max"] for e in entries.values() if (e["plies"]["max"] or 0) > 0]
    return round(max(moved), 3) if moved else None


def _row(sub: Submission, class_dir: str, opponents: Sequence[str], sha: Optional[str],
         check: Optional[dict], report: Optional[dict], points: dict) -> dict:
    """One student's gradebook row (JSON form: per opponent nested)."""
    entries = report["opponents"] if report else {}
    if sub.path is None:
        verdict = "no file"
    elif check is not None and not check["accepted"]:
        verdict = "rejected"
    else:
        verdict = {True: "pass", False: "fail", None: "n/a"}[report["passed"]]
    errors = [err for e in entries.values() for err in e["errors"]]
    printed = sum(e["printed_games"] for e in entries.values())
    return {
        "student": sub.student,
        "file": os.path.relpath(sub.path, class_dir) if sub.path else None,
        "sha256": sha,
        "check": "missing" if sub.path is None else ("accepted" if check["accepted"] else "rejected"),
        "check_reasons": [sub.problem] if sub.path is None else check["problems"],
        "opponents": {name: {"games": entries[name]["games"], "wins": entries[name]["wins"],
                             "draws": entries[name]["draws"], "losses": entries[name]["losses"],
                             "printed_games": entries[name]["printed_games"],
                             "pass_mark": entries[name]["pass_mark"], "passed": entries[name]["passed"],
                             "points": points["opponents"][name]}
                      for name in opponents if name in entries},
        "verdict": verdict,
        "points": points["total"],
        "faults": _faults(entries),
        "first_error": errors[0] if errors else None,
        "max_game_seconds": _longest_game(entries),
        "printed_games": printed,
        "same_file_as": [],            # filled in once every row is known
        "notes": [f"{printed_text(printed)}: counted as lost, the course rejects files that print"]
        if printed else [],
    }


def flag_identical(rows: List[dict], kept: Sequence[str] = ()) -> None:
    """Rows whose files have the same sha256 name each other (same_file_as) and say so in notes;
    the rows of `kept` (kept as they were by --only) are left as they are."""
    by_sha: Dict[str, List[str]] = {}
    for row in rows:
        if row["sha256"]:
            by_sha.setdefault(row["sha256"], []).append(row["student"])
    for row in rows:
        if row["student"] in kept:
            continue
        others = [name for name in by_sha.get(row["sha256"] or "", []) if name != row["student"]]
        row["same_file_as"] = others
        if others:
            row["notes"].append(f"the same file (sha256) as {', '.join(others)}")


def csv_fields(opponents: Sequence[str]) -> List[str]:
    per = [f"{name}_{field}" for name in opponents for field in ("wins", "draws", "losses", "pass", "points")]
    return (["student", "file", "sha256", "check", "check_reasons"] + per +
            ["verdict", "points", "faults", "first_error", "max_game_seconds", "printed_games", "same_file_as",
             "notes"])


def csv_row(row: dict, opponents: Sequence[str]) -> dict:
    flat = {key: row[key] for key in ("student", "file", "sha256", "check", "verdict", "points", "first_error",
                                      "max_game_seconds", "printed_games")}
    flat["check_reasons"] = " | ".join(row["check_reasons"])
    flat["faults"] = ", ".join(f"{reason} {count}" for reason, count in row["faults"].items())
    flat["same_file_as"] = ", ".join(row["same_file_as"])
    flat["notes"] = "; ".join(row["notes"])
    for name in opponents:
        o = row["opponents"].get(name)
        for field in ("wins", "draws", "losses", "points"):
            flat[f"{name}_{field}"] = "" if o is None else o[field]
        flat[f"{name}_pass"] = "" if o is None or o["passed"] is None else ("yes" if o["passed"] else "no")
    return {key: ("" if value is None else value) for key, value in flat.items()}


def write_gradebook(out: str, gradebook: dict) -> None:
    write_json(os.path.join(out, GRADEBOOK_JSON), gradebook)
    opponents = gradebook["settings"]["opponents"]
    write_csv(os.path.join(out, GRADEBOOK_CSV), csv_fields(opponents),
              (csv_row(row, opponents) for row in gradebook["students"]))


def say(text: str) -> None:
    from tqdm import tqdm
    tqdm.write(text, file=sys.stderr)


@dataclass(frozen=True)
class ClassGradeSettings:
    """How `grade_class` grades a class: what is played (games per opponent, the opponents, the
    variant, its start options `start`: fifty, max_plies, config, fen, as for a SeriesPlan), the
    limits (seed, move_timeout, game_time, the box: None is the default box), the Gradescope
    bundle's scoring (points, partial: `course_points`), and how it runs (jobs, executor: a Dask
    runner or None for the local pool, resume, force, progress, say: where the notes go)."""
    games: int = 50
    opponents: Sequence[str] = DEFAULT_OPPONENTS
    variant: str = DEFAULT_VARIANT
    seed: int = 0
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    game_time: Optional[float] = COURSE_GAME_SECONDS
    box: Optional[boxing.BoxSettings] = None
    start: Optional[Mapping[str, Any]] = None
    points: float = 100.0
    partial: bool = False
    jobs: Optional[int] = None
    executor: Any = None
    resume: bool = False
    force: bool = False
    progress: Union[str, bool] = "auto"
    say: Callable[[str], None] = say
    only: Sequence[str] = ()           # grade these students again, every other row kept as it was
    exclude: Sequence[str] = ()        # these students' rows and folders go

    @property
    def keeps(self) -> bool:
        """Does this run keep what OUT holds (--resume, --only, --exclude)?"""
        return bool(self.resume or self.only or self.exclude)

    def __post_init__(self):
        object.__setattr__(self, "box", self.box or boxing.BoxSettings())
        object.__setattr__(self, "start", dict(self.start or {}))

    @property
    def limits(self) -> dict:
        """The limits every game is played with (a series' settings, and the gradebook's)."""
        return {"seed": self.seed, "move_timeout": self.move_timeout, "game_time": self.game_time,
                "variant": self.variant}

    def shares(self) -> Dict[str, boxing.BoxSettings]:
        """The box a submission runs in, by what it shows: its sub-folder ("folder") or the file."""
        return {share: boxing.BoxSettings(**{**self.box.to_dict(), "share": share}) for share in ("folder", "file")}

    def recorded(self) -> dict:
        """The settings as gradebook.json and each report.json name them."""
        return {"games": self.games, "colour": "white", "opponents": list(self.opponents), **self.limits,
                "points": self.points, "partial": self.partial,
                "box": self.box.to_dict(), "cluster": getattr(self.executor, "address", None),
                "jobs": None if self.executor else (self.jobs or os.cpu_count())}


def grade_class(class_dir: str, out: str, settings: ClassGradeSettings = ClassGradeSettings()) -> dict:
    """Grade every submission in `class_dir` into `out` as `settings` say; return the gradebook
    (also written)."""
    grading = _ClassGrading(class_dir, out, settings)
    with hold_folder(out):          # one run at a time in OUT
        grading.open_out()
        grading.lay_out()
        grading.check_files()
        gradebook = grading.gradebook(grading.play())
        write_gradebook(out, gradebook)
        write_class_page(out, gradebook)
    return gradebook


class _ClassGrading:
    """One run of `grade_class`, step by step: what it found in the class folder, the plans laid
    out per student, the files' sha256 and checks."""

    def __init__(self, class_dir: str, out: str, settings: ClassGradeSettings):
        """The class's submissions; GradeError for an OUT that cannot be used (inside the class or
        the toolkit, busy, or holding a gradebook that neither --resume nor --force names)."""
        self.class_dir, self.out, self.settings, self.say = class_dir, out, settings, settings.say
        class_abs, out_abs = os.path.realpath(class_dir), os.path.realpath(out)
        if out_abs == class_abs or out_abs.startswith(class_abs + os.sep):
            raise GradeError(f"--out {out} is inside the class folder {class_dir}; choose a folder outside it")
        inside_repository(out)
        self.skipped: List[dict] = []
        self.submissions = find_submissions(class_dir, self.skipped)
        names = [sub.student for sub in self.submissions]
        chosen = select_students(names, list(settings.only), list(settings.exclude), class_dir)
        self.kept = kept_rows(out, names, chosen, list(settings.exclude)) if settings.only and not settings.force \
            else {}
        self.order = [name for name in names if name in chosen or name in self.kept]
        self.submissions = [sub for sub in self.submissions if sub.student in chosen]
        check_free(out)
        if os.path.exists(os.path.join(out, GRADEBOOK_JSON)) and not (settings.keeps or settings.force):
            raise GradeError(f"{out} already holds a gradebook; add --resume to continue that grading, "
                             f"--force to start over, or choose another --out")
        self.shares = settings.shares()
        self.laid_out: Dict[str, list] = {}
        self.shas: Dict[str, Optional[str]] = {}
        self.checks: Dict[str, dict] = {}

    def open_out(self) -> None:
        """OUT ready for this grading: a resume with other settings refused before anything is
        written (results.open_group), an old grading gone on --force; the notes said."""
        s, out = self.settings, self.out
        open_class_run(out, self.class_dir, {}, s.keeps, s.force)
        open_group(out, group_settings({**s.limits, **s.start, "box": s.box.to_dict()}, games=s.games,
                                       opponents=list(s.opponents), colour="white", points=s.points,
                                       partial=s.partial),
                   s.keeps, s.force, "grading")
        if s.force:
            # the old gradebook goes first: a run stopped from here on leaves none beside emptied reports
            for name in (GRADEBOOK_JSON, GRADEBOOK_CSV):
                if os.path.exists(os.path.join(out, name)):
                    os.remove(os.path.join(out, name))
            if os.path.isdir(os.path.join(out, STUDENTS)):
                shutil.rmtree(os.path.join(out, STUDENTS))
        drop_excluded(out, [directory_name(name) for name in s.exclude])
        if s.only and not s.resume:         # graded again from the start
            for sub in self.submissions:
                shutil.rmtree(os.path.join(out, STUDENTS, sub.folder), ignore_errors=True)
        try:
            os.makedirs(os.path.join(out, STUDENTS), exist_ok=True)
        except OSError as exc:
            raise GradeError(f"cannot create the output folder '{out}': {exc.strerror or exc}") from None
        for entry in self.skipped:
            self.say(f"not graded: {entry['entry']}: {entry['reason']}")
        if boxing.weaker(s.box):
            self.say(f"note: {boxing.isolation(s.box)}")

    def lay_out(self) -> None:
        """Each file's series (`report.plan_report`) under OUT/students/NAME/; a file changed since
        the last run has its games played again."""
        s = self.settings
        for sub in self.submissions:
            if sub.path is None:
                continue
            student_out = os.path.join(self.out, STUDENTS, sub.folder)
            self.shas[sub.student] = file_sha256(sub.path)
            plans = plan_report(sub.path, s.opponents, ("white",), s.games, student_out,
                                box=self.shares[sub.share].to_dict(), shown={sub.path: sub.class_name},
                                **s.limits, **s.start)
            # the series record their files' sha256 (series.py): a changed file's games are played again
            if any(changed_files(read_settings(plan.out), plan.settings()) for *_, plan in plans):
                self.say(f"note: {sub.student}'s file changed since the last run: its games are played again")
                shutil.rmtree(student_out)
            for key, _opponent, _colour, plan in plans:
                plan.label = f"{sub.student} vs {key}"
            self.laid_out[sub.student] = plans

    def check_files(self) -> None:
        """The course's check of every file (kept in check.json, reused on --resume)."""
        s = self.settings
        self.checks = _check_all([sub for sub in self.submissions if sub.path is not None], self.out, self.shas,
                                 s.move_timeout, self.shares, s.resume, s.jobs, self.say)

    def play(self) -> Dict[int, List[dict]]:
        """Every plan's games (those kept from an earlier run counted, not played again), by id of
        the plan; says each student once their games are done."""
        owner = {id(plan): student for student, plans in self.laid_out.items() for *_, plan in plans}
        left = {student: len(plans) for student, plans in self.laid_out.items()}
        finished: List[str] = []

        def plan_done(plan, records) -> None:
            student = owner[id(plan)]
            left[student] -= 1
            if not left[student]:
                finished.append(student)
                self.say(f"done: {student} ({len(finished)}/{len(self.laid_out)} students)")

        s = self.settings
        plans = [plan for plans in self.laid_out.values() for *_, plan in plans]
        # one "resuming" line per series would be hundreds: the series count them instead (note_kept)
        options = RunOptions(jobs=s.jobs, resume=s.resume, fresh=s.force, progress=s.progress,
                             on_plan_done=plan_done, executor=s.executor, say=self.say, note_kept=False, hold=False)
        run = run_plans(plans, options) if plans else RunResult([], [])
        if s.resume:
            self.say(f"resumed {self.out}: {sum(run.kept)} games kept")
        return {id(plan): records for plan, records in zip(plans, run.records)}

    def gradebook(self, by_plan: Dict[int, List[dict]]) -> dict:
        """Each student's report written (report.json, .md, .html) and their row; the gradebook."""
        s = self.settings
        recorded = s.recorded()
        graded = {}
        for sub in self.submissions:
            report = self.student_report(sub, recorded, by_plan) if sub.path is not None else None
            check = self.checks.get(sub.student)
            graded[sub.student] = _row(sub, self.class_dir, s.opponents, self.shas.get(sub.student), check, report,
                                       course_points(report, check, s.points, s.partial, s.opponents))
        rows = [graded.get(name) or self.kept[name] for name in self.order]
        flag_identical(rows, list(self.kept))
        return {
            "class": os.path.abspath(self.class_dir),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "version": project_version(),
            "isolation": boxing.isolation(s.box),
            "settings": recorded,
            "students": rows,
            "not_graded": self.skipped,
        }

    def student_report(self, sub: Submission, recorded: dict, by_plan: Dict[int, List[dict]]) -> dict:
        """`sub`'s report, written under OUT/students/NAME/ (`student_report`)."""
        s = self.settings
        student_out = os.path.join(self.out, STUDENTS, sub.folder)
        entries = {key: opponent_entry(opponent, colour, by_plan[id(plan)], plan.results_path)
                   for key, opponent, colour, plan in self.laid_out[sub.student]}
        report = student_report(sub, recorded, entries, self.checks[sub.student], self.shas[sub.student],
                                self.shares[sub.share], s.box, s.points, s.partial, s.opponents)
        write_report(student_out, report)
        _relative_file(write_report_html(student_out, report, student=True), sub.root)
        return report


def student_report(sub: Submission, settings: dict, entries: Dict[str, dict], check: dict, sha: Optional[str],
                   share: boxing.BoxSettings, box: boxing.BoxSettings, points: float, partial: bool,
                   opponents: Sequence[str]) -> dict:
    """The report handed to the student: their file named as they know it (no TA's folder in any
    path), the course's verdict and points, their games as files beside the report (no replay
    command: what they can run is the `check` line, `student_check_line`)."""
    report = build_report(sub.shown, settings, entries, check)
    report["sha256"] = sha
    report["student"] = sub.student
    report["isolation"] = boxing.isolation(share)
    if boxing.weaker(box):
        report["notes"].append(report["isolation"])
    report["points"] = course_points(report, check, points, partial, opponents)
    for key, e in report["opponents"].items():
        for game in e["not_won"]:
            game.pop("replay", None)
            game["games_file"] = f"{directory_name(key)}/{RESULTS_FILE}"
    report["you_can"] = [
        f"download your games: each opponent's {RESULTS_FILE} beside this report (one game a line: its seed, "
        f"moves and ending)",
        f"check your file as the course does: {student_check_line(sub.shown)}"]
    return _relative(report, sub.root)


def student_check_line(shown: str) -> str:
    return f"python -m harness check {shlex.quote(os.path.basename(shown))}"


REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def inside_repository(out: str) -> None:
    """GradeError for an --out inside the toolkit's own checkout (its reports/ folder aside, which
    git ignores): the gradebook and the students' reports would sit among the toolkit's files."""
    if not os.path.exists(os.path.join(REPOSITORY, "pyproject.toml")):
        return                      # an installed toolkit: no checkout to keep clean
    real, repo = os.path.realpath(out), os.path.realpath(REPOSITORY)
    reports = os.path.join(repo, DEFAULT_OUT_FOLDER)
    if (real == repo or real.startswith(repo + os.sep)) and not (real == reports or real.startswith(reports + os.sep)):
        raise GradeError(f"--out {out} is inside the toolkit's repository ({repo}): the gradebook and the "
                         f"students' reports would sit among its files; choose a folder outside it, or one "
                         f"under {DEFAULT_OUT_FOLDER}/ (git ignores it)")


DEFAULT_OUT_FOLDER = "reports"


def summary_lines(gradebook: dict) -> List[str]:
    """The console's summary: a count per verdict, a line per student (verdict, points, W/D/L,
    faults, notes: printed during N games, identical files), and the entries not graded."""
    counts: Dict[str, int] = {}
    for row in gradebook["students"]:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    lines = [f"{len(gradebook['students'])} students: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))]
    width = max(len(r["student"]) for r in gradebook["students"])
    of = gradebook["settings"].get("points", 100.0)
    scored = {row["student"]: f"{row['points']:g}/{of:g}" for row in gradebook["students"]}
    wide = max(len(text) for text in scored.values())
    for row in gradebook["students"]:
        wdl = "  ".join(f"{name} {o['wins']}/{o['draws']}/{o['losses']}" for name, o in row["opponents"].items())
        if row["verdict"] in ("rejected", "no file") and row["check_reasons"]:
            wdl = f"({row['check_reasons'][0]})"       # the check's first reason beside the verdict
        faults = ", ".join(f"{k} {v}" for k, v in row["faults"].items())
        lines.append(f"{row['student'].ljust(width)}  {row['verdict']:<8}  {scored[row['student']].ljust(wide)}  {wdl}"
                     + (f"  faults: {faults}" if faults else "")
                     + "".join(f"  ({note})" for note in row["notes"]))
    lines += [f"not graded: {e['entry']}: {e['reason']}" for e in gradebook.get("not_graded", [])]
    return lines


# ----------------------------------------------------------------------------- command line


def box_from_args(args) -> Optional[boxing.BoxSettings]:
    if getattr(args, "no_box", False):
        return None
    return boxing.BoxSettings(memory_mb=getattr(args, "memory_mb", None) or BOX_MEMORY_MB)


BOX_MEMORY_MB = boxing.BoxSettings().memory_mb
