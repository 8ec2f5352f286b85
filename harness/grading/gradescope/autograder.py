"""What run_autograder does, in Python: find the submission, check it, play it, write results.json.

``python -m harness.grading.gradescope.autograder [ROOT]`` (ROOT: the argument, else $MINICHESS_AUTOGRADER_ROOT,
else /autograder), from the bundle's folder ROOT/source, which holds the toolkit and the
settings (gradescope.json):

1. The submission (ROOT/submission): the file `harness.grading.submission` finds, by the rule grade uses
   too (AB.py in any case at any depth, else the one .py file that defines ``studentAgent``); none,
   or several candidates: score 0 and an output naming what was found. The submission's folder is copied to ROOT/work, readable
   by the box's own user, and graded there.
2. The first test, "accepted by the course's checks" (`harness.grading.file_check`, in the box): the problems
   one per line. A file the course rejects scores 0 overall and its games are not played (they
   could not change the score, and a file that hangs would spend Gradescope's time limit).
3. One test per opponent (`harness.grading.report`'s plans, `harness.runs.series`, the box, the course's
   clock): W/D/L, the pass mark, the 95 % interval of the not-lost rate, and each game not won
   with its moves and its turning point (the games not won that the output lists are reviewed
   by harness.analysis when Fairy-Stockfish is there and ``review`` is on). Its score: the
   opponent's points when the course's pass mark is met (else 0), or points x not-lost rate with
   ``partial`` (and for an opponent without a pass mark).
4. ROOT/results/results.json in Gradescope's format (`results`), with a leaderboard: the score
   over all games and the median seconds per move. Written whatever happens: an error of the
   autograder itself becomes a test "autograder error" with score 0.

What a student file prints never reaches this process's output; this process's own output (the
progress, the isolation, a traceback) is Gradescope's stdout, shown to the instructor only.
"""
import json
import os
import shutil
import signal
import sys
import time
import traceback
from typing import Dict, List, Optional, Tuple

from ...isolation import box as boxing
from ... import stats
from ...core.analyser import AnalysisError
from ...analysis.run import analyse_games
from ...analysis.text import turning_point_text
from ..file_check import check_file, format_problem
from ..report import course_not_lost, interval_text, opponent_score, plan_report, printed_text, settings_line
from ...runs.results import outcome, side_summary, write_json
from ...runs.series import RunOptions, run_plans
from ..submission import AGENT_FILE, find_submission  # noqa: F401  (AGENT_FILE: the tests)
from ...variants import find_variant
from . import DEFAULT_ROOT, RESUBMIT, ROOT_ENV, SETTINGS_FILE, Settings, SettingsError

CHECK_TEST = "accepted by the course's checks"
ERROR_TEST = "autograder error"
WORK = "work"                      # ROOT/work: the submission's copy and the games' records
GAMES_LISTED = 10                  # games not won listed per opponent
PLIES_SHOWN = 300                  # moves shown per game


# ----------------------------------------------------------------------------- the submission


def copy_submission(source: str, target: str) -> None:
    """The submission's folder copied to `target`, files 0644 and folders 0755 (the box's own
    user reads them); links stay links (whatever they name is not copied)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)
    for here, dirs, files in os.walk(target):
        os.chmod(here, 0o755)
        for name in files:
            path = os.path.join(here, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)


# ----------------------------------------------------------------------------- tests


def _test(name: str, score: float, max_score: float, output: str, visibility: str,
          status: Optional[str] = None) -> dict:
    test = {"name": name, "score": score, "max_score": max_score, "output": output, "visibility": visibility}
    if status is not None:
        test["status"] = status
    return test


def check_test(accepted: bool, lines: List[str], visibility: str) -> dict:
    """The first test: no points of its own; a file it fails scores 0 overall."""
    return _test(CHECK_TEST, 0, 0, "\n".join(lines), visibility, "passed" if accepted else "failed")


def numbered_moves(moves: List[str], limit: int = PLIES_SHOWN) -> str:
    """'1. d1d2 d5d4 2. ...', at most `limit` plies, then how many more."""
    shown = moves[:limit]
    text = " ".join((f"{i // 2 + 1}. {m}" if i % 2 == 0 else m) for i, m in enumerate(shown))
    return text + (f" ... ({len(moves) - limit} more plies)" if len(moves) > limit else "")


def game_lines(record: dict, colour: str, both: bool, turning_point: Optional[str]) -> List[str]:
    """One game not won: how it ended, the error, the moves and the turning point when known."""
    result = outcome(record, colour)
    verb = "drawn" if result == "draw" else "lost"
    side = f", as {colour.capitalize()}" if both else ""
    lines = [f"- game {record['game']} (seed {record['seed']}{side}): {verb} by {record['reason']} "
             f"after {record['plies']} plies."]
    if record.get("error"):
        lines.append(f"  {record['error']}")
    lines.append(f"  moves: {numbered_moves(record.get('moves') or []) or '(none)'}")
    if turning_point:
        lines.append(f"  {turning_point}")
    return lines


Reviews = Dict[str, Dict[int, dict]]     # {results file: {game: its analysis entry}}


def turning_point(reviews: Reviews, results_path: str, record: dict, colour: str) -> Optional[str]:
    """`colour`'s turning point in this game as one line (harness.analysis.text), or None when
    the game was not reviewed."""
    entry = reviews.get(results_path, {}).get(record["game"])
    return None if entry is None else turning_point_text(entry, colour)


def review_games_not_won(games: List[Tuple[dict, str, str]], say=print) -> Reviews:
    """Review (harness.analysis, the variant's own analyser: Fairy-Stockfish for cs3243) the games
    the student did not win that the output lists; {} with a note when the analyser is missing."""
    listed: Dict[str, List[Tuple[str, dict]]] = {}
    for record, colour, path in games:
        if outcome(record, colour) != "win" and len(listed.setdefault(path, [])) < GAMES_LISTED:
            listed[path].append((path, record))
    wanted = [game for chosen in listed.values() for game in chosen]
    if not wanted:
        return {}
    try:
        return analyse_games(wanted, progress="plain", label="review", say=say)
    except AnalysisError as exc:
        say(f"note: the games not won are not reviewed: {exc}")
        return {}


def opponent_test(name: str, games: List[Tuple[dict, str, str]], mark: Optional[float], points: float,
                  settings: Settings, reviews: Reviews) -> dict:
    """The test of one opponent over its games [(record, the student's colour, results path)]."""
    records, colours = [g[0] for g in games], [g[1] for g in games]
    s = side_summary(records, colours)
    not_lost = course_not_lost(s)            # a game printed in is lost for the course
    score, met, why = opponent_score(points, mark, not_lost, s["games"], settings.partial, name)
    as_what = {"white": " as White", "black": " as Black", "both": ", half with each colour"}[settings.colour]
    per = f"{s['games']} game{'' if s['games'] == 1 else 's'}{as_what}"
    judged = (f"the course's pass mark is {100 * mark:g} % not lost: {'met' if met else 'not met'}" if mark is not None
              else f"the course sets no pass mark for {name}")
    median = s["move_seconds"]["median"]
    clock = f" (the course allows {settings.game_time:g} s per game)" if settings.game_time else ""
    lines = [f"{per}: won {s['wins']}, drawn {s['draws']}, lost {s['losses']}."]
    if s["printed_games"]:
        lines.append(f"Your file {printed_text(s['printed_games'])}: the course's autograder rejects files that "
                     f"print, so those games count as lost ({not_lost} of {s['games']} counted not lost).")
        counted = stats.wilson(not_lost, s["games"]) if s["games"] else None
    else:
        counted = s["not_lost_wilson95"]
    lines += [f"{interval_text(not_lost, s['games'], counted, 'Not lost')}; {judged}.",
             f"Points: {score:g} of {points:g}: {why}.",
             "Thinking: " + (f"median {median:.3f} s per move; " if median is not None else "") +
             f"longest game {s['game_seconds_max']:.1f} s{clock}."]
    lost = [(r, c, path) for r, c, path in games if outcome(r, c) != "win"]
    if lost:
        lines += ["", f"Games not won ({len(lost)}):"]
        for record, colour, path in lost[:GAMES_LISTED]:
            lines += game_lines(record, colour, settings.colour == "both",
                                turning_point(reviews, path, record, colour))
        if len(lost) > GAMES_LISTED:
            lines.append(f"... and {len(lost) - GAMES_LISTED} more games not won.")
    passed = met or (mark is None and s["games"] > 0 and not_lost == s["games"])
    return _test(name, score, points, "\n".join(lines), settings.visibility, "passed" if passed else "failed")


def leaderboard(games: List[Tuple[dict, str, str]]) -> List[dict]:
    """The score over all games (%, higher first) and the median seconds per move (lower first)."""
    if not games:
        return []
    records, colours = [g[0] for g in games], [g[1] for g in games]
    s = side_summary(records, colours)
    board = [{"name": "Score %", "value": round(100 * stats.score(s["wins"], s["draws"], s["losses"]), 1)}]
    median = s["move_seconds"]["median"]
    if median is not None:
        board.append({"name": "Median s/move", "value": round(median, 4), "order": "asc"})
    return board


# ----------------------------------------------------------------------------- one submission


def grade(root: str, settings: Settings, say=print) -> dict:
    """results.json's content for the submission in ROOT/submission (without execution_time)."""
    points = settings.opponent_points()
    work = os.path.join(root, WORK)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    found, note = find_submission(os.path.join(root, "submission"))
    say(note)
    if found is None:
        return _not_played(note, [note], "there is no file to play", settings)
    copy_submission(os.path.join(root, "submission"), os.path.join(work, "submission"))
    path = os.path.join(work, "submission", found)
    box = boxing.BoxSettings(memory_mb=settings.memory_mb)
    say(f"isolation: {boxing.isolation(box)}")
    warnings: list = []
    problems = check_file(path, settings.move_timeout, warnings, box)
    accepted = not problems
    if accepted:
        check_lines = [f"{found}: accepted."] + [format_problem(found, w, "warning") for w in warnings]
    else:
        check_lines = ([f"{found}: rejected: the course scores this file 0. Every problem, one per line:"] +
                       [format_problem(found, p) for p in problems] + [format_problem(found, w, "warning") for w in warnings])
    say("\n".join(check_lines))
    if not accepted:
        return _not_played(note, check_lines, "the course's check rejects the file, so it scores 0 (see the first "
                                              "test)", settings)
    variant = find_variant(settings.variant)
    laid_out = plan_report(path, settings.opponents, settings.colours, settings.games, os.path.join(work, "games"),
                           seed=settings.seed, move_timeout=settings.move_timeout, game_time=settings.game_time,
                           variant=settings.variant, box=box.to_dict())
    all_records = run_plans([plan for *_, plan in laid_out], RunOptions(jobs=settings.jobs, progress="plain")).records
    by_opponent: Dict[str, List[Tuple[dict, str, str]]] = {name: [] for name in settings.opponents}
    for (_, opponent, colour, plan), records in zip(laid_out, all_records):
        by_opponent[opponent] += [(record, colour, plan.results_path) for record in records]
    every_game = [g for name in settings.opponents for g in by_opponent[name]]
    reviews = review_games_not_won(every_game, say) if settings.review else {}
    tests = [check_test(accepted, check_lines, settings.visibility)]
    tests += [opponent_test(name, by_opponent[name], variant.pass_marks.get(name), points[name], settings,
                            reviews) for name in settings.opponents]
    total = round(sum(t["score"] for t in tests), 2)
    summary = [note, "Course check: accepted.",
               settings_line({"settings": {"games": settings.games, "seed": settings.seed,
                                           "move_timeout": settings.move_timeout, "game_time": settings.game_time}}),
               f"Score: {total:g} of {settings.points:g} (" +
               ", ".join(f"{t['name']} {t['score']:g}/{t['max_score']:g}" for t in tests[1:]) + ")."]
    printed = side_summary([g[0] for g in every_game], [g[1] for g in every_game])["printed_games"]
    if printed:
        summary.insert(2, f"Your file {printed_text(printed)}: the course's autograder rejects files that print, "
                          f"so those games count as lost.")
    say("\n".join(summary[1:]))
    return _results(total, summary, tests, leaderboard(every_game), settings)


def _not_played(note: str, check_lines: List[str], why: str, settings: Settings) -> dict:
    """Score 0: the check's test fails with `check_lines`, no game is played."""
    tests = [check_test(False, check_lines, settings.visibility)]
    tests += [_test(name, 0.0, value, f"Not played: {why}.", settings.visibility, "failed")
              for name, value in settings.opponent_points().items()]
    summary = [note] + ([] if check_lines == [note] else ["Course check: REJECTED: the course scores this file 0."])
    # on the leaderboard too, at the bottom: a submission that played no game scores 0 there
    return _results(0.0, summary + [f"Score: 0 of {settings.points:g}."], tests, [{"name": "Score %", "value": 0.0}],
                    settings)


def _results(score: float, summary: List[str], tests: List[dict], board: List[dict], settings: Settings) -> dict:
    results = {"score": score, "output": "\n".join(summary), "output_format": "text", "test_output_format": "text",
               "visibility": settings.visibility, "tests": tests}
    if board:
        results["leaderboard"] = board
    return results


def error_results(message: str, settings: Optional[Settings]) -> dict:
    """The results when the autograder itself failed: score 0 and a test saying what happened."""
    text = f"The autograder could not grade this submission: {message}. {RESUBMIT}"
    test = _test(ERROR_TEST, 0.0, settings.points if settings else 0.0, text, "visible", "failed")
    return {"score": 0.0, "output": text, "output_format": "text", "test_output_format": "text", "tests": [test]}


def load_settings(path: str) -> Settings:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise SettingsError(f"cannot read the settings {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SettingsError(f"the settings {path} are not JSON: {exc}") from None
    try:
        settings = Settings.from_dict(data)
        find_variant(settings.variant)
    except (SettingsError, TypeError, KeyError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    return settings


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def write_results(root: str, results: dict) -> str:
    folder = os.path.join(root, "results")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "results.json")
    write_json(path, results)
    return path


def _stop(signum, frame):
    raise KeyboardInterrupt


def main(argv: Optional[List[str]] = None) -> int:
    """Grade ROOT's submission; results.json is written whatever happens. Exit status 0 unless
    results.json could not be written (run_autograder then writes its own)."""
    argv = sys.argv[1:] if argv is None else argv
    root = argv[0] if argv else os.environ.get(ROOT_ENV) or DEFAULT_ROOT
    started = time.monotonic()
    settings = None
    signal.signal(signal.SIGTERM, _stop)     # a timeout's SIGTERM still writes results.json
    try:
        settings = load_settings(os.path.join(root, "source", SETTINGS_FILE))
        results = grade(root, settings)
    except KeyboardInterrupt:
        results = error_results("the grading was stopped before it ended", settings)
    except Exception as exc:
        traceback.print_exc()
        results = error_results(one_line(exc), settings)
    results["execution_time"] = round(time.monotonic() - started)
    try:
        print(f"written: {write_results(root, results)}")
    except OSError as exc:
        print(f"cannot write results.json: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
