"""`grade CLASS_DIR --variant nthu --out DIR`: a class of NTHU MiniChess repositories, each built
(`harness.grading.build`, boxed), its rules checked, played up the course's baseline ladder and,
for those who won all 8 games, ranked in a round robin (docs/grading.md, "NTHU MiniChess: a
class of repositories").

The ladder, exactly the course's rule: baselines 1 to 4 in order, one game with each colour; a
baseline is passed with 2 wins or 1 win and 1 draw (`variants.nthu.grading.pair_passes`); the
ladder stops at the first baseline not passed; 1 point per baseline passed, 1 more when all 8
games are won. The games of one rung are played for the whole class at once (every core busy),
each game a one-game series (`harness.runs.series`) in OUT/students/NAME/games/BASELINE-COLOUR, so a
resumed grading plays no finished game again. The student's program is `nthu:` its built binary,
run in the box with --memory-mb and --move-timeout (SIGTERM at the limit, SIGKILL a second
later; the last move written before the limit counts); the baselines are ours, in the game's
process, and always finish their search.

Layout of OUT: gradebook.json, gradebook.csv; students/NAME/{state.json, build.log, repo/ (the
copy built), games/, report.json, report.md}; ranking/ (the round robin's series). The players'
working folders live under one folder of the run (`harness.isolation.exchange.run_folder`),
removed when the grading ends, by Ctrl-C or SIGTERM too.
"""
import dataclasses
import os
import shutil
from typing import Callable, Dict, List, Optional, Sequence

from ..isolation import box as boxing
from ..isolation.exchange import run_folder
from ..runs.results import RESULTS_FILE, changed_files, hold_folder, read_records, read_settings, write_json
from ..runs.series import RunOptions, SeriesPlan, run_plans
from ..runs.pool import worker_pool
from ..runs.round_robin import crosstable, plan_round_robin, rate
from ..stats.ratings import FitError
from ..variants import find_variant
from ..variants.nthu.grading import BASELINES, agent_result, pair_passes
from ..variants.nthu.program import PREFIX
from . import build as building
from . import handout, reasons
from .common import (STUDENTS, ClassError, Clock, Sayer, check_out, drop_excluded, find_students,
                     gradebook_of, kept_rows, open_class_run, out_folder, read_json, run_class_grading, say,
                     select_students, sources_sha256, write_gradebook)

VARIANT = "nthu"
MEMORY_MB = 4096               # the course's memory per program
MOVE_TIMEOUT = 10.0            # the course's seconds per move
COLOURS = ("white", "black")
STATE_FILE = "state.json"
RANKING = "ranking"
CSV_FIELDS = (["student", "build", "build_errors", "rules"] +
              [f"{b}_{field}" for b in BASELINES for field in ("white", "black", "passed")] +
              ["points", "all_eight", "rank", "rating", "rating_low", "rating_high", "faults", "first_error",
               "near_limit"])


def parse_bonus(text: Optional[str]) -> List[float]:
    """--ranking-bonus "3,2,1": rank 1 gets 3 points, rank 2 gets 2, rank 3 gets 1."""
    if not text:
        return []
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise ClassError(f"--ranking-bonus '{text}': give points per rank as numbers, e.g. 3,2,1") from None
    if any(v < 0 for v in values):
        raise ClassError(f"--ranking-bonus '{text}': points cannot be negative")
    return values


def toolchain_problem() -> Optional[str]:
    for program, package in (("g++", "g++"), ("make", "make")):
        if shutil.which(program) is None:
            return f"{program} is not installed (Debian: apt-get install {package}); it builds every repository"
    return None


def _build_one(task: dict) -> tuple:
    box = boxing.BoxSettings.from_dict(task["box"])
    result = building.build(task["source"], task["copy"], box, task["timeout"])
    result["rules"] = building.check_rules(task["copy"] if result["build"] != "missing" else task["source"]) \
        if result["build"] != "missing" else []
    return task["student"], result


def build_class(students, out: str, box: Optional[boxing.BoxSettings], timeout: float, jobs: int,
                resume: bool, say: Callable[[str], None]) -> Dict[str, dict]:
    """Every student's state ({"sources", "build", "errors", "rules", "binary", "seconds"}): kept from
    an earlier run when its sources are the same, else built now, `jobs` at a time."""
    states: Dict[str, dict] = {}
    tasks = []
    for student in students:
        folder = out_folder(out, student.name)
        if student.problem:
            states[student.name] = {"sources": None, "build": "missing", "errors": [student.problem], "rules": [],
                                    "binary": None, "seconds": 0.0}
            continue
        sha = sources_sha256(student.path)
        kept = read_json(os.path.join(folder, STATE_FILE))
        if kept is not None and kept.get("sources") == sha and resume:
            states[student.name] = kept
            continue
        if kept is not None or os.path.isdir(folder):
            if kept is not None and kept.get("sources") != sha:
                say(f"note: {student.name}'s sources changed since the last run: built and played again")
            shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)
        tasks.append({"student": student.name, "source": student.path, "copy": os.path.join(folder, "repo"),
                      "box": box.to_dict() if box else None, "timeout": timeout, "sha": sha})
    if tasks:
        say(f"building {len(tasks)} repositories ({len(states)} kept)")
    clock = Clock(len(tasks), "builds")
    shas = {t["student"]: t["sha"] for t in tasks}
    with worker_pool(jobs, len(tasks)) as run:
        for name, result in run(_build_one, tasks):
            folder = out_folder(out, name)
            with open(os.path.join(folder, "build.log"), "w", encoding="utf-8") as handle:
                handle.write(result.pop("log"))
            result["sources"] = shas[name]
            if result["binary"]:             # relative to the student's folder: no TA's path in state.json
                result["binary"] = os.path.relpath(result["binary"], folder)
            write_json(os.path.join(folder, STATE_FILE), result)
            states[name] = result
            clock.add()
            say(f"built {name}: {result['build']} ({clock})")
    return states


def binary_of(out: str, student: str, state: dict) -> str:
    """The absolute path of a student's played binary; state.json keeps it relative to the
    student's folder (`repo/build/player_submission`: nothing under OUT/students names a folder
    of the TA's; an older state's absolute path is taken as it is)."""
    return os.path.join(out_folder(out, student), state["binary"])


def shown_binary(student: str, state: dict) -> str:
    """The binary as the records name it: `nthu:NAME/build/player_submission` (relative to the
    student's repository, as the student knows it)."""
    binary = state["binary"]
    inside = binary[len("repo/"):] if binary.startswith("repo/") else os.path.basename(binary)
    return f"{PREFIX}{student}/{inside}"


def ladder_plan(out: str, student: str, state: dict, baseline: str, colour: str, move_timeout: float,
                box: Optional[dict]) -> SeriesPlan:
    me = PREFIX + binary_of(out, student, state)
    white, black = (me, baseline) if colour == "white" else (baseline, me)
    return SeriesPlan(out=os.path.join(out_folder(out, student), "games", f"{baseline}-{colour}"), white=white,
                      black=black, games=1, seed=0, move_timeout=move_timeout, variant=VARIANT, box=box,
                      label=f"{student} as {colour} vs {baseline}", perspective=colour,
                      shown={me: shown_binary(student, state)})


def play_ladder(states: Dict[str, dict], out: str, move_timeout: float, box: Optional[dict], jobs: int,
                executor, resume: bool, force: bool, progress, say: Callable[[str], None]) -> Dict[str, dict]:
    """{student: {baseline: {"white", "black", "passed"}}} for every built student, rung by rung."""
    alive = sorted(name for name, s in states.items() if s["build"] == "ok")
    ladder: Dict[str, dict] = {name: {} for name in alive}
    clock = Clock(8 * len(alive), "ladder games")
    for number, baseline in enumerate(BASELINES, 1):
        if not alive:
            break
        plans = {(name, colour): ladder_plan(out, name, states[name], baseline, colour, move_timeout, box)
                 for name in alive for colour in COLOURS}

        def counted(plan, record) -> bool:
            clock.add()
            return False
        all_records = run_plans(list(plans.values()), RunOptions(
            jobs=jobs, resume=True, fresh=False, progress=progress, executor=executor, say=lambda text: None,
            hold=False, label=f"rung {number} ({baseline})", on_game=counted, status=lambda: f"class {clock}")).records
        by_key = dict(zip(plans, all_records))
        still = []
        for name in alive:
            results = {colour: agent_result(by_key[(name, colour)][0], colour) for colour in COLOURS}
            passed = pair_passes([results["white"], results["black"]])
            ladder[name][baseline] = {**results, "passed": passed}
            if passed:
                still.append(name)
            else:
                clock.total -= 2 * (len(BASELINES) - number)
        say(f"{baseline}: {len(still)} of {len(alive)} passed ({clock})")
        alive = still
    return ladder


def play_ranking(players: Sequence[str], states: Dict[str, dict], out: str, move_timeout: float,
                 box: Optional[dict], jobs: int, executor, resume: bool, force: bool, progress,
                 say: Callable[[str], None]) -> Dict[str, dict]:
    """{student: {"rank", "elo", "low", "high", "score", "games"}} of the round robin among `players`."""
    if not players:
        return {}
    if len(players) == 1:
        return {players[0]: {"rank": 1, "elo": None, "low": None, "high": None, "score": 0, "games": 0}}
    spec = {name: PREFIX + binary_of(out, name, states[name]) for name in players}
    name_of = {v: k for k, v in spec.items()}
    laid_out = plan_round_robin([spec[p] for p in players], 1, os.path.join(out, RANKING), variant=VARIANT,
                               move_timeout=move_timeout, box=box)
    # the records name each binary by its shown name (no OUT path: a copied OUT resumes)
    laid_out = [(a, b, dataclasses.replace(plan, label=f"{name_of[a]} vs {name_of[b]}",
                                           out=os.path.join(out, RANKING, f"{name_of[a]}-vs-{name_of[b]}"),
                                           shown={s: shown_binary(name_of[s], states[name_of[s]]) for s in (a, b)}))
                for a, b, plan in laid_out]
    for a, b, plan in laid_out:
        if changed_files(read_settings(plan.out), plan.settings()):
            shutil.rmtree(plan.out)          # a student rebuilt since: the pair is played again
    say(f"ranking: a round robin of {len(players)} students, {2 * len(laid_out)} games")
    records = run_plans([plan for *_, plan in laid_out], RunOptions(
        jobs=jobs, resume=True, fresh=False, progress=progress, executor=executor, say=lambda text: None,
        hold=False, label="ranking")).records
    cross = crosstable([spec[p] for p in players], laid_out, records)
    try:
        report = rate([spec[p] for p in players], cross)
    except FitError as exc:
        raise ClassError(f"the class ranking cannot be rated: {exc}") from None
    ranked = ranks(report["ratings"], name_of)
    write_json(os.path.join(out, RANKING, "ranking.json"),
               {"ranking": [{"student": k, **v} for k, v in sorted(ranked.items(), key=lambda kv: kv[1]["rank"])],
                "prior_draws": report["prior_draws"]})
    return ranked


def ranks(ratings: List[dict], name_of: Dict[str, str]) -> Dict[str, dict]:
    """{student: {"rank", "elo", "low", "high", "score", "games"}} from the round robin's ratings: by
    rating, equal ratings by round-robin score, then by name."""
    ordered = sorted(ratings, key=lambda r: (-r["elo"], -r["score"], name_of[r["player"]]))
    return {name_of[r["player"]]: {"rank": rank, "elo": r["elo"], "low": r["low"], "high": r["high"],
                                   "score": r["score"], "games": r["games"]} for rank, r in enumerate(ordered, 1)}


def ladder_games(out: str, name: str, rungs: Dict[str, dict]) -> List[tuple]:
    """(baseline, colour, record) of every ladder game `name` played, in ladder order."""
    games = []
    for baseline in rungs:
        for colour in COLOURS:
            records, _ = read_records(os.path.join(out_folder(out, name), "games", f"{baseline}-{colour}", RESULTS_FILE))
            games += [(baseline, colour, records[n]) for n in sorted(records)]
    return games


def game_reasons(out: str, name: str, rungs: Dict[str, dict], move_timeout: Optional[float]) -> dict:
    """The row's reasons (`reasons.games_reasons`) over `name`'s ladder games, its paths left out."""
    found = reasons.games_reasons(((r, c) for _, c, r in ladder_games(out, name, rungs)), move_timeout)
    if found["first_error"]:
        found["first_error"] = reasons.strip_paths(found["first_error"], out_folder(out, name))
    return found


def student_row(name: str, state: dict, ladder: Dict[str, dict], ranked: dict, bonus: List[float],
                rules_penalty: float, found: Optional[dict] = None) -> dict:
    rungs = ladder.get(name, {})
    passed = sum(1 for b in BASELINES if rungs.get(b, {}).get("passed"))
    all_eight = len(rungs) == len(BASELINES) and all(r["white"] == r["black"] == "win" for r in rungs.values())
    points = float(passed + (1 if all_eight else 0))
    if state.get("rules") and rules_penalty:
        points = max(0.0, points - rules_penalty)
    rank = ranked.get(name, {}).get("rank")
    if rank is not None and rank <= len(bonus):
        points += bonus[rank - 1]
    row = {"student": name, "build": state["build"], "build_errors": state.get("errors", []),
           "rules": state.get("rules", []), "baselines": rungs,
           "points": int(points) if points == int(points) else points, "all_eight": all_eight, "rank": rank}
    if name in ranked and ranked[name]["elo"] is not None:
        row["rating"] = {k: ranked[name][k] for k in ("elo", "low", "high", "score", "games")}
    found = found or {}
    row.update(faults=found.get("faults", {}), first_error=found.get("first_error"),
               near_limit=found.get("near_limit", 0))
    return row


def csv_row(row: dict) -> dict:
    flat = {"student": row["student"], "build": row["build"], "build_errors": " | ".join(row["build_errors"]),
            "rules": " | ".join(row["rules"]), "points": row["points"], "all_eight": "yes" if row["all_eight"] else "no",
            "rank": row["rank"]}
    for b in BASELINES:
        rung = row["baselines"].get(b)
        flat[f"{b}_white"] = rung["white"] if rung else ""
        flat[f"{b}_black"] = rung["black"] if rung else ""
        flat[f"{b}_passed"] = "" if rung is None else ("yes" if rung["passed"] else "no")
    rating = row.get("rating") or {}
    flat.update(rating=rating.get("elo"), rating_low=rating.get("low"), rating_high=rating.get("high"),
                faults=reasons.faults_text(row.get("faults", {})), first_error=row.get("first_error"),
                near_limit=row.get("near_limit", 0))
    return flat


def write_student_report(out: str, row: dict, state: dict, settings: Optional[dict] = None,
                         more: Sequence[str] = ()) -> None:
    """report.json, report.md and report.html in OUT/students/NAME/, every path relative to that
    folder (the replay commands are run there): nothing of the TA's folders. `more`: the sheet's
    lines (the points' breakdown) for report.md."""
    folder = out_folder(out, row["student"])
    os.makedirs(folder, exist_ok=True)
    games = []
    for baseline, rung in row["baselines"].items():
        for colour in COLOURS:
            results = os.path.join("games", f"{baseline}-{colour}", RESULTS_FILE)
            games.append({"baseline": baseline, "colour": colour, "result": rung[colour],
                          "replay": f"python -m harness replay {results} --game 0 --variant nthu"})
    report = {**row, "build_log": "build.log" if state.get("sources") else None,
              "build_seconds": state.get("seconds"), "games": games}
    write_json(os.path.join(folder, "report.json"), report)
    lines = [f"# {row['student']}: {row['points']} points", "",
             f"- build: {row['build']}" + (f" ({state.get('seconds')} s)" if row["build"] == "ok" else ""),
             *(f"    {line}" for line in row["build_errors"]),
             f"- rules: {'no problem' if not row['rules'] else str(len(row['rules'])) + ' problems'}",
             *(f"    {p}" for p in row["rules"]),
             f"- all 8 games won: {'yes' if row['all_eight'] else 'no'}; rank: {row['rank'] or '-'}"]
    if row.get("faults"):
        lines.append(f"- games lost by a fault: {reasons.faults_text(row['faults'])}; first: {row['first_error']}")
    if row.get("near_limit"):
        lines.append(f"- {row['near_limit']} moves took over {100 * reasons.NEAR_SHARE:.0f} % of the move limit: "
                     f"their games may depend on the machine's load")
    lines += ["", "| baseline | as White | as Black | passed |", "|---|---|---|---|"]
    for baseline, rung in row["baselines"].items():
        lines.append(f"| {baseline} | {rung['white']} | {rung['black']} | {'yes' if rung['passed'] else 'no'} |")
    if games:
        lines += ["", "Each game, replayed (in this folder):", ""]
        lines += [f"- {g['baseline']} as {g['colour']} ({g['result']}): `{g['replay']}`" for g in games]
    lines += list(more)
    if report["build_log"]:
        lines += ["", "Build log: build.log, beside this report"]
    with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    handout.write_nthu_page(out, report, ladder_games(out, row["student"], row["baselines"]), settings or {},
                            find_variant(VARIANT))


def grade_nthu_class(class_dir: str, out: str, move_timeout: float = MOVE_TIMEOUT, memory_mb: int = MEMORY_MB,
                     jobs: Optional[int] = None, executor=None, resume: bool = False, force: bool = False,
                     ranking_bonus: Sequence[float] = (), rules_penalty: float = 0.0,
                     build_timeout: float = building.BUILD_TIMEOUT, boxed: bool = True, progress="auto",
                     say: Callable[[str], None] = print, only: Sequence[str] = (),
                     exclude: Sequence[str] = (), sheet=None) -> dict:
    """Grade every repository in `class_dir` into `out`; return the gradebook (also written).
    `only`: grade these students again, every other row kept from OUT's gradebook; `exclude`:
    these students' rows and folders go. sheet: a harness.grading.nthu_sheet.Sheet (the form's
    roster, the deadline, the bonuses): it gives the students (their graded commits fetched into
    OUT/repos) and amends the rows."""
    problem = toolchain_problem()
    if problem:
        raise ClassError(problem)
    out = os.path.abspath(out)      # the programs run elsewhere: a relative --out would name nothing
    only, exclude = list(only), list(exclude)
    if sheet is not None:
        if only or exclude:
            raise ClassError("--only and --exclude grade part of a class folder; with --roster or --deadline "
                             "the whole sheet is graded (use --resume to go on)")
        class_dir = sheet.class_path()
    keep = resume or bool(only or exclude)
    check_out(class_dir, out, keep, force)
    students = find_students(class_dir) if sheet is None or sheet.settings.class_dir else []
    chosen = select_students([s.name for s in students], only, exclude, class_dir) if sheet is None else []
    if students and not any(not s.problem and not building.missing_files(s.path) for s in students):
        raise ClassError(f"nobody in {class_dir} has an NTHU repository (src/player/submission.cpp or "
                         f"src/policy/submission.cpp): is it another course's class? (--variant)")
    kept = kept_rows(out, [s.name for s in students], chosen, exclude) if only and not force else {}
    students = [s for s in students if s.name in chosen or s.name in kept]
    jobs = jobs or os.cpu_count() or 1
    box = boxing.BoxSettings(memory_mb=memory_mb) if boxed else None
    build_mb, build_jobs = building.build_memory(jobs)       # one memory budget for the builds at once
    build_box = boxing.BoxSettings(memory_mb=build_mb, file_mb=64,
                                   cpu_seconds=int(2 * build_timeout) + 1) if boxed else None
    lines = Sayer(say, 0)
    with hold_folder(out), run_folder():     # every player's folder under one parent, removed at the end
        open_class_run(out, class_dir, {"move_timeout": move_timeout, "memory_mb": memory_mb,
                                        "build_timeout": build_timeout, "ranking_bonus": list(ranking_bonus),
                                        "rules_penalty": rules_penalty, "boxed": boxed}, keep, force)
        if force:
            for sub in (STUDENTS, RANKING):
                shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        drop_excluded(out, exclude)
        try:
            os.makedirs(os.path.join(out, STUDENTS), exist_ok=True)
        except OSError as exc:
            raise ClassError(f"cannot create the output folder '{out}': {exc.strerror or exc}") from None
        if boxed and boxing.weaker(box):
            say(f"note: {boxing.isolation(box)}")
        if sheet is not None:
            students = sheet.students(out, lines)
        for student in students:
            if student.problem and sheet is None and student.name not in kept:
                say(f"note: {student.problem}: graded as missing")
        graded = [s for s in students if s.name not in kept]
        states = build_class(graded, out, build_box, build_timeout, build_jobs, resume, lines)
        box_dict = box.to_dict() if box else {"enabled": False}
        ladder = play_ladder(states, out, move_timeout, box_dict, jobs, executor, resume, force, progress, lines)
        for name, row in kept.items():          # --only: the others as graded before, nothing built or played
            states[name] = read_json(os.path.join(out_folder(out, name), STATE_FILE)) or \
                {"build": row["build"], "errors": row["build_errors"], "rules": row["rules"], "binary": None}
            if row["baselines"]:
                ladder[name] = row["baselines"]
        eight = [name for name in sorted(ladder) if student_row(name, states[name], ladder, {}, [], 0)["all_eight"]]
        ranked = play_ranking(eight, states, out, move_timeout, box_dict, jobs, executor, resume, force, progress,
                              lines)
        settings = {"move_timeout": move_timeout, "memory_mb": memory_mb, "build_timeout": build_timeout,
                    "ranking_bonus": list(ranking_bonus), "rules_penalty": rules_penalty,
                    "cluster": getattr(executor, "address", None), "jobs": None if executor else jobs}
        rows = [student_row(student.name, states[student.name], ladder, ranked, list(ranking_bonus), rules_penalty,
                            game_reasons(out, student.name, ladder.get(student.name, {}), move_timeout))
                for student in students]
        if sheet is not None:
            sheet.amend(rows)
        for index, student in enumerate(students):
            if student.name in kept and rows[index] == kept[student.name]:
                rows[index] = kept[student.name]        # as it was, key order and all
            else:
                write_student_report(out, rows[index], states[student.name], settings,
                                     sheet.report_lines(rows[index]) if sheet else ())
        gradebook = gradebook_of(class_dir, VARIANT, box, settings, rows)
        if sheet is not None:
            gradebook["settings"]["sheet"] = sheet.settings.recorded()
        write_gradebook(out, gradebook, CSV_FIELDS + (sheet.csv_fields if sheet else []),
                        (lambda row: {**csv_row(row), **sheet.csv_cells(row)}) if sheet else csv_row)
        handout.write_class_page(out, gradebook)
    return gradebook


LEGEND = "baselines 1-4 in order, each as White then Black: W won, D drawn, L lost (the ladder stops at a baseline not passed)"


def summary_lines(gradebook: dict) -> List[str]:
    rows = gradebook["students"]
    width = max(len(r["student"]) for r in rows)
    lines = [f"{len(rows)} students: " + ", ".join(
        f"{kind} {sum(1 for r in rows if r['build'] == kind)}" for kind in ("ok", "failed", "missing")) + " builds; "
        f"{sum(1 for r in rows if r['all_eight'])} won all 8 games", LEGEND]
    letters = {"win": "W", "draw": "D", "loss": "L"}
    for row in rows:
        rungs = " ".join(f"{letters[r['white']]}{letters[r['black']]}" for r in row["baselines"].values())
        note = f"  rules: {len(row['rules'])}" if row["rules"] else ""
        rank = f"  rank {row['rank']}" if row["rank"] else ""
        faults = f"  faults: {reasons.faults_text(row['faults'])}" if row.get("faults") else ""
        near = f"  near-limit moves: {row['near_limit']}" if row.get("near_limit") else ""
        lines.append(f"{row['student'].ljust(width)}  {row['build']:<7}  {str(row['points']):>3} points  "
                     f"{rungs or '-'}{rank}{note}{faults}{near}")
    near = [r["student"] for r in rows if r.get("near_limit")]
    if near:
        lines.append(reasons.rerun_line(gradebook["settings"].get("move_timeout"),
                                        f"moves over {100 * reasons.NEAR_SHARE:.0f} % of the limit ({', '.join(near)})"))
    return lines


def run(args, sheet=None) -> int:
    """The grade command for a class of NTHU repositories (sheet: the form's sheet, nthu_sheet.Sheet)."""
    return run_class_grading(args, lambda executor: grade_nthu_class(
        args.class_dir, args.out, args.move_timeout or MOVE_TIMEOUT, args.memory_mb or MEMORY_MB, args.jobs,
        executor, args.resume, args.force, parse_bonus(args.ranking_bonus), args.rules_penalty,
        args.build_timeout, not getattr(args, "no_box", False),
        "none" if args.quiet else (args.progress or "auto"), (lambda text: None) if args.quiet else say,
        args.only, args.exclude, sheet), summary_lines)
