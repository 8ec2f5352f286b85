"""report.html and a one-game page: the report's figures, plots and every game in a board viewer.

A pure renderer: `render_report_html(report, games, variant)` and `render_game_html(record,
variant)` return one self-contained HTML page (inline CSS, inline SVG, the games as JSON, a
small script; no network, nothing beside it), so the file can be mailed. The summary, the
W/D/L bars and the plots are plain HTML and SVG and read with JavaScript off; the viewer needs
JavaScript.

Boards come from the variant interface (`harness.core.variant.Variant`): ``start``,
``parse_move``, ``apply``, ``grid`` and ``square_names``. Every position of every game is
computed here (`positions`) and embedded; the page's script only switches between them. A
position travels as text: rows top to bottom joined by ``/``, a piece as its letter (upper case
White, lower case Black), a run of empty squares as its length (``3p3/7/...``).

The W/D/L bars carry 95 % Wilson intervals for the win rate and the not-lost rate
(`harness.stats.wilson`);
the two plots (seconds per move against ply, game lengths) are drawn by matplotlib's SVG
backend without pyplot, so no display and no global state are involved.
"""
import io
import json
import math
import os
import statistics
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import jinja2

from ..analysis.store import read_analyses, review_of
from ..analysis.text import accuracy_text, evaluation_text, ply_text, turning_point_text
from ..core.records import record_states
from ..grading.report import (REPORT_HTML, HEADER, check_line, directory_name, opponent_entry, replay_command,
                              settings_line, verdict_line, table_rows)
from ..runs.results import RESULTS_FILE, outcome, read_records, record_of, settings_variant
from ..stats import wilson
from .board import board_geometry, encode_grid, legend, move_cells

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
OUTCOME_ORDER = {"loss": 0, "draw": 1, "win": 2}
COLOURS = {"win": "#3f8f4f", "draw": "#9aa0a6", "loss": "#c2463d"}


# ----------------------------------------------------------------------------- figures


# ----------------------------------------------------------------------------- positions


def variant_of(name: str):
    """The variant a record (`Record.variant`) or report (`settings_variant`) names."""
    from ..variants import find_variant
    return find_variant(name)


# ----------------------------------------------------------------------------- games


def review_data(entry: Optional[Dict[str, Any]], variant, positions: int) -> Optional[Dict[str, Any]]:
    """The game review for the viewer (an analysis.jsonl entry), by position (0: the start) for
    `positions` positions: White's win %, its evaluation as text (White's view), the analyser's
    best move in it as grid cells, the text of the move that led to it; by ply the judgement;
    the turning points' plies. None without an entry (the caller
    passes only a well-formed one: harness.analysis.store.review_of)."""
    if not entry or not entry.get("plies"):
        return None
    wins: List[Optional[float]] = [None] * positions
    best: List[Optional[List[int]]] = [None] * positions
    texts: List[Optional[str]] = [None] * positions
    judgements: List[Optional[str]] = [None] * max(positions - 1, 0)
    evals: List[Optional[str]] = [None] * positions
    for ply in entry["plies"]:
        k = ply["ply"]
        if not 0 < k < positions:
            continue
        wins[k - 1], wins[k] = ply["win_before"], ply["win_after"]
        evals[k - 1] = evaluation_text(ply["cp_before"], ply["mate_before"], ply["win_before"])
        evals[k] = evaluation_text(ply["cp_after"], ply["mate_after"], ply["win_after"])
        best[k - 1] = move_cells(ply.get("best"), variant)
        texts[k] = f"ply {k}, {ply['colour'].capitalize()} {ply_text(ply)}"
        judgements[k - 1] = ply.get("judgement")
    turning = sorted(k for k in (entry.get("turning_point") or {}).values() if isinstance(k, int) and 0 < k < positions)
    return {"analyser": entry.get("analyser"), "wins": wins, "best": best, "texts": texts,
            "judgements": judgements, "evals": evals, "turning": turning, "summary": "; ".join(
                [accuracy_text(entry)] + [turning_point_text(entry, side) for side in ("white", "black")])}


def game_data(label: str, record: Dict[str, Any], variant, colour: Optional[str],
              results_path: str, review: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """What the viewer needs of one game (the JSON embedded in the page); `review` its
    analysis.jsonl entry, if it has one."""
    states, _, problem = record_states(record, variant)
    grids, first = [variant.grid(state) for state in states], str(variant.to_move(states[0])).lower()
    result, reason = record.get("result"), record.get("reason")
    if result in ("white", "black"):
        ending = f"{result.capitalize()} ({record.get(result, '?')}) wins by {reason}"
    else:
        ending = f"Draw by {reason}" if result == "draw" else f"{result!r} ({reason})"
    ending += f" after {record.get('plies', len(grids) - 1)} plies."
    number = record.get("game", "?")
    return {
        "label": label,
        "game": number,
        "seed": record.get("seed"),
        "white": record.get("white"),
        "black": record.get("black"),
        "outcome": outcome(record, colour) if colour in ("white", "black") and result else None,
        "reason": reason,
        "plies": record.get("plies", len(grids) - 1),
        "ending": ending,
        "error": record.get("error"),
        "problem": problem,
        "first": first,
        "moves": list(record.get("moves") or [])[:len(grids) - 1],
        "positions": [encode_grid(g) for g in grids],
        "checks": [variant.check_cell(state) for state in states],
        "command": replay_command(results_path, number),
        "review": review_data(review_of(review, record), variant, len(grids)),
    }


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


# ----------------------------------------------------------------------------- plots


def move_seconds_by_ply(games: Iterable[Tuple[List[float], str, str]]) -> Dict[int, List[float]]:
    """The agent's seconds for each of its moves, grouped by the ply the move was (1 = the first
    ply of the game), from (the agent's seconds per move, its colour, the colour that moved
    first) per game."""
    by_ply: Dict[int, List[float]] = {}
    for seconds, colour, first in games:
        offset = 1 if colour == first else 2
        for i, value in enumerate(seconds):
            by_ply.setdefault(2 * i + offset, []).append(value)
    return dict(sorted(by_ply.items()))


def _svg(figure, salt: str) -> str:
    """A matplotlib figure as an inline <svg> element (no XML prolog, text kept as text)."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    FigureCanvasSVG(figure)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _figure(width: float = 7.2, height: float = 2.8):
    from matplotlib.figure import Figure
    figure = Figure(figsize=(width, height))
    axes = figure.add_subplot()
    axes.spines[["top", "right"]].set_visible(False)
    axes.grid(True, color="#e4e4e4", linewidth=0.6)
    axes.set_axisbelow(True)
    return figure, axes


def seconds_plot(by_ply: Dict[int, List[float]]) -> Optional[str]:
    """Seconds per move against ply: the median line over a band up to the maximum."""
    if not by_ply:
        return None
    plies = list(by_ply)
    medians = [statistics.median(v) for v in by_ply.values()]
    maxima = [max(v) for v in by_ply.values()]
    figure, axes = _figure()
    axes.fill_between(plies, medians, maxima, color="#7aa6d6", alpha=0.35, linewidth=0, label="max")
    axes.plot(plies, maxima, color="#7aa6d6", linewidth=0.6)
    axes.plot(plies, medians, color="#1f4e8c", linewidth=1.4, label="median")
    axes.set_xlabel("ply")
    axes.set_ylabel("seconds per move")
    axes.set_xlim(left=0)
    axes.set_ylim(bottom=0)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1, 1), ncol=3, borderaxespad=0.2)
    figure.tight_layout()
    return _svg(figure, "seconds")


def lengths_plot(games: Sequence[Tuple[str, Dict[str, Any]]], colour_of: Dict[str, str]) -> Optional[str]:
    """Game lengths in plies: a histogram stacked by the agent's outcome."""
    lengths: Dict[str, List[int]] = {"win": [], "draw": [], "loss": []}
    for label, record in games:
        colour = colour_of.get(label)
        if colour in ("white", "black") and record.get("result"):
            lengths[outcome(record, colour)].append(record["plies"])
    everything = [p for values in lengths.values() for p in values]
    if not everything:
        return None
    width = max(1, math.ceil((max(everything) + 1) / 40 / 5) * 5)   # at most ~40 bins, 5-ply steps
    edges = list(range(0, max(everything) + width + 1, width))
    figure, axes = _figure()
    names = {"win": "won", "draw": "drawn", "loss": "lost"}
    kept = [k for k in lengths if lengths[k]]
    axes.hist([lengths[k] for k in kept], bins=edges, stacked=True,
              color=[COLOURS[k] for k in kept], label=[names[k] for k in kept], edgecolor="white",
              linewidth=0.5)
    axes.set_xlabel("game length (plies)")
    axes.set_ylabel("games")
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1, 1), ncol=3, borderaxespad=0.2)
    figure.tight_layout()
    return _svg(figure, "lengths")


# ----------------------------------------------------------------------------- pages


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["percent"] = lambda x: "-" if x is None else f"{100 * x:.1f}"
    return env


_ENV: Optional[jinja2.Environment] = None


def _template(name: str) -> jinja2.Template:
    global _ENV
    if _ENV is None:
        _ENV = _environment()
    return _ENV.get_template(name)


def _asset(name: str) -> str:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as handle:
        return handle.read()


def _json_for_script(data: Any) -> str:
    """JSON that is safe inside <script type="application/json">."""
    return (json.dumps(data, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _viewer_context(variant, games: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The viewer's part of a page: the board (drawn by board.js, the script the web app shares)
    and the games."""
    geometry = board_geometry(variant)
    return {"board": geometry, "legend": legend(variant), "board_json": _json_for_script(geometry),
            "games_json": _json_for_script(games), "viewer_js": _asset("board.js") + "\n" + _asset("viewer.js"),
            "style": _asset("style.css")}


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
    variant = variant or variant_of(settings_variant(report.get("settings")))
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
        "title": title or f"Report: {report['agent']}",
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
        **_viewer_context(variant, data),
    }
    return _template("report.html.j2").render(**context)


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


def render_game_html(record: Dict[str, Any], variant=None, results_path: str = "RESULTS",
                     label: str = "", review: Optional[Dict[str, Any]] = None) -> str:
    """A page with the viewer for one game (`review`: its analysis.jsonl entry, if any)."""
    variant = variant or variant_of(record_of(record).variant)
    data = [game_data(label, record, variant, None, results_path, review)]
    title = (f"Game {record.get('game', '?')}: {record.get('white', '?')} (White) vs "
             f"{record.get('black', '?')} (Black)")
    return _template("game.html.j2").render(title=title, game=data[0], games=data,
                                            **_viewer_context(variant, data))


def render_tournament_html(report: Dict[str, Any], games: Sequence[Tuple[str, str, Dict[str, Any]]],
                           variant=None, analyses: Optional[Dict[str, Dict[int, Dict[str, Any]]]] = None) -> str:
    """The tournament's report.html: ratings, crosstable and every game, given as (pair label,
    results file, record); `analyses`: the game reviews by results file, then game."""
    variant = variant or variant_of(settings_variant(report.get("settings")))
    order = [r["player"] for r in report["ratings"]]
    rows = []
    for a in order:
        cells = [("-" if a == b or report["crosstable"][a].get(b) is None else
                  f"{report['crosstable'][a][b]['score']:g}/{report['crosstable'][a][b]['games']}") for b in order]
        total = sum(c["score"] for c in report["crosstable"][a].values())
        played = sum(c["games"] for c in report["crosstable"][a].values())
        rows.append({"player": a, "cells": cells, "total": f"{total:g}/{played}"})
    data = []
    for label, path, record in games:
        game = game_data(label, record, variant, None, path, (analyses or {}).get(path, {}).get(record.get("game")))
        game["result"] = record.get("result")
        data.append(game)
    s = report["settings"]
    settings = (f"Round robin of {len(order)} agents ({settings_variant(s)}): {s['games']} games per pair "
                f"and colour" + (f", openings of {s['openings']} random plies" if s.get("openings") else "")
                + f", seeds from {s.get('seed', 0)}.")
    return _template("tournament.html.j2").render(
        title="Tournament", settings=settings, ratings=report["ratings"], order=order, cross_rows=rows,
        pairs=report.get("pairs", []), notes=report.get("notes", []), games=data, **_viewer_context(variant, data))


# ----------------------------------------------------------------------------- files


def write_tournament_html(out: str, report: Dict[str, Any], games: Sequence[Tuple[str, str, Dict[str, Any]]],
                          variant=None) -> str:
    """Write OUT/report.html for a tournament; return its path."""
    path = os.path.join(out, REPORT_HTML)
    analyses = {results: read_analyses(results) for results in {results for _, results, _ in games}}
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render_tournament_html(report, games, variant, analyses))
    return path


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
