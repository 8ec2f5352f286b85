"""One game's review: the line analysis.jsonl holds for it.

Every position of the game from the first analysed ply on is evaluated once (the position before
the first analysed move, then the position after each move), so a ply's ``win_after`` is the next
ply's ``win_before``. A position where the game is over (by the variant's rules) is not searched:
it scores its result, win % 100, 0 or 50, with cp and mate both null. Plies that a record marks as
its opening (``opening_plies``) are played but not analysed.

The line: ``{"game", "variant", "analyser", "plies": [...], "accuracy": {"white", "black"},
"turning_point": {"white", "black"}}``; each ply: ``{"ply", "colour", "move", "best", "cp_before",
"mate_before", "cp_after", "mate_after", "win_before", "win_after", "accuracy", "judgement"}``
(see docs/analysis.md).
"""
from typing import Any, Dict, List, Optional, Tuple

from ..records import record_states
from ..variants.base import Move
from . import formulas
from .analyser import AnalysisError, Analyser

Scored = Tuple[Optional[int], Optional[int], Optional[Move], float]   # cp, mate, best, White's win %


class ReviewError(AnalysisError):
    """A record that cannot be reviewed (its moves do not replay); one line of text."""


def game_states(record: Dict[str, Any], variant) -> Tuple[List[Any], List[Move]]:
    """Every state of a recorded game (the start first) and its moves; ReviewError naming the ply
    whose move cannot be played."""
    try:
        states, moves, problem = record_states(record, variant)
    except ValueError as exc:
        raise ReviewError(f"game {record.get('game', '?')}: {exc}") from None
    if problem is not None:
        raise ReviewError(f"game {record.get('game', '?')}: {problem}")
    return states, moves


def score(state: Any, variant, analyser: Analyser) -> Scored:
    """(cp, mate, best, White's win %) of one position."""
    outcome = variant.outcome(state)
    if outcome is not None:
        win = {"white": 100.0, "black": 0.0}.get(outcome.result, 50.0)
        return None, None, None, win
    evaluation = analyser.evaluate(state)
    win = formulas.win_percent(evaluation.cp, evaluation.mate)
    return evaluation.cp, evaluation.mate, evaluation.best, round(win, formulas.DIGITS)


def review_game(record: Dict[str, Any], variant, analyser: Analyser, label: Optional[str] = None) -> Dict[str, Any]:
    """The analysis.jsonl line of one recorded game (`label`: its "analyser", default the analyser's)."""
    states, moves = game_states(record, variant)
    first = min(max(int(record.get("opening_plies") or 0), 0), len(moves))
    plies: List[Dict[str, Any]] = []
    before = score(states[first], variant, analyser) if first < len(moves) else None
    for index in range(first, len(moves)):
        after = score(states[index + 1], variant, analyser)
        colour = str(variant.to_move(states[index])).lower()
        drop = formulas.mover_drop(before[3], after[3], colour)
        plies.append({
            "ply": index + 1,
            "colour": colour,
            "move": variant.move_name(moves[index]),
            "best": variant.move_name(before[2]) if before[2] is not None else None,
            "cp_before": before[0], "mate_before": before[1],
            "cp_after": after[0], "mate_after": after[1],
            "win_before": before[3], "win_after": after[3],
            "accuracy": round(formulas.move_accuracy(drop), formulas.DIGITS),
            "judgement": formulas.judgement(drop),
        })
        before = after
    wins = [p["win_before"] for p in plies[:1]] + [p["win_after"] for p in plies]
    return {
        "game": record.get("game"),
        "variant": variant.name,
        "analyser": label or analyser.label,
        "plies": plies,
        "accuracy": formulas.game_accuracy(wins, [p["colour"] for p in plies]),
        "turning_point": {side: formulas.turning_point(plies, side) for side in ("white", "black")},
    }
