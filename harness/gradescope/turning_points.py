"""A game's turning point for the Gradescope output, where an analysis of the game is available.

The seam between the autograder and the game review (issue 28, harness/analysis/): the review
writes ``analysis.jsonl`` beside a series' results.jsonl, one line per game,
``{"game", "turning_point": {"white": PLY or null, "black": ...}, "plies": [{"ply", "colour",
"move", "best", "win_before", "win_after", ...}, ...]}`` with win % from White's view.
`TurningPoints.line` turns a side's turning point into one line, such as
``turning point: ply 23, White c0f3 (best e0d1), win 45 % -> 3 %`` (the mover's win %), and
gives None when there is no analysis file, no line for the game or no turning point. Nothing
here runs an analysis: once harness/analysis/ is merged, the autograder can analyse the games
not won before it writes the tests, and this reader can give way to the review's own.
"""
import json
import os
from typing import Dict, Optional

ANALYSIS_FILE = "analysis.jsonl"


class TurningPoints:
    """Reads each series' analysis.jsonl once."""

    def __init__(self):
        self._by_series: Dict[str, Dict[int, dict]] = {}

    def _analyses(self, results_path: str) -> Dict[int, dict]:
        folder = os.path.dirname(results_path)
        if folder not in self._by_series:
            found: Dict[int, dict] = {}
            try:
                with open(os.path.join(folder, ANALYSIS_FILE), encoding="utf-8") as handle:
                    for raw in handle:
                        try:
                            line = json.loads(raw)
                        except ValueError:
                            continue          # a half-written last line
                        if isinstance(line, dict) and isinstance(line.get("game"), int):
                            found.setdefault(line["game"], line)
            except OSError:
                pass
            self._by_series[folder] = found
        return self._by_series[folder]

    def line(self, results_path: str, game: int, colour: str) -> Optional[str]:
        """The turning point of `colour`'s play in game `game` of the series whose results are at
        `results_path`, as one line; None when no analysis says."""
        analysis = self._analyses(results_path).get(game)
        if analysis is None:
            return None
        ply = (analysis.get("turning_point") or {}).get(colour)
        entry = next((p for p in analysis.get("plies") or [] if isinstance(p, dict) and p.get("ply") == ply), None)
        if ply is None or entry is None:
            return None
        try:
            before, after = float(entry["win_before"]), float(entry["win_after"])
        except (KeyError, TypeError, ValueError):
            return None
        if colour == "black":
            before, after = 100 - before, 100 - after
        best = f" (best {entry['best']})" if entry.get("best") else ""
        return (f"turning point: ply {ply}, {colour.capitalize()} {entry.get('move', '?')}{best}, "
                f"win {before:.0f} % -> {after:.0f} %")
