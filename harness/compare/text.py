"""The compare command's lines, as fastchess prints them: the pentanomial report and the SPRT's
verdict (the numbers are harness.stats's)."""
import math
from typing import List, Optional, Sequence, Tuple

from ..stats import pentanomial_elo, pentanomial_los, pentanomial_nelo


def _fixed(value: Optional[float], digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(numerator: float, denominator: float) -> float:
    if denominator:
        return numerator / denominator
    return math.inf if numerator else math.nan


def pentanomial_lines(counts: Sequence[int], wins: int, losses: int, draws: int) -> List[str]:
    """fastchess's result lines for the first side (its pentanomial report):
    `Elo: 19.83 +/- 6.77, nElo: 24.25 +/- 8.26`,
    `LOS: 100.00 %, DrawRatio: 37.15 %, PairsRatio: 1.30` (DrawRatio: pairs scoring 1 of 2; PairsRatio:
    pairs won (3/2 or 2) over pairs lost (0 or 1/2)),
    `Games: 6804, Wins: 2718, Losses: 2330, Draws: 1756, Points: 3596.0 (52.85 %)`,
    `Ptnml(0-2): [352, 579, 1264, 743, 464]`."""
    pairs = sum(counts)
    elo, margin = pentanomial_elo(counts) or (None, None)
    nelo, nelo_margin = pentanomial_nelo(counts) or (None, None)
    games = wins + losses + draws
    points = wins + draws / 2
    return [f"Elo: {_fixed(elo)} +/- {_fixed(margin)}, nElo: {_fixed(nelo)} +/- {_fixed(nelo_margin)}",
            f"LOS: {_fixed(None if not pairs else 100 * pentanomial_los(counts))} %, "
            f"DrawRatio: {_fixed(None if not pairs else 100 * counts[2] / pairs)} %, "
            f"PairsRatio: {_ratio(counts[3] + counts[4], counts[0] + counts[1]):.2f}",
            f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, "
            f"Points: {points:.1f} ({_fixed(None if not games else 100 * points / games)} %)",
            f"Ptnml(0-2): [{', '.join(str(c) for c in counts)}]"]


def llr_line(llr: float, bounds: Tuple[float, float], elo0: float, elo1: float) -> str:
    """fastchess's `LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]`: the LLR, its bounds and the hypotheses."""
    return f"LLR: {llr:.2f} ({bounds[0]:.2f}, {bounds[1]:.2f}) [{elo0:.2f}, {elo1:.2f}]"


def sprt_line(elo0: float, elo1: float, result: Optional[str], games: int) -> str:
    """fastchess's last line: `SPRT ([0.00, 10.00]) completed - H1 was accepted` (or H0), or
    `... - no decision after N games`."""
    verdict = f"{result} was accepted" if result else f"no decision after {games} games"
    return f"SPRT ([{elo0:.2f}, {elo1:.2f}]) completed - {verdict}"
