"""The numbers of a game review, as lichess computes them (sources in docs/analysis.md):

- win % (White's chances, 0..100) from an evaluation in centipawns, clamped to +-1000:
  ``50 + 50 * (2 / (1 + exp(-slope * cp)) - 1)``, the slope chess's 0.00368208 unless the
  analyser gives its own (fitted to its variant's games: bench/win_curve.py); a mate is 100 (White
  mates) or 0 (Black mates) whatever the curve, as a finished game's result is;
- a move's accuracy from its mover's win % before and after it: 100 when it did not drop, else
  ``103.1668100711649 * exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1``, clamped to
  0..100 (the ``+ 1`` is lichess's allowance for imperfect analysis);
- its judgement from the drop in winning chances (win % drop / 50): inaccuracy from 0.1,
  mistake from 0.2, blunder from 0.3; a drop below `floor` (the analyser's noise) is not judged,
  and an inaccuracy or a mistake needs `margin` win % points more (issue 60: they must hold at
  100 times the nodes);
- a side's game accuracy: the mean of the volatility-weighted mean and the harmonic mean of its
  moves' accuracies, each move weighted by the standard deviation of White's win % over a window
  of positions around it (clamped to 0.5..12);
- a side's turning point: its judged move with the largest drop (the first on ties), none when
  no move of it is judged.

Pure functions of numbers; nothing here knows a game or an engine.
"""
import math
import statistics
from typing import List, Optional, Sequence

from ..core.analyser import WIN_SLOPE

CP_CEILING = 1000                 # evaluations are clamped to +-1000 cp
ACCURACY_A, ACCURACY_K, ACCURACY_B = 103.1668100711649, 0.04354415386753951, -3.166924740191411
ACCURACY_BONUS = 1.0              # lichess: "uncertainty bonus (due to imperfect analysis)"
JUDGEMENTS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))   # winning chances lost
GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
WEIGHT_LOW, WEIGHT_HIGH = 0.5, 12.0
DIGITS = 2                        # win % and accuracy are kept to two decimals


def win_percent(cp: Optional[float], mate: Optional[int] = None, slope: float = WIN_SLOPE) -> float:
    """White's win % for an evaluation from White's view: `cp` centipawns, or `mate` (moves to
    mate, positive when White mates; 0 is not a mate distance); `slope` the logistic's coefficient
    per centipawn."""
    if mate is not None:
        return 100.0 if mate > 0 else 0.0
    if cp is None:
        raise ValueError("an evaluation needs cp or mate")
    cp = max(-CP_CEILING, min(CP_CEILING, cp))
    return 50 + 50 * (2 / (1 + math.exp(-slope * cp)) - 1)


def mover_drop(win_before: float, win_after: float, colour: str) -> float:
    """How much the mover's win % fell with its move (negative when it rose); White's win % in,
    rounded to six decimals so that sums of two-decimal figures compare exactly."""
    drop = win_before - win_after if colour == "white" else win_after - win_before
    return round(drop, 6)


def move_accuracy(drop: float) -> float:
    """A move's accuracy (0..100) from its mover's win % drop."""
    if drop <= 0:
        return 100.0
    raw = ACCURACY_A * math.exp(-ACCURACY_K * drop) + ACCURACY_B + ACCURACY_BONUS
    return max(0.0, min(100.0, raw))


def judgement(drop: float, floor: float = 0.0, margin: float = 0.0) -> Optional[str]:
    """None, "inaccuracy", "mistake" or "blunder" for a mover's win % drop; None below `floor`
    (win % points: a drop the analyser's own noise can make); an inaccuracy or a mistake needs
    its threshold plus `margin` (win % points), a blunder its threshold alone."""
    if drop < floor:
        return None
    for threshold, name in JUDGEMENTS:
        if (drop if name == "blunder" else drop - margin) / 50 >= threshold:
            return name
    return None


def volatility_weights(wins: Sequence[float]) -> List[float]:
    """One weight per move for White's win % at each position (the first position, then after each
    move): the population standard deviation over a window of `size` positions, size = moves / 10
    clamped to 2..8; the first moves share the first window. Clamped to 0.5..12."""
    moves = len(wins) - 1
    if moves < 1:
        return []
    size = max(2, min(8, moves // 10))
    windows = [wins[:size]] * (min(size, len(wins)) - 2)
    windows += [wins[i:i + size] for i in range(len(wins) - size + 1)]
    return [max(WEIGHT_LOW, min(WEIGHT_HIGH, statistics.pstdev(w))) for w in windows[:moves]]


def harmonic_mean(values: Sequence[float]) -> float:
    """lichess's harmonic mean: each value counted as at least 1, so a 0 does not zero it."""
    return len(values) / sum(1 / max(1.0, v) for v in values)


def game_accuracy(wins: Sequence[float], colours: Sequence[str],
                  accuracies: Optional[Sequence[float]] = None) -> dict:
    """{"white": accuracy or None, "black": ...}: each side's game accuracy from White's win % at
    every position (the first, then after each move) and the mover of each move; `accuracies`,
    when given, are the moves' accuracies (else each from its drop)."""
    weights = volatility_weights(wins)
    if accuracies is None:
        accuracies = [move_accuracy(mover_drop(wins[i], wins[i + 1], c)) for i, c in enumerate(colours)]
    out = {}
    for side in ("white", "black"):
        pairs = [(accuracies[i], weights[i]) for i, c in enumerate(colours) if c == side]
        if not pairs:
            out[side] = None
            continue
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        out[side] = round((weighted + harmonic_mean([a for a, _ in pairs])) / 2, DIGITS)
    return out


def turning_point(plies: Sequence[dict], side: str) -> Optional[int]:
    """The ply of `side`'s judged move with the largest drop of its win % (the first on ties);
    None when none of its moves is judged. Each ply entry has "ply", "colour", "win_before",
    "win_after", "judgement"."""
    best, worst = None, 0.0
    for entry in plies:
        if entry["colour"] != side or not entry.get("judgement"):
            continue
        drop = mover_drop(entry["win_before"], entry["win_after"], side)
        if drop > worst:
            best, worst = entry["ply"], drop
    return best
