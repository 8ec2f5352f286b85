"""A recorded game meets the rules: the state it started from, for any variant.

Used by the replay, the HTML viewer and the analysis alike (a record is a line of results.jsonl;
harness/runs/results.py reads and writes the files).
"""
from typing import Any, Dict, List, Optional, Tuple

from .variant import Move


def start_state(record: Dict[str, Any], variant) -> Any:
    """The state a recorded game started from (the variant's `record_start`: CS3243's from the
    record's ``start_fen``, another variant's from the record's start options).
    ValueError when the record's start cannot be set up."""
    try:
        return variant.record_start(record)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the record's start cannot be set up: {exc}") from None


def record_states(record: Dict[str, Any], variant) -> Tuple[List[Any], List[Move], Optional[str]]:
    """Every state of a recorded game (the start first), the moves that led from one to the next,
    and a note when a move of the record cannot be played (the states then end at the last one
    that could be reached). ValueError when the record's start cannot be set up."""
    state = start_state(record, variant)
    states: List[Any] = [state]
    moves: List[Move] = []
    for ply, name in enumerate(record.get("moves") or [], 1):
        try:
            move = variant.parse_move(name)
        except (TypeError, ValueError):
            move = None
        if move is None or move not in variant.legal_moves(state):
            return states, moves, f"ply {ply} ({name!r}) cannot be played here: the record is inconsistent"
        state = variant.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves, None
