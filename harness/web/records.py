"""A results.jsonl the user opened in the page (its content, sent by the browser; the server keeps
nothing): first the list of its games, then one game to step through as the HTML viewer shows
it (`game_data`: its positions and, from an analysis.jsonl sent beside it, its review), with
each position's FEN for the probe."""
from typing import Any, Dict, List, Optional, Tuple

from ..view.html import game_data
from ..core.records import record_states
from ..runs.results import RESULTS_FILE, lines_from_bytes, records_from_bytes
from ..variants import UnknownVariant, find_variant
from ..view.words import ending_words

SUMMARY_FIELDS = ("game", "variant", "white", "black", "seed", "result", "reason", "plies")


class RecordError(ValueError):
    """A game that cannot be shown (one line)."""


def read_analysis(text: str) -> Dict[int, Dict[str, Any]]:
    """analysis.jsonl's entries by game number (``{"game", "variant", "analyser", "plies": [...],
    "accuracy", "turning_point"}`` a line), read as harness/analysis reads its own file: JSON
    lines keyed by ``game``, a line that does not parse skipped. The one place the web app reads
    the format."""
    entries, _ = lines_from_bytes(text.encode("utf-8", errors="replace"))
    return entries


def _records(results: str) -> Tuple[Dict[int, dict], List[str]]:
    records, damaged = records_from_bytes(results.encode("utf-8", errors="replace"))
    notes = [f"{RESULTS_FILE} line {n}: not a game record, skipped" for n in damaged[:5]]
    if len(damaged) > 5:
        notes.append(f"... and {len(damaged) - 5} more lines that are not game records")
    return records, notes


def record_summaries(results: str, analysis: Optional[str] = None) -> Tuple[List[Dict[str, Any]], List[str]]:
    """Each game of a results file's content in one line's worth (by game number), whether the
    analysis has it, and notes on the lines skipped."""
    records, notes = _records(results)
    analysed = read_analysis(analysis) if analysis else {}
    games = []
    for number in sorted(records):
        record = records[number]
        games.append({**{k: record.get(k) for k in SUMMARY_FIELDS}, "analysed": number in analysed})
    return games, notes


def record_view(results: str, number: int, analysis: Optional[str] = None) -> Dict[str, Any]:
    """Game `number` of a results file's content as the page steps through it: the viewer's
    `game_data` (with its `review` when the analysis has the game) plus `variant` and `fens` (one
    per position). RecordError (one line) when there is no such game or it cannot be set up."""
    records, _ = _records(results)
    if number not in records:
        raise RecordError(f"the file has no game {number}")
    record = records[number]
    entry = read_analysis(analysis).get(number) if analysis else None
    try:
        variant = find_variant(record.variant)
        data = game_data("", record, variant, None, RESULTS_FILE, entry)
        states, _, _ = record_states(record, variant)
    except (UnknownVariant, ValueError, TypeError) as exc:
        raise RecordError(f"game {number}: {exc}") from None
    except KeyError as exc:                 # only the review reads fields it cannot do without
        raise RecordError(f"game {number}: its analysis line has no {exc} in a ply") from None
    last = variant.to_move(states[-1]).lower()
    return {**data, "variant": variant.name, "fens": [variant.fen(state) for state in states],
            "checks": [variant.check_cell(state) for state in states],
            "ending": ending_words({**record, "moves": data["moves"], "to_move": last}, variant) or data["ending"]}
