"""Why a game was lost or a case failed, and whether the clock decided it: one vocabulary for every
class grader (CS3243's files, NTHU's repositories, Congo's programs).

`faults` counts the failures by kind (the CS3243 gradebook's words: timeout, crash, illegal_move,
game_time; NTHU adds no_move, a program that ended without writing a move; Congo's cases add
wrong_answer, format, output and crash/timeout); `first_error` is the first failure's own words.
A result the clock decided is marked apart: `near_limit` counts the moves that took more than
`NEAR_SHARE` of the move limit, `timeouts` the Congo cases that timed out; both may change with
the machine's load, so the console says how to check (`rerun_line`).
"""
import os
from typing import Dict, Iterable, List, Optional, Tuple

from ..runs.results import outcome

NEAR_SHARE = 0.8                 # a move over 80 % of its limit was decided by the clock as much as the work
GAME_FAULTS = ("timeout", "crash", "illegal_move", "game_time")
NO_MOVE = "no_move"
NO_MOVE_WORDS = "wrote no complete move"     # the NTHU program's words (variants/nthu/program.py)
WORDS = {"timeout": "timeout", "crash": "crash", "illegal_move": "illegal move", "game_time": "game time",
         NO_MOVE: "no move", "wrong_answer": "wrong answer", "format": "format", "output": "too much output",
         "build": "build failed", "missing": "missing"}


def game_fault(record: dict, colour: str) -> Optional[str]:
    """The kind of fault by which the side playing `colour` lost `record`, or None (a game not
    lost, or lost on the board)."""
    if outcome(record, colour) != "loss" or record.get("reason") not in GAME_FAULTS:
        return None
    if record["reason"] == "crash" and NO_MOVE_WORDS in (record.get("error") or ""):
        return NO_MOVE
    return record["reason"]


def near_limit_moves(seconds: Iterable[float], limit: Optional[float]) -> int:
    """How many of these move times passed NEAR_SHARE of the move limit `limit`."""
    if not limit:
        return 0
    return sum(1 for s in seconds if s > NEAR_SHARE * limit)


def games_reasons(games: Iterable[Tuple[dict, str]], move_timeout: Optional[float]) -> dict:
    """{"faults": {kind: count}, "first_error", "near_limit", "slowest_move"} of one side over its
    games, each (record, colour it played)."""
    faults: Dict[str, int] = {}
    first_error, near, slowest = None, 0, 0.0
    for record, colour in games:
        kind = game_fault(record, colour)
        if kind:
            faults[kind] = faults.get(kind, 0) + 1
            if first_error is None:
                first_error = own_error(record.get("error"), colour)
        seconds = (record.get("think") or {}).get(colour, {}).get("seconds") or []
        near += near_limit_moves(seconds, move_timeout)
        slowest = max([slowest, *seconds])
    return {"faults": faults, "first_error": first_error, "near_limit": near, "slowest_move": round(slowest, 3)}


def own_error(error: Optional[str], colour: str) -> Optional[str]:
    """The referee's error without the side's prefix ("White: wrote no ..." -> "wrote no ...")."""
    if not error:
        return None
    prefix = colour.capitalize() + ":"
    return error[len(prefix):].strip() if error.startswith(prefix) else error


def case_kind(what: str) -> str:
    """The kind of a failed Congo case from its words (isolation.untrusted_run's `failure`, then
    congo_tester.check's `output_lines`)."""
    if what.startswith("timed out"):
        return "timeout"
    if what.startswith("printed more than"):
        return "output"
    if what.startswith(("printed", "printed nothing")):
        return "format"
    return "crash"


def comma_separated(expected: List[str], got: List[str]) -> bool:
    """Did the program print the expected answer with commas where the course prints spaces?"""
    def words(lines):
        return [w for line in lines for w in line.replace(",", " ").split()]
    return any("," in line for line in got) and sorted(words(expected)) == sorted(words(got))


def faults_text(faults: Dict[str, int]) -> str:
    """'timeout 2, no move 1' (the console's and the CSV's form)."""
    return ", ".join(f"{WORDS.get(kind, kind)} {count}" for kind, count in faults.items() if count)


def rerun_line(move_timeout: Optional[float], what: str = "moves near the limit") -> str:
    """The console's warning under a class whose results the clock may have decided."""
    more = f" {2 * move_timeout:g}" if move_timeout else " SECONDS"
    return (f"{what}: the results may depend on this machine's load: rerun with --move-timeout{more} "
            f"(and fewer --jobs) to check")


def strip_paths(text: str, *folders: str) -> str:
    """`text` with every folder of `folders` (absolute, the TA's) left out of the paths it holds."""
    for folder in sorted({os.path.abspath(f) for f in folders if f}, key=len, reverse=True):
        text = text.replace(folder + os.sep, "").replace(folder, ".")
    return text
