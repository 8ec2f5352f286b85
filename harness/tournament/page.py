"""The tournament's report.html: ratings, crosstable and every game in the board viewer (the
parts are harness.view.html's)."""
import os
from typing import Any, Dict, Optional, Sequence, Tuple

from ..analysis.store import read_analyses
from ..grading.report import REPORT_HTML
from ..runs.results import settings_variant
from ..variants import find_variant
from ..view.html import game_data, template, viewer_context

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def render_tournament_html(report: Dict[str, Any], games: Sequence[Tuple[str, str, Dict[str, Any]]],
                           variant=None, analyses: Optional[Dict[str, Dict[int, Dict[str, Any]]]] = None) -> str:
    """The tournament's report.html: ratings, crosstable and every game, given as (pair label,
    results file, record); `analyses`: the game reviews by results file, then game."""
    variant = variant or find_variant(settings_variant(report.get("settings")))
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
    return template("tournament.html.j2", TEMPLATES).render(
        title="Tournament", settings=settings, ratings=report["ratings"], order=order, cross_rows=rows,
        pairs=report.get("pairs", []), notes=report.get("notes", []), games=data, **viewer_context(variant, data))


def write_tournament_html(out: str, report: Dict[str, Any], games: Sequence[Tuple[str, str, Dict[str, Any]]],
                          variant=None) -> str:
    """Write OUT/report.html for a tournament; return its path."""
    path = os.path.join(out, REPORT_HTML)
    analyses = {results: read_analyses(results) for results in {results for _, results, _ in games}}
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render_tournament_html(report, games, variant, analyses))
    return path
