"""`grade CLASS_DIR --variant congo --out DIR`: a class of Congo programs, every part of every
student judged on the same hidden generated cases by its exact answers (docs/grading.md, "Congo:
a class of programs").

A student is a folder with a program per part, named by the part (moves, apply, eval1, minimax,
eval2, alphabeta, bestmove), found in this order:
- `PART.cpp`, built in the box in the student's copy (`g++ -std=c++17 -O2 -o PART PART.cpp`, in
  the folder, so its own headers are found); a failed build is `"build": "failed"`, no case passes;
- `PART.py`, run with the system's Python 3 (its real file, resolved once per grading: never a
  shell shim found on PATH, which the box could not start);
- an executable `PART` (any language the box can start).
A part with none is `missing`. The cases are those of `congo test` (harness.congo_tester.cases),
from --seed (the TA keeps it: the cases stay hidden) and --cases (default 100), each part in its
course edition; the reference answers are computed once per part for the whole class. One run
of the program gets every case, as the course runs it; if that run fails (crash, hang past
--run-timeout, too much output, not one answer per case), every case runs alone
(`congo_tester.run.one_by_one`, --move-timeout each, default 10 s), so a crash or a hang costs only
the cases it touches. Everything runs boxed (harness.isolation.untrusted_run), each student in its own copy
(OUT/students/NAME/src).

score: 100 x the mean over the seven parts of (cases passed / cases): every part weighs the same.
"""
import os
import shutil
import stat
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence

from ..isolation import box as boxing
from ..congo_tester import cases as casegen
from ..congo_tester import check, report
from ..congo_tester.run import OUTPUT_CAP, one_by_one
from ..runs.results import hold_folder, write_json
from ..runs.pool import run_tasks
from ..isolation.exchange import run_folder
from ..isolation.untrusted_run import run as run_program
from ..variants.congo import programs
from . import handout, reasons
from .common import (STUDENTS, ClassError, Clock, Sayer, check_out, drop_excluded, find_students,
                     gradebook_of, kept_rows, open_class_run, out_folder, read_json, run_class_grading, say,
                     select_students, sources_sha256, write_gradebook)

VARIANT = "congo"
PARTS = programs.PROGRAMS
CASES = 100
RUN_TIMEOUT = 300.0         # the run of all cases: a slow Python search at depth 4 takes 1-2 s a case
CASE_TIMEOUT = 10.0
BUILD_TIMEOUT = 120.0
SHOW = 5                        # differences kept per part in the report
CXX_FLAGS = ("-std=c++17", "-O2")
TESTER_HINT = "(--show K shows K, --json FILE writes them all)"     # congo test's options, not grade's
STATE_FILE = "state.json"
COMMA_NOTE = "the right answer, separated by commas: the course prints it separated by spaces"
CSV_FIELDS = (["student"] + [f"{p}_{f}" for p in PARTS for f in ("passed", "build")] +
              ["cases", "score", "faults", "first_error", "timeouts"])


def system_python() -> Optional[str]:
    """The system's Python 3 as its real file (the box shows /usr), else this Python's real file."""
    found = shutil.which("python3", path="/usr/bin:/bin:/usr/local/bin")
    return os.path.realpath(found) if found else os.path.realpath(sys.executable)


def find_program(folder: str, part: str) -> Optional[str]:
    """The part's program file in the student's folder: PART.cpp, PART.py or an executable PART."""
    for name in (f"{part}.cpp", f"{part}.py", part):
        path = os.path.join(folder, name)
        if os.path.isfile(path) and (name != part or os.access(path, os.X_OK)):
            return path
    return None


def copy_student(source: str, copy: str) -> None:
    if os.path.lexists(copy):
        shutil.rmtree(copy)
    shutil.copytree(source, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for where, dirs, names in os.walk(copy):
        for name in dirs + names:
            path = os.path.join(where, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode
                os.chmod(path, mode | 0o777 if stat.S_ISDIR(mode) else mode | 0o666)
    os.chmod(copy, 0o777)


def part_options(part: str):
    return programs.build_parser().parse_args([part, "--edition", programs.DEFAULT_EDITION.get(part, "2022")])


def expected_answers(part: str, count: int, seed: int, out: str):
    """(cases, expected lines per case) for `part`, computed once and kept in OUT/expected/PART.json:
    a folder of mode 0700 (files 0600) that no box shows (a program's box shows its own copy,
    OUT/students/NAME/src, alone; its build writes there only)."""
    options = part_options(part)
    cases = casegen.make_cases(count, seed, options.edition, part, None)
    path = os.path.join(out, "expected", f"{part}.json")
    kept = read_json(path)
    if kept and kept.get("seed") == seed and kept.get("cases") == count:
        return cases, kept["expected"]
    expected = check.expected_answers(part, options, cases)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    os.chmod(os.path.dirname(path), 0o700)
    write_json(path, {"seed": seed, "cases": count, "expected": expected})
    os.chmod(path, 0o600)
    return cases, expected


def _judge(task: dict) -> tuple:
    """One part of one student: build if need be, run, compare. (key, result)."""
    part, program, count = task["part"], task["program"], task["count"]
    box = boxing.BoxSettings.from_dict(task["box"])
    key = (task["student"], part)
    if program is None:
        return key, {"passed": 0, "cases": count, "build": "missing"}
    if program.endswith(".cpp"):
        folder, binary = os.path.dirname(program), program[:-4]
        build_box = boxing.BoxSettings(**{**(task["box"] or {}), "memory_mb": max(box.memory_mb if box else 0, 4096),
                                          "file_mb": 64}) if box else None
        argv = [task["cxx"], *CXX_FLAGS, "-o", os.path.basename(binary), os.path.basename(program)]
        finished = run_program(argv, b"", task["build_timeout"], OUTPUT_CAP, build_box, workdir=folder)
        if finished.failure(task["build_timeout"], OUTPUT_CAP) or not os.path.isfile(binary):
            log = finished.output.decode("utf-8", "replace") + finished.errors.decode("utf-8", "replace")
            errors = [line for line in log.splitlines() if "error" in line][:5] or \
                [finished.failure(task["build_timeout"], OUTPUT_CAP) or "no program was built"]
            return key, {"passed": 0, "cases": count, "build": "failed", "errors": errors}
        command = [binary]
    elif program.endswith(".py"):
        command = [task["python"], program]
    else:
        command = [program]
    cases = [casegen.Case(*c) for c in task["cases"]]
    expected = task["expected"]
    per_case = check.lines_per_case(part)
    started = time.monotonic()
    finished = run_program(command, check.input_text(part, cases).encode(), task["run_timeout"], OUTPUT_CAP, box)
    failed = finished.failure(task["run_timeout"], OUTPUT_CAP)
    lines, wrong = (None, None) if failed else check.output_lines(finished.output, per_case * len(cases))
    note = None
    if lines is not None:
        differences = [d for d in (check.compare(part, case, want, lines[i * per_case:(i + 1) * per_case])
                                   for i, (case, want) in enumerate(zip(cases, expected))) if d is not None]
        failures = []
    else:
        note = f"the run of all {len(cases)} cases {failed or wrong}: each case was run alone"
        differences, failures = one_by_one(part, cases, expected, command, task["case_timeout"], box, lambda text: None)
    counts = {"wrong_answer": len(differences)}
    for failure in failures:
        kind = reasons.case_kind(failure.what)
        counts[kind] = counts.get(kind, 0) + 1
    commas = [d.case.number for d in differences if reasons.comma_separated(d.expected, d.got)]
    options = part_options(part)
    verdict = report.Verdict(part, f"--edition {options.edition}", task["seed"], options.edition, cases,
                             differences, failures)
    shown = report.text(verdict, SHOW).replace(TESTER_HINT, f"(report.json keeps the first {SHOW} and the failures)")
    kept = report.to_json(verdict)
    if commas:
        shown += (f"note: {len(commas)} answers ({', '.join(map(str, commas[:SHOW]))}{', ...' if len(commas) > SHOW else ''})"
                  f" are right but separated by commas: the course prints them separated by spaces\n")
        for d in kept["differences"]:
            if d["case"] in commas:
                d["note"] = COMMA_NOTE
    result = {"passed": verdict.agree, "cases": count, "build": "ok", "seconds": round(time.monotonic() - started, 2),
              "text": shown, "first_differences": kept["differences"][:SHOW], "failures": kept["failures"][:SHOW],
              "counts": {k: v for k, v in counts.items() if v},
              "first_error": (kept["failures"][0]["what"] if kept["failures"] else None), "commas": len(commas)}
    if note:
        result["note"] = note
    return key, result


def judged_parts(tasks: List[dict], jobs: int, executor=None):
    """`_judge`'s (key, result) for every task as each ends: on the local pool (`jobs` processes) or
    on `executor` (harness.runs.cluster's Dask runner), whose queued parts are cancelled if the caller
    stops early."""
    return run_tasks(_judge, tasks, jobs, executor)


def part_counts(result: dict) -> Dict[str, int]:
    """A judged part's failed cases by kind (a part judged before the kinds were kept: every case
    not passed a wrong answer, its failures aside)."""
    if "counts" in result:
        return result["counts"]
    if result["build"] != "ok":
        return {}
    failures = len(result.get("failures", []))
    wrong = result["cases"] - result["passed"] - failures
    return {k: v for k, v in (("wrong_answer", wrong), ("crash", failures)) if v}


def student_row(name: str, parts: Dict[str, dict]) -> dict:
    shown = {part: {"passed": parts[part]["passed"], "cases": parts[part]["cases"], "build": parts[part]["build"]}
             for part in PARTS if part in parts}
    score = round(100 * sum(r["passed"] / r["cases"] for r in parts.values()) / len(PARTS), 1) if parts else 0.0
    faults: Dict[str, int] = {}
    first_error = None
    for part in PARTS:
        result = parts.get(part) or {}
        for kind, count in part_counts(result).items() if result else ():
            faults[kind] = faults.get(kind, 0) + count
        if first_error is None and result.get("first_error"):
            first_error = f"{part}: {result['first_error']}"
        elif first_error is None and result.get("build") == "failed" and result.get("errors"):
            first_error = f"{part}: the build failed: {result['errors'][0]}"
    return {"student": name, "parts": shown, "score": score, "faults": faults, "first_error": first_error,
            "timeouts": faults.get("timeout", 0)}


def csv_row(row: dict) -> dict:
    flat = {"student": row["student"], "score": row["score"]}
    for part in PARTS:
        r = row["parts"].get(part, {})
        flat[f"{part}_passed"], flat[f"{part}_build"] = r.get("passed"), r.get("build")
    flat["cases"] = next((r["cases"] for r in row["parts"].values()), None)
    flat.update(faults=reasons.faults_text(row.get("faults") or {}), first_error=row.get("first_error"),
                timeouts=row.get("timeouts", 0))
    return flat


def write_student_report(out: str, name: str, parts: Dict[str, dict], row: dict) -> None:
    folder = out_folder(out, name)
    os.makedirs(folder, exist_ok=True)
    write_json(os.path.join(folder, "report.json"), {**row, "details": parts})
    lines = [f"# {name}: score {row['score']}", ""]
    for part in PARTS:
        r = parts[part]
        if r["build"] == "missing":
            lines.append(f"{part}: missing (no {part}.cpp, {part}.py or executable {part})")
        elif r["build"] == "failed":
            lines += [f"{part}: the build failed (0/{r['cases']}):", *(f"  {e}" for e in r.get("errors", []))]
        else:
            if r.get("note"):
                lines.append(f"note: {r['note']}")
            lines.append(r["text"].rstrip("\n"))
            timeouts = part_counts(r).get("timeout", 0)
            if timeouts:
                lines.append(f"{timeouts} of these cases timed out: not wrong answers, they ran out of time on "
                             f"the grader's machine (its load may have decided them)")
        lines.append("")
    with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    handout.write_congo_page(out, name, parts, row, PARTS)


def grade_congo_class(class_dir: str, out: str, count: int = CASES, seed: int = 0, run_timeout: float = RUN_TIMEOUT,
                      case_timeout: float = CASE_TIMEOUT, memory_mb: int = boxing.BoxSettings().memory_mb,
                      jobs: Optional[int] = None, executor=None, resume: bool = False, force: bool = False,
                      boxed: bool = True, say: Callable[[str], None] = print, only: Sequence[str] = (),
                      exclude: Sequence[str] = ()) -> dict:
    """Judge every student of `class_dir` into `out`; return the gradebook (also written). `only`:
    judge these students again, every other row kept from OUT's gradebook; `exclude`: these
    students' rows and folders go."""
    if count < 1:
        raise ClassError(f"--cases {count}: at least 1")
    cxx = shutil.which("g++")
    out = os.path.abspath(out)      # the programs run elsewhere: a relative --out would name nothing
    only, exclude = list(only), list(exclude)
    keep = resume or bool(only or exclude)
    check_out(class_dir, out, keep, force)
    students = find_students(class_dir)
    chosen = select_students([s.name for s in students], only, exclude, class_dir)
    if not any(not s.problem and any(find_program(s.path, part) for part in PARTS) for s in students):
        raise ClassError(f"nobody in {class_dir} has a Congo program (PART.cpp, PART.py or an executable PART "
                         f"for a part of {', '.join(PARTS)}): is it another course's class? (--variant)")
    kept_row = kept_rows(out, [s.name for s in students], chosen, exclude) if only and not force else {}
    students = [s for s in students if s.name in chosen or s.name in kept_row]
    jobs = jobs or os.cpu_count() or 1
    box = boxing.BoxSettings(memory_mb=memory_mb) if boxed else None
    python = system_python()
    lines = Sayer(say, 0)
    with hold_folder(out), run_folder():     # every scratch folder under one parent, removed at the end
        open_class_run(out, class_dir, {"cases": count, "seed": seed, "run_timeout": run_timeout,
                                        "move_timeout": case_timeout, "memory_mb": memory_mb, "boxed": boxed},
                       keep, force)
        if force:
            for sub in (STUDENTS, "expected"):
                shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        drop_excluded(out, exclude)
        try:
            os.makedirs(os.path.join(out, STUDENTS), exist_ok=True)
        except OSError as exc:
            raise ClassError(f"cannot create the output folder '{out}': {exc.strerror or exc}") from None
        if boxed and boxing.weaker(box):
            say(f"note: {boxing.isolation(box)}")
        results: Dict[str, Dict[str, dict]] = {}
        tasks = []
        judged = {}
        for student in students:
            folder = out_folder(out, student.name)
            if student.problem:
                say(f"note: {student.problem}: graded as missing")
                results[student.name] = {p: {"passed": 0, "cases": count, "build": "missing"} for p in PARTS}
                continue
            sha = sources_sha256(student.path)
            kept = read_json(os.path.join(folder, STATE_FILE))
            if student.name in kept_row and kept and kept.get("sources") == sha:
                results[student.name] = dict(kept["parts"])       # --only: as judged before
                if set(PARTS) <= set(results[student.name]):
                    continue
            if kept and kept.get("sources") == sha and resume and kept.get("settings") == [count, seed]:
                results[student.name] = dict(kept["parts"])
            else:
                if kept and kept.get("sources") != sha:
                    say(f"note: {student.name}'s programs changed since the last run: judged again")
                shutil.rmtree(folder, ignore_errors=True)
                os.makedirs(folder)
                copy_student(student.path, os.path.join(folder, "src"))
                results[student.name] = {}
                write_json(os.path.join(folder, STATE_FILE), {"sources": sha, "settings": [count, seed], "parts": {}})
            judged[student.name] = sha
            for part in PARTS:
                if part in results[student.name]:
                    continue
                program = find_program(os.path.join(folder, "src"), part)
                if program is not None and program.endswith(".cpp") and cxx is None:
                    raise ClassError("g++ is not installed (Debian: apt-get install g++); it builds the PART.cpp "
                                     "programs")
                if program is None:
                    results[student.name][part] = {"passed": 0, "cases": count, "build": "missing"}
                else:
                    tasks.append({"student": student.name, "part": part, "program": program, "count": count})
        kept = sum(r["cases"] for parts in results.values() for r in parts.values() if r["build"] != "missing")
        clock = Clock(kept + count * len(tasks), "cases", done=kept)     # the parts that have a program
        expected = {}
        for part in sorted({t["part"] for t in tasks if t["program"] is not None}, key=PARTS.index):
            lines(f"reference answers: {part}, {count} cases", force=True)
            cases, answers = expected_answers(part, count, seed, out)
            expected[part] = ([tuple(c) for c in cases], answers)
        for task in tasks:
            cases, answers = expected.get(task["part"], ([], []))
            task.update(cases=cases, expected=answers, seed=seed, run_timeout=run_timeout, case_timeout=case_timeout,
                        build_timeout=BUILD_TIMEOUT, box=box.to_dict() if box else None, python=python, cxx=cxx)
        if tasks:
            say(f"judging {len(tasks)} parts of {len(judged)} students ({clock})")
        stream = judged_parts(tasks, jobs, executor)
        try:
            for (name, part), result in stream:
                result.pop("worker", None)
                results[name][part] = result
                state_path = os.path.join(out_folder(out, name), STATE_FILE)
                state = read_json(state_path) or {"sources": judged[name], "settings": [count, seed], "parts": {}}
                state["parts"][part] = result
                write_json(state_path, state)
                clock.add(count)
                lines(f"{name} {part}: {result['passed']}/{count} ({clock})")
        finally:
            stream.close()          # Ctrl-C, an error: the pool stopped at once, the cluster's queue dropped
        rows = []
        for student in students:
            row = student_row(student.name, results[student.name])
            if kept_row.get(student.name) == row:
                row = kept_row[student.name]        # as it was, key order and all
            else:
                write_student_report(out, student.name, results[student.name], row)
            rows.append(row)
        gradebook = gradebook_of(
            class_dir, VARIANT, box,
            {"cases": count, "seed": seed, "run_timeout": run_timeout, "case_timeout": case_timeout,
             "python": python, "cxx": " ".join([cxx or "g++", *CXX_FLAGS]),
             "cluster": getattr(executor, "address", None), "jobs": None if executor else jobs}, rows)
        write_gradebook(out, gradebook, CSV_FIELDS, csv_row)
        handout.write_class_page(out, gradebook)
    return gradebook


def summary_lines(gradebook: dict) -> List[str]:
    rows = gradebook["students"]
    width = max(len(r["student"]) for r in rows)
    out = [f"{len(rows)} students, {gradebook['settings']['cases']} cases per part"]
    for row in rows:
        parts = " ".join(f"{p} {r['passed'] if r['build'] == 'ok' else r['build']}" for p, r in row["parts"].items())
        faults = reasons.faults_text(row.get("faults") or {})
        out.append(f"{row['student'].ljust(width)}  {row['score']:>5}  {parts}" + (f"  failed: {faults}" if faults else ""))
    timed = [r["student"] for r in rows if r.get("timeouts")]
    if timed:
        out.append(reasons.rerun_line(gradebook["settings"].get("case_timeout"),
                                      f"cases timed out ({', '.join(timed)}), not counted as wrong answers"))
    return out


def run(args) -> int:
    """The grade command for a class of Congo programs."""
    return run_class_grading(args, lambda executor: grade_congo_class(
        args.class_dir, args.out, args.cases, args.seed, args.run_timeout, args.move_timeout or CASE_TIMEOUT,
        args.memory_mb or boxing.BoxSettings().memory_mb, args.jobs, executor, args.resume, args.force,
        not getattr(args, "no_box", False), (lambda text: None) if args.quiet else say, args.only, args.exclude),
        summary_lines)
