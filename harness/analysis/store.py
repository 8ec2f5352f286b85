"""analysis.jsonl: the game review's lines, one per game, beside each results.jsonl (which is
never rewritten). Lines are appended as games are analysed; a game analysed again (other
settings, or a series started over) has its old line dropped first, so a file holds one line per
game. A line that does not parse (a killed run) is dropped with a note.

`read_analyses(results_path)` is the one reader: {game number: entry} for a results file.
"""
import os
from typing import Dict, List, Tuple

from ..results import ANALYSIS_FILE, RESULTS_FILE, damage_notes, drop_damaged_lines, read_records_noting_damage
from .analyser import AnalysisError


def analysis_path(results_path: str) -> str:
    """The analysis.jsonl beside a results file."""
    return os.path.join(os.path.dirname(results_path), ANALYSIS_FILE)


def read_analyses(results_path: str) -> Dict[int, dict]:
    """{game number: analysis entry} of the games of `results_path` that have been analysed
    (empty when none has)."""
    entries, _ = read_records_noting_damage(analysis_path(results_path))
    return entries


def up_to_date(entry: dict, record: dict, label: str) -> bool:
    """Is `entry` the analysis of this record's moves by this analyser (with these settings)?"""
    moves = record.get("moves") or []
    plies = entry.get("plies") or []
    return (entry.get("analyser") == label and all(isinstance(p, dict) for p in plies)
            and all(0 < p.get("ply", 0) <= len(moves) and p.get("move") == moves[p["ply"] - 1] for p in plies)
            and (not plies or plies[-1]["ply"] == len(moves)))


def prepare(results_path: str, records: Dict[int, dict], label: str) -> Tuple[Dict[int, dict], List[str]]:
    """The entries already done for `records` (by game) and notes; the lines of those records'
    games that are out of date, and damaged lines, are dropped from the file."""
    path = analysis_path(results_path)
    entries, damaged = read_records_noting_damage(path)
    kept = {game: entries[game] for game, record in records.items()
            if game in entries and up_to_date(entries[game], record, label)}
    stale = [game for game in records if game in entries and game not in kept]
    notes = [note.replace("its game will be played again", "its game will be analysed again")
             for note in damage_notes(path, damaged)]
    if damaged or stale:
        drop_damaged_lines(path, stale)
    return kept, notes


def results_files(path: str) -> List[str]:
    """The results files PATH names: the file itself, a series folder's results.jsonl, or every
    results.jsonl under a report folder (sorted). AnalysisError (one line) when there is none."""
    if not os.path.exists(path):
        raise AnalysisError(f"'{path}' does not exist")
    if os.path.isfile(path):
        return [path]
    direct = os.path.join(path, RESULTS_FILE)
    if os.path.isfile(direct):
        return [direct]
    found = sorted(os.path.join(folder, RESULTS_FILE) for folder, _, names in os.walk(path)
                   if RESULTS_FILE in names)
    if not found:
        raise AnalysisError(f"'{path}' is a folder without results (no {RESULTS_FILE} in it or under it)")
    return found
