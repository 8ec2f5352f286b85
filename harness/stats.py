"""One place for the statistics every report and bench prints (model: cutechess-cli, fastchess).

From a win/draw/loss count of one side: its score, the Elo difference that score implies, the
95 % margin of that difference from the trinomial (win/draw/loss) variance, the likelihood of
superiority (LOS), and Wilson 95 % intervals for a rate (e.g. games won, games not lost).

Formulas, for W wins, D draws and L losses in N games:
- score s = (W + D/2) / N; Elo = -400 log10(1/s - 1) (+inf at s = 1, -inf at s = 0);
- sigma = sqrt((W/N)(1-s)^2 + (D/N)(1/2-s)^2 + (L/N)s^2) / sqrt(N); the margin is half the
  Elo width of s +/- 1.96 sigma (inf when that interval reaches 0 or 1);
- LOS = 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L))) (1/2 when W + L = 0);
- Wilson interval for k of n: centre (p + z^2/2n) / (1 + z^2/n), half-width
  z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n), with p = k/n and z = 1.96.
"""
import math
from typing import Dict, List, Optional, Tuple

Z95 = 1.959963984540054


def score(wins: int, draws: int, losses: int) -> Optional[float]:
    games = wins + draws + losses
    return (wins + draws / 2) / games if games else None


def elo_from_score(s: float) -> float:
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1) + 0.0     # + 0.0: an even score is 0.0, not -0.0


def elo(wins: int, draws: int, losses: int) -> Optional[float]:
    s = score(wins, draws, losses)
    return None if s is None else elo_from_score(s)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Optional[Tuple[float, float]]:
    """(low, high): the Elo of score -/+ z standard errors (an end past 0 or 1 is -inf / +inf)."""
    games = wins + draws + losses
    if not games:
        return None
    s = score(wins, draws, losses)
    variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / games
    sigma = math.sqrt(variance / games)
    return elo_from_score(s - z * sigma), elo_from_score(s + z * sigma)


def elo_margin(wins: int, draws: int, losses: int, z: float = Z95) -> Optional[float]:
    """Half the Elo width of score +/- z standard errors; inf when that reaches 0 or 1."""
    interval = elo_interval(wins, draws, losses, z)
    if interval is None:
        return None
    low, high = interval
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the chance the side is the stronger, from wins and losses."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))


def wilson(successes: int, trials: int, z: float = Z95) -> Optional[List[float]]:
    """[low, high] Wilson interval of a rate; None with no trials."""
    if not trials:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _rounded(value: Optional[float], digits: int) -> Optional[float]:
    """Finite values rounded; inf kept (JSON writes it as Infinity, which json reads back)."""
    if value is None or math.isinf(value):
        return value
    return round(value, digits)


def summary(wins: int, draws: int, losses: int) -> Dict[str, object]:
    """The statistics report.json gives for one side: score, elo, elo_margin, los and the
    Wilson intervals of the win rate and of the not-lost rate."""
    games = wins + draws + losses
    interval = lambda k: None if not games else [round(x, 4) for x in wilson(k, games)]  # noqa: E731
    return {
        "score": _rounded(score(wins, draws, losses), 4),
        "elo": _rounded(elo(wins, draws, losses), 1),
        "elo_margin": _rounded(elo_margin(wins, draws, losses), 1),
        "los": round(los(wins, losses), 4),
        "win_wilson95": interval(wins),
        "not_lost_wilson95": interval(wins + draws),
    }


def format_elo(value: Optional[float]) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.1f}"


def score_line(white: str, black: str, wins: int, losses: int, draws: int) -> str:
    """cutechess's line, from the first side's view: `Score of A vs B: W - L - D  [0.625] 24`."""
    games = wins + losses + draws
    s = score(wins, draws, losses)
    return f"Score of {white} vs {black}: {wins} - {losses} - {draws}  [{s if s is None else f'{s:.3f}'}] {games}"


def elo_line(wins: int, losses: int, draws: int) -> str:
    """`Elo difference: 88.7 +/- 120.3, LOS: 91.2 %, DrawRatio: 12.5 %`."""
    games = wins + losses + draws
    margin = elo_margin(wins, draws, losses)
    margin_text = "-" if margin is None else ("inf" if math.isinf(margin) else f"{margin:.1f}")
    draw_ratio = 100 * draws / games if games else 0.0
    return (f"Elo difference: {format_elo(elo(wins, draws, losses))} +/- {margin_text}, "
            f"LOS: {100 * los(wins, losses):.1f} %, DrawRatio: {draw_ratio:.1f} %")
