"""The shared page parts: the game viewer, plots, templates (report.html and the other pages are built on them).

Every page is one self-contained HTML file (inline CSS, inline SVG, the games as JSON, a small
script; no network, nothing beside it), so it can be mailed. `render_game_html(record, variant)`
is the one-game page; the features' pages (the report's and the series', harness.grading.report_html;
the tournament's, harness.tournament.page; compare's, harness.compare.page) are built from the
parts here: `game_data` (what the viewer needs of one game, with its review), `viewer_context`
(the board, drawn by board.js, the script the web app shares), `template` (a Jinja2 template from
a feature's templates/ folder or this one's, which holds the shared parts), `new_figure` and
`inline_svg` (matplotlib's SVG backend without pyplot, so no display and no global state are
involved) and the two plots every report shows (seconds per move against ply, game lengths).

Boards come from the variant interface (`harness.core.variant.Variant`): ``start``,
``parse_move``, ``apply``, ``grid`` and ``square_names``. Every position of every game is
computed here and embedded; the page's script only switches between them. A position travels
as text: rows top to bottom joined by ``/``, a piece as its letter (upper case White, lower
case Black), a run of empty squares as its length (``3p3/7/...``).
"""
import io
import json
import math
import os
import shlex
import statistics
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import jinja2

from ..analysis.store import review_of
from ..analysis.text import accuracy_text, evaluation_text, ply_text, turning_point_text
from ..core.records import record_states
from ..runs.results import outcome, record_of
from ..variants import find_variant
from .board import board_geometry, encode_grid, legend, move_cells
from .words import ending_words

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
COLOURS = {"win": "#3f8f4f", "draw": "#9aa0a6", "loss": "#c2463d"}


# ----------------------------------------------------------------------------- games


def replay_command(results_path: str, game: int) -> str:
    """The command that replays one game, ready to paste (paths quoted when they need it)."""
    return f"python -m harness replay {shlex.quote(results_path)} --game {game}"


def review_data(entry: Optional[Dict[str, Any]], variant, positions: int) -> Optional[Dict[str, Any]]:
    """The game review for the viewer (an analysis.jsonl entry), by position (0: the start) for
    `positions` positions: White's win %, its evaluation as text (White's view), the text of
    the move that led to it and, as grid cells, the best move of that move's mover (the
    analyser's move in the position before it: the arrow drawn on the board after a judged
    "g1e1?? (best e3d4)" is e3d4, the move named); by ply the judgement; the turning points'
    plies. None without an entry (the caller passes only a well-formed one:
    harness.analysis.store.review_of)."""
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
        best[k] = move_cells(ply.get("best"), variant)
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
    moves = list(record.get("moves") or [])[:len(grids) - 1]
    # the ending in the variant's words ("Black wins: White has no legal move (after 24 plies).")
    ending = ending_words({**record, "moves": record.get("moves") or [], "to_move": str(variant.to_move(states[-1])).lower()},
                          variant) or "Not finished."
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
        "moves": moves,
        "positions": [encode_grid(g) for g in grids],
        "checks": [variant.check_cell(state) for state in states],
        "command": replay_command(results_path, number),
        "review": review_data(review_of(review, record), variant, len(grids)),
    }


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


def inline_svg(figure, salt: str) -> str:
    """A matplotlib figure as an inline <svg> element (no XML prolog, text kept as text)."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    FigureCanvasSVG(figure)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def new_figure(width: float = 7.2, height: float = 2.8):
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
    figure, axes = new_figure()
    axes.fill_between(plies, medians, maxima, color="#7aa6d6", alpha=0.35, linewidth=0, label="max")
    axes.plot(plies, maxima, color="#7aa6d6", linewidth=0.6)
    axes.plot(plies, medians, color="#1f4e8c", linewidth=1.4, label="median")
    axes.set_xlabel("ply")
    axes.set_ylabel("seconds per move")
    axes.set_xlim(left=0)
    axes.set_ylim(bottom=0)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1, 1), ncol=3, borderaxespad=0.2)
    figure.tight_layout()
    return inline_svg(figure, "seconds")


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
    figure, axes = new_figure()
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
    return inline_svg(figure, "lengths")


# ----------------------------------------------------------------------------- pages


def _environment(folder: str) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(list(dict.fromkeys((folder, TEMPLATES)))),
                             autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["percent"] = lambda x: "-" if x is None else f"{100 * x:.1f}"
    return env


_ENVS: Dict[str, jinja2.Environment] = {}


def template(name: str, folder: str = TEMPLATES) -> jinja2.Template:
    """The page template `name` in `folder` (a feature's own templates/; default view's), which
    includes view's shared parts (``_viewer.html.j2``) by name."""
    if folder not in _ENVS:
        _ENVS[folder] = _environment(folder)
    return _ENVS[folder].get_template(name)


def _asset(name: str) -> str:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as handle:
        return handle.read()


def _json_for_script(data: Any) -> str:
    """JSON that is safe inside <script type="application/json">."""
    return (json.dumps(data, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def viewer_context(variant, games: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The viewer's part of a page: the board (drawn by board.js, the script the web app shares)
    and the games."""
    geometry = board_geometry(variant)
    return {"board": geometry, "legend": legend(variant), "board_json": _json_for_script(geometry),
            "games_json": _json_for_script(games), "viewer_js": _asset("board.js") + "\n" + _asset("viewer.js"),
            "style": _asset("style.css")}


def render_game_html(record: Dict[str, Any], variant=None, results_path: str = "RESULTS",
                     label: str = "", review: Optional[Dict[str, Any]] = None) -> str:
    """A page with the viewer for one game (`review`: its analysis.jsonl entry, if any)."""
    variant = variant or find_variant(record_of(record).variant)
    data = [game_data(label, record, variant, None, results_path, review)]
    title = (f"Game {record.get('game', '?')}: {record.get('white', '?')} (White) vs "
             f"{record.get('black', '?')} (Black)")
    return template("game.html.j2").render(title=title, game=data[0], games=data,
                                           **viewer_context(variant, data))
