"""A series on disk and what its game records add up to.

A series lives in one directory: ``series.json`` (what is being played: agents, first seed,
game-length limits, start position), ``results.jsonl`` (one game record per line, appended the
moment a game ends, keyed by its ``game`` index) and ``report.json`` (the summary). Reading
tolerates a run that was killed mid-write: a line that does not parse (in practice only the
last) is dropped and the file rewritten without it before anything is appended.

The summaries are pure functions of the records, so a resumed series adds up exactly like an
uninterrupted one.
"""
import json
import os
import statistics
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import stats

RESULTS_FILE = "results.jsonl"
SETTINGS_FILE = "series.json"
SUMMARY_FILE = "report.json"
# The settings that make two runs the same series (games may grow; timeouts and jobs may change).
IDENTITY = ("variant", "white", "black", "seed", "fifty", "max_plies", "start", "fen", "edition")
DEFAULTS = {"variant": "cs3243"}    # what a settings file without the key meant
RATE_DIGITS = 4
ERRORS_KEPT = 5


class ResultsError(Exception):
    """A series directory that cannot be used as asked; the text is one line."""


# ----------------------------------------------------------------------------- files


def _parse(raw: bytes) -> Optional[dict]:
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("game"), int) else None


def read_records(path: str) -> Tuple[Dict[int, dict], int]:
    """Records by game index (the first record of a game wins) and the number of damaged lines
    met. A missing file has no records."""
    records: Dict[int, dict] = {}
    damaged = 0
    if not os.path.exists(path):
        return records, 0
    with open(path, "rb") as handle:
        data = handle.read()
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        record = _parse(raw)
        if record is None:
            damaged += 1
        elif record["game"] not in records:
            records[record["game"]] = record
    return records, damaged


def drop_damaged_lines(path: str) -> None:
    """Rewrite the file without the lines that do not parse (a killed run's half-written last
    line), keeping the others byte for byte and in order, so appending can go on."""
    with open(path, "rb") as handle:
        kept = [raw for raw in handle.read().split(b"\n") if raw.strip() and _parse(raw) is not None]
    temporary = path + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(b"".join(raw + b"\n" for raw in kept))
    os.replace(temporary, path)


def append_record(handle, record: dict) -> None:
    """One line per game, flushed at once so a kill loses at most the game in flight."""
    handle.write(json.dumps(record) + "\n")
    handle.flush()


def read_settings(directory: str) -> Optional[dict]:
    path = os.path.join(directory, SETTINGS_FILE)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except ValueError:
        raise ResultsError(f"{path} is damaged; remove it or use another --out") from None


def write_json(path: str, data: Any) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)
        handle.write("\n")


def differences(old: dict, new: dict) -> List[str]:
    """Names of the identity settings in which two series differ."""
    return [key for key in IDENTITY if old.get(key, DEFAULTS.get(key)) != new.get(key, DEFAULTS.get(key))]


# ----------------------------------------------------------------------------- summaries


def outcome(record: dict, colour: str) -> str:
    """'win', 'draw' or 'loss' for the side playing `colour` ('white' or 'black')."""
    if record["result"] == "draw":
        return "draw"
    return "win" if record["result"] == colour else "loss"


def _rate(count: int, games: int) -> float:
    return round(count / games, RATE_DIGITS) if games else 0.0


def _counts(values: Iterable[str]) -> Dict[str, int]:
    """Counts, most frequent first (then by name), so reports read the same every run."""
    counts: Dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def seconds_summary(values: List[float]) -> Dict[str, Optional[float]]:
    if not values:
        return {"mean": None, "median": None, "max": None}
    return {"mean": round(statistics.fmean(values), 6), "median": round(statistics.median(values), 6),
            "max": round(max(values), 6)}


def side_summary(records: List[dict], colour: str) -> Dict[str, Any]:
    """How the side playing `colour` fared over these games, from its own point of view."""
    games = len(records)
    outcomes = _counts(outcome(r, colour) for r in records)
    wins, draws, losses = (outcomes.get(k, 0) for k in ("win", "draw", "loss"))
    moves = [s for r in records for s in r["think"][colour]["seconds"]]
    own = colour.capitalize() + ":"      # the referee prefixes an error with the faulty side
    errors: List[str] = []
    for r in records:
        error = r.get("error") or ""
        if error.startswith(own) and error not in errors and len(errors) < ERRORS_KEPT:
            errors.append(error)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": _rate(wins, games),
        "not_lost_rate": _rate(wins + draws, games),
        **stats.summary(wins, draws, losses),
        "termination": _counts(r["reason"] for r in records),
        "lost_by": _counts(r["reason"] for r in records if outcome(r, colour) == "loss"),
        "move_seconds": seconds_summary(moves),
        "game_seconds_max": round(max((r["think"][colour]["total"] for r in records), default=0.0), 6),
        "plies": {"mean": round(statistics.fmean(r["plies"] for r in records), 1) if records else None,
                  "max": max((r["plies"] for r in records), default=None)},
        "printed_games": sum(1 for r in records if (r.get("printed") or {}).get(colour)),
        "mutated_games": sum(1 for r in records if (r.get("mutated") or {}).get(colour)),
        "errors": errors,
    }


def series_summary(settings: dict, records: List[dict]) -> Dict[str, Any]:
    """The series command's report.json: the settings, the overall score and each side's view."""
    return {
        "settings": settings,
        "games": len(records),
        "score": {"white": sum(1 for r in records if r["result"] == "white"),
                  "draw": sum(1 for r in records if r["result"] == "draw"),
                  "black": sum(1 for r in records if r["result"] == "black")},
        "termination": _counts(r["reason"] for r in records),
        "white": side_summary(records, "white"),
        "black": side_summary(records, "black"),
    }
