"""analysis.jsonl: the game review's lines, one per game, beside each results.jsonl (which is
never rewritten). Lines are appended as games are analysed; a game analysed again (other
settings, or a series started over) has its old line dropped first, so a file holds one line per
game. A line that does not parse (a killed run) is dropped with a note.

`read_analyses(results_path)` is the one reader: {game number: entry} for a results file.
`review_of(entry, record)` is the check every reader of an entry makes before showing it: a line
that parses as JSON but is not a review of that record's moves (edited, or of other moves) is
shown as no review at all, and `analyse` does that game again.
"""
import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..runs.results import ANALYSIS_FILE, RESULTS_FILE, damage_notes, drop_damaged_lines, read_lines_noting_damage
from ..core.analyser import AnalysisError


def analysis_path(results_path: str) -> str:
    """The analysis.jsonl beside a results file."""
    return os.path.join(os.path.dirname(results_path), ANALYSIS_FILE)


def read_analyses(results_path: str) -> Dict[int, dict]:
    """{game number: analysis entry} of the games of `results_path` that have been analysed
    (empty when none has)."""
    entries, _ = read_lines_noting_damage(analysis_path(results_path))
    return entries


SIDES = ("white", "black")
JUDGEMENTS = (None, "inaccuracy", "mistake", "blunder")
_EVALUATIONS = ("cp_before", "mate_before", "cp_after", "mate_after")
_PERCENTS = ("win_before", "win_after", "accuracy")
SECOND_LOOKS = (None, "before", "after", "both")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _percent(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and 0 <= value <= 100)


def _ply_ok(p: Any) -> bool:
    return (isinstance(p, dict) and _whole(p.get("ply")) and p.get("colour") in SIDES
            and isinstance(p.get("move"), str) and (p.get("best") is None or isinstance(p["best"], str))
            and all(p.get(k) is None or _whole(p[k]) for k in _EVALUATIONS)
            and all(_percent(p.get(k)) for k in _PERCENTS) and p.get("judgement") in JUDGEMENTS
            and p.get("second_look") in SECOND_LOOKS
            and not (p.get("judgement") and p["move"] == p.get("best")))    # a best move is never judged


def review_of(entry: Any, record: dict) -> Optional[dict]:
    """`entry` when it is a well-formed review (the fields docs/analysis.md lists, of the right
    kinds; `second_look` may be missing, as in lines written before it) of this record's moves,
    its plies consecutive, no move equal to its best judged; else None."""
    moves = record.get("moves") or []
    if not isinstance(entry, dict) or not isinstance(entry.get("plies"), list) or not isinstance(moves, Sequence):
        return None
    plies = entry["plies"]
    if not isinstance(entry.get("analyser"), str) or not all(_ply_ok(p) for p in plies):
        return None
    numbers = [p["ply"] for p in plies]
    if numbers and (numbers != list(range(numbers[0], numbers[0] + len(numbers))) or numbers[0] < 1
                    or numbers[-1] > len(moves)):
        return None
    if any(p["move"] != moves[p["ply"] - 1] for p in plies):
        return None
    accuracy, turning = entry.get("accuracy"), entry.get("turning_point")
    if not isinstance(accuracy, dict) or not isinstance(turning, dict):
        return None
    if not all(accuracy.get(side) is None or _percent(accuracy[side]) for side in SIDES):
        return None
    colours = {p["ply"]: p["colour"] for p in plies}
    if not all(turning.get(side) is None or (_whole(turning[side]) and colours.get(turning[side]) == side)
               for side in SIDES):
        return None
    return entry


def up_to_date(entry: dict, record: dict, label: str) -> bool:
    """Is `entry` the analysis of this record's moves by this analyser (with these settings)?"""
    plies = entry.get("plies") if isinstance(entry, dict) else None
    return (review_of(entry, record) is not None and entry.get("analyser") == label
            and (not plies or plies[-1]["ply"] == len(record.get("moves") or [])))


def prepare(results_path: str, records: Dict[int, dict], label: str) -> Tuple[Dict[int, dict], List[str]]:
    """The entries already done for `records` (by game) and notes; the lines of those records'
    games that are out of date, and damaged lines, are dropped from the file."""
    path = analysis_path(results_path)
    entries, damaged = read_lines_noting_damage(path)
    kept = {game: entries[game] for game, record in records.items()
            if game in entries and up_to_date(entries[game], record, label)}
    stale = [game for game in records if game in entries and game not in kept]
    notes = [note.replace("its game will be played again", "its game will be analysed again")
             for note in damage_notes(path, damaged)]
    if damaged or stale:
        drop_damaged_lines(path, stale)
    return kept, notes


def results_files(path: str, skip: Sequence[str] = ()) -> List[str]:
    """The results files PATH names: the file itself, a series folder's results.jsonl, or every
    results.jsonl under a report folder (sorted), not looking into folders named in `skip` below
    PATH (a report's earlier reports, OUT/previous/). AnalysisError (one line) when there is none."""
    if not os.path.exists(path):
        raise AnalysisError(f"'{path}' does not exist")
    if os.path.isfile(path):
        return [path]
    direct = os.path.join(path, RESULTS_FILE)
    if os.path.isfile(direct):
        return [direct]
    found = []
    for folder, folders, names in os.walk(path):
        folders[:] = [name for name in folders if name not in skip]
        if RESULTS_FILE in names:
            found.append(os.path.join(folder, RESULTS_FILE))
    found.sort()
    if not found:
        raise AnalysisError(f"'{path}' is a folder without results (no {RESULTS_FILE} in it or under it)")
    return found
