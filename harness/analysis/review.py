"""One game's review: the line analysis.jsonl holds for it.

Every position of the game from the first analysed ply on is evaluated (the position before
the first analysed move, then the position after each move), and each position keeps one
evaluation, so a ply's ``win_after`` is the next ply's ``win_before``. A position where the game
is over (by the variant's rules) is not searched: it scores its result, win % 100, 0 or 50, with
cp and mate both null. Plies that a record marks as its opening (``opening_plies``) are played
but not analysed.

The rule (`Rule`, docs/analysis.md "The rule"): win % on the analyser's own fitted curve; a move
equal to the analyser's best move in its position is never judged (accuracy 100); a drop below
the analyser's noise is not judged; a move judged at the first look has its two positions
searched again with `second_look` times the nodes, those evaluations replacing the first ones
(for the plies on either side too), until every judged move stands on second-look evaluations.
A ply's ``second_look`` says which of its evaluations come from it: null, "before", "after" or
"both". A side's turning point is its judged move with the largest drop.

The line: ``{"game", "variant", "analyser", "plies": [...], "accuracy": {"white", "black"},
"turning_point": {"white", "black"}}``; each ply: ``{"ply", "colour", "move", "best", "cp_before",
"mate_before", "cp_after", "mate_after", "win_before", "win_after", "accuracy", "judgement",
"second_look"}`` (see docs/analysis.md).
"""
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..core.records import record_states
from ..core.variant import Move
from . import formulas
from ..core.analyser import AnalysisError, Analyser

Scored = Tuple[Optional[int], Optional[int], Optional[Move], float]   # cp, mate, best, White's win %


class Rule(NamedTuple):
    """How moves are judged: the win % slope, the smallest drop judged (win % points), the second
    look's node factor (1: none), whether the analyser's own best move is spared and the margin
    (win % points) an inaccuracy's or a mistake's drop needs beyond its threshold."""
    slope: float
    floor: float
    second_look: int
    spare_best: bool
    margin: float = 0.0

    @classmethod
    def of(cls, analyser: Analyser) -> "Rule":
        """The analyser's own rule (its fitted slope, its noise, its second look, its margin)."""
        return cls(analyser.win_slope, analyser.noise, analyser.second_look, True, analyser.margin)


LICHESS = Rule(formulas.WIN_SLOPE, 0.0, 1, False)    # the rule before issue 51, as lichess's


class ReviewError(AnalysisError):
    """A record that cannot be reviewed (its moves do not replay); one line of text."""


def game_states(record: Dict[str, Any], variant) -> Tuple[List[Any], List[Move]]:
    """Every state of a recorded game (the start first) and its moves; ReviewError naming the ply
    whose move cannot be played (the caller names the game)."""
    try:
        states, moves, problem = record_states(record, variant)
    except ValueError as exc:
        raise ReviewError(str(exc)) from None
    if problem is not None:
        raise ReviewError(problem)
    return states, moves


def score(state: Any, variant, analyser: Analyser, slope: float = formulas.WIN_SLOPE,
          nodes: Optional[int] = None) -> Scored:
    """(cp, mate, best, White's win %) of one position (searched to `nodes`, default the
    analyser's count)."""
    outcome = variant.outcome(state)
    if outcome is not None:
        win = {"white": 100.0, "black": 0.0}.get(outcome.result, 50.0)
        return None, None, None, win
    evaluation = analyser.evaluate(state, nodes)
    win = formulas.win_percent(evaluation.cp, evaluation.mate, slope)
    return evaluation.cp, evaluation.mate, evaluation.best, round(win, formulas.DIGITS)


def _judged(before: Scored, after: Scored, move: Move, colour: str, rule: Rule) -> Tuple[float, Optional[str]]:
    """(the mover's drop, its judgement) of one move by `rule`; a best move: (0, None)."""
    if rule.spare_best and before[2] == move:
        return 0.0, None
    drop = formulas.mover_drop(before[3], after[3], colour)
    return drop, formulas.judgement(drop, rule.floor, rule.margin)


def review_game(record: Dict[str, Any], variant, analyser: Analyser, label: Optional[str] = None,
                rule: Optional[Rule] = None) -> Dict[str, Any]:
    """The analysis.jsonl line of one recorded game (`label`: its "analyser", default the
    analyser's; `rule`: default the analyser's own, `Rule.of`)."""
    rule = rule or Rule.of(analyser)
    states, moves = game_states(record, variant)
    first = min(max(int(record.get("opening_plies") or 0), 0), len(moves))
    if first == len(moves):
        looks: Dict[int, Scored] = {}
    else:
        looks = {i: score(states[i], variant, analyser, rule.slope) for i in range(first, len(moves) + 1)}
    colours = {i: str(variant.to_move(states[i])).lower() for i in range(first, len(moves))}
    deeper: set = set()         # positions evaluated again at the second look
    searched = {i for i, look in looks.items() if look[0] is not None or look[1] is not None}
    again = rule.second_look > 1
    while again:
        again = False
        for i in range(first, len(moves)):
            if _judged(looks[i], looks[i + 1], moves[i], colours[i], rule)[1] is None:
                continue
            for j in (i, i + 1):
                if j in searched and j not in deeper:
                    looks[j] = score(states[j], variant, analyser, rule.slope, analyser.nodes * rule.second_look)
                    deeper.add(j)
                    again = True
    plies: List[Dict[str, Any]] = []
    accuracies: List[float] = []
    for i in range(first, len(moves)):
        before, after = looks[i], looks[i + 1]
        drop, judged = _judged(before, after, moves[i], colours[i], rule)
        accuracies.append(formulas.move_accuracy(drop))
        second = {(True, True): "both", (True, False): "before", (False, True): "after"}.get(
            (i in deeper, i + 1 in deeper))
        plies.append({
            "ply": i + 1,
            "colour": colours[i],
            "move": variant.move_name(moves[i]),
            "best": variant.move_name(before[2]) if before[2] is not None else None,
            "cp_before": before[0], "mate_before": before[1],
            "cp_after": after[0], "mate_after": after[1],
            "win_before": before[3], "win_after": after[3],
            "accuracy": round(accuracies[-1], formulas.DIGITS),
            "judgement": judged,
            "second_look": second,
        })
    wins = [p["win_before"] for p in plies[:1]] + [p["win_after"] for p in plies]
    return {
        "game": record.get("game"),
        "variant": variant.name,
        "analyser": label or analyser.label,
        "plies": plies,
        "accuracy": formulas.game_accuracy(wins, [p["colour"] for p in plies], accuracies),
        "turning_point": {side: formulas.turning_point(plies, side) for side in ("white", "black")},
    }
