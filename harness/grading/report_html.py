"""report.html of a report and of a series: the report's figures, plots and every game in the board viewer.

`render_report_html(report, games, variant)` returns one self-contained page (the parts are
harness.view.html's): the summary, the W/D/L bars and the plots are plain HTML and SVG and read
with JavaScript off; the viewer needs JavaScript. The W/D/L bars carry 95 % Wilson intervals for
the win rate and the not-lost rate (`harness.stats.wilson`). A series' page is the same page from
White's side (`render_series_html`); `grade` hands a student the page with `student=True`.
"""
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..analysis.store import read_analyses
from ..runs.results import RESULTS_FILE, outcome, read_records, settings_variant
from ..variants import find_variant
from ..runs.series import directory_name
from ..stats import wilson
from ..view.html import (game_data, lengths_plot, move_seconds_by_ply, seconds_plot, template,
                         viewer_context)
from .report import (REPORT_HTML, HEADER, check_line, opponent_entry, report_title, settings_line, table_rows,
                     verdict_line)

OUTCOME_ORDER = {"loss": 0, "draw": 1, "win": 2}
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def ordered_games(games: Sequence[Tuple[str, Dict[str, Any]]], colour_of: Dict[str, str],
                  ) -> List[Tuple[str, Dict[str, Any]]]:
    """Lost games first, then drawn, then won; within each, in the order given."""
    def rank(item):
        label, record = item
        colour = colour_of.get(label)
        if colour not in ("white", "black") or not record.get("result"):
            return 3
        return OUTCOME_ORDER[outcome(record, colour)]
    return [item for _, item in sorted(enumerate(games), key=lambda pair: (rank(pair[1]), pair[0]))]


# ----------------------------------------------------------------------------- W/D/L bars


def bar_rows(report: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Per report entry: the W/D/L shares (percent of the bar) and the Wilson intervals of the
    win rate and the not-lost rate, as fractions."""
    rows = []
    for key, e in report["opponents"].items():
        n = e["games"]
        share = (lambda count: 100.0 * count / n) if n else (lambda count: 0.0)
        rows.append({
            "key": key, "games": n, "wins": e["wins"], "draws": e["draws"], "losses": e["losses"],
            "win_share": share(e["wins"]), "draw_share": share(e["draws"]),
            "loss_share": share(e["losses"]),
            "win_interval": wilson(e["wins"], n),
            "not_lost_interval": wilson(e["wins"] + e["draws"], n),
            "pass_mark": e.get("pass_mark"), "passed": e.get("passed"),
        })
    return rows


# ----------------------------------------------------------------------------- pages


REPORT_CAPTION = ("W/D/L are the agent's wins, draws and losses. The course passes an opponent when the "
                  "not-lost rate (wins + draws) reaches its pass mark; all won is our stricter target. "
                  "Seconds are the agent's own thinking per move; longest game s is its total thinking "
                  "in its longest game, against the course's 30 s per game.")
STUDENT_PAGE = {
    "caption": "W/D/L are your file's wins, draws and losses. The course passes an opponent when the not-lost rate "
               "(wins + draws, less the games your file printed in) reaches its pass mark. Seconds are your file's "
               "own thinking per move; longest game s is its total thinking in its longest game, against the "
               "course's 30 s per game.",
    "command": "python -m harness grade", "command_label": "in your games file:", "student": True}
SERIES_CAPTION = ("The series from White's side: W/D/L are White's wins, draws and losses against Black; "
                  "seconds are White's own thinking per move. The pass mark is the course's, when Black is "
                  "one of the course's opponents.")

def render_report_html(report: Dict[str, Any], games: Sequence[Tuple[str, Dict[str, Any]]],
                       variant=None, results_paths: Optional[Dict[str, str]] = None, *,
                       title: Optional[str] = None, settings: Optional[str] = None,
                       verdict: bool = True, caption: str = REPORT_CAPTION, side: str = "the agent's",
                       command: str = "python -m harness report",
                       analyses: Optional[Dict[str, Dict[int, Dict[str, Any]]]] = None,
                       command_label: str = "replay in the terminal:", student: bool = False) -> str:
    """report.html for a report (report.json's structure) and its games as (entry key, record).

    `results_paths` gives each key's results file for the replay commands (default
    ``KEY_DIRECTORY/results.jsonl``, relative to the report's directory). The keywords are
    for pages that are not the course report (a series): their title, settings line, whether
    the course verdict is shown, the table's caption, whose games the plots show and the
    command named in the footer. `analyses`: each key's game reviews by game number (harness.analysis)."""
    variant = variant or find_variant(settings_variant(report.get("settings")))
    analyses = analyses or {}
    colour_of = {key: e["colour"] for key, e in report["opponents"].items()}
    paths = {key: os.path.join(directory_name(key), RESULTS_FILE) for key in report["opponents"]}
    paths.update(results_paths or {})
    ordered = ordered_games(games, colour_of)
    data = [game_data(label, record, variant, colour_of.get(label),
                      paths.get(label, os.path.join(directory_name(label), RESULTS_FILE)),
                      analyses.get(label, {}).get(record.get("game")))
            for label, record in ordered]
    if student:         # a student has the games file, not necessarily the toolkit: no replay command
        for game, (label, _) in zip(data, ordered):
            game["command"] = f"{paths.get(label, os.path.join(directory_name(label), RESULTS_FILE))}, game {game['game']}"
    context = {
        "command_label": command_label,
        "student": student,
        "title": title or report_title(report),
        "report": report,
        "settings": settings if settings is not None else settings_line(report),
        "verdict": verdict,
        "course_verdict": verdict_line(report) if verdict and report.get("points") else None,
        "check": check_line(report) if verdict else None,
        "caption": caption,
        "side": side,
        "command": command,
        "header": HEADER,
        "rows": table_rows(report),
        "bars": bar_rows(report),
        "seconds_svg": seconds_plot(move_seconds_by_ply(
            (record["think"][colour_of[label]]["seconds"], colour_of[label], g["first"])
            for (label, record), g in zip(ordered, data) if colour_of.get(label) in ("white", "black"))),
        "lengths_svg": lengths_plot(games, colour_of),
        "games": data,
        "counts": {k: sum(1 for g in data if g["outcome"] == k) for k in ("loss", "draw", "win")},
        **viewer_context(variant, data),
    }
    return template("report.html.j2", TEMPLATES).render(**context)

def series_report(settings: Dict[str, Any], records: List[Dict[str, Any]]) -> Dict[str, Any]:
    """A series (settings as in its series.json) in report.json's structure, from White's side."""
    entry = opponent_entry(settings["black"], "white", records)
    return {"agent": settings["white"], "settings": settings, "passed": entry["passed"],
            "won_all": entry["won_all"], "opponents": {settings["black"]: entry}, "notes": []}


def series_settings_line(settings: Dict[str, Any], games: int) -> str:
    seed = settings.get("seed", 0)
    start = ("the position in " + settings["config"] if settings.get("config") else
             "the position " + settings["fen"] if settings.get("fen") else "the start position")
    limits = "".join(part for key, part in (
        ("fifty", f"; draw after {settings.get('fifty')} plies without a capture"),
        ("max_plies", f"; at most {settings.get('max_plies')} plies")) if settings.get(key) is not None)
    return (f"{games} games of {settings_variant(settings)} from {start}, seeds {seed}..{seed + games - 1}"
            f"{limits}; {settings.get('move_timeout', 0):g} s per move for files.")


def render_series_html(settings: Dict[str, Any], records: List[Dict[str, Any]], variant=None,
                       results_path: str = RESULTS_FILE,
                       analyses: Optional[Dict[int, Dict[str, Any]]] = None) -> str:
    """The series command's report.html: the same page as a report's, from White's side
    (`analyses`: the games' reviews by game number)."""
    report = series_report(settings, records)
    return render_report_html(
        report, [(settings["black"], r) for r in records], variant, {settings["black"]: results_path},
        title=f"Series: {settings['white']} (White) vs {settings['black']} (Black)",
        settings=series_settings_line(settings, len(records)), verdict=False, caption=SERIES_CAPTION, side="White's",
        command="python -m harness series", analyses={settings["black"]: analyses or {}})


# ----------------------------------------------------------------------------- files


def report_games(out: str, report: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """(entry key, record) for every game of a report written to `out`, by key then game."""
    games = []
    for key in report["opponents"]:
        records, _ = read_records(os.path.join(out, directory_name(key), RESULTS_FILE))
        games += [(key, records[number]) for number in sorted(records)]
    return games

def write_report_html(out: str, report: Dict[str, Any], variant=None, student: bool = False) -> str:
    """Write OUT/report.html for a report whose series are in OUT; return its path. student: the
    page is handed to a student (grade): each game named by its games file relative to OUT, no
    replay command, no target of ours."""
    paths = {key: os.path.join(out, directory_name(key), RESULTS_FILE) for key in report["opponents"]}
    page = render_report_html(report, report_games(out, report), variant, None if student else paths,
                              analyses={key: read_analyses(path) for key, path in paths.items()},
                              **(STUDENT_PAGE if student else {}))
    path = os.path.join(out, REPORT_HTML)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)
    return path

def write_series_html(out: str, settings: Dict[str, Any], records: List[Dict[str, Any]], variant=None) -> str:
    """Write OUT/report.html for the series in OUT; return its path."""
    path = os.path.join(out, REPORT_HTML)
    results = os.path.join(out, RESULTS_FILE)
    page = render_series_html(settings, records, variant, results, read_analyses(results))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)
    return path
