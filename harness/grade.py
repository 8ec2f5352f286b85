"""Grading a whole class: every student's file checked and played against the opponents as the
course would, boxed, on this machine's pool or a Dask cluster, with a gradebook at the end.

A submission is a sub-folder of CLASS_DIR (the folder's name is the student; the file is its
``AB.py``, or its single ``.py`` file) or a ``.py`` file directly in CLASS_DIR (the stem is the
student). Each file is checked (`harness.check`, in the box) and played by `harness.report`'s
plans under ``OUT/students/NAME/`` (one series per opponent, results.jsonl appended as games
end), so ``--resume`` plays no finished game again and the gradebook is rebuilt from the
results. A broken file never stops the class: its games are lost the way the course loses them
(crash, timeout, illegal move) and a file the check rejects gets the verdict ``rejected``.

Output: ``OUT/gradebook.csv`` and ``OUT/gradebook.json`` (one row per student, fields in
docs/grading.md) and per student report.json, report.md and report.html as the report command
writes them.
"""
import csv
import datetime
import json
import multiprocessing
import os
import re
import shutil
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

from . import box as boxing
from .check import check_summary
from .html_report import write_report_html
from .report import (COURSE_GAME_SECONDS, DEFAULT_OPPONENTS, build_report, directory_name,
                     opponent_entry, plan_report, project_version, write_report)
from .results import ResultsError, changed_files, check_free, file_sha256, hold_folder, read_settings, write_json
from .sandbox import DEFAULT_MOVE_TIMEOUT
from .series import run_plans

GRADEBOOK_CSV, GRADEBOOK_JSON = "gradebook.csv", "gradebook.json"
STUDENTS = "students"
CHECK_FILE = "check.json"
FAULTS = ("crash", "timeout", "illegal_move", "game_time")


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


def find_submissions(class_dir: str) -> List[Submission]:
    """The class's submissions, by student name."""
    if not os.path.exists(class_dir):
        raise GradeError(f"class folder '{class_dir}' does not exist")
    if not os.path.isdir(class_dir):
        raise GradeError(f"'{class_dir}' is not a folder: grade takes a folder of submissions")
    found: Dict[str, Submission] = {}
    for name in sorted(os.listdir(class_dir)):
        if name.startswith((".", "_")):
            continue
        full = os.path.abspath(os.path.join(class_dir, name))
        if os.path.isdir(full):
            student = name
            files = sorted(f for f in os.listdir(full) if f.endswith(".py") and not f.startswith((".", "_"))
                           and os.path.isfile(os.path.join(full, f)))
            if "AB.py" in files:
                sub = Submission(student, os.path.join(full, "AB.py"), "folder")
            elif len(files) == 1:
                sub = Submission(student, os.path.join(full, files[0]), "folder")
            else:
                why = "no .py file" if not files else f"{len(files)} .py files and no AB.py"
                sub = Submission(student, None, "folder", f"{why} in {os.path.join(class_dir, name)}")
        elif name.endswith(".py") and os.path.isfile(full):
            student = name[:-3]
            sub = Submission(student, full, "file")
        else:
            continue
        if sub.folder in {s.folder for s in found.values()}:
            raise GradeError(f"two submissions in {class_dir} are both student '{student}' "
                             f"(a folder and a .py file?); rename one")
        found[student] = sub
    if not found:
        raise GradeError(f"no submissions in {class_dir}: expected sub-folders with AB.py or .py files")
    return list(found.values())


def _cached_check(sub: Submission, out: str, sha: Optional[str], move_timeout: float,
                  box: boxing.BoxSettings, reuse: bool) -> dict:
    """The course's check of the file, kept in OUT/students/NAME/check.json with its sha256."""
    path = os.path.join(out, CHECK_FILE)
    if reuse and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                kept = json.load(handle)
            if kept.get("sha256") == sha:
                return kept["check"]
        except (ValueError, KeyError, OSError):
            pass
    check = check_summary(sub.path, move_timeout, box)
    os.makedirs(out, exist_ok=True)
    write_json(path, {"sha256": sha, "check": check})
    return check


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


def _row(sub: Submission, class_dir: str, opponents: Sequence[str], sha: Optional[str],
         check: Optional[dict], report: Optional[dict]) -> dict:
    """One student's gradebook row (JSON form: per opponent nested)."""
    entries = report["opponents"] if report else {}
    if sub.path is None:
        verdict = "no file"
    elif check is not None and not check["accepted"]:
        verdict = "rejected"
    else:
        verdict = {True: "pass", False: "fail", None: "n/a"}[report["passed"]]
    errors = [err for e in entries.values() for err in e["errors"]]
    return {
        "student": sub.student,
        "file": os.path.relpath(sub.path, class_dir) if sub.path else None,
        "sha256": sha,
        "check": "missing" if sub.path is None else ("accepted" if check["accepted"] else "rejected"),
        "check_reasons": [sub.problem] if sub.path is None else check["problems"],
        "opponents": {name: {"games": entries[name]["games"], "wins": entries[name]["wins"],
                             "draws": entries[name]["draws"], "losses": entries[name]["losses"],
                             "pass_mark": entries[name]["pass_mark"], "passed": entries[name]["passed"]}
                      for name in opponents if name in entries},
        "verdict": verdict,
        "faults": _faults(entries),
        "first_error": errors[0] if errors else None,
        "max_game_seconds": max((e["game_seconds_max"] for e in entries.values()), default=None),
        "printed_games": sum(e["printed_games"] for e in entries.values()),
    }


def csv_fields(opponents: Sequence[str]) -> List[str]:
    per = [f"{name}_{field}" for name in opponents for field in ("wins", "draws", "losses", "pass")]
    return (["student", "file", "sha256", "check", "check_reasons"] + per +
            ["verdict", "faults", "first_error", "max_game_seconds", "printed_games"])


def csv_row(row: dict, opponents: Sequence[str]) -> dict:
    flat = {key: row[key] for key in ("student", "file", "sha256", "check", "verdict", "first_error",
                                      "max_game_seconds", "printed_games")}
    flat["check_reasons"] = " | ".join(row["check_reasons"])
    flat["faults"] = ", ".join(f"{reason} {count}" for reason, count in row["faults"].items())
    for name in opponents:
        o = row["opponents"].get(name)
        for field in ("wins", "draws", "losses"):
            flat[f"{name}_{field}"] = "" if o is None else o[field]
        flat[f"{name}_pass"] = "" if o is None or o["passed"] is None else ("yes" if o["passed"] else "no")
    return {key: ("" if value is None else value) for key, value in flat.items()}


def write_gradebook(out: str, gradebook: dict) -> None:
    write_json(os.path.join(out, GRADEBOOK_JSON), gradebook)
    opponents = gradebook["settings"]["opponents"]
    with open(os.path.join(out, GRADEBOOK_CSV), "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=csv_fields(opponents))
        writer.writeheader()
        for row in gradebook["students"]:
            writer.writerow(csv_row(row, opponents))


def say(text: str) -> None:
    from tqdm import tqdm
    tqdm.write(text, file=sys.stderr)


def grade_class(class_dir: str, out: str, games: int = 50, opponents: Sequence[str] = DEFAULT_OPPONENTS,
                variant: str = "cs3243", seed: int = 0, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
                game_time: Optional[float] = COURSE_GAME_SECONDS, box: Optional[boxing.BoxSettings] = None,
                jobs: Optional[int] = None, executor=None, resume: bool = False, force: bool = False,
                progress="auto", say: Callable[[str], None] = say, start: Optional[dict] = None) -> dict:
    """Grade every submission in `class_dir` into `out`; return the gradebook (also written).
    `start`: the variant's start options (fifty, max_plies, config, fen), as for a SeriesPlan."""
    box = box or boxing.BoxSettings()
    class_abs, out_abs = os.path.realpath(class_dir), os.path.realpath(out)
    if out_abs == class_abs or out_abs.startswith(class_abs + os.sep):
        raise GradeError(f"--out {out} is inside the class folder {class_dir}; choose a folder outside it")
    submissions = find_submissions(class_dir)
    check_free(out)
    if os.path.exists(os.path.join(out, GRADEBOOK_JSON)) and not (resume or force):
        raise GradeError(f"{out} already holds a gradebook; add --resume to continue that grading, "
                         f"--force to start over, or choose another --out")
    with hold_folder(out):          # one run at a time in OUT
        if force and os.path.isdir(os.path.join(out, STUDENTS)):
            shutil.rmtree(os.path.join(out, STUDENTS))
        try:
            os.makedirs(os.path.join(out, STUDENTS), exist_ok=True)
        except OSError as exc:
            raise GradeError(f"cannot create the output folder '{out}': {exc.strerror or exc}") from None
        if boxing.weaker(box):
            say(f"note: {boxing.isolation(box)}")
        limits = {"seed": seed, "move_timeout": move_timeout, "game_time": game_time, "variant": variant}
        shares = {share: boxing.BoxSettings(**{**box.to_dict(), "share": share}) for share in ("folder", "file")}
        laid_out, shas = {}, {}
        for sub in submissions:
            if sub.path is None:
                continue
            student_out = os.path.join(out, STUDENTS, sub.folder)
            shas[sub.student] = file_sha256(sub.path)
            laid_out[sub.student] = plan_report(sub.path, opponents, ("white",), games, student_out,
                                                box=shares[sub.share].to_dict(), **limits, **(start or {}))
            # the series record their files' sha256 (series.py): a changed file's games are played again
            if any(changed_files(read_settings(plan.out), plan.settings()) for *_, plan in laid_out[sub.student]):
                say(f"note: {sub.student}'s file changed since the last run: its games are played again")
                shutil.rmtree(student_out)
            for key, _opponent, _colour, plan in laid_out[sub.student]:
                plan.label = f"{sub.student} vs {key}"
        checks = _check_all([s for s in submissions if s.path is not None], out, shas, move_timeout, shares,
                            resume, jobs, say)
        owner = {id(plan): student for student, plans in laid_out.items() for *_, plan in plans}
        left = {student: len(plans) for student, plans in laid_out.items()}
        finished: List[str] = []

        def plan_done(plan, records) -> None:
            student = owner[id(plan)]
            left[student] -= 1
            if not left[student]:
                finished.append(student)
                say(f"done: {student} ({len(finished)}/{len(laid_out)} students)")

        plans = [plan for plans in laid_out.values() for *_, plan in plans]
        kept = [0]

        def note(text: str) -> None:       # one line per series would be hundreds: count them instead
            counted = re.match(r"resuming .*: (\d+) games kept", text)
            if counted:
                kept[0] += int(counted.group(1))
            else:
                say(text)
        all_records = run_plans(plans, jobs=jobs, resume=resume, fresh=force, progress=progress,
                                on_plan_done=plan_done, executor=executor, say=note, hold=False) if plans else []
        if resume:
            say(f"resumed {out}: {kept[0]} games kept")
        by_plan = {id(plan): records for plan, records in zip(plans, all_records)}
        settings = {"games": games, "colour": "white", "opponents": list(opponents), **limits,
                    "box": box.to_dict(), "cluster": getattr(executor, "address", None),
                    "jobs": None if executor else (jobs or os.cpu_count())}
        rows = []
        for sub in submissions:
            report = None
            if sub.path is not None:
                entries = {key: opponent_entry(opponent, colour, by_plan[id(plan)], plan.results_path)
                           for key, opponent, colour, plan in laid_out[sub.student]}
                report = build_report(sub.path, settings, entries, checks[sub.student])
                report["student"] = sub.student
                report["isolation"] = boxing.isolation(shares[sub.share])
                if boxing.weaker(box):
                    report["notes"].append(report["isolation"])
                write_report(os.path.join(out, STUDENTS, sub.folder), report)
                write_report_html(os.path.join(out, STUDENTS, sub.folder), report)
            rows.append(_row(sub, class_dir, opponents, shas.get(sub.student), checks.get(sub.student), report))
        gradebook = {
            "class": os.path.abspath(class_dir),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "version": project_version(),
            "isolation": boxing.isolation(box),
            "settings": settings,
            "students": rows,
        }
        write_gradebook(out, gradebook)
    return gradebook


def summary_lines(gradebook: dict) -> List[str]:
    counts: Dict[str, int] = {}
    for row in gradebook["students"]:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    lines = [f"{len(gradebook['students'])} students: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))]
    width = max(len(r["student"]) for r in gradebook["students"])
    for row in gradebook["students"]:
        wdl = "  ".join(f"{name} {o['wins']}/{o['draws']}/{o['losses']}" for name, o in row["opponents"].items())
        faults = ", ".join(f"{k} {v}" for k, v in row["faults"].items())
        lines.append(f"{row['student'].ljust(width)}  {row['verdict']:<8}  {wdl}" + (f"  faults: {faults}" if faults else ""))
    return lines


# ----------------------------------------------------------------------------- command line


def box_from_args(args) -> Optional[boxing.BoxSettings]:
    if getattr(args, "no_box", False):
        return None
    return boxing.BoxSettings(memory_mb=getattr(args, "memory_mb", None) or BOX_MEMORY_MB)


BOX_MEMORY_MB = boxing.BoxSettings().memory_mb
