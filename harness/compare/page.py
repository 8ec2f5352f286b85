"""compare's report.html: the verdict and fastchess's lines, the LLR over the games played with its
bounds, the Elo and normalized Elo intervals narrowing as pairs finish, and every game in the board
viewer (harness.view.html's page parts: matplotlib SVG without pyplot, Jinja2, the viewer)."""
import math
import os
from typing import Any, Dict, List, Optional

from ..grading.report import REPORT_HTML
from ..runs.results import settings_variant
from ..variants import find_variant
from ..view.html import game_data, inline_svg, new_figure, template, viewer_context
from .pairs import text_lines

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def _value(step: dict, key: str) -> float:
    value = step.get(key)
    return math.nan if value is None or math.isinf(value) else value


def llr_plot(history: List[dict], bounds: List[float]) -> Optional[str]:
    """The LLR after every finished pair against the games counted, between the test's bounds."""
    steps = [s for s in history if "llr" in s]
    if not steps:
        return None
    figure, axes = new_figure(7.2, 3.0)
    games = [0] + [s["games"] for s in steps]
    axes.plot(games, [0.0] + [s["llr"] for s in steps], color="#1f4e8c", linewidth=1.4, label="LLR")
    for bound, colour, name in ((bounds[1], "#3f8f4f", "H1 accepted"), (bounds[0], "#c2463d", "H0 accepted")):
        axes.axhline(bound, color=colour, linestyle="--", linewidth=1.0, label=f"{name} ({bound:.2f})")
    axes.set_xlabel("games (of finished pairs)")
    axes.set_ylabel("log-likelihood ratio")
    axes.set_xlim(left=0)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1, 1), ncol=3, borderaxespad=0.2)
    figure.tight_layout()
    return inline_svg(figure, "llr")


def elo_plot(history: List[dict], key: str, label: str, hypotheses: Optional[List[float]]) -> Optional[str]:
    """An Elo figure after every finished pair with its 95 % interval as a band (open where the
    interval is unbounded), and the test's elo0 and elo1 when they are in these units."""
    if not history:
        return None
    games = [s["games"] for s in history]
    centre = [_value(s, key) for s in history]
    margin = [_value(s, key + "_margin") for s in history]
    figure, axes = new_figure(7.2, 3.0)
    axes.fill_between(games, [c - m for c, m in zip(centre, margin)], [c + m for c, m in zip(centre, margin)],
                      color="#7aa6d6", alpha=0.35, linewidth=0, label="95 % interval")
    axes.plot(games, centre, color="#1f4e8c", linewidth=1.4, label=label)
    axes.axhline(0, color="#888", linewidth=0.8)
    if hypotheses:
        for value, colour, name in ((hypotheses[0], "#c2463d", "elo0"), (hypotheses[1], "#3f8f4f", "elo1")):
            axes.axhline(value, color=colour, linestyle="--", linewidth=1.0, label=f"{name} ({value:g})")
    axes.set_xlabel("games (of finished pairs)")
    axes.set_ylabel(label)
    axes.set_xlim(left=0)
    axes.legend(frameon=False, loc="lower right", bbox_to_anchor=(1, 1), ncol=4, borderaxespad=0.2)
    figure.tight_layout()
    return inline_svg(figure, key)


def verdict(summary: dict) -> Dict[str, str]:
    """The headline: the test's verdict in words, and a class for its colour."""
    sprt = summary["sprt"]
    if sprt is None:
        return {"text": f"No test: {summary['games']} games played as asked (--games).", "class": "na"}
    hypotheses = f"[{sprt['elo0']:g}, {sprt['elo1']:g}] {sprt['model']} Elo"
    if sprt["result"] == "H1":
        return {"class": "pass", "text": f"H1 accepted after {summary['games']} games: {summary['new']} is stronger "
                                         f"than {summary['old']} (H1: by {sprt['elo1']:g} rather than H0: by "
                                         f"{sprt['elo0']:g}, {hypotheses})."}
    if sprt["result"] == "H0":
        return {"class": "fail", "text": f"H0 accepted after {summary['games']} games: {summary['new']} is not "
                                         f"stronger than {summary['old']} by {sprt['elo1']:g} ({hypotheses})."}
    return {"class": "na", "text": f"No decision after {summary['games']} games ({hypotheses}): the LLR stayed "
                                   f"between its bounds."}


def settings_line(summary: dict) -> str:
    s = summary["settings"]
    line = (f"{settings_variant(s)}: game pairs from {s.get('openings', 0)}-ply random openings, colours "
            f"reversed, seeds from {s.get('seed', 0)}, at most {s['games']} games; "
            f"{s.get('move_timeout', 0):g} s per move for files.")
    sprt = summary["sprt"]
    if sprt is not None:
        line += (f" SPRT: elo0 {sprt['elo0']:g}, elo1 {sprt['elo1']:g}, alpha {sprt['alpha']:g}, beta {sprt['beta']:g}, "
                 f"{sprt['model']} model.")
    return line


def render_compare_html(summary: dict, records: List[Dict[str, Any]], results_path: str, variant=None) -> str:
    variant = variant or find_variant(settings_variant(summary["settings"]))
    sprt = summary["sprt"]
    games = []
    for record in records:
        colour = "white" if record["game"] % 2 == 0 else "black"     # NEW's colour in the game
        game = game_data(f"pair {record['game'] // 2}", record, variant, colour, results_path)
        game["colour"] = colour
        games.append(game)
    return template("compare.html.j2", TEMPLATES).render(
        title=f"Compare: {summary['new']} vs {summary['old']}", settings=settings_line(summary),
        verdict=verdict(summary), lines=text_lines(summary), summary=summary, notes=summary.get("notes", []),
        llr_svg=llr_plot(summary["history"], sprt["bounds"]) if sprt else None,
        elo_svg=elo_plot(summary["history"], "elo", "Elo",
                         [sprt["elo0"], sprt["elo1"]] if sprt and sprt["model"] == "logistic" else None),
        nelo_svg=elo_plot(summary["history"], "nelo", "normalized Elo",
                          [sprt["elo0"], sprt["elo1"]] if sprt and sprt["model"] == "normalized" else None),
        games=games, **viewer_context(variant, games))


def write_compare_html(out: str, summary: dict, records: List[Dict[str, Any]], results_path: str,
                       variant=None) -> str:
    """Write OUT/report.html for a comparison; return its path."""
    path = os.path.join(out, REPORT_HTML)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render_compare_html(summary, records, results_path, variant))
    return path
