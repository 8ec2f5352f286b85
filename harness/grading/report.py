"""The main job: how an agent does against the course's opponents, judged by the course's marks.

`plan_report` lays out one series per opponent and colour (in ``OUT/<opponent>[@black]/``),
`harness.runs.series` plays them, and `build_report` turns the records into report.json's
structure; `render_text` and `render_markdown` present it. Pass marks are data, here only.
"""
import datetime
import json
import math
import os
import shutil
from typing import Dict, List, Optional, Sequence, Tuple

from ..analysis.text import turning_point_text
from ..core.version import VERSION
from ..runs.results import RUN_FILE, check_free, file_sha256, settings_variant, side_summary, write_json
from ..runs.series import SeriesPlan, directory_name
from ..view.html import replay_command
from ..view.text import format_elo
from ..variants import DEFAULT_VARIANT, find_variant

# CS3243's course settings (each variant carries its own: `Variant.pass_marks`, ...): the pass
# marks (not-lost rate against each opponent; a draw counts as not lost), the opponents, and the
# course's limit on thinking per game.
_CS3243 = find_variant(DEFAULT_VARIANT)
PASS_MARKS: Dict[str, float] = _CS3243.pass_marks
DEFAULT_OPPONENTS: Tuple[str, ...] = _CS3243.report_opponents
COURSE_GAME_SECONDS: float = _CS3243.game_seconds
COLOURS = ("white", "black")
REPORT_JSON, REPORT_MD, REPORT_HTML = "report.json", "report.md", "report.html"
PREVIOUS = "previous"          # OUT/previous/WHEN/: earlier reports, kept by --keep-previous


def entry_key(opponent: str, colour: str) -> str:
    """report.json's key: the opponent's name for our agent as White, NAME@black as Black."""
    return opponent if colour == "white" else f"{opponent}@black"


def plan_report(agent: str, opponents: Sequence[str], colours: Sequence[str], games: int, out: str,
                **series) -> List[Tuple[str, str, str, SeriesPlan]]:
    """(key, opponent, colour, plan) for every opponent and colour; `series` goes to each plan."""
    out_plans = []
    for opponent in opponents:
        for colour in colours:
            white, black = (agent, opponent) if colour == "white" else (opponent, agent)
            key = entry_key(opponent, colour)
            plan = SeriesPlan(out=os.path.join(out, directory_name(key)), white=white, black=black,
                              games=games, label=key, perspective=colour, **series)
            out_plans.append((key, opponent, colour, plan))
    return out_plans


def not_won(records: List[dict], colour: str, results_path: Optional[str]) -> List[dict]:
    """Every game the agent (playing `colour`) did not win: enough to find and replay it."""
    out = []
    for r in records:
        if r["result"] == colour:
            continue
        entry = {"game": r["game"], "seed": r["seed"], "result": "draw" if r["result"] == "draw" else "loss",
                 "reason": r["reason"], "plies": r["plies"], "error": r.get("error")}
        if results_path is not None:
            entry["replay"] = replay_command(results_path, r["game"])
        out.append(entry)
    return out


def opponent_entry(opponent: str, colour: str, records: List[dict], results_path: Optional[str] = None,
                   pass_marks: Optional[Dict[str, float]] = None,
                   game_seconds_limit: Optional[float] = COURSE_GAME_SECONDS) -> dict:
    """One row of the report: the agent's results against one opponent in one colour (CS3243's
    pass marks and game limit unless others are given; None: the course has none)."""
    s = side_summary(records, colour)
    mark = (PASS_MARKS if pass_marks is None else pass_marks).get(opponent)
    counted = course_not_lost(s)
    return {
        "opponent": opponent,
        "colour": colour,
        "games": s["games"],
        "wins": s["wins"],
        "draws": s["draws"],
        "losses": s["losses"],
        "win_rate": s["win_rate"],
        "not_lost_rate": s["not_lost_rate"],
        **{key: s[key] for key in ("score", "elo", "elo_margin", "los", "win_wilson95", "not_lost_wilson95")},
        "pass_mark": mark,
        "course_not_lost": counted,
        "passed": None if mark is None else s["games"] > 0 and counted / s["games"] >= mark,
        "won_all": s["games"] > 0 and s["wins"] == s["games"],
        "termination": s["termination"],
        "lost_by": s["lost_by"],
        "move_seconds": s["move_seconds"],
        "game_seconds_max": s["game_seconds_max"],
        "game_seconds_limit": game_seconds_limit,
        "plies": s["plies"],
        "printed_games": s["printed_games"],
        "mutated_games": s["mutated_games"],
        "errors": s["errors"],
        "not_won": not_won(records, colour, results_path),
    }


def course_not_lost(summary: dict) -> int:
    """The games the course counts as not lost (`results.side_summary`'s figures): the wins and
    draws, less those in which the file printed. The course's autograder rejects files that print
    (spec/cs3243.md: "The autograder rejects files that print, raise, or write to stdout"), so a
    game it printed in is lost for the course's verdict and points, whatever the board said; the
    game's own result is kept as played (docs/grading.md, "The printing rule")."""
    return summary["wins"] + summary["draws"] - summary.get("printed_not_lost", 0)


def printed_text(count: int) -> str:
    """What every output says of a file that printed: 'printed during 3 games'."""
    return f"printed during {count} game{'' if count == 1 else 's'}"


def split_points(points: float, opponents: Sequence[str]) -> Dict[str, float]:
    """`points` split evenly over the opponents, to the hundredth; the last takes what rounding
    left, so they add up to `points` (the Gradescope bundle's and grade's rule)."""
    share = round(points / len(opponents), 2)
    out = {name: share for name in opponents[:-1]}
    out[opponents[-1]] = round(points - share * (len(opponents) - 1), 2)
    return out


def opponent_score(points: float, mark: Optional[float], not_lost: int, games: int, partial: bool,
                   name: str = "") -> Tuple[float, bool, str]:
    """(score, pass mark met, why) of one opponent worth `points`: all of them when the course's
    pass mark (not-lost rate, `course_not_lost`) is met, else 0; with `partial` (and for an
    opponent without a pass mark) points x the not-lost rate. Written once: the Gradescope
    bundle's tests and grade's points column both come from here."""
    rate = not_lost / games if games else 0.0
    met = mark is not None and games > 0 and rate >= mark
    if partial or mark is None:
        why = "points x not-lost rate" + ("" if partial else f" ({name} has no pass mark)")
        return round(points * rate, 2), met, why
    return (points, True, "the pass mark is met") if met else (0.0, False, "the pass mark is not met")


def project_version() -> str:
    return VERSION


def build_report(agent: str, settings: dict, entries: Dict[str, dict], check: Optional[dict] = None) -> dict:
    """report.json: the agent (with its file's sha256 when it is a file), the course's check of the
    file, how the games were played, one entry per opponent, the verdict and notes.

    `passed` is True/False over the opponents that have a pass mark, and None ("n/a") when none
    has one; a file the course's check rejects fails whatever its games (the course scores it 0)."""
    notes = []
    printed = {key: e["printed_games"] for key, e in entries.items() if e["printed_games"]}
    if printed:
        where = ", ".join(f"{key} {count}/{entries[key]['games']}" for key, count in printed.items())
        notes.append(f"{agent} {printed_text(sum(printed.values()))} ({where}): the course's autograder rejects "
                     f"files that print, so those games count as lost for the course's verdict.")
    mutated = {key: e["mutated_games"] for key, e in entries.items() if e["mutated_games"]}
    if mutated:
        where = ", ".join(f"{key} {count}/{entries[key]['games']}" for key, count in mutated.items())
        notes.append(f"{agent} changed the board it was given (harmless here: it only ever gets a copy) in "
                     f"{sum(mutated.values())} games ({where}).")
    for key, e in entries.items():
        limit = e.get("game_seconds_limit")
        if limit is not None and e["game_seconds_max"] > limit:
            notes.append(f"against {key} one game took {e['game_seconds_max']:.1f} s of {agent}'s "
                         f"thinking, over the course's {limit:g} s limit.")
        for reason in ("illegal_move", "timeout", "crash"):
            if e["lost_by"].get(reason):
                notes.append(f"{agent} lost {e['lost_by'][reason]} games against {key} by {reason}; "
                             f"first errors: {' | '.join(e['errors'][:2])}")
    judged = [e["passed"] for e in entries.values() if e["passed"] is not None]
    passed = (bool(judged) and all(judged)) if judged else None
    if check is not None and not check["accepted"]:
        passed = False
        notes.insert(0, f"the course's check rejects {agent}, so the course scores it 0 whatever its games.")
    return {
        "agent": agent,
        "sha256": file_sha256(agent) if agent.endswith(".py") else None,
        "variant": settings_variant(settings),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "version": project_version(),
        "check": check,
        "settings": settings,
        "passed": passed,
        "won_all": bool(entries) and all(e["won_all"] for e in entries.values()),
        "opponents": entries,
        "notes": notes,
    }


# ----------------------------------------------------------------------------- presenting


def _percent(rate: Optional[float]) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}"


def _seconds(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.3f}"


def _verdict(passed: Optional[bool]) -> str:
    return "-" if passed is None else ("PASS" if passed else "FAIL")


def _endings(termination: Dict[str, int]) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in termination.items())


HEADER = ("opponent", "colour", "games", "W", "D", "L", "win %", "not lost %", "pass mark %",
          "course", "all won", "s/move mean", "median", "max", "longest game s", "endings")


def table_rows(report: dict) -> List[Tuple[str, ...]]:
    rows = []
    for key, e in report["opponents"].items():
        rows.append((
            e["opponent"], e["colour"], str(e["games"]), str(e["wins"]), str(e["draws"]),
            str(e["losses"]), _percent(e["win_rate"]), _percent(e["not_lost_rate"]),
            _percent(e["pass_mark"]), _verdict(e["passed"]), "yes" if e["won_all"] else "no",
            _seconds(e["move_seconds"]["mean"]), _seconds(e["move_seconds"]["median"]),
            _seconds(e["move_seconds"]["max"]),
            f"{e['game_seconds_max']:.2f}" + ("" if e.get("game_seconds_limit") is None else f" / {e['game_seconds_limit']:g}"),
            _endings(e["termination"]),
        ))
    return rows


def interval_text(count: int, games: int, interval, verb: str) -> str:
    """'won 50/50 (95 % CI 92.9-100 %)'."""
    if not games or not interval:
        return f"{verb} 0/0"
    low, high = (f"{100 * x:.1f}".removesuffix(".0") if x in (0, 1) else f"{100 * x:.1f}" for x in interval)
    return f"{verb} {count}/{games} (95 % CI {low}-{high} %)"


def statistics_rows(report: dict) -> List[Tuple[str, ...]]:
    """Per opponent: the won and not-lost counts with their Wilson 95 % intervals beside the pass
    mark, the score, the Elo difference with its 95 % margin, and the LOS."""
    rows = []
    for e in report["opponents"].values():
        elo = format_elo(e.get("elo"))
        margin = e.get("elo_margin")
        if elo in ("+inf", "-inf") or (margin is not None and math.isinf(margin)):
            elo = TOO_FEW              # every game won or lost (or too few): no finite rating
        elif margin is not None and elo != "-":
            elo += " +/- " + format_elo(margin).lstrip("+")
        rows.append((
            e["opponent"], e["colour"],
            interval_text(e["wins"], e["games"], e.get("win_wilson95"), "won"),
            interval_text(e["wins"] + e["draws"], e["games"], e.get("not_lost_wilson95"), "not lost"),
            _percent(e["pass_mark"]), "-" if e.get("score") is None else f"{e['score']:.3f}", elo,
            "-" if e.get("los") is None else f"{100 * e['los']:.1f}",
        ))
    return rows


def settings_line(report: dict) -> str:
    s = report["settings"]
    start = ("the position in " + s["config"] if s.get("config") else
             "the position " + s["fen"] if s.get("fen") else "the start position")
    limits = "".join(part for key, part in (
        ("fifty", f"; draw after {s.get('fifty')} plies without a capture"),
        ("max_plies", f"; at most {s.get('max_plies')} plies")) if s.get(key) is not None)
    clock = f", {s['game_time']:g} s of thinking per game" if s.get("game_time") else ""
    openings = f"; each game after {s['openings']} random opening plies" if s.get("openings") else ""
    return (f"{s['games']} games per opponent and colour from {start}, seeds {s['seed']}.."
            f"{s['seed'] + s['games'] - 1}{openings}{limits}; {s['move_timeout']:g} s per move for files{clock}.")


TOO_FEW = "too few games"


def grouped_problems(problems: Sequence[str]) -> List[str]:
    """The check's problems ("FILE:LINE: WHY"), each WHY once with its lines:
    "AB.py lines 3, 9, 14: contains the word 'print' (...)" (one line: as it was given)."""
    order: Dict[Tuple[str, str], List[str]] = {}
    for problem in problems:
        parts = problem.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            order.setdefault((parts[0], parts[2].strip()), []).append(parts[1])
        else:
            order.setdefault((problem, ""), [])
    out = []
    for (where, why), lines in order.items():
        if not lines:
            out.append(where)
        elif len(lines) == 1:
            out.append(f"{where}:{lines[0]}: {why}")
        else:
            out.append(f"{where} lines {', '.join(lines)}: {why}")
    return out


def check_line(report: dict) -> Optional[str]:
    check = report.get("check")
    if check is None:
        return None
    if check["accepted"]:
        warned = f" (warnings: {'; '.join(check['warnings'])})" if check.get("warnings") else ""
        return f"Course check of {report['agent']}: accepted{warned}."
    return f"Course check of {report['agent']}: REJECTED: {'; '.join(grouped_problems(check['problems']))}"


def points_line(report: dict) -> str:
    """A student's report: 'Course verdict: FAIL. Points: 20 of 100 (dummy 20/20, random 0/20, ...).'"""
    points = report["points"]
    shares = split_points(points["of"], list(points["opponents"]))
    verdict = ("REJECTED by the course's check (scored 0)" if report.get("check") and not report["check"]["accepted"]
               else {True: "PASS", False: "FAIL", None: "n/a"}[report["passed"]])
    each = ", ".join(f"{name} {value:g}/{shares[name]:g}" for name, value in points["opponents"].items())
    rule = " (partial: points x not-lost rate)" if points.get("partial") else ""
    return f"Course verdict: {verdict}. Points: {points['total']:g} of {points['of']:g}{rule} ({each})."


def verdict_line(report: dict) -> str:
    if report.get("points"):       # a student's report (grade): the course's verdict and points only
        return points_line(report)
    if report.get("course"):       # a course with its own rule (NTHU): its grading lines follow
        ours = "yes" if report["won_all"] else "no"
        return (f"Course grading (its own rule, below): {'PASS' if report['passed'] else 'FAIL'}.  "
                f"Our target, every game won: {ours}.")
    course = {True: "PASS", False: "FAIL", None: "n/a (no opponent here has a course pass mark)"}[report["passed"]]
    ours = "yes" if report["won_all"] else "no"
    return (f"Course pass marks (not-lost rate): {course}.  "
            f"Our target, every game won: {ours}.")


def render_text(report: dict) -> str:
    """The report as an aligned plain-text table for the terminal."""
    rows = [HEADER] + table_rows(report)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = [f"Report for {report['agent']}: {settings_line(report)}", ""]
    if check_line(report):
        lines[1:1] = [check_line(report)]
    for n, row in enumerate(rows):
        cells = [cell.ljust(w) if i in (0, 1, 9, 10, 15) else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", verdict_line(report)]
    lines += (report.get("course") or {}).get("lines", [])
    lines += [f"note: {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def report_title(report: dict) -> str:
    """'Report: alice (AB.py)' for a student's report, 'Report: AGENT' otherwise."""
    if report.get("student"):
        return f"Report: {report['student']} ({report['agent']})"
    return f"Report: {report['agent']}"


def render_markdown(report: dict) -> str:
    lines = [f"# {report_title(report)}", ""]
    if check_line(report):
        lines += [check_line(report), ""]
    lines += [settings_line(report), "",
             "| " + " | ".join(HEADER) + " |",
             "|" + "|".join("---" if i in (0, 1, 9, 10, 15) else "---:" for i in range(len(HEADER))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(report)]
    lines += ["", "## Statistics", "",
              "| opponent | colour | won (95 % CI) | not lost (95 % CI) | pass mark % | score | Elo | LOS % |",
              "|---|---|---|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in statistics_rows(report)]
    lines += ["", verdict_line(report), ""]
    if (report.get("course") or {}).get("lines"):
        lines += ["```"] + report["course"]["lines"] + ["```", ""]
    lines += ["W/D/L are the agent's wins, draws and losses. The course passes an opponent when the",
              "not-lost rate (wins + draws, less the games the file printed in) reaches its pass mark"
              + ("." if report.get("points") else "; *all won* is our stricter target."),
              "Seconds are the agent's own thinking per move; *longest game s* is its total thinking in",
              "its longest game, against the course's 30 s per game."]
    if report.get("you_can"):
        lines += ["", "## What you can do", ""] + [f"- {line[0].upper()}{line[1:]}." for line in report["you_can"]]
    lost = [(e, g) for e in report["opponents"].values() for g in e.get("not_won", [])]
    if lost:
        student = any("games_file" in g for _, g in lost)
        where, cell = ("games file", "games_file") if student else ("replay", "replay")
        lines += ["", "## Games not won", "",
                  f"| opponent | colour | game | seed | result | reason | plies | {where} |",
                  "|---|---|---:|---:|---|---|---:|---|"]
        lines += [f"| {e['opponent']} | {e['colour']} | {g['game']} | {g['seed']} | {g['result']} | {g['reason']} "
                  f"| {g['plies']} | `{g.get(cell, '-')}` |" for e, g in lost]
    lines += review_lines(report)
    if report["notes"]:
        lines += ["", "## Notes", ""] + [f"- {note}" for note in report["notes"]]
    meta = [f"agent sha256 {report['sha256']}" if report.get("sha256") else None,
            f"written {report['date']}" if report.get("date") else None,
            f"toolkit {report['version']}" if report.get("version") else None]
    if any(meta):
        lines += ["", "_" + ", ".join(m for m in meta if m) + "._"]
    return "\n".join(lines) + "\n"


def add_reviews(report: dict, reviews: Dict[str, Dict[int, dict]]) -> None:
    """Put the game reviews (harness.analysis; by entry key, then game) into the report: each
    entry's mean accuracy of the agent and of the opponent over its reviewed games, and each game
    not won its agent's turning point as a line of text."""
    for key, e in report["opponents"].items():
        done = reviews.get(key) or {}
        if not done:
            continue
        other = "black" if e["colour"] == "white" else "white"
        means = {}
        for name, side in (("agent", e["colour"]), ("opponent", other)):
            values = [r["accuracy"][side] for r in done.values() if (r.get("accuracy") or {}).get(side) is not None]
            means[name] = round(sum(values) / len(values), 2) if values else None
        e["accuracy"] = {**means, "games": len(done), "analyser": sorted({r["analyser"] for r in done.values()})}
        for game in e.get("not_won", []):
            if game["game"] in done:
                game["turning_point"] = turning_point_text(done[game["game"]], e["colour"])


def review_lines(report: dict) -> List[str]:
    """report.md's "Game review" section: each entry's mean accuracies, each game not won with
    its turning point and replay command (empty when nothing was reviewed)."""
    lines = []
    for e in report["opponents"].values():
        accuracy = e.get("accuracy")
        if not accuracy:
            continue
        shown = {k: "-" if accuracy[k] is None else f"{accuracy[k]:.1f} %" for k in ("agent", "opponent")}
        lines.append(f"- {e['opponent']} ({report['agent']} as {e['colour']}): mean accuracy over {accuracy['games']} "
                     f"reviewed games: {report['agent']} {shown['agent']}, {e['opponent']} {shown['opponent']}")
        lines += [f"  - game {g['game']} ({g['result']}, {g['reason']}): {g['turning_point']}; "
                  f"`{g.get('replay', '-')}`" for g in e.get("not_won", []) if g.get("turning_point")]
    if not lines:
        return []
    analysers = sorted({a for e in report["opponents"].values() for a in (e.get("accuracy") or {}).get("analyser", [])})
    return ["", "## Game review", "", f"By {', '.join(analysers)} (docs/analysis.md); the turning point is "
            f"the agent's judged move that lost the most winning chances.", ""] + lines


def write_report(out: str, report: dict) -> None:
    os.makedirs(out, exist_ok=True)
    write_json(os.path.join(out, REPORT_JSON), report)
    with open(os.path.join(out, REPORT_MD), "w", encoding="utf-8") as handle:
        handle.write(render_markdown(report))


def _report_keys(out: str) -> List[str]:
    """The entry keys of the report.json in `out` (none when there is none or it is damaged)."""
    try:
        with open(os.path.join(out, REPORT_JSON), encoding="utf-8") as handle:
            return list(json.load(handle).get("opponents") or {})
    except (OSError, ValueError, AttributeError):
        return []


def _newest_change(paths: Sequence[str]) -> float:
    times = []
    for path in paths:
        times.append(os.path.getmtime(path))
        for folder, _, files in os.walk(path):
            times.extend(os.path.getmtime(os.path.join(folder, name)) for name in files)
    return max(times)


def keep_previous(out: str, keys: Sequence[str]) -> Optional[str]:
    """Make room for a fresh report in `out`: move the report there (report.json, .md, .html and
    the folders of its series: those of its own opponents and of `keys`, the new report's, so a
    run that never finished goes too) into OUT/previous/WHEN/, WHEN the local time it last
    wrote (``2025-06-01_14-03-59``), its replay commands naming the games' new place. Returns
    that folder, or None when there was nothing to move.
    The caller holds `out` (results.hold_folder); a series folder another run holds is a
    ResultsError before anything moves."""
    names = [REPORT_JSON, REPORT_MD, REPORT_HTML, RUN_FILE]
    names += sorted({directory_name(key) for key in list(keys) + _report_keys(out)})
    found = [os.path.join(out, name) for name in names if os.path.lexists(os.path.join(out, name))]
    if not found:
        return None
    for path in found:
        if os.path.isdir(path):
            check_free(path)
    when = datetime.datetime.fromtimestamp(_newest_change(found)).strftime("%Y-%m-%d_%H-%M-%S")
    target, number = os.path.join(out, PREVIOUS, when), 1
    while os.path.lexists(target):
        number += 1
        target = os.path.join(out, PREVIOUS, f"{when}-{number}")
    os.makedirs(target)
    for path in found:
        shutil.move(path, os.path.join(target, os.path.basename(path)))
    # the moved report's replay commands name its games where they are now
    moved = [os.path.basename(path) for path in found if os.path.isdir(os.path.join(target, os.path.basename(path)))]
    for name in (REPORT_JSON, REPORT_MD, REPORT_HTML):
        path = os.path.join(target, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                text = handle.read()
            for folder in moved:
                text = text.replace(os.path.join(out, folder, ""), os.path.join(target, folder, ""))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as handle:
                handle.write(text)
    return target
